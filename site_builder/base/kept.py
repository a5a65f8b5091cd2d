"""A cache file of plain objects that outlives the process, and makes nothing but them.

The loader keeps its parses of an archive's record files here between runs
(`archive/loader.py`), so that a build after a one-line edit parses one file, not 10,000.
The file is a pickle, the fastest way back to Python objects measured here: the records
of a 10,000-record archive come back in 0.23 s, against 0.45 s for JSON with every object
rebuilt by hand (and a second statement of every field to keep in step), and 4.1 s to parse
the files and 4.9 s to scan the bodies' links (profiled). A pickle can name any callable,
and a CI cache is not a place to trust, so reading one builds only the classes its caller
lists (`KeptFile.allowed`): a file naming anything else is a miss, like one that is
truncated, in another format or made by another version of the code, and the caller starts
from nothing.

`rebuilt_by_init` makes a dataclass pickle as a call of its constructor with its fields,
which unpickles in half the time of the setstate that frozen slotted dataclasses get by
default, and leaves out what is derived (`init=False` fields, such as compiled globs).
"""

from __future__ import annotations

import hashlib
import io
import operator
import os
import pickle
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["KeptFile", "digest", "rebuilt_by_init"]

T = TypeVar("T")
_MAGIC = b"site-builder kept 1\n"


def rebuilt_by_init(cls: type[T]) -> type[T]:
    """Give the dataclass `cls` a `__reduce__` that rebuilds it with its constructor from
    the fields it takes (apply above `@dataclass`)."""
    names = tuple(item.name for item in fields(cls) if item.init)  # type: ignore[arg-type]
    get: Callable[[Any], Any] = operator.attrgetter(*names)
    if len(names) == 1:
        def __reduce__(self: Any) -> tuple[Any, tuple[Any, ...]]:
            return cls, (get(self),)
    else:
        def __reduce__(self: Any) -> tuple[Any, tuple[Any, ...]]:
            return cls, get(self)
    cls.__reduce__ = __reduce__  # type: ignore[method-assign]
    return cls


class _Restricted(pickle.Unpickler):
    """An unpickler that finds only the classes it was given."""

    def __init__(self, data: bytes, allowed: dict[tuple[str, str], type]) -> None:
        super().__init__(io.BytesIO(data))
        self.allowed = allowed

    def find_class(self, module: str, name: str) -> Any:
        found = self.allowed.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not kept here")
        return found


@dataclass(frozen=True)
class KeptFile:
    """One cache file: `path`, valid for `key` (a digest of everything its contents depend
    on besides what its caller checks itself), building only `allowed` classes."""

    path: Path
    key: str
    allowed: tuple[type, ...]

    def read(self) -> Any | None:
        """What `write` kept, or None when the file is missing, unreadable, for another
        key, or names anything it may not build."""
        try:
            data = self.path.read_bytes()
        except OSError:
            return None
        head = _MAGIC + self.key.encode() + b"\n"
        if not data.startswith(head):
            return None
        body = memoryview(data)[len(head):]
        if hashlib.sha256(body[32:]).digest() != body[:32]:
            return None
        allowed = {(kind.__module__, kind.__qualname__): kind for kind in self.allowed}
        try:
            return _Restricted(bytes(body[32:]), allowed).load()
        except Exception:
            return None

    def write(self, value: Any) -> bool:
        """Keep `value`, replacing the file in one step (a reader sees the old file or the
        new one); False, and nothing changed, when it cannot be written."""
        try:
            data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            return False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, partial = tempfile.mkstemp(prefix=f".{self.path.name}.",
                                               dir=self.path.parent)
        except OSError:
            return False
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(_MAGIC + self.key.encode() + b"\n")
                out.write(hashlib.sha256(data).digest())
                out.write(data)
            os.replace(partial, self.path)
        except OSError:
            Path(partial).unlink(missing_ok=True)
            return False
        return True


def digest(parts: Iterable[str]) -> str:
    """A key made of `parts`."""
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
