"""`site-builder check`: every problem of the archive, one line each, at its file and line."""

from __future__ import annotations

import argparse
import json
import sys

from site_builder.base.findings import as_json, github_annotation
from site_builder.base.words import plural
from site_builder.cli.common import Subcommands, find_root, report
from site_builder.errors import ARCHIVE_ERRORS, OK


def register(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("check", help="validate the archive", parents=[common])
    p.add_argument("--format", choices=("text", "json", "github"), default="text")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also list every file of the records folders left out, and why")
    p.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    """Print every problem; text goes to stderr (they are errors), json and github to stdout."""
    from site_builder.sources.load import load_archive

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
    if args.verbose and args.format == "text":
        for skipped in archive.skipped:
            print(f"left out {skipped.line()}", file=sys.stderr)
    errors = sum(f.level == "error" for f in findings)
    warnings = len(findings) - errors
    if findings and args.format == "text":
        files = len({f.path for f in findings})
        print(f"{plural(errors, 'error')}, {plural(warnings, 'warning')} in "
              f"{plural(files, 'file')} ({plural(len(archive.records), 'record')} read)",
              file=sys.stderr)
    return ARCHIVE_ERRORS if errors else OK
