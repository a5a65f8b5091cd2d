"""Swapping a whole staged site in with one system call: `renameat2(RENAME_EXCHANGE)`.

On Linux (3.15 and later, on ext4, tmpfs, XFS, Btrfs and most local file systems) two
folders can trade names atomically: every path a reader resolves lies in the old site before
the call and in the new one after it, never in a mix of both. The build stages the whole new
site (unchanged files hard-linked from the old one, so they keep their inode and mtime),
exchanges the two folders and keeps the old site as the next build's spare (`spare`) or
deletes it (build/adr/0037). Where the call is missing (another system, a C library without
renameat2, a file system that refuses the flag) or cannot apply (the output is a mount
point), `unavailable` says why, and the build commits through the journal instead.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys
from collections.abc import Callable
from pathlib import Path

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
# What a file system or kernel answers when it cannot exchange.
_CANNOT = {errno.EINVAL, errno.ENOSYS, errno.EPERM, errno.EXDEV, errno.EBUSY,
           errno.EOPNOTSUPP}

_Call = Callable[[bytes, bytes], int]


def _system_call() -> _Call | None:
    """renameat2 with RENAME_EXCHANGE from the C library (glibc 2.28 and later, musl); None
    outside Linux or where the library has no such function (the journal commits there)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None
    wrapper = getattr(libc, "renameat2", None)
    if wrapper is None:
        return None
    wrapper.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                        ctypes.c_uint)
    wrapper.restype = ctypes.c_int
    return lambda a, b: int(wrapper(_AT_FDCWD, a, _AT_FDCWD, b, _RENAME_EXCHANGE))


_CALL = _system_call()


def exchange(first: Path, second: Path) -> None:
    """Give `first` the name of `second` and `second` that of `first`, in one step. Raises
    OSError (naming `second`) when the system refuses, NotImplementedError where there is
    no such call."""
    if _CALL is None:
        raise NotImplementedError("renameat2 is not available here")
    if _CALL(os.fsencode(first), os.fsencode(second)) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), str(second))


def unavailable(target: Path, first: Path, second: Path) -> str | None:
    """None when a folder beside `target` can be exchanged with it; else why not, in a few
    words for `build --verbose`. Tries the call on `first` and `second`, two empty folders
    beside `target` this creates and removes: a file system that refuses the flag says so
    only when asked."""
    if _CALL is None:
        return "renameat2 is not available on this system"
    if os.path.ismount(target):
        return f"{target} is a mount point"
    try:
        first.mkdir()
        second.mkdir()
    except OSError as error:
        return f"cannot try an exchange beside {target}: {error.strerror}"
    try:
        exchange(first, second)
    except OSError as error:
        if error.errno not in _CANNOT:
            raise
        return f"the file system of {target} cannot exchange folders ({error.strerror})"
    finally:
        os.rmdir(first)
        os.rmdir(second)
    return None
