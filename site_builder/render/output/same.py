"""Whether the previous output already holds the bytes a build writes to a file.

A file whose bytes are the same is not staged: the old one stays, with its mtime (writer.py).
"""

from __future__ import annotations

import stat
from pathlib import Path


def same_bytes(path: Path, content: bytes) -> bool:
    """True when `path` is a regular file (not a link to one) holding `content`."""
    try:
        status = path.lstat()
        if not stat.S_ISREG(status.st_mode) or status.st_size != len(content):
            return False
        return path.read_bytes() == content
    except OSError:
        return False


def same_file_bytes(path: Path, source: Path) -> bool:
    """True when `path` is a regular file (not a link to one) holding what `source` holds."""
    try:
        status = path.lstat()
        if not stat.S_ISREG(status.st_mode) or status.st_size != source.stat().st_size:
            return False
        return path.read_bytes() == source.read_bytes()
    except OSError:
        return False
