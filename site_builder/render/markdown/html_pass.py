"""The one pass every renderer's HTML goes through before it reaches a page.

After the renderer (cmark-gfm or Python-Markdown) and the sanitiser, one scan of the HTML
gives headings their ids (collecting the table of contents), highlights fenced code with
Pygments, rewrites links between source files to page URLs and turns GitHub alerts
(`> [!NOTE]` …) into callouts. It runs on sanitised HTML: nh3 has closed every element and
put every attribute in double quotes, so plain patterns read it exactly, and nh3 never has
to parse the highlighting markup, which outweighs the text it colours.
"""

from __future__ import annotations

import re

from site_builder.render.markdown.headings import HeadingIds, TocEntry
from site_builder.render.markdown.highlight import highlight_block
from site_builder.render.markdown.links import LinkResolver, LinkRewriter, Origin
from site_builder.render.markdown.sanitise import sanitise

ALERTS = ("note", "tip", "important", "warning", "caution")

# One alternation, tried left to right at each `<`: a heading (with its inner HTML, links
# inside rewritten on their own), a fenced code block with a language, a link or image tag,
# the first paragraph of an alert, an aligned table cell. Every part is linear: the inner
# parts end at the first closing tag, which sanitised HTML always has.
_TOKEN = re.compile(
    r"<h(?P<level>[1-6])(?P<hattrs>(?:\s[^>]*)?)>(?P<inner>.*?)</h(?P=level)>"
    r'|<pre><code class="language-(?P<lang>[^"\s]+)">(?P<code>.*?)</code></pre>'
    r'|<(?P<tag>a|img)\s(?P<attrs>(?:[^>"]++|"[^"]*+")*+)>'
    r"|<blockquote>\s*<p>\[!(?P<alert>" + "|".join(ALERTS) + r")\][ \t]*(?P<rest>\n|</p>\s*)"
    r'|<(?P<cell>t[dh]) align="(?P<align>left|center|right)">',
    re.DOTALL | re.IGNORECASE)
_LINK_TAG = re.compile(r'<(a|img)\s((?:[^>"]++|"[^"]*+")*+)>', re.IGNORECASE)


def finish(rendered: str, origin: Origin, resolve: LinkResolver,
           ) -> tuple[str, tuple[TocEntry, ...], tuple[str, ...]]:
    """A renderer's HTML made ready for a page.

    Returns the sanitised HTML with ids, highlighting, page links and callouts; the headings
    in order; and the output paths of the files beside records it links to, in order of
    first use.
    """
    clean = sanitise(rendered)
    headings = HeadingIds(clean)
    links = LinkRewriter(resolve, origin)

    def link_tag(match: re.Match[str]) -> str:
        return links.tag(match.group(1).lower(), match.group(2))

    def token(match: re.Match[str]) -> str:
        kind = match.lastgroup
        if kind == "inner":
            inner = match["inner"]
            if "<a" in inner or "<img" in inner:
                inner = _LINK_TAG.sub(link_tag, inner)
            return headings.heading(int(match["level"]), match["hattrs"], inner)
        if kind == "code":
            return highlight_block(match["lang"], match["code"]) or match.group(0)
        if kind == "attrs":
            return links.tag(match["tag"].lower(), match["attrs"])
        if kind == "rest":
            return _callout(match["alert"].lower(), match["rest"])
        # A column's alignment as a class: the `align` attribute is obsolete HTML.
        return f'<{match["cell"]} class="align-{match["align"].lower()}">'

    html = _TOKEN.sub(token, clean) if "<" in clean else clean
    return html, tuple(headings.entries), tuple(links.assets)


def _callout(kind: str, rest: str) -> str:
    """The opening of an alert's block quote, titled by its kind, as GitHub shows it."""
    title = f'<p class="markdown-alert-title">{kind.capitalize()}</p>\n'
    opening = f'<blockquote class="markdown-alert markdown-alert-{kind}">\n{title}'
    # The marker alone on its line: the paragraph goes on below it, or it was the paragraph.
    return opening + ("<p>" if rest == "\n" else "")
