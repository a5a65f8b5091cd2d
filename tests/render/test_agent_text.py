"""agent_text under generated hostile text: whatever a value holds, the Markdown around it
keeps exactly its own structure (rendered by Python-Markdown, as the site's pages are)."""

from __future__ import annotations

from html.parser import HTMLParser

import markdown
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from site_builder.render.agents.agent_text import code, inline, line_start

# Markdown's punctuation, URL parts and line breaks, many times more often than in prose.
_PIECES = [*"#-*+>=|~`_:[]()<>!&;/\\.1 \n\tahtpsx@", "http://x.example", "](", "<a href=",
           "```", "    ", "&#91;", "[x]: "]
MARKUP = st.lists(st.sampled_from(_PIECES), max_size=20).map("".join)
ANY = st.one_of(MARKUP, st.text(max_size=40))
EMPHASIS = {"em", "strong"}  # harmless: emphasis opens no heading, item or link


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)


def _tags(text: str) -> list[str]:
    parser = _Tags()
    parser.feed(markdown.markdown(text, extensions=["tables", "fenced_code", "footnotes"]))
    return parser.tags


@settings(max_examples=300, deadline=None)
@given(ANY, ANY, ANY)
def test_a_list_item_of_hostile_values_stays_one_item_without_links(
        project_id: str, name: str, description: str) -> None:
    # A folder name is never blank, and check refuses control characters in one (which
    # Python-Markdown, the renderer this test reads with, uses as its own placeholders).
    assume(project_id.split() and project_id.isprintable())
    line = f"- {code(project_id)}: {inline(name)} ({inline(description)})"
    assert "\n" not in line
    tags = [t for t in _tags(f"## Projects\n\n{line}\n\n## Next\n") if t not in EMPHASIS]
    assert tags == ["h2", "ul", "li", "code", "h2"]


@settings(max_examples=300, deadline=None)
@given(ANY)
@example("\x03>")  # Python-Markdown drops its placeholder characters, leaving a quote
def test_a_paragraph_of_a_hostile_value_stays_one_paragraph(value: str) -> None:
    text = line_start(value)
    assert "\n" not in text
    tags = _tags(f"# Title\n\n{text}\n\n## Next\n")
    assert tags[0] == "h1" and tags[-1] == "h2"
    assert set(tags[1:-1]) <= {"p"} | EMPHASIS, (text, tags)


@settings(max_examples=300, deadline=None)
@given(ANY)
def test_a_heading_of_a_hostile_value_opens_nothing(value: str) -> None:
    tags = _tags(f"# {inline(value)}\n\n> {line_start(value)}\n")
    assert tags[0] == "h1"
    assert not set(tags) & {"a", "img", "h2", "h3", "li", "code", "pre"}, tags
