"""Has anything under these folders changed since the last look? (inotify on Linux.)

Local mode must show an edit on the very next call. Walking and stat-ing every record file
on every call does that, but costs 200–250 ms per 10,000 records before a query even starts
(agents/adr/0007 has the measurement). The
kernel already knows: inotify queues an event during the write itself, so by the time a
client sends its next request the event is there to read, and an empty queue means nothing
changed. Where inotify is missing (macOS, Windows) or runs out of watches, `changed()`
always answers True and the caller re-reads every time, as before.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import select
import struct
import sys
from pathlib import Path

_IN_NONBLOCK = 0o4000
_IN_CLOEXEC = 0o2000000
# Writes, attribute changes (touch), creation, deletion and renames, of entries and of the
# watched folder itself. Reads and opens are left out: the loader's own reads must not
# count as changes.
_MASK = (0x2 | 0x4 | 0x8 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800)
# Of those, the events that change a file in place (write, attributes, close after write):
# the file named is all that changed. Anything else (created, deleted, moved, a folder, the
# queue overflowing) may change which files there are.
_IN_PLACE = 0x2 | 0x4 | 0x8


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.inotify_init1.argtypes = [ctypes.c_int]
        libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
        return libc
    except (OSError, AttributeError):
        return None


class FolderChanges:
    """Change notices for every folder below `roots` (and folders of symlinked files)."""

    def __init__(self, roots: list[Path]) -> None:
        self._roots = roots
        self._libc = _libc()
        self._fd: int | None = None
        # Watch descriptors of the roots' parents, with the root names that matter there.
        self._parents: dict[int, set[bytes]] = {}
        # The folder each watch descriptor watches, to name the file an event is about.
        self._folders_of: dict[int, str] = {}
        if self._libc is not None:
            fd = self._libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
            self._fd = fd if fd >= 0 else None
        self.watch()

    @property
    def active(self) -> bool:
        """True while the kernel reports changes; False means every look says 'changed'."""
        return self._fd is not None

    def watch(self, roots: list[Path] | None = None) -> None:
        """Watch every folder now below the roots (new `roots` when given); call it after
        each reload.

        Adding a watch twice is harmless, and a folder deleted and made again is a new one
        to watch, so every folder is added every time.
        """
        if roots is not None:
            self._roots = roots
        if self._fd is None:
            return
        for folder in self._folders():
            if self._add(folder) is None:
                return
        for root in self._roots:
            # The parent tells when a content folder is created, moved or removed; other
            # entries beside it (site.yml, _site) do not matter.
            parent = str(Path(root).parent)
            wd = self._add(parent)
            if wd is None:
                return
            self._parents.setdefault(wd, set()).add(os.fsencode(Path(root).name))

    def _add(self, folder: str) -> int | None:
        """The watch descriptor of `folder`; None when watching had to stop."""
        assert self._libc is not None  # watching only starts where libc was found
        wd: int = self._libc.inotify_add_watch(self._fd, os.fsencode(folder), _MASK)
        if wd < 0:
            if ctypes.get_errno() == 2:  # ENOENT: gone since the walk; an event says so
                return -1
            self.close()  # out of watches or not permitted: fall back to re-reading
            return None
        self._folders_of[wd] = folder
        return wd

    def _folders(self) -> list[str]:
        seen: set[str] = set()
        out: list[str] = []
        pending = [str(root) for root in self._roots]
        while pending:
            folder = pending.pop()
            real = os.path.realpath(folder)
            if real in seen:
                continue
            seen.add(real)
            out.append(folder)
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                if entry.is_dir():
                    pending.append(entry.path)
                elif entry.is_symlink():
                    # Editing a symlinked file's target fires events in the target's folder.
                    pending.append(os.path.dirname(os.path.realpath(entry.path)))
        return out

    def changed(self) -> bool:
        """True when something may have changed since the last call (events are consumed)."""
        return self.edited() != set()

    def pending(self) -> bool:
        """True when a change notice waits to be read (or nothing is watched); reads none,
        so `edited` still sees it."""
        if self._fd is None:
            return True
        try:
            ready, _, _ = select.select([self._fd], [], [], 0)
        except (OSError, ValueError):
            return True
        return bool(ready)

    def edited(self) -> set[Path] | None:
        """The files changed in place since the last call (events are consumed): empty when
        nothing changed, None when more than those files may have (a file created, deleted or
        moved, a folder changed, or no kernel help: read everything again)."""
        if self._fd is None:
            return None
        found: set[Path] | None = set()
        while True:
            try:
                data = os.read(self._fd, 65536)
            except BlockingIOError:
                return found
            except OSError:
                self.close()
                return None
            if not data:
                return found
            for wd, mask, name in _events(data):
                if found is None or not self._matters(wd, name):
                    continue
                folder = self._folders_of.get(wd)
                if (mask & ~_IN_PLACE) or not name or folder is None or wd in self._parents:
                    found = None
                else:
                    found.add(Path(folder) / os.fsdecode(name))

    def _matters(self, wd: int, name: bytes) -> bool:
        names = self._parents.get(wd)
        # An event on the parent itself (no name) is the parent moving or going away.
        return names is None or name in names or not name

    def close(self) -> None:
        """Stop watching; from now on every look says 'changed'."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
            self._parents.clear()
            self._folders_of.clear()


def _events(data: bytes) -> list[tuple[int, int, bytes]]:
    """(watch descriptor, mask, entry name) of each `struct inotify_event` in `data`."""
    out = []
    at = 0
    while at + 16 <= len(data):
        wd, mask, _cookie, size = struct.unpack_from("iIII", data, at)
        out.append((wd, mask, data[at + 16:at + 16 + size].rstrip(b"\0")))
        at += 16 + size
    return out
