/* site-builder: draws ```mermaid blocks with the Mermaid release shipped in the theme.
 * Loaded only by pages whose body holds such a block. Mermaid (5.5 MB, half a second or more
 * of main-thread work) is fetched only when a diagram is about to scroll into view, and drawn with the page's colour scheme,
 * again when the scheme changes. Without JavaScript, or when a diagram cannot be parsed,
 * the code block stays as it is. No inline code: the page's CSP allows only 'self' scripts. */
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
      loading = new Promise(function (resolve, reject) {
        var tag = document.createElement("script");
        tag.src = script.getAttribute("data-mermaid");
        tag.addEventListener("load", function () { resolve(window.mermaid); });
        tag.addEventListener("error", reject);
        document.head.appendChild(tag);
      });
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
      mermaid.initialize({ startOnLoad: false, securityLevel: "strict",
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
