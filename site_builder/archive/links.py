"""Links in record bodies: finding them, and resolving relative ones to records or files.

`check` reports links to missing records, the build rewrites links between source files to
page URLs, and both resolve a link the same way, here.
"""

from __future__ import annotations

import html
import os
import re
import sys
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from pathlib import Path
from urllib.parse import unquote, urlsplit

from site_builder.base.confined import inside
from site_builder.base.kept import rebuilt_by_init
from site_builder.text import gfm

# In cmark-gfm's HTML with source positions: where a link or image tag starts (the renderer's
# own, or raw HTML as the author wrote it), its target, and the first and last line of a block.
# A tag ends at the next `>`; one left open runs to the end, where the scan stops (possessive,
# so no start is ever read twice, however garbled raw HTML blocks are).
_LINK_TAG = re.compile(r"<(?:a|img)\b[^>]*+(?:>|\Z)", re.IGNORECASE)
_TARGET = re.compile(r"""\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""",
                     re.IGNORECASE)
_SOURCEPOS_ATTRIBUTE = 'data-sourcepos="'
_SOURCEPOS = re.compile(r'data-sourcepos="(\d+):\d+-(\d+):\d+"')
# Searches for where a link was written that may fail, per body: each failure reads to the
# end of its block, so a hostile body of unfindable links stays linear.
_MISSES = 64


@rebuilt_by_init
@dataclass(frozen=True, slots=True)
class BodyLink:
    """A link target as written in a body, and its 1-based line within the body."""

    target: str
    line: int


@lru_cache(maxsize=16384)
def body_links(body: str) -> tuple[BodyLink, ...]:
    """Every link and image of `body` as cmark-gfm parses it (the parse the build renders),
    with raw HTML `href`/`src`: never inside code, references resolved, targets as the
    renderer writes them (`%20` for a space, which `split_target` decodes).

    Each is placed at the line where its target is written, looked for from the start of the
    block cmark-gfm reports it in (a reference link: from the top, where it is defined).
    Linear in the length of `body`. Cached by body: a reloaded archive keeps its unchanged
    records, and with them the same body strings, whose hash Python keeps.
    """
    if "](" not in body and "]:" not in body and "<" not in body:
        return ()
    rendered = gfm.to_html(body, sourcepos=True)
    if "<a" not in rendered and "<img" not in rendered and "<A" not in rendered:
        return ()
    return tuple(_Placer(body).links(rendered))


class _Placer:
    """Finds the line each link of one body was written on."""

    def __init__(self, body: str) -> None:
        self.body = body
        self.starts = [0, *accumulate(len(line) + 1 for line in body.split("\n"))]
        self.misses = 0

    def links(self, rendered: str) -> Iterator[BodyLink]:
        end, at = len(self.body), 0
        looked = 0  # the block of every link before this offset of `rendered` is known
        for tag in _LINK_TAG.finditer(rendered):
            start = tag.start()
            match = _TARGET.search(tag.group(0))
            written = (match.group(1) or match.group(2) or match.group(3)) if match else None
            if not written:
                continue  # `[a]()`, or `<a>` without a target: nothing to check or rewrite
            # The block a link is in: the last source position written before it, looked for
            # only since the previous link (so the whole scan reads `rendered` once).
            block = rendered.rfind(_SOURCEPOS_ATTRIBUTE, looked, start)
            looked = start
            if block >= 0 and (position := _SOURCEPOS.match(rendered, block)) is not None:
                at = self.starts[int(position.group(1)) - 1]
                end = self.starts[min(int(position.group(2)), len(self.starts) - 1)]
            target = html.unescape(written)
            if not target:
                continue
            found = self._find(target, at, end)
            if found is None and self.misses < _MISSES:
                found = self._find(target, 0, len(self.body))  # a reference definition
            # Interned: an archive's links lead to few targets (482 among 54,917 links in
            # the bench's 10,000 records), and every record holds its links from the load.
            if found is None:
                yield BodyLink(sys.intern(target), bisect_right(self.starts, at))
                continue
            written, offset = found
            if at <= offset < end:
                at = offset + 1
            yield BodyLink(sys.intern(written), bisect_right(self.starts, offset))

    def _find(self, target: str, start: int, end: int) -> tuple[str, int] | None:
        """The target as written (percent-encoded or not) and its offset in the body."""
        if self.misses >= _MISSES:
            return None
        for written in dict.fromkeys((target, unquote(target))):
            found = self.body.find(written, start, end)
            if found >= 0:
                return written, found
        self.misses += 1
        return None


def is_local(target: str) -> bool:
    """True for a relative link to another file (not a URL, an anchor or a site-absolute path)."""
    parts = urlsplit(target)
    return not (parts.scheme or parts.netloc or target.startswith(("#", "/", "?")))


def split_target(target: str) -> tuple[str, str]:
    """`../x.md#part` → (`../x.md`, `#part`); the path is URL-decoded."""
    parts = urlsplit(target)
    fragment = f"#{parts.fragment}" if parts.fragment else ""
    query = f"?{parts.query}" if parts.query else ""
    return unquote(parts.path), query + fragment


def local_path(source: Path, target: str) -> Path:
    """The file a relative link in `source` points at (normalised, not resolved on disk)."""
    path, _ = split_target(target)
    return Path(os.path.normpath(source.parent / path))


def record_paths(path: Path) -> tuple[Path, ...]:
    """The files a link to `path` may name a record by: the path itself and, when it has no
    extension (`./0004-release-captain`), the same with `.md`, as GitHub's readers expect."""
    if path.suffix and path.suffix[1:].isalpha() and len(path.suffix) <= 9:
        return (path,)
    return (path, path.with_name(path.name + ".md"))


def content_root(record_path: Path, root: Path | None = None) -> Path:
    """The content folder a record file was loaded from: `root` when the record has one (a
    flat folder in another tool's format), else `<root>/<project>/<type>/<file>`'s root."""
    return root if root is not None else record_path.parents[2]


def escapes(path: Path, root: Path) -> bool:
    """True when `path` is written inside `root` but leads outside it through a symlink: a
    file that must never be read or published."""
    return path.is_relative_to(root) and os.path.lexists(path) and not inside(path, root)


def attachment(path: Path, root: Path) -> str | None:
    """Where the file at `path` is published, relative to its content folder `root`, or None
    when it is not published: a record source, outside the folder (symlinks resolved), under
    a dot-folder, or not a regular file."""
    try:
        rel = path.relative_to(root)
    except ValueError:
        return None
    if path.suffix == ".md" or any(part.startswith(".") for part in rel.parts):
        return None
    if not path.is_file() or not inside(path, root):  # is_file: regular, links followed
        return None
    return rel.as_posix()
