/* Loaded (blocking) in the head of every page, before the stylesheet, so what it sets is in
 * place before anything is painted (the Content-Security-Policy allows no inline script).
 *
 * Theme: a reader who chose light or dark with the header toggle gets it on every page, with
 * no flash of the other one; without a choice the system's prefers-color-scheme decides
 * (site.css). Choosing what the system prefers forgets the choice, so the site follows the
 * system again.
 *
 * Filters: when the address asks for a filtered view (?status=proposed), the list stays
 * invisible until site.js has applied the filter, so it is never painted in full and then
 * collapsed. site.css reveals it after 1.5 s whatever happens, so a failed script can never
 * leave the page blank. */
(function () {
  var KEY = "site-builder-theme";
  var root = document.documentElement;
  var dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function stored() {
    try {
      var value = window.localStorage.getItem(KEY);
      return value === "light" || value === "dark" ? value : null;
    } catch (e) {
      return null; /* storage blocked: follow the system */
    }
  }

  function system() {
    return dark && dark.matches ? "dark" : "light";
  }

  function apply(choice) {
    if (choice) root.setAttribute("data-theme", choice);
    else root.removeAttribute("data-theme");
  }

  function wire() {
    var button = document.querySelector("[data-theme-toggle]");
    if (!button) return;
    function show() {
      var isDark = (stored() || system()) === "dark";
      button.setAttribute("aria-pressed", isDark ? "true" : "false");
    }
    button.addEventListener("click", function () {
      var next = (stored() || system()) === "dark" ? "light" : "dark";
      try {
        if (next === system()) window.localStorage.removeItem(KEY);
        else window.localStorage.setItem(KEY, next);
      } catch (e) { /* not remembered; still switched for this page */ }
      apply(next === system() ? null : next);
      show();
    });
    if (dark && dark.addEventListener) dark.addEventListener("change", show);
    show();
    button.hidden = false;
  }

  apply(stored());
  if (/[?&](project|status|tag)=/.test(window.location.search)) {
    root.classList.add("filters-pending");
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
