"""MkDocs as a competitor: install it, turn the archive into a minimal MkDocs site, build it.

The site is what a new MkDocs user would write: `docs/` with the record files unchanged (MkDocs
reads their YAML front matter itself), an index page per project, and a `mkdocs.yml` with the
default theme and no `nav`, so MkDocs builds the navigation from the folders.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import yaml

from bench.corpus import Corpus


def _page(title: str, description: str) -> str:
    return f"# {title}\n\n{description}\n"


def write_site(corpus: Corpus, target: Path) -> Path:
    """Write a MkDocs project for `corpus` at `target` (replacing it) and return `target`."""
    if target.exists():
        shutil.rmtree(target)
    docs = target / "docs"
    docs.mkdir(parents=True)
    title = corpus.site_title()
    (docs / "index.md").write_text(_page(title, "Every decision record, by project."),
                                   encoding="utf-8")
    for project, meta in corpus.projects():
        shutil.copytree(corpus.content / project, docs / project,
                        ignore=shutil.ignore_patterns("_project.yml"))
        (docs / project / "index.md").write_text(
            _page(str(meta.get("name", project)), str(meta.get("description", ""))),
            encoding="utf-8")
    config = {"site_name": title, "theme": {"name": "mkdocs"}, "docs_dir": "docs"}
    (target / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False),
                                       encoding="utf-8")
    return target


def build_command(python: str, site: Path, output: Path) -> list[str]:
    """The command that builds `site` into `output` (`mkdocs build --quiet`)."""
    return [python, "-m", "mkdocs", "build", "--quiet", "--clean",
            "--config-file", str(site / "mkdocs.yml"), "--site-dir", str(output)]


def ensure_installed(python: str) -> tuple[bool, str]:
    """Whether MkDocs is importable by `python`, installing it with pip when it is missing.

    Returns (True, "") or (False, why it is unavailable).
    """
    if _importable(python):
        return True, ""
    print("bench: installing MkDocs into this virtual environment with pip", flush=True)
    done = subprocess.run([python, "-m", "pip", "install", "--quiet", "mkdocs>=1.6,<2"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0 or not _importable(python):
        return False, f"pip could not install mkdocs: {done.stderr.strip()[-300:]}"
    return True, ""


def _importable(python: str) -> bool:
    done = subprocess.run([python, "-c", "import mkdocs"], capture_output=True, check=False)
    return done.returncode == 0


def version(python: str) -> str:
    """`mkdocs --version`'s first words, e.g. `mkdocs, version 1.6.1`."""
    done = subprocess.run([python, "-m", "mkdocs", "--version"], capture_output=True, text=True,
                          check=False)
    text = done.stdout.split(" from ")[0].strip().removeprefix("python -m ")
    return text or "mkdocs (unknown version)"
