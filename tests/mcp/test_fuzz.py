"""Random messages and arguments: every request gets exactly one well-formed answer.

Hypothesis writes lines a confused or hostile client might send: valid requests with random
arguments, requests with broken ids or methods, notifications, client responses, batches,
JSON that is not a message, bytes that are not JSON. Two runs: thousands of lines through
the in-process dispatcher (answers checked against the tools' output schemas), and a few
hundred through one long-lived server process, which must never die.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.access.source import LocalSource
from site_builder.config.site import load_config
from site_builder.mcp import tools
from site_builder.mcp.protocol import MAX_DEPTH, MAX_VALUES
from site_builder.mcp.server import Server
from tests.conftest import EXAMPLE_SITE
from tests.mcp.client import RawServer

# ---- what a client might send ------------------------------------------------------------

scalars = (st.none() | st.booleans() | st.integers(-(2**53), 2**53)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=8)

METHODS = ["initialize", "ping", "tools/list", "tools/call", "resources/list",
           "resources/read", "resources/templates/list", "server/discover",
           "notifications/initialized", "notifications/cancelled", "prompts/list"]
WORDS = ["build", "adr", "rfc", "mcp", "cache", "implemented", "proposed", "risk=high",
         "effort=2", "BUILD-ADR-0008", "build/adr/1", "0001", "", " ", "hsato", "@pnair",
         "site_builder/render/writer.py", "relevance", "date", "*", "ß", "a/b/../c"]
plausible = (st.sampled_from(WORDS) | st.integers(-3, 300) | st.booleans()
             | st.lists(st.sampled_from(WORDS), max_size=3))


def fitting(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values an argument's schema accepts."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema["type"]
    if kind == "integer":
        return st.integers(schema["minimum"], min(schema["maximum"], 400))
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(fitting(schema["items"]), min_size=1, max_size=3)
    return st.sampled_from([w for w in WORDS if w.strip()]) | st.text(min_size=1, max_size=12)


@st.composite
def tool_arguments(draw: st.DrawFn) -> Any:
    """Arguments for a random tool: mostly ones its schema accepts, sometimes anything."""
    tool = draw(st.sampled_from(tools.TOOLS))
    properties = tool.input_schema["properties"]
    names = [*properties, "limit", "unknown_argument"]
    chosen = draw(st.lists(st.sampled_from(names), max_size=4, unique=True))
    arguments = {name: draw(fitting(properties[name]) if name in properties
                            and draw(st.integers(0, 3)) else plausible | values)
                 for name in chosen}
    if "id" in properties and draw(st.integers(0, 4)):
        arguments["id"] = draw(st.sampled_from(WORDS))
    if "paths" in properties and draw(st.integers(0, 4)):
        arguments["paths"] = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
    name = tool.name if draw(st.integers(0, 9)) else draw(st.text(max_size=8))
    return {"name": name, "arguments": arguments if draw(st.integers(0, 9)) else draw(values)}


params = (tool_arguments() | st.fixed_dictionaries({"uri": st.sampled_from([
    "decision://build/adr/0008-build-beside-the-output-and-swap", "decision://x",
    "decision://BUILD-ADR-0001", "http://x"]) | values})
    | st.fixed_dictionaries({"protocolVersion": st.sampled_from(
        ["2024-11-05", "2025-06-18", "2025-11-25", "1999"]) | values})
    | st.fixed_dictionaries({"cursor": st.sampled_from(["0", "1", "x", "1000"]) | values})
    | values)

good_ids = st.integers(0, 2**31) | st.text(max_size=6)
tool_calls = st.builds(lambda i, p: {"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                     "params": p}, good_ids, tool_arguments())
requests = st.builds(lambda i, m, p: {"jsonrpc": "2.0", "id": i, "method": m, "params": p},
                     good_ids, st.sampled_from(METHODS), params)
notifications = st.builds(lambda m, p: {"jsonrpc": "2.0", "method": m, "params": p},
                          st.sampled_from(METHODS) | st.text(max_size=10), params)
anything = st.fixed_dictionaries({}, optional={
    "jsonrpc": st.just("2.0") | values,
    "id": good_ids | values,
    "method": st.sampled_from(METHODS) | st.text(max_size=10) | values,
    "params": params,
    "result": values,
}) | values
messages = st.one_of(tool_calls, tool_calls, tool_calls, requests, notifications, anything)

lines = (messages.map(lambda m: json.dumps(m).encode() + b"\n")
         | st.lists(messages, max_size=5).map(lambda b: json.dumps(b).encode() + b"\n")
         | st.binary(max_size=40).map(lambda b: b.replace(b"\n", b" ") + b"\n"))


# ---- what the server must answer -------------------------------------------------------------


def _reject(name: str) -> Any:
    raise ValueError(name)


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def answers_due(message: Any) -> int:
    """How many answers one message gets under JSON-RPC 2.0: none for a notification (a
    valid request without an id) or a response from the client, one for anything else."""
    if not isinstance(message, dict):
        return 1
    if "method" not in message and ("result" in message or "error" in message):
        return 0
    if ("id" not in message and message.get("jsonrpc") == "2.0"
            and isinstance(message.get("method"), str)):
        return 0
    return 1


def shape(value: Any) -> tuple[int, int]:
    """(values as the server bounds them: each value and each key, and one more for each
    empty array or object; the depth of nesting)."""
    count, deepest = 0, 0
    pending = [(value, 1)]
    while pending:
        item, level = pending.pop()
        count += 1
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            children = list(item.values()) if isinstance(item, dict) else item
            count += len(item) if isinstance(item, dict) else 0
            count += 0 if children else 1
            pending.extend((child, level + 1) for child in children)
    return count, deepest


def expected(line: bytes) -> tuple[int, bool, list[Any]]:
    """(answers due, whether they come as an array, the ids they must carry)."""
    try:
        value = json.loads(line.decode("utf-8"), parse_constant=_reject)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return (0, False, []) if not line.strip() else (1, False, [None])
    values, depth = shape(value)
    if values > MAX_VALUES or depth > MAX_DEPTH:
        return 1, False, [None]  # refused whole, as too large to parse
    batch = isinstance(value, list)
    items = value if batch else [value]
    if batch and not items:
        return 1, False, [None]
    due = [m for m in items if answers_due(m)]
    return len(due), batch, [m["id"] if isinstance(m, dict) and _valid_id(m.get("id"))
                             else None for m in due]


def check_answers(line: bytes, written: bytes | None) -> list[dict[str, Any]]:
    """Assert that `written` is exactly what `line` calls for; return the answers."""
    count, batch, ids = expected(line)
    if count == 0:
        assert written is None, (line, written)
        return []
    assert written is not None and written.endswith(b"\n") and written.count(b"\n") == 1
    parsed = json.loads(written)
    answers = parsed if batch else [parsed]
    assert isinstance(parsed, list) is batch
    assert [a["id"] for a in answers] == ids
    for answer in answers:
        assert answer["jsonrpc"] == "2.0" and set(answer) in ({"jsonrpc", "id", "result"},
                                                              {"jsonrpc", "id", "error"})
        if "error" in answer:
            assert isinstance(answer["error"]["code"], int)
            assert isinstance(answer["error"]["message"], str) and answer["error"]["message"]
    return answers


def check_tool_results(line: bytes, answers: list[dict[str, Any]]) -> None:
    """Tool results carry text content, and structured content that fits the schema."""
    try:
        value = json.loads(line.decode("utf-8"), parse_constant=_reject)
    except (UnicodeDecodeError, ValueError):
        return  # not JSON: a parse error, checked already
    requests = [m for m in (value if isinstance(value, list) else [value]) if answers_due(m)]
    if len(requests) != len(answers):  # an empty batch: one error for the whole line
        return
    for request, answer in zip(requests, answers, strict=True):
        if (not isinstance(request, dict) or request.get("method") != "tools/call"
                or "result" not in answer):
            continue
        result = answer["result"]
        assert isinstance(result["isError"], bool)
        assert [c["type"] for c in result["content"]] == ["text"]
        assert isinstance(result["content"][0]["text"], str)
        if "structuredContent" in result:
            tool = tools.BY_NAME[request["params"]["name"]]
            jsonschema.validate(result["structuredContent"], tool.output_schema)


@pytest.fixture(scope="module")
def dispatcher() -> Server:
    config, _ = load_config(EXAMPLE_SITE)
    return Server(LocalSource(config, log=lambda message: None))


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=lines)
def test_the_dispatcher_answers_every_request_exactly_once(dispatcher: Server, line: bytes):
    answers = check_answers(line, dispatcher.handle_line(line))
    if answers:
        check_tool_results(line, answers)
    # Input never makes an internal error: what a client sends is its mistake or fine.
    assert all(a.get("error", {}).get("code") != -32603 for a in answers), answers


@pytest.fixture(scope="module")
def process():
    with RawServer("--root", str(EXAMPLE_SITE)) as server:
        yield server
        assert server.process.poll() is None, "the server died"
        assert server.close() == 0


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(line=lines)
def test_the_server_process_never_dies_and_never_stays_silent(process: RawServer, line: bytes):
    process.send(line)
    # A ping after every line: whatever comes before its answer belongs to the line.
    process.send({"jsonrpc": "2.0", "id": "sentinel", "method": "ping"})
    written = []
    while True:
        out = process.line(timeout=30)
        assert out, f"the server stopped after {line!r}: {process.stderr}"
        if json.loads(out) == {"jsonrpc": "2.0", "id": "sentinel", "result": {}}:
            break
        written.append(out)
    assert len(written) <= 1, written
    check_answers(line, written[0] if written else None)
