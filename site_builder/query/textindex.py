"""What a text query means, for every search: the site's, `site-builder search` and MCP.

One set of rules (`RULES`) and one scoring, used three ways: `TextIndex` answers queries in
Python (the CLI and both MCP modes, through answers.py), render/search/index.py writes the
site's index with the very same analysis, and writes `RULES` into it, so theme/search.js tokenises,
stems and ranks a query exactly as this module does.

- Words: NFKC-normalised, casefolded runs of letters, digits and `_`; a word joined by
  underscores (`retry_policy`) also yields its parts. One-character words and stop words
  (`why`, `did`, `we`, `for` …) are dropped; the rest are stemmed (`databases` → `databas`).
- Prefix rule: the last word of a query, unless a space follows it, also matches the terms
  it begins (`migr` finds `migrat`) and the stems it extends (`cachi` finds `cach`).
- Typo tolerance: a word of five or more letters that matches nothing stands for the most
  common word of the archive one edit away (`cahce` → `cache`); the answer then says what
  the query was taken to mean (`didYouMean`).
- A record's weighted count of a term adds up its fields (`WEIGHTS`: title above ref above
  tags above description above people and custom fields above body); BM25 turns count and
  record length into a level of 1–31, written in each posting; a record's score is the sum
  over the query's terms of level × idf (an integer, so Python and JavaScript agree exactly).
- A record matches when it holds any term; those holding more of the terms come first, then
  higher scores, then newer records. Of two matching records in one supersede chain, the
  newer (the one in force) comes first, where the older would have been. A query naming a
  record (`BUILD-ADR-0004`, `build/adr/4`, its id) puts that record first.
"""

from __future__ import annotations

import bisect
import math
import threading
import weakref
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.query.textwords import (
    RULES,
    STOP,
    Query,
    extends,
    fold,
    one_edit,
    parse,
    record_key,
    ref_key,
    stem,
    terms,
    word_terms,
    words,
)

__all__ = ["RULES", "Query", "Ranked", "TextIndex", "combine", "current_first", "extends",
           "fold", "index_for", "memoised", "one_edit", "parse", "record_key", "ref_key",
           "stem", "terms", "word_terms", "words"]

_WEIGHTS: dict[str, int] = RULES["weights"]

def level(count: int, length: int, average: float) -> int:
    """BM25's term-frequency part for a weighted count in a record of `length`, as 1–31."""
    k1: float = RULES["k1"]
    b: float = RULES["b"]
    top: int = RULES["levels"]
    norm = 1 - b + b * length / (average or 1.0)
    saturation = count * (k1 + 1) / (count + k1 * norm)
    return max(1, min(top, round(top * saturation / (k1 + 1))))


def idf(documents: int, total: int) -> int:
    """BM25's inverse document frequency of a term held by `documents` of `total` records,
    scaled to an integer."""
    scale: float = RULES["idfScale"]
    return round(scale * math.log(1 + (total - documents + 0.5) / (documents + 0.5)))


def field_text(value: Any) -> str:
    """A custom field value as searchable text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return " ".join(field_text(v) for v in value)
    return str(value)


def analyse(record: Record, body: str) -> tuple[dict[str, int], int, Counter[str]]:
    """A record's weighted term counts, its weighted length and its distinct words."""
    counts: dict[str, int] = {}
    seen: Counter[str] = Counter(words(body))
    length = 0
    for word, count in seen.items():
        for term in word_terms(word):
            counts[term] = counts.get(term, 0) + count
            length += count
    people = " ".join([*record.authors, *record.deciders,
                       *(field_text(value) for _, value in record.fields)])
    for text, weight in ((record.title, _WEIGHTS["title"]), (record.ref, _WEIGHTS["ref"]),
                         (" ".join(record.tags), _WEIGHTS["tags"]),
                         (record.description, _WEIGHTS["description"]),
                         (people, _WEIGHTS["people"])):
        found = words(text)
        seen.update(found)
        for word in found:
            for term in word_terms(word):
                counts[term] = counts.get(term, 0) + weight
                length += weight
    return counts, length, seen


@dataclass(slots=True)
class Ranked:
    """A query's answer: matching record numbers, best first, and the corrected query."""

    numbers: list[int]
    did_you_mean: str | None


def _add_postings(docs: dict[str, array[int]], values: dict[str, array[int]], number: int,
                  counts: dict[str, int]) -> None:
    """Record `number`'s weighted `counts` added to the postings: two bytes a count, until
    one does not fit (that term's counts widen to four)."""
    for term, count in counts.items():
        found = docs.get(term)
        if found is None:
            found = docs[term] = array("I")
            values[term] = array("H")
        found.append(number)
        try:
            values[term].append(count)
        except OverflowError:  # a count above 65,535
            values[term] = array("I", values[term])
            values[term].append(count)


# Records analysed between two calls of a checkpoint: some 50 ms of work.
_CHECKPOINT_EVERY = 256


class TextIndex:
    """One Archive's records analysed for search, with `search` answering queries.

    Records are numbered in archive order (newest first). Bodies come from
    `Archive.all_bodies()`; when that mapping changes (a remote site republished its
    bodies), the analysis is redone.
    """

    def __init__(self, archive: Archive) -> None:
        self.archive = archive
        self._lock = threading.Lock()
        self._from: Mapping[str, str] | None = None

    def _ready(self, checkpoint: Callable[[], None] | None = None) -> None:
        bodies = self.archive.all_bodies()
        if bodies is self._from:
            return
        records = self.archive.records
        # term → record numbers (ascending) and their weighted counts, then their levels:
        # arrays of machine integers, since a large archive has millions of postings (18
        # million at 100,000 records). Counts take two bytes each until one does not fit.
        docs: dict[str, array[int]] = {}
        values: dict[str, array[int]] = {}
        lengths: list[int] = []
        seen: Counter[str] = Counter()
        for number, record in enumerate(records):
            if checkpoint is not None and number % _CHECKPOINT_EVERY == 0:
                checkpoint()
            counts, length, distinct = analyse(record, bodies.get(record.id, ""))
            lengths.append(length)
            seen.update(distinct.keys())
            _add_postings(docs, values, number, counts)
        average = sum(lengths) / len(records) if records else 1.0
        known: dict[tuple[int, int], int] = {}
        for term, weighted in values.items():
            out = array("B")
            for number, count in zip(docs[term], weighted, strict=True):
                pair = (count, lengths[number])
                value = known.get(pair)
                if value is None:
                    value = known[pair] = level(count, pair[1], average)
                out.append(value)
            values[term] = out
        self.docs, self.levels = docs, values
        self.total = len(records)
        self.vocabulary = sorted(docs)
        self.keys: dict[str, list[int]] = {}
        numbers = {record.id: number for number, record in enumerate(records)}
        self.chains: dict[int, list[int]] = {}
        for number, record in enumerate(records):
            self.keys.setdefault(record_key(record), []).append(number)
            if record.id in self.archive.superseded_by:
                self.chains[number] = [numbers[r.id] for r in self.archive.chain(record)]
        # Words a mistyped word may stand for: most records first, then alphabetical.
        self.typo_words = sorted((w for w in seen if len(w) >= RULES["typoMin"] - 1
                                  and w.isalpha() and w not in STOP),
                                 key=lambda w: (-seen[w], w))
        self._from = bodies

    def postings(self, checkpoint: Callable[[], None] | None = None,
                 ) -> tuple[dict[str, array[int]], dict[str, array[int]]]:
        """(term → record numbers, term → levels), what the site's index is made of.

        A first analysis calls `checkpoint()` now and then (every few hundred records), so
        a caller can give it up by raising there; nothing of it is kept then."""
        with self._lock:
            self._ready(checkpoint)
            return self.docs, self.levels

    def _term(self, term: str) -> dict[int, int]:
        return dict(zip(self.docs[term], self.levels[term], strict=True))

    def _expansions(self, word: str) -> list[str]:
        """The vocabulary's terms a word being typed matches (prefix rule)."""
        vocabulary = self.vocabulary
        at = bisect.bisect_left(vocabulary, word)
        found = []
        while at < len(vocabulary) and vocabulary[at].startswith(word):
            found.append(vocabulary[at])
            at += 1
        found.extend(word[:end] for end in range(RULES["minStem"], len(word))
                     if self._has(word[:end]))
        return sorted(t for t in set(found) if extends(word, t))

    def _has(self, term: str) -> bool:
        return term in self.docs

    def _matches(self, word: str, term: str, prefix: bool) -> dict[int, int]:
        if not prefix:
            return self._term(term) if self._has(term) else {}
        merged: dict[int, int] = {}
        for expansion in self._expansions(word):
            for number, value in self._term(expansion).items():
                if value > merged.get(number, 0):
                    merged[number] = value
        return merged

    def _correction(self, word: str) -> str | None:
        if len(word) < RULES["typoMin"] or not word.isalpha():
            return None
        return next((w for w in self.typo_words if one_edit(word, w)), None)

    def search(self, text: str) -> Ranked:
        """The records matching query `text`, best first (see the module docstring)."""
        with self._lock:
            self._ready()
            query = parse(text)
            lists: list[dict[int, int]] = []
            corrected: dict[str, str] = {}
            for word, term in query.words:
                prefix = word == query.prefix and term == stem(word)
                found = self._matches(word, term, prefix)
                if not found:
                    better = self._correction(word)
                    if better is not None:
                        corrected[word] = better
                        found = {}
                        for other in word_terms(better):
                            found.update(self._matches(better, other, False))
                lists.append(found)
            numbers = combine(lists, self.total, self.keys.get(query.ref or "", []),
                              self.chains)
            mean = None
            if corrected:
                mean = " ".join(corrected.get(w, w) for w in words(text))
            return Ranked(numbers, mean)


def combine(lists: Sequence[Mapping[int, int]], total: int, first: Iterable[int],
            chains: Mapping[int, Sequence[int]] | None = None) -> list[int]:
    """Record numbers holding any term's postings (record number → level), ranked: the
    numbers in `first`, then more terms held, higher score, lower number (newer), the
    replacements of a superseded record (`chains`: number → its chain, direct replacement
    first) moved before it, the end of the chain first."""
    held: dict[int, int] = {}
    # One integer per record orders it: each term held adds 2**40, far above any score.
    for found in lists:
        weight = idf(len(found), total)
        for number, value in found.items():
            held[number] = held.get(number, 0) + (1 << 40) + weight * value
    top = list(dict.fromkeys(first))
    chosen = set(top)
    keyed = sorted(((-rank, number) for number, rank in held.items() if number not in chosen))
    return top + current_first([number for _, number in keyed], chains or {})


def current_first(ranked: list[int], chains: Mapping[int, Sequence[int]]) -> list[int]:
    """`ranked` with each record's matching replacements placed just before it (the end of
    its chain first), where they were not already before it."""
    if not chains:
        return ranked
    matched = set(ranked)
    placed: set[int] = set()
    out: list[int] = []
    for number in ranked:
        if number in placed:
            continue
        for newer in reversed(chains.get(number, ())):
            if newer in matched and newer not in placed:
                out.append(newer)
                placed.add(newer)
        out.append(number)
        placed.add(number)
    return out


_Index = TypeVar("_Index")
_TEXT: weakref.WeakKeyDictionary[Archive, TextIndex] = weakref.WeakKeyDictionary()
_INDEXES_LOCK = threading.Lock()


def memoised(memo: weakref.WeakKeyDictionary[Archive, _Index], archive: Archive,
             make: Callable[[Archive], _Index]) -> _Index:
    """`memo[archive]`, made by `make(archive)` on first use (thread-safe); entries go
    with their Archive."""
    with _INDEXES_LOCK:
        index = memo.get(archive)
        if index is None:
            index = memo[archive] = make(archive)
        return index


def index_for(archive: Archive) -> TextIndex:
    """The TextIndex of `archive`, created on first use and dropped with the Archive."""
    return memoised(_TEXT, archive, TextIndex)
