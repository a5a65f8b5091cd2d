/* Loaded (blocking) in the head of listing pages only. When the address asks for a filtered
 * view (?status=proposed), the list stays invisible until site.js has applied the filter, so
 * it is never painted in full and then collapsed. site.css reveals it after 1.5 s whatever
 * happens, so a failed script can never leave the page blank. */
if (/[?&](project|status|tag)=/.test(window.location.search)) {
  document.documentElement.classList.add("filters-pending");
}
