"""Content folder (plus sources) → Archive; reparses only files whose size or mtime changed
(BUILD-ADR-0010), from the parses of this process or those kept by the last run
(`loader_cache.py`, BUILD-ADR-0040).

This is the one loader: the site build, `check`, `serve` and the MCP server's local mode all
read an archive through `load_archive`. It reads content roots (folders laid out like
`content`) and does not care where they come from: by default `site_builder.sources` turns
site.yml's `content` and `sources` into roots (cloning a `repo:` source the cache lacks),
and a caller may pass its own roots instead.
"""

from __future__ import annotations

import os
import stat as stat_mode
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from site_builder.archive import foreign, record_file, scan
from site_builder.archive.archive import Archive, Project
from site_builder.archive.bulk import paused_gc
from site_builder.archive.checks import cross_check
from site_builder.archive.citations import cite_again, cite_code
from site_builder.archive.formats.files import DRAFT, Skipped
from site_builder.archive.loader_cache import LoaderCache, Parsed
from site_builder.archive.origins import ContentRoot
from site_builder.archive.project_file import (
    PROJECT_FILE,
    foreign_project,
    read_project,
)
from site_builder.archive.records import FILE_NAME, Record, RecordContext
from site_builder.archive.static import static_clashes
from site_builder.base.confined import MAX_RECORD_BYTES, kind_of
from site_builder.base.findings import Finding
from site_builder.base.site_paths import RESERVED_FOLDERS
from site_builder.config.site import SiteConfig, load_config

__all__ = ["SHALLOW_DATES", "ContentRoot", "LoaderCache", "load_archive", "reload_records"]

SHALLOW_DATES = (
    "records without a date take the date git first added them, but this checkout is shallow "
    "(its history is cut), so those dates are wrong: fetch the whole history (in GitHub "
    "Actions, actions/checkout with 'fetch-depth: 0')")

# The content roots of an archive: given the config and the loader cache's failed clones,
# the roots in order and the problems found making them (site_builder.sources.resolve).
RootsFor = Callable[[SiteConfig, dict[Any, Finding]], tuple[list[ContentRoot], list[Finding]]]


def _own_content(config: SiteConfig, failed: dict[Any, Finding],
                 ) -> tuple[list[ContentRoot], list[Finding]]:
    return [ContentRoot(config.content_dir, config.content)], []


def load_archive(
    root: Path,
    cache: LoaderCache | None = None,
    config: SiteConfig | None = None,
    content_roots: list[ContentRoot] | RootsFor = _own_content,
) -> Archive:
    """Read the archive at `root` (the folder holding site.yml).

    `config` skips re-reading site.yml (the MCP server loads it once). `content_roots` are
    the folders to read, or the function that finds them once the config is known; the
    loader is handed them and knows nothing of where they come from. Without them only the
    archive's own content folder is read: `site_builder.sources.load_archive` adds the
    `sources` of site.yml, and is what the front ends call. Problems never raise: they are
    in `Archive.findings`, and records with errors that can still be read are kept, so the
    MCP server can answer from every record it can read while `build` refuses.
    """
    cache = cache if cache is not None else LoaderCache(bodies_on_disk=True, kept=True)
    findings: list[Finding] = []
    if config is None:
        config, config_findings = load_config(root)
        findings.extend(config_findings)
        if config is None:
            return Archive(_placeholder(root), {}, (), findings, checks=cross_check)
    if callable(content_roots):
        roots, source_findings = content_roots(config, cache.failed_sources)
        findings.extend(source_findings)
    else:
        roots = content_roots
    with paused_gc():
        cache.recall(config)
        skipped: list[Skipped] = []
        projects, records, fingerprint = _read_roots(config, roots, cache, findings, skipped)
        if not records and not any(f.level == "error" for f in findings):
            findings.append(Finding(config.path, 1, "error", "the archive has no records"))
        findings.extend(static_clashes(config, projects, {r.id for r in records}))
        key = (tuple(fingerprint), tuple(findings))
        seen = {item[0] for item in fingerprint if isinstance(item, tuple)}
        for stale in [path for path in cache.files if path not in seen]:
            del cache.files[stale]
            cache.changed = True
        cache.keep(config)
        if cache.last is not None and cache.last[0] == key and cache.last[1].config == config:
            return cache.last[1]
        archive = Archive(config, projects, records, findings, checks=cross_check,
                          skipped=sorted(skipped, key=lambda s: s.rel_path), citations=cite_code)
    cache.last = (key, archive)
    return archive


def _read_roots(config: SiteConfig, roots: list[ContentRoot], cache: LoaderCache,
                findings: list[Finding], skipped: list[Skipped],
                ) -> tuple[dict[str, Project], list[Record], list[Any]]:
    """The projects and records of every content root, and the fingerprint of what was read;
    the files left out go to `skipped`."""
    projects: dict[str, Project] = {}
    owners: dict[str, tuple[ContentRoot, Path]] = {}
    records: list[Record] = []
    fingerprint: list[Any] = []
    shallow = False
    for content in roots:
        # The source is in the fingerprint: after `sources update` an unchanged file still
        # has to carry the new commit, so the archive cannot be the previous one.
        fingerprint.append(content.source)
        if content.foreign is not None:
            read = _load_foreign(config, content, projects, owners, cache, findings, fingerprint)
            if read is not None:
                records.extend(r.record for r in read.settled if r.record is not None)
                skipped.extend(read.skipped)
                shallow = shallow or read.shallow_dates
            continue
        folders, misplaced = scan.project_folders(content)
        findings.extend(misplaced)
        for project_id, folder in folders:
            if project_id in owners:
                findings.append(_claimed_twice(config, project_id, owners[project_id],
                                               (content, folder)))
                continue
            owners[project_id] = (content, folder)
            if project_id in RESERVED_FOLDERS:
                findings.append(Finding(folder, 1, "error", (
                    f"project folder '{project_id}' has the name of the site's own "
                    f"{project_id}/ pages; rename the folder")))
            project, project_findings = read_project(folder, config, cache.projects)
            projects[project_id] = project
            findings.extend(project_findings)
            fingerprint.append(project)
            fields = config.fields + project.fields
            types, more = scan.record_files(folder, content.path)
            findings.extend(more)
            for type_name, entries in types:
                records.extend(_load_folder(config, content, project_id, type_name, entries,
                                            fields, cache, findings, fingerprint, skipped))
    if any(r.root is not None for r in records):
        records = foreign.link_references(records, foreign.repositories(config, roots,
                                                                        cache.foreign))
    if shallow:
        findings.append(Finding(config.path, 1, "warning", SHALLOW_DATES))
    return projects, records, fingerprint


def _load_foreign(config: SiteConfig, content: ContentRoot, projects: dict[str, Project],
                  owners: dict[str, tuple[ContentRoot, Path]], cache: LoaderCache,
                  findings: list[Finding], fingerprint: list[Any]) -> foreign.FolderRead | None:
    """The records of a flat folder in another tool's format, with their problems added to
    `findings`; None when the folder cannot be read as the project it claims.

    Its project may also get records from other such folders of other types; a project
    that a folder laid out like `content` provides, or a second folder of the same type,
    is an error at the second source's line in site.yml.
    """
    spec = content.foreign
    assert spec is not None
    claim = f"{spec.project}/{spec.type}"
    taken = owners.get(claim) or owners.get(spec.project)
    if taken is not None and (claim in owners or taken[0].foreign is None):
        findings.append(_claimed_twice(config, claim if claim in owners else spec.project,
                                       taken, (content, content.path)))
        return None
    owners[claim] = (content, content.path)
    owners.setdefault(spec.project, (content, content.path))
    if spec.project in RESERVED_FOLDERS:
        findings.append(Finding(config.path, content.line, "error", (
            f"project '{spec.project}' has the name of the site's own {spec.project}/ "
            "pages; choose another 'project'")))
    project = projects.get(spec.project)
    if project is None:
        project = projects[spec.project] = foreign_project(config, content, cache.projects,
                                                           findings)
    elif (content.path / PROJECT_FILE).is_file():
        findings.append(Finding(content.path / PROJECT_FILE, 1, "warning", (
            f"not read: project '{spec.project}' is described by the first folder that "
            "provides it")))
    fingerprint.append(project)
    read = foreign.read_folder(config, content, project, cache.foreign, fingerprint)
    findings.extend(read.findings)
    for item in read.settled:
        findings.extend(item.findings)
    return read


def _claimed_twice(config: SiteConfig, project_id: str, first: tuple[ContentRoot, Path],
                   second: tuple[ContentRoot, Path]) -> Finding:
    """The error for a project folder that two roots provide; only the first one is read.

    It is reported where site.yml declares the second root, since that is the line to change.
    """
    places = [f"{root.label} in {_relative(folder, config.root)}"
              for root, folder in (first, second)]
    return Finding(config.path, second[0].line, "error", (
        f"project '{project_id}' is provided twice: by {places[0]}, and by {places[1]}; "
        f"rename or remove one of them (only the first is read)"))


def _load_folder(config: SiteConfig, content: ContentRoot, project: str, type_name: str,
                 entries: list[os.DirEntry[str]], fields: tuple[Any, ...], cache: LoaderCache,
                 findings: list[Finding], fingerprint: list[Any],
                 skipped: list[Skipped]) -> list[Record]:
    """The records of one `<project>/<type>/` folder, parsing only files that changed; its
    drafts go to `skipped`.

    An unchanged file costs one stat and a dict lookup: the cache is keyed by the path as
    a string, and a Path is only made for a file that is parsed (pathlib dominated reloads).
    """
    statuses = frozenset(s.name for s in config.statuses)
    # One shared object per distinct context, so that each file compares it by identity.
    context = cache.contexts.setdefault((fields, statuses, content.source),
                                        (fields, statuses, content.source))
    numbers: dict[int, list[str]] = {}
    records: list[Record] = []
    root = str(config.root)
    for entry in entries:
        key = entry.path
        match = FILE_NAME.match(entry.name)
        if not match:
            findings.append(Finding(Path(key), 1, "error", (
                f"'{entry.name}' is not named NNNN-slug.md, so it is not built "
                "(rename it, e.g. 0001-my-decision.md)")))
            continue
        stamp = _record_stamp(entry, findings)
        if stamp is None:
            continue
        parsed = cache.files.get(key)
        if parsed is not None and parsed.stamp != stamp and parsed.context is context:
            parsed = cache.files[key] = record_file.restamped(parsed, key, stamp)
            cache.changed = cache.changed or parsed.stamp == stamp
        if parsed is None or parsed.stamp != stamp or parsed.context is not context:
            parsed = cache.files[key] = _parsed(cache, key, stamp, context, RecordContext(
                project=project, type=type_name, file_name=entry.name, path=Path(key),
                rel_path=_relative(key, root), fields=fields, statuses=statuses,
                source=content.source))
        fingerprint.append((key, stamp))
        findings.extend(parsed.findings)
        if parsed.record is not None:
            records.append(parsed.record)
        if not parsed.draft:
            numbers.setdefault(int(match.group(1)), []).append(key)
        else:
            skipped.append(Skipped(Path(key), _relative(key, root), DRAFT))
    findings.extend(_duplicate_numbers(numbers, f"{project}/{type_name}"))
    return records


def _parsed(cache: LoaderCache, key: str, stamp: tuple[int, int], context: Any,
            ctx: RecordContext) -> Parsed:
    """The file at `key` parsed now, its body left in it or held as `cache` keeps bodies."""
    parsed = Parsed(stamp, context, *record_file.parse_file(ctx.path, ctx))
    cache.changed = True
    if parsed.record is not None:
        parsed.record = parsed.record.on_disk(key, stamp, hold=not cache.bodies_on_disk,
                                              digest=parsed.digest)
    return parsed


def _record_stamp(entry: os.DirEntry[str], findings: list[Finding]) -> tuple[int, int] | None:
    """(size, mtime) of a record file, or None, with its error in `findings`, when it cannot
    be stat-ed, is no regular file or is larger than a record may be."""
    try:
        stat = entry.stat()
    except OSError as exc:
        findings.append(Finding(Path(entry.path), 1, "error",
                                f"'{entry.name}' {_unreadable(exc)}"))
        return None
    if not stat_mode.S_ISREG(stat.st_mode) or stat.st_size > MAX_RECORD_BYTES:
        what = (f"is {kind_of(stat.st_mode)}, not a record file"
                if not stat_mode.S_ISREG(stat.st_mode) else
                f"is {stat.st_size:,} bytes, more than the {MAX_RECORD_BYTES:,} a record "
                "may hold")
        findings.append(Finding(Path(entry.path), 1, "error", f"'{entry.name}' {what}"))
        return None
    return stat.st_size, stat.st_mtime_ns


def _duplicate_numbers(numbers: dict[int, list[str]], folder: str) -> Iterator[Finding]:
    """An error on each file of a folder that shares its number with another."""
    for number, paths in numbers.items():
        if len(paths) > 1:
            names = ", ".join(os.path.basename(p) for p in paths)
            for duplicate in paths:
                yield Finding(Path(duplicate), 1, "error", (
                    f"number {number:04d} is used by {len(paths)} records in {folder}: "
                    f"{names}"))


def _unreadable(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "is a symlink to nothing"
    return f"cannot be read ({(exc.strerror or str(exc)).lower()})"


def _relative(path: str | Path, root: str | Path) -> str:
    """`path` relative to `root` in POSIX form (`../…` when outside it): machine-independent."""
    path = os.fspath(path)
    prefix = f"{os.fspath(root)}{os.sep}"
    if path.startswith(prefix):  # the usual case, without os.path.relpath's cost
        return path[len(prefix):].replace(os.sep, "/")
    try:
        return Path(os.path.relpath(path, root)).as_posix()
    except ValueError:  # another drive on Windows
        return Path(path).as_posix()


def _placeholder(root: Path) -> SiteConfig:
    return SiteConfig(root=root.resolve(), title=root.resolve().name)


def reload_records(archive: Archive, paths: Iterable[Path],
                   cache: LoaderCache) -> Archive | None:
    """`archive` (loaded through `cache`) with the record files at `paths` read again.

    For callers told by file events exactly which records changed (`serve`): nothing else is
    listed or stat-ed. Returns None when the files alone cannot say what the archive is now
    (a path that is not one of its records, a file gone or unreadable, a record that became
    a draft or lost its front matter); load the whole archive then. The problems found
    parsing those files replace the ones they had; every other finding is kept.
    """
    config = archive.config
    statuses = frozenset(s.name for s in config.statuses)
    new: dict[Path, Record] = {}
    dropped: list[Finding] = []
    added: list[Finding] = []
    for path in paths:
        old = archive.record_at(path)
        parsed = cache.files.get(str(path))
        if old is None or parsed is None or old.root is not None:
            return None
        ctx = RecordContext(project=old.project, type=old.type, file_name=path.name, path=path,
                            rel_path=old.rel_path, fields=archive.fields_for(old),
                            statuses=statuses, source=old.source)
        try:
            record, problems, digest = record_file.parse_file(path, ctx)
            info = path.stat()  # the body's stamp: a change after the read is an event too
        except OSError:
            return None
        if record is None:
            return None
        record = record.on_disk(str(path), (info.st_size, info.st_mtime_ns),
                                hold=not cache.bodies_on_disk, digest=digest)
        new[path] = record
        dropped.extend(parsed.findings)
        added.extend(problems)
        # Remember this parse so the next reload drops its problems in turn. The stamp stays
        # the old one: the next full load sees the file changed, and takes this parse again
        # only while the file holds the bytes parsed here.
        cache.files[str(path)] = replace(parsed, record=record, findings=problems,
                                         digest=digest)
    with paused_gc():
        records = [new.get(r.path, r) for r in archive.records] if new else archive.records
        findings = [f for f in archive.load_findings if f not in dropped] + added
        return Archive(config, archive.projects, records, findings, keys_from=archive,
                       checks=cross_check, skipped=archive.skipped,
                       citations=cite_again(archive))
