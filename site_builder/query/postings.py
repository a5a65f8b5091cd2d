"""The inverted index behind text search, kept up to date record by record.

Each record the index holds sits in a slot (a small integer that stays its own while the
record is held, whatever its place in the archive): a term's postings are the slots of the
records holding it, ascending, with the weighted count of the term in each. Adding a record
inserts its slot into the postings of its terms and removing one takes it out, so a change
of one record touches only that record's terms. What depends on every record (the average
length BM25 divides by, the levels derived from it, the sorted vocabulary, the words a typo
may stand for) is worked out again from these when asked, so a changed index answers
exactly as one built afresh from the same records.
"""

from __future__ import annotations

import bisect
import itertools
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from site_builder.archive.records import Record
from site_builder.query.textwords import RULES, STOP, TERM_MEMO, word_terms, words

_WEIGHTS: dict[str, int] = RULES["weights"]
# Weighted counts are kept in two bytes each while they fit (nearly always): a large
# archive holds tens of millions of postings.
_SHORT = 0xFFFF


@dataclass(frozen=True, slots=True)
class Analysis:
    """What one record contributes: its weighted count of each term, its weighted length,
    and its distinct words (for typo correction)."""

    counts: Mapping[str, int]
    length: int
    words: Iterable[str]


def level(count: int, length: int, average: float) -> int:
    """BM25's term-frequency part for a weighted count in a record of `length`, as 1–31."""
    k1: float = RULES["k1"]
    b: float = RULES["b"]
    top: int = RULES["levels"]
    norm = 1 - b + b * length / (average or 1.0)
    saturation = count * (k1 + 1) / (count + k1 * norm)
    return max(1, min(top, round(top * saturation / (k1 + 1))))


def field_text(value: Any) -> str:
    """A custom field value as searchable text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return " ".join(field_text(v) for v in value)
    return str(value)


def analyse(record: Record, body: str) -> Analysis:
    """What `record` with `body` contributes to the postings: its weighted term counts
    (each field's words count as often as its `RULES` weight says), weighted length and distinct
    words."""
    counts: dict[str, int] = {}
    seen: Counter[str] = Counter(words(body))
    length = 0
    known = TERM_MEMO  # word_terms' own memo, read here first: this loop runs for every word
    for word, count in seen.items():
        memo = known.get(word)
        for term in word_terms(word) if memo is None else memo:
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
    return Analysis(counts, length, list(seen))


class Postings:
    """term → (slots ascending, weighted counts), with what is derived from them on demand.

    Levels (`level`) are worked out per term when first asked, and again after a change
    moved the average length or touched the term.
    """

    def __init__(self) -> None:
        self.docs: dict[str, array[int]] = {}
        self.counts: dict[str, array[int]] = {}
        self.lengths = array("I")
        """slot → the weighted length of the record in it (0 for a free slot)."""
        self.held = 0
        self._total_length = 0
        self.seen: Counter[str] = Counter()
        """word → how many held records contain it."""
        self._levels: dict[str, array[int]] = {}
        self._known: dict[tuple[int, int], int] = {}
        self._levels_average: float | None = None
        self._vocabulary: list[str] | None = None
        self._typo_words: list[str] | None = None

    # ---- kept between runs (kept_index.py) ----------------------------------------------

    def parts(self) -> tuple[Any, ...]:
        """What the postings are made of, and the levels worked out, as builtins and arrays
        (`restored` takes them)."""
        return (self.docs, self.counts, self.lengths, self.held, self._total_length,
                dict(self.seen), self._levels, self._known, self._levels_average)

    @classmethod
    def restored(cls, parts: tuple[Any, ...]) -> Postings:
        """The postings `parts` gave; raises ValueError for anything else."""
        if len(parts) != 9:
            raise ValueError("not the parts of postings")
        docs, counts, lengths, held, total, seen, levels, known, average = parts
        if not (isinstance(docs, dict) and isinstance(counts, dict) and docs.keys() ==
                counts.keys() and isinstance(lengths, array) and isinstance(held, int)
                and isinstance(total, int) and isinstance(seen, dict)
                and isinstance(levels, dict) and levels.keys() <= docs.keys()
                and isinstance(known, dict) and isinstance(average, float | None)):
            raise ValueError("not the parts of postings")
        postings = cls()
        postings.docs, postings.counts, postings.lengths = docs, counts, lengths
        postings.held, postings._total_length, postings.seen = held, total, Counter(seen)
        postings._levels, postings._known, postings._levels_average = levels, known, average
        return postings

    # ---- changes ------------------------------------------------------------------------

    def add(self, slot: int, analysis: Analysis, last: bool = False) -> None:
        """Hold a record's analysis in `slot` (a free slot, or the next one); `last` says
        no held record has a higher slot (as in a first build), so postings just grow."""
        if slot == len(self.lengths):
            self.lengths.append(analysis.length)
        else:
            self.lengths[slot] = analysis.length
        self.held += 1
        self._total_length += analysis.length
        self.seen.update(analysis.words)
        self._typo_words = None
        docs, counts, levels = self.docs, self.counts, self._levels
        for term, count in analysis.counts.items():
            found = docs.get(term)
            if found is None:
                docs[term] = array("I", (slot,))
                counts[term] = array("H" if count <= _SHORT else "I", (count,))
                if self._vocabulary is not None:
                    bisect.insort(self._vocabulary, term)
                continue
            held = counts[term]
            if count > _SHORT and held.typecode == "H":
                held = counts[term] = array("I", held)
            if last:
                found.append(slot)
                held.append(count)
            else:
                levels.pop(term, None)
                at = bisect.bisect_left(found, slot)
                found.insert(at, slot)
                held.insert(at, count)
        if last and levels:
            for term in analysis.counts:
                levels.pop(term, None)

    def remove(self, slot: int, analysis: Analysis) -> None:
        """Let go of the record in `slot`, whose analysis (as added) is `analysis`. Raises
        KeyError, the postings then half changed, when `slot` lacks one of its terms."""
        self.lengths[slot] = 0
        self.held -= 1
        self._total_length -= analysis.length
        self.seen.subtract(analysis.words)
        for word in analysis.words:
            if self.seen[word] <= 0:
                del self.seen[word]
        self._typo_words = None
        docs, counts, levels = self.docs, self.counts, self._levels
        for term in analysis.counts:
            found = docs[term]
            at = bisect.bisect_left(found, slot)
            if at == len(found) or found[at] != slot:
                raise KeyError(f"slot {slot} does not hold {term!r}")
            del found[at]
            del counts[term][at]
            levels.pop(term, None)
            if not found:
                del docs[term], counts[term]
                if self._vocabulary is not None:
                    del self._vocabulary[bisect.bisect_left(self._vocabulary, term)]

    def renumber(self, order: Sequence[int]) -> None:
        """Move the record in slot `order[n]` to slot n, for every n; slots not in `order`
        must be free, and are gone after."""
        new_of = [0] * len(self.lengths)
        for new, old in enumerate(order):
            new_of[old] = new
        placed = new_of.__getitem__
        docs, counts = self.docs, self.counts
        in_order = all(a < b for a, b in itertools.pairwise(order))
        levels = self._levels
        for term, slots in docs.items():
            if in_order:  # records only left: every posting keeps its place
                docs[term] = array("I", map(placed, slots))
                continue
            held = levels.get(term)
            rows = sorted(zip(map(placed, slots), counts[term],
                              held if held is not None else bytes(len(slots)), strict=True))
            docs[term] = array("I", [n for n, _, _ in rows])
            counts[term] = array(counts[term].typecode, [c for _, c, _ in rows])
            if held is not None:
                levels[term] = array("B", [v for _, _, v in rows])
        self.lengths = array("I", [self.lengths[old] for old in order])

    def remove_words(self, slot: int, words: Sequence[str]) -> None:
        """`remove`, knowing only the distinct words the record was added with: its terms
        are theirs (kept_index.py keeps them, where the record's old text is gone)."""
        terms = {term: 0 for word in words for term in word_terms(word)}
        self.remove(slot, Analysis(terms, self.lengths[slot], words))

    # ---- what is derived ----------------------------------------------------------------

    @property
    def average(self) -> float:
        """The mean weighted length of the held records (1.0 when none is held)."""
        return self._total_length / self.held if self.held else 1.0

    def relevel(self, terms_of: Callable[[list[int]], Iterable[str]]) -> None:
        """Bring the levels worked out to the current average length, working out again only
        those of the terms of records (`terms_of(slots)` names them) holding a weighted
        count whose level the new average moves: after a one-record change that is a few
        terms, where `levels` alone works out every level again."""
        average, before = self.average, self._levels_average
        if average == before:
            return
        self._levels_average = average
        if before is None:
            self._levels.clear()
            self._known.clear()
            return
        moved = set()
        known = self._known
        for pair, value in known.items():
            now = level(pair[0], pair[1], average)
            if now != value:
                known[pair] = now
                moved.add(pair[1])
        if not moved:
            return
        slots = [slot for slot, length in enumerate(self.lengths) if length in moved]
        if len(slots) > len(self.lengths) // 8:
            self._levels.clear()  # as fast to work them all out again
            return
        for term in terms_of(slots):
            self._levels.pop(term, None)

    def levels(self, term: str) -> array[int]:
        """The levels of `term`'s postings (1–31), parallel to `docs[term]`."""
        average = self.average
        if average != self._levels_average:
            self._levels.clear()
            self._known.clear()
            self._levels_average = average
        found = self._levels.get(term)
        if found is None:
            found = self._levels[term] = self._work_out(term, average)
        return found

    def _work_out(self, term: str, average: float) -> array[int]:
        lengths, known = self.lengths, self._known
        out = array("B")
        for slot, count in zip(self.docs[term], self.counts[term], strict=True):
            pair = (count, lengths[slot])
            value = known.get(pair)
            if value is None:
                value = known[pair] = level(count, pair[1], average)
            out.append(value)
        return out

    @property
    def vocabulary(self) -> list[str]:
        """Every term, sorted (kept sorted through changes once asked for)."""
        if self._vocabulary is None:
            self._vocabulary = sorted(self.docs)
        return self._vocabulary

    @property
    def typo_words(self) -> list[str]:
        """Words a mistyped word may stand for: those in most records first, then
        alphabetical."""
        if self._typo_words is None:
            seen = self.seen
            self._typo_words = sorted(
                (w for w in seen if len(w) >= RULES["typoMin"] - 1 and w.isalpha()
                 and w not in STOP), key=lambda w: (-seen[w], w))
        return self._typo_words
