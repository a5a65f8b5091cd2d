"""The cache of `repo:` sources: one shallow checkout per source under `.site-builder/sources/`.

A checkout is a git work tree whose `.git` folder also holds `site-builder-source.json`
(repo, ref and the commit checked out). Reading it is how a load knows, without the
network, that the cache holds what site.yml asks for. Deleting the cache is always safe:
the next load clones again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from site_builder.config.site import SiteConfig, SourceSpec
from site_builder.sources import git

SOURCES_FOLDER = "sources"
STATE_FILE = "site-builder-source.json"


@dataclass(frozen=True, slots=True)
class Checkout:
    """A cached clone of a source: its work tree, and the repo, ref and commit it holds."""

    folder: Path
    repo: str
    ref: str | None
    commit: str


def checkout_folder(config: SiteConfig, spec: SourceSpec) -> Path:
    """Where the checkout of `spec` lives: `.site-builder/sources/<name>`.

    Without a `name`, the folder is named after the repository plus a hash of repo and ref,
    so two sources never share a folder unless they ask for the same commit.
    """
    assert spec.repo is not None, "only repo: sources are cloned"
    if spec.name:
        key = spec.name
    else:
        stem = re.sub(r"\.git$", "", spec.repo.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1])
        stem = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip(".-") or "repo"
        digest = hashlib.sha1(f"{spec.repo}\n{spec.ref or ''}".encode()).hexdigest()[:10]
        key = f"{stem}-{digest}"
    return config.cache_dir / SOURCES_FOLDER / key


def cached(config: SiteConfig, spec: SourceSpec) -> Checkout | None:
    """The checkout of `spec` when the cache holds its repo and ref, else None.

    Never touches the network: it reads one small file.
    """
    folder = checkout_folder(config, spec)
    try:
        state = json.loads((folder / ".git" / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(state, dict) or not isinstance(state.get("commit"), str):
        return None
    if spec.repo is None or state.get("repo") != spec.repo or state.get("ref") != spec.ref:
        return None  # site.yml now asks for another repo or ref: not cached
    return Checkout(folder, spec.repo, spec.ref, state["commit"])


def remote_address(config: SiteConfig, repo: str) -> str:
    """The address git fetches from: a relative local path is taken from the archive root."""
    is_url = "://" in repo or ":" in repo.split("/", 1)[0]  # scheme or scp-like host:path
    if is_url or Path(repo).is_absolute():
        return repo
    return str((config.root / repo).resolve())


def fetch(config: SiteConfig, spec: SourceSpec) -> Checkout:
    """Fetch `spec`'s ref into its checkout (cloning on first use) and return the checkout.

    Raises git.GitError with git's message; the cache then holds exactly what it held
    before (a first clone is built in a temporary folder and renamed into place).
    """
    folder = checkout_folder(config, spec)
    address = remote_address(config, spec.repo or "")
    if (folder / ".git").is_dir():
        commit = git.fetch_commit(address, spec.ref, folder)
        _write_state(folder, spec, commit)
        return Checkout(folder, spec.repo or "", spec.ref, commit)
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        git.init(work)
        commit = git.fetch_commit(address, spec.ref, work)
        _write_state(work, spec, commit)
        if folder.exists():  # a leftover that is no checkout: the cache may always be rebuilt
            shutil.rmtree(folder)
        try:
            os.rename(work, folder)
        except OSError:
            # Another process (serve and mcp side by side) cloned it first: use theirs.
            theirs = cached(config, spec)
            if theirs is None:
                raise
            return theirs
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Checkout(folder, spec.repo or "", spec.ref, commit)


def _write_state(work_tree: Path, spec: SourceSpec, commit: str) -> None:
    state = {"repo": spec.repo, "ref": spec.ref, "commit": commit}
    target = work_tree / ".git" / STATE_FILE
    partial = target.with_suffix(".tmp")
    partial.write_text(json.dumps(state, indent=2) + "\n", encoding="utf-8")
    os.replace(partial, target)
