"""What one POST body to `/mcp` gets: parsed, answered and encoded, as one blocking call.

http.py runs `answer_body` on its answer thread, so neither parsing (bounded in bytes,
values and depth by protocol.py) nor answering nor encoding ever holds the event loop,
and no more than one body is parsed at a time. The exception is `answer_at_once`: a small
body holding one tools/call whose answer is already at hand (the archive known unchanged,
the same call answered before) is answered on the loop, in microseconds, rather than
queued behind the thread hop, which cost more than the answer (about a third of the
server's time under 50 clients).
"""

from __future__ import annotations

import json
import re
import secrets
import weakref
from typing import Any

from site_builder.archive.archive import Archive
from site_builder.mcp import envelope, tools
from site_builder.mcp.envelope import call_result
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
# Bodies up to this size may be answered on the event loop: parsing them takes microseconds.
AT_ONCE_BYTES = 16 * 1024
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


def answer_at_once(server: Server, body: bytes, version: str | None,
                   asked: str | None) -> Reply | None:
    """What `answer_body` would reply, when `body` is one small tools/call whose answer is
    at hand; None when anything has to be worked out or refused (the answer thread does
    it then, errors included)."""
    if len(body) > AT_ONCE_BYTES:
        return None
    parsed = parse_messages(body)
    if isinstance(parsed, RpcError) or parsed[1]:
        return None
    messages = parsed[0]
    message = messages[0]
    if not isinstance(message, Request) or message.method != "tools/call" \
            or message.is_notification or _header_mismatch(messages, asked) is not None:
        return None
    value = _cached_call(server, message, version or HANDSHAKE_VERSIONS[-1])
    if value is None:
        return None
    try:
        request_id = json.dumps(message.id, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: encode_answers escapes it
        return None
    # What `encode(result(id, value))` writes, the result encoded once per archive.
    return 200, b'{"jsonrpc":"2.0","id":' + request_id + b',"result":' + value + b"}\n", []


# The encoded results of calls answered at once, per Archive, by call, revision and hints:
# encoding a record took more of the loop's time than everything else a cached call does.
# Only the event loop's thread reads and writes it.
_ENCODED: weakref.WeakKeyDictionary[Archive, dict[tuple[str, str, Any], bytes]] = (
    weakref.WeakKeyDictionary())
_MAX_ENCODED = 4096


def _cached_call(server: Server, message: Request, version: str) -> bytes | None:
    """The encoded result `server.handle(message)` would give, for a tools/call answered
    before from the archive as it is now; None for any other."""
    try:
        modern = envelope.modern_version(message.method, message.params)
    except RpcError:
        return None
    archive = server.source.unchanged()
    name = message.params.get("name")
    tool = server.tools.get(name) if isinstance(name, str) else None
    if archive is None or archive is not server.served or tool is None:
        return None
    try:
        given = tools.arguments(tool, message.params.get("arguments"))
    except tools.ArgumentError:
        return None
    key = (tools.call_key(tool, given), modern or version, server.hints)
    table = _ENCODED.setdefault(archive, {})
    encoded = table.get(key)
    if encoded is None:
        found = tools.cached(tool, archive, given)
        if found is None:
            return None
        value = call_result(*found, modern or version)
        if modern is not None:
            value = envelope.decorate(message.method, value, server.hints)
        try:
            encoded = json.dumps(value, ensure_ascii=False, separators=(",", ":"),
                                 allow_nan=False).encode("utf-8")
        except (ValueError, UnicodeEncodeError):
            return None
        if len(table) >= _MAX_ENCODED:
            table.clear()
        table[key] = encoded
    return encoded


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
