"""The site as `serve` shows it: the last good build, brought up to date change by change.

The rebuild loop (one thread, the only writer) hands each settled batch of changes to
`Preview.update`, which picks the smallest rebuild that is right:

- site.yml, templates or theme → everything, through the build's own `write_site`;
- records edited (the same records as before, only what they say changed) → in two steps.
  First the edited records' pages and `.md` copies, at once, and the open pages showing them
  reload. The other files the edit touches (see `affected`) are marked stale and written
  again by `catch_up`, which the loop calls once the author pauses; a new change interrupts
  it between two files (or within a streamed one), and the stale files are then written
  from the newest archive;
- anything else under a content root (a record added or removed, `_project.yml`, a linked
  file) → everything, which the loader's and the body cache make cheap.

An archive with errors is never shown: the files stay as the last good build left them, the
errors go to the terminal and to the overlay of every open page, and the next good change
clears them.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from site_builder.archive.archive import Archive
from site_builder.archive.loader import LoaderCache, reload_records
from site_builder.base.findings import Finding, as_json, has_errors
from site_builder.base.site_paths import url_path
from site_builder.base.words import plural
from site_builder.config.site import load_config
from site_builder.errors import SiteBuilderError
from site_builder.render.agents.artifacts import write_artifacts
from site_builder.render.markdown.bodies import RenderedBodies, update_bodies
from site_builder.render.pages import rendering as pages
from site_builder.render.pages.urls import Urls
from site_builder.render.search import index as search
from site_builder.render.writing import copy_assets, write_site
from site_builder.serve import affected
from site_builder.serve.checked import Checked, check, recheck
from site_builder.serve.events import Broadcaster
from site_builder.serve.on_demand import FirstBuild
from site_builder.serve.store import SiteStore
from site_builder.serve.watcher import ChangeKind, Changes, Layout
from site_builder.sources.load import load_archive

# A rebuild that changed more files than this reloads every open page: naming them all would
# cost more than reloading the few pages that did not change.
_MANY = 500


class Interrupted(SiteBuilderError):
    """New changes arrived while stale files were being written."""


@dataclass(slots=True)
class Built:
    """The last good build: its archive, rendered bodies and HTML pages."""

    archive: Archive
    bodies: RenderedBodies
    html_pages: set[str]
    stale: set[str] = field(default_factory=set)


class Preview:
    """Keeps `store` the last good build of the archive at `root`."""

    def __init__(self, root: Path, store: SiteStore, events: Broadcaster,
                 jobs: int | None = None, log: TextIO = sys.stderr) -> None:
        self.root = root
        self.store = store
        self.events = events
        self.jobs = jobs
        self.log = log
        self.cache = LoaderCache(kept=True)  # recalls what the last build parsed
        self.built: Built | None = None
        self.latest: Checked | None = None
        self.shown: tuple[Finding, ...] = ()

    @property
    def base(self) -> str:
        """The `base` the site is served at, per the last archive read with a config."""
        return self.cache.last[1].config.base if self.cache.last else "/"

    @property
    def stale(self) -> bool:
        """True while files an edit touched wait to be written again (`catch_up`)."""
        return self.built is not None and bool(self.built.stale)

    def layout(self) -> Layout | None:
        """The files to watch, per site.yml as it is now (None while it is unusable)."""
        config, findings = load_config(self.root)
        if config is None or has_errors(findings):
            return None
        return Layout.of(config, self.cache.failed_sources)

    # ---- the rebuild loop calls these ---------------------------------------------------------

    def start(self, progress: Callable[[str, int, int], None] | None = None,
              first: FirstBuild | None = None) -> bool:
        """The first build. Returns False when the archive has errors (nothing is shown
        until they are fixed). `first` hears when the archive is checked (from then on it
        makes pages asked for on demand) and when the build is in the store; the page it made
        are the store's too, so open pages are not told to reload."""
        first = first or FirstBuild()
        try:
            if progress is not None:
                progress("loading records", 0, 0)
            self.latest = check(load_archive(self.root, cache=self.cache))
            accepted = self._accept(self.latest)
            first.checked(self.latest.archive if accepted else None)
            if accepted:
                self._rebuild(self.latest.archive, progress, announce=False)
            return accepted
        finally:
            first.finished()

    def update(self, changes: Changes) -> None:
        """Bring the site up to date with `changes`; never raises for a broken archive or
        a failing template (the problem is shown instead)."""
        started = time.perf_counter()
        try:
            latest = self._load(changes)
            if not self._accept(latest):
                return
            archive = latest.archive
            kind = max(changes.values())
            built = self.built
            if (built is None or kind > ChangeKind.RECORD
                    or not affected.same_records(built.archive, archive)):
                self._rebuild(archive)
                self._say(f"rebuilt everything ({_names(changes, self.root)}) "
                          f"in {_ms(started)}")
                return
            changed = affected.edited(built.archive, archive)
            if changed:
                written = self._edit(built, archive, changed)
                self._say(f"{_names(changes, self.root)}: {plural(len(written), 'file')} "
                          f"in {_ms(started)}")
            else:
                self.built = Built(archive, built.bodies, built.html_pages, built.stale)
        except Exception as exc:  # a template or theme error must not stop the preview
            self._failed(exc)

    def catch_up(self, interrupted: Callable[[], bool]) -> None:
        """Write stale files until none is left or `interrupted()` says new changes are
        waiting (the rest stays stale)."""
        built = self.built
        if built is None or not built.stale:
            return
        started = time.perf_counter()
        try:
            written = self._write_stale(built, interrupted)
        except Interrupted:
            return
        except Exception as exc:  # a template error: shown; the next good change retries
            built.stale.clear()
            self._failed(exc)
            return
        self._say(f"{plural(len(written), 'listing and agent file')} updated in {_ms(started)}")

    # ---- rebuilds -----------------------------------------------------------------------------

    def _load(self, changes: Changes) -> Checked:
        """The archive after `changes`, checked: when they are all records the last archive
        read holds, only those files are read and checked again; otherwise everything is
        (through the loader's cache)."""
        last = self.latest
        if last is not None and all(k == ChangeKind.RECORD for k in changes.values()):
            archive = reload_records(last.archive, changes, self.cache)
            if archive is not None:
                edited = [r.id for path in changes
                          if (r := last.archive.record_at(path)) is not None]
                self.latest = recheck(last, archive, edited)
                return self.latest
        self.latest = check(load_archive(self.root, cache=self.cache))
        return self.latest

    def _rebuild(self, archive: Archive,
                 progress: Callable[[str, int, int], None] | None = None,
                 announce: bool = True) -> None:
        """Everything, through the build's own phase two; open pages that changed reload."""
        gc.unfreeze()
        staged = self.store.staged()
        bodies = write_site(archive, staged, self.jobs, progress=progress)
        changed = staged.commit()
        self.built = Built(archive, bodies, self.store.html_pages())
        # A large archive is millions of long-lived objects; left to the collector, its
        # full passes cost an edit 100 ms and more at random. Frozen, they are skipped until
        # the next full rebuild (garbage that is frozen is still freed when it is no longer
        # referenced, unless it forms a cycle; the collect first takes care of those).
        gc.collect()
        gc.freeze()
        if announce:
            many = len(changed) > _MANY
            self.events.reload(None if many else self._urls(archive, changed))

    def _edit(self, built: Built, archive: Archive, changed: list[str]) -> list[str]:
        """Edited records: their own files now, the rest of what they touch marked stale.
        Returns the site paths written."""
        bodies = update_bodies(archive, built.bodies, changed)
        records = [archive.by_id[i] for i in changed]
        first = {path for r in records for path in affected.own_files(r)}
        self.built = Built(archive, bodies, built.html_pages, built.stale - first)
        written = self._write(archive, bodies, first)
        copy_assets(archive, {r.id: bodies[r.id].assets for r in records}, self.store)
        self.events.reload(self._urls(archive, written))
        # Worked out after the pages are shown: it reads every record.
        self.built.stale |= affected.touched(built.archive, archive, changed) - first
        return written

    def _write_stale(self, built: Built, interrupted: Callable[[], bool]) -> list[str]:
        """Write the stale files from the newest archive, pages first; returns the paths
        whose files changed. Pages that changed reload, even when interrupted."""
        written: list[str] = []
        try:
            written = self._write(built.archive, built.bodies, built.stale, interrupted, built,
                                  written)
        finally:
            if written:
                self.events.reload(self._urls(built.archive, written))
        return written

    def _write(self, archive: Archive, bodies: RenderedBodies, paths: Iterable[str],
               interrupted: Callable[[], bool] | None = None, built: Built | None = None,
               changed: list[str] | None = None) -> list[str]:
        """Render the site paths `paths` (pages first) and write those whose bytes changed;
        a path that is no longer produced (a tag nobody uses now) is deleted. With
        `interrupted`, stop after any file once it returns True (raising Interrupted); each
        file written is then taken off `built.stale`. Returns the paths whose files changed,
        collected in `changed` when given (it is filled even when interrupted)."""
        wanted = set(paths)
        produced: set[str] = set()
        changed = [] if changed is None else changed

        def write(rel: str, data: str | bytes | Iterable[bytes]) -> None:
            if interrupted is not None and not isinstance(data, (str, bytes)):
                data = _until(interrupted, data)
            produced.add(rel)
            if self.store.put(rel, data):
                changed.append(rel)
            if built is not None:
                built.stale.discard(rel)
            if interrupted is not None and interrupted():
                raise Interrupted

        if search.MANIFEST in wanted:  # the index as a whole: its files come and go
            wanted.update(self.store.below(search.OUTPUT_DIR))
        selection = _Selection(wanted, search.OUTPUT_DIR if search.MANIFEST in wanted else None)
        urls = Urls(archive.config)
        page_paths = {p for p in wanted if p.endswith(".html")}
        pages.render_pages(archive, bodies, urls, write, only=selection,
                           checkpoint=None if interrupted is None else partial(_stop_if,
                                                                               interrupted))
        html_pages = (self.built.html_pages if self.built else set()) | page_paths
        write_artifacts(archive, urls, write, sorted(html_pages), only=selection)
        for rel in wanted - produced:
            if self.store.delete(rel):
                changed.append(rel)
            if built is not None:
                built.stale.discard(rel)
        if self.built is not None:
            self.built.html_pages.update(p for p in produced if p.endswith(".html"))
            self.built.html_pages.difference_update(p for p in page_paths - produced)
        return changed

    # ---- problems -----------------------------------------------------------------------------

    def _accept(self, checked: Checked) -> bool:
        """True when the archive may be shown; otherwise show its errors and return False."""
        errors = checked.errors
        self._show(errors)
        return not errors

    def _failed(self, exc: Exception) -> None:
        """A build that raised: keep the last good site, show why."""
        where = Path(getattr(exc, "filename", None) or self.root / "site.yml")
        line = getattr(exc, "lineno", None) or 1
        self._show((Finding(where, line, "error", f"the build failed: {exc}"),))

    def _show(self, problems: tuple[Finding, ...]) -> None:
        if problems == self.shown:
            return
        self.shown = problems
        for finding in problems:
            say(finding.format(self.root), self.log)
        if problems:
            self._say(f"{plural(len(problems), 'error')}: showing the last good build until they "
                      "are fixed")
        self.events.problems([_problem(f, self.root) for f in problems])

    # ---- small helpers ------------------------------------------------------------------------

    def _urls(self, archive: Archive, paths: Collection[str]) -> list[str]:
        """The URL paths (from the server root, decoded) pages know themselves by."""
        base = archive.config.base
        out = []
        for path in paths:
            out.append(base + url_path(path))
        return out

    def _say(self, message: str) -> None:
        say(f"site-builder serve: {message}", self.log)


class _Selection:
    """The site paths to write: `paths`, and everything below the folder `below`."""

    def __init__(self, paths: set[str], below: str | None) -> None:
        self.paths = paths
        self.prefix = f"{below}/" if below else None

    def __contains__(self, path: object) -> bool:
        return path in self.paths or (self.prefix is not None and isinstance(path, str)
                                      and path.startswith(self.prefix))


def say(line: str, stream: TextIO) -> None:
    """Print one whole line: a single write, so that Ctrl-C cannot cut it in two."""
    stream.write(f"{line}\n")
    stream.flush()


def _stop_if(interrupted: Callable[[], bool]) -> None:
    """Raise Interrupted when `interrupted()` says so."""
    if interrupted():
        raise Interrupted


def _until(interrupted: Callable[[], bool], chunks: Iterable[bytes]) -> Iterator[bytes]:
    """`chunks`, raising Interrupted as soon as `interrupted()` says so: a streamed file as
    large as llms-full.txt is given up at once rather than finished for nothing."""
    for number, chunk in enumerate(chunks):
        if number % 32 == 31 and interrupted():
            raise Interrupted
        yield chunk


def _problem(finding: Finding, root: Path) -> dict[str, Any]:
    return as_json(finding, root)


def _names(changes: Changes, root: Path) -> str:
    names = sorted(Finding(p, 1, "error", "").display_path(root) for p in changes)
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _ms(started: float) -> str:
    return f"{(time.perf_counter() - started) * 1000:.0f} ms"

