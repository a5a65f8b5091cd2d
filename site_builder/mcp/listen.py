"""`site-builder mcp --http [HOST:]PORT`: bind the address, then run the ASGI app under uvicorn.

Imported only for --http, so the stdio server never pays for uvicorn. The socket is bound
here, before uvicorn starts, so port 0 gives a real port to print and a refused address
fails with one line and exit 2. A non-loopback address without tokens is refused unless
`--public` says that is meant: the archive would otherwise be open to the network by a typo.
uvicorn runs its h11 protocol under the connection guard (guard.py), with a short listen
backlog, so deadlines and the connection cap hold.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass

from site_builder.access.source import LOG_PREFIX, Source, log_to_stderr
from site_builder.errors import UsageError
from site_builder.mcp.envelope import hints_for
from site_builder.mcp.guard import GuardedH11, Limits, quiet_accept_errors
from site_builder.mcp.hosts import Names, read_names
from site_builder.mcp.http import MCP_PATH, McpApp, Settings
from site_builder.mcp.server import Server
from site_builder.mcp.tokens import read_tokens

USAGE = 2
DEFAULT_HOST = "127.0.0.1"
_LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
# Connections accepted in one go before the guard sees them; also the listen queue.
BACKLOG = 128


class AddressError(UsageError, ValueError):
    """An --http value that is not [HOST:]PORT."""


@dataclass(frozen=True)
class Address:
    """Where to listen: a host (name or IP, IPv6 without brackets) and a port (0: any)."""

    host: str
    port: int

    @classmethod
    def parse(cls, given: str) -> Address:
        """`PORT`, `HOST:PORT` or `[IPv6]:PORT`. Raises AddressError."""
        host, sep, port = given.strip().rpartition(":")
        if not sep:
            host = DEFAULT_HOST
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        if not port.isascii() or not port.isdigit() or int(port) > 65535 or not host:
            raise AddressError(f"--http takes [HOST:]PORT, such as 8080 or 0.0.0.0:8080, "
                               f"not {given!r}")
        return cls(host, int(port))

    @property
    def loopback(self) -> bool:
        """True when only this machine can reach the address."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False

    @property
    def wildcard(self) -> bool:
        """True for 0.0.0.0 or ::, every address of the machine."""
        try:
            return ipaddress.ip_address(self.host).is_unspecified
        except ValueError:
            return False

    def shown(self, port: int) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{port}"


def bind(address: Address) -> socket.socket:
    """A listening socket on `address`. Raises OSError."""
    family, kind, proto, _, where = socket.getaddrinfo(
        address.host, address.port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(where)
        sock.listen(1024)
    except OSError:
        sock.close()
        raise
    return sock


def settings_for(address: Address, port: int, tokens: frozenset[str],
                 names: Names | None = None) -> Settings:
    """Who may connect (hosts.py: its own address, localhost, the names given and a host name
    the server was bound by) and the address it gives for itself: the public URL, else the
    bound one (none for a wildcard address, which names no reachable host)."""
    names = names or Names()
    allowed = set(names.allowed)
    if not address.wildcard and not _is_ip(address.host):
        allowed.add(address.host.lower())
    origins = {f"http://{name}:{port}" for name in _LOOPBACK_NAMES} if address.loopback \
        else set()
    base = names.public_url
    if base is not None:
        origins.add(base)
    elif not address.wildcard:
        base = f"http://{address.shown(port)}"
        origins.add(base)
    return Settings(tokens=tokens, names=frozenset(allowed), origins=frozenset(origins),
                    base=base, issuer=names.issuer)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Exposure:
    """How an HTTP server faces the network: --token-file, --public, and the names of
    hosts.py (--allowed-host, --public-url, --issuer)."""

    token_file: str | None = None
    public: bool = False
    allowed_hosts: tuple[str, ...] = ()
    public_url: str | None = None
    issuer: str | None = None


def serve_http(source: Source, address: Address, exposure: Exposure) -> int:
    """Serve `source` at http://ADDRESS/mcp until interrupted; the exit status."""
    try:
        tokens = read_tokens(exposure.token_file)
        names = read_names(exposure.allowed_hosts, exposure.public_url, exposure.issuer)
        GuardedH11.limits = Limits.from_environment(BACKLOG)
    except ValueError as exc:
        log_to_stderr(str(exc))
        return USAGE
    if not address.loopback and not tokens and not exposure.public:
        log_to_stderr(f"refusing to serve {address.host}, which other machines can reach, "
                      "without tokens: give --token-file FILE (or SITE_BUILDER_MCP_TOKENS), "
                      "or --public to serve every client")
        return USAGE
    if names.issuer is not None and names.public_url is None and address.wildcard:
        log_to_stderr("--issuer needs --public-url on a wildcard address: the resource "
                      "metadata must name the address clients use")
        return USAGE
    try:
        sock = bind(address)
    except OSError as exc:
        log_to_stderr(f"cannot listen on {address.shown(address.port)}: {exc.strerror or exc}")
        return USAGE
    port = sock.getsockname()[1]
    app = McpApp(Server(source, hints=hints_for(source, bool(tokens))),
                 settings_for(address, port, tokens, names))
    log_to_stderr(f"serving http://{address.shown(port)}{MCP_PATH}")
    try:
        return _run(app, sock)
    finally:
        sock.close()


def _run(app: McpApp, sock: socket.socket) -> int:
    """Run uvicorn on `sock` under the guard until it stops; the exit status."""
    import uvicorn  # only --http needs it

    config = uvicorn.Config(app, lifespan="on", access_log=False, log_level="warning",
                            log_config=_LOGGING, timeout_graceful_shutdown=3,
                            http=GuardedH11, backlog=BACKLOG)
    server = uvicorn.Server(config)

    async def serve() -> None:
        quiet_accept_errors(asyncio.get_running_loop())
        await server.serve(sockets=[sock])

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        return 130
    return 0


# uvicorn's own lines go to stderr with the prefix every server log line carries.
_LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": f"{LOG_PREFIX} %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain",
                            "stream": "ext://sys.stderr"}},
    "loggers": {"uvicorn": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
                "uvicorn.error": {"level": "WARNING"}},
}
