"""Mermaid diagrams in record bodies: kept as plain code blocks at build time, found again in
the rendered HTML, and drawn in the browser by the pinned Mermaid release the theme ships.

A ` ```mermaid ` fence must reach the page as `<pre><code class="language-mermaid">`, the
source escaped and never highlighted: that block stays readable without JavaScript, and the
theme's `diagrams.js` replaces it with the drawing. Both renderers write that block (cmark-gfm
also `<pre lang=…>`), and the HTML pass leaves it unhighlighted (highlight.UNTOUCHED);
`has_mermaid` recognises both forms, so a page knows from its rendered body alone whether it
needs the Mermaid script.
"""

from __future__ import annotations

import re

__all__ = ["LANGUAGE", "diagram_policy", "has_mermaid"]

LANGUAGE = "mermaid"

_IN_HTML = re.compile(
    r"""<pre\b[^>]*\blang=["']?mermaid\b"""
    r"""|<code\b[^>]*\bclass=["'](?:[^"']*\s)?language-mermaid(?=[\s"'])""",
    re.IGNORECASE)


def has_mermaid(html: str) -> bool:
    """True when rendered body HTML holds a Mermaid block (`language-mermaid` code, or a
    `<pre lang="mermaid">` as cmark-gfm writes by default)."""
    return "mermaid" in html and _IN_HTML.search(html) is not None


def diagram_policy(policy: str) -> str:
    """`policy` (a Content-Security-Policy) as a page with a diagram needs it: inline styles
    allowed, since Mermaid writes a `<style>` element and style attributes into every SVG it
    draws. Nothing else changes: its script still comes from the site (`script-src 'self'`,
    no eval)."""
    return policy.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
