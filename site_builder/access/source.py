"""Where the server's Archive comes from: the content folder (local mode) or a site (remote).

Both kinds of source hand the server the same `Archive`, so every tool runs the same query
code in both modes. A source raises SourceError when it cannot give one; the server turns
that into a tool result with `isError: true` and keeps serving.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Protocol

from site_builder.access.changes import FolderChanges
from site_builder.archive.archive import Archive
from site_builder.archive.loader import LoaderCache, reload_records
from site_builder.base.findings import Finding
from site_builder.base.words import plural
from site_builder.config.site import SiteConfig
from site_builder.errors import SiteBuilderError
from site_builder.query.kept_index import kept_index_file
from site_builder.query.textindex import index_for
from site_builder.sources.load import load_archive
from site_builder.sources.resolve import content_roots

LOG_PREFIX = "site-builder mcp:"
# Problems logged per change of the archive; the rest are counted, not listed.
_MAX_LOGGED = 50

Log = Callable[[str], None]


def log_to_stderr(message: str) -> None:
    """Write one log line to stderr, where MCP clients expect a server's logs."""
    print(f"{LOG_PREFIX} {message}", file=sys.stderr, flush=True)


class SourceError(SiteBuilderError):
    """The archive could not be read; the message says what failed (a URL, a file)."""


class Source(Protocol):
    """What the server needs from where records come from."""

    open_world: bool
    """True when answers depend on something outside this machine (a published site)."""

    def archive(self) -> Archive:
        """The archive as it is now. Raises SourceError."""
        ...

    def warm(self, then: Callable[[Archive], None] | None = None) -> None:
        """Start preparing the archive in the background, if that is cheap and local, and
        hand it to `then` there once read."""
        ...

    def unchanged(self) -> Archive | None:
        """The archive `archive()` last gave when it is known to be the archive now without
        reading, fetching or waiting on anything (from any thread); None otherwise."""
        ...


class LocalSource:
    """The content folder of an archive, read again whenever something in it changed.

    The config is loaded once by the caller, so a broken site.yml stops the server before a
    client waits. The content folder and every source in site.yml are read; a `repo:`
    source missing from the cache is cloned by the first read. Records are re-read through
    the loader's cache, which reparses only files whose size or mtime changed;
    `FolderChanges` skips even the stat walk when the kernel reports nothing changed. The
    text index starts from the one the last build kept (query/kept_index.py).
    Record problems never stop the server: they are logged once each time the archive
    changes, and every readable record is served.
    """

    open_world = False

    def __init__(self, config: SiteConfig, log: Log = log_to_stderr) -> None:
        self.config = config
        self._log = log
        self._cache = LoaderCache(kept=True)  # recalls what the last build parsed
        self._lock = threading.Lock()
        self._changes = FolderChanges([config.content_dir])
        self._archive: Archive | None = None
        self._logged: tuple[Finding, ...] = ()
        self._said_unwatched = False

    def archive(self) -> Archive:
        """The archive, read again when a file below the content folder changed: only the
        files edited in place when the kernel names them all, everything otherwise."""
        with self._lock:
            # Consume change notices before reading, so an edit made during the read is
            # noticed by the next call.
            edited = self._changes.edited()
            if not self._changes.active and not self._said_unwatched:
                self._said_unwatched = True
                self._log(f"cannot watch {self.config.content_dir} for changes; every call "
                          "reads the folder again (slower, never stale)")
            archive = self._archive
            if archive is not None and edited:
                # Named files are parsed whatever their stamp says, so two same-size writes
                # within one tick of the file system's clock are both seen.
                archive = reload_records(archive, edited, self._cache)
            if archive is None or edited is None:
                archive = self._load()
            if archive is not self._archive:
                self._report(archive.load_findings)
            self._archive = archive
            return archive

    def unchanged(self) -> Archive | None:
        """The archive last read, while no change notice waits and no read is under way."""
        # In this order: a notice consumed after the first look belongs to a read that holds
        # the lock until it has replaced the archive.
        if self._changes.pending() or self._lock.locked():
            return None
        return self._archive

    def _load(self) -> Archive:
        """Every content folder read through the loader cache. Raises SourceError."""
        try:
            archive = load_archive(self.config.root, cache=self._cache, config=self.config)
        except OSError as exc:
            raise SourceError(f"could not read the archive in {self.config.root}: "
                              f"{exc}") from exc
        # The roots are known now (a repo source was cloned during the first load), so
        # listing them again touches no network.
        roots, _ = content_roots(self.config, self._cache.failed_sources)
        self._changes.watch([r.path for r in roots])
        if self._archive is None:  # later loads take the text index over (`follow`)
            index_for(archive).recall_from(kept_index_file(self.config))
        return archive

    def warm(self, then: Callable[[Archive], None] | None = None) -> None:
        """Read the archive in a background thread, then hand it to `then` there (the
        server analyses it for text search), so the first call finds both ready."""
        def read() -> None:
            try:
                archive = self.archive()
            except SourceError as exc:
                self._log(str(exc))
                return
            if then is not None:
                then(archive)

        threading.Thread(target=read, name="site-builder-mcp-warm", daemon=True).start()

    def _report(self, findings: tuple[Finding, ...]) -> None:
        if findings == self._logged:
            return
        self._logged = findings
        if not findings:
            self._log("the archive reads cleanly again")
            return
        errors = sum(f.level == "error" for f in findings)
        self._log(f"{plural(errors, 'error')} and {plural(len(findings) - errors, 'warning')} "
                  "in the archive; answering from every record that could be read")
        for finding in findings[:_MAX_LOGGED]:
            self._log(finding.format(self.config.root))
        if len(findings) > _MAX_LOGGED:
            self._log(f"... and {len(findings) - _MAX_LOGGED} more "
                      f"(site-builder check --root {self.config.root} lists them all)")

