"""agent_text under generated hostile text: whatever a value holds, the Markdown around it
keeps exactly its own structure, rendered by Python-Markdown (as the site's pages are) and by
CommonMark (cmark, raw HTML kept), and the `llms-txt` parser reads a link line as written."""

from __future__ import annotations

from html.parser import HTMLParser

import cmarkgfm
import markdown
import pytest
from cmarkgfm.cmark import Options
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from llms_txt import parse_llms_file

from site_builder.render.agents.agent_text import code, inline, line_start, link_text, one_line

# Markdown's punctuation, URL parts and line breaks, many times more often than in prose.
_PIECES = [*"#-*+>=|~`_:[]()<>!&;/\\.1 \n\tahtpsx@", "http://x.example", "](", "<a href=",
           "```", "    ", "&#91;", "[x]: ", "``", "\\`", "\\\\", "<http://x.example>"]
MARKUP = st.lists(st.sampled_from(_PIECES), max_size=20).map("".join)
ANY = st.one_of(MARKUP, st.text(max_size=40))
EMPHASIS = {"em", "strong"}  # harmless: emphasis opens no heading, item or link
HARMLESS = EMPHASIS | {"code"}  # a code span opened and closed inside one value


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "a":
            self.links.extend(value or "" for name, value in attrs if name == "href")


def _renderings(text: str) -> list[_Tags]:
    """The start tags (and link targets) of `text` rendered by each renderer."""
    found = []
    for html in (markdown.markdown(text, extensions=["tables", "fenced_code", "footnotes"]),
                 cmarkgfm.markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE)):
        parser = _Tags()
        parser.feed(html)
        found.append(parser)
    return found


def _tags(text: str) -> list[list[str]]:
    return [parsed.tags for parsed in _renderings(text)]


@settings(max_examples=300, deadline=None)
@given(ANY, ANY, ANY)
def test_a_list_item_of_hostile_values_stays_one_item_without_links(
        project_id: str, name: str, description: str) -> None:
    # A folder name is never blank, and check refuses control characters in one (which
    # Python-Markdown, the renderer this test reads with, uses as its own placeholders).
    assume(project_id.split() and project_id.isprintable())
    line = f"- {code(project_id)}: {inline(name)} ({inline(description)})"
    assert "\n" not in line
    for tags in _tags(f"## Projects\n\n{line}\n\n## Next\n"):
        assert [t for t in tags if t not in EMPHASIS | {"code"}] == ["h2", "ul", "li", "h2"]
        assert tags[3] == "code", (line, tags)  # the id's own code span comes first


@settings(max_examples=300, deadline=None)
@given(ANY, ANY)
@example("x <http://x.example> y", "")  # CommonMark lets the inner link win
@example("x `", "` [evil](http://x.example)")  # a backtick pairing with the next value's
@example("x \\", "")  # a trailing backslash would escape the `]` after it
def test_a_link_line_keeps_its_one_link_whatever_its_text_and_description(
        text: str, description: str) -> None:
    line = f"- [{link_text(text)}](ok.md): {inline(description)}"
    for parsed in _renderings(f"## Docs\n\n{line}\n"):
        assert parsed.links == ["ok.md"], (line, parsed.tags)
        assert {"h2", "ul", "li", "a"} <= set(parsed.tags) <= {"h2", "ul", "li", "a"} | HARMLESS
    assume(link_text(text))  # the reference parser needs some title
    read = parse_llms_file(f"# T\n\n> S\n\nI\n\n## Docs\n\n{line}\n").sections["Docs"]
    assert [(link["title"], link["url"]) for link in read] == [(link_text(text), "ok.md")]


@settings(max_examples=300, deadline=None)
@given(ANY)
@example("\x03>")  # Python-Markdown drops its placeholder characters, leaving a quote
@example("[x]: http://x.example")  # a link definition would make `[x]` elsewhere a link
def test_a_paragraph_of_a_hostile_value_stays_one_paragraph(value: str) -> None:
    text = line_start(value)
    assert "\n" not in text
    for tags in _tags(f"# Title\n\n{text}\n\n## Next\n"):
        assert tags[0] == "h1" and tags[-1] == "h2"
        assert set(tags[1:-1]) <= {"p"} | HARMLESS, (text, tags)


@settings(max_examples=300, deadline=None)
@given(ANY)
def test_a_heading_of_a_hostile_value_opens_nothing(value: str) -> None:
    for tags in _tags(f"# {inline(value)}\n\n> {line_start(value)}\n"):
        assert tags[0] == "h1"
        assert not set(tags) & {"a", "img", "h2", "h3", "li", "pre"}, tags


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="[]<`\\"), max_size=40))
def test_a_value_without_link_autolink_or_code_characters_reads_as_written(
        value: str) -> None:
    assert inline(value) == link_text(value) == one_line(value)


@pytest.mark.parametrize(("value", "written"), [
    ("Use `--input` for files", "Use `--input` for files"),
    ("Two ``a ` b`` spans `c`", "Two ``a ` b`` spans `c`"),
    ("a < b and c > d", "a < b and c > d"),
    ("R&amp;D &#96; stays", "R&amp;D &#96; stays"),
    ("Acme [decisions] (draft)", "Acme [decisions] (draft)"),
    ("a `lone backtick", "a &#96;lone backtick"),
    ("``a`", "&#96;&#96;a&#96;"),
    ("see <https://x.example>", "see &#60;https://x.example>"),
    ("[evil](http://x.example)", "[evil&#93;(http://x.example)"),
    ("ends with \\", "ends with &#92;"),
])
def test_inline_encodes_only_what_could_break_out(value: str, written: str) -> None:
    assert inline(value) == written


def test_link_text_also_encodes_every_bracket() -> None:
    assert link_text("Keep [brackets] and `a[0]`") == "Keep &#91;brackets&#93; and `a&#91;0&#93;`"
