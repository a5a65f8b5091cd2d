"""A flat folder in another tool's format → its project and records, read in place.

Each file is read by its format's reader (cached by size and mtime, like native records);
the folder's numbering (which stems give a native ref), the git dates of records without one
and the site's statuses then settle every file into a Record. Nothing here writes a file.
"""

from __future__ import annotations

import os
import re
import stat as stat_mode
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from site_builder.archive import gitdates, scan
from site_builder.archive.archive import Project
from site_builder.archive.formats import is_record_name, registry
from site_builder.archive.formats.fields import Fields
from site_builder.archive.formats.settle import FileFacts, Folder, Settled, settle
from site_builder.archive.links import is_local, local_path
from site_builder.archive.origins import ContentRoot
from site_builder.archive.records import Record
from site_builder.config import FieldDef, SiteConfig
from site_builder.confined import MAX_RECORD_BYTES, Refused, kind_of, read_regular
from site_builder.findings import Finding

_NUMBER = re.compile(r"^(\d{1,4})(?=[-_.]|$)")
# `consulted` and `informed` (MADR) are kept as list fields of every such project.
KEPT_FIELDS = (FieldDef("consulted", type="list", label="Consulted"),
               FieldDef("informed", type="list", label="Informed"))


@dataclass(slots=True)
class ForeignCache:
    """Read files by path with their (size, mtime), and git dates by folder."""

    files: dict[str, tuple[tuple[int, int], Any, Fields | Finding]] = field(default_factory=dict)
    git: dict[Any, dict[str, Any]] = field(default_factory=dict)


def project_of(config: SiteConfig, content: ContentRoot) -> Project:
    """The project a foreign folder provides records to, with its kept list fields."""
    assert content.foreign is not None
    taken = {f.name for f in config.fields}
    return Project(id=content.foreign.project, name=content.foreign.project,
                   fields=tuple(f for f in KEPT_FIELDS if f.name not in taken))


def read_folder(config: SiteConfig, content: ContentRoot, project: Project,
                cache: ForeignCache, fingerprint: list[Any],
                ) -> tuple[list[Settled], list[Finding]]:
    """Every file of the folder settled (records, findings and guesses, in name order),
    and the problems of the folder itself."""
    foreign = content.foreign
    assert foreign is not None
    entries, findings = scan.flat_record_files(content.path, is_record_name)
    folder = Folder(foreign=foreign, statuses=frozenset(s.name for s in config.statuses),
                    fields=config.fields + project.fields, source=content.source,
                    root=content.path)
    custom = frozenset(f.name for f in folder.fields)
    read: list[tuple[os.DirEntry[str], Fields]] = []
    for entry in entries:
        got = _read_file(entry, foreign.format, custom, cache, fingerprint)
        if isinstance(got, Finding):
            findings.append(got)
        else:
            read.append((entry, got))
    numbers: dict[str, int] = {}
    for entry, _ in read:
        match = _NUMBER.match(entry.name[:-3])
        if match:
            numbers[match.group(1)] = numbers.get(match.group(1), 0) + 1
    undated = [entry for entry, fields in read if "date" not in fields.values]
    dates = _git_dates(content.path, undated, cache) if undated else {}
    root = str(config.root)
    settled = []
    for entry, fields in read:
        stem = entry.name[:-3]
        match = _NUMBER.match(stem)
        number = match.group(1) if match and numbers[match.group(1)] == 1 else stem
        facts = FileFacts(path=Path(entry.path), rel_path=_relative(entry.path, root),
                          stem=stem, number=number, git_date=dates.get(entry.name))
        settled.append(settle(fields, facts, folder))
    return settled, findings


def read_source(config: SiteConfig, content: ContentRoot) -> list[Settled]:
    """Every file of one foreign folder settled, read afresh, references left as written:
    for `init --from` and `import`, which report each guess."""
    project = project_of(config, content)
    settled, problems = read_folder(config, content, project, ForeignCache(), [])
    if problems:
        settled.append(Settled(None, problems, []))
    return settled


def _read_file(entry: os.DirEntry[str], fmt: str, custom: frozenset[str], cache: ForeignCache,
               fingerprint: list[Any]) -> Fields | Finding:
    """The fields of one file (from the cache when its size and mtime are unchanged), or the
    error that stops it being read."""
    path = Path(entry.path)
    try:
        info = entry.stat()
    except OSError as exc:
        return Finding(path, 1, "error", f"'{entry.name}' cannot be read ({exc.strerror})")
    if not stat_mode.S_ISREG(info.st_mode):
        return Finding(path, 1, "error", f"'{entry.name}' is {kind_of(info.st_mode)}, "
                                         "not a record file")
    stamp = (info.st_size, info.st_mtime_ns)
    fingerprint.append((entry.path, stamp))
    cached = cache.files.get(entry.path)
    if cached is not None and cached[0] == stamp and cached[1] == (fmt, custom):
        return cached[2]
    try:
        data = read_regular(path, MAX_RECORD_BYTES)
        text = data.decode("utf-8")
    except Refused as exc:
        got: Fields | Finding = Finding(path, 1, "error", f"'{entry.name}' {exc.reason}")
    except UnicodeDecodeError as exc:
        got = Finding(path, 1, "error", f"not UTF-8 text ({exc.reason})")
    else:
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        got = registry.named(fmt).read(text.removeprefix("\ufeff"), custom)
    cache.files[entry.path] = (stamp, (fmt, custom), got)
    return got


def _git_dates(folder: Path, undated: list[os.DirEntry[str]], cache: ForeignCache,
               ) -> dict[str, Any]:
    """Git's first-add dates for the folder, asked again only when its undated files change."""
    key = (str(folder), tuple(sorted((e.name, e.stat().st_mtime_ns) for e in undated)))
    if key not in cache.git:
        cache.git = {k: v for k, v in cache.git.items() if k[0] != key[0]}
        cache.git[key] = gitdates.first_added(folder)
    return cache.git[key]


def link_references(records: list[Record]) -> list[Record]:
    """The records with each relation written as a link to a record file (`0005-x.md`,
    `../../other/adr/y.md`) replaced by that record's id; others stay as written (a link to
    no record is then reported as a missing record)."""
    by_path = {str(r.path): r.id for r in records}
    out = []
    for record in records:
        if record.root is None:
            out.append(record)
            continue
        supersedes = tuple(_resolve(record, ref, by_path) for ref in record.supersedes)
        related = tuple(_resolve(record, ref, by_path) for ref in record.related)
        successor = (_resolve(record, record.superseded_by, by_path)
                     if record.superseded_by else None)
        if (supersedes, related, successor) != (record.supersedes, record.related,
                                                record.superseded_by):
            record = replace(record, supersedes=supersedes, related=related,
                             superseded_by=successor)
        out.append(record)
    return out


def _resolve(record: Record, reference: str, by_path: dict[str, str]) -> str:
    if not reference.endswith(".md") and ".md#" not in reference:
        return reference
    if not is_local(reference):
        return reference
    return by_path.get(str(local_path(record.path, reference)), reference)


def _relative(path: str, root: str) -> str:
    prefix = root + os.sep
    if path.startswith(prefix):
        return path[len(prefix):].replace(os.sep, "/")
    return Path(os.path.relpath(path, root)).as_posix()
