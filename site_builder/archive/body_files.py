"""A record file's text: its front matter split from its body, and bodies left in the files.

`split_front_matter` is the one split of a record's text (records.py re-exports it).

A build of 100,000 records held 540 MB of bodies from the load to its end; read again when
asked for (a few times per build, from the page cache: some 15 µs a file), they cost nothing
to hold. The loader leaves bodies on disk only for a caller that reads the archive once
(`LoaderCache.bodies_on_disk`).
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field

from site_builder.archive.links import BodyLink
from site_builder.base.kept import rebuilt_by_init
from site_builder.errors import InputError


class RecordChanged(InputError):
    """A record file whose body was left on disk changed after the loader read it."""


@rebuilt_by_init
@dataclass(frozen=True, slots=True)
class BodyFile:
    """Where the body of a record is: its file, as the loader read it (`stamp`: size and
    mtime in ns; the two say which body this is), and the links the body holds, found when
    a one-off load read it (every check and the render-cache key ask for them). A
    long-lived process holds the body as well (`text`: files may change under the archive
    it answers from), read with the record or, for a parse recalled from the last run, when
    first read (`hold_when_read`), and finds its links when asked (`links` None)."""

    path: str
    # Not shown: what the build's increment digests of a record is its repr, and a fresh
    # checkout (CI) gives the same files new mtimes.
    stamp: tuple[int, int] = field(repr=False)
    links: tuple[BodyLink, ...] | None = field(compare=False, repr=False)
    text: str | None = field(default=None, compare=False, repr=False)
    held_when_read: bool = field(default=False, compare=False, repr=False)
    digest: bytes = field(default=b"", compare=False, repr=False)
    """A digest of the file's bytes as parsed (`file_digest`), b"" when unknown."""
    body_digest: bytes = field(default=b"", compare=False, repr=False)
    """A digest of the body alone (`body_digest`), b"" when unknown: the render cache knows
    a body by it without reading the file."""

    def read(self) -> str:
        """The body as the loader read it. Raises RecordChanged when it is not held and the
        file is no longer the one read (its size or mtime differ), or is gone."""
        if self.text is not None:
            return self.text
        text = self._read()
        if self.held_when_read:
            object.__setattr__(self, "text", text)
        return text

    def hold_when_read(self) -> None:
        """Hold the body from its first read on (a flag of this object's cache, as `hold`
        fills it: nothing it compares or shows changes)."""
        object.__setattr__(self, "held_when_read", True)

    def _read(self) -> str:
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError as error:
            raise self._changed(f"cannot be read any more ({error.strerror})") from None
        try:
            info = os.fstat(fd)
            if (info.st_size, info.st_mtime_ns) != self.stamp:
                raise self._changed("changed")
            chunks, left = [], info.st_size + 1
            while left > 0 and (chunk := os.read(fd, left)):
                chunks.append(chunk)
                left -= len(chunk)
        finally:
            os.close(fd)
        data = b"".join(chunks)
        if len(data) != info.st_size:
            raise self._changed("changed")
        return split_front_matter(decoded(data))[1]

    def _changed(self, what: str) -> RecordChanged:
        return RecordChanged(f"{self.path} {what} after it was loaded; run the command again")


def body_digest(body: str) -> bytes:
    """A digest of a body's text (BLAKE2b, 16 bytes)."""
    return hashlib.blake2b(body.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def file_digest(data: bytes) -> bytes:
    """The digest by which a record file's bytes are known again (16 bytes of BLAKE2b)."""
    return hashlib.blake2b(data, digest_size=16).digest()


def decoded(data: bytes) -> str:
    """A record file's bytes as text, its line ends `\n` as in text mode. Raises
    UnicodeDecodeError for bytes that are not UTF-8."""
    text = data.decode("utf-8")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text



# The line closing the front matter, found from the line break before it (a literal to scan
# for, which is much faster than a `^` anchor on every position).
_FRONT_END = re.compile(r"\n(?:---|\.\.\.)[ \t]*\r?(?=\n|$)")


def split_front_matter(text: str) -> tuple[str | None, str, int]:
    """Split `---` front matter from the body.

    Returns (front matter text or None when there is none, body, line where the body starts).
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return None, text, 1
    start = text.index("\n") + 1
    match = _FRONT_END.search(text, start - 1)
    if not match:
        return None, text, 1
    front = text[start:match.start() + 1]
    end = text.find("\n", match.end())
    body = "" if end == -1 else text[end + 1:]
    body_line = text.count("\n", 0, end) + 2 if end != -1 else text.count("\n") + 2
    return front, body, body_line
