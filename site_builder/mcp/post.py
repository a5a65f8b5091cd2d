"""What one POST body to `/mcp` gets: parsed, answered and encoded, as one blocking call.

http.py runs `answer_body` on its answer thread, so neither parsing (bounded in bytes,
values and depth by protocol.py) nor answering nor encoding ever holds the event loop,
and no more than one body is parsed at a time.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from site_builder.mcp import envelope
from site_builder.mcp.protocol import (
    HANDSHAKE_VERSIONS,
    HEADER_MISMATCH,
    INVALID_REQUEST,
    PARSE_ERROR,
    Request,
    RpcError,
    error,
)
from site_builder.mcp.server import Connection, Server, encode_answers, parse_messages

Headers = list[tuple[bytes, bytes]]
Reply = tuple[int, bytes, Headers]
"""An HTTP answer: status, body (empty for 202) and extra headers."""

# HTTP status of a 2026-07-28 error answer, as that revision's transport requires.
_STATUS = {PARSE_ERROR: 400, INVALID_REQUEST: 400, -32602: 400, HEADER_MISMATCH: 400,
           -32021: 400, -32022: 400, -32601: 404}
_SESSION = re.compile(r"([0-9a-f]{32})\.(\d{4}-\d{2}-\d{2})")


def answer_body(server: Server, body: bytes, version: str | None,
                asked: str | None) -> Reply:
    """The reply to a POST body, for a session at `version` (None: none) whose
    MCP-Protocol-Version header is `asked` (None: absent)."""
    parsed = parse_messages(body)
    if isinstance(parsed, RpcError):
        return 400, rpc_error(parsed), []
    messages, batch = parsed
    mismatch = _header_mismatch(messages, asked) if not batch else None
    if mismatch is not None:
        return 400, rpc_error(mismatch, messages[0]), []
    connection = Connection(version or HANDSHAKE_VERSIONS[-1])
    answers, line = server.reply(messages, batch, connection)
    if line is None:
        return 202, b"", []
    extra: Headers = []
    first = messages[0]
    if not batch and isinstance(first, Request) and first.method == "initialize" \
            and "result" in answers[0]:
        session = f"{secrets.token_hex(16)}.{answers[0]['result']['protocolVersion']}"
        extra.append((b"mcp-session-id", session.encode()))
    return _status(messages, answers, batch), line, extra


def session_version(headers: dict[str, str]) -> str | None:
    """The revision a session id names; None without one, "" for one this server never
    handed out."""
    given = headers.get("mcp-session-id")
    if given is None:
        return None
    found = _SESSION.fullmatch(given.strip())
    return found.group(2) if found and found.group(2) in HANDSHAKE_VERSIONS else ""


def rpc_error(exc: RpcError, message: Any = None) -> bytes:
    """The JSON-RPC error answer `exc` as a body, with the id of `message` if it has one."""
    request_id = message.id if isinstance(message, Request) else None
    return encode_answers([error(request_id, exc)], False) or b""


def _header_mismatch(messages: list[Any], asked: str | None) -> RpcError | None:
    """-32020 when a 2026-07-28 request's MCP-Protocol-Version header names another
    revision than its `_meta`."""
    first = messages[0]
    if not isinstance(first, Request) or asked is None:
        return None
    meta = first.params.get(envelope.META)
    named = meta.get(envelope.VERSION_KEY) if isinstance(meta, dict) else None
    if named is None or first.method == "initialize" or named == asked:
        return None
    return RpcError(HEADER_MISMATCH, "Header mismatch: MCP-Protocol-Version says "
                                     f"{asked[:100]}, the request's _meta another revision")


def _status(messages: list[Any], answers: list[dict[str, Any]], batch: bool) -> int:
    """200, or for one failed 2026-07-28 request the status its error code calls for."""
    if batch or "error" not in answers[0]:
        return 200
    code = answers[0]["error"]["code"]
    first = messages[0]
    modern = isinstance(first, Request) and first.method != "initialize" and isinstance(
        first.params.get(envelope.META), dict) and envelope.VERSION_KEY in first.params[
        envelope.META]
    if modern or code in (PARSE_ERROR, INVALID_REQUEST):
        return _STATUS.get(code, 200)
    return 200
