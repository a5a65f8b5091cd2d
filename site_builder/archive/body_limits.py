"""Bodies Python-Markdown cannot render in bounded time, found before it tries.

Python-Markdown is not linear: on cmark-gfm's pathological inputs it ran past a minute on
long lines thick with brackets or emphasis markers, and recursed past Python's stack on
deeply nested lists. cmark-gfm renders them all in milliseconds, so an archive on
`markdown: python-markdown` is told which body to fix (or to switch renderer) by `check`,
at the file, instead of a build that hangs. The build keeps a time limit for what these
rules miss.
"""

from __future__ import annotations

import re

# Measured on cmark-gfm's pathological inputs: the nesting and line lengths past which
# Python-Markdown's time grows past seconds (or its recursion past Python's stack).
_DEEP_LIST = re.compile(r"^[ \t]{64,}(?:[-*+]|\d{1,9}[.)])[ \t]", re.MULTILINE)
_DEEP_QUOTE = re.compile(r"^[ \t]{0,3}(?:>[ \t]?){32}", re.MULTILINE)
_REFERENCE = re.compile(r"^[ ]{0,3}\[[^\]\n]{1,999}\]:", re.MULTILINE)
_LONG_LINE = 10_000
_MARKUP = "[]*_`<"
# Python-Markdown looks every reference up in a way that grows faster than their number.
_REFERENCES = 5_000


def python_markdown_refusal(body: str) -> str | None:
    """Why Python-Markdown would not render `body` in bounded time (one line), or None."""
    if _DEEP_LIST.search(body):
        return "a list nested more than 32 levels deep"
    if _DEEP_QUOTE.search(body):
        return "block quotes nested more than 32 levels deep"
    if body.count("]:") > _REFERENCES and sum(1 for _ in _REFERENCE.finditer(body)) > _REFERENCES:
        return f"more than {_REFERENCES:,} reference definitions"
    if len(body) > _LONG_LINE:
        for line in body.splitlines():
            if len(line) > _LONG_LINE and sum(line.count(c) for c in _MARKUP) > _LONG_LINE // 10:
                return f"a line of {len(line):,} characters thick with markup"
    return None
