"""What every command shares: exit codes, finding the archive, reporting, plain output.

Exit codes: 0 ok, 1 the archive has errors (or a step failed), 2 a usage error. Problems go
to stderr, one line each, naming the file and line they come from. Nothing here imports a
feature package at module level: a command loads what it needs when it runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeAlias

from site_builder.base.findings import Finding, has_errors
from site_builder.config.site import NoArchive, find_archive
from site_builder.errors import ARCHIVE_ERRORS, UsageError

# What a command's `register` is handed: the parser's subcommands (argparse's class is
# generic only to type checkers, hence the string).
Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

if TYPE_CHECKING:
    from site_builder.archive.archive import Archive
    from site_builder.config.site import SiteConfig

FAILED = ARCHIVE_ERRORS  # a step that could not be done (the output, a worker): exit 1


def fail(message: str) -> None:
    print(f"site-builder: {message}", file=sys.stderr)


def find_root(given: str | None) -> Path:
    """The archive folder: `--root`, else the nearest folder holding site.yml, from here up.
    Raises UsageError."""
    try:
        return find_archive(given)
    except NoArchive as exc:
        raise UsageError(str(exc)) from None


def report(findings: Sequence[Finding], stream: TextIO | None = None) -> None:
    """Print findings as `path:line: level: message`, to stderr unless told otherwise."""
    for finding in findings:
        print(finding.format(), file=stream or sys.stderr)


def load_config_or_fail(root: Path) -> SiteConfig:
    """The config; raises SystemExit(1) after printing its problems when it has errors."""
    from site_builder.config.site import load_config

    config, findings = load_config(root)
    if config is None or has_errors(findings):
        report(findings)
        raise SystemExit(ARCHIVE_ERRORS)
    return config


def load_for_queries(root: Path) -> Archive:
    """The archive for `search` and `show`: every readable record, like the MCP server."""
    from site_builder.sources.load import load_archive

    archive = load_archive(root, config=load_config_or_fail(root))
    return archive


def archive_for_queries(args: argparse.Namespace) -> Archive:
    """The local archive, or with `--url` the published site's, as the MCP server reads it.

    Raises UsageError for an address that is not a site, SourceError when it cannot be read.
    """
    if args.url is None:
        return load_for_queries(find_root(args.root))
    from site_builder.access.network import NetworkError
    from site_builder.access.remote import PublishedSite, RemoteSource, site_url

    url = site_url(args.url)
    if url is None:
        raise UsageError("--url must be the address of a published site")
    try:
        site = PublishedSite(url)
    except NetworkError as exc:
        raise UsageError(str(exc)) from None
    return RemoteSource(site, log=fail).archive()


def print_json(value: object) -> None:
    """A tool's object, as `--json` prints it."""
    print(json.dumps(value, indent=2, ensure_ascii=False))


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A plain, aligned table for people."""
    widths = [max(len(str(c)) for c in column) for column in zip(header, *rows, strict=False)]
    for row in (header, *rows):
        cells = [str(c).ljust(w) for c, w in zip(row, widths, strict=False)]
        print("  ".join(cells).rstrip())
