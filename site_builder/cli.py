"""The command-line front end: one small function per command, errors → exit codes.

Exit codes: 0 ok, 1 the archive has errors, 2 a usage error. Problems go to stderr, one line
each, naming the file and line they come from.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder import __version__, contract, query
from site_builder.adopt import adopt
from site_builder.adopt_report import check_summary, record_guesses
from site_builder.archive.archive import Archive
from site_builder.archive.findings import (
    Finding,
    as_json,
    display_path,
    github_annotation,
    has_errors,
)
from site_builder.build import command as build_command
from site_builder.build import graph_command
from site_builder.config import CONFIG_FILE, SiteConfig, load_config
from site_builder.importing import plan_import, write_plan
from site_builder.mcp import command as mcp_command
from site_builder.mcp.source import SourceError
from site_builder.scaffold import ScaffoldError, init_archive
from site_builder.serve.command import register as register_serve
from site_builder.source_formats import FORMATS
from site_builder.sources.command import register as register_sources

if TYPE_CHECKING:
    from site_builder.archive.archive import Archive
    from site_builder.config import SiteConfig

# Each command imports what it needs when it runs: `--help` and `build` never load the
# query engine, the MCP client or the live preview.

OK, ARCHIVE_ERRORS, USAGE = 0, 1, 2
_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


class UsageError(Exception):
    """A command that cannot run as asked (exit 2)."""


def fail(message: str) -> None:
    print(f"site-builder: {message}", file=sys.stderr)


def find_root(given: str | None) -> Path:
    """The archive folder: `--root`, else the nearest folder holding site.yml, from here up."""

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
    if args.from_dir is not None:
        if args.dir is not None:
            raise UsageError("init takes a folder or --from DIR, not both")
        return cmd_adopt(Path(args.from_dir))
    folder = Path(args.dir or args.root or ".").resolve()
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


def cmd_adopt(repo: Path) -> int:
    """`init --from DIR`: print the folders found, what was written, every guess, and
    whether `check` passes on it."""
    try:
        adoption = adopt(repo)
    except ScaffoldError as exc:
        fail(str(exc))
        return USAGE
    for folder in adoption.folders:
        print(f"found {folder.path}: format {folder.format}, project {folder.project} "
              f"({folder.why})")
    for path in adoption.written:
        print(f"wrote {path}")
    config, _ = load_config(repo)
    guesses = adoption.guesses + (record_guesses(config) if config is not None else [])
    for guess in guesses:
        print(f"guessed {guess}")
    errors, verdict = check_summary(repo)
    report(errors)
    print(verdict, file=sys.stderr)
    print(f"Next: site-builder build --root {repo}", file=sys.stderr)
    return OK


def cmd_import(args: argparse.Namespace) -> int:
    """`import SRC --project P`: print the plan; write it unless `--dry-run`."""
    config = load_config_or_fail(find_root(args.root))
    src = Path(args.src)
    if not src.is_dir():
        raise UsageError(f"{src} is not a folder")
    if not _NAME.match(args.project) or not _NAME.match(args.type):
        raise UsageError("--project and --type must be lowercase letters, digits, '.', '_' "
                         "or '-'")
    plan = plan_import(config, src, args.project, args.type, args.format)
    report(plan.problems)
    if plan.problems:
        return ARCHIVE_ERRORS
    for line in plan.report:
        print(line)
    if args.dry_run:
        print(f"dry run: {len(plan.files)} file(s) would be written, none was",
              file=sys.stderr)
        return OK
    written = write_plan(plan)
    print(f"wrote {len(written)} file(s); {src} is unchanged. Next: site-builder check",
          file=sys.stderr)
    return OK


def cmd_new(args: argparse.Namespace) -> int:
    from site_builder.authoring import NewRecordError, new_record

    config = load_config_or_fail(find_root(args.root))
    foreign = next((s for s in config.sources if s.format and s.project == args.project), None)
    if foreign is not None:
        # A native file there would make the project claimed twice; the folder's own tool
        # (adr new, log4brains adr new) keeps its numbering and template.
        raise UsageError(f"project '{args.project}' is read from {foreign.label} in "
                         f"{foreign.format} format: add the record there with that folder's "
                         "own tool, or run 'site-builder import' to move it to content/")
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
        files = len({f.path for f in findings})
        print(f"{plural(errors, 'error')}, {plural(warnings, 'warning')} in "
              f"{plural(files, 'file')} ({plural(len(archive.records), 'record')} read)",
              file=sys.stderr)
    return ARCHIVE_ERRORS if errors else OK


def plural(count: int, noun: str) -> str:
    """`1 error`, `2 errors`, `0 warnings`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _print_json(value: object) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


def cmd_search(args: argparse.Namespace) -> int:
    given = contract.checked("search_records", contract.cli_arguments(args, "search_records"))
    archive = archive_for_queries(args)
    result = query.search_records(archive, **given)
    if args.json:
        _print_json(result)
        return OK
    rows = [(r["ref"], r["status"], r["date"], r["title"]) for r in result["records"]]
    if not result["total"]:
        print("No records match" + (f" {' and '.join(_described(given))}" if given else "")
              + "; try fewer words or filters, or list everything with: site-builder search",
              file=sys.stderr)
        return OK
    if not rows:
        print(f"{plural(result['total'], 'record')} match, none from --offset "
              f"{result['offset']} on", file=sys.stderr)
        return OK
    print_table(("REF", "STATUS", "DATE", "TITLE"), rows)
    shown = len(rows)
    offset = result["offset"]
    print(f"{shown} of {plural(result['total'], 'record')}"
          + (f"; next page: --offset {offset + shown}"
             if offset + shown < result["total"] else ""), file=sys.stderr)
    return OK


def _described(given: dict[str, object]) -> list[str]:
    """The search's words and filters as a person reads them: `"cahce"`, `status=proposed`."""
    out = [f'"{given["query"]}"'] if given.get("query") else []
    out += [f"{name}={value}" for name, value in given.items()
            if name not in ("query", "limit", "offset", "sort")]
    return out


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A plain, aligned table for people."""
    widths = [max(len(str(c)) for c in column) for column in zip(header, *rows, strict=False)]
    for row in (header, *rows):
        cells = [str(c).ljust(w) for c, w in zip(row, widths, strict=False)]
        print("  ".join(cells).rstrip())


def cmd_show(args: argparse.Namespace) -> int:
    given = contract.checked("get_record", {"id": args.id})
    archive = archive_for_queries(args)
    try:
        result = query.get_record(archive, **given)
    except query.QueryError as exc:
        if exc.lookup is None or not exc.lookup.missing:
            raise
        fail(f"{exc.lookup.without_hint} Find records with: site-builder search WORDS "
             "(or --tag, --status, --project)")
        return ARCHIVE_ERRORS
    if args.json:
        _print_json(result)
        return OK
    record = archive.get(args.id)
    print(query.markdown_copy(archive, record), end="")
    return OK


# ---- the parser ---------------------------------------------------------------------------------


Command = Callable[[argparse.Namespace], int]


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
    p.add_argument("--from", dest="from_dir", metavar="DIR",
                   help="adopt the decision folders of the repository at DIR, in place")
    p.set_defaults(func=cmd_init)

    p = sub.add_parser("import", help="convert a folder of adr-tools, MADR or Log4brains "
                       "records into native files", parents=[common])
    p.add_argument("src", help="the folder of records to convert (left unchanged)")
    p.add_argument("--project", required=True)
    p.add_argument("--type", default="adr")
    p.add_argument("--format", choices=FORMATS, default="auto")
    p.add_argument("--dry-run", action="store_true", help="print the plan, write nothing")
    p.set_defaults(func=cmd_import)

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
    contract.cli_flags(p, "search_records")
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
    graph_command.register,
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
    except (query.QueryError, contract.ArgumentError) as exc:
        fail(str(exc))
        return USAGE
    except SourceError as exc:  # a published site (--url) that could not be read
        fail(str(exc))
        return ARCHIVE_ERRORS
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
