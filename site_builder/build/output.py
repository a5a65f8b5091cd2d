"""The one writer: every file of a build goes through `Output`, which stages it and commits it.

A build writes into a staging folder beside the output folder (`_site.tmp-<pid>`, so renames
never cross filesystems), and nothing in the output folder changes before `commit()`: a build
that fails halfway leaves the previous output byte for byte as it was. Only files whose bytes
differ from the previous output are staged; `commit()` renames them into place and deletes the
files the new build no longer writes. Unchanged files are never touched, so they keep their
mtime (rsync, `serve` and static hosts see no change), and a rebuild that changes nothing does
no file-system writes at all. Swapping whole trees instead would cost a hard link per file
plus deleting the old tree, which on a busy disk took longer than the build (build/adr/0015).
"""

from __future__ import annotations

import os
import posixpath
import shutil
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

_STAGING = ".tmp-"


class OutputError(Exception):
    """The output folder cannot be written or swapped; the message says why."""


class Output:
    """A build's output, staged beside `target` until `commit()`.

    Use as a context manager: leaving the block without `commit()` (an exception, a
    failed check) discards the staging folder and leaves `target` untouched.
    """

    def __init__(self, target: Path) -> None:
        self.target = Path(os.path.abspath(target))
        self.stage = self.target.parent / f"{self.target.name}{_STAGING}{os.getpid()}"
        self.written: set[str] = set()
        self.changed = 0
        self.unchanged = 0
        self.removed = 0
        self._folders: set[str] = set()
        self._staged: list[str] = []
        self._committed = False
        # No previous output to compare with (a first or cold build): nothing is unchanged.
        self._fresh = False

    def __enter__(self) -> Output:
        self.target.parent.mkdir(parents=True, exist_ok=True)
        self._fresh = not self.target.exists()
        _remove_abandoned(self.target)
        if self.stage.exists():
            shutil.rmtree(self.stage)
        self.stage.mkdir()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if not self._committed:
            self.discard()

    # ---- writing --------------------------------------------------------------------------

    def exists(self, rel: str) -> bool:
        """True when this build has already written `rel`."""
        return rel in self.written

    def write(self, rel: str, data: str | bytes | Iterable[bytes]) -> None:
        """Stage the file `rel` (a POSIX path relative to the site root) with `data`: str
        (written as UTF-8), bytes, or an iterable of bytes chunks for a file too large to
        hold in memory at once. Raises ValueError for a path outside the site or one
        written twice."""
        if not isinstance(data, (str, bytes)):
            self._write_chunks(rel, data)
            return
        content = data.encode("utf-8") if isinstance(data, str) else data
        self._claim(rel)
        if not self._fresh and _same_bytes(self.target / rel, content):
            self.unchanged += 1
            return
        write_file(self._stage(rel), content)

    def _write_chunks(self, rel: str, chunks: Iterable[bytes]) -> None:
        self._claim(rel)
        staged = self._stage(rel)
        try:
            previous = open(self.target / rel, "rb")  # noqa: SIM115 - closed below
        except OSError:
            previous = None
        same = previous is not None
        try:
            with open(staged, "wb") as stream:
                for chunk in chunks:
                    stream.write(chunk)
                    same = same and previous.read(len(chunk)) == chunk  # type: ignore[union-attr]
            same = same and previous.read(1) == b""  # type: ignore[union-attr]
        finally:
            if previous is not None:
                previous.close()
        if same:
            staged.unlink()
            self._staged.pop()
            self.changed -= 1
            self.unchanged += 1

    def copy(self, rel: str, source: Path) -> None:
        """Stage the file `rel` as a copy of `source`. Raises ValueError as `write` does and
        OSError when `source` cannot be read."""
        self._claim(rel)
        if not self._fresh and _same_file_bytes(self.target / rel, source):
            self.unchanged += 1
            return
        shutil.copyfile(source, self._stage(rel))

    def _claim(self, rel: str) -> None:
        clean = posixpath.normpath(rel)
        if (not rel or rel != clean or clean.startswith(("/", "../")) or clean == ".."
                or "\\" in rel or clean == "."):
            raise ValueError(f"not a file path inside the site: {rel!r}")
        if rel in self.written:
            raise ValueError(f"{rel} is written twice in one build")
        self.written.add(rel)

    def _stage(self, rel: str) -> Path:
        """The staged path of a changed file, its folder created."""
        self._staged.append(rel)
        self.changed += 1
        folder = posixpath.dirname(rel)
        if folder and folder not in self._folders:
            (self.stage / folder).mkdir(parents=True, exist_ok=True)
            while folder and folder not in self._folders:
                self._folders.add(folder)
                folder = posixpath.dirname(folder)
        return self.stage / rel

    # ---- finishing --------------------------------------------------------------------------

    def commit(self) -> None:
        """Move the staged files into the output folder and delete the files this build did
        not write. Raises OutputError when the output path is not a folder."""
        if self._committed:
            return
        if not self.target.exists():
            os.rename(self.stage, self.target)
        elif not self.target.is_dir():
            raise OutputError(f"{self.target} exists and is not a folder; not replacing it")
        else:
            ready: set[str] = set()
            for rel in self._staged:
                _move_into(self.stage / rel, self.target, rel, ready)
            self.removed = _remove_stale(self.target, self.written)
            shutil.rmtree(self.stage)
        self._committed = True

    def discard(self) -> None:
        """Remove the staging folder; the output folder is left as it was."""
        shutil.rmtree(self.stage, ignore_errors=True)


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


def _same_bytes(path: Path, content: bytes) -> bool:
    try:
        if path.stat().st_size != len(content):
            return False
        return path.read_bytes() == content
    except OSError:
        return False


def _same_file_bytes(path: Path, source: Path) -> bool:
    try:
        if path.stat().st_size != source.stat().st_size:
            return False
        return path.read_bytes() == source.read_bytes()
    except OSError:
        return False


def _move_into(staged: Path, target: Path, rel: str, ready: set[str]) -> None:
    """Rename a staged file to `target/rel`, clearing whatever old file, link or folder is in
    the way (a page that became a folder, or the reverse). `ready` remembers the folders
    already checked."""
    parts = rel.split("/")
    for depth in range(1, len(parts)):
        folder_rel = "/".join(parts[:depth])
        if folder_rel in ready:
            continue
        folder = target / folder_rel
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            folder.unlink()  # never write through a link, or into an old file's name
        folder.mkdir(exist_ok=True)
        ready.add(folder_rel)
    destination = target / rel
    if destination.is_dir() and not destination.is_symlink():
        shutil.rmtree(destination)
    os.replace(staged, destination)


def _remove_stale(target: Path, written: set[str]) -> int:
    """Delete files under `target` that are not in `written`, then emptied folders;
    returns how many files were deleted."""
    removed = 0
    for folder, folders, files in os.walk(target, topdown=False):
        rel_folder = os.path.relpath(folder, target).replace(os.sep, "/")
        for name in files:
            rel = name if rel_folder == "." else f"{rel_folder}/{name}"
            if rel not in written:
                os.unlink(os.path.join(folder, name))
                removed += 1
        for name in folders:
            path = os.path.join(folder, name)
            if os.path.islink(path):
                os.unlink(path)
            elif not os.listdir(path):
                os.rmdir(path)
    return removed


def _remove_abandoned(target: Path) -> None:
    """Remove staging folders left behind by builds that were killed."""
    prefix = target.name
    for entry in target.parent.iterdir():
        name = entry.name
        if not name.startswith(prefix) or not entry.is_dir():
            continue
        rest = name[len(prefix):]
        if rest.startswith(_STAGING) and rest[len(_STAGING):].isdigit():
            pid = int(rest[len(_STAGING):])
            if pid == os.getpid() or not _alive(pid):
                shutil.rmtree(entry, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
