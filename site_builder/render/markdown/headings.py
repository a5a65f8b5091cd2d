"""Heading ids and the table of contents of a rendered body, as data.

Ids are the ones Python-Markdown's `toc` extension gave before cmark-gfm rendered bodies
(lower-case words joined by `-`, `_1`, `_2`… for repeats, an id written in raw HTML kept), so
links to anchors written since then keep working whichever renderer an archive uses.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

_ID_ATTRIBUTE = re.compile(r'\sid="([^"]*)"')
_FOOTNOTE_REF = re.compile(r'<sup\b[^>]*>\s*<a\b[^>]*\bhref="#fn[^"]*"[^>]*>.*?</a>\s*</sup>',
                           re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
_NOT_WORD = re.compile(r"[^\w\s-]")
_SEPARATORS = re.compile(r"[-\s]+")
_COUNTED = re.compile(r"^(.*)_([0-9]+)$")


@dataclass(frozen=True, slots=True)
class TocEntry:
    """One heading of a body: its level (1–6), its `id` and its title as plain text."""

    level: int
    anchor: str
    title: str


def slugify(text: str) -> str:
    """`Ça va?` → `ça-va`: punctuation dropped, words lower-cased and joined by `-`."""
    return _SEPARATORS.sub("-", _NOT_WORD.sub("", text).strip().lower())


def plain_text(inner_html: str) -> str:
    """A heading's inner HTML as text: footnote marks and tags dropped, entities decoded,
    whitespace collapsed."""
    if "<" in inner_html:
        inner_html = _TAG.sub("", _FOOTNOTE_REF.sub("", inner_html))
    return " ".join(html.unescape(inner_html).split())


class HeadingIds:
    """Gives the headings of one document unique ids and collects them as TocEntry."""

    def __init__(self, document: str) -> None:
        self.used = ({html.unescape(m.group(1)) for m in _ID_ATTRIBUTE.finditer(document)}
                     if ' id="' in document else set())
        self.entries: list[TocEntry] = []

    def heading(self, level: int, attributes: str, inner: str) -> str:
        """The heading `<h{level}{attributes}>{inner}</h{level}>` with an id."""
        title = plain_text(inner)
        own = _ID_ATTRIBUTE.search(attributes) if attributes else None
        if own is not None:
            anchor = html.unescape(own.group(1))
        else:
            anchor = self._unique(slugify(title))
            attributes = f' id="{html.escape(anchor, quote=True)}"{attributes}'
        self.entries.append(TocEntry(level, anchor, title))
        return f"<h{level}{attributes}>{inner}</h{level}>"

    def _unique(self, anchor: str) -> str:
        while anchor in self.used or not anchor:
            counted = _COUNTED.match(anchor)
            anchor = (f"{counted.group(1)}_{int(counted.group(2)) + 1}" if counted
                      else f"{anchor}_1")
        self.used.add(anchor)
        return anchor
