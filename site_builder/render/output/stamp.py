"""The up-to-date check: skip a build when neither its inputs nor its output changed.

After each successful build, `<root>/.site-builder/cache/build.json` records a fingerprint of
every input (site.yml, every file under the content folder, templates, theme, the
site-builder code, versions and `SOURCE_DATE_EPOCH`) and of the output folder as written,
each as (path, size, mtime_ns) — the same trade-off as the loader cache (build/adr/0010). The
next build compares both; if nothing moved, the output is already what it would write.
Sources count as inputs: a `path:` source's folder, and a `repo:` source's cached checkout
with its commit (which only `sources update` moves). A `repo:` source not cloned yet makes
the inputs unknown, so that build runs and clones it. With citations on, the repository's
tracked files count too, by blob id (`codescan.state_of`): code citing a record is an input.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import site_builder
from site_builder.archive.codescan import state_of
from site_builder.base.installed import installed_versions, normal_name
from site_builder.config.site import SiteConfig
from site_builder.render.markdown.bodies import RENDERER_PACKAGES
from site_builder.render.output import tree
from site_builder.render.pages.theme import builtin_folder
from site_builder.sources import checkouts

STAMP_FILE = "build.json"
NOT_INPUTS = frozenset(("__pycache__", ".git", ".site-builder"))
# Besides what shapes a body: the templates' engine and the YAML parser.
_PACKAGES = (*RENDERER_PACKAGES, "jinja2", "pyyaml")


@dataclass(frozen=True, slots=True)
class Stamp:
    """What the last successful build read and wrote, and what it reported."""

    inputs: str
    output: str
    report: dict[str, Any]


def _walk(digest: Any, folder: Path) -> None:
    if not folder.is_dir():
        digest.update(f"missing:{folder}\0".encode())
        return
    # Bytecode caches are written while a build runs, .git changes on every fetch, and
    # .site-builder (inside the content folder when that is the root) is the build's own.
    for here in tree.walk(str(folder), skip=NOT_INPUTS):
        digest.update(tree.listing(here.rel, here.files).encode("utf-8", "surrogateescape"))


def input_fingerprint(config: SiteConfig, output: Path) -> str | None:
    """A digest of everything a build of `config` into `output` reads; None when the inputs
    are not all on disk yet (a `repo:` source still to be cloned)."""
    digest = hashlib.sha256()
    installed = installed_versions()
    versions = [f"{name}={installed.get(normal_name(name), '?')}" for name in _PACKAGES]
    digest.update("\0".join([site_builder.__version__, sys.version, *versions,
                             os.environ.get("SOURCE_DATE_EPOCH", ""), str(output)]).encode())
    stat = config.path.stat()
    digest.update(f"site.yml\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    digest.update(f"citations\0{state_of(config)}\0".encode())
    for folder in (config.content_dir, config.static_dir, config.root / "templates",
                   config.root / "theme",
                   builtin_folder("templates"), builtin_folder("theme"),
                   Path(site_builder.__file__).resolve().parent):
        _walk(digest, folder)
    for spec in config.sources:
        if spec.repo is None:
            _walk(digest, Path(os.path.normpath(config.root / (spec.path or ""))))
            continue
        checkout = checkouts.cached(config, spec)
        if checkout is None:
            return None
        digest.update(f"{spec.repo}\0{spec.ref}\0{checkout.commit}\0".encode())
        _walk(digest, checkout.folder / spec.dir if spec.dir else checkout.folder)
    return digest.hexdigest()


def output_fingerprint(output: Path) -> str:
    """A digest of the output folder's files as they are now."""
    digest = hashlib.sha256()
    _walk(digest, output)
    return digest.hexdigest()


def fingerprint_of(listings: dict[str, str]) -> str:
    """`output_fingerprint` of a folder whose every folder's `tree.listing` a walk of it
    already took (the spare's prune, just before it became the output)."""
    digest = hashlib.sha256()
    walked = {rel: text for rel, text in listings.items()
              if NOT_INPUTS.isdisjoint(rel.split("/"))}
    for text in tree.in_walk_order(walked):
        digest.update(text.encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def read_stamp(cache_dir: Path) -> Stamp | None:
    """The stamp of the last successful build, or None."""
    try:
        data = json.loads((cache_dir / STAMP_FILE).read_text(encoding="utf-8"))
        return Stamp(data["inputs"], data["output"], data["report"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_stamp(cache_dir: Path, stamp: Stamp) -> None:
    """Record a successful build (atomically: a concurrent build may be reading it)."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    temporary = cache_dir / f"{STAMP_FILE}.{os.getpid()}.tmp"
    temporary.write_text(json.dumps({"inputs": stamp.inputs, "output": stamp.output,
                                     "report": stamp.report}), encoding="utf-8")
    os.replace(temporary, cache_dir / STAMP_FILE)


def forget_stamp(cache_dir: Path) -> None:
    """Drop the stamp before the output changes, so a crash mid-commit is never trusted."""
    (cache_dir / STAMP_FILE).unlink(missing_ok=True)
