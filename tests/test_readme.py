"""The README's examples are what example-site answers today (see tests/readme.py)."""

from __future__ import annotations

import json

import pytest

from site_builder.sources.load import load_archive
from tests import readme

TEXT = readme.README.read_text(encoding="utf-8")
EXAMPLES = readme.examples(TEXT)


def test_the_readme_shows_an_example_of_every_tool():
    shown = {match["tool"] for match in EXAMPLES}
    assert shown == {t.name for t in readme.tools.TOOLS}


@pytest.mark.parametrize("match", EXAMPLES, ids=[m["tool"] for m in EXAMPLES])
def test_each_example_is_what_the_tool_answers_on_example_site(match):
    archive = load_archive(readme.EXAMPLE_SITE)
    assert match["block"] == readme.expected(archive, match), (
        "README.md is out of date: run `.venv/bin/python -m tests.readme --write`")
    if match["kind"] == "json":
        json.loads(match["block"])  # what the README shows is valid JSON


def test_the_tool_table_is_made_from_the_tools_declarations():
    assert readme.TABLE.search(TEXT)[0] == readme.tool_table()
    for tool in readme.tools.TOOLS:
        assert f"| `{tool.name}` |" in readme.tool_table()


def test_the_check_fails_on_a_stale_example():
    stale = TEXT.replace('"limit": 1}`', '"limit": 2}`', 1)
    assert stale != TEXT
    archive = load_archive(readme.EXAMPLE_SITE)
    assert readme.rewrite(stale, archive) != stale
