"""yaml_subset reads the usual front-matter shape exactly as PyYAML does, or declines."""

from __future__ import annotations

import datetime as dt
from typing import Any

import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from site_builder.archive.records import split_front_matter
from site_builder.text import yaml_subset, yamlfile
from tests.conftest import EXAMPLE_SITE


def pyyaml(text: str) -> tuple[Any, dict[str, int]]:
    """What the PyYAML path of yamlfile gives: the value and the line of every key."""
    loader = yamlfile._Loader(text)
    try:
        node = loader.get_single_node()
        value = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    lines: dict[str, int] = {}
    if node is not None:
        yamlfile._locate(node, "", lines)
    return value, lines


def typed(value: Any) -> Any:
    """`value` with every scalar's type spelled out, so that True != 1 and 1 != 1.0."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(v) for v in value])
    if isinstance(value, float) and value != value:
        return ("float", "nan")
    return (type(value).__name__, value)


def fast(text: str) -> tuple[Any, dict[str, int]] | None:
    return yaml_subset.parse(text, yamlfile.plain_scalar)


def assert_agrees(text: str) -> None:
    """When the subset reader accepts `text`, PyYAML reads the same values and lines."""
    mine = fast(text)
    if mine is None:
        return
    value, lines = pyyaml(text)  # must not raise: the subset only accepts valid YAML
    assert typed(mine[0]) == typed(value), text
    assert mine[1] == lines, text


# ---- examples ------------------------------------------------------------------------------


FRONT = """\
title: "Use PostgreSQL: the default"
status: accepted
date: 2026-01-05
description: 'It''s the boring choice'   # a comment
authors:
  - Ana Lima
  - "Liam O'Brien"
tags: [storage, "data, sql", 2026, yes]
review:
  every: 6 months
  reviewed: 2026-13-45
reviewers: {ana: approved, bo: pending}
effort: 1_000
ratio: 0.5
draft: false
empty:
"""


def test_reads_the_usual_shape_with_pyyaml_values_and_lines() -> None:
    data, lines = fast(FRONT)
    assert data == {
        "title": "Use PostgreSQL: the default", "status": "accepted",
        "date": dt.date(2026, 1, 5), "description": "It's the boring choice",
        "authors": ["Ana Lima", "Liam O'Brien"], "tags": ["storage", "data, sql", 2026, True],
        "review": {"every": "6 months", "reviewed": "2026-13-45"},
        "reviewers": {"ana": "approved", "bo": "pending"},
        "effort": 1000, "ratio": 0.5, "draft": False, "empty": None,
    }
    assert isinstance(data["review"]["reviewed"], yamlfile.InvalidDate)
    assert lines["authors.1"] == 7
    assert lines["tags.3"] == 8
    assert lines["review.reviewed"] == 11
    assert lines["reviewers.bo"] == 12
    assert_agrees(FRONT)


def test_declines_what_only_pyyaml_should_read() -> None:
    for text in [
        "a: &x 1\nb: *x\n",           # anchors and aliases
        "a: !!str 1\n",               # explicit tags
        "a: |\n  block\n",            # block scalars
        "a: one\n  two\n",            # a multi-line plain scalar
        'a: "esc\\"aped"\n',          # escapes
        "a:\n\tb: 1\n",               # tabs
        "a: {b: [1]}\n",              # flow collections inside flow collections
        "a: {b: 1\n",                 # a flow mapping that goes on
        "a: {'b': 1}\n",              # quoted keys
        "a:\n  b:\n    c: 1\n",       # deeper nesting
        "yes: 1\n",                   # a key that is not a string
        "<<: {a: 1}\n",               # merge keys
        "a: b: c\n",                  # invalid YAML
        "",                           # an empty document is null, not a mapping
        "- a\n- b\n",                 # not a mapping
    ]:
        assert fast(text) is None, text


def test_example_site_front_matter_takes_the_fast_path() -> None:
    for path in sorted(EXAMPLE_SITE.glob("content/*/*/*.md")):
        front = split_front_matter(path.read_text(encoding="utf-8"))[0]
        assert front is not None and fast(front) is not None, path
        assert_agrees(front)


def test_yamlfile_parse_gives_the_same_either_way() -> None:
    for text in [FRONT, "a: &x [1, 2]\nb: *x\n"]:
        assert typed(yamlfile.parse_with_lines(text)[0]) == typed(pyyaml(text)[0])


# ---- generated documents ---------------------------------------------------------------------

def mostly(usual: st.SearchStrategy[str], rare: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """`usual` about 19 times in 20, so that most documents stay inside the subset."""
    return st.integers(0, 19).flatmap(lambda n: rare if n == 19 else usual)


KEYS = mostly(
    st.sampled_from(["title", "a", "b_c", "x-y", "k.v", "Key", "n1", "_", "y", "e"]),
    st.sampled_from(["yes", "No", "on", "null", "1", "0x10", "2026-01-05", "1.5", "~"]))
WORDS = mostly(st.sampled_from([
    "", "word", "two words", "yes", "No", "off", "~", "null", "NULL", "true", "1", "-1", "+1",
    "1_000", "0x1F", "0o17", "017", "0b101", "1:20", "190:20:30", "1.5", "-.5", ".inf", "-.Inf",
    ".NaN", "1e5", "1.0e+5", "6.8523015e+5", "2026-01-05", "2026-1-5", "2026-13-45",
    "2026-02-29", "2026-01-05 10:30:00", "2026-01-05T10:30:00Z", "a:b", "a#b", "C#", "-a",
    "it's", 'say "hi"', "é", "日本", "a\\b", "a  b", "---", "...", "x.y", "a, b",
]), st.one_of(st.sampled_from([
    "<<", "=", "a: b", "a #b", "- a", "-", "?a", "? a", ":a", "%x", "@x", "`x", "!x", "&x", "*x",
    "|", ">", "'q'", '"q"', "[x]", "{x}", "a]b", "a}b", "x ", " x", "#", " #",
]), st.text(alphabet="ab :#-'\"[]{},?!&*|>%@`\\~.1é\t", max_size=8)))
COMMENTS = mostly(st.just(""), st.sampled_from([" # note", "  #", "#tight", " #"]))
SPACES = mostly(st.just(" "), st.sampled_from(["  ", ""]))


@st.composite
def scalars(draw: st.DrawFn) -> str:
    text = draw(WORDS)
    style = draw(st.sampled_from(["plain", "plain", "double", "single"]))
    if style == "double":
        return f'"{text}"'
    if style == "single":
        return "'" + text.replace("'", draw(mostly(st.just("''"), st.just("'")))) + "'"
    return text


@st.composite
def values(draw: st.DrawFn, key: str) -> list[str]:
    """The lines of one `key: value`, in one of the shapes front matter uses (or near it)."""
    shape = draw(st.sampled_from(["scalar", "scalar", "flow", "flowmap", "block", "map", "empty"]))
    colon = draw(mostly(st.just(":"), st.sampled_from([" :", "::"])))
    if shape == "scalar":
        return [f"{key}{colon}{draw(SPACES)}{draw(scalars())}{draw(COMMENTS)}"]
    if shape in ("flow", "flowmap"):
        if shape == "flow":
            items = draw(st.lists(scalars(), max_size=4))
            opening, closing = "[", "]"
        else:
            items = [f"{draw(KEYS)}:{draw(SPACES)}{draw(scalars())}"
                     for _ in range(draw(st.integers(0, 3)))]
            opening, closing = "{", "}"
        trailing = draw(mostly(st.just(""), st.sampled_from([",", " ,"]))) if items else ""
        body = ", ".join(items)
        closing = draw(mostly(st.just(closing), st.sampled_from(["", f"{closing}{closing}"])))
        return [f"{key}{colon} {opening}{body}{trailing}{closing}{draw(COMMENTS)}"]
    if shape == "empty":
        return [f"{key}{colon}{draw(COMMENTS)}"]
    inner = draw(st.sampled_from([" ", "  ", "    "]))
    lines = [f"{key}{colon}{draw(COMMENTS)}"]
    for _ in range(draw(st.integers(1, 3))):
        jitter = draw(mostly(st.just(""), st.just(" ")))
        if shape == "block":
            lines.append(f"{inner}{jitter}-{draw(SPACES)}{draw(scalars())}{draw(COMMENTS)}")
        else:
            lines.append(f"{inner}{jitter}{draw(KEYS)}:{draw(SPACES)}{draw(scalars())}"
                         f"{draw(COMMENTS)}")
        if draw(st.integers(0, 3)) == 0:
            lines.append(draw(st.sampled_from(["", "# c", "  # c", "   "])))
    return lines


@st.composite
def documents(draw: st.DrawFn) -> str:
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 6))):
        lines.extend(draw(values(draw(KEYS))))
        if draw(st.integers(0, 3)) == 0:
            lines.append(draw(st.sampled_from(["", "# comment", "  # indented comment"])))
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n"]))


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
@example("a: 1\nb: [x, 'y''z', \"w\"]\nc:\n  - 2026-01-05\n  - no\n")
@example("k:\n  x: 1\n  y: 2026-13-45\n")
@example("a: [x, y\nb: 1\n")
@example("a: [x,\nb: 1\n")
@example("a: [, ]\n")
@example("a: [,]\nb: [x, , y]\nc: [ ]\nd: [x,]\n")
def test_generated_front_matter_agrees_with_pyyaml(text: str) -> None:
    assert_agrees(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab: -#'\"[],\n\t1é", max_size=40))
def test_any_text_agrees_with_pyyaml_or_is_declined(text: str) -> None:
    try:
        assert_agrees(text)
    except yaml.YAMLError:
        raise AssertionError(f"the subset accepted invalid YAML: {text!r}") from None


def test_the_generator_mostly_produces_accepted_documents() -> None:
    """Guard against a generator so wild that the property above only checks declines.
    Derandomized: the same 120 documents every run, so the share is a property of the
    generator, not of the draw (a random draw once gave 30 of 120)."""
    accepted = 0

    @settings(max_examples=120, deadline=None, database=None, derandomize=True)
    @given(documents())
    def count(text: str) -> None:
        nonlocal accepted
        accepted += fast(text) is not None

    count()
    assert accepted >= 36


def test_what_is_left_to_pyyaml_is_what_pyyaml_reads_otherwise_at_every_code_point() -> None:
    """The characters PyYAML's reader refuses, its line breaks, tab and BOM: every one, and
    nothing else, sends a text to PyYAML."""
    refused = yaml.reader.Reader.NON_PRINTABLE
    special = set("\t\r\x85\u2028\u2029\ufeff")
    differ = [hex(point) for point in range(0x110000)
              if bool(yaml_subset._LEAVE_TO_PYYAML.match(chr(point)))
              != (bool(refused.match(chr(point))) or chr(point) in special)]
    assert differ == []
