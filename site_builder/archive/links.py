"""Links in record bodies: finding them, and resolving relative ones to records or files.

`check` reports links to missing records, the build rewrites links between source files to
page URLs, and both resolve a link the same way, here.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_INLINE_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'(][^)]*)?\)")
# A reference definition; `[^1]: text` is a footnote, not a link.
_REF_DEF = re.compile(r"^[ \t]{0,3}\[(?!\^)[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")


@dataclass(frozen=True, slots=True)
class BodyLink:
    """A link target as written in a body, and its 1-based line within the body."""

    target: str
    line: int


def body_links(body: str) -> tuple[BodyLink, ...]:
    """Every inline link, image and reference definition outside code blocks and code spans."""
    if "](" not in body and "]:" not in body:
        return ()
    fenced = _fenced_lines(body) if ("```" in body or "~~~" in body) else set()
    found: list[BodyLink] = []
    for number, line in enumerate(body.splitlines(), start=1):
        if ("](" not in line and "]:" not in line) or number in fenced:
            continue
        if line.startswith(("    ", "\t")):
            continue
        text = _CODE_SPAN.sub("", line) if "`" in line else line
        found.extend(BodyLink(link.group(1), number) for link in _INLINE_LINK.finditer(text))
        ref = _REF_DEF.match(text)
        if ref:
            found.append(BodyLink(ref.group(1), number))
    return tuple(found)


def _fenced_lines(body: str) -> set[int]:
    """Line numbers inside fenced code blocks, fences included."""
    inside: set[int] = set()
    fence: str | None = None
    for number, line in enumerate(body.splitlines(), start=1):
        match = _FENCE.match(line) if ("`" in line or "~" in line) else None
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
            elif marker.startswith(fence):
                fence = None
                inside.add(number)
                continue
        if fence is not None:
            inside.add(number)
    return inside


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
