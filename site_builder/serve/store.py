"""The preview's files, in memory: `serve` never writes the site to disk.

Nothing to clean up when it stops (or is killed), nothing that could end up in the `build`
output, and no cost for the thousands of small files a large archive has. Text files are
kept gzip-compressed, which makes a 10,000-record site fit in about a hundred megabytes; a
browser that accepts gzip gets them as they are.

A full rebuild writes into a `StagedSite` (the build's `SiteWriter`), which replaces every
file at once on `commit`; an edit replaces single files with `put`. Requests read from other
threads; a dict lookup and a reference swap are atomic, so a request sees a file either as it
was or as it is, never half of it.
"""

from __future__ import annotations

import posixpath
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

# Text worth compressing: everything a site is mostly made of.
_COMPRESSIBLE = frozenset({".html", ".md", ".txt", ".json", ".xml", ".css", ".js", ".svg",
                           ".csv", ".map"})
_SMALL = 512  # below this, compression saves too little to matter


@dataclass(frozen=True, slots=True)
class Stored:
    """One file: its bytes, gzip-compressed when `gzipped`."""

    data: bytes
    gzipped: bool

    @classmethod
    def of(cls, rel: str, content: bytes) -> Stored:
        """`content` of site path `rel`, compressed when that pays."""
        if len(content) >= _SMALL and posixpath.splitext(rel)[1] in _COMPRESSIBLE:
            # Level 1 with a fixed (zero) header: fast, and the same bytes for the same text,
            # so `put` can compare files without decompressing them.
            packer = zlib.compressobj(1, zlib.DEFLATED, 31)
            packed = packer.compress(content) + packer.flush()
            if len(packed) < len(content) * 0.9:
                return cls(packed, True)
        return cls(content, False)

    def content(self) -> bytes:
        """The file's bytes as written."""
        return zlib.decompress(self.data, 31) if self.gzipped else self.data


def _bytes(data: str | bytes | Iterable[bytes]) -> bytes:
    """What a writer is given, as bytes: str as UTF-8, a stream of chunks joined."""
    if isinstance(data, str):
        return data.encode("utf-8")
    if isinstance(data, bytes):
        return data
    return b"".join(data)


def _check(rel: str) -> str:
    clean = posixpath.normpath(rel)
    if not rel or clean != rel or clean.startswith(("/", "..")) or "\\" in rel:
        raise ValueError(f"not a file path inside the site: {rel!r}")
    return rel


class SiteStore:
    """Site path → file, for the preview server."""

    def __init__(self) -> None:
        self._files: dict[str, Stored] = {}

    # ---- reading (any thread) ---------------------------------------------------------------

    def get(self, rel: str) -> Stored | None:
        """The file at site path `rel`, or None."""
        return self._files.get(rel)

    def is_folder(self, rel: str) -> bool:
        """True when `rel` is a folder with an index page (`rel/index.html`)."""
        return f"{rel.rstrip('/')}/index.html" in self._files

    def below(self, folder: str) -> set[str]:
        """Site paths of every file below `folder`."""
        prefix = f"{folder.rstrip('/')}/"
        return {rel for rel in self._files if rel.startswith(prefix)}

    def html_pages(self) -> set[str]:
        """Site paths of every HTML page (what the sitemap lists)."""
        return {rel for rel in self._files if rel.endswith(".html")}

    def __len__(self) -> int:
        return len(self._files)

    # ---- writing (the rebuild loop only) ----------------------------------------------------

    def put(self, rel: str, data: str | bytes | Iterable[bytes]) -> bool:
        """Set site path `rel` to `data` (str as UTF-8, or a stream of chunks). Returns
        False, changing nothing, when the file already holds exactly these bytes."""
        new = Stored.of(_check(rel), _bytes(data))
        if self._files.get(rel) == new:
            return False
        self._files[rel] = new
        return True

    def exists(self, rel: str) -> bool:
        return rel in self._files

    def write(self, rel: str, data: str | bytes | Iterable[bytes]) -> None:
        """`put`, as a writer of the files an edited record links to (render.site's
        `copy_assets`)."""
        self.put(rel, data)

    def copy(self, rel: str, source: Path) -> None:
        """Set site path `rel` to the bytes of the file `source`. Raises OSError when it
        cannot be read."""
        self.put(rel, source.read_bytes())

    def delete(self, rel: str) -> bool:
        """Remove site path `rel`. Returns False when there was no such file."""
        return self._files.pop(rel, None) is not None

    def staged(self) -> StagedSite:
        """A writer for a full rebuild, which replaces every file when committed."""
        return StagedSite(self)

    def _replace(self, files: dict[str, Stored]) -> None:
        self._files = files


class StagedSite:
    """A full rebuild in progress (the build's `SiteWriter`): invisible until `commit`."""

    def __init__(self, store: SiteStore) -> None:
        self.store = store
        self.files: dict[str, Stored] = {}
        self.written: set[str] = set()
        self.changed: list[str] = []

    def exists(self, rel: str) -> bool:
        return rel in self.written

    def write(self, rel: str, data: str | bytes | Iterable[bytes]) -> None:
        """Stage site path `rel`. Raises ValueError for a path outside the site or written
        twice."""
        if rel in self.written:
            raise ValueError(f"{rel} is written twice in one build")
        new = Stored.of(_check(rel), _bytes(data))
        self.written.add(rel)
        if self.store.get(rel) != new:
            self.changed.append(rel)
        self.files[rel] = new

    def copy(self, rel: str, source: Path) -> None:
        """Stage site path `rel` as a copy of the file `source`. Raises OSError when it
        cannot be read."""
        self.write(rel, source.read_bytes())

    def commit(self) -> list[str]:
        """Replace every file of the store with the staged ones. Returns the site paths
        that changed: written with other bytes, new, or gone."""
        gone = [rel for rel in self.store._files if rel not in self.files]
        self.store._replace(self.files)
        return self.changed + gone
