/* site-builder: full-text search. No dependencies, no inline code.
 *
 * What a query means is decided in Python (site_builder/textindex.py), which also answers
 * `site-builder search` and the MCP tools. The build writes its rules (stop words, endings,
 * prefix and typo rules, BM25 levels) into assets/search/manifest.json, and this script
 * applies them as written, so the site and the agents get the same records for the same words.
 *
 * - The search page (`[data-search-results]`) lists every match, filters them by project,
 *   status and tag, and keeps the query and filters in the address.
 * - Every other search box offers results as you type (an ARIA combobox); `/` focuses it.
 */
(function () {
  "use strict";

  var root = new URL(document.body.getAttribute("data-root") || "./", window.location.href);
  var DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  var PAGE_SIZE = 20;
  var fetched = {};

  function getFile(path, as) {
    if (!fetched[path]) {
      fetched[path] = window.fetch(new URL(path, root).href).then(function (response) {
        if (!response.ok) throw new Error(path + ": HTTP " + response.status);
        return as === "text" ? response.text() : response.json();
      });
      fetched[path].catch(function () { delete fetched[path]; });
    }
    return fetched[path];
  }

  // ---- the rules (textindex.py, read from the manifest) ---------------------------------------

  function Engine(manifest) {
    this.manifest = manifest;
    this.rules = manifest.rules;
    this.stop = new Set(manifest.rules.stopWords);
    this.refPattern = new RegExp(manifest.rules.refPattern);
  }

  // textindex.words: casefolded runs of letters, digits and underscores.
  Engine.prototype.words = function (text) {
    return text.normalize("NFKC").toLowerCase().replace(/ß/g, "ss").replace(/ς/g, "σ")
      .match(/[\p{L}\p{N}_]+/gu) || [];
  };

  Engine.prototype.stem = function (word) {
    var min = this.rules.minStem;
    if (word.length <= min || !/^\p{L}+$/u.test(word)) return word;
    var endings = this.rules.endings;
    for (var i = 0; i < endings.length; i++) {
      var ending = endings[i];
      if (word.slice(-ending.length) === ending && word.length - ending.length >= min) {
        return ending === "ies" ? word.slice(0, -3) + "y" : word.slice(0, -ending.length);
      }
    }
    return word;
  };

  Engine.prototype.wordTerms = function (word) {
    var self = this;
    var out = [];
    if (word.length > 1 && !this.stop.has(word)) out.push(this.stem(word));
    if (word.indexOf("_") >= 0) {
      word.split("_").forEach(function (part) {
        if (part.length > 1 && !self.stop.has(part)) out.push(self.stem(part));
      });
    }
    return out.filter(function (term, i) { return out.indexOf(term) === i; });
  };

  Engine.prototype.refKey = function (text) {
    var match = this.refPattern.exec(text.trim().toLowerCase());
    return match ? "#" + match[1] + "/" + match[2] + "/" + Number(match[3]) : null;
  };

  // textindex.parse: distinct terms with the word each came from; the last word is a prefix
  // unless a space follows it.
  Engine.prototype.parse = function (text) {
    var self = this;
    var typed = this.words(text);
    var pairs = new Map();
    typed.forEach(function (word) {
      self.wordTerms(word).forEach(function (term) { if (!pairs.has(term)) pairs.set(term, word); });
    });
    var last = typed.length ? typed[typed.length - 1] : null;
    var prefix = null;
    if (last !== null && !/\s$/.test(text) && last.length >= this.rules.prefixMin) {
      var own = this.wordTerms(last);
      if (own.length === 1 && own[0] === this.stem(last)) prefix = last;
    }
    var words = [];
    pairs.forEach(function (word, term) { words.push([word, term]); });
    return { words: words, prefix: prefix, ref: this.refKey(text), typed: typed };
  };

  Engine.prototype.extends = function (word, term) {
    if (term.indexOf(word) === 0) return true;
    var rest = word.slice(term.length);
    return term.length >= this.rules.minStem && word.indexOf(term) === 0
      && this.rules.endings.some(function (e) { return e.indexOf(rest) === 0; });
  };

  function oneEdit(a, b) {
    if (a === b || Math.abs(a.length - b.length) > 1) return false;
    if (a.length > b.length) { var t = a; a = b; b = t; }
    var i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    if (a.length < b.length) return a.slice(i) === b.slice(i + 1);
    return a.slice(i + 1) === b.slice(i + 1) || (i + 1 < a.length && a[i] === b[i + 1]
      && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
  }

  // ---- postings ---------------------------------------------------------------------------------

  function fileKey(prefix) {
    if (/^[A-Za-z0-9]+$/.test(prefix)) return prefix;
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

  // Shards that may hold the terms `accept` takes: the longest key `term` starts with, and
  // with `wide`, every key `term` starts with and every key that starts with `term`. A small
  // archive has one shard, of key "", which every term starts with.
  Engine.prototype.shards = function (term, wide) {
    var keys = this.manifest.shards;
    var own = null;
    var found = [];
    keys.forEach(function (key) {
      if (term.indexOf(key) === 0) {
        if (wide) found.push(key);
        if (own === null || key.length > own.length) own = key;
      } else if (wide && key.indexOf(term) === 0) {
        found.push(key);
      }
    });
    if (!wide && own !== null) found.push(own);
    return found;
  };

  // record number → level, for the terms `accept` takes (the highest level where several do).
  Engine.prototype.postings = function (term, wide, accept) {
    return Promise.all(this.shards(term, wide).map(function (key) {
      return getFile("assets/search/terms/" + fileKey(key) + ".json");
    })).then(function (shards) {
      var levels = new Map();
      shards.forEach(function (shard) {
        Object.keys(shard).forEach(function (candidate) {
          if (!accept(candidate)) return;
          var values = decode(shard[candidate]);
          var doc = 0;
          for (var i = 0; i < values.length; i += 2) {
            doc += values[i];
            if (values[i + 1] > (levels.get(doc) || 0)) levels.set(doc, values[i + 1]);
          }
        });
      });
      return levels;
    });
  };

  Engine.prototype.exact = function (term) {
    return this.postings(term, false, function (candidate) { return candidate === term; });
  };

  Engine.prototype.matches = function (word, term, prefix) {
    var self = this;
    if (!prefix) return this.exact(term);
    return this.postings(word, true, function (candidate) {
      return candidate[0] !== "#" && candidate[0] !== "@" && self.extends(word, candidate);
    });
  };

  Engine.prototype.correction = function (word) {
    if (word.length < this.rules.typoMin || !/^\p{L}+$/u.test(word)) return Promise.resolve(null);
    return getFile("assets/search/words.json").then(function (list) {
      for (var i = 0; i < list.length; i++) if (oneEdit(word, list[i])) return list[i];
      return null;
    });
  };

  // textindex.TextIndex.search: { numbers: best first, didYouMean: corrected text or null }.
  Engine.prototype.search = function (text) {
    var self = this;
    var query = this.parse(text);
    var corrected = {};
    var asTyped = 0;
    var lists = Promise.all(query.words.map(function (pair) {
      var word = pair[0];
      var term = pair[1];
      var prefix = word === query.prefix && term === self.stem(word);
      return self.matches(word, term, prefix).then(function (found) {
        if (found.size) { asTyped++; return found; }
        return self.correction(word).then(function (better) {
          if (better === null) return found;
          corrected[word] = better;
          return Promise.all(self.wordTerms(better).map(function (other) {
            return self.exact(other);
          })).then(function (maps) {
            var merged = new Map();
            maps.forEach(function (map) { map.forEach(function (v, k) { merged.set(k, v); }); });
            return merged;
          });
        });
      });
    }));
    var first = query.ref ? this.exact(query.ref) : Promise.resolve(new Map());
    return Promise.all([lists, first]).then(function (both) {
      var mean = null;
      if (Object.keys(corrected).length) {
        mean = query.typed.map(function (w) { return corrected[w] || w; }).join(" ");
      }
      return {
        numbers: self.combine(both[0], both[1]),
        didYouMean: mean,
        // Whether the words as typed (or the record the query names) matched anything.
        asTyped: asTyped > 0 || both[1].size > 0,
        empty: !query.words.length && !both[1].size,
        words: query.typed.concat(Object.keys(corrected).map(function (w) { return corrected[w]; }))
      };
    });
  };

  // textindex.combine: the named record first, then more terms held, higher score, newer.
  Engine.prototype.combine = function (lists, named) {
    var total = this.manifest.count;
    var scale = this.rules.idfScale;
    var held = new Map();
    lists.forEach(function (found) {
      var df = found.size;
      var weight = Math.round(scale * Math.log(1 + (total - df + 0.5) / (df + 0.5)));
      found.forEach(function (level, doc) {
        var entry = held.get(doc);
        if (entry) { entry[0] += 1; entry[1] += weight * level; } else held.set(doc, [1, weight * level]);
      });
    });
    var top = Array.from(named.keys()).sort(function (a, b) { return a - b; });
    var rest = [];
    held.forEach(function (entry, doc) { if (!named.has(doc)) rest.push(doc); });
    rest.sort(function (a, b) {
      var x = held.get(a);
      var y = held.get(b);
      return y[0] - x[0] || y[1] - x[1] || a - b;
    });
    return top.concat(this.currentFirst(rest));
  };

  // textindex.current_first: a record's matching replacements just before it, newest first.
  Engine.prototype.currentFirst = function (ranked) {
    var chains = this.manifest.chains || {};
    var matched = new Set(ranked);
    var placed = new Set();
    var out = [];
    ranked.forEach(function (number) {
      if (placed.has(number)) return;
      var chain = chains[String(number)] || [];
      for (var i = chain.length - 1; i >= 0; i--) {
        if (matched.has(chain[i]) && !placed.has(chain[i])) { out.push(chain[i]); placed.add(chain[i]); }
      }
      out.push(number);
      placed.add(number);
    });
    return out;
  };

  // Records of one filter value (`@project=build`), as a Set of record numbers.
  Engine.prototype.facet = function (name, value) {
    return this.exact("@" + name + "=" + value).then(function (found) {
      return new Set(found.keys());
    });
  };

  // [id, ref, title] of record `number`.
  Engine.prototype.record = function (number) {
    var chunk = this.manifest.chunk;
    return getFile("assets/search/records/" + Math.floor(number / chunk) + ".json")
      .then(function (rows) { return rows[number % chunk]; });
  };

  var engine = null;

  function loadEngine() {
    if (!engine) {
      engine = getFile("assets/search/manifest.json").then(function (m) { return new Engine(m); });
      engine.catch(function () { engine = null; });
    }
    return engine;
  }

  window.siteSearch = { load: loadEngine, getFile: getFile, root: root };
})();
