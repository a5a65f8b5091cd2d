"""Incremental builds: which files of the last build's output a build can keep unread.

Every file the pages and the agent files plan says which records it reads (`Planned.reads`).
After each build, `<root>/.site-builder/cache/increment.json` remembers (`Memory`):

- a digest of everything besides the records that shapes the output (`setting_digest`: the
  site-builder code, the versions of what it renders with, templates, theme, site.yml, the
  projects, `SOURCE_DATE_EPOCH`, the output folder);
- a digest of each record (`record_digests`: its front matter and body, how its body's links
  resolve, and what its published data holds of other records and of code citing it), and
  of its listing row alone (`views.Row`: what a listing page shows of it);
- for each planned file, a digest of the records it read (`reads_digest`), or EVERY, and
  for a listing, of the rows it lists, or every row;
- the search index's files, the files each body linked to, the records drawing a diagram;
- where each file made of pieces laid them out (`output/pieces.py`), so that the next build
  copies the pieces of unchanged records;
- the output folder's fingerprint once written (`stamp.output_fingerprint`).

The next build compares (`decide`). Where the setting or the output folder moved, everything
is made again. Otherwise a planned file is made again when it is new, when it reads a record
that changed or reads other records than before, or when it reads every record and any
record was added, removed or changed; a listing likewise by the rows it lists, so that an
edit of a body remakes no listing; the search index as a file that reads every record.
Everything else is kept as it is, unread. The output is byte for byte a cold build's: the
planned reads are the same ones `serve` trusts for a preview, and a test builds cold and
incrementally after each kind of edit and compares every byte (build/adr/0037).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import site_builder
from site_builder.archive.archive import Archive
from site_builder.base.installed import code_digest, installed_versions, normal_name
from site_builder.query.answers import detail, summary
from site_builder.render.agents import artifacts
from site_builder.render.output.pieces import Layout
from site_builder.render.pages.templates import SitePages
from site_builder.render.pages.theme import Theme
from site_builder.render.pages.urls import Urls
from site_builder.render.planned import EVERY, Every, Planned
from site_builder.render.search import index as search

MEMORY_FILE = "increment.json"
FORMAT = 2
EVERY_RECORD = "*"
EVERY_ROW = "#"
# Before a file's digest: its plan made nothing last time (a sitemap without `url`), and
# will make nothing again while what it reads is the same.
UNWRITTEN = "-"
# What shapes the pages besides the renderer's packages (in the body cache's key).
_PACKAGES = ("jinja2", "pyyaml", "markupsafe")


def plan(archive: Archive) -> Iterator[Planned]:
    """Every file a build of `archive` writes that the pages and the agent files plan, and
    the search index as its manifest (the index ranks each record against all the others,
    so it reads every one). Neither the theme files nor the files bodies link to: those are
    compared byte for byte by every build."""
    urls = Urls(archive.config)
    yield from SitePages(archive, {}, urls, Theme(archive.config.root)).planned()
    yield from artifacts.planned(archive, urls)
    yield Planned(search.MANIFEST, lambda: None, EVERY)


@dataclass(frozen=True, slots=True)
class Memory:
    """What one build left for the next: see the module's docstring."""

    setting: str
    output: str
    records: dict[str, str]
    rows: dict[str, str]
    files: dict[str, str]
    search: list[str]
    assets: dict[str, list[str]]
    drawn: list[str]
    layouts: dict[str, Layout]

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "setting": self.setting, "output": self.output,
                "records": self.records, "rows": self.rows, "files": self.files,
                "search": self.search,
                "assets": self.assets, "drawn": self.drawn,
                "layouts": {rel: [[key, *where] for key, where in layout.items()]
                            for rel, layout in self.layouts.items()}}


def recall(cache_dir: Path) -> Memory | None:
    """The memory of the last build, or None (none, unreadable, or of another format)."""
    try:
        data = json.loads((cache_dir / MEMORY_FILE).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            return None
        layouts = {rel: {key: (offset, length) for key, offset, length in pieces}
                   for rel, pieces in data["layouts"].items()}
        return Memory(data["setting"], data["output"], data["records"], data["rows"],
                      data["files"], data["search"], data["assets"], data["drawn"], layouts)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def remember(cache_dir: Path, memory: Memory) -> None:
    """Keep `memory` for the next build (atomically: a concurrent `serve` may read it)."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    temporary = cache_dir / f"{MEMORY_FILE}.{os.getpid()}.tmp"
    temporary.write_text(json.dumps(memory.to_json(), separators=(",", ":")),
                         encoding="utf-8")
    os.replace(temporary, cache_dir / MEMORY_FILE)


def forget(cache_dir: Path) -> None:
    """Drop the memory before the output changes: a commit cut short is never trusted."""
    (cache_dir / MEMORY_FILE).unlink(missing_ok=True)


def setting_digest(archive: Archive, body_environment: str, target: Path) -> str:
    """A digest of everything besides the records that shapes the output. `body_environment`
    is the body cache's (`bodies.environment_key`: renderer versions and code, templates,
    theme and site.yml); added here are the rest of site-builder's code, the packages the
    pages are made with, the projects and the build's own settings."""
    digest = hashlib.sha256()
    versions = installed_versions()
    digest.update("\0".join([
        body_environment, site_builder.__version__, sys.version, str(target),
        os.environ.get("SOURCE_DATE_EPOCH", ""), repr(archive.config),
        repr(sorted(archive.projects.items())),
        *(f"{name}={versions.get(normal_name(name), '?')}" for name in _PACKAGES),
        code_digest()]).encode())
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class Digests:
    """Record id → the digest of what the output can show of it (`records`), and of its
    listing row alone (`rows`)."""

    records: dict[str, str]
    rows: dict[str, str]


def record_digests(archive: Archive, body_keys: Mapping[str, str]) -> Digests:
    """The digests of every record: of the record as loaded, its body's cache key (how its
    links resolve) and its published data; and of what its row shows (`views.row`: its
    summary, whether it is in force and whether it is replaced, the rest coming from the
    setting)."""
    records, rows = {}, {}
    for record in archive.records:
        data = detail(archive, record, body=False)
        published = json.dumps(data, sort_keys=True, default=str)
        text = "\0".join((repr(record), body_keys[record.id], published))
        records[record.id] = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        row = json.dumps([summary(record), data["current"], data["supersededBy"] is not None],
                         sort_keys=True, default=str)
        rows[record.id] = hashlib.sha256(row.encode("utf-8", "surrogatepass")).hexdigest()
    return Digests(records, rows)


def reads_digest(reads: Iterable[str], records: Mapping[str, str]) -> str:
    """A digest of the records `reads` names, each with its digest."""
    digest = hashlib.sha256()
    for record_id in sorted(reads):
        digest.update(f"{record_id}\0{records.get(record_id, '')}\0".encode())
    return digest.hexdigest()


@dataclass(slots=True)
class Increment:
    """What a build makes again: `make` (planned paths), `search` (the whole index or not);
    what it keeps unread: `keep`. `full` says why nothing is kept, when nothing is."""

    files: dict[str, str]
    make: set[str] = field(default_factory=set)
    keep: list[str] = field(default_factory=list)
    search: bool = True
    full: str | None = None

    def line(self, planned: int) -> str:
        """How this build was made, for `build --verbose`."""
        if self.full is not None:
            return f"  made every file again: {self.full}"
        return (f"  incremental: {len(self.make)} of {planned} planned files made again, "
                f"{len(self.keep)} files kept; the search index "
                f"{'made again' if self.search else 'kept'}")


def file_digest(item: Planned, digests: Digests) -> str:
    """What a planned file's bytes come from: a digest of the records it reads (EVERY_RECORD
    for every record), then for a listing `|` and a digest of the rows it lists (EVERY_ROW
    for every row)."""
    reads = (EVERY_RECORD if isinstance(item.reads, Every)
             else reads_digest(item.reads(), digests.records))
    if item.lists is None:
        return reads
    lists = (EVERY_ROW if isinstance(item.lists, Every)
             else reads_digest(item.lists(), digests.rows))
    return f"{reads}|{lists}"


def decide(archive: Archive, previous: Memory | None, setting: str, digests: Digests,
           output: str | None) -> Increment:
    """What a build of `archive` (its `setting` and record `digests`) makes again, given the
    memory of the last build and the output folder's fingerprint now (None: no output)."""
    planned = list(plan(archive))
    files = {item.path: file_digest(item, digests) for item in planned}
    paths = [item.path for item in planned if item.path != search.MANIFEST]
    why = _why_full(previous, setting, output)
    if why is not None or previous is None:
        return Increment(files, make=set(paths), full=why or "no earlier build")
    changed = previous.records != digests.records
    rows_changed = previous.rows != digests.rows
    increment = Increment(files, search=changed)
    for path in paths:
        before = previous.files.get(path)
        unwritten = before is not None and before.startswith(UNWRITTEN)
        if before is not None and unwritten:
            before = before[len(UNWRITTEN):]
        reads, _, lists = files[path].partition("|")
        if (before is None or before != files[path] or (reads == EVERY_RECORD and changed)
                or (lists == EVERY_ROW and rows_changed)):
            increment.make.add(path)
        elif not unwritten:
            increment.keep.append(path)
    if not changed:
        increment.keep.extend(previous.search)
    return increment


def _why_full(previous: Memory | None, setting: str, output: str | None) -> str | None:
    if previous is None:
        return "no earlier build to start from"
    if output is None:
        return "no output folder yet"
    if previous.setting != setting:
        return "site-builder, site.yml, the projects, templates or theme changed"
    if previous.output != output:
        return "the output folder changed since the last build"
    return None
