"""One file of the build's plan: its site path, how to make its bytes, and what it reads.

Every producer of the site (the pages, the agent files, the search index) lists its files as
`Planned` items in a fixed order before making any of them. The build makes each one; `serve`
asks each which records it reads (`reads`) to know what an edit touches, so what a page
depends on is said once, beside the code that makes the page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final


class Every:
    """Stands for every record of the archive: what a listing of all of them, an index or an
    agent file reads."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "EVERY"


EVERY: Final = Every()

Reads = Callable[[], Iterable[str]] | Every
"""Ids of the records a file shows something of, worked out only when asked (a build never
asks), or EVERY."""


def nothing() -> tuple[str, ...]:
    """The `reads` of a file that shows no record (robots.txt, the schema, the 404 page)."""
    return ()


@dataclass(frozen=True, slots=True)
class Planned:
    """One output file: `make()` gives its contents (None: the file is not written this
    time, such as a sitemap for a site without `url`); `reads` says which records they
    come from, and `lists` which records a listing page shows as rows (`views.Row`) and
    nothing else of: an edit that leaves a record's row as it was (its body, its authors)
    leaves the listings of it as they were."""

    path: str
    make: Callable[[], str | bytes | Iterable[bytes] | None]
    reads: Reads
    lists: Reads | None = None


def reads_any(planned: Planned, records: frozenset[str]) -> bool:
    """True when `planned` reads or lists one of `records` (or every record)."""
    return any(isinstance(reads, Every) or not records.isdisjoint(reads())
               for reads in (planned.reads, planned.lists) if reads is not None)
