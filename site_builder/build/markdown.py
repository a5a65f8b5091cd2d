"""Record bodies → sanitised HTML with a table of contents.

One `BodyRenderer` holds one Python-Markdown instance and reuses it for every body it renders
(`reset()` between documents), because building the extension set costs more than converting
a typical body. Links between source files are rewritten on the element tree by
`SourceLinkExtension`; headings get their ids from `HeadingsExtension`; inline patterns that
cannot match a body are skipped (`InlineTriggersExtension`); raw HTML is sanitised afterwards
with nh3 to an allow-list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any
from xml.etree.ElementTree import Element

import markdown
import nh3
from markdown import Extension
from markdown.treeprocessors import Treeprocessor
from pygments.formatters import HtmlFormatter

from site_builder.archive.records import Record
from site_builder.build.diagrams import MermaidFenceExtension
from site_builder.build.headings import HeadingsExtension, TocEntry
from site_builder.build.inline_triggers import InlineTriggersExtension
from site_builder.build.links import LinkResolver, Origin, SourceLinkExtension

__all__ = ["BodyRenderer", "RenderedBody", "TocEntry", "render_body", "sanitise"]

HIGHLIGHT_CLASS = "highlight"


@dataclass(frozen=True, slots=True)
class RenderedBody:
    """A record body rendered for its HTML page.

    `html` is sanitised with links rewritten; `toc` lists every heading in order; `assets`
    are the files beside records the body links to, as output paths (relative to the site
    root), which the build copies.
    """

    html: str
    toc: tuple[TocEntry, ...]
    assets: tuple[str, ...] = ()


# ---- sanitising ---------------------------------------------------------------------------

_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "col", "colgroup", "dd",
    "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3",
    "h4", "h5", "h6", "hr", "i", "img", "input", "ins", "kbd", "li", "mark", "ol", "p", "pre",
    "q", "s", "samp", "small", "span", "strong", "sub", "summary", "sup", "table", "tbody",
    "td", "tfoot", "th", "thead", "time", "tr", "u", "ul", "var", "wbr",
}
_GENERIC_ATTRIBUTES = {"class", "id", "title", "lang", "dir"}
_ATTRIBUTES = {
    "a": {"href", "hreflang"},
    "abbr": {"title"},
    "col": {"span"},
    "colgroup": {"span"},
    "del": {"cite", "datetime"},
    "details": {"open"},
    "img": {"src", "alt", "width", "height", "loading"},
    "input": {"type", "checked"},
    "ins": {"cite", "datetime"},
    "ol": {"start", "reversed", "type"},
    "q": {"cite"},
    "td": {"colspan", "rowspan", "align"},
    "th": {"colspan", "rowspan", "align", "scope"},
    "time": {"datetime"},
}
_URL_SCHEMES = {"http", "https", "mailto"}


def sanitise(fragment: str) -> str:
    """`fragment` reduced to the allow-list: no scripts, styles, `on*` handlers or
    `javascript:` URLs. Task-list checkboxes are the only form controls kept, always
    disabled and labelled (a control without a name fails accessibility audits)."""
    clean = _cleaner().clean(fragment)
    return _INPUT.sub(_checkbox, clean) if "<input" in clean else clean


@cache
def _cleaner() -> nh3.Cleaner:
    # Built once: passing the allow-list to nh3.clean converts it again on every call.
    return nh3.Cleaner(tags=_TAGS, attributes={"*": _GENERIC_ATTRIBUTES, **_ATTRIBUTES},
                       url_schemes=_URL_SCHEMES, link_rel=None, strip_comments=True)


_INPUT = re.compile(r"<input\b[^>]*>")


def _checkbox(match: re.Match[str]) -> str:
    tag = match.group(0)
    if 'type="checkbox"' not in tag:
        return ""
    if 'checked=""' in tag:
        return '<input type="checkbox" disabled="" checked="" aria-label="done">'
    return '<input type="checkbox" disabled="" aria-label="not done">'


# ---- rendering ----------------------------------------------------------------------------


@cache
def _formatter() -> HtmlFormatter:
    return HtmlFormatter(cssclass=HIGHLIGHT_CLASS, wrapcode=True)


def _shared_formatter(**options: Any) -> HtmlFormatter:
    """The one Pygments formatter every code block uses: codehilite would build a new one
    per block, which costs more than highlighting a short block (its options never vary)."""
    return _formatter()


class _TableAlignment(Treeprocessor):
    """A table column's alignment as a class (`align-right`): the tables extension writes it
    as a `style` attribute, which the sanitiser drops and the pages' Content-Security-Policy
    would block, and the `align` attribute is obsolete HTML."""

    def run(self, root: Element) -> None:
        for table in root.iter("table"):
            for cell in table.iter():
                style = cell.attrib.pop("style", None) if cell.tag in ("th", "td") else None
                if style and style.startswith("text-align: "):
                    cell.set("class", "align-" + style.removeprefix("text-align: ").rstrip(";"))


class _TableAlignmentExtension(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.treeprocessors.register(_TableAlignment(md), "table_alignment", 1)


def _extensions(*own: Extension) -> tuple[list[Any], dict[str, Any]]:
    extensions: list[Any] = [
        "tables", "fenced_code", "codehilite", "footnotes", "sane_lists",
        "pymdownx.tasklist", "pymdownx.tilde", _TableAlignmentExtension(),
        MermaidFenceExtension(), *own,
        # Last: it looks at every inline pattern the others registered.
        InlineTriggersExtension(),
    ]
    configs = {
        "codehilite": {"guess_lang": False, "css_class": HIGHLIGHT_CLASS,
                       "pygments_formatter": _shared_formatter},
        "pymdownx.tasklist": {"custom_checkbox": False},
        # `~5 ms` is prose, not a subscript: only `~~struck~~` is markup.
        "pymdownx.tilde": {"subscript": False},
    }
    return extensions, configs


class BodyRenderer:
    """Renders record bodies with one reused Python-Markdown instance.

    Not thread-safe: keep one per process (the build keeps one per worker).
    """

    def __init__(self, resolve: LinkResolver) -> None:
        self._links = SourceLinkExtension(resolve)
        self._headings = HeadingsExtension()
        extensions, configs = _extensions(self._links, self._headings)
        self._md = markdown.Markdown(extensions=extensions, extension_configs=configs,
                                     output_format="html")

    def render(self, source: Record | Origin, body: str) -> RenderedBody:
        """`body` (of a record, or from the given origin) as sanitised HTML, its headings and
        the assets it links to."""
        origin = source if isinstance(source, Origin) else Origin.of(source)
        md = self._md
        md.reset()
        self._links.start(origin)
        try:
            converted = md.convert(body)
        finally:
            assets = self._links.finish()
        return RenderedBody(sanitise(converted), self._headings.entries, assets)


def render_body(record: Record, body: str, resolve: LinkResolver) -> RenderedBody:
    """Render one body with a fresh renderer (for one-off use; the build reuses one)."""
    return BodyRenderer(resolve).render(record, body)
