"""What is derived from an Archive once and dropped with it: the text index, the facets,
the names completion offers. One lock serves every memo, so taking an index over from an
archive's predecessor (`textindex.follow`) and making one never race."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import TypeVar

from site_builder.archive.archive import Archive

__all__ = ["MEMO_LOCK", "memoised"]

_Made = TypeVar("_Made")
MEMO_LOCK = threading.Lock()


def memoised(memo: weakref.WeakKeyDictionary[Archive, _Made], archive: Archive,
             make: Callable[[Archive], _Made]) -> _Made:
    """`memo[archive]`, made by `make(archive)` on first use (thread-safe); entries go
    with their Archive."""
    with MEMO_LOCK:
        made = memo.get(archive)
        if made is None:
            made = memo[archive] = make(archive)
        return made
