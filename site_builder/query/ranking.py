"""How a query's matches are ordered (textindex.py's module docstring says the rules): BM25
scores as integers, records holding more of the terms first, replacements before what they
replace, and only as much of the order as a page needs.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from site_builder.query.textwords import RULES


def idf(documents: int, total: int) -> int:
    """BM25's inverse document frequency of a term held by `documents` of `total` records,
    scaled to an integer."""
    scale: float = RULES["idfScale"]
    return round(scale * math.log(1 + (total - documents + 0.5) / (documents + 0.5)))


def combine(lists: Sequence[Mapping[int, int]], total: int, first: Iterable[int],
            chains: Mapping[int, Sequence[int]] | None = None, window: Window | None = None,
            ) -> tuple[list[int], int]:
    """Record numbers holding any term's postings (record number → level), ranked, and how
    many there are: the numbers in `first`, then more terms held, higher score, lower number
    (newer), the replacements of a superseded record (`chains`: number → its chain, direct
    replacement first) moved before it, the end of the chain first. `window` keeps only
    some numbers, orders them by number alone, or asks for the first few only."""
    window = window or Window()
    lists = sorted((found for found in lists if found), key=len)
    weights = [idf(len(found), total) for found in lists]
    keep = window.keep
    top = [n for n in dict.fromkeys(first) if keep is None or n in keep]
    chosen = set(top)
    rest = set().union(*lists)
    if keep is not None:
        rest.intersection_update(keep)
    rest -= chosen
    count = len(top) + len(rest)
    if window.by_number:
        return sorted(chosen | rest)[:window.first], count
    want = window.first
    # Holding every term outranks holding fewer, so when enough records hold every term,
    # the first `want` are among them and only they are scored: worth it when the shortest
    # postings are short beside all of them (scoring one number looks in every list).
    every: list[int] = []
    if want is not None and lists and 2 * len(lists[0]) * len(lists) < sum(map(len, lists)):
        every = [n for n in lists[0] if n in rest and all(n in f for f in lists[1:])]
    if want is not None and len(every) >= want:
        scored = _scores(lists, weights, every)
    else:
        scored = _scores(lists, weights)
        if keep is not None or chosen:
            scored = {n: scored[n] for n in rest} if len(rest) < len(scored) else {
                n: rank for n, rank in scored.items() if n in rest}
    keyed = ((-rank, number) for number, rank in scored.items())
    # The first `want` of the whole order come from its first `want` ranked numbers and
    # their replacements (current_first), so only those are sorted.
    ordered = sorted(keyed) if want is None else heapq.nsmallest(want, keyed)
    ranked = current_first([number for _, number in ordered], chains or {}, rest)
    return (top + ranked)[:want], count


def _scores(lists: Sequence[Mapping[int, int]], weights: Sequence[int],
            numbers: Collection[int] | None = None) -> dict[int, int]:
    """The rank of each of `numbers` (None: of every number in `lists`), as one integer:
    each term held adds 2**40 (far above any score) and its idf weight × level."""
    if numbers is not None:
        pairs = list(zip(weights, lists, strict=True))
        return {n: sum((1 << 40) + w * found[n] for w, found in pairs if n in found)
                for n in numbers}
    held: dict[int, int] = {}
    for weight, found in reversed(list(zip(weights, lists, strict=True))):
        if not held:  # the longest made in one go
            held = {number: (1 << 40) + weight * value for number, value in found.items()}
            continue
        for number, value in found.items():
            held[number] = held.get(number, 0) + (1 << 40) + weight * value
    return held


@dataclass(frozen=True, slots=True)
class Window:
    """Which of a query's matches `combine` ranks: only those in `keep` (None: all), by
    number alone (`by_number`: newest first) rather than by relevance, and only the first
    `first` of them (None: every one)."""

    keep: Collection[int] | None = None
    by_number: bool = False
    first: int | None = None


def current_first(ranked: list[int], chains: Mapping[int, Sequence[int]],
                  matched: Collection[int] | None = None) -> list[int]:
    """`ranked` with each record's matching replacements (those in `matched`, `ranked`'s
    own when not given) placed just before it (the end of its chain first), where they were
    not already before it."""
    if not chains:
        return ranked
    matched = set(ranked) if matched is None else matched
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
