"""`site-builder import SRC --project P`: a folder of another tool's records as native files."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from site_builder.base.words import plural
from site_builder.cli.common import Subcommands, find_root, load_config_or_fail, report
from site_builder.config.source_formats import FORMATS
from site_builder.errors import ARCHIVE_ERRORS, OK, UsageError

_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


def register(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("import", help="convert a folder of adr-tools, MADR or Log4brains "
                       "records into native files", parents=[common])
    p.add_argument("src", help="the folder of records to convert (left unchanged)")
    p.add_argument("--project", required=True)
    p.add_argument("--type", default="adr")
    p.add_argument("--format", choices=FORMATS, default="auto")
    p.add_argument("--dry-run", action="store_true", help="print the plan, write nothing")
    p.set_defaults(func=cmd_import)


def cmd_import(args: argparse.Namespace) -> int:
    """`import SRC --project P`: print the plan; write it unless `--dry-run`."""
    from site_builder.authoring.importing import plan_import, write_plan

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
        print(f"dry run: {plural(len(plan.files), 'file')} would be written, none was",
              file=sys.stderr)
        return OK
    written = write_plan(plan)
    print(f"wrote {plural(len(written), 'file')}; {src} is unchanged. Next: site-builder check",
          file=sys.stderr)
    return OK
