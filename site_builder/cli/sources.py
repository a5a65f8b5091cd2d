"""`site-builder sources update`: the command line over `update.py`.

Changes go to stdout, one line per source and one per record added (+), removed (-) or
changed (~); problems go to stderr. Exit 1 when any source could not be fetched.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from site_builder.base.words import plural
from site_builder.cli.common import Subcommands
from site_builder.errors import ARCHIVE_ERRORS, OK

if TYPE_CHECKING:  # imported when the command runs (git and the loader are not light)
    from site_builder.sources.update import SourceUpdate


def register(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Add `sources update` to the command line."""
    parser = sub.add_parser("sources", help="records from other repositories (site.yml sources)")
    actions = parser.add_subparsers(dest="sources_command", required=True, metavar="ACTION")
    update = actions.add_parser("update", parents=[common],
                                help="fetch every repo: source again and say what changed")
    update.set_defaults(func=cmd_update)


def cmd_update(args: argparse.Namespace) -> int:
    """Fetch every repo: source; returns 0, or 1 when any source could not be fetched."""
    from site_builder.cli import common as cli

    config = cli.load_config_or_fail(cli.find_root(args.root))
    from site_builder.sources.update import update_sources

    updates = update_sources(config)
    if not updates:
        print("site-builder: site.yml has no repo: sources; nothing to fetch", file=sys.stderr)
        return OK
    for update in updates:
        if update.error is None:
            print(summary(update))
            for mark, ids in (("+", update.added), ("-", update.removed), ("~", update.changed)):
                for record_id in ids:
                    print(f"  {mark} {record_id}")
        elif update.before is not None:
            print(f"site-builder: warning: {update.error} (still using the cached commit "
                  f"{update.before[:12]})", file=sys.stderr)
        else:
            print(f"site-builder: error: {update.error}", file=sys.stderr)
    return ARCHIVE_ERRORS if any(u.error for u in updates) else OK


def summary(update: SourceUpdate) -> str:
    """One line saying what a successful update did."""
    from site_builder.sources.resolve import describe

    name = describe(update.spec)
    after = (update.after or "")[:12]
    if update.before is None:
        return f"{name}: fetched {after}, {plural(update.total, 'record')}"
    if update.before == update.after and not (update.added or update.removed or update.changed):
        return f"{name}: up to date at {after}, {plural(update.total, 'record')}"
    return (f"{name}: {update.before[:12]} → {after}: {plural(len(update.added), 'record')} added, "
            f"{len(update.removed)} removed, {len(update.changed)} changed")
