"""The one writer: every file of a build goes through `Output`, which stages it and swaps it in.

A build writes into a staging folder beside the output folder (`_site.tmp-<pid>`). Only
`commit()` puts it in place, so a build that fails halfway leaves the previous output exactly
as it was. A file whose
bytes are the same as in the previous output is hard-linked from it instead of being written
again, which keeps its mtime (rsync, `serve` and static hosts see no change); files the new
build does not write are gone after the swap.
"""

from __future__ import annotations

import ctypes
import errno
import os
import posixpath
import shutil
from pathlib import Path
from types import TracebackType

_STAGING = ".tmp-"
_RETIRED = ".old-"


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
        self._committed = False

    def __enter__(self) -> Output:
        self.target.parent.mkdir(parents=True, exist_ok=True)
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

    def write(self, rel: str, data: str | bytes) -> None:
        """Stage the file `rel` (a POSIX path relative to the site root) with `data`
        (str is written as UTF-8). Raises ValueError for a path outside the site or one
        written twice."""
        content = data.encode("utf-8") if isinstance(data, str) else data
        destination = self._claim(rel)
        previous = self.target / rel
        if _same_bytes(previous, content) and _link(previous, destination):
            self.unchanged += 1
            return
        destination.write_bytes(content)
        self.changed += 1

    def copy(self, rel: str, source: Path) -> None:
        """Stage the file `rel` as a copy of `source`. Raises ValueError as `write` does and
        OSError when `source` cannot be read."""
        destination = self._claim(rel)
        previous = self.target / rel
        if _same_file_bytes(previous, source) and _link(previous, destination):
            self.unchanged += 1
            return
        shutil.copyfile(source, destination)
        self.changed += 1

    def _claim(self, rel: str) -> Path:
        clean = posixpath.normpath(rel)
        if (not rel or rel != clean or clean.startswith(("/", "../")) or clean == ".."
                or "\\" in rel or clean == "."):
            raise ValueError(f"not a file path inside the site: {rel!r}")
        if rel in self.written:
            raise ValueError(f"{rel} is written twice in one build")
        self.written.add(rel)
        folder = posixpath.dirname(rel)
        if folder and folder not in self._folders:
            (self.stage / folder).mkdir(parents=True, exist_ok=True)
            while folder and folder not in self._folders:
                self._folders.add(folder)
                folder = posixpath.dirname(folder)
        return self.stage / rel

    # ---- finishing --------------------------------------------------------------------------

    def commit(self) -> None:
        """Put the staged build in place of the output folder (atomically where the system
        can exchange two folders) and remove the previous one. Raises OutputError when the
        output path is not a folder or cannot be replaced."""
        if self._committed:
            return
        if self.target.exists() and not self.target.is_dir():
            raise OutputError(f"{self.target} exists and is not a folder; not replacing it")
        self.removed = _count_stale(self.target, self.written)
        if self.target.exists():
            if _exchange(self.stage, self.target):
                shutil.rmtree(self.stage)
            else:
                retired = self.target.parent / f"{self.target.name}{_RETIRED}{os.getpid()}"
                os.rename(self.target, retired)
                os.rename(self.stage, self.target)
                shutil.rmtree(retired)
        else:
            os.rename(self.stage, self.target)
        self._committed = True

    def discard(self) -> None:
        """Remove the staging folder; the output folder is left as it was."""
        shutil.rmtree(self.stage, ignore_errors=True)


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


def _link(previous: Path, destination: Path) -> bool:
    """Hard-link the previous build's file into the stage; False when the system cannot."""
    try:
        os.link(previous, destination)
    except OSError:
        try:
            shutil.copy2(previous, destination)  # keeps the mtime where links are refused
        except OSError:
            return False
    return True


def _count_stale(target: Path, written: set[str]) -> int:
    if not target.is_dir():
        return 0
    stale = 0
    for folder, _, files in os.walk(target):
        rel_folder = Path(folder).relative_to(target).as_posix()
        for name in files:
            rel = name if rel_folder == "." else f"{rel_folder}/{name}"
            stale += rel not in written
    return stale


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one step with Linux renameat2(RENAME_EXCHANGE); False where the
    system has no such call (the caller then renames twice)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OutputError(f"cannot replace {b}: {os.strerror(code)}")


def _remove_abandoned(target: Path) -> None:
    """Remove staging folders left behind by builds that were killed."""
    prefix = target.name
    for entry in target.parent.iterdir():
        name = entry.name
        if not name.startswith(prefix) or not entry.is_dir():
            continue
        rest = name[len(prefix):]
        for marker in (_STAGING, _RETIRED):
            if rest.startswith(marker) and rest[len(marker):].isdigit():
                pid = int(rest[len(marker):])
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
