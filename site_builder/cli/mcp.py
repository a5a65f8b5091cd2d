"""`site-builder mcp`: start the server over the content folder or a published site.

Over stdio by default; with `--http [HOST:]PORT` over Streamable HTTP (listen.py).
Everything that can fail before a client connects fails here, with an exit status: a
broken site.yml (1), a missing archive, an address that is not a site or an HTTP address
that may not be served (2). Once the stdio server runs, stdout carries protocol messages
only; anything else printed by accident goes to stderr.
"""

from __future__ import annotations

import argparse
import sys

from site_builder.cli.common import Subcommands
from site_builder.errors import USAGE


def register(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Add the `mcp` command to the CLI."""
    p = sub.add_parser(
        "mcp", parents=[common],
        help="MCP server over stdio or HTTP (the content folder, or a published site with --url)",
        description="A read-only Model Context Protocol server, over stdio or, with --http, "
                    "over Streamable HTTP at /mcp. By default it reads the archive's content "
                    "folder on every call; with --url it reads a published site "
                    "(decisions.json, .md copies, llms.txt).")
    p.add_argument("--url", metavar="SITE",
                   help="address of a published site, e.g. https://decisions.example.org/")
    p.add_argument("--http", metavar="[HOST:]PORT",
                   help="serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio "
                        "(HOST 127.0.0.1 unless given; PORT 0 picks a free port)")
    p.add_argument("--token-file", metavar="FILE",
                   help="with --http: bearer tokens, one a line, one of which every request "
                        "must carry (also SITE_BUILDER_MCP_TOKENS, comma-separated)")
    p.add_argument("--public", action="store_true",
                   help="with --http: serve a non-loopback address without tokens")
    p.add_argument("--public-url", metavar="URL",
                   help="with --http: the origin clients reach the server at, such as "
                        "https://mcp.example.org (behind a proxy); its host is answered to and "
                        "the resource metadata names it (also SITE_BUILDER_MCP_PUBLIC_URL)")
    p.add_argument("--allowed-host", metavar="NAME", action="append", default=[],
                   help="with --http: a host name the server answers to besides IP addresses "
                        "and localhost; repeatable (also SITE_BUILDER_MCP_ALLOWED_HOSTS)")
    p.add_argument("--issuer", metavar="URL",
                   help="with --http: the authorization server whose tokens the endpoint "
                        "takes, named in the resource metadata (also SITE_BUILDER_MCP_ISSUER)")
    # Seconds; for tests and slow networks, not part of the documented interface.
    p.add_argument("--timeout", type=float, default=None, help=argparse.SUPPRESS)
    p.add_argument("--cache-ttl", type=float, default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    """Run the server until stdin closes (or, over HTTP, until interrupted); the exit
    status."""
    from site_builder.access.source import log_to_stderr
    from site_builder.access.start import open_source
    from site_builder.mcp.envelope import hints_for
    from site_builder.mcp.server import Server

    network = (args.token_file, args.public or None, args.public_url, args.allowed_host or None,
               args.issuer)
    if args.http is None and any(flag is not None for flag in network):
        log_to_stderr("--token-file, --public, --public-url, --allowed-host and --issuer go "
                      "with --http")
        return USAGE
    address = None
    if args.http is not None:
        from site_builder.mcp.listen import Address, AddressError

        try:
            address = Address.parse(args.http)
        except AddressError as exc:
            log_to_stderr(str(exc))
            return USAGE
    source = open_source(args.root, args.url, args.timeout, args.cache_ttl)
    if isinstance(source, int):
        return source
    if address is not None:
        from site_builder.mcp.listen import Exposure, serve_http

        return serve_http(source, address, Exposure(
            args.token_file, args.public, tuple(args.allowed_host), args.public_url,
            args.issuer))
    protocol_out = sys.stdout.buffer
    # Whatever else prints (a library, a stray print) must not corrupt the protocol stream.
    sys.stdout = sys.stderr
    try:
        return Server(source, hints=hints_for(source, False)).serve(sys.stdin.buffer,
                                                                     protocol_out)
    except KeyboardInterrupt:
        return 130
