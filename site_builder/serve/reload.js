// Live reload for `site-builder serve`; added to pages by the preview server only, never to a
// built site. It listens on the server's event stream and reloads this page once a rebuild
// has changed it, and shows the archive's errors in an overlay while the preview is held at
// the last good build. Styles are set through the CSSOM: the pages' Content-Security-Policy
// allows no inline style attributes.
(() => {
  "use strict";
  const script = new URL(document.currentScript.src);
  const events = new URL("events", script);
  const OVERLAY = "site-builder-problems";
  let session = null;
  // The build this page was served from: a stream that opens after a rebuild must still
  // reload a page that the rebuild changed.
  let build = Number(script.searchParams.get("build"));

  function here() {
    let path = location.pathname;
    try {
      path = decodeURI(path);
    } catch (error) {
      // a path the browser could not decode is compared as it is
    }
    return path.endsWith("/index.html") ? path.slice(0, -"index.html".length) : path;
  }

  function element(tag, style, text) {
    const node = document.createElement(tag);
    Object.assign(node.style, style);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function showProblems(problems) {
    const old = document.getElementById(OVERLAY);
    if (old) old.remove();
    if (!problems || problems.length === 0) return;
    const box = element("section", {
      position: "fixed", left: "1rem", right: "1rem", bottom: "1rem", zIndex: "2147483647",
      maxHeight: "50vh", overflow: "auto", padding: "1rem 1.25rem", borderRadius: "0.5rem",
      background: "#1f1416", color: "#fbe9eb", border: "2px solid #e5484d",
      boxShadow: "0 0.5rem 2rem rgba(0, 0, 0, 0.4)",
      font: "14px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
    });
    box.id = OVERLAY;
    box.setAttribute("role", "alert");
    box.setAttribute("aria-label", "Errors in the archive");
    const title = element("p", { margin: "0 0 0.5rem", fontWeight: "bold" },
      `site-builder serve: ${problems.length} error(s). ` +
      "This is the last good build; it updates once they are fixed.");
    const list = element("ul", { margin: "0", paddingLeft: "1.25rem" });
    for (const problem of problems) {
      list.append(element("li", {},
        `${problem.path}:${problem.line}: ${problem.level}: ${problem.message}`));
    }
    const hide = element("button", {
      position: "absolute", top: "0.5rem", right: "0.5rem", font: "inherit",
      background: "transparent", color: "inherit", border: "1px solid currentColor",
      borderRadius: "0.25rem", cursor: "pointer",
    }, "Hide");
    hide.type = "button";
    hide.addEventListener("click", () => box.remove());
    box.append(title, list, hide);
    document.body.append(box);
  }

  function connect() {
    const source = new EventSource(events);
    source.addEventListener("hello", (event) => {
      const state = JSON.parse(event.data);
      // Connected to a server that rebuilt (or restarted) since this page was served.
      if (state.build !== build || (session !== null && state.session !== session)) {
        location.reload();
        return;
      }
      session = state.session;
      build = state.build;
      showProblems(state.problems);
    });
    source.addEventListener("reload", (event) => {
      const change = JSON.parse(event.data);
      build = change.build;
      if (change.all || change.paths.includes(here())) location.reload();
    });
    source.addEventListener("problems", (event) => {
      showProblems(JSON.parse(event.data).problems);
    });
  }

  if (document.body) connect();
  else document.addEventListener("DOMContentLoaded", connect);
})();
