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
    p.add_argument("--project", help="the project the records join (default: the folder's "
                   "site.yml entry)")
    p.add_argument("--type", help="their record type (default: the folder's site.yml entry, "
                   "else adr)")
    p.add_argument("--format", choices=FORMATS, default=None,
                   help="the records' format (default: the folder's site.yml entry, else auto)")
    p.add_argument("--status-map", action="append", default=[], metavar="WRITTEN=STATUS",
                   help="read the status WRITTEN as STATUS (repeatable; over site.yml's)")
    p.add_argument("--default-status", metavar="STATUS",
                   help="the status of a record that states none (default: accepted)")
    p.add_argument("--dry-run", action="store_true", help="print the plan, write nothing")
    p.set_defaults(func=cmd_import)


def cmd_import(args: argparse.Namespace) -> int:
    """`import SRC --project P`: print the plan; write it unless `--dry-run`."""
    from site_builder.authoring.importing import import_foreign, plan_import, write_plan

    config = load_config_or_fail(find_root(args.root))
    src = Path(args.src)
    if not src.is_dir():
        raise UsageError(f"{src} is not a folder")
    if any(name is not None and not _NAME.match(name) for name in (args.project, args.type)):
        raise UsageError("--project and --type must be lowercase letters, digits, '.', '_' "
                         "or '-'")
    statuses = {s.name for s in config.statuses}
    mapping = _status_map(args.status_map, statuses)
    if args.default_status is not None and args.default_status not in statuses:
        raise UsageError(f"--default-status {args.default_status!r} is not a status (one of "
                         f"{', '.join(sorted(statuses))})")
    foreign = import_foreign(config, src, args.project, args.type, args.format, mapping,
                             args.default_status)
    if foreign is None:
        raise UsageError(f"--project is needed: site.yml has no format source for {src}")
    plan = plan_import(config, src, foreign)
    report(plan.problems)
    if plan.problems:
        return ARCHIVE_ERRORS
    for line in plan.report:
        print(line)
    if args.dry_run:
        count = len(plan.files) + len(plan.copies)
        print(f"dry run: {plural(count, 'file')} would be written, none was",
              file=sys.stderr)
        return OK
    written = write_plan(plan)  # records, then the attachments copied beside them
    print(f"wrote {plural(len(written), 'file')}; {src} is unchanged. Next: site-builder check",
          file=sys.stderr)
    return OK


def _status_map(pairs: list[str], statuses: set[str]) -> dict[str, str]:
    """`--status-map WRITTEN=STATUS` pairs as a mapping. Raises UsageError for a pair
    without `=` or whose STATUS is no status of the site."""
    mapping = {}
    for pair in pairs:
        written, sep, status = pair.rpartition("=")
        if not sep or not written.strip() or status.strip() not in statuses:
            raise UsageError(f"--status-map {pair!r} must be WRITTEN=STATUS, STATUS one of "
                             f"{', '.join(sorted(statuses))}")
        mapping[written.strip()] = status.strip()
    return mapping
