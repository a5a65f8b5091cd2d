"""Staged files created on one background thread while the build goes on rendering.

Creating a file is the build's main system cost: on the ext4 file systems measured here a new
inode takes 0.2–0.5 ms of kernel time, and a build of 10,000 records creates about 30,000 of
them (a folder and an `index.html` per page, a `.md` copy per record, the search shards). The
calls that do it (`os.mkdir`, `os.open`, `os.write`) release the GIL, so one thread doing them
lets this process go on rendering pages on the other core meanwhile. One thread, not several:
the kernel serialises inode creation in one folder tree, and a second thread only spins.

Files are created in the order they were handed over, each folder before its first file. The
first refusal stops the thread's work; it is raised, with the path it concerns, by the next
call of the build's thread (`write`, `flush`), so nothing is lost and nothing is half-said.
"""

from __future__ import annotations

import os
import posixpath
import queue
import threading
from pathlib import Path

# Files handed over but not created yet, at most: keeps a fast renderer from queueing a large
# archive's pages in memory while the disk catches up (a page is 10–40 KB).
PENDING = 256
_STOP = None


class StagingFailed(Exception):
    """A staged file or folder could not be created: `error` is the OSError, `rel` the path
    (relative to the staging folder) it was for."""

    def __init__(self, error: OSError, rel: str) -> None:
        super().__init__(str(error))
        self.error = error
        self.rel = rel


class Stager:
    """Creates files under `root` on a background thread, started on the first `write`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._queue: queue.Queue[tuple[str, bytes] | None] = queue.Queue(PENDING)
        self._thread: threading.Thread | None = None
        self._failure: StagingFailed | None = None
        self._folders: set[str] = set()

    def write(self, rel: str, content: bytes) -> None:
        """Create the file `rel` with `content`, soon. Raises StagingFailed for an earlier
        file the thread could not create."""
        self._raise()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="site-builder staging",
                                            daemon=True)
            self._thread.start()
        self._queue.put((rel, content))

    def flush(self) -> None:
        """Wait until every file handed over exists. Raises StagingFailed as `write` does."""
        if self._thread is not None:
            self._queue.join()
        self._raise()

    def close(self, drop: bool = False) -> None:
        """Stop the thread once it has done what it holds (dropped it, with `drop`, or after
        a failure)."""
        if drop and self._failure is None:
            self._failure = StagingFailed(OSError("the build was stopped"), "")
        if self._thread is not None:
            self._queue.put(_STOP)
            self._thread.join()
            self._thread = None

    def _raise(self) -> None:
        if self._failure is not None:
            raise self._failure

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is _STOP:
                    return
                if self._failure is None:
                    self._create(*item)
            finally:
                self._queue.task_done()

    def _create(self, rel: str, content: bytes) -> None:
        folder = posixpath.dirname(rel)
        if folder and folder not in self._folders:
            try:
                (self.root / folder).mkdir(parents=True, exist_ok=True)
            except OSError as error:
                self._failure = StagingFailed(error, folder)
                return
            while folder and folder not in self._folders:
                self._folders.add(folder)
                folder = posixpath.dirname(folder)
        try:
            write_file(self.root / rel, content)
        except OSError as error:
            self._failure = StagingFailed(error, rel)

    def make_folder(self, rel: str) -> None:
        """Create the folder `rel` (and its parents) now, in the caller's thread, after what
        was handed over. Raises StagingFailed (for this folder or an earlier file)."""
        self.flush()
        if rel and rel not in self._folders:
            try:
                (self.root / rel).mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StagingFailed(error, rel) from None
            while rel and rel not in self._folders:
                self._folders.add(rel)
                rel = posixpath.dirname(rel)


def write_file(path: Path, content: bytes) -> None:
    """Create or replace the file `path` with `content`.

    With the os module's calls rather than `Path.write_bytes`: a build writes tens of
    thousands of files, and a Python file object costs three more system calls each
    (terminal check, seek, stat) that a whole file written at once never needs.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0),
                 0o666)
    try:
        view = memoryview(content)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)
