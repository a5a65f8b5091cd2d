"""site-builder as the measured tool: its commands, run as fresh processes from this checkout.

Commands run as `python -m site_builder …` with this checkout first on PYTHONPATH, so the bench
measures the code in the working tree whether or not the project is installed. The runner asks
which commands exist, so it measures what has landed and says what it skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def environment() -> dict[str, str]:
    """The environment for site-builder children: this checkout importable, output unbuffered."""
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{path}" if path else str(REPO),
            "PYTHONUNBUFFERED": "1"}


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "site_builder", *args]


@cache
def has(name: str) -> bool:
    """Whether this checkout's CLI offers the sub-command `name` (`build`, `serve`, `mcp`)."""
    done = subprocess.run(command(name, "--help"), env=environment(), capture_output=True,
                          check=False)
    return done.returncode == 0


# Compiles every built-in template into the machine's cache (render/theme.machine_cache),
# and the Pygments lexers of the corpus's languages (render/markdown/lexers), as the first
# build on a machine does.
_COMPILE_TEMPLATES = """
import sys, tempfile
from pathlib import Path
from site_builder.render.pages.theme import Theme, builtin_folder
theme = Theme(Path(tempfile.mkdtemp()))
for path in sorted(builtin_folder("templates").glob("*.html")):
    theme.template(path.name)
try:
    from site_builder.render.markdown.lexers import lexer
except ImportError:  # a checkout from before the lexers were kept
    lexer = None
from bench.make_corpus import CODE_SNIPPETS
for language in sorted(CODE_SNIPPETS) if lexer is not None else ():
    lexer(language)
"""


def prepare() -> str:
    """Compile this checkout's modules to bytecode, as installing a package does (pip
    compiles every module of a wheel), so that no timed build compiles them: with
    PYTHONDONTWRITEBYTECODE set, as on the machines measured here, an editable checkout would
    otherwise compile every module from source on every run (about 0.1 s). Then compile the
    built-in templates and the corpus languages' Pygments lexers into the machine's cache, as
    the first build on a machine does (0.1-0.17 s each, once): a cold build has no output and
    no cache of the archive's own, but the machine's site-builder has built before. Returns
    what it did, for the log."""
    done = subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "site_builder")],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return f"could not compile site_builder to bytecode: {done.stdout[-200:]}"
    done = subprocess.run([sys.executable, "-c", _COMPILE_TEMPLATES], env=environment(),
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return f"could not compile the built-in templates: {done.stderr[-200:]}"
    return ("compiled site_builder to bytecode, as an installed package is, and its built-in "
            "templates and lexers, as a first build on the machine does")


def version() -> str:
    done = subprocess.run(command("--version"), env=environment(), capture_output=True,
                          text=True, check=False)
    return done.stdout.strip() or "site-builder (unknown version)"


def build_command(root: Path) -> list[str]:
    return command("build", "--root", str(root))


# `python -c` with this runs the CLI as on a system without renameat2 (another OS, an old C
# library): builds commit through the journal, file by file (build/adr/0025).
WITHOUT_EXCHANGE = ("import sys; import site_builder.render.output.exchange as e; "
                    "e._CALL = None; from site_builder.cli import main; sys.exit(main())")


def journal_build_command(root: Path) -> list[str]:
    return [sys.executable, "-c", WITHOUT_EXCHANGE, "build", "--root", str(root)]


def output_dir(root: Path) -> Path:
    """Where `build` writes (site.yml's `output`, `_site` in the benchmark corpus)."""
    return root / "_site"


def clean(root: Path) -> None:
    """Remove the output and every cache (`.site-builder/`), so the next build starts cold."""
    for folder in (output_dir(root), root / ".site-builder"):
        shutil.rmtree(folder, ignore_errors=True)


def mcp_local_command(root: Path) -> list[str]:
    return command("mcp", "--root", str(root))


def mcp_remote_command(url: str) -> list[str]:
    return command("mcp", "--url", url)


def serve_command(root: Path, port: int) -> list[str]:
    return command("serve", "--root", str(root), "--port", str(port))
