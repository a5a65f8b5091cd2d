"""Checks across records: references, supersede cycles, lineage and body links."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from site_builder.archive.archive import Archive
from site_builder.archive.findings import Finding
from site_builder.archive.links import is_local, local_path
from site_builder.archive.records import Record


def cross_check(archive: Archive) -> list[Finding]:
    """Every problem that needs more than one record to see."""
    findings: list[Finding] = []
    content = _content_folders(archive)
    for record in archive.records:
        findings.extend(_references(archive, record))
        findings.extend(_links(archive, record, content))
        successor = archive.superseded_by.get(record.id)
        if successor and record.status in archive.config.current_statuses:
            findings.append(Finding(
                record.path, record.line_of("status"), "warning",
                f"status '{record.status}' says this record is in force, but {successor} "
                "supersedes it (set status: superseded)"))
    findings.extend(_cycles(archive))
    return findings


def _references(archive: Archive, record: Record) -> Iterator[Finding]:
    pairs = [("supersedes", ref) for ref in record.supersedes]
    pairs += [("related", ref) for ref in record.related]
    if record.superseded_by:
        pairs.append(("supersededBy", record.superseded_by))
    for key, reference in pairs:
        found = archive.candidates(reference)
        if len(found) == 1:
            if found[0] == record.id:
                yield Finding(record.path, record.line_of(key), "error",
                              f"'{key}' refers to the record itself")
            continue
        if found:
            message = f"'{key}' reference \"{reference}\" is ambiguous: {', '.join(found)}"
        else:
            message = f"'{key}' refers to a missing record: {reference}"
        yield Finding(record.path, record.line_of(key), "error", message)


def _content_folders(archive: Archive) -> set[Path]:
    """The archive's content folder and every folder a source provides projects from."""
    folders = {archive.config.content_dir}
    folders.update(p.path.parent for p in archive.projects.values() if p.path is not None)
    return folders


def _links(archive: Archive, record: Record, content: set[Path]) -> Iterator[Finding]:
    for link in record.links:
        if not is_local(link.target):
            continue
        target = local_path(record.path, link.target)
        line = record.body_line + link.line - 1
        if target.suffix == ".md" and (archive.record_at(target) or target.is_file()):
            continue
        if target.suffix == ".md" and any(_inside(target, folder) for folder in content):
            yield Finding(record.path, line, "error",
                          f"link to a missing record: {link.target}")
        elif not target.exists():
            yield Finding(record.path, line, "warning",
                          f"link to a file that does not exist: {link.target}")


def _inside(path, folder) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


def _cycles(archive: Archive) -> Iterator[Finding]:
    edges: dict[str, set[str]] = {}
    for record in archive.records:
        for reference in record.supersedes:
            older = archive.resolve(reference)
            if older is not None:
                edges.setdefault(record.id, set()).add(older.id)
    reported: set[frozenset[str]] = set()
    for start in sorted(edges):
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in sorted(edges.get(node, ())):
                if nxt == start:
                    cycle = frozenset(path)
                    if cycle not in reported:
                        reported.add(cycle)
                        record = archive.by_id[start]
                        loop = " → ".join([*path, start])
                        yield Finding(record.path, record.line_of("supersedes"), "error",
                                      f"supersede cycle: {loop}")
                elif nxt not in path and len(path) < 64:
                    stack.append((nxt, [*path, nxt]))
