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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from site_builder.mcp.source import Source

URL_MESSAGE = "--url must be the address of a published site"
ARCHIVE_ERRORS, USAGE = 1, 2


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
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
    # Seconds; for tests and slow networks, not part of the documented interface.
    p.add_argument("--timeout", type=float, default=None, help=argparse.SUPPRESS)
    p.add_argument("--cache-ttl", type=float, default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_mcp)


def _remote(args: argparse.Namespace) -> Source | int:
    # Imported when the server starts: every other command's `--help` stays light.
    from site_builder.mcp.remote import (
        DEFAULT_TIMEOUT,
        DEFAULT_TTL,
        PublishedSite,
        RemoteSource,
        site_url,
    )
    from site_builder.mcp.source import log_to_stderr

    if args.root is not None:
        log_to_stderr("use either --root or --url, not both")
        return USAGE
    url = site_url(args.url)
    if url is None:
        log_to_stderr(URL_MESSAGE)
        return USAGE
    timeout = DEFAULT_TIMEOUT if args.timeout is None else args.timeout
    ttl = DEFAULT_TTL if args.cache_ttl is None else args.cache_ttl
    if timeout <= 0 or ttl < 0:
        log_to_stderr("--timeout must be above 0 and --cache-ttl 0 or more")
        return USAGE
    return RemoteSource(PublishedSite(url, timeout=timeout, ttl=ttl))


def _local(args: argparse.Namespace) -> Source | int:
    # Imported here: cli.py imports this module to register the command.
    from site_builder.archive.findings import has_errors
    from site_builder.cli import UsageError, find_root
    from site_builder.config import load_config
    from site_builder.mcp.source import LocalSource, log_to_stderr

    try:
        root = find_root(args.root)
    except UsageError as exc:
        log_to_stderr(str(exc))
        return USAGE
    config, findings = load_config(root)
    for finding in findings:
        log_to_stderr(finding.format())
    if config is None or has_errors(findings):
        log_to_stderr(f"{root / 'site.yml'} cannot be used; the server did not start")
        return ARCHIVE_ERRORS
    return LocalSource(config)


def source_from(root: str | None, url: str | None) -> Source | int:
    """The source for an archive folder or a published site's URL; an exit status (after
    one line on stderr) when it cannot serve."""
    args = argparse.Namespace(root=None if url is not None else root, url=url, timeout=None,
                              cache_ttl=None)
    return _remote(args) if url is not None else _local(args)


def cmd_mcp(args: argparse.Namespace) -> int:
    """Run the server until stdin closes (or, over HTTP, until interrupted); the exit
    status."""
    from site_builder.mcp.envelope import hints_for
    from site_builder.mcp.server import Server
    from site_builder.mcp.source import log_to_stderr

    if args.http is None and (args.token_file is not None or args.public):
        log_to_stderr("--token-file and --public go with --http")
        return USAGE
    address = None
    if args.http is not None:
        from site_builder.mcp.listen import Address, AddressError

        try:
            address = Address.parse(args.http)
        except AddressError as exc:
            log_to_stderr(str(exc))
            return USAGE
    source = _remote(args) if args.url is not None else _local(args)
    if isinstance(source, int):
        return source
    if address is not None:
        from site_builder.mcp.listen import serve_http

        return serve_http(source, address, args.token_file, args.public)
    protocol_out = sys.stdout.buffer
    # Whatever else prints (a library, a stray print) must not corrupt the protocol stream.
    sys.stdout = sys.stderr
    try:
        return Server(source, hints=hints_for(source, False)).serve(sys.stdin.buffer,
                                                                     protocol_out)
    except KeyboardInterrupt:
        return 130
