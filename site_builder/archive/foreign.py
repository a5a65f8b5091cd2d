"""A flat folder in another tool's format → its project and records, read in place.

Each file is read by its format's reader (cached by size and mtime, like native records);
the folder's numbering (which stems give a native ref), the git dates of records without one
and the site's statuses then settle every file into a Record. Nothing here writes a file.
"""

from __future__ import annotations

import os
import re
import stat as stat_mode
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from site_builder.archive import gitdates, scan, urls
from site_builder.archive.archive import Project
from site_builder.archive.formats import files, registry
from site_builder.archive.formats.fields import Fields
from site_builder.archive.formats.files import Skipped
from site_builder.archive.formats.settle import FileFacts, Folder, Settled, date_of, settle
from site_builder.archive.links import is_local, local_path, record_paths
from site_builder.archive.origins import ContentRoot
from site_builder.archive.records import Record
from site_builder.base.confined import MAX_RECORD_BYTES, Refused, kind_of, read_regular
from site_builder.base.findings import Finding
from site_builder.config.site import FieldDef, SiteConfig

# `0007-x`, and after the kind of record, `ADR-0007-x` (dasch-swiss/dsp-api), `adr-017-x`.
_NUMBER = re.compile(r"^(?:(?:adr|rfc)[-_]?)?(\d{1,4})(?=[-_.]|$)", re.IGNORECASE)
# `consulted` and `informed` (MADR) are kept as list fields of every such project.
KEPT_FIELDS = (FieldDef("consulted", type="list", label="Consulted"),
               FieldDef("informed", type="list", label="Informed"))


@dataclass(slots=True)
class ForeignCache:
    """Read files by path with their (size, mtime), git dates by folder, and the git
    remote of each archive folder."""

    files: dict[str, tuple[tuple[int, int], Any, Fields | Finding]] = field(default_factory=dict)
    git: dict[Any, tuple[dict[str, Any], bool]] = field(default_factory=dict)
    remotes: dict[str, str | None] = field(default_factory=dict)


def project_of(config: SiteConfig, content: ContentRoot) -> Project:
    """The project a foreign folder provides records to, with its kept list fields."""
    assert content.foreign is not None
    taken = {f.name for f in config.fields}
    return Project(id=content.foreign.project, name=content.foreign.project,
                   fields=tuple(f for f in KEPT_FIELDS if f.name not in taken))


@dataclass(slots=True)
class FolderRead:
    """One foreign folder read: every record file settled (in name order), the problems of
    the folder itself, and the files left out with why (drafts among them)."""

    settled: list[Settled]
    findings: list[Finding]
    skipped: list[Skipped]
    shallow_dates: bool = False
    """True when records took their dates from a shallow clone's cut history."""


def read_folder(config: SiteConfig, content: ContentRoot, project: Project,
                cache: ForeignCache, fingerprint: list[Any]) -> FolderRead:
    """Every file of the folder settled or skipped, and the problems of the folder itself."""
    foreign = content.foreign
    assert foreign is not None
    entries, findings = scan.flat_record_files(content.path, files.is_candidate)
    folder = Folder(foreign=foreign, statuses=frozenset(s.name for s in config.statuses),
                    fields=config.fields + project.fields, source=content.source,
                    root=content.path)
    custom = frozenset(f.name for f in folder.fields)
    root = str(config.root)
    out = FolderRead([], findings, [])
    read: list[tuple[os.DirEntry[str], Fields]] = []
    for entry in entries:
        reason = files.name_reason(entry.name, foreign.exclude)
        got = None if reason else _read_file(entry, foreign.format, custom, cache, fingerprint)
        if isinstance(got, Fields):
            reason = files.content_reason(entry.name, got)
        if reason:
            out.skipped.append(Skipped(Path(entry.path), _relative(entry.path, root), reason))
        elif isinstance(got, Finding):
            findings.append(got)
        elif got is not None:
            read.append((entry, got))
    numbers = Counter(m.group(1) for m in (_NUMBER.match(e.name[:-3]) for e, _ in read) if m)
    undated = [entry for entry, fields in read if not _dated(fields)]
    dates, shallow = _git_dates(content.path, undated, cache) if undated else ({}, False)
    for entry, fields in read:
        stem = entry.name[:-3]
        match = _NUMBER.match(stem)
        number = match.group(1) if match and numbers[match.group(1)] == 1 else stem
        facts = FileFacts(path=Path(entry.path), rel_path=_relative(entry.path, root),
                          stem=stem, number=number, git_date=dates.get(entry.name))
        item = settle(fields, facts, folder)
        if shallow and facts.git_date is not None and not _dated(fields):
            out.shallow_dates = True
        if item.record is None and not item.findings:
            out.skipped.append(Skipped(facts.path, facts.rel_path, files.DRAFT))
        out.settled.append(item)
    return out


def _dated(fields: Fields) -> bool:
    """True when the file states a date that can be read (else git's date may be needed)."""
    value = fields.values.get("date")
    return value is not None and date_of(value.text)[0] is not None


def read_source(config: SiteConfig, content: ContentRoot) -> list[Settled]:
    """Every file of one foreign folder settled, read afresh, references left as written:
    for `init --from` and `import`, which report each guess."""
    project = project_of(config, content)
    got = read_folder(config, content, project, ForeignCache(), [])
    if got.findings:
        got.settled.append(Settled(None, got.findings, []))
    return got.settled


def skipped_files(config: SiteConfig, content: ContentRoot) -> list[Skipped]:
    """The files of one foreign folder that are not published as records, each with why
    (templates, pages, excluded files, drafts), in name order: for `init --from`."""
    project = project_of(config, content)
    return read_folder(config, content, project, ForeignCache(), []).skipped


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
               ) -> tuple[dict[str, Any], bool]:
    """Git's first-add dates for the folder and whether its clone is shallow, asked again
    only when its undated files change."""
    key = (str(folder), tuple(sorted((e.name, e.stat().st_mtime_ns) for e in undated)))
    if key not in cache.git:
        cache.git = {k: v for k, v in cache.git.items() if k[0] != key[0]}
        dates = gitdates.first_added(folder)
        cache.git[key] = (dates, bool(dates) and gitdates.is_shallow(folder))
    return cache.git[key]


def repositories(config: SiteConfig, roots: list[ContentRoot],
                 cache: ForeignCache | None = None) -> frozenset[str]:
    """The repositories (`host/owner/name`) the archive's records live in: site.yml's
    `repo_url` or `edit_url`, the git remote of the archive folder, and each `repo:` source;
    a URL into one of them names a file of the archive (asked of git once per cache)."""
    found = {urls.repository_key(config.repository_url or "")}
    found.update(urls.repository_key(r.source.location) for r in roots
                 if r.foreign is not None and r.source is not None and r.source.from_repository)
    key = str(config.root)
    if cache is None or key not in cache.remotes:
        remote = gitdates.remote_url(config.root)
        if cache is None:
            found.add(urls.repository_key(remote or ""))
            return frozenset(f for f in found if f)
        cache.remotes[key] = remote
    found.add(urls.repository_key(cache.remotes[key] or ""))
    return frozenset(f for f in found if f)


def link_references(records: list[Record], repositories: frozenset[str] = frozenset(),
                    ) -> list[Record]:
    """The records with each relation written as a link to a record file (`0005-x.md`,
    `../../other/adr/y.md`, `./0005-x` without `.md`, or a URL into one of `repositories`)
    replaced by that record's id; others stay as written (a link to no record is then
    reported as a missing record)."""
    by_path = {str(r.path): r.id for r in records}
    by_name: dict[str, list[Record]] = {}
    for record in records:
        by_name.setdefault(record.path.name, []).append(record)
    out = []
    for record in records:
        if record.root is None:
            out.append(record)
            continue

        def resolve(reference: str, record: Record = record) -> str:
            if reference.startswith(("http://", "https://")):
                return _resolve_url(reference, repositories, by_name) or reference
            if not is_local(reference):
                return reference
            for path in record_paths(local_path(record.path, reference)):
                if str(path) in by_path:
                    return by_path[str(path)]
            return reference

        supersedes = tuple(map(resolve, record.supersedes))
        related = tuple(map(resolve, record.related))
        successor = resolve(record.superseded_by) if record.superseded_by else None
        if (supersedes, related, successor) != (record.supersedes, record.related,
                                                record.superseded_by):
            record = replace(record, supersedes=supersedes, related=related,
                             superseded_by=successor)
        out.append(record)
    return out


def _resolve_url(url: str, repositories: frozenset[str],
                 by_name: dict[str, list[Record]]) -> str | None:
    """The id of the record an absolute URL into the same repository names, or None."""
    path = urls.path_in_repository(url, repositories)
    if path is None:
        return None
    named = by_name.get(path.rsplit("/", 1)[-1], [])
    exact = [r for r in named if r.path.as_posix().endswith("/" + path)]
    found = exact or named
    return found[0].id if len(found) == 1 else None


def _relative(path: str, root: str) -> str:
    prefix = root + os.sep
    if path.startswith(prefix):
        return path[len(prefix):].replace(os.sep, "/")
    return Path(os.path.relpath(path, root)).as_posix()
