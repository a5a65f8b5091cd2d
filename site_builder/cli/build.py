"""`site-builder build`: the command-line front end of `build_site`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from site_builder.cli.common import FAILED, Subcommands, find_root, report
from site_builder.cli.progress import ProgressLine
from site_builder.errors import ARCHIVE_ERRORS, OK, USAGE


def cmd_build(args: argparse.Namespace) -> int:
    # Imported here: the build machinery (Markdown, Jinja2, Pygments) takes a quarter of a
    # second to import, and every other command (the MCP server first) starts without it.
    from site_builder.errors import OutputError
    from site_builder.render.markdown.renderers import RenderRefused
    from site_builder.render.parallel import WorkersFailed
    from site_builder.render.site import BuildRefused, UnsafeOutput, build_site

    root = find_root(args.root)
    progress = ProgressLine(sys.stderr)

    def waiting(message: str) -> None:
        progress.clear()
        print(f"site-builder: {message}", file=sys.stderr, flush=True)

    try:
        try:
            result = build_site(root, output=Path(args.output) if args.output else None,
                                jobs=args.jobs, progress=progress, force=args.force,
                                waiting=waiting)
        finally:
            progress.clear()  # before any line below, whichever way the build ended
    except BuildRefused as refused:
        report(refused.findings)
        print(f"site-builder: {refused}", file=sys.stderr)
        return ARCHIVE_ERRORS
    except RenderRefused as refused:  # `path:line: error: why`, from a renderer's time limit
        print(refused, file=sys.stderr)
        print("site-builder: the build stopped; nothing was changed", file=sys.stderr)
        return ARCHIVE_ERRORS
    except UnsafeOutput as exc:
        print(f"site-builder: {exc}", file=sys.stderr)
        return USAGE if args.output else ARCHIVE_ERRORS
    except (OutputError, WorkersFailed) as exc:
        print(f"site-builder: {exc}", file=sys.stderr)
        return FAILED
    except OSError as exc:  # the cache or lock under .site-builder/, say: still one line
        where = exc.filename if exc.filename is not None else root
        print(f"site-builder: cannot write {where}: {exc.strerror or exc}", file=sys.stderr)
        return FAILED
    report(result.warnings)
    print(result.summary(), file=sys.stderr)
    if args.verbose:
        for line in (*result.method, *result.left_out()):
            print(line, file=sys.stderr)
    return OK


def _jobs(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def register(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Add `build` to the command-line parser."""
    p = sub.add_parser("build", help="build the site into the output folder", parents=[common])
    p.add_argument("--output", metavar="DIR",
                   help="folder to build into (default: site.yml's output, e.g. _site)")
    p.add_argument("--jobs", type=_jobs, metavar="N",
                   help="worker processes for rendering (default: one per CPU)")
    p.add_argument("--force", action="store_true",
                   help="build even when nothing changed since the last build")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also say how the build was made (incremental or whole, how it was "
                   "committed) and list every file of the records folders left out, and why")
    p.set_defaults(func=cmd_build)
