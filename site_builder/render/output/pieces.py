"""Files made of pieces, each piece copied from the last build's output when it cannot differ.

decisions.json and llms-full.txt hold one piece per record (8.5 and 57 MB at 10,000 records),
and any edit changes them, so an incremental build made both whole again: every record's data
dumped, every body read, the old file read back to compare, 66 MB written. Made as `Pieces`,
each piece says which record decides its bytes; the writer remembers where each piece lay in
the file it wrote (a `Layout`), and the next build copies every piece whose record is
unchanged from the old file (`copy_file_range`: the kernel copies, nothing passes through
Python) and makes only the rest. A piece made again is compared with its old bytes, so a file
whose pieces all come out the same is seen to be unchanged and left as it is (build/adr/0042).

A writer that knows nothing of pieces (serve's memory) reads a `Pieces` as the iterable of
bytes chunks it is. Used by the writer process's modules, so this imports only the standard
library.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

# A piece's key → (offset, length) in the file as written.
Layout = dict[str, tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Piece:
    """Part of a file: `key` names it (unique in its file), `record` is the id of the record
    whose digest decides its bytes (None: made every time) and `make` makes them."""

    key: str
    record: str | None
    make: Callable[[], bytes]


class Pieces:
    """A file as its pieces, in order; iterating it makes each piece's bytes."""

    def __init__(self, pieces: Iterable[Piece]) -> None:
        self._pieces = pieces

    def __iter__(self) -> Iterator[bytes]:
        for piece in self._pieces:
            yield piece.make()

    def pieces(self) -> Iterable[Piece]:
        return self._pieces


@dataclass(frozen=True, slots=True)
class Spliced:
    """What `splice` wrote: where each piece lies, and whether the file is the old one's
    bytes exactly (every piece copied, in the old order, and nothing else)."""

    layout: Layout
    same: bool


def splice(file: Pieces, target: int, old: int | None, before: Mapping[str, tuple[int, int]],
           unchanged: Callable[[str], bool]) -> Spliced:
    """Write `file` to the open file `target`: each piece laid out `before` in the `old` file
    (the last build's, open) whose record is `unchanged` is copied from there, every other
    piece is made, and one made the same as its old bytes counts as copied. Raises OSError."""
    if old is not None and not _tiles(before, os.fstat(old).st_size):
        old = None  # a layout that is not the old file's: nothing is copied from it
    copier = _Copier(target, old)
    layout: Layout = {}
    same = old is not None
    at = 0  # where the old file's next byte would come from, were it the same
    for piece in file.pieces():
        where = before.get(piece.key) if old is not None else None
        data = None
        if where is not None and (piece.record is None or not unchanged(piece.record)):
            data = piece.make()
            if len(data) != where[1] or copier.old_bytes(where) != data:
                where = None
        if where is None:
            data = piece.make() if data is None else data
            layout[piece.key] = (copier.offset, len(data))
            copier.write(data)
            same = False
        else:
            layout[piece.key] = (copier.offset, where[1])
            copier.copy(where)
            same = same and where[0] == at
            at = where[0] + where[1]
    copier.finish()
    return Spliced(layout, same and old is not None and at == os.fstat(old).st_size)


def _tiles(layout: Mapping[str, tuple[int, int]], size: int) -> bool:
    """True when the pieces of `layout` lie end to end from the start of a file of `size`
    bytes to its end, as the layout of the file written is."""
    at = 0
    for start, length in sorted(layout.values()):
        if start != at or length < 0:
            return False
        at += length
    return at == size


# Made bytes are written out once this many are held.
_BUFFER = 1 << 20
# Linux's in-kernel copy; elsewhere, and where a file system refuses it, bytes are copied here.
_COPY_FILE_RANGE = getattr(os, "copy_file_range", None)


class _Copier:
    """Writes made bytes and copied ranges of `old` to `target` (open files), each run of
    adjacent ranges as one copy."""

    def __init__(self, target: int, old: int | None) -> None:
        self.target = target
        self.old = old
        self.offset = 0  # bytes of the new file so far
        self._held: list[bytes] = []
        self._held_bytes = 0
        self._start = 0  # the pending run of old bytes to copy
        self._length = 0

    def old_bytes(self, where: tuple[int, int]) -> bytes:
        assert self.old is not None
        return os.pread(self.old, where[1], where[0])

    def write(self, data: bytes) -> None:
        self._copy_pending()
        self._held.append(data)
        self._held_bytes += len(data)
        self.offset += len(data)
        if self._held_bytes >= _BUFFER:
            self._write_held()

    def copy(self, where: tuple[int, int]) -> None:
        start, length = where
        self._write_held()
        if self._length and self._start + self._length == start:
            self._length += length
        else:
            self._copy_pending()
            self._start, self._length = start, length
        self.offset += length

    def finish(self) -> None:
        self._copy_pending()
        self._write_held()

    def _write_held(self) -> None:
        if self._held:
            _write_all(self.target, b"".join(self._held))
            self._held, self._held_bytes = [], 0

    def _copy_pending(self) -> None:
        start, length = self._start, self._length
        self._length = 0
        while length:
            assert self.old is not None
            try:
                done = (0 if _COPY_FILE_RANGE is None
                        else _COPY_FILE_RANGE(self.old, self.target, length, start))
            except OSError as error:
                if error.errno not in (errno.EXDEV, errno.ENOSYS, errno.EINVAL,
                                       errno.EOPNOTSUPP):
                    raise
                done = 0
            if done == 0:  # refused, or the old file is shorter than it was: copy by hand
                data = os.pread(self.old, length, start)
                if len(data) != length:
                    raise OSError(errno.EIO, "the previous output changed while it was read")
                _write_all(self.target, data)
                done = length
            start += done
            length -= done


def _write_all(target: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(target, view):]


def splice_file(file: Pieces, staged: str, previous: str, before: Mapping[str, tuple[int, int]],
                unchanged: Callable[[str], bool]) -> Spliced:
    """`splice` from the file at `previous` (the old output's, or none there) into a new
    file at `staged`. Raises OSError, naming `staged` when it cannot be written."""
    try:
        old: int | None = os.open(previous, os.O_RDONLY)
    except OSError:
        old = None
    try:
        target = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        try:
            return splice(file, target, old, before, unchanged)
        finally:
            os.close(target)
    finally:
        if old is not None:
            os.close(old)


def laid_out(file: Pieces, layout: Layout) -> Iterator[bytes]:
    """Every piece of `file` made, in order, each noted in `layout` as it is."""
    offset = 0
    for piece in file.pieces():
        data = piece.make()
        layout[piece.key] = (offset, len(data))
        offset += len(data)
        yield data
