"""A checkout's address on the web: its `origin` remote as an https URL, and its branch.

`init --from` writes an "edit this page" link from it, and `import` points links to files
of the source's repository there, so that no file it writes names a path of this machine.
"""

from __future__ import annotations

import re
from pathlib import Path

from site_builder.sources.git import GitError, run_git

# `git@host:owner/repo.git`, `ssh://git@host[:port]/owner/repo.git`, `https://host/owner/repo`.
_SCP = re.compile(r"^[\w.-]+@([\w.-]+):(?!/)(.+?)(?:\.git)?/?$")
_URL = re.compile(r"^(?:ssh|git|https?)://(?:[^@/]+@)?([\w.-]+)(?::\d+)?/(.+?)(?:\.git)?/?$")


def _git(folder: Path, *args: str) -> str | None:
    """git's answer in `folder`, or None when git fails, is missing or takes over 10 s."""
    try:
        return run_git(*args, cwd=folder, timeout=10) or None
    except GitError:
        return None


def https_url(remote: str) -> str | None:
    """The https address of a git remote URL (`git@github.com:acme/tools.git` →
    `https://github.com/acme/tools`); None for a local path or a `file:` URL."""
    match = _SCP.match(remote) or _URL.match(remote)
    if match is None:
        return None
    return f"https://{match.group(1)}/{match.group(2)}"


def top_level(folder: Path) -> Path | None:
    """The top folder of the git checkout holding `folder`, or None outside one."""
    top = _git(folder, "rev-parse", "--show-toplevel")
    return Path(top) if top else None


def origin_url(folder: Path) -> str | None:
    """The https address of the checkout's `origin`, or None (no remote, a local one)."""
    remote = _git(folder, "remote", "get-url", "origin")
    return https_url(remote) if remote else None


def default_branch(folder: Path) -> str:
    """The branch `origin` names as its default, else the branch checked out, else main."""
    remote_head = _git(folder, "symbolic-ref", "--short", "refs/remotes/origin/HEAD")
    if remote_head and "/" in remote_head:
        return remote_head.split("/", 1)[1]
    return _git(folder, "symbolic-ref", "--short", "HEAD") or "main"


def blob_url(folder: Path) -> str | None:
    """Where the files of the checkout holding `folder` are shown on the web
    (`https://github.com/acme/tools/blob/main/`), or None without a web remote."""
    url = origin_url(folder)
    return f"{url}/blob/{default_branch(folder)}/" if url else None
