"""Answers at hand are given on the event loop (`post.answer_at_once`), and only those.

The server and its local source are the real ones, on a copy of a fixture archive: a call
answered before, for the archive as it is now, gets from the loop exactly the bytes the
answer thread would send; anything else (a first call, an edit not yet read, a bad
argument, a batch) is left to the answer thread.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from site_builder.access.source import LocalSource
from site_builder.config.site import load_config
from site_builder.mcp.post import answer_at_once, answer_body
from site_builder.mcp.server import Server

RECORD = Path("content") / "core" / "adr" / "0001-use-postgres.md"
MODERN = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {}}


def call(request_id: int, name: str, modern: bool = True, **arguments: Any) -> bytes:
    params: dict[str, Any] = {"name": name, "arguments": arguments}
    if modern:
        params["_meta"] = MODERN
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                       "params": params}).encode()


def server_on(root: Path) -> Server:
    config, _ = load_config(root)
    assert config is not None
    return Server(LocalSource(config, log=lambda line: None))


def title(reply: tuple[int, bytes, Any]) -> str:
    return str(json.loads(reply[1])["result"]["structuredContent"]["title"])


def test_a_call_answered_before_is_answered_at_once_with_the_same_bytes(
        fixture_archive: Callable[[str], Path]):
    server = server_on(fixture_archive("mcp-lineage"))
    assert answer_at_once(server, call(7, "get_record", id="core/adr/1"), None, None) is None
    for modern, version in ((True, None), (False, "2025-06-18"), (False, "2024-11-05")):
        body = call(7, "get_record", modern, id="core/adr/1")
        worked = answer_body(server, body, version, None)
        assert answer_at_once(server, body, version, None) == worked
        again = call(8, "get_record", modern, id="core/adr/1")
        assert answer_at_once(server, again, version, None) == answer_body(
            server, again, version, None)


def test_an_edit_not_yet_read_is_left_to_the_answer_thread(
        fixture_archive: Callable[[str], Path]):
    root = fixture_archive("mcp-lineage")
    server = server_on(root)
    body = call(1, "get_record", id="core/adr/1")
    before = title(answer_body(server, body, None, None))
    path = root / RECORD
    path.write_text(path.read_text(encoding="utf-8").replace(
        f"title: {before}", "title: Edited"), encoding="utf-8")
    assert answer_at_once(server, body, None, None) is None
    assert title(answer_body(server, body, None, None)) == "Edited"
    assert title(answer_at_once(server, body, None, None) or (0, b"", [])) == "Edited"


def test_what_is_not_a_call_at_hand_is_never_answered_at_once(
        fixture_archive: Callable[[str], Path]):
    server = server_on(fixture_archive("mcp-lineage"))
    body = call(1, "list_tags")
    answer_body(server, body, None, None)
    assert answer_at_once(server, body, None, None) is not None
    for other in (call(2, "list_tags", limit="many"), call(3, "no_such_tool"),
                  b"[" + body + b"]", b"{not json", json.dumps(
                      {"jsonrpc": "2.0", "method": "tools/call", "params": {
                          "name": "list_tags", "arguments": {}, "_meta": MODERN}}).encode()):
        assert answer_at_once(server, other, None, None) is None, other
    # A header naming another revision than the body: refused by the answer thread.
    assert answer_at_once(server, body, None, "2025-06-18") is None
