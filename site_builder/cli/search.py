"""`site-builder search` and `show`: the search_records and get_record tools, for people.

The arguments are the tools' own (their rows in `site_builder.mcp.tools`), checked the same
way, so the command line takes and refuses exactly what the MCP tools do.
"""

from __future__ import annotations

import argparse
import sys

from site_builder.base.words import plural
from site_builder.cli.common import Subcommands, archive_for_queries, fail, print_json, print_table
from site_builder.errors import ARCHIVE_ERRORS, OK
from site_builder.mcp.tools import BY_NAME

SEARCH = BY_NAME["search_records"].parameters
SHOW = BY_NAME["get_record"].parameters


def register(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("search", help="search records (the search_records tool)",
                       parents=[common])
    SEARCH.add_flags(p)
    p.add_argument("--json", action="store_true", help="print the tool's JSON object")
    p.add_argument("--url", metavar="SITE", help="query a published site instead")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("show", help="one record (the get_record tool)", parents=[common])
    p.add_argument("id", help="full id, short id (sre/adr/1), ref (SRE-ADR-0001) or slug")
    p.add_argument("--json", action="store_true", help="print the tool's JSON object")
    p.add_argument("--url", metavar="SITE", help="read a published site instead")
    p.set_defaults(func=cmd_show)


def cmd_search(args: argparse.Namespace) -> int:
    from site_builder.query import answers as query

    given = SEARCH.checked(SEARCH.from_command_line(args))
    archive = archive_for_queries(args)
    result = query.search_records(archive, **given)
    if args.json:
        print_json(result)
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


def cmd_show(args: argparse.Namespace) -> int:
    from site_builder.query import answers as query
    from site_builder.query import copies

    given = SHOW.checked({"id": args.id})
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
        print_json(result)
        return OK
    record = archive.get(args.id)
    print(copies.markdown_copy(archive, record), end="")
    return OK
