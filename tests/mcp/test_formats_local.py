"""The MCP server's local mode over folders in other tools' formats."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import FIXTURES


def ask(root, *calls: tuple[str, dict]) -> list[dict]:
    """Answers of the stdio server to `tools/call` requests, after the handshake."""
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    lines += [{"jsonrpc": "2.0", "id": n, "method": "tools/call",
               "params": {"name": name, "arguments": arguments}}
              for n, (name, arguments) in enumerate(calls, start=1)]
    result = subprocess.run([sys.executable, "-m", "site_builder", "mcp", "--root", str(root)],
                            input="".join(json.dumps(line) + "\n" for line in lines),
                            capture_output=True, text=True, timeout=60, check=True)
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    return [a["result"]["structuredContent"] for a in answers if a["id"]]


def test_tools_answer_from_a_log4brains_folder_read_in_place() -> None:
    record, superseded = ask(FIXTURES / "formats" / "log4brains",
                             ("get_record", {"id": "backend/20201028-use-rest"}),
                             ("list_superseded", {}))
    assert (record["title"], record["status"]) == ("Use REST for the public API", "superseded")
    assert record["supersededBy"]["id"] == "backend/adr/20201029-use-graphql"
    assert "- Status:" not in record["body"]
    assert [item["id"] for item in superseded["records"]] == ["backend/adr/20201028-use-rest"]
