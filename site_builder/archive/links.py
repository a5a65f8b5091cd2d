"""Links in record bodies: finding them, and resolving relative ones to records or files.

`check` reports links to missing records, the build rewrites links between source files to
page URLs, and both resolve a link the same way, here.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from site_builder.confined import inside

# A line opening or closing a fence: up to three spaces, then ``` or ~~~ (or more). The `\n`
# before it gives the pattern a literal to scan for; the first line is tried on its own.
_FENCE_LINE = re.compile(r"\n[ ]{0,3}(`{3,}|~{3,})")
_FENCE_FIRST = re.compile(r"[ ]{0,3}(`{3,}|~{3,})")
_BACKTICKS = re.compile(r"`+")
# An inline link or image on one line (starting with a literal `[` keeps the scan fast), and a
# reference definition `[label]: target` (`[^1]: text` is a footnote, not a link).
# The target is group 1 when written in <angle brackets> (which allow spaces), else group 2.
_INLINE_LINK = re.compile(
    r"\[(?:[^\]\\\n]|\\.)*\]\([ \t]*(?:<([^>\n]+)>|([^)\s<>]+))(?:[ \t]+[\"'(][^)\n]*)?[ \t]*\)")
_REF_DEF = re.compile(r"^[ \t]{0,3}\[(?!\^)[^\]\n]+\]:[ \t]*(?:<([^>\n]+)>|([^\s<>]+))(?:[ \t]|$)",
                      re.MULTILINE)
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")


@dataclass(frozen=True, slots=True)
class BodyLink:
    """A link target as written in a body, and its 1-based line within the body."""

    target: str
    line: int


@lru_cache(maxsize=16384)
def body_links(body: str) -> tuple[BodyLink, ...]:
    """Every inline link, image and reference definition outside code blocks and code spans.

    One regular expression finds the candidates in the whole body; only the lines that hold
    one are then looked at. Cached by body: a reloaded archive keeps its unchanged records,
    and with them the same body strings, whose hash Python keeps, so asking again is free.
    """
    if "](" not in body and "]:" not in body:
        return ()
    matches = list(_INLINE_LINK.finditer(body))
    if "]:" in body:
        matches = sorted([*matches, *_REF_DEF.finditer(body)], key=lambda m: m.start())
    if not matches:
        return ()
    fences = _fences(body) if ("```" in body or "~~~" in body) else []
    found: list[BodyLink] = []
    line, counted = 1, 0
    for match in matches:
        at = match.start()
        line += body.count("\n", counted, at)
        counted = at
        start = body.rfind("\n", 0, at) + 1
        if (_inside_any(fences, at) or _in_code_span(body, start, at)
                or _indented_code(body, start, line)):
            continue
        found.append(BodyLink(match.group(1) or match.group(2), line))
    return tuple(found)


def _fences(body: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of fenced code blocks, fence lines included."""
    openers = list(_FENCE_LINE.finditer(body))
    first = _FENCE_FIRST.match(body)
    runs = [(first.start(1), first.group(1))] if first else []
    runs += [(m.start(1), m.group(1)) for m in openers]
    blocks: list[tuple[int, int]] = []
    fence: str | None = None
    opened = 0
    for at, marker in runs:
        if fence is None:
            fence, opened = marker[0] * len(marker), at
        elif marker.startswith(fence):
            end = body.find("\n", at)
            blocks.append((opened, len(body) if end == -1 else end))
            fence = None
    if fence is not None:  # an unclosed fence runs to the end
        blocks.append((opened, len(body)))
    return blocks


def _inside_any(blocks: list[tuple[int, int]], at: int) -> bool:
    return any(start <= at <= end for start, end in blocks)


def _in_code_span(body: str, start: int, at: int) -> bool:
    """True when offset `at` lies inside a `code span` of the line starting at `start`."""
    end = body.find("\n", at)
    text = body[start:] if end == -1 else body[start:end]
    if "`" not in text:
        return False
    column = at - start
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(text)]
    index = 0
    while index < len(runs):
        opening = runs[index]
        width = opening[1] - opening[0]
        closing = next((j for j in range(index + 1, len(runs))
                        if runs[j][1] - runs[j][0] == width), None)
        if closing is None:  # an unmatched run is literal backticks
            index += 1
            continue
        if opening[0] <= column < runs[closing][1]:
            return True
        index = closing + 1
    return False


def _indented_code(body: str, start: int, line: int) -> bool:
    """True when the line starting at offset `start` (line number `line`) is indented code.

    A line indented by four spaces or a tab is code unless it continues a paragraph or
    belongs to a list item (nested list content is indented the same way).
    """
    if not body.startswith(("    ", "\t"), start):
        return False
    lines = body.split("\n", line - 1)[:line - 1]
    blank_between = False
    for above in reversed(lines):
        if not above.strip():
            blank_between = True
            continue
        if above.startswith(("    ", "\t")):
            continue
        if _LIST_ITEM.match(above):
            return False
        return blank_between or above.lstrip().startswith(("#", "```", "~~~"))
    return True


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
