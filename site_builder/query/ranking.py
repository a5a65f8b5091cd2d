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
    held: dict[int, int] = {}
    # One integer per record orders it: each term held adds 2**40, far above any score.
    for found in sorted(lists, key=len, reverse=True):  # the longest made in one go
        weight = idf(len(found), total)
        if not held:
            held = {number: (1 << 40) + weight * value for number, value in found.items()}
            continue
        for number, value in found.items():
            held[number] = held.get(number, 0) + (1 << 40) + weight * value
    keep = window.keep
    if keep is not None:
        held = {n: held[n] for n in keep if n in held} if len(keep) < len(held) else {
            n: rank for n, rank in held.items() if n in keep}
    top = [n for n in dict.fromkeys(first) if keep is None or n in keep]
    chosen = set(top)
    rest = held.keys() - chosen
    if window.by_number:
        return sorted(chosen | rest)[:window.first], len(top) + len(rest)
    # The first `first` of the full order come from its first `first` ranked numbers and
    # their replacements (current_first), so only those are sorted.
    keyed = ((-held[number], number) for number in rest)
    ordered = sorted(keyed) if window.first is None else heapq.nsmallest(window.first, keyed)
    ranked = current_first([number for _, number in ordered], chains or {}, rest)
    return (top + ranked)[:window.first], len(top) + len(rest)


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
