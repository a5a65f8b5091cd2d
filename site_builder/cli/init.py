"""`site-builder init [DIR]` and `init --from DIR`: start an archive, or adopt a repository's."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from site_builder.authoring.gitlab import CI_FILES
from site_builder.cli.common import Subcommands, fail, report
from site_builder.errors import OK, USAGE, UsageError


def register(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("init", help="scaffold a new archive", parents=[common])
    p.add_argument("dir", nargs="?", help="folder to create it in (default: --root, else here)")
    p.add_argument("--from", dest="from_dir", metavar="DIR",
                   help="adopt the decision folders of the repository at DIR, in place")
    p.add_argument("--folder", dest="folders", action="append", default=[], metavar="PATH",
                   help="with --from: adopt this folder (relative to DIR) instead of "
                   "searching for them; repeatable")
    p.add_argument("--ci", choices=tuple(CI_FILES), default=None,
                   help="the CI pipeline to write: a GitHub Actions workflow (the default) or "
                   "a .gitlab-ci.yml; with --from the default is the service the repository "
                   "uses")
    p.set_defaults(func=cmd_init)


def cmd_init(args: argparse.Namespace) -> int:
    if args.from_dir is not None:
        if args.dir is not None:
            raise UsageError("init takes a folder or --from DIR, not both")
        return cmd_adopt(Path(args.from_dir), tuple(args.folders), args.ci)
    if args.folders:
        raise UsageError("--folder names a folder to adopt: use it with --from DIR")
    from site_builder.authoring.scaffold import ScaffoldError, init_archive

    folder = Path(args.dir or args.root or ".").resolve()
    try:
        written = init_archive(folder, ci=args.ci or "github")
    except ScaffoldError as exc:
        fail(str(exc))
        return USAGE
    for path in written:
        print(path)
    print(f"Created an archive in {folder}. Next: site-builder check --root {folder}",
          file=sys.stderr)
    return OK


def cmd_adopt(repo: Path, folders: tuple[str, ...] = (), ci: str | None = None) -> int:
    """`init --from DIR`: print the folders found, the files left out, what was written,
    every guess, and whether `check` passes on it."""
    from site_builder.authoring.adopt import adopt
    from site_builder.authoring.adopt_report import check_summary, left_out, record_guesses
    from site_builder.authoring.scaffold import ScaffoldError
    from site_builder.config.site import load_config

    try:
        adoption = adopt(repo, folders, ci)
    except ScaffoldError as exc:
        fail(str(exc))
        return USAGE
    for folder in adoption.folders:
        print(f"found {folder.path}: format {folder.format}, project {folder.project} "
              f"({folder.why})")
    for note in adoption.notes:
        print(f"note: {note}")
    config, _ = load_config(repo)
    for skipped in left_out(config) if config is not None else []:
        print(f"skipped {skipped.line()}")
    for path in adoption.written:
        print(f"wrote {path}")
    guesses = adoption.guesses + (record_guesses(config) if config is not None else [])
    for guess in guesses:
        print(f"guessed {guess}")
    errors, verdict = check_summary(repo)
    report(errors)
    print(verdict, file=sys.stderr)
    print(f"Next: site-builder build --root {repo}", file=sys.stderr)
    return OK
