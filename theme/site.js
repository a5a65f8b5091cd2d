/* site-builder: listing filters and full-text search. No dependencies, no inline code.
 *
 * Filters: a listing page renders every record as `<li data-project data-status data-tags>`
 * and a hidden `form[data-filters]`; this script shows the form and hides the rows that do not
 * match. Without JavaScript the form stays hidden and every record is listed.
 *
 * Search: the search page's `[data-search-results]` list is filled from the JSON index the
 * build writes under `assets/search/`, fetched on the first query only.
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
  // The index (site_builder/build/search.py) maps terms to records in small JSON files; a
  // query fetches the manifest once and then only the files of its own words. Titles and
  // excerpts come from the records' Markdown copies.

  var PAGE_SIZE = 20;
  var DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  var fetched = {};

  function getFile(path, as) {
    if (!fetched[path]) {
      fetched[path] = window.fetch(new URL(path, root).href).then(function (response) {
        if (!response.ok) throw new Error(path + ": HTTP " + response.status);
        return as === "text" ? response.text() : response.json();
      });
    }
    return fetched[path];
  }

  var ENDINGS = ["ings", "ions", "ing", "ion", "ies", "es", "ed", "s", "e"];

  // search.py's `stem`: the same crude ending rules, so query and index words meet.
  function stem(word) {
    if (word.length <= 4 || !/^\p{L}+$/u.test(word)) return word;
    for (var i = 0; i < ENDINGS.length; i++) {
      var ending = ENDINGS[i];
      if (word.slice(-ending.length) === ending && word.length - ending.length >= 4) {
        return ending === "ies" ? word.slice(0, -3) + "y" : word.slice(0, -ending.length);
      }
    }
    return word;
  }

  // search.py's `terms`: casefolded, stemmed words of two or more characters, and the parts
  // of words joined by underscores.
  function terms(text) {
    var words = text.normalize("NFKC").toLowerCase().replace(/ß/g, "ss").replace(/ς/g, "σ")
      .match(/[\p{L}\p{N}_]+/gu) || [];
    var out = [];
    words.forEach(function (word) {
      if (word.length > 1) out.push(stem(word));
      if (word.indexOf("_") >= 0) {
        word.split("_").forEach(function (part) { if (part.length > 1) out.push(stem(part)); });
      }
    });
    return out;
  }

  function fileKey(prefix) {
    if (/^[a-z0-9]+$/.test(prefix)) return prefix;
    return "~" + Array.from(prefix).map(function (c) {
      return c.codePointAt(0).toString(16);
    }).join("-");
  }

  function decode(text) {
    var values = [];
    var value = 0;
    var shift = 0;
    for (var i = 0; i < text.length; i++) {
      var digit = DIGITS.indexOf(text[i]);
      if (digit >= 32) {
        value += (digit - 32) * Math.pow(2, shift);
        shift += 5;
      } else {
        values.push(value + digit * Math.pow(2, shift));
        value = 0;
        shift = 0;
      }
    }
    return values;
  }

  // Shards holding `term` (exact) or every term that starts with it (prefix).
  function shardsFor(term, keys, prefix) {
    var own = "";
    keys.forEach(function (key) {
      if (term.indexOf(key) === 0 && key.length > own.length) own = key;
    });
    var found = own ? [own] : [];
    if (prefix) {
      keys.forEach(function (key) {
        if (key.length > term.length && key.indexOf(term) === 0) found.push(key);
      });
    }
    return found;
  }

  // record number → score for one query term.
  function postings(term, prefix, manifest) {
    var keys = shardsFor(term, manifest.shards, prefix);
    return Promise.all(keys.map(function (key) {
      return getFile("assets/search/terms/" + fileKey(key) + ".json");
    })).then(function (shards) {
      var scores = new Map();
      shards.forEach(function (shard) {
        Object.keys(shard).forEach(function (candidate) {
          if (candidate === term || (prefix && candidate.indexOf(term) === 0)) {
            var values = decode(shard[candidate]);
            var doc = 0;
            for (var i = 0; i < values.length; i += 2) {
              doc += values[i];
              scores.set(doc, Math.max(scores.get(doc) || 0, values[i + 1]));
            }
          }
        });
      });
      return scores;
    });
  }

  // Records holding every term (the last one as a prefix while it is being typed), best
  // first: the sum of score × inverse document frequency, newer first on ties.
  function rank(query, manifest) {
    var words = terms(query);
    var typing = !/\s$/.test(query);
    return Promise.all(words.map(function (word, i) {
      return postings(word, typing && i === words.length - 1, manifest);
    })).then(function (lists) {
      if (!lists.length) return [];
      var total = manifest.records.length;
      lists.sort(function (a, b) { return a.size - b.size; });
      var weights = lists.map(function (list) { return Math.log(1 + total / (list.size || 1)); });
      var hits = [];
      lists[0].forEach(function (score, doc) {
        var sum = score * weights[0];
        for (var i = 1; i < lists.length; i++) {
          var other = lists[i].get(doc);
          if (other === undefined) return;
          sum += other * weights[i];
        }
        hits.push([doc, sum]);
      });
      hits.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
      return hits.map(function (hit) { return manifest.records[hit[0]]; });
    });
  }

  // A record's Markdown copy: front matter of `key: JSON value` lines, then the body.
  function readCopy(id) {
    return getFile(id + ".md", "text").then(function (text) {
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

  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

  // `2026-10-27` → `27 Oct 2026`, as the pages show dates (views.date_text).
  function dateText(iso) {
    var parts = iso.split("-");
    return Number(parts[2]) + " " + MONTHS[Number(parts[1]) - 1] + " " + parts[0];
  }

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
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

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function resultItem(copy, pattern, manifest) {
    var status = manifest.statuses[copy.status] || [copy.status, "closed"];
    var item = element("li", "row row--result");
    var when = element("div", "row__when");
    when.appendChild(element("span", "ref", copy.ref || ""));
    if (copy.date) {
      var time = element("time", "", dateText(copy.date));
      time.setAttribute("datetime", copy.date);
      when.appendChild(time);
    }
    var what = element("div", "row__what");
    var link = element("a", "row__title");
    link.href = new URL(copy.id + "/", root).href;
    link.appendChild(highlighted(copy.title || copy.id, pattern));
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

  function initSearch(results) {
    var input = document.querySelector("[data-search-input]");
    var status = document.querySelector("[data-search-status]");
    var more = document.querySelector("[data-search-more]");
    var form = input.form;
    var latest = 0;
    var state = null;

    function show(message) {
      status.textContent = message;
    }

    function page() {
      var ticket = latest;
      var batch = state.ids.slice(state.shown, state.shown + PAGE_SIZE);
      return Promise.all(batch.map(readCopy)).then(function (copies) {
        if (ticket !== latest) return;
        copies.forEach(function (copy) {
          results.appendChild(resultItem(copy, state.pattern, state.manifest));
        });
        state.shown += copies.length;
        more.hidden = state.shown >= state.ids.length;
      });
    }

    function run(query, remember) {
      var ticket = ++latest;
      if (remember) {
        var address = query ? "?q=" + encodeURIComponent(query) : window.location.pathname;
        window.history.replaceState(null, "", address);
      }
      var words = terms(query);
      if (!words.length) {
        results.replaceChildren();
        more.hidden = true;
        show(query.trim() ? "Type at least two letters." : "");
        return;
      }
      getFile("assets/search/manifest.json").then(function (manifest) {
        return rank(query, manifest).then(function (ids) {
          if (ticket !== latest) return null;
          var pattern = new RegExp("(?<![\\p{L}\\p{N}])(" + words.map(escapeRegExp).join("|")
            + ")[\\p{L}\\p{N}]*", "giu");
          state = { ids: ids, shown: 0, pattern: pattern, manifest: manifest };
          results.replaceChildren();
          show(ids.length === 0 ? "No records match “" + query + "”."
            : (ids.length === 1 ? "1 record matches" : ids.length + " records match")
              + " “" + query + "”.");
          return page();
        });
      }).catch(function () {
        if (ticket === latest) {
          show("Search is not available here: its index could not be loaded. "
            + "The timeline and the tags list every record.");
        }
      });
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      run(input.value, true);
    });
    input.addEventListener("input", function () { run(input.value, true); });
    more.addEventListener("click", function () { page(); });
    var initial = new URLSearchParams(window.location.search).get("q") || "";
    input.value = initial;
    if (initial) run(initial, false);
  }

  document.querySelectorAll("form[data-filters]").forEach(initFilters);
  var results = document.querySelector("[data-search-results]");
  if (results) initSearch(results);
})();
