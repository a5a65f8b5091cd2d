"""What the loader remembers of an archive's files: in the process, and kept between runs.

`LoaderCache.files` maps each record file to its parse (`Parsed`), valid while the file's
(size, mtime) and what parsing depended on hold (BUILD-ADR-0010). A long-lived process (the
MCP server, `serve`) keeps one, so a reload parses only the files that changed.

A process that starts keeps nothing of the last one, and parsing 10,000 record files and
scanning their bodies for links is most of a build after a one-line edit. So the parses are
also kept on disk, in `.site-builder/cache/records.pickle` (`base/kept.py`), valid for one
copy of the code: a build writes them, and the next build, `check`, a query of the CLI, the
MCP server or `serve` starts from them and parses only the files whose stamp moved
(BUILD-ADR-0040). What is kept is what a one-off load holds: records with their bodies left
in their files (`bodies_on_disk`) and their links found, each with a digest of its file's
bytes, by which a fresh checkout's files are known again (`record_file.restamped`). A
long-lived process holds each recalled body from its first read (`BodyFile.hold_when_read`,
BUILD-ADR-0041), and does not write the file: it reloads on every save, and a save must
reach the preview in 300 ms, less than writing takes.
"""

from __future__ import annotations

import datetime as dt
import pathlib
import sys
from dataclasses import dataclass, field
from typing import Any

from site_builder.archive import foreign
from site_builder.archive.affects import Affects
from site_builder.archive.archive import Archive
from site_builder.archive.body_files import BodyFile
from site_builder.archive.links import BodyLink
from site_builder.archive.origins import Source
from site_builder.archive.project_file import ProjectCache
from site_builder.archive.records import Record
from site_builder.base.findings import Finding
from site_builder.base.installed import code_digest
from site_builder.base.kept import KeptFile, digest, rebuilt_by_init
from site_builder.config.site import FieldDef, SiteConfig

__all__ = ["KEPT_FILE", "LoaderCache", "Parsed"]

KEPT_FILE = "records.pickle"
FORMAT = "4"

@rebuilt_by_init
@dataclass(slots=True)
class Parsed:
    """One file's parse: valid while its (size, mtime) and what parsing depended on hold,
    or, with a new stamp, while the file's bytes still have `digest` (b"": unknown)."""

    stamp: tuple[int, int]
    context: Any
    record: Record | None
    findings: list[Finding]
    digest: bytes = b""

    @property
    def draft(self) -> bool:
        """Drafts parse to no record and no findings: they are never built."""
        return self.record is None and not self.findings


@dataclass(slots=True)
class LoaderCache:
    """Parsed files keyed by path and (size, mtime): a reload parses only what changed.

    Keep one per long-lived process (MCP server, `serve`); `load_archive` fills it.
    With `bodies_on_disk`, records leave their bodies in their files (`Record.body_file`):
    what `load_archive` does for a caller that reads the archive once (a build, `check`)
    and passes no cache, so that memory does not grow with the bodies. A long-lived process
    keeps them, since its files may change under an archive it still answers from.
    With `kept`, the parses are recalled from the archive's cache folder and kept there
    by the load (the module's docstring), which never creates that folder: `check` and the
    CLI's queries must not leave one in a checkout that never built, and a build creates it
    only for an archive it accepted (`keep(create=True)`). `changed` says a file was parsed
    or dropped since the parses were last kept.
    """

    files: dict[str, Parsed] = field(default_factory=dict)
    projects: ProjectCache = field(default_factory=dict)
    last: tuple[Any, Archive] | None = None
    contexts: dict[Any, Any] = field(default_factory=dict)
    # Sources whose clone failed in this process (see site_builder.sources.resolve), kept
    # here so a long-lived server does not retry the network on every call.
    failed_sources: dict[Any, Finding] = field(default_factory=dict)
    foreign: foreign.ForeignCache = field(default_factory=foreign.ForeignCache)
    bodies_on_disk: bool = False
    kept: bool = False
    changed: bool = False
    recalled: bool = False

    def recall(self, config: SiteConfig) -> None:
        """Start from the parses kept for this archive, once per cache and only while it
        holds none of its own."""
        if not self.kept or self.recalled or self.files:
            return
        self.recalled = True
        if not config.cache_dir.is_dir():
            return
        found = _kept_file(config).read()
        if not isinstance(found, tuple) or len(found) != 2:
            return
        files, contexts = found
        if not isinstance(files, dict) or not isinstance(contexts, dict):
            return
        if not self.bodies_on_disk:
            files = _with_bodies(files)
        self.files, self.contexts = files, contexts

    def keep(self, config: SiteConfig, create: bool = False) -> None:
        """Keep the parses for the next run when any changed, in the archive's cache folder
        when it exists or `create` says to make it (a one-off load's only: see the module's
        docstring)."""
        if not self.changed or not self.bodies_on_disk or not self.kept:
            return
        if not create and not config.cache_dir.is_dir():
            return
        if _kept_file(config).write((self.files, self.contexts)):
            self.changed = False


def _kept_file(config: SiteConfig) -> KeptFile:
    key = digest((FORMAT, code_digest(), sys.version, str(config.root)))
    path = config.cache_dir / "cache" / KEPT_FILE
    return KeptFile(path, key, (Parsed, Record, BodyFile, BodyLink, Affects, Finding,
                                FieldDef, Source, dt.date, type(pathlib.Path())))


def _with_bodies(files: dict[str, Parsed]) -> dict[str, Parsed]:
    """`files` with each record's body to be held from its first read. Not read now: that
    is 0.2 s of a long-lived process's start at 10,000 records, and the body is read from
    the file the loader checked (a file changed since fails the read, and is parsed again
    by the next load, which sees its new size or mtime)."""
    for parsed in files.values():
        record = parsed.record
        if record is not None and record.body_file is not None:
            record.body_file.hold_when_read()
    return files
