"""`site-builder check`: every problem of the archive, one line each, at its file and line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from site_builder.base.findings import Finding, as_json, github_annotation, gitlab_quality
from site_builder.base.words import plural
from site_builder.cli.common import Subcommands, find_root, report
from site_builder.errors import ARCHIVE_ERRORS, OK

# The output formats of `check`, with what each is for: the flag's choices and its help.
FORMATS = {
    "text": "`path:line: level: message` lines on stderr",
    "json": "one JSON array of {path, line, level, message}",
    "github": "GitHub Actions annotations (`::error file=…,line=…::…`)",
    "gitlab": "GitLab's code-quality report, one JSON array (artifacts: reports: codequality)",
}


def register(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("check", help="validate the archive", parents=[common])
    p.add_argument("--format", choices=tuple(FORMATS), default="text",
                   help="; ".join(f"{name}: {what}" for name, what in FORMATS.items()))
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also list every file of the records folders left out, and why")
    p.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    """Print every problem; text goes to stderr (they are errors), the others to stdout."""
    from site_builder.sources.load import load_archive

    root = find_root(args.root)
    archive = load_archive(root)
    findings = list(archive.findings)
    if args.strict:
        findings = [f.escalated() for f in findings]
    if args.format == "json":
        print(json.dumps([as_json(f) for f in findings], indent=2, ensure_ascii=False))
    elif args.format == "github":
        for finding in findings:
            print(github_annotation(finding))
    elif args.format == "gitlab":
        print(json.dumps(_gitlab_report(findings, root), indent=2, ensure_ascii=False))
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


def _gitlab_report(findings: list[Finding], root: Path) -> list[dict[str, object]]:
    """The code-quality report, paths relative to the top of the checkout holding `root`
    (GitLab matches them against the merge request's files), else to `root`."""
    from site_builder.sources.browse import top_level

    repository = top_level(root) or root
    return [gitlab_quality(f, repository) for f in findings]
