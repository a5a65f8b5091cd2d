"""headings.py and inline_triggers.py render exactly what plain Python-Markdown renders.

Each is checked against the real thing it stands in for: the `toc` extension for heading ids,
and a Markdown instance that tries every inline pattern for the skipped patterns.
"""

from __future__ import annotations

import html

import markdown
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown.extensions.toc import slugify_unicode

from site_builder.build.headings import HeadingsExtension, TocEntry
from site_builder.build.inline_triggers import InlineTriggersExtension

EXTENSIONS = ["tables", "fenced_code", "footnotes", "sane_lists", "pymdownx.tasklist",
              "pymdownx.tilde"]
CONFIGS = {"pymdownx.tilde": {"subscript": False}}

TRICKY = """\
# Heading with `code & <b>` and \\*escape\\*

## Dup
## Dup
## Dup_1
### A &amp; B &copy <em>raw</em> [link](http://x.y) ![img](a.png)
#### Footnote here[^1]
# Ça va?

Text with a [ref link][r], [short ref], ![img ref][r], <http://auto.link> and <me@x.org>.
Line with a break\x20\x20
next & amp &amp; &#169; ~~struck~~ ~5 ms *em* _em_ **strong** __strong__ ***both*** a * b
<span>inline html</span> \\<not html\\> 1 < 2

[r]: http://example.com "T"
[short ref]: http://example.org

[^1]: The note with `code`.

* [x] done
* [ ] open

| a | b |
|---|---|
| `x` | *y* |

```python
def f(): return "<x> & [y](z) *w*"
```
"""

NO_REFERENCES = """\
Nothing defined: [not a ref], [x][y] and ![i][j] stay text; [inline](http://a.b) links.
Escapes \\_ and \\` and 1 < 2 > 0, an entity &amp; and ![an image](p.png).
"""


def convert(text: str, *extensions: markdown.Extension) -> str:
    md = markdown.Markdown(extensions=[*EXTENSIONS, *extensions], extension_configs=CONFIGS)
    return md.convert(text)


def test_headings_get_the_ids_and_titles_the_toc_extension_gives() -> None:
    toc_md = markdown.Markdown(extensions=[*EXTENSIONS, "toc"],
                               extension_configs={**CONFIGS, "toc": {"slugify": slugify_unicode}})
    expected_html = toc_md.convert(TRICKY)
    expected = []

    def walk(tokens: list[dict]) -> None:
        for token in tokens:
            expected.append(TocEntry(token["level"], token["id"], html.unescape(token["name"])))
            walk(token["children"])

    walk(toc_md.toc_tokens)  # type: ignore[attr-defined]
    headings = HeadingsExtension()
    assert convert(TRICKY, headings) == expected_html
    assert headings.entries == tuple(expected)
    assert [e.anchor for e in headings.entries][1:4] == ["dup", "dup_1", "dup_2"]


def test_headings_are_forgotten_between_documents() -> None:
    headings = HeadingsExtension()
    md = markdown.Markdown(extensions=[headings])
    md.convert("# One\n")
    md.reset()
    md.convert("no heading\n")
    assert headings.entries == ()


def test_skipping_patterns_changes_nothing_on_tricky_documents() -> None:
    for text in (TRICKY, NO_REFERENCES, "", "plain words only\n"):
        assert convert(text, InlineTriggersExtension()) == convert(text)


def test_one_instance_follows_each_document_it_converts() -> None:
    fast = markdown.Markdown(extensions=[*EXTENSIONS, InlineTriggersExtension()],
                             extension_configs=CONFIGS)
    for text in ("plain\n", TRICKY, "plain\n", NO_REFERENCES, TRICKY):
        fast.reset()
        assert fast.convert(text) == convert(text)


MARKUP = st.sampled_from([
    "*", "**", "_", "__", "`", "``", "\\", "[", "]", "(", ")", "![", "<", ">", "&", "&amp;",
    "~", "~~", "  \n", "\n", "\n\n", "[^1]", "[a]", "[a]: http://x\n", "[^1]: n\n",
    "<b>", "</b>", "<http://a.b>", "<a@b.c>", "# ", "- ", "1. ", "    ", "x", "word ", " ",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(MARKUP, max_size=25).map("".join))
def test_skipping_patterns_changes_nothing_on_any_markup(text: str) -> None:
    assert convert(text, InlineTriggersExtension()) == convert(text)
