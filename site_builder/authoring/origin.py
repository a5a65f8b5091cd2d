"""Where the running site-builder was installed from, as a `pip install` line for CI.

A scaffolded workflow must install the same site-builder the team is running, or its first CI
run fails (site-builder is not on PyPI). pip records the origin of every install made from a
URL or a folder in the distribution's `direct_url.json` (PEP 610); an install from an index
has none, and then the version pins it.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import site_builder

DISTRIBUTION = "site-builder"


@dataclass(frozen=True, slots=True)
class Install:
    """A pip requirement (`requirement`) and comment lines telling how to change it."""

    requirement: str
    comment: tuple[str, ...]

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
    if origin is None and source_tree is None:
        return Install(f"{DISTRIBUTION}=={version}", (
            f"site-builder {version}, the version this workflow was made with; "
            "change the version to upgrade.",))
    url = origin.get("url", "") if origin else source_tree.as_uri()  # type: ignore[union-attr]
    vcs = (origin or {}).get("vcs_info")
    subdirectory = (origin or {}).get("subdirectory")
    if vcs and vcs.get("vcs") == "git" and vcs.get("commit_id"):
        return Install(_git_requirement(url, vcs["commit_id"], subdirectory), (
            "site-builder, pinned to the commit this workflow was made with; to upgrade,",
            "put a newer commit or a tag after the '@'.",))
    if url.startswith("file:"):
        return _from_folder(Path(unquote(urlparse(url).path)), subdirectory)
    return Install(f"{DISTRIBUTION} @ {url}", (
        "site-builder from the archive it was installed from; change the URL to upgrade.",))


def _from_folder(folder: Path, subdirectory: str | None) -> Install:
    """A copy installed from a local folder, which CI cannot reach: the folder's git remote
    and commit when it is a checkout with one, else the folder itself with a warning."""
    remote, commit = _git(folder, "remote", "get-url", "origin"), _git(folder, "rev-parse",
                                                                          "HEAD")
    if remote and commit and not _is_local(remote):
        return Install(_git_requirement(remote, commit, subdirectory), (
            f"site-builder was installed from the checkout {folder}; this is its 'origin'",
            "remote at the commit checked out there (push it first). To upgrade, put a",
            "newer commit or a tag after the '@'.",))
    return Install(f"{DISTRIBUTION} @ {folder.as_uri()}", (
        f"site-builder was installed from the local folder {folder}, which CI cannot",
        "reach: replace it with the repository you install from, e.g.",
        '"site-builder @ git+https://github.com/OWNER/site-builder.git@COMMIT".',))


def _git_requirement(url: str, commit: str, subdirectory: str | None) -> str:
    url = url if url.startswith("git+") else f"git+{url}"
    tail = f"#subdirectory={subdirectory}" if subdirectory else ""
    return f"{DISTRIBUTION} @ {url}@{commit}{tail}"


def _is_local(remote: str) -> bool:
    return remote.startswith(("/", ".", "file:"))


def _git(folder: Path, *args: str) -> str | None:
    """The output of `git -C folder args…`, or None when git or the checkout is missing."""
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True,
                              text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None
