/* site-builder: draws ```mermaid blocks with the Mermaid release shipped in the theme.
 * Loaded only by pages whose body holds such a block. Mermaid is imported as ES modules from
 * the site's own assets when a diagram is about to scroll into view; its chunks load as a
 * diagram needs them (a flowchart fetches about a third of the release). Diagrams are laid out
 * with dagre unless one asks for another layout in its own config: Mermaid 12's default, ELK,
 * is a further 1.6 MB of script and most of the main-thread work of drawing a small diagram.
 * Drawn with the page's colour scheme, again when the scheme changes. Without JavaScript, or
 * when a diagram cannot be parsed, the code block stays as it is. No inline code: the page's
 * CSP allows only 'self' scripts, which covers the modules. */
(function () {
  "use strict";
  var script = document.currentScript;
  var codes = document.querySelectorAll("pre > code.language-mermaid, pre[lang=mermaid] > code");
  if (!codes.length || !script) { return; }
  var dark = window.matchMedia("(prefers-color-scheme: dark)");
  var items = Array.prototype.map.call(codes, function (code) {
    return { pre: code.parentNode, source: code.textContent, figure: null };
  });
  var loading = null;
  var drawn = 0;

  function load() {
    if (!loading) {
      var url = new URL(script.getAttribute("data-mermaid"), document.baseURI).href;
      loading = import(url).then(function (module) { return module.default; });
    }
    return loading;
  }

  /* The drawing takes the block's place; the source moves into a "Diagram source"
   * disclosure under it, so it stays readable and copyable. */
  function place(item, svg) {
    if (!item.figure) {
      item.figure = document.createElement("figure");
      item.figure.className = "mermaid-diagram";
      var drawing = document.createElement("div");
      drawing.className = "mermaid-diagram__drawing";
      var details = document.createElement("details");
      var summary = document.createElement("summary");
      summary.textContent = "Diagram source";
      item.pre.parentNode.insertBefore(item.figure, item.pre);
      details.appendChild(summary);
      details.appendChild(item.pre);
      item.figure.appendChild(drawing);
      item.figure.appendChild(details);
    }
    item.figure.firstChild.innerHTML = svg;
  }

  function drawOne(mermaid, item) {
    return mermaid.parse(item.source, { suppressErrors: true }).then(function (valid) {
      if (!valid) { return null; }
      drawn += 1;
      return mermaid.render("mermaid-diagram-" + drawn, item.source).then(function (result) {
        place(item, result.svg);
      });
    });
  }

  function drawAll() {
    return load().then(function (mermaid) {
      mermaid.initialize({ startOnLoad: false, securityLevel: "strict", layout: "dagre",
                           theme: dark.matches ? "dark" : "default" });
      return items.reduce(function (done, item) {
        return done.then(function () { return drawOne(mermaid, item); });
      }, Promise.resolve());
    }).catch(function (error) {
      /* A warning, not an error: the page still shows every diagram's source. */
      console.warn("site-builder: diagrams left as code:", error);
    });
  }

  var started = false;
  function start() {
    if (started) { return; }
    started = true;
    drawAll();
    dark.addEventListener("change", drawAll);
  }

  if ("IntersectionObserver" in window) {
    var watcher = new IntersectionObserver(function (entries) {
      if (entries.some(function (entry) { return entry.isIntersecting; })) {
        watcher.disconnect();
        start();
      }
    }, { rootMargin: "100px 0px" });
    items.forEach(function (item) { watcher.observe(item.pre); });
  } else {
    start();
  }
})();
