"""Values from the archive made safe to write into the Markdown that agents read.

AGENTS.md, llms.txt and llms-full.txt are read by agents as instructions, so a site title, a
project's name or description, or a record's title, description or tags (all written by
whoever opens a pull request) must not be able to add a heading, a list item or a link of
their own. Every such value is written on one line, with the characters that could open a
link (`[`, `]`, `<`), a code span (`` ` ``), an escape (`\\`) or an entity as HTML character
references, which CommonMark and llms.txt readers show as the characters themselves; a value
that starts a line has its first character escaped the same way when it could open a block
(`#`, `-`, `>`, `1.`, a fence, a thematic break, a table row). Emphasis is left alone: it
opens nothing.
"""

from __future__ import annotations

import re

__all__ = ["code", "inline", "line_start", "one_line"]

_ENTITY_LIKE = re.compile(r"&(?=#|[A-Za-z0-9]+;)")
_OPENERS = re.compile(r"[\[\]<`\\]")
_BLOCK_START = re.compile(r"[#>*+=|~`_:-]|\d{1,9}[.)]")
# C0 and C1 controls but those str.split() takes for whitespace (tab, line breaks, \x1c-\x1f).
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f-\x9f]")


def _reference(match: re.Match[str]) -> str:
    return f"&#{ord(match.group()[0])};"


def one_line(text: str) -> str:
    """`text` with every run of whitespace (line breaks included) as one space, trimmed, and
    without control characters: invisible to a reader, and Markdown renderers drop some of
    them (Python-Markdown the two it uses as placeholders), so `\x03>` became a quote."""
    return " ".join(_CONTROL.sub("", text).split())


def inline(text: str) -> str:
    """`text` on one line, unable to open a link, an image, an autolink, HTML or a code span
    (returns the escaped text)."""
    flat = _ENTITY_LIKE.sub("&amp;", one_line(text))
    return _OPENERS.sub(_reference, flat)


def line_start(text: str) -> str:
    """`inline(text)` for a value written at the start of a line: also unable to open a
    heading, a list item, a quote, a fence, a thematic break or a table row."""
    flat = inline(text)
    found = _BLOCK_START.match(flat)
    if found is None:
        return flat
    return f"&#{ord(flat[0])};{flat[1:]}"


def code(text: str) -> str:
    """`text` as a code span: one line, inside backticks it cannot close (a backtick in the
    text becomes `'`; character references are not read inside code)."""
    return f"`{one_line(text).replace('`', chr(39))}`"
