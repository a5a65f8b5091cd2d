"""Mermaid diagrams in record bodies: kept as plain code blocks at build time, found again in
the rendered HTML, and drawn in the browser by the pinned Mermaid release the theme ships.

A ` ```mermaid ` fence must reach the page as `<pre><code class="language-mermaid">`, the
source escaped and never highlighted: that block stays readable without JavaScript, and the
theme's `diagrams.js` replaces it with the drawing. Python-Markdown's codehilite would
highlight it and drop the language, so `MermaidFenceExtension` stashes such fences as that
HTML before `fenced_code` sees them. cmark-gfm writes the same block (or `<pre lang=…>`);
`has_mermaid` recognises both, so a page knows from its rendered body alone whether it needs
the Mermaid script.
"""

from __future__ import annotations

import re
from html import escape

import markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

__all__ = ["LANGUAGE", "MermaidFenceExtension", "diagram_policy", "has_mermaid", "mermaid_block"]

LANGUAGE = "mermaid"

_IN_HTML = re.compile(
    r"""<pre\b[^>]*\blang=["']?mermaid\b"""
    r"""|<code\b[^>]*\bclass=["'](?:[^"']*\s)?language-mermaid(?=[\s"'])""",
    re.IGNORECASE)

# Any fenced block at the start of a line, so that a mermaid fence quoted inside a longer
# fence (a ```` block showing Markdown) is skipped with the block that holds it.
_FENCE = re.compile(
    r"^(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)\n(?P<code>.*?)^(?P=fence)[`~]*[ \t]*$",
    re.MULTILINE | re.DOTALL)
_MERMAID_INFO = re.compile(r"\{?\s*\.?mermaid\s*\}?", re.IGNORECASE)


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


def mermaid_block(source: str) -> str:
    """The HTML a Mermaid fence becomes: its source, escaped, as a code block."""
    return f'<pre><code class="language-{LANGUAGE}">{escape(source, quote=False)}</code></pre>'


class _MermaidFences(Preprocessor):
    """Replaces each top-level ` ```mermaid ` fence with a stashed `mermaid_block`."""

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        if "mermaid" not in text.lower():
            return lines

        def replace(match: re.Match[str]) -> str:
            if not _MERMAID_INFO.fullmatch(match.group("info").strip()):
                return match.group(0)
            placeholder = self.md.htmlStash.store(mermaid_block(match.group("code")))
            return f"\n\n{placeholder}\n\n"

        return _FENCE.sub(replace, text).split("\n")


class MermaidFenceExtension(Extension):
    """Keeps Mermaid fences away from `fenced_code` and codehilite (see the module text)."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        # After normalize_whitespace (30), before fenced_code_block (25).
        md.preprocessors.register(_MermaidFences(md), "mermaid_fences", 27)
