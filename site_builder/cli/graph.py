"""`site-builder graph`: the lineage picture the site draws, printed for a terminal or a file.

`--format svg` (the default) prints a standalone SVG (its own colours, light and dark, taken
from the theme's stylesheet); `--format dot` prints Graphviz DOT with the same nodes, edges and
chains. Node links are absolute with `url` in site.yml, else relative to the site root.
Exit 0 (also when there is nothing to draw, said on stderr), 2 for an unknown project or record.
"""

from __future__ import annotations

import argparse
import sys

from site_builder.cli.common import Subcommands
from site_builder.errors import ARCHIVE_ERRORS, OK, UsageError


def register(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Add `graph` to the command-line parser."""
    p = sub.add_parser("graph", parents=[common],
                       help="print the supersede lineage as SVG or Graphviz DOT")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--project", metavar="P", help="one project's chains (default: all)")
    which.add_argument("--record", metavar="ID", help="one record's chain, the record marked")
    p.add_argument("--format", choices=("svg", "dot"), default="svg")
    p.set_defaults(func=cmd_graph)


def cmd_graph(args: argparse.Namespace) -> int:
    """Print the picture asked for; returns the exit code."""
    # Imported here, as `build` does: other commands start without the build machinery.
    from site_builder.archive.archive import LookupFailed
    from site_builder.cli import common as cli
    from site_builder.render.pages.theme import Theme
    from site_builder.render.pages.urls import Urls
    from site_builder.render.pictures.lineage import Lineage
    from site_builder.render.pictures.lineage_svg import dot, svg

    root = cli.find_root(args.root)
    archive = cli.load_for_queries(root)
    lineage = Lineage(archive)
    if args.record is not None:
        try:
            record = archive.get(args.record)
        except LookupFailed as exc:
            raise UsageError(str(exc)) from None
        picture, what = lineage.around(record), f"{record.ref} is in no supersede chain"
    elif args.project is not None:
        if args.project not in archive.projects:
            known = ", ".join(archive.projects) or "none"
            raise UsageError(f"no project {args.project!r} (projects: {known})")
        picture = lineage.project(args.project)
        what = f"no record of project {args.project!r} supersedes another or is superseded"
    else:
        picture, what = lineage.everything(), "no record supersedes another"
    if picture is None:
        print(f"site-builder: {what}; nothing to draw", file=sys.stderr)
        return OK
    urls = Urls(archive.config)

    def link(page: str) -> str:
        return urls.absolute(page) or Urls.relative(Urls.HOME_PAGE, page)

    if args.format == "dot":
        sys.stdout.write(dot(picture, link))
    else:
        stylesheet = Theme(root).theme_file("site.css").decode("utf-8")
        try:
            sys.stdout.write(svg(picture, link, standalone=True, stylesheet=stylesheet))
        except ValueError as exc:  # an archive's own site.css without the lineage section
            cli.fail(str(exc))
            return ARCHIVE_ERRORS
    return OK
