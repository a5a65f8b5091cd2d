"""site.yml's `content` and `sources` → the content roots the loader reads, in order.

A `path:` source is read in place. A `repo:` source is read from its cached checkout; only a
source the cache does not hold yet is cloned, so a load touches the network at most once
per source and never once the cache is warm (`site-builder sources update` refreshes it).
"""

from __future__ import annotations

import os
from pathlib import Path

from site_builder.archive.origins import ContentRoot, Foreign, Source
from site_builder.base.findings import Finding
from site_builder.config.site import SiteConfig, SourceSpec, without_credentials
from site_builder.sources import checkouts, git

FailedClones = dict[SourceSpec, Finding]


def describe(spec: SourceSpec) -> str:
    """How messages name a source: `source 'name' (repo@ref)` or `source repo@ref`."""
    return f"source '{spec.name}' ({spec.label})" if spec.name else f"source {spec.label}"


def failure_message(spec: SourceSpec, error: git.GitError) -> str:
    """Why `spec` could not be fetched, naming the repo (and the ref when that is the fault)."""
    said = error.message
    if spec.repo:
        said = said.replace(spec.repo, without_credentials(spec.repo))
    repo = without_credentials(spec.repo or "")
    if spec.ref and git.is_missing_ref(error):
        return f"{describe(spec)}: ref '{spec.ref}' does not exist in {repo} (git: {said})"
    return f"cannot fetch {describe(spec)}: git: {said}"


def content_roots(config: SiteConfig, failed: FailedClones | None = None,
                  ) -> tuple[list[ContentRoot], list[Finding]]:
    """The archive's own content folder, then one root per usable source, in site.yml order.

    Returns the roots and the problems with sources, each reported at the source's line of
    site.yml; a source with a problem provides no root. `failed` remembers clones that failed
    in this process, so a long-lived server does not retry the network on every call (a
    restart or `sources update` tries again).
    """
    roots = [ContentRoot(config.content_dir, config.content)]
    if config.sources and not config.content_dir.exists():
        roots = []  # `content` may be absent when sources provide the records
    findings: list[Finding] = []
    for spec in config.sources:
        if spec.repo is not None:
            root, problem = _repo_root(config, spec, failed if failed is not None else {})
        else:
            root, problem = _path_root(config, spec)
        if root is not None:
            roots.append(root)
        if problem is not None:
            findings.append(problem)
    return roots, findings


# Folders that hold the machine, not an archive: a `path:` source there (`/`, `/proc`, `/etc`)
# would read or publish the build machine's own files.
# (Home, /var and /run are left alone: archives and CI checkouts live there.)
SYSTEM_TREES = ("/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/proc", "/sbin",
                "/sys", "/usr")


def _system_tree(folder: Path) -> str | None:
    """The system tree `folder` (resolved) is or lies in, `/` included; None for others."""
    real = os.path.realpath(folder)
    if real == os.sep:
        return os.sep
    return next((tree for tree in SYSTEM_TREES
                 if real == tree or real.startswith(tree + os.sep)), None)


def _path_root(config: SiteConfig, spec: SourceSpec) -> tuple[ContentRoot | None, Finding | None]:
    folder = Path(os.path.normpath(config.root / (spec.path or "")))
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        return None, Finding(config.path, spec.line, "error",
                             f"{describe(spec)}: {folder} {what}")
    tree = _system_tree(folder)
    if tree is not None:
        return None, Finding(config.path, spec.line, "error", (
            f"{describe(spec)}: {folder} is a folder of the machine "
            f"({'the root folder' if tree == os.sep else tree}), not of an archive; "
            "sources must be archive folders"))
    source = Source(location=spec.path or "", edit_url=spec.edit_url)
    return ContentRoot(folder, describe(spec), source, spec.line, foreign_of(spec)), None


def _repo_root(config: SiteConfig, spec: SourceSpec,
               failed: FailedClones) -> tuple[ContentRoot | None, Finding | None]:
    checkout = checkouts.cached(config, spec)
    if checkout is None:
        if spec in failed:
            return None, failed[spec]
        try:
            checkout = checkouts.fetch(config, spec)
        except git.GitError as exc:
            failed[spec] = Finding(config.path, spec.line, "error", failure_message(spec, exc))
            return None, failed[spec]
    folder = checkout.folder / spec.dir if spec.dir else checkout.folder
    if not folder.is_dir():
        return None, Finding(config.path, spec.line, "error", (
            f"{describe(spec)}: the repository has no folder '{spec.dir}' "
            f"at commit {checkout.commit[:12]}"))
    source = Source(location=without_credentials(checkout.repo), ref=spec.ref,
                    commit=checkout.commit, edit_url=spec.edit_url)
    return ContentRoot(folder, describe(spec), source, spec.line, foreign_of(spec)), None


def foreign_of(spec: SourceSpec) -> Foreign | None:
    """How to read a `format` source's folder, or None for a folder laid out like `content`."""
    if spec.format is None or spec.project is None:
        return None
    return Foreign(spec.format, spec.project, spec.type, spec.default_status, spec.status_map,
                   spec.exclude, spec.strict)
