"""Protocol 2026-07-28 over raw stdio, beside the handshake era on the same server.

What the SDK client does not show: the exact fields of each result, every refusal of the
envelope, both eras mixed on one connection and in one batch, and remote mode answering
`server/discover` and `tools/list` without touching the network.
"""

from __future__ import annotations

import shutil
from typing import Any

import pytest

from tests.conftest import EXAMPLE_SITE, edit_text
from tests.mcp.client import RawServer, initialize

VERSION = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
META = {VERSION: "2026-07-28", CAPABILITIES: {}}


def modern(request_id: Any, method: str, meta: dict[str, Any] | None = None,
           **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method,
            "params": {"_meta": META if meta is None else meta, **params}}


@pytest.fixture
def server():
    with RawServer("--root", str(EXAMPLE_SITE)) as raw:
        yield raw


def test_discover_names_every_revision_and_the_server(server):
    result = server.request(modern(1, "server/discover"))["result"]
    assert result["supportedVersions"] == ["2024-11-05", "2025-03-26", "2025-06-18",
                                           "2025-11-25", "2026-07-28"]
    assert result["capabilities"] == {"tools": {}, "resources": {}, "prompts": {},
                                      "completions": {}}
    assert "list_projects" in result["instructions"]
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "site-builder"
    assert (result["resultType"], result["cacheScope"]) == ("complete", "public")
    assert result["ttlMs"] == 300_000


def test_results_carry_result_type_and_cache_hints_where_cacheable(server):
    tools = server.request(modern(1, "tools/list"))["result"]
    assert tools["resultType"] == "complete" and tools["ttlMs"] == 300_000
    assert all("outputSchema" in tool and "title" in tool for tool in tools["tools"])
    call = server.request(modern(2, "tools/call", name="list_tags",
                                 arguments={"limit": 1}))["result"]
    assert call["resultType"] == "complete" and call["isError"] is False
    assert "ttlMs" not in call and call["structuredContent"]["tags"]
    listed = server.request(modern(3, "resources/list"))["result"]
    assert (listed["ttlMs"], listed["cacheScope"]) == (0, "public")  # local: edits show at once
    read = server.request(modern(4, "resources/read", uri=listed["resources"][0]["uri"]))
    assert read["result"]["ttlMs"] == 0 and read["result"]["contents"][0]["text"]
    templates = server.request(modern(5, "resources/templates/list"))["result"]
    assert templates["ttlMs"] == 300_000


def test_the_envelope_is_checked(server):
    future = server.request(modern(1, "tools/list", {**META, VERSION: "2099-01-01"}))
    assert future["error"]["code"] == -32022
    assert future["error"]["data"] == {"supported": ["2024-11-05", "2025-03-26", "2025-06-18",
                                                     "2025-11-25", "2026-07-28"],
                                       "requested": "2099-01-01"}
    old = server.request(modern(2, "tools/list", {**META, VERSION: "2025-11-25"}))
    assert old["error"]["code"] == -32022 and "initialize" in old["error"]["message"]
    missing = server.request(modern(3, "tools/list", {VERSION: "2026-07-28"}))
    assert missing["error"]["code"] == -32602 and CAPABILITIES in missing["error"]["message"]
    wrong = server.request(modern(4, "tools/list", {VERSION: 2026, CAPABILITIES: {}}))
    assert wrong["error"]["code"] == -32602
    unknown = server.request(modern(5, "resources/read", uri="decision://nope"))
    assert unknown["error"] == {"code": -32602, "message": "Resource not found",
                                "data": {"uri": "decision://nope"}}
    for method in ("ping", "logging/setLevel"):  # ping is gone in 2026-07-28
        assert server.request(modern(6, method))["error"]["code"] == -32601


def test_both_eras_on_one_connection_and_in_one_batch(server):
    assert server.request(initialize("2025-03-26"))["result"]["protocolVersion"] == "2025-03-26"
    batch = server.request([
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        modern(2, "tools/list"),
        {"jsonrpc": "2.0", "id": 3, "method": "resources/read",
         "params": {"uri": "decision://nope"}},
        modern(4, "resources/read", uri="decision://nope"),
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ])
    assert [answer["id"] for answer in batch] == [1, 2, 3, 4]
    assert "outputSchema" not in batch[0]["result"]["tools"][0]  # 2025-03-26, as negotiated
    assert "resultType" not in batch[0]["result"]
    assert "outputSchema" in batch[1]["result"]["tools"][0]
    assert batch[2]["error"]["code"] == -32002 and batch[3]["error"]["code"] == -32602
    # initialize is always the handshake: an envelope on it changes nothing.
    answer = server.request({**initialize("2026-07-28"), "params": {
        "protocolVersion": "2026-07-28", "capabilities": {}, "_meta": META}})
    assert answer["result"]["protocolVersion"] == "2025-11-25"


def test_remote_mode_discovers_and_lists_tools_without_the_network(example_published):
    _, site = example_published
    before = len(site.hits)
    with RawServer("--url", site.url) as server:
        assert server.request(modern(1, "server/discover"))["result"]["supportedVersions"]
        assert server.request(modern(2, "tools/list"))["result"]["tools"]
        assert len(site.hits) == before
        listed = server.request(modern(3, "resources/list"))["result"]
        assert listed["ttlMs"] == 30_000 and len(site.hits) > before


def test_a_value_json_cannot_carry_is_a_tool_error_not_an_internal_error(tmp_path):
    # The loader refuses `.nan` at its line, so the record is not served at all; the answer
    # is still a tool error the agent can read, never -32603.
    root = tmp_path / "archive"
    shutil.copytree(EXAMPLE_SITE, root, ignore=shutil.ignore_patterns("_site", ".site-builder"))
    record = root / "content" / "agents" / "adr" / "0008-facets-and-term-memos-per-archive.md"
    edit_text(record, "effort: 2\n", "effort: .nan\n")
    with RawServer("--root", str(root)) as server:
        for era in ({}, {"_meta": META}):
            answer = server.request({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                     "params": {"name": "get_record", **era,
                                                "arguments": {"id": "AGENTS-ADR-0008"}}})
            assert answer["result"]["isError"] is True
            assert 'No record matches "AGENTS-ADR-0008"' in answer["result"]["content"][0]["text"]
        fine = server.request({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "get_record", "arguments": {"id": "BUILD-ADR-0008"}}})
        assert fine["result"]["isError"] is False
