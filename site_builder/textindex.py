"""Text search over an Archive: substring matching and BM25 ranking, memoised per Archive.

`search_records` asks two things of record text: does every query term occur in it
(title, description and tags first, bodies only for the rest), and, with
`sort: "relevance"`, how well does it match (BM25). A `TextIndex` keeps what both need for
as long as its Archive lives: folded (lower-cased) text, which records contain a term, word
counts and document lengths. The MCP server reuses one Archive until a file changes (local
mode) or decisions.json changes (remote mode), so a repeated search only pays for the
comparison.

Matching is plain substring search over folded text: no tokenising up front, which on a
large archive costs seconds, and terms such as `slo.yaml` match as written.
"""

from __future__ import annotations

import math
import re
import threading
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from site_builder.archive.archive import Archive
from site_builder.archive.records import Record

_WORD = re.compile(r"\w+")
# BM25 parameters (the usual defaults).
_K1, _B = 1.2, 0.75
# Terms and words whose answers are kept; a long-running server forgets older ones.
_MEMO_SIZE = 512


def fold(text: str) -> str:
    """`text` for case-insensitive comparison."""
    return text.casefold()


def terms(query: str) -> list[str]:
    """The whitespace-separated, folded terms of a search query."""
    return [t for t in fold(query).split() if t]


def _is_word_char(ch: str) -> bool:
    # Exactly what `\w` matches in a str pattern.
    return ch.isalnum() or ch == "_"


def count_word(word: str, text: str) -> int:
    """How many whole-word occurrences of `word` (one `\\w+` token) `text` has.

    str.find is far faster than a regex with look-arounds on long texts.
    """
    count, size, end = 0, len(word), len(text)
    at = text.find(word)
    while at != -1:
        after = at + size
        if not (at and _is_word_char(text[at - 1])) and not (
                after < end and _is_word_char(text[after])):
            count += 1
        at = text.find(word, after)
    return count


class _Memo(dict):
    """A dict that forgets everything once it holds `_MEMO_SIZE` entries."""

    def remember(self, key, value):
        if len(self) >= _MEMO_SIZE:
            self.clear()
        self[key] = value
        return value


@dataclass(slots=True)
class _BodyHits:
    """What is known of one term in the bodies: the ids looked at, and those holding it.

    Once every record was looked at, `complete` is set and `checked` emptied.
    """

    checked: set[str] = field(default_factory=set)
    found: set[str] = field(default_factory=set)
    complete: bool = False


class TextIndex:
    """Folded text and term statistics of one Archive's records, computed on first use.

    Bodies are read only when a search needs them, all at once through
    `Archive.all_bodies()`; when that mapping changes (a remote site republished its
    bodies), everything derived from bodies is dropped.
    """

    def __init__(self, archive: Archive) -> None:
        self._archive = archive
        self._lock = threading.Lock()
        self._meta: dict[str, str] = {}
        self._bodies_from: Mapping[str, str] | None = None
        self._bodies: dict[str, str] = {}
        self._meta_with_term: _Memo = _Memo()
        self._with_term: _Memo = _Memo()
        self._lengths: dict[str, int] = {}
        self._counts: _Memo = _Memo()

    def _meta_text(self, record: Record) -> str:
        text = self._meta.get(record.id)
        if text is None:
            text = fold(" ".join([record.title, record.description, " ".join(record.tags)]))
            self._meta[record.id] = text
        return text

    def _folded_bodies(self) -> dict[str, str]:
        source = self._archive.all_bodies()
        if source is not self._bodies_from:
            self._bodies = {key: fold(body) for key, body in source.items()}
            self._bodies_from = source
            self._with_term.clear()
            self._lengths.clear()
            self._counts.clear()
        return self._bodies

    def _metas_with(self, term: str) -> frozenset[str]:
        """Ids of the archive's records whose title, description or tags contain `term`."""
        known = self._meta_with_term.get(term)
        if known is None:
            known = self._meta_with_term.remember(term, frozenset(
                r.id for r in self._archive.records if term in self._meta_text(r)))
        return known

    def _bodies_with(self, term: str, among: set[str]) -> set[str]:
        """The ids in `among` whose body contains `term`.

        Each body is searched for a term once: which ids were looked at and which held the
        term are remembered, so a repeated search only compares sets.
        """
        hits = self._with_term.get(term)
        if hits is None:
            hits = self._with_term.remember(term, _BodyHits())
        if not hits.complete:
            unknown = among - hits.checked
            if unknown:
                bodies = self._bodies
                hits.found.update(key for key in unknown if term in bodies.get(key, ""))
                hits.checked |= unknown
                if hits.checked.issuperset(self._archive.by_id):
                    hits.complete, hits.checked = True, set()
        return hits.found & among

    def matching(self, records: list[Record], query_terms: list[str]) -> list[Record]:
        """The records in which every term occurs, in the order given.

        Titles, descriptions and tags are looked at first; bodies are read only when some
        record needs them for a term its metadata lacks.
        """
        with self._lock:
            ids = {r.id for r in records}
            lacking = {t: ids - self._metas_with(t) for t in set(query_terms)}
            lacking = {t: keys for t, keys in lacking.items() if keys}
            if not lacking:
                return records
            self._folded_bodies()
            # Longest term first: it is usually the rarest, so later terms are looked for
            # only in the few bodies that have it.
            rejected: set[str] = set()
            for term in sorted(lacking, key=lambda t: (-len(t), t)):
                needing = lacking[term] - rejected
                rejected |= needing - self._bodies_with(term, needing)
            return [r for r in records if r.id not in rejected]

    def _length(self, record: Record) -> int:
        length = self._lengths.get(record.id)
        if length is None:
            length = 2 * len(_WORD.findall(self._meta_text(record))) + len(
                self._bodies.get(record.id, "").split())
            self._lengths[record.id] = length
        return length

    def _count(self, word: str, record: Record) -> int:
        counts = self._counts.get(word)
        if counts is None:
            counts = self._counts.remember(word, {})
        count = counts.get(record.id)
        if count is None:
            # Title, description and tags count twice: they say what a record is about.
            count = 2 * count_word(word, self._meta_text(record)) + count_word(
                word, self._bodies.get(record.id, ""))
            counts[record.id] = count
        return count

    def rank(self, records: list[Record], query_terms: list[str]) -> list[Record]:
        """`records` ordered by BM25 score for the terms (ties newest first, then by id).

        A term counts by its words (`slo.yaml` is `slo` and `yaml`); a record's length is
        its words in title, description and tags (twice) plus its body's
        whitespace-separated words.
        """
        with self._lock:
            self._folded_bodies()
            words = [w for t in query_terms for w in _WORD.findall(t)]
            distinct = set(words)
            lengths = {r.id: self._length(r) for r in records}
            average = (sum(lengths.values()) / len(records)) if records else 1.0
            tf = {(w, r.id): self._count(w, r) for w in distinct for r in records}
            df = {w: sum(1 for r in records if tf[(w, r.id)]) for w in distinct}
            scores: dict[str, float] = {}
            for record in records:
                norm = 1 - _B + _B * (lengths[record.id] or 1) / (average or 1.0)
                score = 0.0
                for word in words:
                    count = tf[(word, record.id)]
                    if count:
                        idf = math.log(1 + (len(records) - df[word] + 0.5) / (df[word] + 0.5))
                        score += idf * count * (_K1 + 1) / (count + _K1 * norm)
                scores[record.id] = score
            return sorted(records, key=lambda r: (-scores[r.id], -r.date.toordinal(), r.id))


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
