"""What git knows about a records folder: when each file was first added, the repository's
remote, and whether the checkout is shallow (so that those dates are wrong).

One `git log` per folder (not one per file): its adds and renames, oldest first, give each
file the author date of the commit that first added it under any earlier name. A file moved
in from another folder shows there as added by the move, so those files alone (found with one
`git show` of the commits that added them) are followed back with `git log --follow`, and
keep the date they were first written.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from pathlib import Path

_TIMEOUT = 60
_ENV = {"LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"}


def _git(folder: Path, *args: str) -> str | None:
    """The output of `git args` run in `folder`, or None when git is missing, times out,
    fails, or `folder` is in no repository."""
    try:
        result = subprocess.run(
            ["git", "-c", "core.quotepath=off", *args], cwd=folder, capture_output=True,
            text=True, stdin=subprocess.DEVNULL, env={**os.environ, **_ENV},
            timeout=_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout if result.returncode == 0 else None


def first_added(folder: Path) -> dict[str, dt.date]:
    """File name (directly in `folder`) → author date of the commit that first added it,
    renames followed, across folders too. Empty when git cannot tell."""
    log = _git(folder, "log", "--reverse", "--format=%x00%H %aI", "--name-status", "-M",
               "--diff-filter=AR", "--relative", "--", ".")
    if log is None:
        return {}
    added = _adds(log)
    found = {name: day for name, (day, _) in added.items() if "/" not in name}
    for name in _moved_in(folder, sorted({c for n, (_, c) in added.items() if n in found})):
        if name in found:
            found[name] = _followed(folder, name) or found[name]
    return found


def _adds(log: str) -> dict[str, tuple[dt.date, str]]:
    """Parse `git log --name-status` output (each commit a NUL, its hash and date): each
    path → (the date its content was first added under this folder, that commit)."""
    added: dict[str, tuple[dt.date, str]] = {}
    commit: tuple[dt.date, str] | None = None
    for line in log.split("\n"):
        if line.startswith("\x00"):
            sha, _, when = line[1:].strip().partition(" ")
            try:
                commit = (dt.datetime.fromisoformat(when).date(), sha)
            except ValueError:
                commit = None
            continue
        parts = line.split("\t")
        if commit is None or len(parts) < 2:
            continue
        if parts[0] == "A":
            added.setdefault(parts[1], commit)
        elif parts[0].startswith("R") and len(parts) == 3:
            added.setdefault(parts[2], added.get(parts[1], commit))
    return added


def _moved_in(folder: Path, commits: list[str]) -> set[str]:
    """The names of files that `commits` (which added them here) moved in from another
    folder: one `git show` for all of them."""
    if not commits:
        return set()
    prefix = (_git(folder, "rev-parse", "--show-prefix") or "").strip()
    shown = _git(folder, "show", "-M", "--name-status", "--diff-filter=R", "--format=",
                 *commits) or ""
    moved = set()
    for line in shown.split("\n"):
        parts = line.split("\t")
        if len(parts) == 3 and parts[0].startswith("R") and parts[2].startswith(prefix):
            name = parts[2][len(prefix):]
            if "/" not in name and not parts[1].startswith(prefix):
                moved.add(name)
    return moved


def _followed(folder: Path, name: str) -> dt.date | None:
    """The date `name` was first added under any earlier path (`git log --follow`)."""
    log = _git(folder, "log", "--follow", "--diff-filter=A", "--format=%aI", "--", name)
    dates = (log or "").split()
    try:
        return dt.datetime.fromisoformat(dates[-1]).date() if dates else None
    except ValueError:
        return None


def is_shallow(folder: Path) -> bool:
    """True when `folder` is in a shallow clone (`fetch-depth: 1`), whose history is cut."""
    return (_git(folder, "rev-parse", "--is-shallow-repository") or "").strip() == "true"


def remote_url(folder: Path) -> str | None:
    """The URL of the `origin` remote of the repository `folder` is in, or None."""
    found = _git(folder, "config", "--get", "remote.origin.url")
    return found.strip() or None if found is not None else None
