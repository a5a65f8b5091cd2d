"""One declaration of the record and the tools: every schema, flag and check derives from it.

The derived schemas are checked with the full `jsonschema` library against real answers, on
example-site and on the benchmark corpus; the small validator the MCP server and the CLI use
is checked to agree with `jsonschema` on arguments of every shape.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import make_corpus
from site_builder.cli import build_parser
from site_builder.contract import records as contract
from site_builder.mcp import tools
from site_builder.query import answers as query
from site_builder.render.agents.schema import decisions_schema
from site_builder.sources.load import load_archive
from tests.conftest import EXAMPLE_SITE, run_cli

RECORD_KEYS = [k.name for k in contract.RECORD]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The benchmark archive at 300 records: every shape of record the bench measures."""
    root = tmp_path_factory.mktemp("corpus")
    make_corpus.generate(str(root), 300, 20240601)
    return root


@pytest.mark.parametrize("which", ["example", "corpus"])
def test_every_answer_fits_the_schemas_derived_from_the_declaration(which, corpus):
    archive = load_archive(EXAMPLE_SITE if which == "example" else corpus)
    detail = jsonschema.Draft202012Validator(tools.BY_NAME["get_record"].output_schema)
    for record in archive.records:
        answer = query.detail(archive, record)
        assert list(answer) == [*RECORD_KEYS, "body"]
        assert list(query.summary(record)) == list(contract.SUMMARY_KEYS)
        detail.validate(answer)
    for tool in tools.TOOLS:
        arguments = {"id": archive.records[0].id} if tool.name == "get_record" else (
            {"paths": ["site_builder/render/output/writer.py", "src/x.py"]}
            if tool.name == "records_for_paths" else {})
        if tool.name == "due_reviews":
            arguments = {"all": True}
        answer, _ = tools.run(tool, archive, tool.arguments(arguments))
        jsonschema.validate(answer, tool.output_schema)


@pytest.mark.parametrize("which", ["example", "corpus"])
def test_a_built_decisions_json_fits_its_derived_schema(which, corpus, tmp_path):
    root = EXAMPLE_SITE if which == "example" else corpus
    out = tmp_path / "site"
    built = run_cli("build", "--root", str(root), "--output", str(out), timeout=300)
    assert built.returncode == 0, built.stderr
    schema = json.loads((out / "decisions.schema.json").read_text())
    assert schema == json.loads(json.dumps(decisions_schema(load_archive(root).config)))
    jsonschema.Draft202012Validator.check_schema(schema)
    data = json.loads((out / "decisions.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(data)
    assert [list(r) for r in data["records"][:1]] == [[*RECORD_KEYS, "path", "md"]]


def test_the_mcp_tools_and_the_cli_take_exactly_the_declared_parameters():
    assert len(tools.BY_NAME) == len(tools.TOOLS)
    for tool in tools.TOOLS:
        declared = {p.name for p in tool.params}
        assert set(tool.input_schema["properties"]) == declared
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        jsonschema.Draft202012Validator.check_schema(tool.output_schema)
    parser = build_parser()
    search = parser._subparsers._group_actions[0].choices["search"]
    flags = {a.dest for a in search._actions} - {"help", "root", "json", "url"}
    assert flags == {p.name for p in tools.BY_NAME["search_records"].params}


def test_the_cli_refuses_what_the_mcp_server_refuses_in_the_same_words():
    for argv, arguments in ((["--limit", "0"], {"limit": 0}),
                            (["--offset", "-3"], {"offset": -3}),
                            (["--limit", "201"], {"limit": 201})):
        with pytest.raises(contract.ArgumentError) as refused:
            tools.BY_NAME["search_records"].arguments(arguments)
        result = run_cli("search", "--root", str(EXAMPLE_SITE), *argv)
        assert result.returncode == 2
        assert result.stderr.strip() == f"site-builder: {refused.value}"


_NAMES = st.sampled_from([p.name for tool in tools.TOOLS for p in tool.params]
                         + ["nope", "Limit"])
_VALUES = (st.none() | st.booleans() | st.integers(-5, 2_000_000)
           | st.floats(allow_nan=False, allow_infinity=False, width=32)
           | st.text(alphabet="abc/=*é", min_size=1, max_size=600)
           | st.lists(st.text(alphabet="ab/", min_size=1, max_size=3), max_size=3)
           | st.sampled_from(["date", "relevance", "x"]))


@settings(max_examples=400, deadline=None)
@given(tool=st.sampled_from(tools.TOOLS),
       arguments=st.dictionaries(_NAMES, _VALUES, max_size=4))
def test_the_argument_check_agrees_with_jsonschema(tool, arguments):
    valid = jsonschema.Draft202012Validator(tool.input_schema).is_valid(arguments)
    try:
        tool.arguments(arguments)
    except contract.ArgumentError:
        assert not valid, (tool, arguments)
    else:
        assert valid, (tool, arguments)
