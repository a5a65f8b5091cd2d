"""Fenced code with a language, highlighted by Pygments at build time (CSS classes only).

A fence whose language Pygments does not know stays as the renderer wrote it, and so do
` ```mermaid ` fences: the page's script finds them by their `language-mermaid` class and
draws them, and without JavaScript the code stays readable.
"""

from __future__ import annotations

import html
from functools import cache
from typing import Any

from site_builder.render.markdown import diagrams
from site_builder.render.markdown.lexers import lexer

HIGHLIGHT_CLASS = "highlight"
# Languages drawn or handled in the browser, never coloured here.
UNTOUCHED = frozenset({diagrams.LANGUAGE})


@cache
def _pygments() -> tuple[Any, Any]:
    # Imported on first use: a body without fenced code never needs Pygments.
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    return highlight, HtmlFormatter(cssclass=HIGHLIGHT_CLASS, wrapcode=True)


def highlight_block(language: str, escaped_code: str) -> str | None:
    """`<div class="highlight"><pre>…</pre></div>` for the code of a fenced block (as
    escaped in the HTML), or None when the block is to stay as it is."""
    language = html.unescape(language).strip().lower()
    if not language or language in UNTOUCHED:
        return None
    found = lexer(language)
    if found is None:
        return None
    highlight, formatter = _pygments()
    return str(highlight(html.unescape(escaped_code), found, formatter))
