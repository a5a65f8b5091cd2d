"""The command-line front end: one small function per command, errors → exit codes.

Exit codes: 0 ok, 1 the archive has errors, 2 a usage error. Problems go to stderr, one line
each, naming the file and line they come from.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder import __version__
from site_builder.archive.findings import (
    Finding,
    as_json,
    display_path,
    github_annotation,
    has_errors,
)
from site_builder.build import command as build_command
from site_builder.mcp import command as mcp_command
from site_builder.serve.command import register as register_serve
from site_builder.sources.command import register as register_sources

if TYPE_CHECKING:
    from site_builder.archive.archive import Archive
    from site_builder.config import SiteConfig

# Each command imports what it needs when it runs: `--help` and `build` never load the
# query engine, the MCP client or the live preview.

OK, ARCHIVE_ERRORS, USAGE = 0, 1, 2


class UsageError(Exception):
    """A command that cannot run as asked (exit 2)."""


def fail(message: str) -> None:
    print(f"site-builder: {message}", file=sys.stderr)


def find_root(given: str | None) -> Path:
    """The archive folder: `--root`, else the nearest folder holding site.yml, from here up."""
    from site_builder.config import CONFIG_FILE

    if given is not None:
        root = Path(given)
        if not (root / CONFIG_FILE).is_file():
            raise UsageError(f"no {CONFIG_FILE} in {root} (run 'site-builder init {root}')")
        return root.resolve()
    here = Path.cwd()
    for folder in (here, *here.parents):
        if (folder / CONFIG_FILE).is_file():
            return folder
    raise UsageError(f"no {CONFIG_FILE} here or above {here}; pass --root DIR or run "
                     "'site-builder init'")


def report(findings: Sequence[Finding], stream=None) -> None:
    """Print findings as `path:line: level: message`, to stderr unless told otherwise."""
    for finding in findings:
        print(finding.format(), file=stream or sys.stderr)


def load_config_or_fail(root: Path) -> SiteConfig:
    """The config; raises SystemExit(1) after printing its problems when it has errors."""
    from site_builder.config import load_config

    config, findings = load_config(root)
    if config is None or has_errors(findings):
        report(findings)
        raise SystemExit(ARCHIVE_ERRORS)
    return config


def load_for_queries(root: Path) -> Archive:
    """The archive for `search` and `show`: every readable record, like the MCP server."""
    from site_builder.archive.loader import load_archive

    archive = load_archive(root, config=load_config_or_fail(root))
    return archive


def archive_for_queries(args: argparse.Namespace) -> Archive:
    """The local archive, or with `--url` the published site's, as the MCP server reads it.

    Raises UsageError for an address that is not a site, SourceError when it cannot be read.
    """
    if args.url is None:
        return load_for_queries(find_root(args.root))
    from site_builder.mcp.remote import PublishedSite, RemoteSource, site_url

    url = site_url(args.url)
    if url is None:
        raise UsageError("--url must be the address of a published site")
    return RemoteSource(PublishedSite(url), log=fail).archive()


# ---- commands ---------------------------------------------------------------------------------


def cmd_init(args: argparse.Namespace) -> int:
    from site_builder.scaffold import ScaffoldError, init_archive

    folder = Path(args.dir or args.root or ".")
    try:
        written = init_archive(folder)
    except ScaffoldError as exc:
        fail(str(exc))
        return USAGE
    for path in written:
        print(path)
    print(f"Created an archive in {folder}. Next: site-builder check --root {folder}",
          file=sys.stderr)
    return OK


def cmd_new(args: argparse.Namespace) -> int:
    from site_builder.authoring import NewRecordError, new_record

    config = load_config_or_fail(find_root(args.root))
    try:
        path = new_record(config, args.project, args.type, args.title,
                          create_project=args.create_project)
    except NewRecordError as exc:
        fail(str(exc))
        return USAGE
    print(display_path(path))
    return OK


def cmd_check(args: argparse.Namespace) -> int:
    """Print every problem; text goes to stderr (they are errors), json and github to stdout."""
    from site_builder.archive.loader import load_archive

    archive = load_archive(find_root(args.root))
    findings = list(archive.findings)
    if args.strict:
        findings = [f.escalated() for f in findings]
    if args.format == "json":
        print(json.dumps([as_json(f) for f in findings], indent=2, ensure_ascii=False))
    elif args.format == "github":
        for finding in findings:
            print(github_annotation(finding))
    else:
        report(findings)
    errors = sum(f.level == "error" for f in findings)
    warnings = len(findings) - errors
    if findings and args.format == "text":
        print(f"{errors} error(s), {warnings} warning(s) in {len(archive.records)} records",
              file=sys.stderr)
    return ARCHIVE_ERRORS if errors else OK


def _print_json(value: object) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


def cmd_search(args: argparse.Namespace) -> int:
    from site_builder import query

    archive = archive_for_queries(args)
    text = " ".join(args.query) if args.query else None
    limit = query.DEFAULT_LIMIT if args.limit is None else args.limit
    result = query.search_records(
        archive, project=args.project, type=args.type, status=args.status, tag=args.tag,
        author=args.author, field=args.field, query=text, current_only=args.current_only,
        sort=args.sort, limit=limit, offset=args.offset)
    if args.json:
        _print_json(result)
        return OK
    rows = [(r["ref"], r["status"], r["date"], r["title"]) for r in result["records"]]
    print_table(("REF", "STATUS", "DATE", "TITLE"), rows)
    shown = len(rows)
    print(f"{shown} of {result['total']} record(s)"
          + (f"; next page: --offset {args.offset + shown}"
             if args.offset + shown < result["total"] else ""), file=sys.stderr)
    return OK


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A plain, aligned table for people."""
    widths = [max(len(str(c)) for c in column) for column in zip(header, *rows, strict=False)]
    for row in (header, *rows):
        cells = [str(c).ljust(w) for c, w in zip(row, widths, strict=False)]
        print("  ".join(cells).rstrip())


def cmd_show(args: argparse.Namespace) -> int:
    from site_builder import query

    archive = archive_for_queries(args)
    result = query.get_record(archive, args.id)
    if args.json:
        _print_json(result)
        return OK
    record = archive.get(args.id)
    print(query.markdown_copy(archive, record), end="")
    return OK


# ---- the parser ---------------------------------------------------------------------------------


Command = Callable[[argparse.Namespace], int]


def _positive(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="site-builder",
        description="A static-site generator for decision records, and an MCP server over them.")
    parser.add_argument("--version", action="version", version=f"site-builder {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--root", metavar="DIR",
                        help="folder holding site.yml (default: this folder or the nearest above)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("init", help="scaffold a new archive", parents=[common])
    p.add_argument("dir", nargs="?", help="folder to create it in (default: --root, else here)")
    p.set_defaults(func=cmd_init)

    p = sub.add_parser("new", help="write the next-numbered record", parents=[common])
    p.add_argument("project")
    p.add_argument("type", help="record type folder, e.g. adr or rfc")
    p.add_argument("title")
    p.add_argument("--create-project", action="store_true",
                   help="start the project folder if it does not exist")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("check", help="validate the archive", parents=[common])
    p.add_argument("--format", choices=("text", "json", "github"), default="text")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("search", help="search records (the search_records tool)",
                       parents=[common])
    p.add_argument("query", nargs="*", help="words to look for in titles, tags and bodies")
    for name in ("project", "type", "status", "tag", "author"):
        p.add_argument(f"--{name}")
    p.add_argument("--field", metavar="NAME=VALUE")
    p.add_argument("--current-only", action="store_true", help="only records in force")
    p.add_argument("--sort", choices=("date", "relevance"), default="date")
    p.add_argument("--limit", type=int, help="records per page (default: 20)")
    p.add_argument("--offset", type=_positive, default=0)
    p.add_argument("--json", action="store_true", help="print the tool's JSON object")
    p.add_argument("--url", metavar="SITE", help="query a published site instead")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("show", help="one record (the get_record tool)", parents=[common])
    p.add_argument("id", help="full id, short id (sre/adr/1), ref (SRE-ADR-0001) or slug")
    p.add_argument("--json", action="store_true", help="print the tool's JSON object")
    p.add_argument("--url", metavar="SITE", help="read a published site instead")
    p.set_defaults(func=cmd_show)

    for register in EXTRA_COMMANDS:
        register(sub, common)
    return parser


# Commands that live in their own modules add themselves here (build, serve, mcp, …).
EXTRA_COMMANDS: list[Callable[[argparse._SubParsersAction, argparse.ArgumentParser], None]] = [
    build_command.register,
    register_sources,
    mcp_command.register,
    register_serve,
]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except UsageError as exc:
        fail(str(exc))
        return USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return OK
    except Exception as exc:
        code = _known_failure(exc)
        if code is None:
            raise
        fail(str(exc))
        return code


def _known_failure(exc: Exception) -> int | None:
    """The exit code for a failure a command reports in one line, or None for a bug.

    Imported here, when one happened: neither module is loaded by commands that never
    query or read a published site."""
    from site_builder.mcp.source import SourceError
    from site_builder.query import QueryError

    if isinstance(exc, QueryError):
        return USAGE
    if isinstance(exc, SourceError):  # a published site (--url) that could not be read
        return ARCHIVE_ERRORS
    return None
