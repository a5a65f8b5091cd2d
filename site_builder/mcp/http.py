"""Streamable HTTP: the MCP server at `/mcp`, as a plain ASGI application.

One POST carries one JSON-RPC message (or a batch) and gets its answer as
`application/json`; a POST holding only notifications or client responses gets 202. The
same `Server` as on stdio answers, so every tool, error code and limit is the transport's
too. 2026-07-28 requests are stateless. A handshake-era client gets an `Mcp-Session-Id`
from `initialize`; the id names the negotiated revision, so any replica behind a load
balancer can serve the session's next request and no replica keeps a session table.
Neither era has server-to-client streams here, so GET is 405, and so is DELETE without a
session.

Before anything is parsed: `Host` must be one this server answers to (421), a browser's
`Origin` must be that same host or one allowed (403), and with tokens configured the request
needs `Authorization: Bearer <token>` (401 pointing at the RFC 9728 document served at
`/.well-known/oauth-protected-resource/mcp`).

`app()` is the factory for uvicorn or gunicorn (`uvicorn --factory site_builder.mcp.http:app`),
configured by SITE_BUILDER_ROOT or SITE_BUILDER_URL and SITE_BUILDER_MCP_TOKENS.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import os
import re
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from site_builder.access.source import log_to_stderr
from site_builder.mcp import envelope
from site_builder.mcp.envelope import hints_for
from site_builder.mcp.protocol import (
    HANDSHAKE_VERSIONS,
    HEADER_MISMATCH,
    INVALID_REQUEST,
    PARSE_ERROR,
    PROTOCOL_VERSIONS,
    Request,
    RpcError,
    error,
)
from site_builder.mcp.server import (
    Connection,
    Server,
    encode_answers,
    parse_messages,
    too_long,
)
from site_builder.mcp.tokens import TOKENS_VARIABLE, read_tokens

MCP_PATH = "/mcp"
METADATA_PATH = "/.well-known/oauth-protected-resource" + MCP_PATH
# A request body longer than this is refused unread: no legitimate request comes near it.
MAX_BODY_BYTES = 4 * 1024 * 1024
# HTTP status of a 2026-07-28 error answer, as that revision's transport requires.
_STATUS = {PARSE_ERROR: 400, INVALID_REQUEST: 400, -32602: 400, HEADER_MISMATCH: 400,
           -32021: 400, -32022: 400, -32601: 404}
_SESSION = re.compile(r"([0-9a-f]{32})\.(\d{4}-\d{2}-\d{2})")

Scope = dict[str, Any]


@dataclass(frozen=True)
class Settings:
    """Who may talk to the server.

    `hosts`: the `Host` values it answers to (None: any, as behind a load balancer that
    checks them); `origins`: browser origins allowed besides the request's own host;
    `tokens`: bearer tokens, one of which every request must carry when any is set.
    """

    tokens: frozenset[str] = frozenset()
    hosts: frozenset[str] | None = None
    origins: frozenset[str] = field(default_factory=frozenset)


class McpApp:
    """The ASGI application serving `server` under `settings`."""

    def __init__(self, server: Server, settings: Settings) -> None:
        self.server = server
        self.settings = settings
        # One thread answers in arrival order: the query work holds the GIL anyway, and the
        # sources and the archive's memos were written for one caller at a time (the stdio
        # server's). The event loop stays free to accept and refuse; more throughput comes
        # from more processes (uvicorn --workers, replicas).
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="site-builder-mcp")

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return  # websockets are not part of the protocol
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", ())}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await _respond(send, *refusal)
            return
        path, method = scope["path"], scope["method"]
        if "origin" in headers:  # an origin _refusal let through: a browser may read answers
            send = _with_cors(send, headers["origin"])
            if method == "OPTIONS":  # a preflight, which carries no token
                await _respond(send, 204, b"", extra=_PREFLIGHT)
                return
        if path in (METADATA_PATH, METADATA_PATH.removesuffix(MCP_PATH)):
            if method == "GET":
                await _respond(send, 200, _json(self._metadata(scope, headers)),
                               extra=[(b"cache-control", b"public, max-age=3600")])
            else:
                await _respond(send, 405, _json({"error": "use GET"}),
                               extra=[(b"allow", b"GET")])
            return
        if path != MCP_PATH:
            await _respond(send, 404, _json({"error": f"the MCP endpoint is {MCP_PATH}"}))
            return
        unauthorized = self._unauthorized(scope, headers)
        if unauthorized is not None:
            await _respond(send, *unauthorized)
            return
        if method == "POST":
            await self._post(receive, send, headers)
        elif method == "DELETE" and _session_version(headers) not in (None, ""):
            await _respond(send, 204, b"")  # nothing is kept per session, so nothing to drop
        else:
            await _respond(send, 405, _json({"error": f"{method} is not served here; "
                                                      "send each message as a POST"}),
                           extra=[(b"allow", b"POST, DELETE")])

    # ---- what is refused before anything is read ---------------------------------------

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, bytes] | None:
        host = headers.get("host", "")
        if self.settings.hosts is not None and host not in self.settings.hosts:
            return 421, _json({"error": f"this server does not answer to Host {host[:100]!r}"})
        origin = headers.get("origin")
        if origin is not None and origin not in self.settings.origins \
                and origin != f"{scope.get('scheme', 'http')}://{host}":
            return 403, _json({"error": f"requests from origin {origin[:100]!r} are refused"})
        return None

    def _unauthorized(self, scope: Scope, headers: dict[str, str]) -> tuple[
            int, bytes, list[tuple[bytes, bytes]]] | None:
        if not self.settings.tokens:
            return None
        given = headers.get("authorization", "")
        scheme, _, token = given.partition(" ")
        if scheme.lower() == "bearer" and any(
                hmac.compare_digest(token.strip().encode(), known.encode())
                for known in self.settings.tokens):
            return None
        challenge = f'Bearer resource_metadata="{self._base(scope, headers)}{METADATA_PATH}"'
        if given:
            challenge += ', error="invalid_token"'
        return 401, _json({"error": "a bearer token is required"}), [
            (b"www-authenticate", challenge.encode("latin-1"))]

    def _base(self, scope: Scope, headers: dict[str, str]) -> str:
        return f"{scope.get('scheme', 'http')}://{headers.get('host', 'localhost')}"

    def _metadata(self, scope: Scope, headers: dict[str, str]) -> dict[str, Any]:
        """The RFC 9728 protected-resource metadata of the endpoint."""
        return {"resource": self._base(scope, headers) + MCP_PATH,
                "bearer_methods_supported": ["header"],
                "resource_name": "site-builder decision records (read-only MCP server)"}

    # ---- messages -------------------------------------------------------------------------

    async def _post(self, receive: Any, send: Any, headers: dict[str, str]) -> None:
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            await _respond(send, 415, _json({"error": "send JSON-RPC as application/json"}))
            return
        try:
            body = await _read_body(receive, MAX_BODY_BYTES)
        except _Gone:
            return  # nobody to answer
        if body is None:
            await _respond(send, 413, _rpc_error(too_long(MAX_BODY_BYTES)))
            return
        version = _session_version(headers)
        if version == "":
            await _respond(send, 404, _json({"error": "unknown session; initialize again"}))
            return
        asked = headers.get("mcp-protocol-version")
        if asked is not None and asked not in PROTOCOL_VERSIONS:
            await _respond(send, 400, _rpc_error(RpcError(
                -32022, f"Unsupported protocol version: {asked[:100]}",
                {"supported": list(PROTOCOL_VERSIONS), "requested": asked})))
            return
        parsed = parse_messages(body)
        if isinstance(parsed, RpcError):
            await _respond(send, 400, _rpc_error(parsed))
            return
        messages, batch = parsed
        mismatch = _header_mismatch(messages, asked) if not batch else None
        if mismatch is not None:
            await _respond(send, 400, _rpc_error(mismatch, messages[0]))
            return
        connection = Connection(version or HANDSHAKE_VERSIONS[-1])
        loop = asyncio.get_running_loop()
        answers = await loop.run_in_executor(
            self._pool, self.server.answer_all, messages, connection)
        line = encode_answers(answers, batch)
        if line is None:
            await _respond(send, 202, b"")
            return
        extra = []
        first = messages[0]
        if not batch and isinstance(first, Request) and first.method == "initialize" \
                and "result" in answers[0]:
            session = f"{secrets.token_hex(16)}.{answers[0]['result']['protocolVersion']}"
            extra.append((b"mcp-session-id", session.encode()))
        await _respond(send, _status(messages, answers, batch), line, extra=extra)
        self.server.warm_if_due()

    async def _lifespan(self, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.server.warm()  # local mode reads the archive; remote waits
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self._pool.shutdown(wait=False, cancel_futures=True)
                await send({"type": "lifespan.shutdown.complete"})
                return


_PREFLIGHT = [
    (b"access-control-allow-methods", b"POST, GET, DELETE"),
    (b"access-control-allow-headers", b"authorization, content-type, accept, "
     b"mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, last-event-id"),
    (b"access-control-max-age", b"600"),
]


def _with_cors(send: Any, origin: str) -> Any:
    """`send`, adding the CORS headers that let a page at `origin` read the answer."""
    added = [(b"access-control-allow-origin", origin.encode("latin-1")), (b"vary", b"origin"),
             (b"access-control-expose-headers", b"mcp-session-id, www-authenticate")]

    async def wrapped(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", ()), *added]}
        await send(message)
    return wrapped


def _session_version(headers: dict[str, str]) -> str | None:
    """The revision a session id names; None without one, "" for one this server never
    handed out."""
    given = headers.get("mcp-session-id")
    if given is None:
        return None
    found = _SESSION.fullmatch(given.strip())
    return found.group(2) if found and found.group(2) in HANDSHAKE_VERSIONS else ""


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


class _Gone(Exception):
    """The client disconnected before its request was read whole."""


async def _read_body(receive: Any, limit: int) -> bytes | None:
    """The request body, or None once it grows past `limit` (the rest is not kept).
    Raises _Gone when the client left first."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise _Gone
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def _rpc_error(exc: RpcError, message: Any = None) -> bytes:
    request_id = message.id if isinstance(message, Request) else None
    return encode_answers([error(request_id, exc)], False) or b""


async def _respond(send: Any, status: int, body: bytes,
                   extra: list[tuple[bytes, bytes]] | None = None) -> None:
    headers = [(b"content-length", str(len(body)).encode())]
    if body:
        headers.append((b"content-type", b"application/json"))
    headers.extend(extra or ())
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def app() -> McpApp:
    """The ASGI application configured from the environment, for uvicorn's --factory.

    SITE_BUILDER_ROOT (an archive) or SITE_BUILDER_URL (a published site) says what to
    serve; SITE_BUILDER_MCP_TOKENS (comma-separated) the tokens;
    SITE_BUILDER_MCP_ORIGINS (comma-separated) browser origins allowed besides the
    server's own. Exits with status 2 (and one line on stderr) when that is not usable.
    """
    from site_builder.access.start import open_source

    root, url = os.environ.get("SITE_BUILDER_ROOT"), os.environ.get("SITE_BUILDER_URL")
    if (root is None) == (url is None):
        log_to_stderr("set SITE_BUILDER_ROOT (an archive) or SITE_BUILDER_URL "
                      "(a published site), one of them")
        raise SystemExit(2)
    try:
        tokens = read_tokens(None)
    except ValueError as exc:
        log_to_stderr(str(exc))
        raise SystemExit(2) from None
    source = open_source(root, url)
    if isinstance(source, int):
        raise SystemExit(source)
    if not tokens:
        log_to_stderr(f"no {TOKENS_VARIABLE}: every client that reaches this server is "
                      "served")
    origins = frozenset(o.strip() for o in os.environ.get(
        "SITE_BUILDER_MCP_ORIGINS", "").split(",") if o.strip())
    return McpApp(Server(source, hints=hints_for(source, bool(tokens))),
                  Settings(tokens=tokens, origins=origins))
