"""The names a networked MCP server answers to, and the address it gives for itself.

DNS rebinding: a page on an attacker's domain, its name pointed at this server after the page
loaded, sends requests whose `Host` is the attacker's name. So a request is served only when
its Host is the server's own address (the one the connection reached, so a wildcard bind
answers each of its addresses), `localhost`, or a name given for the server:
`--allowed-host NAME` (or SITE_BUILDER_MCP_ALLOWED_HOSTS, comma-separated) and the host of
`--public-url` (or SITE_BUILDER_MCP_PUBLIC_URL). `*` lets every name through, for a proxy
in front that checks them. Ports are not compared: the name is what an attacker controls.

The address the server gives for itself, in a 401's `WWW-Authenticate` and in the RFC 9728
document, is the public URL, else the address it is bound to; never the request's Host,
which a client writes. `--issuer URL` (SITE_BUILDER_MCP_ISSUER) names the authorization
server whose tokens the endpoint takes, for the document's `authorization_servers`.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

ALLOWED_VARIABLE = "SITE_BUILDER_MCP_ALLOWED_HOSTS"
PUBLIC_URL_VARIABLE = "SITE_BUILDER_MCP_PUBLIC_URL"
ISSUER_VARIABLE = "SITE_BUILDER_MCP_ISSUER"
ANY = "*"
_NAME = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*")
# A Host header: a name or IPv4 address, or a bracketed IPv6 address, and an optional port.
_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:[0-9]{1,5})?")


@dataclass(frozen=True)
class Names:
    """What the server was told about the names it goes by.

    `allowed`: host names (lower case, no port) answered besides the server's own address and
    localhost;
    `public_url`: the origin clients reach it at (`scheme://host[:port]`), or None;
    `issuer`: the authorization server's issuer URL, or None.
    """

    allowed: frozenset[str] = frozenset()
    public_url: str | None = None
    issuer: str | None = None


def read_names(allowed: Iterable[str] = (), public_url: str | None = None,
               issuer: str | None = None) -> Names:
    """The names from the flags, with the environment's: allowed hosts from both, the
    public URL and the issuer from the flag when given, else from the environment.
    Raises ValueError naming the value that is wrong."""
    given = [*allowed, *os.environ.get(ALLOWED_VARIABLE, "").split(",")]
    names = {_allowed_name(name) for name in given if name.strip()}
    public = public_url or os.environ.get(PUBLIC_URL_VARIABLE) or None
    origin = _origin(public, "--public-url") if public else None
    if origin is not None:
        host = urlsplit(origin).hostname or ""
        if _address(host) is None:
            names.add(host)
    named_issuer = issuer or os.environ.get(ISSUER_VARIABLE) or None
    return Names(frozenset(names), origin,
                 _issuer(named_issuer) if named_issuer else None)


def host_allowed(host: str, allowed: frozenset[str], local: str | None) -> bool:
    """True when a request's Host header names this server: a name in `allowed`,
    localhost, or `local`, the address the request's connection reached (None: unknown)."""
    name = _host_name(host)
    if name is None:
        return False
    if name in allowed or ANY in allowed or name == "localhost":
        return True
    own = _address(local) if local is not None else None
    return own is not None and _address(name) == own


@lru_cache(maxsize=256)
def _address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The IP address `name` writes (an IPv4-mapped IPv6 one as IPv4), or None."""
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


@lru_cache(maxsize=256)
def _host_name(host: str) -> str | None:
    """The name or address of a Host header, lower case, without port or brackets; None
    for a header that is neither."""
    found = _HOST.fullmatch(host.strip().lower())
    if found is None:
        return None
    name = found.group(1)
    return name[1:-1] if name.startswith("[") else name.removesuffix(".")


def _allowed_name(given: str) -> str:
    name = given.strip().lower().removesuffix(".")
    if name != ANY and not _NAME.fullmatch(name):
        raise ValueError(f"--allowed-host takes a host name without a port (or {ANY}), "
                         f"not {given.strip()[:100]!r}")
    return name


def _origin(given: str, flag: str) -> str:
    """`scheme://host[:port]` of an http(s) URL with no path. Raises ValueError."""
    parts = urlsplit(given.strip())
    try:
        port = parts.port
    except ValueError:
        port = -1
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username \
            or port == -1 or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"{flag} takes the server's origin, such as "
                         f"https://mcp.example.org, not {given.strip()[:100]!r}")
    return f"{parts.scheme}://{parts.netloc.lower()}"


def _issuer(given: str) -> str:
    """An issuer URL (RFC 8414: https, or http for testing; no query or fragment)."""
    parts = urlsplit(given.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query \
            or parts.fragment or parts.username:
        raise ValueError(f"--issuer takes the authorization server's issuer URL, such as "
                         f"https://auth.example.org, not {given.strip()[:100]!r}")
    return given.strip()
