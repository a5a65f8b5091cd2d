"""Heading ids and the table of contents of a body, as data.

Python-Markdown's `toc` extension does this too, but for every document it also builds,
serialises and post-processes a TOC `<div>` and renders every heading's inner HTML again,
work the record page never uses (it lists the headings itself): at 10,000 records that was a
tenth of all body rendering. This extension gives each heading the id `toc` would give it
(same slugs, same de-duplication, pre-existing ids kept) and hands the headings back through
`HeadingsExtension.entries` instead of an attribute stashed on the Markdown instance.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from xml.etree.ElementTree import Element

from markdown import Extension, Markdown
from markdown.extensions.toc import (
    remove_fnrefs,
    render_inner_html,
    slugify_unicode,
    strip_tags,
    unescape,
    unique,
)
from markdown.treeprocessors import Treeprocessor
from markdown.util import STX

_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

# Where `toc` runs: after inline markup, footnotes and task lists, before `unescape`.
PRIORITY = 5


@dataclass(frozen=True, slots=True)
class TocEntry:
    """One heading of a body: its level (1–6), its `id` and its title as plain text."""

    level: int
    anchor: str
    title: str


class HeadingIdTreeprocessor(Treeprocessor):
    """Sets an `id` on every heading and records it as a TocEntry, in document order."""

    def __init__(self, md: Markdown, slugify: Callable[[str, str], str]) -> None:
        super().__init__(md)
        self.slugify = slugify
        self.entries: list[TocEntry] = []

    def run(self, root: Element) -> None:
        used = {el.attrib["id"] for el in root.iter() if "id" in el.attrib}
        counters: dict[str, int] = {}
        entries = []
        for el in root.iter():
            if el.tag not in _HEADINGS:
                continue
            name = self._plain_text(el)
            if "id" not in el.attrib:
                el.attrib["id"] = unique(self.slugify(name, "-"), used, counters)
            entries.append(TocEntry(int(el.tag[1]), unescape(el.attrib["id"]), name))
        self.entries = entries

    def _plain_text(self, el: Element) -> str:
        """The heading as text, whitespace collapsed, entities decoded."""
        text = el.text or ""
        if len(el) == 0 and STX not in text:
            # Plain words (most headings): what rendering and stripping would give.
            return " ".join(text.split())
        # Markup, code, escapes or raw HTML inside: render it as `toc` does, then strip it.
        return html.unescape(strip_tags(render_inner_html(remove_fnrefs(el), self.md)))


class HeadingsExtension(Extension):
    """Registers HeadingIdTreeprocessor; `entries` are the headings of the last document."""

    def __init__(self, slugify: Callable[[str, str], str] = slugify_unicode) -> None:
        super().__init__()
        self._slugify = slugify
        self._processor: HeadingIdTreeprocessor | None = None

    def extendMarkdown(self, md: Markdown) -> None:
        self._processor = HeadingIdTreeprocessor(md, self._slugify)
        md.treeprocessors.register(self._processor, "heading_ids", PRIORITY)
        md.registerExtension(self)

    def reset(self) -> None:
        if self._processor is not None:
            self._processor.entries = []

    @property
    def entries(self) -> tuple[TocEntry, ...]:
        """The headings of the document converted last, in order."""
        return tuple(self._processor.entries) if self._processor else ()
