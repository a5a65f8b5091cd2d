"""`site-builder mcp`: start the server over the content folder or a published site.

Everything that can fail before a client connects fails here, with an exit status: a
broken site.yml (1), a missing archive or an address that is not a site (2). Once the
server runs, stdout carries protocol messages only; anything else printed by accident goes
to stderr.
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
        help="MCP server over stdio (the content folder, or a published site with --url)",
        description="A read-only Model Context Protocol server over stdio. By default it "
                    "reads the archive's content folder on every call; with --url it reads "
                    "a published site (decisions.json, .md copies, llms.txt).")
    p.add_argument("--url", metavar="SITE",
                   help="address of a published site, e.g. https://decisions.example.org/")
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


def cmd_mcp(args: argparse.Namespace) -> int:
    """Run the server until stdin closes; the exit status."""
    from site_builder.mcp.server import Server

    source = _remote(args) if args.url is not None else _local(args)
    if isinstance(source, int):
        return source
    protocol_out = sys.stdout.buffer
    # Whatever else prints (a library, a stray print) must not corrupt the protocol stream.
    sys.stdout = sys.stderr
    try:
        return Server(source).serve(sys.stdin.buffer, protocol_out)
    except KeyboardInterrupt:
        return 130
