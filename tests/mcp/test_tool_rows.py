"""A tool is one row: a declaration with a query function is listed, checked, answered and
published with its schemas, and nothing else needs to name it."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import jsonschema

from site_builder.access.source import LocalSource
from site_builder.archive.archive import Archive
from site_builder.config.site import load_config
from site_builder.contract.answers import counted
from site_builder.contract.records import Param, limit
from site_builder.mcp import tools
from site_builder.mcp.protocol import Request
from site_builder.mcp.server import Server
from tests.conftest import EXAMPLE_SITE


def count_statuses(archive: Archive, limit: int = 100) -> dict[str, Any]:
    """A query as query.py writes them: Archive × checked arguments → a plain dict."""
    counts = Counter(r.status for r in archive.records).most_common(limit)
    return {"statuses": [{"name": n, "count": c} for n, c in counts], "total": len(counts)}


ROW = tools.Tool(
    "count_statuses", "Count statuses", "How many records have each status, most first.",
    count_statuses, (limit(100, 1000, "Statuses"),), counted("statuses"),
    "`statuses[]` of `{name, count}`")


def server() -> Server:
    config, _ = load_config(EXAMPLE_SITE)
    return Server(LocalSource(config, log=lambda _: None), log=lambda _: None,
                  table=(*tools.TOOLS, ROW))


def ask(method: str, **params: Any) -> dict[str, Any]:
    answer = server().handle(Request(method, {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}, **params}, 1))
    assert answer is not None and "result" in answer, answer
    return answer["result"]


def test_a_new_row_is_listed_with_the_schemas_its_declaration_makes():
    listed = ask("tools/list")["tools"]
    assert [t["name"] for t in listed] == [*(t.name for t in tools.TOOLS), "count_statuses"]
    entry = listed[-1]
    assert entry["inputSchema"] == {"type": "object", "additionalProperties": False,
                                    "properties": {"limit": Param(
                                        "limit", "integer", "Statuses per answer", 100, 1,
                                        1000).schema()}}
    assert entry["outputSchema"] == counted("statuses")
    assert entry["annotations"]["readOnlyHint"] is True


def test_a_new_row_is_checked_and_answered_like_every_tool():
    result = ask("tools/call", name="count_statuses", arguments={"limit": 2})
    assert result["isError"] is False
    jsonschema.validate(result["structuredContent"], ROW.output_schema)
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
    assert len(result["structuredContent"]["statuses"]) == 2
    refused = ask("tools/call", name="count_statuses", arguments={"limit": 0})
    assert refused["isError"] is True
    assert refused["content"][0]["text"] == "limit must be from 1 to 1000, not 0."
    unknown = ask("tools/call", name="count_statuses", arguments={"status": "x"})
    assert '"status" is not an argument of count_statuses' in unknown["content"][0]["text"]


def test_the_default_table_is_every_row_in_order():
    assert [t["name"] for t in Server(LocalSource(load_config(EXAMPLE_SITE)[0],
                                                  log=lambda _: None)).handle(
        Request("tools/list", {}, 1))["result"]["tools"]] == [t.name for t in tools.TOOLS]
