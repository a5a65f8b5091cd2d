"""The command line: `site-builder COMMAND`, one module per command.

- `init.py`, `import_command.py`, `new.py`: writing archives and records
- `check.py`, `search.py`, `build.py`, `graph.py`, `sources.py`, `mcp.py`, `serve.py`: the rest
- `common.py`   what the commands share: exit codes, finding the archive, reporting, a
                tool's parameters as flags
- `progress.py` the progress line of a long build, for the person waiting

Each command module has `register(sub, common)`, which adds its parser and the function
that runs it; the functions import what they need when they run, so `--help` and `build`
never load the query engine, the MCP client or the live preview. A command line that names
its command imports that command's module alone (`search` registers its flags from the MCP
tool rows, which a build never needs). No other package imports this one.

Exit codes: 0 ok, 1 the archive has errors (or a step failed), 2 a usage error.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from site_builder import __version__
from site_builder.cli.common import fail
from site_builder.errors import ARCHIVE_ERRORS, OK, SiteBuilderError

__all__ = ["build_parser", "main"]

# Each command's name and the module of this package that registers it, in the order
# `--help` lists them (`search` registers `show` too).
COMMANDS: tuple[tuple[str, str], ...] = (
    ("init", "init"), ("import", "import_command"), ("new", "new"), ("check", "check"),
    ("search", "search"), ("show", "search"), ("build", "build"), ("graph", "graph"),
    ("sources", "sources"), ("mcp", "mcp"), ("serve", "serve"),
)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; with `command` (one of COMMANDS' names), of that one
    alone, which parses its command lines exactly as the whole parser does."""
    parser = argparse.ArgumentParser(
        prog="site-builder",
        description="A static-site generator for decision records, and an MCP server over them.")
    parser.add_argument("--version", action="version", version=f"site-builder {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--root", metavar="DIR",
                        help="folder holding site.yml (default: this folder or the nearest above)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    modules = [module for name, module in COMMANDS if command in (None, name)]
    for module in dict.fromkeys(modules):
        importlib.import_module(f"site_builder.cli.{module}").register(sub, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit status. A failure the command did not foresee is one line
    naming where it happened, exit 1, never a traceback."""
    argv = sys.argv[1:] if argv is None else list(argv)
    named = argv[0] if argv and any(argv[0] == name for name, _ in COMMANDS) else None
    args = build_parser(named).parse_args(argv)
    try:
        code: int = args.func(args)
        return code
    except SiteBuilderError as exc:  # every failure a command names: its line, its code
        fail(exc.message)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return OK
    except Exception as exc:
        return _unexpected(exc)


def _unexpected(exc: BaseException) -> int:
    """One line for a bug: what failed and where, and how to see the whole story."""
    import os
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
    filename = getattr(exc, "filename", None)
    about = f" while working on {filename}" if filename else ""
    fail(f"unexpected {type(exc).__name__}{about}: {exc}{where}; please report this "
         "(set SITE_BUILDER_DEBUG=1 for the traceback)")
    if os.environ.get("SITE_BUILDER_DEBUG"):
        traceback.print_exception(exc, file=sys.stderr)
    return ARCHIVE_ERRORS
