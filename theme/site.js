/* site-builder: listing filters and full-text search. No dependencies, no inline code.
 *
 * Filters: a listing page renders every record as `<li data-project data-status data-tags>`
 * and a hidden `form[data-filters]`; this script shows the form and hides the rows that do not
 * match. Without JavaScript the form stays hidden and every record is listed.
 *
 * Search: the search page's `[data-search-results]` list is filled from the Pagefind index the
 * build writes under `pagefind/`; Pagefind's module is loaded on the first query only.
 */
(function () {
  "use strict";

  var root = new URL(document.body.getAttribute("data-root") || "./", window.location.href);

  function plural(count, word) {
    return count + " " + word + (count === 1 ? "" : "s");
  }

  // ---- filters on listing pages -------------------------------------------------------------

  function matches(row, wanted) {
    for (var i = 0; i < wanted.length; i++) {
      var key = wanted[i][0];
      var value = wanted[i][1];
      if (key === "tag") {
        var tags = (row.getAttribute("data-tags") || "").split(" ");
        if (tags.indexOf(value) < 0) return false;
      } else if (row.getAttribute("data-" + key) !== value) {
        return false;
      }
    }
    return true;
  }

  function initFilters(form) {
    var selects = Array.prototype.slice.call(form.querySelectorAll("select[data-filter]"));
    var rows = Array.prototype.slice.call(document.querySelectorAll("[data-filterable] > li"));
    var groups = Array.prototype.slice.call(document.querySelectorAll("[data-filter-group]"));
    var empty = document.querySelector("[data-filter-empty]");
    var count = form.querySelector("[data-filter-count]");

    // A filtered view has its own address (?status=proposed), so it can be shared.
    var params = new URLSearchParams(window.location.search);
    selects.forEach(function (select) {
      var value = params.get(select.name);
      if (value && select.querySelector('option[value="' + CSS.escape(value) + '"]')) {
        select.value = value;
      }
    });

    function apply(remember) {
      var wanted = selects.filter(function (s) { return s.value; })
        .map(function (s) { return [s.getAttribute("data-filter"), s.value]; });
      var shown = 0;
      rows.forEach(function (row) {
        var keep = matches(row, wanted);
        row.hidden = !keep;
        if (keep) shown++;
      });
      groups.forEach(function (group) {
        var visible = group.querySelectorAll("[data-filterable] > li:not([hidden])").length;
        group.hidden = visible === 0;
        var badge = group.querySelector("h2 .count");
        if (badge) badge.textContent = visible;
      });
      if (empty) empty.hidden = shown > 0;
      count.textContent = shown === rows.length
        ? plural(rows.length, "record")
        : shown + " of " + plural(rows.length, "record");
      if (remember) {
        var query = new URLSearchParams(window.location.search);
        selects.forEach(function (s) {
          if (s.value) query.set(s.name, s.value); else query.delete(s.name);
        });
        var search = query.toString();
        window.history.replaceState(null, "", search ? "?" + search : window.location.pathname);
      }
    }

    form.addEventListener("change", function () { apply(true); });
    form.addEventListener("reset", function () {
      window.setTimeout(function () { apply(true); }, 0);
    });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.hidden = false;
    apply(false);
  }

  // ---- search ---------------------------------------------------------------------------------

  var pagefind = null;

  function loadPagefind() {
    if (!pagefind) {
      pagefind = import(new URL("pagefind/pagefind.js", root).href).then(function (module) {
        return module.options({ baseUrl: root.pathname, excerptLength: 28 }).then(function () {
          module.init();
          return module;
        });
      });
    }
    return pagefind;
  }

  // Pagefind's excerpts are HTML with <mark> around hits. Only text and <mark> are copied
  // into the page, so nothing from an index can inject markup.
  function excerptNodes(html) {
    var doc = new DOMParser().parseFromString("<p>" + html + "</p>", "text/html");
    var out = document.createDocumentFragment();
    doc.body.firstChild.childNodes.forEach(function (node) {
      if (node.nodeName === "MARK") {
        var mark = document.createElement("mark");
        mark.textContent = node.textContent;
        out.appendChild(mark);
      } else {
        out.appendChild(document.createTextNode(node.textContent));
      }
    });
    return out;
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function resultItem(data) {
    var meta = data.meta || {};
    var item = element("li", "row row--result");
    var when = element("div", "row__when");
    when.appendChild(element("span", "ref", meta.ref || ""));
    if (meta.date) when.appendChild(element("span", "", meta.date));
    var what = element("div", "row__what");
    var link = element("a", "row__title", meta.title || data.url);
    link.href = data.url;
    what.appendChild(link);
    var excerpt = element("p", "result__excerpt");
    excerpt.appendChild(excerptNodes(data.excerpt || ""));
    what.appendChild(excerpt);
    var status = element("div", "row__status");
    if (meta.status) {
      var badge = element("span", "badge badge--" + (meta.status_kind || "closed"), meta.status);
      badge.setAttribute("data-status", meta.status_name || "");
      status.appendChild(badge);
    }
    item.appendChild(when);
    item.appendChild(what);
    item.appendChild(status);
    return item;
  }

  function initSearch(results) {
    var input = document.querySelector("[data-search-input]");
    var status = document.querySelector("[data-search-status]");
    var form = input.form;
    var latest = 0;

    function show(message) {
      status.textContent = message;
    }

    function run(query, remember) {
      var ticket = ++latest;
      if (remember) {
        var address = query ? "?q=" + encodeURIComponent(query) : window.location.pathname;
        window.history.replaceState(null, "", address);
      }
      if (!query.trim()) {
        results.replaceChildren();
        show("");
        return;
      }
      loadPagefind().then(function (engine) {
        return engine.debouncedSearch(query, {}, 120);
      }).then(function (search) {
        if (!search || ticket !== latest) return null;
        return Promise.all(search.results.slice(0, 25).map(function (r) { return r.data(); }))
          .then(function (found) {
            if (ticket !== latest) return;
            results.replaceChildren.apply(results, found.map(resultItem));
            var total = search.results.length;
            show(total === 0
              ? "No records match “" + query + "”."
              : plural(total, "record") + " match “" + query + "”"
                + (total > found.length ? "; showing the best " + found.length + "." : "."));
          });
      }).catch(function () {
        show("Search is not available here: its index could not be loaded.");
      });
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      run(input.value, true);
    });
    input.addEventListener("input", function () { run(input.value, true); });
    var initial = new URLSearchParams(window.location.search).get("q") || "";
    input.value = initial;
    if (initial) run(initial, false);
    input.focus();
  }

  document.querySelectorAll("form[data-filters]").forEach(initFilters);
  var results = document.querySelector("[data-search-results]");
  if (results) initSearch(results);
})();
