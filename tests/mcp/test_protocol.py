"""The JSON-RPC framing over raw stdio: what goes in as bytes, what comes out as lines."""

from __future__ import annotations

import json

import pytest

from tests.conftest import EXAMPLE_SITE, run_cli
from tests.mcp.client import RawServer, call, initialize


@pytest.fixture
def server():
    with RawServer("--root", str(EXAMPLE_SITE)) as raw:
        yield raw


def test_initialize_echoes_a_known_version_and_offers_the_newest_otherwise(server):
    for version in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"):
        assert server.request(initialize(version))["result"]["protocolVersion"] == version
    answer = server.request(initialize("2099-01-01"))["result"]
    assert answer["protocolVersion"] == "2025-11-25"
    assert answer["capabilities"] == {"tools": {}, "resources": {}, "prompts": {},
                                      "completions": {}}
    assert answer["serverInfo"]["name"] == "site-builder" and answer["serverInfo"]["version"]
    assert answer["instructions"].count("list_projects") == 1


def test_structured_content_and_output_schemas_only_from_2025_06_18(server):
    server.request(initialize("2025-03-26"))
    tool = server.request({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})[
        "result"]["tools"][0]
    assert "outputSchema" not in tool and tool["annotations"]["readOnlyHint"] is True
    result = server.request(call(2, "list_projects"))["result"]
    assert "structuredContent" not in result
    assert json.loads(result["content"][0]["text"])["projects"]

    server.request(initialize("2024-11-05"))
    tool = server.request({"jsonrpc": "2.0", "id": 3, "method": "tools/list"})[
        "result"]["tools"][0]
    assert set(tool) == {"name", "description", "inputSchema"}

    server.request(initialize("2025-06-18"))
    result = server.request(call(4, "list_projects"))["result"]
    assert result["structuredContent"] == json.loads(result["content"][0]["text"])


def test_ids_may_be_zero_or_strings(server):
    assert server.request({"jsonrpc": "2.0", "id": 0, "method": "ping"}) == {
        "jsonrpc": "2.0", "id": 0, "result": {}}
    assert server.request({"jsonrpc": "2.0", "id": "abc", "method": "ping"})["id"] == "abc"
    assert server.request({"jsonrpc": "2.0", "id": "", "method": "ping"})["id"] == ""


def test_unknown_methods_are_refused_at_once(server):
    # Current SDK clients probe with server/discover first and wait 10 s on silence.
    answer = server.request({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                             "params": {}})
    assert answer["error"]["code"] == -32601 and answer["id"] == 1
    answer = server.request({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel"})
    assert answer["error"]["code"] == -32601


def test_notifications_are_never_answered(server):
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    server.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                 "params": {"requestId": 7}})
    server.send({"jsonrpc": "2.0", "method": "no/such/notification"})
    server.send({"jsonrpc": "2.0", "id": 9, "result": {}})  # a response from the client
    assert server.request({"jsonrpc": "2.0", "id": 10, "method": "ping"})["id"] == 10


def test_malformed_json_gets_32700_and_the_server_keeps_serving(server):
    server.send(b"{this is not json\n")
    answer = server.answer()
    assert answer["id"] is None and answer["error"]["code"] == -32700
    server.send(b"\xff\xfe\n")
    assert server.answer()["error"]["code"] == -32700
    server.send(b'{"jsonrpc":"2.0","id":1,"method":"ping","x":NaN}\n')
    assert server.answer()["error"]["code"] == -32700
    server.send(b"\n   \n")  # blank lines are not messages
    assert server.request({"jsonrpc": "2.0", "id": 2, "method": "ping"})["result"] == {}


def test_invalid_requests_get_32600(server):
    assert server.request({"id": 1, "method": "ping"})["error"]["code"] == -32600
    assert server.request({"jsonrpc": "2.0", "id": 2, "method": 5})["error"]["code"] == -32600
    bad_id = server.request({"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"})
    assert bad_id["id"] is None and bad_id["error"]["code"] == -32600
    assert server.request(42)["error"]["code"] == -32600
    assert server.request([])["error"]["code"] == -32600
    params = server.request({"jsonrpc": "2.0", "id": 3, "method": "ping", "params": [1]})
    assert params["error"]["code"] == -32602


def test_a_batch_is_answered_as_one_array(server):
    answers = server.request([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        call("two", "get_record", id="BUILD-ADR-0008"),
        {"jsonrpc": "2.0", "id": 3, "method": "nope"},
        "junk",
    ])
    assert isinstance(answers, list)
    assert [a.get("id") for a in answers] == [1, "two", 3, None]
    assert answers[1]["result"]["structuredContent"]["ref"] == "BUILD-ADR-0008"
    assert answers[2]["error"]["code"] == -32601
    assert answers[3]["error"]["code"] == -32600
    server.send([{"jsonrpc": "2.0", "method": "notifications/initialized"}])
    assert server.request({"jsonrpc": "2.0", "id": 4, "method": "ping"})["id"] == 4


def test_tool_errors_and_unknown_tools(server):
    answer = server.request(call(1, "get_record", id="nope/adr/1"))["result"]
    assert answer["isError"] is True
    assert answer["content"][0]["text"].startswith('No record matches "nope/adr/1"')
    unknown = server.request(call(2, "no_such_tool"))
    assert unknown["error"]["code"] == -32602
    not_object = server.request({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                                 "params": {"name": "search_records", "arguments": [1]}})
    assert not_object["result"]["isError"] is True


def test_stdout_carries_protocol_only_and_stdin_eof_exits_0():
    with RawServer("--root", str(EXAMPLE_SITE)) as server:
        server.send(initialize())
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        server.send(call(1, "search_records", query="cache"))
        server.send(call(2, "get_record"))
        server.send(b"garbage\n")
        server.send({"jsonrpc": "2.0", "id": 3, "method": "resources/list"})
        assert server.close() == 0
        lines = server.pending()
        assert lines[-1] == b""  # stdout closed
        answers = [json.loads(line) for line in lines[:-1]]
        assert all(line.endswith(b"\n") for line in lines[:-1])
        assert [a["id"] for a in answers] == [0, 1, 2, None, 3]
        assert all(a["jsonrpc"] == "2.0" for a in answers)


def test_a_broken_site_yml_stops_the_server_before_any_client_waits(tmp_path):
    (tmp_path / "site.yml").write_text("title: [unclosed\n", encoding="utf-8")
    result = run_cli("mcp", "--root", str(tmp_path), input="")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith("site-builder mcp: ")
    assert "site.yml:" in result.stderr and "error" in result.stderr


def test_no_archive_and_bad_urls_are_usage_errors(tmp_path):
    result = run_cli("mcp", "--root", str(tmp_path), input="")
    assert result.returncode == 2 and "no site.yml" in result.stderr
    for url in ("ftp://example.org/", "example.org", "http://", "file:///etc"):
        result = run_cli("mcp", "--url", url, input="")
        assert result.returncode == 2, url
        assert result.stderr.strip() == (
            "site-builder mcp: --url must be the address of a published site")
        assert result.stdout == ""


def test_a_line_too_long_to_be_a_message_is_refused_unread(server):
    server.send(b"[" + b"1," * (9 * 1024 * 1024) + b"1]\n")  # 18 MB
    answer = server.answer()
    assert answer["id"] is None and answer["error"]["code"] == -32700
    assert "longer than 16 MB" in answer["error"]["message"]
    assert server.request({"jsonrpc": "2.0", "id": 1, "method": "ping"})["result"] == {}


def test_a_lone_surrogate_id_is_echoed_and_the_server_keeps_serving(server):
    # JSON may spell a UTF-16 half that no UTF-8 can carry; the answer echoes it escaped.
    server.send(b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}\n')
    line = server.line()
    assert b'"id":"\\ud800"' in line
    assert json.loads(line) == {"jsonrpc": "2.0", "id": "\ud800", "result": {}}
    server.send(b'{"jsonrpc":"2.0","id":"\\udfff x","method":"no/\\ud800"}\n')
    assert json.loads(server.line())["error"]["code"] == -32601
    batch = server.request([{"jsonrpc": "2.0", "id": "\udc00", "method": "ping"},
                            {"jsonrpc": "2.0", "id": 2, "method": "ping"}])
    assert [a["id"] for a in batch] == ["\udc00", 2]
    assert server.request({"jsonrpc": "2.0", "id": 3, "method": "ping"})["result"] == {}
    assert server.close() == 0
