"""File events → change kinds, settled into batches.

`Layout` knows which files make up an archive (site.yml, every content root, templates and
theme, built-in and the archive's own) and sorts a changed path into a `ChangeKind`, ignoring
editor litter (swap files, backups, hidden files) and the folders builds write. `Watcher`
collects watchdog events from another thread and hands the rebuild loop one batch per burst:
an editor that saves through a temporary file and a rename makes several events within
milliseconds, and they become one rebuild.
"""

from __future__ import annotations

import enum
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer

from site_builder.config.site import CONFIG_FILE, SiteConfig
from site_builder.render.pages.theme import builtin_folder
from site_builder.sources.resolve import FailedClones, content_roots

# A burst ends after this long without another event, or this long after it began at most.
SETTLE = 0.03
LIMIT = 0.5

# Events that say a file was read or only touched, not changed.
_QUIET_EVENTS = frozenset({"opened", "closed_no_write", "attrib"})
# The events asked of the kernel: none for a file opened or closed unwritten. serve reads
# every record body for its checks and first build, and each read cost two events handled in
# watchdog's thread, in the same interpreter: at 10,000 records, the first page waited on
# some 20,000 of them.
_CHANGES = [FileCreatedEvent, FileModifiedEvent, FileDeletedEvent, FileMovedEvent,
            FileClosedEvent, DirCreatedEvent, DirDeletedEvent, DirMovedEvent]


class ChangeKind(enum.IntEnum):
    """What a changed file is; a larger kind asks for a larger rebuild."""

    RECORD = 1   # a `.md` file under a content root: edited, added or removed
    CONTENT = 2  # any other file under a content root: _project.yml, a linked image, folders
    THEME = 3    # templates and theme files, built-in or the archive's own
    CONFIG = 4   # site.yml


Changes = dict[Path, ChangeKind]


def is_litter(name: str) -> bool:
    """True for names editors and tools write beside the files they save (hidden files,
    `name~` backups, vim's swap files and its `4913` probe, emacs' `#autosave#`)."""
    return (name.startswith((".", "#")) or name.endswith(("~", ".swp", ".swx", ".tmp"))
            or name == "4913")


@dataclass(frozen=True, slots=True)
class Layout:
    """The files of one archive that `serve` watches."""

    root: Path
    content: tuple[Path, ...]
    themes: tuple[Path, ...]
    ignored: tuple[Path, ...]

    @classmethod
    def of(cls, config: SiteConfig, failed: FailedClones | None = None) -> Layout:
        """The layout `config` describes; `failed` as `content_roots` takes it, so a source
        that cannot be cloned is not tried again."""
        roots, _ = content_roots(config, failed)
        # static/ counts as theme: a change to it rewrites the site, which costs little.
        themes = (config.root / "templates", config.root / "theme", config.static_dir,
                  builtin_folder("templates"), builtin_folder("theme"))
        return cls(config.root, tuple(r.path.absolute() for r in roots),
                   tuple(t.absolute() for t in themes),
                   (config.output_dir.absolute(), config.cache_dir.absolute()))

    def kind(self, path: Path) -> ChangeKind | None:
        """What `path` is to the archive; None for files that do not matter to it."""
        if path.parent == self.root:
            if path.name == CONFIG_FILE:
                return ChangeKind.CONFIG
            if path.name in ("templates", "theme") or path in self.themes:
                return ChangeKind.THEME
        owner = max((f for f in (*self.content, *self.themes) if path.is_relative_to(f)),
                    key=lambda f: len(f.parts), default=None)
        if owner is None:
            return None
        if any(path.is_relative_to(f) and f.is_relative_to(owner) for f in self.ignored):
            return None
        if any(is_litter(part) for part in path.relative_to(owner).parts):
            return None
        if owner in self.themes:
            return ChangeKind.THEME
        return ChangeKind.RECORD if path.suffix == ".md" else ChangeKind.CONTENT

    def watches(self) -> list[tuple[Path, bool]]:
        """(folder, recursive) pairs to watch: the archive root itself for site.yml and new
        template folders, every other folder with everything below it."""
        folders = [(self.root, False)]
        folders += [(f, True) for f in (*self.content, *self.themes) if f.is_dir()]
        return folders


class Watcher(FileSystemEventHandler):
    """Changed files of one archive, collected from watchdog and settled into batches."""

    def __init__(self, layout: Layout) -> None:
        super().__init__()
        self.layout = layout
        self._observer = Observer()
        self._changed = threading.Condition()
        self._changes: Changes = {}
        self._last_event = 0.0
        self._watching: list[tuple[Path, bool]] = []

    def start(self) -> None:
        self._schedule()
        self._observer.start()

    def stop(self) -> None:
        self._observer.stop()
        self._observer.join(timeout=5)

    def watch(self, layout: Layout) -> None:
        """Watch the folders of `layout` from now on: site.yml may have moved the content
        roots, and a folder to watch may have been created or removed."""
        if layout != self.layout or layout.watches() != self._watching:
            self.layout = layout
            self._observer.unschedule_all()
            self._schedule()

    def _schedule(self) -> None:
        self._watching = self.layout.watches()
        for folder, recursive in self._watching:
            self._observer.schedule(self, str(folder), recursive=recursive,
                                    event_filter=_CHANGES)

    def on_any_event(self, event: FileSystemEvent) -> None:
        """Called by watchdog's thread: note each path that matters, with its kind."""
        if event.event_type in _QUIET_EVENTS or (event.is_directory
                                                 and event.event_type == "modified"):
            return
        paths = [event.src_path, getattr(event, "dest_path", "")]
        noted = {}
        for raw in paths:
            if raw:
                path = Path(raw if isinstance(raw, str) else raw.decode())
                kind = self.layout.kind(path)
                if kind is not None:
                    noted[path] = kind
        if noted:
            with self._changed:
                for path, kind in noted.items():
                    self._changes[path] = max(kind, self._changes.get(path, kind))
                self._last_event = time.monotonic()
                self._changed.notify_all()

    # ---- the rebuild loop's side ------------------------------------------------------------

    def pending(self) -> bool:
        """True when files changed since the last batch was taken."""
        with self._changed:
            return bool(self._changes)

    def next_batch(self, timeout: float | None) -> Changes:
        """The files changed in the next burst of events, waiting up to `timeout` seconds
        (None: forever) for it to begin; an empty dict when nothing changed meanwhile."""
        with self._changed:
            if not self._changed.wait_for(lambda: bool(self._changes), timeout):
                return {}
            began = time.monotonic()
            while True:
                now = time.monotonic()
                quiet_until = self._last_event + SETTLE
                if now >= quiet_until or now - began >= LIMIT:
                    break
                self._changed.wait(min(quiet_until, began + LIMIT) - now)
            changes, self._changes = self._changes, {}
            return changes
