"""Checks across records: references, supersede cycles, lineage and body links, and the
archive as a whole: folder names that pages are addressed by, and the override files of
`templates/` and `theme/`."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from site_builder.archive import attachments, template
from site_builder.archive.archive import Archive, lookup_key, lookup_keys
from site_builder.archive.body_limits import python_markdown_refusal
from site_builder.archive.formats import is_record_name
from site_builder.archive.links import escapes, is_local, local_path, record_paths
from site_builder.archive.records import FILE_NAME, Record
from site_builder.base.confined import Refused, inside, kind_of
from site_builder.base.findings import Finding, Level

# The archive's own override folders (render/pages/theme.py reads them); a file there is read only
# when it is a regular file inside the archive.
OVERRIDE_FOLDERS = ("templates", "theme")
# A folder name is part of every page address below it, written as it is: it must be a URL
# path segment without encoding (RFC 3986 `pchar` less `:`, `@` and `%`), so that no name
# can become a scheme (`javascript:`), a query, a fragment or markup.
_SEGMENT = re.compile(r"[\w.~!$&'()*+,;=-]+")


def cross_check(archive: Archive) -> list[Finding]:
    """Every problem that needs more than one record to see."""
    return record_checks(archive, archive.records) + lineage_checks(archive)


def record_checks(archive: Archive, records: Iterable[Record]) -> list[Finding]:
    """The problems of each of `records` with what it points at: references and body links."""
    return [f for found in checks_by_record(archive, records).values() for f in found]


def checks_by_record(archive: Archive, records: Iterable[Record]) -> dict[str, list[Finding]]:
    """`record_checks` by record id, in the order of `records`.

    A record's findings depend only on its own text and on which records and files exist, so
    `serve` keeps them by record and checks just the records an edit changed when the set of
    records stays the same. What every record is checked against is worked out once: asked
    for record by record, it made checking 10,000 records quadratic (100 million path hashes,
    most of `serve`'s first minute). No body of a record in site-builder's own format is
    read here: the loader finds its placeholders when it parses the file, so `serve`'s first
    page (which waits on these checks) reads no body but its own, even from a cold disk.
    """
    content = _content_folders(archive)
    broken = _unreadable(archive)
    python_markdown = archive.config.markdown == "python-markdown"
    by_record: dict[str, list[Finding]] = {}
    for record in records:
        findings = [*_references(archive, record, broken),
                    *_links(archive, record, content, broken), *_affects(record)]
        if record.root is not None:  # the loader finds a native record's when it parses it
            findings.extend(placeholders(record, record.body))
        problem = python_markdown_refusal(record.body) if python_markdown else None
        if problem:
            findings.append(Finding(record.path, record.body_line, "error",
                                    f"Python-Markdown cannot render {problem} in bounded "
                                    "time; simplify the body or set 'markdown: gfm'"))
        by_record[record.id] = findings
    return by_record


def placeholders(record: Record, body: str) -> Iterator[Finding]:
    """Text of `site-builder new`'s template that the author never replaced in the
    description or `body`."""
    if record.description == template.DESCRIPTION:
        yield Finding(record.path, record.line_of("description"), "warning",
                      "'description' is still the template's placeholder: say in one line "
                      "what was decided, and why")
    for placeholder in template.BODY_PLACEHOLDERS:
        at = body.find(placeholder)
        if at != -1:
            yield Finding(record.path, record.body_line + body.count("\n", 0, at), "warning",
                          "this is still the template's placeholder text: replace it with "
                          "what this record says")


def _affects(record: Record) -> Iterator[Finding]:
    """`affects` patterns that cannot be matched: they would silently govern nothing."""
    for index, reason in record.affects.problems():
        yield Finding(record.path, record.line_of(f"affects.{index}"), "error",
                      f"affects pattern {record.affects.patterns[index]!r} cannot be used: "
                      f"{reason}")


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
            # A record in another tool's format may have any stem; links name it by file.
            names.setdefault(path.stem.lower(), path)
            continue
        for name in lookup_keys(path.parts[-3], path.parts[-2], match.group(1), path.stem):
            names[name] = path
    return names


def lineage_checks(archive: Archive) -> list[Finding]:
    """The problems of the archive as a whole: superseded records whose status still says
    they are in force, supersede cycles, folder names that cannot be URL path segments,
    override files that may not be read, and code citing records not in force (checked on
    every `serve` edit too: all are cheap, the citations matched from the scan made once)."""
    findings: list[Finding] = [*folder_checks(archive), *override_checks(archive.config.root)]
    for record in archive.records:
        successor = archive.superseded_by.get(record.id)
        if successor and record.status in archive.config.current_statuses:
            findings.append(Finding(
                record.path, record.line_of("status"), "warning",
                f"status '{record.status}' says this record is in force, but {successor} "
                "supersedes it (set status: superseded)"))
    findings.extend(_cycles(archive))
    # Code citing records that are not in force: the archive as a whole, like lineage.
    findings.extend(archive.citations.findings)
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
        elif lookup_key(reference) in broken:
            continue
        else:
            message = f"'{key}' refers to a missing record: {reference}"
        yield Finding(record.path, record.line_of(place), _judged(record), message)


def _content_folders(archive: Archive) -> set[Path]:
    """The archive's content folder and every folder a source provides projects from."""
    folders = {archive.config.content_dir}
    folders.update(p.path.parent for p in archive.projects.values() if p.path is not None)
    folders.update({r.root for r in archive.records if r.root is not None})
    return folders


def _links(archive: Archive, record: Record, content: set[Path],
           broken: dict[str, Path]) -> Iterator[Finding]:
    """Relative body links to records that do not exist (errors in native content, warnings
    in a foreign source) or to missing files; a link to a file in `broken` is left to that
    file's own errors. A link without `.md` resolves as one with it. A link to a file outside
    every records folder (or to a template or page beside foreign records) is fine with a
    `repo_url` (the build points it there) and a warning without one."""
    pages = {s.path for s in archive.skipped if not s.draft}
    for link in record.links:
        if not is_local(link.target):
            continue
        paths = record_paths(local_path(record.path, link.target))
        if any(archive.record_at(p) is not None or p in broken.values() for p in paths):
            continue
        # `./0004-x` names `0004-x.md` when that file is there (a draft, a broken record).
        target = paths[-1] if not paths[0].exists() and paths[-1].exists() else paths[0]
        line = record.body_line + link.line - 1
        in_records = target not in pages and _in_records(target, content)
        if target.suffix == ".md" and in_records:
            why = " (that file is a draft or not a valid record)" if target.is_file() else ""
            yield Finding(record.path, line, _judged(record),
                          f"link to a missing record: {link.target}{why}")
        elif escapes(target, record.content_folder):
            yield Finding(record.path, line, "error", (
                f"link to {link.target}, a symlink to {os.path.realpath(target)} outside the "
                "content folder: nothing outside the archive is published"))
        elif not target.exists():
            yield Finding(record.path, line, "warning",
                          f"link to a file that does not exist: {link.target}")
        elif not in_records:
            if archive.config.repository_url is None:
                yield Finding(record.path, line, "warning", (
                    f"link to {link.target}, outside the records folders: it stays as written "
                    "(set repo_url in site.yml to point it at the repository)"))
        elif target.suffix != ".md" and target.is_file():
            problem = _attachment_problem(target, record.content_folder, link.target)
            if problem is not None:
                yield Finding(record.path, line, *problem)


def _judged(record: Record) -> Level:
    """The level of a problem the record's own tool accepts: an error in native content, a
    warning in a source kept in another tool's format (unless the source is `strict`)."""
    return "warning" if record.lenient else "error"


def _attachment_problem(path: Path, root: Path, written: str) -> tuple[Level, str] | None:
    """(level, message) for a linked file that is not published as it is, else None."""
    found = attachments.kind(path)
    if found == "html":
        return "error", (f"link to {written}: HTML files are not published (a page on the "
                         "site's own origin could run script there); publish it elsewhere and "
                         "link to that, or attach a PDF")
    if found == "other":
        return "warning", (f"link to {written}: a {path.suffix or 'extensionless'} file is not "
                           "published (only images, PDF, text and data files, and cleaned SVG "
                           "are); the link is left as written")
    if found == "svg":
        try:
            attachments.published_bytes(path, root)
        except attachments.SvgRefused as exc:
            return "error", f"link to {written}: this SVG cannot be published: it {exc}"
        except Refused as exc:
            return "error", f"link to {written}: the file {exc.reason}"
    return None


def folder_checks(archive: Archive) -> Iterator[Finding]:
    """An error at each project or type folder whose name cannot be a URL path segment."""
    folders = {p.path for p in archive.projects.values() if p.path is not None}
    folders.update(r.path.parent for r in archive.records)
    for folder in sorted(folders):
        if not _SEGMENT.fullmatch(folder.name):
            yield Finding(folder, 1, "error", (
                f"folder name {folder.name!r} cannot be part of a web address as it is (every "
                "page below it is addressed by it); rename it with letters, digits and "
                "- _ . ~ only"))


def override_checks(root: Path) -> Iterator[Finding]:
    """An error at each entry of the archive's `templates/` and `theme/` folders that would
    be read from outside the archive (a symlink out) or is not a regular file or folder."""
    for name in OVERRIDE_FOLDERS:
        folder = root / name
        if not os.path.lexists(folder):
            continue
        entries = [str(folder)]
        if folder.is_dir() and inside(folder, root):
            for parent, folder_names, file_names in os.walk(folder):
                entries.extend(os.path.join(parent, n) for n in folder_names + file_names)
        for entry in sorted(entries):
            problem = _override_problem(entry, root)
            if problem is not None:
                yield Finding(Path(entry), 1, "error", problem)


def _override_problem(entry: str, root: Path) -> str | None:
    if not inside(entry, root):
        return (f"is a symlink to {os.path.realpath(entry)}, outside the archive; templates "
                "and theme files are read only from inside it (replace the link with the file)")
    try:
        mode = os.stat(entry).st_mode
    except OSError as exc:
        return f"cannot be read ({(exc.strerror or str(exc)).lower()})"
    if stat.S_ISDIR(mode) or stat.S_ISREG(mode):
        return None
    return f"is {kind_of(mode)}, not a file; templates and theme files must be regular files"


def _inside(path: Path, folder: Path) -> bool:
    return path.is_relative_to(folder)


def _in_records(target: Path, content: set[Path]) -> bool:
    """True when `target` lies in a records folder and is not a flat folder's own file that
    is no record (its README.md or index.md: a repository file like any other)."""
    if not any(_inside(target, folder) for folder in content):
        return False
    return not (target.suffix == ".md" and target.parent in content
                and not is_record_name(target.name) and target.is_file())


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
