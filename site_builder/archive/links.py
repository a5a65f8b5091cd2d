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

# Runs of three or more backticks or tildes; `_fenced_lines` keeps those that open a line.
# (Two patterns with a literal prefix each scan many times faster than one alternation.)
_FENCES = {"```": re.compile(r"```+"), "~~~": re.compile(r"~~~+")}
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
# An inline link or image on one line (starting with a literal `[` keeps the scan fast), and a
# reference definition `[label]: target`.
# The target is group 1 when written in <angle brackets> (which allow spaces), else group 2.
_INLINE_LINK = re.compile(
    r"\[(?:[^\]\\\n]|\\.)*\]\([ \t]*(?:<([^>\n]+)>|([^)\s<>]+))(?:[ \t]+[\"'(][^)\n]*)?[ \t]*\)")
_REF_DEF = re.compile(r"^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*(?:<([^>\n]+)>|([^\s<>]+))(?:[ \t]|$)",
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

    One regular expression finds the candidates in the whole body; only lines that hold one
    are then looked at. Cached by body: a reloaded archive keeps its unchanged records, and
    with them the same body strings, whose hash Python keeps, so asking again costs nothing.
    """
    if "](" not in body and "]:" not in body:
        return ()
    matches = list(_INLINE_LINK.finditer(body))
    if "]:" in body:
        matches = sorted([*matches, *_REF_DEF.finditer(body)], key=lambda m: m.start())
    if not matches:
        return ()
    lines = body.split("\n")
    fenced = _fenced_lines(body) if ("```" in body or "~~~" in body) else set()
    found: list[BodyLink] = []
    line, counted = 1, 0
    for match in matches:
        line += body.count("\n", counted, match.start())
        counted = match.start()
        text = lines[line - 1]
        if line in fenced or _in_code_span(text, match, body) or _indented_code(lines, line):
            continue
        found.append(BodyLink(match.group(1) or match.group(2), line))
    return tuple(found)


def _in_code_span(text: str, match: re.Match[str], body: str) -> bool:
    """True when the match starts inside a `code span` of its line."""
    if "`" not in text:
        return False
    column = match.start() - (body.rfind("\n", 0, match.start()) + 1)
    return any(span.start() <= column < span.end() for span in _CODE_SPAN.finditer(text))


def _indented_code(lines: list[str], line: int) -> bool:
    """True when `line` (1-based) is part of an indented code block.

    A line indented by four spaces or a tab is code unless it continues a paragraph or
    belongs to a list item (nested list content is indented the same way).
    """
    text = lines[line - 1]
    if not text.startswith(("    ", "\t")):
        return False
    blank_between = False
    for index in range(line - 2, -1, -1):
        above = lines[index]
        if not above.strip():
            blank_between = True
            continue
        if above.startswith(("    ", "\t")):
            continue
        if _LIST_ITEM.match(above):
            return False
        return blank_between or above.lstrip().startswith(("#", "```", "~~~"))
    return True


def _fenced_lines(body: str) -> set[int]:
    """Line numbers inside fenced code blocks, fences included."""
    inside: set[int] = set()
    fence: str | None = None
    opened, number, counted = 0, 1, 0
    runs = [m for marker, pattern in _FENCES.items() if marker in body
            for m in pattern.finditer(body)]
    for match in sorted(runs, key=lambda m: m.start()):
        line_start = body.rfind("\n", 0, match.start()) + 1
        if match.start() - line_start > 3 or body[line_start:match.start()].strip(" \t"):
            continue  # not at the start of its line: inline code, not a fence
        marker = match.group()
        number += body.count("\n", counted, match.start())
        counted = match.start()
        if fence is None:
            fence, opened = marker[0] * len(marker), number
        elif marker.startswith(fence):
            inside.update(range(opened, number + 1))
            fence = None
    if fence is not None:
        inside.update(range(opened, body.count("\n") + 2))
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
