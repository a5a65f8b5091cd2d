"""The two protocol eras: which one a request belongs to, and what its result must carry.

A 2026-07-28 request names its revision and the client's capabilities in `params._meta`
(the reserved `io.modelcontextprotocol/*` keys) and needs no `initialize`; its result
carries `resultType`, and list results and `resources/read` carry cache hints (`ttlMs`,
`cacheScope`). A request without the version key is a handshake-era request, served at the
revision its connection negotiated. The same server answers both, request by request, so a
client of either era finds what it expects on any transport. A tools/call result is the
same in both (`call_result`, `tool_error`), its structuredContent from 2025-06-18 on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from site_builder.mcp.protocol import (
    HANDSHAKE_VERSIONS,
    INVALID_PARAMS,
    MODERN_VERSIONS,
    PROTOCOL_VERSIONS,
    UNSUPPORTED_VERSION,
    RpcError,
    at_least,
)

META = "_meta"
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

# Methods whose 2026-07-28 results are cacheable, with how the hint is chosen: "archive"
# results follow the archive (0 ms locally, where an edit shows at once; the remote cache's
# lifetime remotely), "static" ones change only with the server's version.
CACHEABLE = {"server/discover": "static", "tools/list": "static", "prompts/list": "static",
             "resources/templates/list": "static", "resources/list": "archive",
             "resources/read": "archive"}
STATIC_TTL_MS = 5 * 60 * 1000


@dataclass(frozen=True, slots=True)
class CacheHints:
    """What `ttlMs`/`cacheScope` say: how long an archive answer stays fresh, and whether a
    shared cache may hand it to anyone (public) or only to the client that asked."""

    archive_ttl_ms: int = 0
    scope: str = "public"


def modern_version(method: str, params: dict[str, Any]) -> str | None:
    """The 2026-07-28-era revision a request names, or None for a handshake-era request.

    Raises RpcError: -32602 for an envelope missing the client capabilities or naming its
    version with something other than a string, -32022 (with the supported revisions) for a
    revision this server does not serve. `initialize` is always handshake-era: 2026-07-28
    has no handshake, so an envelope on it decides nothing.
    """
    meta = params.get(META)
    if method == "initialize" or not isinstance(meta, dict) or VERSION_KEY not in meta:
        return None
    version = meta[VERSION_KEY]
    if CAPABILITIES_KEY not in meta:
        raise RpcError(INVALID_PARAMS, f"Invalid params: _meta must carry {CAPABILITIES_KEY} "
                                       f"beside {VERSION_KEY}")
    if not isinstance(version, str):
        raise RpcError(INVALID_PARAMS, f"Invalid params: {VERSION_KEY} must be a string")
    if version not in MODERN_VERSIONS:
        why = (" is negotiated with initialize, not named per request"
               if version in HANDSHAKE_VERSIONS else " is not served here")
        raise RpcError(UNSUPPORTED_VERSION, f"Unsupported protocol version: {version[:100]}{why}",
                       {"supported": list(PROTOCOL_VERSIONS), "requested": version})
    return version


def decorate(method: str, value: dict[str, Any], hints: CacheHints) -> dict[str, Any]:
    """A 2026-07-28 result: `value` with `resultType` and, where cacheable, the cache hints."""
    out = dict(value)
    out.setdefault("resultType", "complete")
    kind = CACHEABLE.get(method)
    if kind is not None:
        out["ttlMs"] = STATIC_TTL_MS if kind == "static" else hints.archive_ttl_ms
        out["cacheScope"] = hints.scope
    return out


def hints_for(source: Any, guarded: bool) -> CacheHints:
    """The hints for answers from `source`: archive answers live as long as the remote cache
    keeps a response (0 locally, where an edit shows at once), and are private as soon as
    tokens guard them (a shared cache must not hand them to someone without one)."""
    site = getattr(source, "site", None)
    ttl = int(getattr(site, "ttl", 0) * 1000) if site is not None else 0
    return CacheHints(archive_ttl_ms=ttl, scope="private" if guarded else "public")


def tool_error(message: str) -> dict[str, Any]:
    """A tools/call result that reports a problem the agent can act on."""
    return {"content": [{"type": "text", "text": message}], "isError": True}


def call_result(answer: dict[str, Any], text: str, version: str) -> dict[str, Any]:
    """The tools/call result of a tool's answer and text content, for protocol `version`."""
    out: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": False}
    if at_least(version, "2025-06-18"):
        out["structuredContent"] = answer
    return out
