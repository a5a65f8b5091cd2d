"""The server on example-site, through the official MCP Python SDK client (mcp 2.3.0).

Every test runs four times: over stdio (the SDK spawns `python -m site_builder mcp --root …`)
and over Streamable HTTP (`site-builder mcp --http 127.0.0.1:0`), each with the SDK client
in its default mode, which must settle on 2026-07-28, and in legacy mode, which must settle
on 2025-11-25 through the initialize handshake. The SDK validates every structured answer
against the tool's published outputSchema, and these tests check what the answers say.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest

from site_builder.query import answers as query
from site_builder.query import copies, governance
from site_builder.sources.load import load_archive
from tests.conftest import EXAMPLE_SITE
from tests.mcp.client import Session, http_client, mcp_client
from tests.mcp.httpserver import HttpServer

TOOLS = ["list_projects", "search_records", "get_record", "list_tags", "list_fields",
         "list_authors", "due_reviews", "rfc_reviews", "records_for_paths", "list_superseded"]


SETTLES_ON = {"auto": "2026-07-28", "legacy": "2025-11-25"}


@pytest.fixture(scope="module")
def http_server() -> Iterator[HttpServer]:
    with HttpServer("--root", str(EXAMPLE_SITE)) as server:
        yield server


@pytest.fixture(scope="module", params=["stdio-auto", "stdio-legacy", "http-auto",
                                        "http-legacy"])
def client(request: pytest.FixtureRequest) -> Iterator[Session]:
    transport, mode = request.param.split("-")
    if transport == "stdio":
        with mcp_client("--root", str(EXAMPLE_SITE), mode=mode) as session:
            yield session
    else:
        server = request.getfixturevalue("http_server")
        with http_client(server.url, mode=mode) as session:
            yield session


def mode_of(client: Session) -> str:
    return client.client.mode


@pytest.fixture(scope="module")
def archive():
    return load_archive(EXAMPLE_SITE)


def test_the_handshake_names_the_server_and_tells_agents_where_to_start(client: Session):
    assert client.session.protocol_version == SETTLES_ON[mode_of(client)]
    assert client.session.server_info.name == "site-builder"
    capabilities = client.session.server_capabilities
    assert capabilities.tools is not None and capabilities.resources is not None
    instructions = client.session.instructions
    assert "list_projects" in instructions and "search_records" in instructions
    assert "current" in instructions


def test_ten_read_only_tools_with_strict_schemas(client: Session):
    listed = client.list_tools().tools
    assert [tool.name for tool in listed] == TOOLS
    for tool in listed:
        assert tool.title and tool.description
        schema = tool.input_schema
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.Draft202012Validator.check_schema(tool.output_schema)
        assert tool.output_schema["type"] == "object"
        hints = tool.annotations
        assert (hints.read_only_hint, hints.idempotent_hint, hints.destructive_hint,
                hints.open_world_hint) == (True, True, False, False)
    limits = {tool.name: tool.input_schema["properties"].get("limit") for tool in listed}
    assert limits["search_records"] == {"type": "integer", "minimum": 1, "maximum": 200,
                                        "description": "Records per answer", "default": 20}


def test_every_answer_is_the_query_layers_object(client: Session, archive):
    """The protocol adds nothing and loses nothing: each tool answers what the query layer says."""
    calls = {
        "list_projects": {},
        "search_records": {"query": "cache", "current_only": True},
        "list_tags": {"project": "build"},
        "list_fields": {},
        "list_authors": {},
        "due_reviews": {"all": True},
        "rfc_reviews": {},
        "records_for_paths": {"paths": ["site_builder/mcp/server.py"]},
        "list_superseded": {},
        "get_record": {"id": "BUILD-ADR-0008"},
    }
    listed = {tool.name: tool for tool in client.list_tools().tools}
    for name, arguments in calls.items():
        answer = client.answer(name, **arguments)
        asked = getattr(query, name, None) or getattr(governance, name)
        assert answer == asked(archive, **arguments)
        jsonschema.validate(answer, listed[name].output_schema)


def test_list_projects_in_their_order_with_counts(client: Session, archive):
    projects = client.answer("list_projects")["projects"]
    assert [p["id"] for p in projects] == list(archive.projects)
    assert sum(p["records"] for p in projects) == len(archive.records)
    agents = next(p for p in projects if p["id"] == "agents")
    assert agents["name"] == "Agents" and agents["owners"] == ["pnair", "hsato"]
    assert [f["name"] for f in agents["fields"]] == ["protocol_version"]


def test_search_combines_filters_and_pages(client: Session):
    first = client.answer("search_records", tag="MCP", limit=2)
    assert first["total"] >= 4 and len(first["records"]) == 2
    assert all("mcp" in r["tags"] for r in first["records"])
    dates = [r["date"] for r in first["records"]]
    assert dates == sorted(dates, reverse=True)
    second = client.answer("search_records", tag="mcp", limit=2, offset=2)
    assert not {r["id"] for r in first["records"]} & {r["id"] for r in second["records"]}
    risky = client.answer("search_records", field="risk=HIGH", status="implemented")
    assert risky["records"] and all(r["fields"]["risk"] == "high" and
                                    r["status"] == "implemented" for r in risky["records"])
    ranked = client.answer("search_records", query="cache", sort="relevance", limit=3)
    assert ranked["total"] >= 3


def test_get_record_by_ref_short_id_and_slug_gives_the_markdown_copy(client: Session,
                                                                      archive):
    by_id = client.answer("get_record", id="build/adr/0008-build-beside-the-output-and-swap")
    for other in ("BUILD-ADR-0008", "build-adr-0008", "build/adr/8", "build/adr/0008",
                  "0008-build-beside-the-output-and-swap"):
        assert client.answer("get_record", id=other) == by_id
    result = client.call("get_record", id="build/adr/8")
    record = archive.get("build/adr/8")
    assert result.content[0].text == copies.markdown_copy(archive, record)
    assert result.content[0].text.startswith("---\nid: \"build/adr/0008-")
    assert by_id["body"] == record.body and by_id["current"] is False  # build/adr/0015 replaced it


def test_a_superseded_record_points_at_the_one_in_force(client: Session):
    old = client.answer("get_record", id="build/adr/1")
    assert old["current"] is False and old["status"] == "superseded"
    assert old["currentRecord"]["id"] == (
        "build/adr/0025-journal-the-commit-so-a-killed-build-is-undone")
    superseded = client.answer("list_superseded")["records"]
    chains = {r["id"]: [c["id"] for c in r["chain"]] for r in superseded}
    assert chains["build/adr/0001-write-the-site-into-the-output-folder"] == [
        "build/adr/0004-build-in-a-temp-folder-and-copy",
        "build/adr/0008-build-beside-the-output-and-swap",
        "build/adr/0015-stage-only-changed-files",
        "build/adr/0025-journal-the-commit-so-a-killed-build-is-undone"]


def test_records_for_paths_answers_the_rfcs_example(client: Session):
    """The answer agents/rfc/0001 shows for site_builder/render/output/writer.py, with the
    record decided since (build/adr/0037, the whole-site exchange) among the current ones."""
    answer = client.answer("records_for_paths", paths=["site_builder/render/output/writer.py"])
    assert answer["total"] == 10
    assert {r["id"] for r in answer["current"]} == {
        "build/adr/0037-build-incrementally-and-exchange-the-whole-site",
        "build/adr/0022-body-cache-in-one-sqlite-file",
        "build/adr/0025-journal-the-commit-so-a-killed-build-is-undone",
        "build/adr/0009-deterministic-output-and-source-date-epoch",
        "build/adr/0002-static-output-on-any-host"}
    assert {r["id"] for r in answer["historical"]} == {
        "build/adr/0015-stage-only-changed-files",
        "build/adr/0012-render-pages-in-parallel-worker-processes",
        "build/adr/0008-build-beside-the-output-and-swap",
        "build/adr/0004-build-in-a-temp-folder-and-copy",
        "build/adr/0001-write-the-site-into-the-output-folder"}
    nothing = client.answer("records_for_paths", paths=["docs/unrelated.txt"])
    assert nothing == {"total": 0, "offset": 0, "limit": 20, "current": [], "historical": []}


def test_wrong_input_is_a_tool_error_the_agent_can_act_on(client: Session):
    assert client.error("get_record") == (
        "id is required: full id, short id, ref or slug of the record.")
    assert client.error("get_record", id="0001") == (
        'No record matches "0001". Use search_records to find ids.')
    assert "limit must be from 1 to 200, not 500" in client.error("search_records", limit=500)
    assert "limit must be from 1 to 200, not 0" in client.error("search_records", limit=0)
    assert "must be a whole number" in client.error("search_records", limit="ten")
    assert 'Did you mean "query"?' in client.error("search_records", qeury="cache")
    assert "current_only must be true or false" in client.error("search_records",
                                                                current_only="yes")
    assert "name=value" in client.error("search_records", field="risk")
    assert "paths must hold at least 1 item" in client.error("records_for_paths", paths=[])
    assert "takes no arguments" in client.error("list_projects", project="build")


def test_an_unknown_tool_is_a_protocol_error(client: Session):
    from mcp import MCPError

    with pytest.raises(MCPError) as raised:
        client.call("drop_tables")
    assert raised.value.error.code == -32602
    assert "drop_tables" in raised.value.error.message


def test_one_resource_per_record_readable_as_markdown(client: Session, archive):
    resources = client.list_resources().resources
    assert len(resources) == len(archive.records)
    first = resources[0]
    record = archive.records[0]
    assert str(first.uri) == f"decision://{record.id}"
    assert first.name == record.ref and first.title == record.title
    assert first.description == f"{record.status}: {record.description}"
    assert first.mime_type == "text/markdown"
    contents = client.read_resource(first.uri).contents
    assert contents[0].text == copies.markdown_copy(archive, record)
    templates = client.list_resource_templates().resource_templates
    assert [t.uri_template for t in templates] == ["decision://{id}"]


def test_an_unknown_resource_is_32002_before_2026_and_32602_since(client: Session):
    from mcp import MCPError

    with pytest.raises(MCPError) as raised:
        client.read_resource("decision://nope/adr/0001-missing")
    assert raised.value.error.code == (-32002 if mode_of(client) == "legacy" else -32602)
    assert raised.value.error.message == "Resource not found"


def test_ping_in_the_handshake_era_only(client: Session):
    from mcp import MCPError

    if mode_of(client) == "legacy":
        with pytest.warns(match="ping is removed"):  # the SDK warns in every mode
            client.send_ping()
        return
    # 2026-07-28 removed ping: the SDK still sends it (with a warning), and it is unknown.
    with pytest.warns(match="ping is removed"), pytest.raises(MCPError) as raised:
        client.send_ping()
    assert raised.value.error.code == -32601


def test_search_and_show_json_print_exactly_the_tools_object(client: Session):
    from tests.conftest import run_cli

    shown = run_cli("search", "--root", str(EXAMPLE_SITE), "cache", "--tag", "build",
                    "--json")
    assert json.loads(shown.stdout) == client.answer("search_records", query="cache",
                                                     tag="build")
    shown = run_cli("show", "--root", str(EXAMPLE_SITE), "BUILD-ADR-0004", "--json")
    assert json.loads(shown.stdout) == client.answer("get_record", id="BUILD-ADR-0004")
    assert Path(EXAMPLE_SITE / "site.yml").is_file()
