"""JSON-RPC 2.0 as MCP uses it: one message per line (or HTTP body), batches, versions, errors.

This module knows the wire format only: it turns a line into messages (or the error to
answer with) and answers into lines. What a method does is `server.py`'s business; which
protocol era a request belongs to is `envelope.py`'s.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, BinaryIO

from site_builder.errors import SiteBuilderError

# Protocol revisions the server speaks, oldest first. The handshake era negotiates one of
# the first four with `initialize` (the newest of them is offered to a client asking for one
# it does not know); from 2026-07-28 on, each request names its revision in `_meta`.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSIONS = ("2026-07-28",)
PROTOCOL_VERSIONS = (*HANDSHAKE_VERSIONS, *MODERN_VERSIONS)
LATEST_VERSION = HANDSHAKE_VERSIONS[-1]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
RESOURCE_NOT_FOUND = -32002
# 2026-07-28: the request's `_meta` and its HTTP headers disagree; a revision not served.
HEADER_MISMATCH = -32020
UNSUPPORTED_VERSION = -32022

# A line longer than this is refused unread, so a runaway client cannot exhaust memory.
MAX_LINE_BYTES = 16 * 1024 * 1024
# Bounds on what a message may parse into, checked before it is parsed: bytes alone do
# not bound memory (a 4 MB body of `[{},{},...]` is a million dicts, some 100 MB).
MAX_VALUES = 100_000
MAX_DEPTH = 64
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")

RequestId = int | str


class RpcError(SiteBuilderError):
    """A JSON-RPC error answer: `code`, a one-line `message` and optional `data`."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


@dataclass(frozen=True, slots=True)
class Request:
    """A request (`id` set) or a notification (`id` None) with its `params` object."""

    method: str
    params: dict[str, Any]
    id: RequestId | None = None

    @property
    def is_notification(self) -> bool:
        return self.id is None


@dataclass(frozen=True, slots=True)
class Invalid:
    """A message that is not a valid request; it is answered with `error`."""

    id: RequestId | None
    error: RpcError


def negotiate(requested: Any) -> str:
    """The protocol version to answer `initialize` with: the client's when the handshake
    reaches it, else the newest handshake revision (2026-07-28 has no handshake)."""
    return requested if requested in HANDSHAKE_VERSIONS else LATEST_VERSION


def at_least(version: str, minimum: str) -> bool:
    """True when `version` is `minimum` or a later revision this server knows."""
    return PROTOCOL_VERSIONS.index(version) >= PROTOCOL_VERSIONS.index(minimum)


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_line(line: bytes) -> tuple[list[Request | Invalid | None], bool] | RpcError:
    """The messages of one line, and whether they came as a batch (an array).

    Returns an RpcError (parse error or invalid request) when the line as a whole cannot be
    answered message by message. In the list, None stands for a message that needs no answer
    and no action (a response sent by the client: this server never asks the client
    anything).
    """
    too_big = _shape_error(line)
    if too_big is not None:
        return too_big
    try:
        data = json.loads(line.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        return RpcError(PARSE_ERROR, f"Parse error: the line is not valid JSON ({_short(exc)})")
    if isinstance(data, list):
        if not data:
            return RpcError(INVALID_REQUEST, "Invalid Request: an empty batch")
        return [read_message(item) for item in data], True
    return [read_message(data)], False


def _shape_error(line: bytes) -> RpcError | None:
    """The parse error for a line that would parse into more than MAX_VALUES values or
    nest deeper than MAX_DEPTH; None when it would not (or is not JSON: json.loads says).

    Outside strings, every value but the first follows a `,`, a `:` or an opening bracket,
    and a key precedes each `:`, so their count bounds what parsing makes. Each pass of the
    depth loop removes the innermost pairs of brackets.
    """
    bare = _STRING.sub(b"", line)
    values = 1 + sum(bare.count(mark) for mark in (b",", b":", b"[", b"{"))
    if values > MAX_VALUES:
        return RpcError(PARSE_ERROR, f"Parse error: the message holds more than {MAX_VALUES} "
                                     "values")
    brackets = bare.translate(None, _NOT_BRACKETS)
    for _ in range(MAX_DEPTH):
        inner = brackets.replace(b"[]", b"").replace(b"{}", b"")
        if inner == brackets:
            return None
        brackets = inner
    if brackets.replace(b"[]", b"").replace(b"{}", b"") == brackets:
        return None
    return RpcError(PARSE_ERROR, f"Parse error: the message nests deeper than {MAX_DEPTH} "
                                 "levels")


def _short(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]


def read_message(data: Any) -> Request | Invalid | None:
    """One JSON value as a Request, an Invalid message to answer, or None to ignore."""
    if not isinstance(data, dict):
        return Invalid(None, RpcError(INVALID_REQUEST,
                                      "Invalid Request: a message must be a JSON object"))
    has_id = "id" in data
    message_id = data.get("id") if has_id and _valid_id(data.get("id")) else None
    if "method" not in data and ("result" in data or "error" in data):
        return None  # a response from the client
    if has_id and message_id is None:
        return Invalid(None, RpcError(INVALID_REQUEST,
                                      "Invalid Request: id must be a string or an integer"))
    if data.get("jsonrpc") != "2.0":
        return Invalid(message_id, RpcError(INVALID_REQUEST,
                                            'Invalid Request: jsonrpc must be "2.0"'))
    method = data.get("method")
    if not isinstance(method, str):
        return Invalid(message_id, RpcError(INVALID_REQUEST,
                                            "Invalid Request: method must be a string"))
    params = data.get("params")
    if params is None:
        params = {}
    if not isinstance(params, dict):
        if not has_id:
            return None  # a notification with unusable params: nothing to answer
        return Invalid(message_id, RpcError(INVALID_PARAMS,
                                            "Invalid params: params must be an object"))
    return Request(method, params, message_id)


def result(request_id: RequestId | None, value: dict[str, Any]) -> dict[str, Any]:
    """A success answer."""
    return {"jsonrpc": "2.0", "id": request_id, "result": value}


def error(request_id: RequestId | None, exc: RpcError) -> dict[str, Any]:
    """An error answer."""
    body: dict[str, Any] = {"code": exc.code, "message": exc.message}
    if exc.data is not None:
        body["data"] = exc.data
    return {"jsonrpc": "2.0", "id": request_id, "error": body}


def encode(answer: dict[str, Any] | list[dict[str, Any]]) -> bytes:
    """One answer (or a batch of answers) as a line of UTF-8 JSON.

    Raises ValueError for a value JSON cannot carry (NaN, infinity). A string UTF-8 cannot
    carry (a lone surrogate, as in an id sent as "\\ud800") is written as a \\u escape, so the
    client gets back exactly the value it sent.
    """
    text = json.dumps(answer, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(answer, separators=(",", ":"), allow_nan=False).encode() + b"\n"


def skip_line(stream: BinaryIO) -> None:
    """Read and drop the rest of an over-long line."""
    while True:
        chunk = stream.readline(MAX_LINE_BYTES)
        if not chunk or chunk.endswith(b"\n"):
            return
