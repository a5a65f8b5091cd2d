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
import threading
import weakref
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.base.kept import KeptFile
from site_builder.query.kept_index import IndexState, WordLists, mark, recall
from site_builder.query.memo import MEMO_LOCK, memoised
from site_builder.query.postings import Analysis, Postings, analyse
from site_builder.query.ranking import Window, combine, current_first
from site_builder.query.textwords import (
    RULES,
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

__all__ = ["RULES", "Query", "Ranked", "TextIndex", "Window", "combine", "current_first", "extends",
           "fold", "follow", "index_for", "one_edit", "parse", "record_key",
           "ref_key", "stem", "terms", "word_terms", "words"]


@dataclass(slots=True)
class Ranked:
    """A query's answer: matching record numbers, best first (those its window asked for),
    the corrected query, and how many records match in all."""

    numbers: list[int]
    did_you_mean: str | None
    total: int


# Records analysed between two calls of a checkpoint: some 50 ms of work.
_CHECKPOINT_EVERY = 256


class TextIndex:
    """Records analysed for search, with `search` answering queries.

    Made for one Archive, and brought up to date with whichever Archive a call names:
    records added, changed (another Record, or another body) or removed since the last
    call are taken out of or put into the postings (postings.py), and everything else is
    kept, so an index that followed an archive through edits answers exactly as one made
    afresh. Records are numbered in archive order (newest first); bodies come from
    `Archive.all_bodies()`, so a remote site that republished its bodies is followed too.

    With `kept` (kept_index.py, for an archive whose bodies are its records' own), the first
    analysis starts from the index kept there and analyses only the records that changed
    since; with `keep` too, `keep()` writes the index there for the next run.
    """

    def __init__(self, archive: Archive, kept: KeptFile | None = None,
                 keep: bool = False) -> None:
        self._archive = weakref.ref(archive)
        self._lock = threading.Lock()
        # What the postings hold: the records (as of the last call) and their bodies.
        self._records: tuple[Record, ...] | None = None
        self._bodies: Mapping[str, str] | None = None
        self._held: dict[str, Record] = {}
        self._slots: dict[str, int] = {}
        self._free: list[int] = []
        self._postings = Postings()
        # slot → record number, or None while every record's slot is its number.
        self._numbers: list[int] | None = None
        self._key_of: dict[str, str] = {}
        self.keys: dict[str, list[int]] = {}
        self.chains: dict[int, list[int]] = {}
        self.total = 0
        self._kept, self._keeping = kept, keep and kept is not None
        # slot → its record's words, while the index is to be kept (`keep`) or was recalled.
        self._words: WordLists | None = WordLists() if self._keeping else None
        self._unkept = True  # whether the kept file lacks a change this index holds
        self.analysed = 0  # records analysed so far (a kept index: only those that changed)

    def serve(self, archive: Archive) -> None:
        """Make `archive` the one calls without an archive of their own are about."""
        self._archive = weakref.ref(archive)

    def _target(self, archive: Archive | None) -> Archive:
        found = archive if archive is not None else self._archive()
        if found is None:
            raise ReferenceError("the archive of this index is gone; name one")
        return found

    def _ready(self, archive: Archive, checkpoint: Callable[[], None] | None = None) -> None:
        bodies = archive.all_bodies()
        if archive.records is self._records and bodies is self._bodies:
            return
        if self._records is None:
            if not self._recalled(archive.records, bodies):
                self._build(archive.records, bodies, checkpoint)
            moved = True
        else:
            moved = self._update(archive.records, bodies, archive.own_bodies)
        if moved:
            self._renumber(archive.records)
        slots = self._slots
        self.chains = {self._number(slots[old]): [
            self._number(slots[r.id]) for r in archive.chain(archive.by_id[old])]
            for old in archive.superseded_by}
        self.total = len(archive.records)
        self._records, self._bodies = archive.records, bodies

    def _number(self, slot: int) -> int:
        return slot if self._numbers is None else self._numbers[slot]

    def _build(self, records: Sequence[Record], bodies: Mapping[str, str],
               checkpoint: Callable[[], None] | None) -> None:
        """The first analysis; nothing of it is kept when `checkpoint` raises."""
        postings = Postings()
        words = WordLists() if self._words is not None else None
        for number, record in enumerate(records):
            if checkpoint is not None and number % _CHECKPOINT_EVERY == 0:
                checkpoint()
            analysis = analyse(record, bodies.get(record.id, ""))
            self.analysed += 1
            postings.add(number, analysis, last=True)
            if words is not None:
                words.set(number, analysis.words)
        self._postings, self._words = postings, words
        self._held = {r.id: r for r in records}
        self._slots = {r.id: n for n, r in enumerate(records)}
        self._key_of = {r.id: record_key(r) for r in records}

    def _update(self, records: Sequence[Record], bodies: Mapping[str, str],
                own: bool) -> bool:
        """The postings changed to hold `records` with `bodies`, record by record; whether
        the records' order (their numbers or keys) may have changed."""
        held, old_bodies = self._held, self._bodies or {}
        added: list[Record] = []
        changed: list[tuple[Record, Record]] = []
        for record in records:
            old = held.get(record.id)
            if old is None:
                added.append(record)
            elif old is not record or (not own and bodies.get(record.id) is not \
                    old_bodies.get(record.id)):
                changed.append((old, record))
        gone = set(held) - {r.id for r in records} if len(held) + len(added) != len(
            records) else set()
        moved = bool(added or gone)
        postings = self._postings
        for old, record in changed:
            held[record.id] = record
            # Read again, the same: with bodies of their own, equal records hold one body.
            if old == record and (own or old_bodies.get(old.id) == bodies.get(record.id)):
                continue
            slot = self._slots[record.id]
            self._remove(slot, old, old_bodies)
            self._add(slot, analyse(record, bodies.get(record.id, "")))
            moved = moved or old.date != record.date or record_key(record) != \
                self._key_of[record.id]
        for record_id in sorted(gone):
            slot = self._slots.pop(record_id)
            self._remove(slot, held.pop(record_id), old_bodies)
            self._free.append(slot)
            if self._words is not None:
                self._words.clear(slot)
        for record in added:
            slot = self._free.pop() if self._free else len(postings.lengths)
            self._slots[record.id] = slot
            held[record.id] = record
            self._add(slot, analyse(record, bodies.get(record.id, "")))
        self._unkept = self._unkept or bool(changed or gone or added)
        return moved

    def _remove(self, slot: int, record: Record, bodies: Mapping[str, str]) -> None:
        """Take the record in `slot` out: by the words it was added with where they are held
        (a recalled index never read the unchanged records' bodies), else by analysing it."""
        if self._words is None:
            self._postings.remove(slot, analyse(record, bodies.get(record.id, "")))
        else:
            self._postings.remove_words(slot, self._words.get(slot))

    def _add(self, slot: int, analysis: Analysis) -> None:
        self.analysed += 1
        self._postings.add(slot, analysis)
        if self._words is not None:
            self._words.set(slot, analysis.words)

    def _recalled(self, records: Sequence[Record], bodies: Mapping[str, str]) -> bool:
        """Start from the kept index, brought up to date with `records`; False, and nothing
        changed, when there is none, it does not fit, or most records changed since."""
        found = recall(self._kept, records) if self._kept is not None else None
        if found is None:
            return False
        self._postings, self._words = found.postings, found.words
        self._slots, self._free = found.slots, found.free
        self._held = {r.id: r for r in records if r.id in found.slots}
        self._key_of = {r.id: record_key(r) for r in records}
        for record in found.fresh:
            slot = self._free.pop() if self._free else len(found.postings.lengths)
            self._slots[record.id] = slot
            self._held[record.id] = record
            self._add(slot, analyse(record, bodies.get(record.id, "")))
        self._unkept = found.changed
        return True

    def _renumber(self, records: Sequence[Record]) -> None:
        """Record numbers and keys worked out again for `records` in their order."""
        slots, key_of = self._slots, self._key_of
        numbers = [-1] * len(self._postings.lengths)
        keys: dict[str, list[int]] = {}
        for number, record in enumerate(records):
            numbers[slots[record.id]] = number
            key = key_of.get(record.id)
            if key is None:
                key = key_of[record.id] = record_key(record)
            keys.setdefault(key, []).append(number)
        for record_id in [i for i in key_of if i not in slots]:
            del key_of[record_id]
        self._numbers = None if numbers == list(range(len(numbers))) else numbers
        self.keys = keys

    @property
    def typo_words(self) -> list[str]:
        """Words a mistyped word may stand for: most records first, then alphabetical."""
        return self._postings.typo_words

    def postings(self, checkpoint: Callable[[], None] | None = None,
                 archive: Archive | None = None,
                 ) -> tuple[dict[str, array[int]], dict[str, array[int]]]:
        """(term → record numbers, term → levels), what the site's index is made of, for
        `archive` (the one the index was made for, when not given).

        A first analysis calls `checkpoint()` now and then (every few hundred records), so
        a caller can give it up by raising there; nothing of it is kept then."""
        with self._lock:
            self._ready(self._target(archive), checkpoint)
            self._compact()
            postings = self._postings
            if self._words is not None:
                postings.relevel(self._words.terms)
            return postings.docs, {term: postings.levels(term) for term in postings.docs}

    def _compact(self) -> None:
        """Give every record the slot of its number (free slots dropped), so postings in
        slot order are in record order."""
        if (self._numbers is None and not self._free) or self._records is None:
            return
        order = [self._slots[r.id] for r in self._records]
        self._postings.renumber(order)
        if self._words is not None:
            self._words = self._words.reordered(order)
        self._slots = {r.id: n for n, r in enumerate(self._records)}
        self._numbers, self._free = None, []

    def keep(self) -> bool:
        """Write the index, as analysed by the last call, to the kept file it was made
        with (`keep`), unless that file holds it already; whether the file holds it now."""
        with self._lock:
            records = self._records
            if not self._keeping or self._kept is None or records is None:
                return False
            if self._unkept:
                self._compact()
                assert self._words is not None
                state = IndexState([r.id for r in records], [mark(r) for r in records],
                                   self._postings.parts(), self._words)
                self._unkept = not state.write(self._kept)
            return not self._unkept

    def recall_from(self, kept: KeptFile) -> None:
        """Start the first analysis from the index kept in `kept`, if it is still to come
        (a read-only use: `keep` never writes there)."""
        with self._lock:
            if self._records is None:
                self._kept = kept

    def ready(self, archive: Archive | None = None) -> None:
        """Analyse the records now (`archive`'s, or the index's own archive's)."""
        with self._lock:
            self._ready(self._target(archive))

    def _term(self, term: str) -> dict[int, int]:
        postings = self._postings
        slots = postings.docs[term]
        numbers = slots if self._numbers is None else map(self._numbers.__getitem__, slots)
        return dict(zip(numbers, postings.levels(term), strict=True))

    def _expansions(self, word: str) -> list[str]:
        """The vocabulary's terms a word being typed matches (prefix rule)."""
        vocabulary = self._postings.vocabulary
        at = bisect.bisect_left(vocabulary, word)
        found = []
        while at < len(vocabulary) and vocabulary[at].startswith(word):
            found.append(vocabulary[at])
            at += 1
        found.extend(word[:end] for end in range(RULES["minStem"], len(word))
                     if self._has(word[:end]))
        return sorted(t for t in set(found) if extends(word, t))

    def _has(self, term: str) -> bool:
        return term in self._postings.docs

    def _matches(self, word: str, term: str, prefix: bool) -> dict[int, int]:
        if not prefix:
            return self._term(term) if self._has(term) else {}
        found = sorted((self._term(t) for t in self._expansions(word)), key=len, reverse=True)
        if not found:
            return {}
        merged = dict(found[0])  # the longest as it is: most words have one expansion
        for other in found[1:]:
            for number, value in other.items():
                if value > merged.get(number, 0):
                    merged[number] = value
        return merged

    def _correction(self, word: str) -> str | None:
        if len(word) < RULES["typoMin"] or not word.isalpha():
            return None
        return next((w for w in self.typo_words if one_edit(word, w)), None)

    def search(self, text: str, archive: Archive | None = None,
               window: Window | None = None) -> Ranked:
        """The records of `archive` (the index's own, when not given) matching query `text`,
        best first (see the module docstring), within `window` (all of them by default)."""
        with self._lock:
            self._ready(self._target(archive))
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
            numbers, total = combine(lists, self.total, self.keys.get(query.ref or "", []),
                                     self.chains, window)
            mean = None
            if corrected:
                mean = " ".join(corrected.get(w, w) for w in words(text))
            return Ranked(numbers, mean, total)


_TEXT: weakref.WeakKeyDictionary[Archive, TextIndex] = weakref.WeakKeyDictionary()


def index_for(archive: Archive) -> TextIndex:
    """The TextIndex of `archive`, created on first use and dropped with the Archive."""
    return memoised(_TEXT, archive, TextIndex)


def follow(archive: Archive, earlier: Archive) -> None:
    """Let `archive` take over the text index of `earlier` (an archive it replaces, as an
    edited folder's next Archive does), if `earlier` has one and `archive` none yet: the
    index is then brought up to date with the records that changed instead of made again.
    `earlier` makes itself a new index if it is asked again."""
    with MEMO_LOCK:
        index = _TEXT.get(earlier)
        if index is None or archive in _TEXT:
            return
        del _TEXT[earlier]
        _TEXT[archive] = index
        index.serve(archive)
