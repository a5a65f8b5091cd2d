"""Citations as values: where the repository's code cites each record.

Made by matching a scan of the code against an archive (citations.py), or read back from a
published decisions.json (`citedBy`), so the query layer answers alike for both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from site_builder.archive.codescan import CodeScan
from site_builder.base.findings import Finding

__all__ = ["NO_CITATIONS", "Citation", "Citations"]


@dataclass(frozen=True, order=True, slots=True)
class Citation:
    """One place in the code that cites a record: a repository path (POSIX) and a line."""

    path: str
    line: int

    def to_json(self) -> dict[str, Any]:
        """`{path, line}`, as `citedBy` lists it."""
        return {"path": self.path, "line": self.line}


class Citations:
    """Which records the code cites, and where.

    `by_record` maps record ids to the places citing them; `findings` are the warnings for
    code that cites a record no longer (or never) in force, or one that does not exist;
    `scan` is what the places were found in (None for citations read from a published site).
    """

    def __init__(self, by_record: Mapping[str, Iterable[Citation]] | None = None,
                 findings: Iterable[Finding] = (), scan: CodeScan | None = None) -> None:
        self._by_record = {record_id: tuple(sorted(set(places)))
                           for record_id, places in (by_record or {}).items() if places}
        self.findings = tuple(findings)
        self.scan = scan
        self._by_path: dict[str, set[str]] = {}
        for record_id, places in self._by_record.items():
            for place in places:
                self._by_path.setdefault(place.path, set()).add(record_id)

    def of(self, record_id: str) -> tuple[Citation, ...]:
        """The places citing the record, sorted by path and line."""
        return self._by_record.get(record_id, ())

    def records_in(self, paths: Iterable[str]) -> frozenset[str]:
        """Ids of the records cited in the files at `paths` (repository paths), or in files
        below the folders `paths` name."""
        out: set[str] = set()
        for path in paths:
            path = path.rstrip("/")
            out.update(self._by_path.get(path, ()))
            below = path + "/"
            for cited, ids in self._by_path.items():
                if cited.startswith(below):
                    out.update(ids)
        return frozenset(out)


NO_CITATIONS = Citations()
