"""headings.py gives the ids Python-Markdown's `toc` extension gave, with either renderer."""

from __future__ import annotations

import re
from pathlib import Path

import markdown
from markdown.extensions.toc import slugify_unicode

from site_builder.render.markdown.links import Origin
from site_builder.render.markdown.to_html import BodyRenderer, TocEntry

ORIGIN = Origin("p/adr/0001-x/index.html", Path("/a/content/p/adr/0001-x.md"))

HEADINGS = """\
# Heading with `code & <b>` and \\*escape\\*

## Dup
## Dup
## Dup_1
### A &amp; B &copy; [link](http://x.y)
#### Footnote here[^1]
# Ça va?
## 100% sure -- really

[^1]: The note.
"""


def _ids(html: str) -> list[str]:
    return re.findall(r'<h[1-6] id="([^"]*)"', html)


def test_ids_are_the_ones_toc_gave() -> None:
    toc = markdown.markdown(HEADINGS, extensions=["toc", "footnotes"],
                            extension_configs={"toc": {"slugify": slugify_unicode}})
    for name in ("gfm", "python-markdown"):
        html = BodyRenderer(lambda origin, target: None, name).render(ORIGIN, HEADINGS).html
        assert _ids(html) == _ids(toc), name


def test_the_table_of_contents_is_plain_text() -> None:
    body = BodyRenderer(lambda origin, target: None).render(ORIGIN, HEADINGS)
    assert body.toc[0] == TocEntry(1, "heading-with-code-b-and-escape",
                                   "Heading with code & <b> and *escape*")
    assert body.toc[5] == TocEntry(4, "footnote-here", "Footnote here")
    assert [entry.anchor for entry in body.toc[1:4]] == ["dup", "dup_1", "dup_2"]


def test_an_id_written_in_raw_html_is_kept_and_never_reused() -> None:
    body = BodyRenderer(lambda origin, target: None).render(
        ORIGIN, '<h2 id="mine">Raw</h2>\n\n## Mine\n')
    assert body.toc == (TocEntry(2, "mine", "Raw"), TocEntry(2, "mine_1", "Mine"))
