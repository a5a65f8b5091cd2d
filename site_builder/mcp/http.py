"""Streamable HTTP: the MCP server at `/mcp`, as a plain ASGI application.

One POST carries one JSON-RPC message (or a batch) and gets its answer as
`application/json`; a POST holding only notifications or client responses gets 202. The
same `Server` as on stdio answers, so every tool, error code and limit is the transport's
too. 2026-07-28 requests are stateless. A handshake-era client gets an `Mcp-Session-Id`
from `initialize`; the id names the negotiated revision, so any replica behind a load
balancer can serve the session's next request and no replica keeps a session table.
Neither era has server-to-client streams here, so GET is 405, and so is DELETE without a
session.

Before anything is parsed: a request carrying both `Content-Length` and `Transfer-Encoding`
is refused and its connection closed (RFC 9112 §6.1: a proxy in front may have framed it
otherwise, the start of request smuggling); `Host` must be one this server answers to
(421, see hosts.py), a browser's `Origin` must be that same host or one allowed (403), and
with tokens configured the request needs `Authorization: Bearer <token>` (401 pointing at
the RFC 9728 document served at `/.well-known/oauth-protected-resource/mcp`). Bodies are
parsed and answered on one thread (post.py), never on the event loop, except a small
tools/call whose answer is already at hand (`post.answer_at_once`).

`app()` is the factory for uvicorn or gunicorn (`uvicorn --factory site_builder.mcp.http:app`),
configured by SITE_BUILDER_ROOT or SITE_BUILDER_URL, SITE_BUILDER_MCP_TOKENS and the
variables of hosts.py.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from site_builder.access.source import log_to_stderr
from site_builder.mcp.envelope import hints_for
from site_builder.mcp.hosts import host_allowed, read_names
from site_builder.mcp.post import answer_at_once, answer_body, rpc_error, session_version
from site_builder.mcp.protocol import PROTOCOL_VERSIONS, RpcError
from site_builder.mcp.refusals import REFUSALS
from site_builder.mcp.server import Server, too_long
from site_builder.mcp.tokens import TOKENS_VARIABLE, read_tokens

MCP_PATH = "/mcp"
METADATA_PATH = "/.well-known/oauth-protected-resource" + MCP_PATH
# A request body longer than this is refused unread: no legitimate request comes near it.
MAX_BODY_BYTES = 4 * 1024 * 1024
_CLOSE = [(b"connection", b"close")]

Scope = dict[str, Any]


@dataclass(frozen=True)
class Settings:
    """Who may talk to the server, and what it says about itself.

    `tokens`: bearer tokens, one of which every request must carry when any is set;
    `names`: host names answered besides the server's own address and localhost (hosts.py);
    `origins`: browser origins allowed besides the request's own host;
    `base`: the origin clients reach the server at (the public URL, or the bound address),
    which the 401 challenge and the RFC 9728 document name; None: not known, so neither
    names one; `issuer`: the authorization server the document names.
    """

    tokens: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    origins: frozenset[str] = field(default_factory=frozenset)
    base: str | None = None
    issuer: str | None = None


class McpApp:
    """The ASGI application serving `server` under `settings`."""

    def __init__(self, server: Server, settings: Settings) -> None:
        self.server = server
        self.settings = settings
        # One thread parses and answers in arrival order: the query work holds the GIL
        # anyway, the sources and the archive's memos were written for one caller at a time
        # (the stdio server's), and one parsed body at a time bounds memory. The event loop
        # stays free to accept and refuse; more throughput comes from more processes
        # (uvicorn --workers, replicas).
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="site-builder-mcp")
        # Everything the server says about itself is fixed at start, from its settings:
        # nothing a request carries is written back into a header or a document.
        base = settings.base
        self._challenge = "Bearer" if base is None else \
            f'Bearer resource_metadata="{base}{METADATA_PATH}"'
        self._metadata = None if base is None else _json(_metadata(base, settings.issuer))

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return  # websockets are not part of the protocol
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", ())}
        if "transfer-encoding" in headers and "content-length" in headers:
            REFUSALS.note("requests with both Content-Length and Transfer-Encoding")
            await _respond(send, 400, _json({"error": "a request has Content-Length or "
                                             "Transfer-Encoding, not both"}), extra=_CLOSE)
            return
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
            await self._serve_metadata(send, method)
            return
        if path != MCP_PATH:
            await _respond(send, 404, _json({"error": f"the MCP endpoint is {MCP_PATH}"}))
            return
        unauthorized = self._unauthorized(headers)
        if unauthorized is not None:
            await _respond(send, *unauthorized)
            return
        if method == "POST":
            await self._post(receive, send, headers)
        elif method == "DELETE" and session_version(headers) not in (None, ""):
            await _respond(send, 204, b"")  # nothing is kept per session, so nothing to drop
        else:
            await _respond(send, 405, _json({"error": f"{method} is not served here; "
                                                      "send each message as a POST"}),
                           extra=[(b"allow", b"POST, DELETE")])

    # ---- what is refused before anything is read ---------------------------------------

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, bytes] | None:
        host = headers.get("host", "")
        local = scope.get("server")
        if not host_allowed(host, self.settings.names, local[0] if local else None):
            REFUSALS.note("requests for a Host this server does not answer to")
            return 421, _json({"error": "this server does not answer to that Host; see "
                                        "--allowed-host"})
        origin = headers.get("origin")
        if origin is not None and origin not in self.settings.origins \
                and origin != f"{scope.get('scheme', 'http')}://{host}":
            return 403, _json({"error": "requests from that origin are refused"})
        return None

    def _unauthorized(self, headers: dict[str, str]) -> tuple[
            int, bytes, list[tuple[bytes, bytes]]] | None:
        if not self.settings.tokens:
            return None
        given = headers.get("authorization", "")
        scheme, _, token = given.partition(" ")
        if scheme.lower() == "bearer" and any(
                hmac.compare_digest(token.strip().encode(), known.encode())
                for known in self.settings.tokens):
            return None
        challenge = self._challenge
        if given:
            challenge += ' error="invalid_token"' if challenge == "Bearer" \
                else ', error="invalid_token"'
        return 401, _json({"error": "a bearer token is required"}), [
            (b"www-authenticate", challenge.encode("latin-1"))]

    async def _serve_metadata(self, send: Any, method: str) -> None:
        if method != "GET":
            await _respond(send, 405, _json({"error": "use GET"}), extra=[(b"allow", b"GET")])
        elif self._metadata is None:
            await _respond(send, 404, _json({"error": "this server was given no public URL "
                                                      "(--public-url) to describe"}))
        else:
            await _respond(send, 200, self._metadata,
                           extra=[(b"cache-control", b"public, max-age=3600")])

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
            await _respond(send, 413, rpc_error(too_long(MAX_BODY_BYTES)), extra=_CLOSE)
            return
        version = session_version(headers)
        if version == "":
            await _respond(send, 404, _json({"error": "unknown session; initialize again"}))
            return
        asked = headers.get("mcp-protocol-version")
        if asked is not None and asked not in PROTOCOL_VERSIONS:
            await _respond(send, 400, rpc_error(RpcError(
                -32022, f"Unsupported protocol version: {asked[:100]}",
                {"supported": list(PROTOCOL_VERSIONS), "requested": asked})))
            return
        reply = answer_at_once(self.server, body, version, asked)
        if reply is None:
            reply = await asyncio.get_running_loop().run_in_executor(
                self._pool, answer_body, self.server, body, version, asked)
        status, line, extra = reply
        await _respond(send, status, line, extra=extra)
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


def _metadata(base: str, issuer: str | None) -> dict[str, Any]:
    """The RFC 9728 protected-resource metadata of the endpoint at `base`."""
    document: dict[str, Any] = {"resource": base + MCP_PATH}
    if issuer is not None:
        document["authorization_servers"] = [issuer]
    document["bearer_methods_supported"] = ["header"]
    document["resource_name"] = "site-builder decision records (read-only MCP server)"
    return document


_PREFLIGHT = [
    (b"access-control-allow-methods", b"POST, GET, DELETE"),
    (b"access-control-allow-headers", b"authorization, content-type, accept, "
     b"mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, last-event-id"),
    (b"access-control-max-age", b"600"),
]


def _with_cors(send: Any, origin: str) -> Any:
    """`send`, adding the CORS headers that let a page at `origin` (one _refusal allowed:
    the server's own or a configured one) read the answer."""
    added = [(b"access-control-allow-origin", origin.encode("latin-1")), (b"vary", b"origin"),
             (b"access-control-expose-headers", b"mcp-session-id, www-authenticate")]

    async def wrapped(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", ()), *added]}
        await send(message)
    return wrapped


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
    server's own; SITE_BUILDER_MCP_PUBLIC_URL, SITE_BUILDER_MCP_ALLOWED_HOSTS and
    SITE_BUILDER_MCP_ISSUER the names it goes by (hosts.py). Exits with status 2 (and one
    line on stderr) when that is not usable.
    """
    from site_builder.access.start import open_source

    root, url = os.environ.get("SITE_BUILDER_ROOT"), os.environ.get("SITE_BUILDER_URL")
    if (root is None) == (url is None):
        log_to_stderr("set SITE_BUILDER_ROOT (an archive) or SITE_BUILDER_URL "
                      "(a published site), one of them")
        raise SystemExit(2)
    try:
        tokens = read_tokens(None)
        names = read_names()
    except ValueError as exc:
        log_to_stderr(str(exc))
        raise SystemExit(2) from None
    if names.issuer is not None and names.public_url is None:
        log_to_stderr("SITE_BUILDER_MCP_ISSUER needs SITE_BUILDER_MCP_PUBLIC_URL: the "
                      "resource metadata must name the address clients use")
        raise SystemExit(2)
    source = open_source(root, url)
    if isinstance(source, int):
        raise SystemExit(source)
    if not tokens:
        log_to_stderr(f"no {TOKENS_VARIABLE}: every client that reaches this server is "
                      "served")
    origins = {o.strip() for o in os.environ.get("SITE_BUILDER_MCP_ORIGINS", "").split(",")
               if o.strip()}
    if names.public_url is not None:
        origins.add(names.public_url)
    return McpApp(Server(source, hints=hints_for(source, bool(tokens))),
                  Settings(tokens=tokens, names=names.allowed, origins=frozenset(origins),
                           base=names.public_url, issuer=names.issuer))
