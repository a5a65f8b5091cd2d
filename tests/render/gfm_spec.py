"""The GFM spec's examples (tests/fixtures/gfm-spec) and the normalisation they are read with.

Normalised, two renderings compare equal when they differ only in whitespace between tags,
`id`/`class`/`data-*`/`aria-*` attributes, the sanitiser's spelling (`<hr>` for `<hr />`,
entities decoded, attribute order) and highlighting markup inside `<pre>`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

SPEC_FOLDER = Path(__file__).parents[1] / "fixtures" / "gfm-spec"
_FENCE = "`" * 32
_RAW_HTML = re.compile(r"<(?:[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|/[A-Za-z][A-Za-z0-9-]*\s*>"
                       r"|!--|\?|![A-Z]|!\[CDATA\[)")
_DROPPED_ATTRIBUTES = ("id", "class", "disabled")


@dataclass(frozen=True, slots=True)
class Example:
    """One example: its number in its file, its section, the extensions its fence names
    (`example table`), the Markdown and the spec's HTML."""

    number: int
    section: str
    labels: tuple[str, ...]
    markdown: str
    html: str

    @property
    def raw_html(self) -> bool:
        """True when the Markdown holds raw HTML that the spec's HTML passes through (the
        sanitiser may rewrite it, so §5.1 does not count such examples)."""
        return any(match.group(0)[:4] in self.html for match in _RAW_HTML.finditer(self.markdown))


def examples(name: str) -> list[Example]:
    """The examples of `SPEC_FOLDER/name`, in order (`→` read as a tab)."""
    found: list[Example] = []
    section = ""
    lines = (SPEC_FOLDER / name).read_text(encoding="utf-8").split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        if line.startswith(_FENCE + " example"):
            end = lines.index(_FENCE, index + 1)
            block = lines[index + 1:end]
            split = block.index(".")
            markdown = "".join(part + "\n" for part in block[:split]).replace("→", "\t")
            html = "".join(part + "\n" for part in block[split + 1:]).replace("→", "\t")
            labels = tuple(line.removeprefix(_FENCE + " example").split())
            found.append(Example(len(found) + 1, section, labels, markdown, html))
            index = end
        index += 1
    return found


class _Normaliser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tokens: list[str] = []
        self.text: list[str] = []
        self.pre = 0

    def _flush(self) -> None:
        text = "".join(self.text)
        self.text = []
        if self.pre:
            if text:
                self.tokens.append(text)
        elif text.strip():
            self.tokens.append(" ".join(text.split()))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._highlighting(tag, attrs):
            return
        self._flush()
        # A column's alignment is written as a class (`align-right`) for `align="right"`.
        attrs = [("align", v[6:]) if k == "class" and (v or "").startswith("align-") else (k, v)
                 for k, v in attrs]
        kept = sorted((k, _fragment(v) if k == "href" else v or "") for k, v in attrs
                      if k not in _DROPPED_ATTRIBUTES and not k.startswith(("data-", "aria-")))
        self.tokens.append(f"<{tag}{''.join(f' {k}={v!r}' for k, v in kept)}>")
        self.pre += tag == "pre"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" or (self.pre and tag == "span"):
            return
        self._flush()
        self.tokens.append(f"</{tag}>")
        self.pre -= tag == "pre"

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def _highlighting(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        # Pygments wraps a block in <div class="highlight"> and colours it with spans.
        return (tag == "div" and ("class", "highlight") in attrs) or (self.pre > 0
                                                                      and tag == "span")


def _fragment(href: str | None) -> str:
    # A link to an id is an id: releases of cmark-gfm spell footnote ids `fn:1` or `fn-1`.
    href = href or ""
    return href.replace(":", "-") if href.startswith("#") else href


def normalise(html: str) -> list[str]:
    """`html` as a list of tokens that ignores what §5.1 lets differ."""
    parser = _Normaliser()
    parser.feed(html)
    parser.close()
    parser._flush()
    return parser.tokens
