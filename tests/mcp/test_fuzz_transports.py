"""Ten thousand hostile messages over each transport: stdio and Streamable HTTP.

One corpus, made once from a fixed seed so a failure can be replayed: every tool with every
argument given every wrong type, lone surrogates in ids and arguments, invalid UTF-8, JSON
nested far deeper than a parser recurses, huge strings, over-long lines and bodies,
oversized batches, broken envelopes of both eras, and a random remainder drawn like
test_fuzz's. Each message goes to one long-lived stdio server (pipelined, a ping after each
line so answers can be told apart) and as one POST to one HTTP server (on 127.0.0.1). Each
request must get exactly one answer with its id, none may be -32603 (input never makes an
internal error), and both servers must be alive at the end.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from site_builder.mcp import tools
from tests.conftest import EXAMPLE_SITE
from tests.mcp.client import RawServer
from tests.mcp.httpserver import HttpServer
from tests.mcp.test_fuzz import METHODS, WORDS, check_answers, expected

MESSAGES = 10_000
MODERN = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {}}
WRONG = [None, True, False, 0, -1, 1.5, 10**30, "", " ", "x", "²", "\ud800", "9" * 5000,
         [], [1], ["\udfff"], {}, {"a": 1}, float("1e308")]


def _line(message: Any) -> bytes:
    return json.dumps(message).encode() + b"\n"


def _call(request_id: Any, name: str, arguments: Any, meta: bool) -> dict[str, Any]:
    params: dict[str, Any] = {"name": name, "arguments": arguments}
    if meta:
        params["_meta"] = MODERN
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def _systematic() -> Iterator[bytes]:
    """Every tool × every argument × every wrong value, in both eras; then the edge cases."""
    number = 0
    for tool in tools.TOOLS:
        names = [*tool.input_schema["properties"], "unknown_argument"]
        for name in names:
            for value in WRONG:
                for meta in (False, True):
                    number += 1
                    yield _line(_call(number, tool.name, {name: value}, meta))
        for arguments in WRONG:
            yield _line(_call(f"args-{tool.name}", tool.name, arguments, False))
    for cursor in WRONG:
        yield _line({"jsonrpc": "2.0", "id": "c", "method": "resources/list",
                     "params": {"cursor": cursor}})
        yield _line({"jsonrpc": "2.0", "id": "c", "method": "resources/list",
                     "params": {"cursor": cursor, "_meta": MODERN}})
        yield _line({"jsonrpc": "2.0", "id": "u", "method": "resources/read",
                     "params": {"uri": cursor, "_meta": MODERN}})
    for version in WRONG:
        yield _line({"jsonrpc": "2.0", "id": "v", "method": "tools/list", "params": {
            "_meta": {"io.modelcontextprotocol/protocolVersion": version}}})
        yield _line({"jsonrpc": "2.0", "id": "v", "method": "tools/list", "params": {
            "_meta": {**MODERN, "io.modelcontextprotocol/protocolVersion": version}}})
        yield _line({"jsonrpc": "2.0", "id": "i", "method": "initialize",
                     "params": {"protocolVersion": version}})
    for bad_id in ("\ud800", "\udfff\ud800", "ok\udc80"):
        yield _line({"jsonrpc": "2.0", "id": bad_id, "method": "tools/list"})
    yield b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\xff\xfe"}}\n'
    yield b"\xc3\x28\xa0\xa1\xf0\x28\x8c\xbc\n"
    yield b"[" * 200_000 + b"\n"
    yield b'{"a":' * 50_000 + b"1" + b"}" * 50_000 + b"\n"
    yield _line({"jsonrpc": "2.0", "id": "deep", "method": "tools/call", "params": {
        "name": "search_records", "arguments": {"query": _deep(900)}}})
    yield _line(_call("huge", "search_records", {"query": "cache " * 200_000}, True))
    yield _line(_call("huge-id", "get_record", {"id": "x" * 1_000_000}, False))
    yield _line([{"jsonrpc": "2.0", "id": i, "method": "ping"} for i in range(101)])
    yield _line([_call(i, "list_tags", {"limit": 1}, False) for i in range(100)])
    yield b"[]\n"
    yield b"\n"


def _deep(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


def _random(rng: random.Random) -> bytes:
    """A message like the ones test_fuzz draws, from a seeded generator."""
    method = rng.choice([*METHODS, "tools/call", "tools/call", "x/y"])
    request_id: Any = rng.choice([0, 1, "a", "", 2**40, None, 1.5, [], "\ud800"])
    params: Any = rng.choice([{}, None, [], "x", {"_meta": MODERN}])
    if method == "tools/call":
        tool = rng.choice(tools.TOOLS)
        properties = list(tool.input_schema["properties"])
        arguments = {name: rng.choice([*WORDS, *WRONG[:12], rng.randint(-5, 500)])
                     for name in rng.sample(properties, min(len(properties),
                                                           rng.randint(0, 3)))}
        params = {"name": tool.name, "arguments": arguments}
        if rng.random() < 0.5:
            params["_meta"] = MODERN
    message: dict[str, Any] = {"jsonrpc": rng.choice(["2.0", "2.0", "2.0", "1.0", None]),
                               "method": method, "params": params}
    if request_id is not None or rng.random() < 0.3:
        message["id"] = request_id
    if rng.random() < 0.05:
        message = {"jsonrpc": "2.0", "id": 7, "result": {}}
    if rng.random() < 0.1:
        return _line([message, message])
    if rng.random() < 0.03:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 40))).replace(
            b"\n", b" ") + b"\n"
    return _line(message)


def corpus() -> list[bytes]:
    """The same lines on every run: the systematic ones, then random ones up to MESSAGES."""
    rng = random.Random(20261201)
    lines = list(_systematic())
    while len(lines) < MESSAGES:
        lines.append(_random(rng))
    return lines


def check(line: bytes, written: bytes | None) -> None:
    """`written` is what `line` calls for (an oversized batch: one -32600 for all of it),
    and no answer is an internal error."""
    try:
        value = json.loads(line)
    except (UnicodeDecodeError, ValueError, RecursionError):
        value = None
    if isinstance(value, list) and len(value) > 100:
        assert written is not None and json.loads(written)["error"]["code"] == -32600
        return
    for answer in check_answers(line, written):
        assert answer.get("error", {}).get("code") != -32603, (line[:200], answer)


@pytest.fixture(scope="module")
def lines() -> list[bytes]:
    return corpus()


def test_ten_thousand_lines_over_stdio(lines: list[bytes]):
    with RawServer("--root", str(EXAMPLE_SITE)) as server:
        def write() -> None:
            for number, line in enumerate(lines):
                server.send(line)
                server.send({"jsonrpc": "2.0", "id": f"sentinel-{number}", "method": "ping"})

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        for number, line in enumerate(lines):
            written = []
            while True:
                out = server.line(timeout=60)
                assert out, f"the server stopped after {line[:200]!r}: {server.stderr[-2000:]}"
                if out == (b'{"jsonrpc":"2.0","id":"sentinel-%d","result":{}}\n' % number):
                    break
                written.append(out)
            assert len(written) <= 1, (line[:200], written)
            check(line, written[0] if written else None)
        writer.join(60)
        assert server.process.poll() is None, "the server died"
        assert "Traceback" not in server.stderr, server.stderr[-3000:]
        assert server.close() == 0


def test_ten_thousand_bodies_over_http(lines: list[bytes]):
    with HttpServer("--root", str(EXAMPLE_SITE)) as server, \
            httpx.Client(headers={"content-type": "application/json"}, timeout=60) as http:
        for line in lines:
            answer = http.post(server.url, content=line)
            if not line.strip():  # a blank body is not JSON, unlike a blank line
                assert answer.status_code == 400
                continue
            if expected(line)[0] == 0:
                assert answer.status_code == 202 and answer.content == b"", line[:200]
                continue
            assert answer.status_code in (200, 400, 404), (line[:200], answer.text[:200])
            check(line, answer.content)
        assert server.process.poll() is None, "the server died"
        assert "Traceback" not in server.stderr, server.stderr[-3000:]
