/* site-builder: listing filters and the agent menu. No dependencies, no inline code.
 * (Search: search.js.)
 *
 * Filters: a listing page renders every record as `<li data-project data-status data-tags>`
 * and a hidden `form[data-filters]`; this script shows the form and hides the rows that do not
 * match. Without JavaScript the form stays hidden and every record is listed.
 *
 * Agent menu: a record page's `details[data-agent-menu]` opens and closes by itself; this
 * script closes it on Escape (focus back on its summary) and on a click or focus outside, turns
 * its link to the `.md` copy into a "Copy as Markdown" button, and, on a site built without
 * `url`, puts this page's own address where the build wrote placeholders.
 */
(function () {
  "use strict";


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
    document.documentElement.classList.remove("filters-pending");
  }

  document.querySelectorAll("form[data-filters]").forEach(initFilters);

  // ---- the agent menu on record pages --------------------------------------------------------

  function replaceAll(text, placeholder, value) {
    return text.split(placeholder).join(value);
  }

  // A site built without `url` cannot know its address; the page, served over HTTP, does.
  function resolveAddresses(menu, markdownLink) {
    var site = menu.getAttribute("data-site-placeholder");
    var markdown = menu.getAttribute("data-markdown-placeholder");
    if (!site || !markdown || !/^https?:$/.test(window.location.protocol)) return;
    var siteUrl = new URL(menu.getAttribute("data-home"), window.location.href).href;
    var markdownUrl = new URL(markdownLink.getAttribute("href"), window.location.href).href;
    menu.querySelectorAll("[data-needs-address]").forEach(function (item) {
      var link = item.querySelector("a");
      link.href = replaceAll(link.getAttribute("href"), encodeURIComponent(markdown),
                             encodeURIComponent(markdownUrl));
      item.hidden = false;
    });
    menu.querySelectorAll("[data-site-address]").forEach(function (code) {
      code.textContent = replaceAll(code.textContent, site, siteUrl);
    });
    menu.querySelectorAll("[data-until-address]").forEach(function (note) { note.hidden = true; });
  }

  function copyText(text) {
    // Safari lets a page write to the clipboard only within the click, so the text is handed
    // over as a promise where the browser takes one.
    if (window.ClipboardItem && navigator.clipboard.write) {
      var blob = text.then(function (value) { return new Blob([value], {type: "text/plain"}); });
      return navigator.clipboard.write([new ClipboardItem({"text/plain": blob})]);
    }
    return text.then(function (value) { return navigator.clipboard.writeText(value); });
  }

  function initCopy(menu, link) {
    var status = menu.querySelector("[data-copy-status]");
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = "Copy as Markdown";
    button.addEventListener("click", function () {
      var text = fetch(link.href).then(function (response) {
        if (!response.ok) throw new Error(response.status + " " + response.statusText);
        return response.text();
      });
      copyText(text).then(function () {
        status.textContent = "Copied the Markdown to the clipboard.";
      }, function () {
        status.textContent = "Could not copy; the Markdown copy is linked instead.";
        link.hidden = false;
        button.hidden = true;
      });
    });
    link.hidden = true;
    link.parentNode.insertBefore(button, link);
  }

  function initAgentMenu(menu) {
    var summary = menu.querySelector("summary");
    var link = menu.querySelector("[data-copy-markdown]");
    resolveAddresses(menu, link);
    // The clipboard is there only on HTTPS and localhost; elsewhere the link stays.
    if (navigator.clipboard && window.isSecureContext) initCopy(menu, link);
    menu.addEventListener("keydown", function (event) {
      if (event.key !== "Escape" || !menu.open) return;
      menu.open = false;
      summary.focus();
      event.preventDefault();
    });
    document.addEventListener("click", function (event) {
      if (menu.open && !menu.contains(event.target)) menu.open = false;
    });
    menu.addEventListener("focusout", function (event) {
      if (menu.open && event.relatedTarget && !menu.contains(event.relatedTarget)) {
        menu.open = false;
      }
    });
  }

  document.querySelectorAll("details[data-agent-menu]").forEach(initAgentMenu);
})();
