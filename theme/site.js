/* site-builder: listing filters. No dependencies, no inline code. (Search: search.js.)
 *
 * Filters: a listing page renders every record as `<li data-project data-status data-tags>`
 * and a hidden `form[data-filters]`; this script shows the form and hides the rows that do not
 * match. Without JavaScript the form stays hidden and every record is listed.
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
})();
