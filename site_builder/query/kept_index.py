"""The text index kept between runs, so that a change of one record analyses one record.

Analysing 10,000 records for search takes some 3 s (postings.py's `analyse`, then adding each
to the postings), and the build, the MCP server and `serve` each did it from nothing on every
start. The build now leaves its postings in `.site-builder/cache/search.pickle` (through
base/kept.py, restricted to what it names), with what a later run needs to bring them up to
date without the old bodies:

- each record's *mark*: a digest of everything `analyse` reads (the fields it weighs, and
  the body's file with a digest of its bytes, or the body itself when it has no file), so a
  record whose mark is unchanged is known to analyse as it did, in a fresh checkout too;
- each slot's distinct words, as numbers into one table of words: a changed or removed
  record's terms are those its words yield (`word_terms`), which is all `Postings.remove`
  needs, so the old body is never read again.

The file holds the postings in record order (slot = record number), as the build wrote the
site's index from them. It is keyed like the loader's file (the code, Python, the archive's
root): any change of the analysis rules is a miss, and the index is made afresh. Why words
and not whole analyses, and what it measured, is BUILD-ADR-0041.
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from site_builder.archive.records import Record
from site_builder.base.installed import code_digest
from site_builder.base.kept import KeptFile, digest
from site_builder.config.site import SiteConfig
from site_builder.query.postings import Postings
from site_builder.query.textwords import word_terms

__all__ = ["IndexState", "Recalled", "WordLists", "kept_index_file", "mark", "recall"]

FORMAT = "2"
KEPT_FILE = "search.pickle"


def kept_index_file(config: SiteConfig) -> KeptFile:
    """Where the archive of `config` keeps its text index."""
    key = digest(("text index", FORMAT, code_digest(), sys.version, str(config.root)))
    return KeptFile(config.cache_dir / "cache" / KEPT_FILE, key,
                    (array, _array_reconstructor()))


def _array_reconstructor() -> Any:
    """What pickle names to make an array again (`array.__reduce_ex__`)."""
    return array("I").__reduce_ex__(5)[0]


def mark(record: Record) -> bytes:
    """A digest of what `analyse` reads of `record`: equal marks analyse alike."""
    body = record.body_file
    # The file's bytes, where known: a fresh checkout (CI) gives the same files new mtimes.
    where: object = ((body.path, body.digest or body.stamp) if body is not None
                     else hashlib.blake2b(record.body_text.encode("utf-8", "surrogatepass"),
                                          digest_size=16).digest())
    text = repr((record.title, record.ref, record.tags, record.description, record.authors,
                 record.deciders, record.fields, where))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class WordLists:
    """slot → the distinct words of the record in it, held as numbers into one table."""

    def __init__(self, table: list[str] | None = None,
                 lists: list[array[int] | None] | None = None) -> None:
        self.table = table if table is not None else []
        self._number = {word: n for n, word in enumerate(self.table)}
        self.lists = lists if lists is not None else []

    def set(self, slot: int, words: Iterable[str]) -> None:
        """Hold `words` as the words of `slot`."""
        number, table = self._number, self.table
        ids = array("I")
        for word in words:
            found = number.get(word)
            if found is None:
                found = number[word] = len(table)
                table.append(word)
            ids.append(found)
        lists = self.lists
        if slot >= len(lists):
            lists.extend([None] * (slot + 1 - len(lists)))
        lists[slot] = ids

    def get(self, slot: int) -> list[str]:
        """The words of `slot`; raises KeyError for a slot holding none."""
        ids = self.lists[slot] if slot < len(self.lists) else None
        if ids is None:
            raise KeyError(slot)
        table = self.table
        return [table[n] for n in ids]

    def terms(self, slots: Iterable[int]) -> frozenset[str]:
        """The terms the records in `slots` are posted under."""
        return frozenset(term for slot in slots for word in self.get(slot)
                         for term in word_terms(word))

    def clear(self, slot: int) -> None:
        """`slot` holds no record any more."""
        if slot < len(self.lists):
            self.lists[slot] = None

    def reordered(self, slots: Sequence[int]) -> WordLists:
        """The lists of `slots`, in that order: new slot n holds old slot `slots[n]`'s."""
        return WordLists(self.table, [self.lists[s] for s in slots])


@dataclass(frozen=True, slots=True)
class IndexState:
    """What the kept file holds: postings in record order, and what brings them up to date.

    `records` are the ids in slot order; `marks` their marks; the postings' parts as
    `Postings.parts` gives them; `words` each slot's words.
    """

    records: list[str]
    marks: list[bytes]
    parts: tuple[Any, ...]
    words: WordLists

    def plain(self) -> tuple[Any, ...]:
        """The state as builtins and arrays, the only things the kept file may make."""
        return (self.records, self.marks, self.parts, self.words.table, self.words.lists)

    @classmethod
    def of_plain(cls, value: Any) -> IndexState | None:
        """The state `plain` gave, or None for anything else."""
        if not isinstance(value, tuple) or len(value) != 5:
            return None
        records, marks, parts, table, lists = value
        if not (isinstance(records, list) and isinstance(marks, list)
                and len(records) == len(marks) and isinstance(parts, tuple)
                and isinstance(table, list) and isinstance(lists, list)
                and len(lists) == len(records)):
            return None
        return cls(records, marks, parts, WordLists(table, lists))

    @classmethod
    def read(cls, kept: KeptFile) -> IndexState | None:
        """The state kept in `kept`, or None when there is none for this code and archive."""
        return cls.of_plain(kept.read())

    def write(self, kept: KeptFile) -> bool:
        """Keep this state for the next run; False when it could not be written."""
        return kept.write(self.plain())


@dataclass(frozen=True, slots=True)
class Recalled:
    """The kept postings, without the records that changed or went since: `slots` of the
    records held as kept, `free` slots (the next to use last), each slot's `words`, the
    records still to analyse and add (`fresh`), and whether anything differs from the file
    (`changed`)."""

    postings: Postings
    slots: dict[str, int]
    free: list[int]
    words: WordLists
    fresh: list[Record]
    changed: bool


def recall(kept: KeptFile, records: Sequence[Record]) -> Recalled | None:
    """What `kept` holds, brought up to date with `records` up to the analysis of those
    that changed; None when it holds nothing for them, does not hold what it says, or
    most records changed since (analysing them all is as fast)."""
    state = IndexState.read(kept)
    if state is None:
        return None
    try:
        postings = Postings.restored(state.parts)
    except ValueError:
        return None
    if len(postings.lengths) != len(state.records):
        return None
    marks = dict(zip(state.records, state.marks, strict=True))
    same = {r.id for r in records if marks.get(r.id) == mark(r)}
    if len(same) < len(records) // 2:
        return None
    words, free = state.words, []
    slots = {record_id: slot for slot, record_id in enumerate(state.records)}
    try:
        for record_id in [i for i in state.records if i not in same]:
            slot = slots.pop(record_id)
            postings.remove_words(slot, words.get(slot))
            words.clear(slot)
            free.append(slot)
    except (KeyError, IndexError):
        return None  # the postings are half changed: nothing of them is used
    fresh = [r for r in records if r.id not in same]
    return Recalled(postings, slots, free[::-1], words, fresh,
                    bool(fresh) or len(same) != len(state.records))
