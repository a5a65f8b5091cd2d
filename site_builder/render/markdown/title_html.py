"""Titles with inline code: `` Use `--input` `` shows `--input` as code on HTML pages.

Only code spans are read, as CommonMark reads them (a run of backticks up to the next run of
the same length, one space trimmed from each end when both have one); everything else in a
title is text. JSON, Markdown copies and feeds keep the title as written.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")


def inline_code(title: str) -> Markup:
    """`title` as safe HTML, its code spans as `<code>` elements."""
    text = str(escape(title))
    if "`" not in text:
        return Markup(text)
    return Markup(_CODE_SPAN.sub(_code, text))


def _code(match: re.Match[str]) -> str:
    content = match.group(2)
    if content.startswith(" ") and content.endswith(" ") and content.strip():
        content = content[1:-1]
    return f"<code>{content}</code>"
