"""Reading files that must stay inside a folder: the archive's defence against its own input.

Records arrive through pull requests and `repo:` sources, so a file name proves nothing: a
`passwd.txt` beside a record may be a symlink to `/etc/passwd`, a `0002-x.md` a link to
`/dev/zero`, a FIFO or a dangling link. Every file the archive reads or publishes is checked
here first: it must resolve (symlinks followed) inside its root, be a regular file, and be no
larger than a limit. The checks cost nothing for the usual file: a caller that scanned a
folder knows from the directory entry whether anything was a link at all.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from site_builder.errors import InputError

__all__ = ["MAX_RECORD_BYTES", "Refused", "inside", "kind_of", "read_regular"]

# Real records are a few KB; the hostile-text inputs every renderer must survive reach 12.5 MB
# (cmark-gfm's pathological "backticks"), so the cap sits above them and far below what would
# exhaust memory.
MAX_RECORD_BYTES = 16 * 1024 * 1024


class Refused(InputError):
    """A file that is not read: `reason` says why, in words that follow the file's name."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def inside(path: str | Path, root: str | Path) -> bool:
    """True when `path`, with every symlink on the way resolved, lies inside `root` (itself
    resolved). A dangling link or a loop resolves to where it points, which is checked too."""
    real = os.path.realpath(path)
    base = os.path.realpath(root)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def kind_of(mode: int) -> str:
    """What a file of `st_mode` is, in words, for messages about files that are not regular."""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def read_regular(path: str | Path, limit: int, root: str | Path | None = None) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them.

    Raises Refused when the file resolves outside `root` (when given), is not a regular file
    (FIFOs and devices are never opened for a blocking read), is larger than `limit`, or
    cannot be opened at all (missing, a dangling link, a link loop, no permission).
    """
    if root is not None and not inside(path, root):
        raise Refused(f"is a symlink to {os.path.realpath(path)}, outside {root}")
    try:
        # O_NONBLOCK: a FIFO swapped in after the caller's stat must not hang the open.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise Refused(_why(exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused(f"is {kind_of(info.st_mode)}, not a file")
        if info.st_size > limit:
            raise Refused(f"is {info.st_size:,} bytes, more than the {limit:,} a file may hold")
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:  # it grew while being read
            raise Refused(f"is more than the {limit:,} bytes a file may hold")
        return data
    finally:
        os.close(fd)


def _why(exc: OSError) -> str:
    """An OSError in words that follow the file's name."""
    if isinstance(exc, FileNotFoundError):
        return "does not exist (or is a symlink to nothing)"
    if exc.errno is not None and exc.strerror:
        return f"cannot be read ({exc.strerror.lower()})"
    return f"cannot be read ({exc})"
