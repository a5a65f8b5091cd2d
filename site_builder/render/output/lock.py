"""`build_lock`: one build of an archive at a time.

Two builds of one archive at once would compare against, stage beside and commit into the
same output, and write the same stamp. The lock is an advisory `flock` on
`.site-builder/build.lock`, released by the kernel when the holder exits however it exits, so
a killed build never leaves it held. The holder writes its process id into the file, so that
the one waiting can say whom it waits for.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: builds are not serialised
    fcntl = None  # type: ignore[assignment]

LOCK_FILE = "build.lock"


@contextlib.contextmanager
def build_lock(cache_dir: Path, waiting: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the build lock of the archive whose cache folder is `cache_dir` while the block
    runs. When another process holds it, calls `waiting(message)` once (the message names
    the holder and the lock file) and waits for it. Raises OSError when the lock file cannot
    be created."""
    if fcntl is None:
        yield
        return
    cache_dir.mkdir(parents=True, exist_ok=True)
    path = cache_dir / LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                waiting(f"another build (process {_holder(fd)}) holds {path}; waiting for "
                        "it to finish")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


def _holder(fd: int) -> str:
    text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    return text if text.isdigit() else "unknown"
