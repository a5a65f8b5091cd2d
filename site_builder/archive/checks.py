"""Checks across records: references, supersede cycles, lineage and body links."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from site_builder.archive.archive import Archive
from site_builder.archive.body_limits import python_markdown_refusal
from site_builder.archive.findings import Finding
from site_builder.archive.links import is_local, local_path
from site_builder.archive.records import FILE_NAME, Record


def cross_check(archive: Archive) -> list[Finding]:
    """Every problem that needs more than one record to see."""
    return record_checks(archive, archive.records) + lineage_checks(archive)


def record_checks(archive: Archive, records: Iterable[Record]) -> list[Finding]:
    """The problems of each of `records` with what it points at: references and body links.

    A record's findings depend only on its own text and on which records and files exist, so
    `serve` checks just the records an edit changed when the set of records stays the same.
    """
    findings: list[Finding] = []
    content = _content_folders(archive)
    broken = _unreadable(archive)
    python_markdown = archive.config.markdown == "python-markdown"
    for record in records:
        findings.extend(_references(archive, record, broken))
        findings.extend(_links(archive, record, content, broken))
        problem = python_markdown_refusal(record.body) if python_markdown else None
        if problem:
            findings.append(Finding(record.path, record.body_line, "error",
                                    f"Python-Markdown cannot render {problem} in bounded "
                                    "time; simplify the body or set 'markdown: gfm'"))
    return findings


def _unreadable(archive: Archive) -> dict[str, Path]:
    """Record files that exist but could not be read, by every name a reference may use.

    Their own errors are reported at the file; a reference or link to one is not reported
    again as "missing", so one broken record gives one clear set of lines, not a cascade.
    """
    readable = {r.path for r in archive.records}
    names: dict[str, Path] = {}
    for finding in archive.load_findings:
        path = finding.path
        if finding.level != "error" or path.suffix != ".md" or path in readable:
            continue
        match = FILE_NAME.match(path.name)
        if not match or len(path.parts) < 3:
            continue
        project, kind, slug = path.parts[-3], path.parts[-2], path.stem
        number = match.group(1)
        for name in (f"{project}/{kind}/{slug}", f"{project}/{kind}/{number}",
                     f"{project}/{kind}/{int(number)}", f"{project}-{kind}-{number}", slug):
            names[name.lower()] = path
    return names


def lineage_checks(archive: Archive) -> list[Finding]:
    """The problems of the supersede graph as a whole: superseded records whose status still
    says they are in force, and cycles."""
    findings: list[Finding] = []
    for record in archive.records:
        successor = archive.superseded_by.get(record.id)
        if successor and record.status in archive.config.current_statuses:
            findings.append(Finding(
                record.path, record.line_of("status"), "warning",
                f"status '{record.status}' says this record is in force, but {successor} "
                "supersedes it (set status: superseded)"))
    findings.extend(_cycles(archive))
    return findings


def _references(archive: Archive, record: Record,
                broken: dict[str, Path]) -> Iterator[Finding]:
    """References that name no record, several, or the record itself (a reference to a
    file in `broken` is left to that file's own errors)."""
    places = [(f"supersedes.{i}", "supersedes", ref) for i, ref in enumerate(record.supersedes)]
    places += [(f"related.{i}", "related", ref) for i, ref in enumerate(record.related)]
    if record.superseded_by:
        places.append(("supersededBy", "supersededBy", record.superseded_by))
    for place, key, reference in places:
        found = archive.candidates(reference)
        if len(found) == 1 and found[0] != record.id:
            continue
        if len(found) == 1:
            message = f"'{key}' refers to the record itself"
        elif found:
            message = f"'{key}' reference \"{reference}\" is ambiguous: {', '.join(found)}"
        elif reference.strip().lower().removesuffix(".md").strip("/") in broken:
            continue
        else:
            message = f"'{key}' refers to a missing record: {reference}"
        yield Finding(record.path, record.line_of(place), "error", message)


def _content_folders(archive: Archive) -> set[Path]:
    """The archive's content folder and every folder a source provides projects from."""
    folders = {archive.config.content_dir}
    folders.update(p.path.parent for p in archive.projects.values() if p.path is not None)
    return folders


def _links(archive: Archive, record: Record, content: set[Path],
           broken: dict[str, Path]) -> Iterator[Finding]:
    """Relative body links to records that do not exist (errors) or to missing files; a
    link to a file in `broken` is left to that file's own errors."""
    for link in record.links:
        if not is_local(link.target):
            continue
        target = local_path(record.path, link.target)
        if archive.record_at(target) is not None or target in broken.values():
            continue
        line = record.body_line + link.line - 1
        if target.suffix == ".md" and any(_inside(target, folder) for folder in content):
            why = " (that file is a draft or not a valid record)" if target.is_file() else ""
            yield Finding(record.path, line, "error",
                          f"link to a missing record: {link.target}{why}")
        elif not target.exists():
            yield Finding(record.path, line, "warning",
                          f"link to a file that does not exist: {link.target}")


def _inside(path: Path, folder: Path) -> bool:
    return path.is_relative_to(folder)


def _supersede_edges(archive: Archive) -> dict[str, set[str]]:
    """newer id → the ids it replaces, from `supersedes` and from `supersededBy` alike."""
    edges: dict[str, set[str]] = {}
    for record in archive.records:
        for reference in record.supersedes:
            older = archive.resolve(reference)
            if older is not None and older.id != record.id:
                edges.setdefault(record.id, set()).add(older.id)
        if record.superseded_by:
            newer = archive.resolve(record.superseded_by)
            if newer is not None and newer.id != record.id:
                edges.setdefault(newer.id, set()).add(record.id)
    return edges


def _cycles(archive: Archive) -> Iterator[Finding]:
    """One error per supersede cycle, at the `supersedes` line of its first record."""
    edges = _supersede_edges(archive)
    for component in _strongly_connected(edges):
        if len(component) == 1:
            continue  # a record that supersedes itself is reported as a reference
        start = min(component)
        loop = _loop(edges, component, start)
        record = archive.by_id[start]
        key = "supersedes" if record.supersedes else "supersededBy"
        yield Finding(record.path, record.line_of(key), "error",
                      f"supersede cycle: {' → '.join(loop)}")


def _loop(edges: dict[str, set[str]], component: set[str], start: str) -> list[str]:
    """A shortest path from `start` back to itself inside `component` (breadth first)."""
    # Tarjan's component guarantees the path exists; the final return is never reached.
    previous: dict[str, str] = {}
    queue = [start]
    for node in queue:
        for nxt in sorted(edges.get(node, ())):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(previous[path[-1]])
                return [*reversed(path), start]
            if nxt in component and nxt not in previous:
                previous[nxt] = node
                queue.append(nxt)
    return [start, start]


def _strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components of the supersede graph, iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    components.append(component)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return components
