"""Values from the archive made safe to write into the Markdown that agents read.

AGENTS.md, llms.txt and llms-full.txt are read by agents as instructions, so a site title, a
project's name or description, or a record's title, description or tags (all written by
whoever opens a pull request) must not be able to add a heading, a list item or a link of
their own. Agents read these files as raw text, so a value is written as it was written, on
one line, with an HTML character reference (`&#60;`) only where a character could break out
of its place:
- a `<` followed by anything but a space, `<` or `>`: it could open an autolink (CommonMark
  lets a link inside link text win, so `[x <https://evil> y](…)` would drop ours), an e-mail
  autolink (Python-Markdown takes `<(x@y>`) or HTML (`<a href=…>` is a link wherever the
  file is shown rendered, as GitHub shows AGENTS.md);
- a backtick run without its pair in the value, which could open a code span that swallows
  the text after the value (a balanced code span stays as written);
- a `]` directly followed by `(` or `[`, which could close a link; in link text
  (`link_text`) every `[` and `]`, since the `llms-txt` parser reads a title up to the first
  `]` and takes no backslash escapes;
- a trailing backslash, which would escape the character after the value.
A value that starts a line has its first character encoded the same way when it could open a
block (`#`, `-`, `>`, `1.`, `[`, a fence, a thematic break, a table row). Emphasis is left
alone: it opens nothing. Character references in a value stay as written: CommonMark never
reads one as markup.
"""

from __future__ import annotations

import re

__all__ = ["code", "inline", "line_start", "link_text", "one_line"]

_BLOCK_START = re.compile(r"[#>*+=|~_:!\[-]|\d{1,9}[.)]")
# C0 and C1 controls but those str.split() takes for whitespace (tab, line breaks, \x1c-\x1f).
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f-\x9f]")
# What a backslash escapes in both CommonMark and Python-Markdown: such a pair is one literal
# character. (`\<` is no escape to Python-Markdown, so a `<` after a backslash is still judged.)
_ESCAPABLE = frozenset("\\`*_{}[]()>#+-.!")


def _reference(char: str) -> str:
    return f"&#{ord(char)};"


def one_line(text: str) -> str:
    """`text` with every run of whitespace (line breaks included) as one space, trimmed, and
    without control characters: invisible to a reader, and Markdown renderers drop some of
    them (Python-Markdown the two it uses as placeholders), so `\x03>` became a quote."""
    return " ".join(_CONTROL.sub("", text).split())


_RUN = re.compile(r"`+")
# The characters `_encode` may change; a text without any is written as it is (most titles
# and descriptions: the walk below, a character at a time, was most of writing llms.txt).
_MAY_CHANGE = re.compile(r"[`\\<\[\]]")


def _code_spans(text: str) -> dict[int, int]:
    """Start → end of each backtick run of `text` that CommonMark pairs (opener to the end of
    its closer), and start → -1 for a run left without a pair; linear in the text."""
    runs = [(m.start(), m.end()) for m in _RUN.finditer(text)]
    following: list[int | None] = [None] * len(runs)
    last: dict[int, int] = {}
    for k in range(len(runs) - 1, -1, -1):  # the next run of the same length, for each run
        length = runs[k][1] - runs[k][0]
        following[k] = last.get(length)
        last[length] = k
    spans: dict[int, int] = {}
    k = 0
    while k < len(runs):
        closer = following[k]
        if closer is None:
            spans[runs[k][0]] = -1
            k += 1
        else:
            spans[runs[k][0]] = runs[closer][1]
            k = closer + 1
    return spans


def _encode(text: str, brackets: bool) -> str:
    """`text` (one line) with the characters that could break out of their place as
    character references; `brackets`: every `[` and `]` too (link text). Returns the text."""
    if _MAY_CHANGE.search(text) is None:
        return text
    spans = _code_spans(text)
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        after = text[i + 1] if i + 1 < len(text) else ""
        if char == "`":
            end = spans.get(i, -1)
            if end < 0 or text[i - 1:i] == "\\":
                # Unpaired, or after an escaped backslash, where Python-Markdown opens none.
                while i < len(text) and text[i] == "`":
                    out.append(_reference(char))
                    i += 1
                continue
            out.append(_link_brackets(text[i:end]) if brackets else text[i:end])
            i = end
            continue
        if char == "\\" and after in _ESCAPABLE and not (brackets and after in "[]"):
            out.append(text[i:i + 2])
            i += 2
            continue
        out.append(_reference(char) if _breaks_out(char, after, brackets) else char)
        i += 1
    return "".join(out)


def _breaks_out(char: str, after: str, brackets: bool) -> bool:
    """Whether `char`, followed by `after` ("" at the end), could end or open something."""
    if char == "\\":
        return not after  # it would escape the character after the value
    if char == "<":  # an autolink, an e-mail autolink or HTML starts with `<` and a character
        return not (after.isspace() or after in ("<", ">")) or not after
    if char in "[]" and brackets:
        return True
    return char == "]" and after in ("(", "[")


def _link_brackets(text: str) -> str:
    return text.replace("[", "&#91;").replace("]", "&#93;")


def inline(text: str) -> str:
    """`text` on one line, as written but unable to open a link, an image, an autolink,
    HTML or a code span reaching past it (returns the text to write)."""
    return _encode(one_line(text), brackets=False)


def link_text(text: str) -> str:
    """`inline(text)` for the text inside `[...]` of a link: also without a bare `[` or `]`,
    which would end the link early for the `llms-txt` reference parser."""
    return _encode(one_line(text), brackets=True)


def line_start(text: str) -> str:
    """`inline(text)` for a value written at the start of a line: also unable to open a
    heading, a list item, a quote, a fence, a thematic break, a link definition or a table
    row."""
    flat = inline(text)
    found = _BLOCK_START.match(flat)
    if found is None:
        return flat
    return f"{_reference(flat[0])}{flat[1:]}"


def code(text: str) -> str:
    """`text` as a code span: one line, inside backticks it cannot close (a backtick in the
    text becomes `'`; character references are not read inside code)."""
    return f"`{one_line(text).replace('`', chr(39))}`"
