/* site-builder: the search page, results as you type in every other search box, and `/`.
 * The search itself is theme/search.js (`window.siteSearch`).
 */
(function () {
  "use strict";

  var api = window.siteSearch;
  if (!api) return;
  var PAGE_SIZE = 20;
  var SUGGESTIONS = 8;
  var DEBOUNCE_MS = 150;
  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  // `2026-10-27` → `27 Oct 2026`, as the pages show dates (views.date_text).
  function dateText(iso) {
    var parts = iso.split("-");
    return Number(parts[2]) + " " + MONTHS[Number(parts[1]) - 1] + " " + parts[0];
  }

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  function wordPattern(words) {
    if (!words.length) return /$^/gu;
    return new RegExp("(?<![\\p{L}\\p{N}])(" + words.map(escapeRegExp).join("|")
      + ")[\\p{L}\\p{N}]*", "giu");
  }

  // Text with the query's words wrapped in <mark>, built as nodes (never as HTML).
  function highlighted(text, pattern) {
    var out = document.createDocumentFragment();
    var last = 0;
    Array.from(text.matchAll(pattern)).forEach(function (match) {
      out.appendChild(document.createTextNode(text.slice(last, match.index)));
      out.appendChild(element("mark", "", match[0]));
      last = match.index + match[0].length;
    });
    out.appendChild(document.createTextNode(text.slice(last)));
    return out;
  }

  function excerpt(body, pattern) {
    var plain = body.replace(/```[^\n]*\n/g, " ").replace(/\]\([^)]*\)/g, "]")
      .replace(/[#*_`>|~[\]]+/g, " ").replace(/\s+/g, " ").trim();
    pattern.lastIndex = 0;
    var hit = pattern.exec(plain);
    pattern.lastIndex = 0;
    var at = hit ? hit.index : 0;
    var start = Math.max(0, at - 70);
    var space = plain.indexOf(" ", start);
    if (start > 0 && space >= 0 && space < at) start = space + 1;
    var text = plain.slice(start, start + 220);
    return (start > 0 ? "…" : "") + text + (start + 220 < plain.length ? "…" : "");
  }

  // A record's Markdown copy: front matter of `key: JSON value` lines, then the body.
  function readCopy(id) {
    return api.getFile(id + ".md", "text").then(function (text) {
      var data = { id: id, body: text };
      var end = text.indexOf("\n---\n", 3);
      if (text.indexOf("---\n") === 0 && end > 0) {
        text.slice(4, end).split("\n").forEach(function (line) {
          var colon = line.indexOf(": ");
          if (colon < 0) return;
          try { data[line.slice(0, colon)] = JSON.parse(line.slice(colon + 2)); } catch (e) { /* not JSON */ }
        });
        data.body = text.slice(end + 5);
      }
      return data;
    });
  }

  function recordUrl(id) {
    return new URL(id + "/", api.root).href;
  }

  // [id, ref, title] rows of some record numbers, in order.
  function rows(engine, numbers) {
    return Promise.all(numbers.map(function (n) { return engine.record(n); }));
  }

  function resultItem(row, copy, pattern, statuses) {
    var status = statuses[copy.status] || [copy.status || "", "closed"];
    var item = element("li", "row row--result");
    var when = element("div", "row__when");
    when.appendChild(element("span", "ref", row[1]));
    if (copy.date) {
      var time = element("time", "", dateText(copy.date));
      time.setAttribute("datetime", copy.date);
      when.appendChild(time);
    }
    var what = element("div", "row__what");
    var link = element("a", "row__title");
    link.href = recordUrl(row[0]);
    link.appendChild(highlighted(row[2], pattern));
    what.appendChild(link);
    var text = element("p", "result__excerpt");
    text.appendChild(highlighted(excerpt(copy.body, pattern) || copy.description || "", pattern));
    what.appendChild(text);
    var side = element("div", "row__status");
    var badge = element("span", "badge badge--" + status[1], status[0]);
    badge.setAttribute("data-status", copy.status || "");
    side.appendChild(badge);
    item.appendChild(when);
    item.appendChild(what);
    item.appendChild(side);
    return item;
  }

  function quoted(text) { return "“" + text + "”"; }

  function count(n) { return n === 1 ? "1 record matches" : n + " records match"; }

  // ---- the search page ----------------------------------------------------------------------

  function initPage(results) {
    var input = document.querySelector("[data-search-page] [data-search-input]");
    var status = document.querySelector("[data-search-status]");
    var more = document.querySelector("[data-search-more]");
    var filters = Array.prototype.slice.call(document.querySelectorAll("select[data-search-filter]"));
    var filterForm = document.querySelector("form[data-search-filters]");
    var latest = 0;
    var state = null;
    var timer = 0;

    function say(parts) {
      status.replaceChildren();
      parts.forEach(function (part) {
        status.appendChild(typeof part === "string" ? document.createTextNode(part) : part);
      });
    }

    function remember(query) {
      var params = new URLSearchParams();
      if (query) params.set("q", query);
      filters.forEach(function (f) { if (f.value) params.set(f.name, f.value); });
      var search = params.toString();
      window.history.replaceState(null, "", search ? "?" + search : window.location.pathname);
    }

    function page() {
      var ticket = latest;
      var batch = state.numbers.slice(state.shown, state.shown + PAGE_SIZE);
      state.shown += batch.length;
      return rows(state.engine, batch).then(function (found) {
        return Promise.all(found.map(function (row) {
          return readCopy(row[0]).catch(function () { return { body: "" }; });
        })).then(function (copies) {
          if (ticket !== latest) return;
          found.forEach(function (row, i) {
            results.appendChild(resultItem(row, copies[i], state.pattern,
              state.engine.manifest.statuses));
          });
          more.hidden = state.shown >= state.numbers.length;
        });
      });
    }

    function filtered(engine, numbers) {
      var chosen = filters.filter(function (f) { return f.value; });
      return Promise.all(chosen.map(function (f) {
        return engine.facet(f.getAttribute("data-search-filter"), f.value);
      })).then(function (sets) {
        return numbers.filter(function (n) {
          return sets.every(function (set) { return set.has(n); });
        });
      });
    }

    function suggestion(text) {
      var link = element("a", "search-suggestion", text);
      var params = new URLSearchParams(window.location.search);
      params.set("q", text);
      link.href = "?" + params.toString();
      link.addEventListener("click", function (event) {
        event.preventDefault();
        input.value = text;
        run(text, true);
      });
      return link;
    }

    function run(query, keep) {
      var ticket = ++latest;
      if (keep) remember(query);
      if (!query.trim()) {
        results.replaceChildren();
        more.hidden = true;
        say([]);
        return;
      }
      api.load().then(function (engine) {
        return engine.search(query).then(function (answer) {
          return filtered(engine, answer.numbers).then(function (numbers) {
            if (ticket !== latest) return null;
            results.replaceChildren();
            state = { engine: engine, numbers: numbers, shown: 0,
              pattern: wordPattern(answer.words) };
            if (answer.empty) {
              more.hidden = true;
              say(["Type a word that says what you are looking for."]);
              return null;
            }
            var parts;
            if (answer.didYouMean && !answer.asTyped) {
              parts = ["No records match " + quoted(query) + ". Did you mean ",
                suggestion(answer.didYouMean), "? " + count(numbers.length) + " it."];
            } else {
              parts = [numbers.length === 0 ? "No records match " + quoted(query) + "."
                : count(numbers.length) + " " + quoted(query) + "."];
              if (answer.didYouMean) {
                parts.push(" Did you mean ", suggestion(answer.didYouMean), "?");
              }
            }
            say(parts);
            return page();
          });
        });
      }).catch(function () {
        if (ticket === latest) {
          say(["Search is not available here: its index could not be loaded. "
            + "The timeline and the tags list every record."]);
        }
      });
    }

    input.form.addEventListener("submit", function (event) {
      event.preventDefault();
      window.clearTimeout(timer);
      run(input.value, true);
    });
    input.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(function () { run(input.value, true); }, DEBOUNCE_MS);
    });
    more.addEventListener("click", function () { page(); });
    var params = new URLSearchParams(window.location.search);
    filters.forEach(function (f) {
      var value = params.get(f.name);
      if (value && f.querySelector('option[value="' + CSS.escape(value) + '"]')) f.value = value;
    });
    if (filterForm) {
      filterForm.hidden = false;
      filterForm.addEventListener("change", function () { run(input.value, true); });
      filterForm.addEventListener("submit", function (event) { event.preventDefault(); });
      filterForm.addEventListener("reset", function () {
        window.setTimeout(function () { run(input.value, true); }, 0);
      });
    }
    var initial = params.get("q") || "";
    input.value = initial;
    if (initial) run(initial, false);
  }

  // ---- results as you type (WAI-ARIA combobox with a listbox popup) ---------------------------

  var boxes = 0;

  function initBox(input) {
    var id = "search-suggestions-" + (++boxes);
    // The popup: the listbox of records, and a line saying how many match (outside the
    // listbox, whose children must all be options).
    var popup = element("div", "search-suggestions");
    popup.hidden = true;
    var list = element("ul", "search-suggestions__list");
    list.id = id;
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Matching records");
    var summary = element("p", "search-suggestion__all");
    summary.setAttribute("aria-live", "polite");
    popup.appendChild(list);
    popup.appendChild(summary);
    input.form.appendChild(popup);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", id);
    var options = [];
    var active = -1;
    var latest = 0;
    var timer = 0;

    function close() {
      popup.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      active = -1;
    }

    function highlight(index) {
      options.forEach(function (option, i) {
        option.setAttribute("aria-selected", i === index ? "true" : "false");
      });
      active = index;
      if (index >= 0) input.setAttribute("aria-activedescendant", options[index].id);
      else input.removeAttribute("aria-activedescendant");
    }

    function option(row, index, pattern) {
      var item = element("li", "search-suggestion__item");
      item.id = id + "-" + index;
      item.setAttribute("role", "option");
      item.setAttribute("aria-selected", "false");
      item.setAttribute("data-href", recordUrl(row[0]));
      item.appendChild(element("span", "ref", row[1]));
      var title = element("span", "search-suggestion__title");
      title.appendChild(highlighted(row[2], pattern));
      item.appendChild(title);
      item.addEventListener("mousedown", function (event) { event.preventDefault(); });
      item.addEventListener("click", function () { window.location.href = item.getAttribute("data-href"); });
      return item;
    }

    function show(query) {
      var ticket = ++latest;
      if (!query.trim()) { close(); return; }
      api.load().then(function (engine) {
        return engine.search(query).then(function (answer) {
          var top = answer.numbers.slice(0, SUGGESTIONS);
          return rows(engine, top).then(function (found) {
            if (ticket !== latest) return;
            var pattern = wordPattern(answer.words);
            options = found.map(function (row, i) { return option(row, i, pattern); });
            list.replaceChildren.apply(list, options);
            var mean = answer.didYouMean ? "Did you mean " + quoted(answer.didYouMean) + "? " : "";
            summary.textContent = answer.numbers.length
              ? mean + "Enter shows all " + answer.numbers.length + " results."
              : "No records match " + quoted(query) + ".";
            popup.hidden = false;
            input.setAttribute("aria-expanded", "true");
            highlight(-1);
          });
        });
      }).catch(function () { close(); });
    }

    input.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(function () { show(input.value); }, DEBOUNCE_MS);
    });
    input.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        if (popup.hidden) { if (input.value.trim()) show(input.value); return; }
        event.preventDefault();
        if (!options.length) return;
        // Positions run from -1 (the box itself) to the last option, and wrap.
        var next = active + (event.key === "ArrowDown" ? 1 : -1);
        if (next >= options.length) next = -1;
        if (next < -1) next = options.length - 1;
        highlight(next);
      } else if (event.key === "Enter" && active >= 0 && !popup.hidden) {
        event.preventDefault();
        window.location.href = options[active].getAttribute("data-href");
      } else if (event.key === "Escape") {
        if (!popup.hidden) { event.preventDefault(); close(); } else input.value = "";
      }
    });
    input.addEventListener("blur", function () { window.setTimeout(close, 100); });
  }

  // `/` focuses the page's search box, unless you are typing somewhere.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var box = document.querySelector("[data-search-input]");
    if (!box) return;
    event.preventDefault();
    box.focus();
    box.select();
  });

  var results = document.querySelector("[data-search-results]");
  if (results) initPage(results);
  document.querySelectorAll("[data-search-input]").forEach(function (input) {
    if (!input.closest("[data-search-page]")) initBox(input);
  });
})();
