"""Where the running site-builder was installed from, as a `pip install` line for CI.

A scaffolded workflow must install the same site-builder the team is running, or its first CI
run fails (site-builder is not on PyPI). pip records the origin of every install made from a
URL or a folder in the distribution's `direct_url.json` (PEP 610); an install from an index
has none, and then the version pins it. The line never names a path of the machine that ran
`init`: a copy installed from a local checkout is pinned to the first remote on the web that
the checkout's `origin` chain leads to, else to the project's own repository.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import site_builder
from site_builder.sources.browse import https_url

DISTRIBUTION = "site-builder"
# Where site-builder itself is published: the last resort of a copy installed from a folder.
HOME = "https://github.com/site-builder/site-builder"
# How many local remotes (a clone of a clone) are followed looking for one on the web.
_HOPS = 5


@dataclass(frozen=True, slots=True)
class Install:
    """A pip requirement (`requirement`), comment lines telling how to change it, and the
    version of the distribution it was made from (empty: unknown)."""

    requirement: str
    comment: tuple[str, ...]
    version: str = ""

    def pip_line(self) -> str:
        """The shell command that installs it."""
        return f'pip install "{self.requirement}"'


def running_install() -> Install:
    """The install line for the copy of site-builder running now."""
    try:
        dist = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:  # run from a bare source tree
        return install_for(None, "0", Path(site_builder.__file__).resolve().parent.parent)
    text = dist.read_text("direct_url.json")
    try:
        origin = json.loads(text) if text else None
    except ValueError:
        origin = None
    return install_for(origin, dist.version, None)


def install_for(origin: dict[str, Any] | None, version: str,
                source_tree: Path | None) -> Install:
    """The install line for a distribution of `version` whose PEP 610 record is `origin`
    (None: installed from an index, or not installed at all when `source_tree` is given)."""
    return replace(_pin(origin, version, source_tree), version=version)


def _pin(origin: dict[str, Any] | None, version: str, source_tree: Path | None) -> Install:
    """`install_for` without the version recorded."""
    if origin is None and source_tree is None:
        return Install(f"{DISTRIBUTION}=={version}", (
            f"site-builder {version}, the version this workflow was made with; "
            "change the version to upgrade.",))
    url = origin.get("url", "") if origin else source_tree.as_uri()  # type: ignore[union-attr]
    vcs = (origin or {}).get("vcs_info")
    subdirectory = (origin or {}).get("subdirectory")
    if vcs and vcs.get("vcs") == "git" and vcs.get("commit_id") and not _is_local(url):
        return Install(_git_requirement(url, vcs["commit_id"], subdirectory), (
            "site-builder, pinned to the commit this workflow was made with; to upgrade,",
            "put a newer commit or a tag after the '@'.",))
    if url.startswith(("file:", "git+file:")) or _is_local(url):
        commit = vcs.get("commit_id") if vcs else None
        return _from_folder(_local_folder(url), subdirectory, commit)
    return Install(f"{DISTRIBUTION} @ {url}", (
        "site-builder from the archive it was installed from; change the URL to upgrade.",))


def _local_folder(url: str) -> Path:
    """The folder a local pip URL (`file:///x`, `git+file:///x`, `/x`) names."""
    url = url.removeprefix("git+")
    return Path(unquote(urlparse(url).path)) if url.startswith("file:") else Path(url)


def _from_folder(folder: Path, subdirectory: str | None, commit: str | None = None
                 ) -> Install:
    """A copy installed from a local folder, which CI cannot reach: the first remote on the
    web its `origin` chain leads to, at `commit` (default: the one checked out there); else
    the project's own repository, with a comment saying to check it."""
    commit = commit or _git(folder, "rev-parse", "HEAD")
    remote = _web_remote(folder)
    if remote and commit:
        return Install(_git_requirement(remote, commit, subdirectory), (
            "site-builder was installed from a checkout on the machine that ran init; this",
            "is the repository its 'origin' leads to, at the commit checked out there (push",
            "it first). To upgrade, put a newer commit or a tag after the '@'.",))
    pinned = f"@{commit}" if commit else ""
    return Install(f"{DISTRIBUTION} @ git+{HOME}.git{pinned}", (
        "site-builder was installed from a folder on the machine that ran init, which CI",
        "cannot reach, and no remote of it is on the web: this is the project's own",
        "repository; replace it with the one you install from if yours differs.",))


def _web_remote(folder: Path) -> str | None:
    """The `origin` URL of `folder`, following local origins (a clone of a clone) until one
    is on the web; None when the chain ends locally."""
    for _ in range(_HOPS):
        remote = _git(folder, "remote", "get-url", "origin")
        if remote is None:
            return None
        if not _is_local(remote):
            # CI clones over https: an ssh remote (`git@host:owner/repo`) needs a key there.
            web = None if remote.startswith(("http://", "https://")) else https_url(remote)
            return f"{web}.git" if web else remote
        nxt = _local_folder(remote)
        folder = nxt if nxt.is_absolute() else folder / nxt
    return None


def _git_requirement(url: str, commit: str, subdirectory: str | None) -> str:
    url = url if url.startswith("git+") else f"git+{url}"
    tail = f"#subdirectory={subdirectory}" if subdirectory else ""
    return f"{DISTRIBUTION} @ {url}@{commit}{tail}"


def _is_local(remote: str) -> bool:
    """True for a remote or pip URL naming a path of this machine."""
    return remote.startswith(("/", ".", "~", "file:", "git+file:")) or ":" not in remote


def _git(folder: Path, *args: str) -> str | None:
    """The output of `git -C folder args…`, or None when git or the checkout is missing."""
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True,
                              text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None
