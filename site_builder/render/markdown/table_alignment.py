"""Python-Markdown's table column alignment written as a class (`align-right`).

Its tables extension writes alignment as a `style` attribute, which the sanitiser drops and
the pages' Content-Security-Policy would block, and the `align` attribute is obsolete HTML.
cmark-gfm writes `align="right"`, which the HTML pass turns into the same class.
"""

from __future__ import annotations

from xml.etree.ElementTree import Element

from markdown import Extension, Markdown
from markdown.treeprocessors import Treeprocessor


class _TableAlignment(Treeprocessor):
    def run(self, root: Element) -> None:
        for table in root.iter("table"):
            for cell in table.iter():
                style = cell.attrib.pop("style", None) if cell.tag in ("th", "td") else None
                if style and style.startswith("text-align: "):
                    cell.set("class", "align-" + style.removeprefix("text-align: ").rstrip(";"))


class TableAlignmentExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        md.treeprocessors.register(_TableAlignment(md), "table_alignment", 1)
