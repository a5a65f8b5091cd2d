"""Which records the code cites: a scan of the repository (codescan.py) matched to an archive.

A mention names a record when it is
- a ref the archive's lookup knows (`SRE-ADR-0004`, `sre-adr-4`);
- a short ref `<TYPE>-<N>` (`ADR-0004`) when exactly one project has a record of that type
  and number (two projects having one: it names neither);
- a path whose last three segments are a record's id or short id (its page
  `…/sre/adr/0004-x/`, its `.md` copy, its file `content/sre/adr/0004-x.md`,
  `sre/adr/4`), or that ends with the record file's path (a record kept in another tool's
  format: `doc/adr/0004-x.md`).
The folders records are read from (`content`, each source's), the built output and
`.site-builder/` are never read for citations (codescan.py leaves them out): a record naming
another is lineage or a link, not a citation.

`check` warns at the code's line about a cited record that is superseded (naming the one
that replaced it), one whose status is neither in force nor open (rejected, deprecated), and a
mention that looks like one of this archive's records but names none: a full ref of one of its
projects, a short ref of one of its types, a path into one of its record folders.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from site_builder.archive.affects import problem
from site_builder.archive.archive import Archive
from site_builder.archive.cited import Citation, Citations
from site_builder.archive.codescan import CodeScan, scan_for
from site_builder.archive.records import Record
from site_builder.base.findings import Finding

__all__ = ["cite", "cite_code"]


class _Names:
    """What a mention is compared with, worked out once per archive."""

    def __init__(self, archive: Archive, top: Path) -> None:
        self.archive = archive
        self.projects = {p.lower() for p in archive.projects}
        self.types = {r.type.lower() for r in archive.records}
        self.shorts: dict[tuple[str, int], list[str]] = {}
        self.files: dict[str, str] = {}
        self.folders = {f"{r.project}/{r.type}".lower() for r in archive.records}
        inside = os.path.join(top, "")
        for record in archive.records:
            if record.number.isdigit():
                key = (record.type.lower(), int(record.number))
                self.shorts.setdefault(key, []).append(record.id)
            for path in _file_names(record, inside):
                self.files[path.removesuffix(".md")] = record.id
                self.folders.add(path.rpartition("/")[0])

    def ref(self, token: str) -> tuple[Record | None, bool]:
        """The record a ref-like mention names, and whether it looks like this archive's."""
        found = self.archive.candidates(token)
        if len(found) == 1:
            return self.archive.by_id[found[0]], True
        if found:
            return None, False  # ambiguous: no citation, and nothing to warn about
        *words, number = token.lower().split("-")
        if len(words) == 1:
            ids = self.shorts.get((words[0], int(number)), [])
            if len(ids) == 1:
                return self.archive.by_id[ids[0]], True
            return None, not ids and words[0] in self.types
        return None, "-".join(words[:-1]) in self.projects

    def path(self, token: str) -> tuple[Record | None, bool]:
        """The record a path-like mention names, and whether it looks like this archive's."""
        segments = [s for s in token.removesuffix(".md").split("/") if s not in ("", ".")]
        if len(segments) >= 3:
            found = self.archive.candidates("/".join(segments[-3:]))
            if len(found) == 1:
                return self.archive.by_id[found[0]], True
        for start in range(len(segments) - 1):
            found_id = self.files.get("/".join(segments[start:]))
            if found_id is not None:
                return self.archive.by_id[found_id], True
        stem = segments[-1]
        if "." in stem and not token.endswith(".md"):
            return None, False  # an image or another file beside the records
        parents = ["/".join(segments[start:-1]) for start in range(len(segments) - 1)]
        return None, any(parent.lower() in self.folders for parent in parents)


def _file_names(record: Record, inside: str) -> list[str]:
    """The record file's path relative to the repository (`inside` is its folder, with a
    trailing separator) and to the archive root. Compared as strings: both are absolute,
    and pathlib's `relative_to` was 0.2 s of every load of 10,000 records in a repository."""
    out = [] if record.rel_path.startswith("../") else [record.rel_path]
    path = os.fspath(record.path)
    if path.startswith(inside):
        out.append(path[len(inside):].replace(os.sep, "/"))
    return out


def _problem(archive: Archive, record: Record) -> str | None:
    """Why citing `record` deserves a warning, or None when it is in force or open."""
    successor = archive.superseded_by.get(record.id)
    if successor is not None:
        newer = archive.by_id[successor]
        end = archive.current_record(record)
        more = (f"; the end of its chain is {end.ref}"
                if end is not None and end.id != newer.id else "")
        return f"cites {record.ref}, superseded by {newer.ref} ({newer.title}){more}"
    if archive.is_current(record) or archive.is_open(record):
        return None
    return f"cites {record.ref}, which is {record.status}, not in force"


def cite(archive: Archive, scan: CodeScan) -> Citations:
    """The citations `scan` holds of the records of `archive`, with their warnings."""
    names = _Names(archive, scan.top)
    places: dict[str, set[Citation]] = {}
    findings: dict[tuple[str, int, str], Finding] = {}
    for path, found in scan.files.items():
        for line, token in found:
            record, ours = names.path(token) if "/" in token else names.ref(token)
            where = scan.top / path
            if record is None:
                if ours:
                    findings[(path, line, token)] = Finding(
                        where, line, "warning",
                        f"cites {token}, which names no record of this archive")
                continue
            places.setdefault(record.id, set()).add(Citation(path, line))
            problem = _problem(archive, record)
            if problem is not None:
                findings[(path, line, record.id)] = Finding(where, line, "warning", problem)
    return Citations(places, findings.values(), scan)


def _glob_problems(archive: Archive) -> Iterator[Finding]:
    """An error at `citations` in site.yml for each glob that cannot be matched."""
    spec, config = archive.config.citations, archive.config
    if spec is None:
        return
    for pattern in (*spec.include, *spec.exclude):
        reason = problem(pattern[1:] if pattern.startswith("!") else pattern)
        if reason is not None:
            yield Finding(config.path, spec.line, "error", f"citations glob {pattern!r} cannot "
                          f"be used: {reason}; it matches nothing")


def cite_code(archive: Archive) -> Citations:
    """The citations of the archive's records in the code of its repository (none when
    `citations: false` or outside git), with the problems of the `citations` globs; what
    the loader hands the Archive."""
    scan = scan_for(archive.config)
    found = Citations() if scan is None else cite(archive, scan)
    bad = list(_glob_problems(archive))
    return Citations({r.id: found.of(r.id) for r in archive.records},
                     [*bad, *found.findings], scan) if bad else found


def cite_again(archive: Archive) -> Callable[[Archive], Citations] | None:
    """How to cite code in an archive made from `archive` with some records edited but the
    code as it was (`serve` reloading edited records): the scan `archive` made, matched again
    without reading the repository; `archive`'s own way when it has made no scan yet."""
    scan = archive.citations.scan
    if scan is None:
        return archive.cite
    return lambda changed: cite(changed, scan)
