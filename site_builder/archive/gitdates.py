"""What git knows about a records folder: when each file was first added, the repository's
remote, and whether the checkout is shallow (so that those dates are wrong).

One `git log` over the folder (not one per file): its adds and renames, oldest first, give
each file the author date of the commit that first added it under any earlier name there. A
file moved in from another folder shows there as added by the move; the moves are read from
one `git show` of the commits that added such files (git's own pairing of the whole commit:
exact contents first, then the same file name, then the most similar), and each source is
traced back the same way, one `git log` per moving commit, from before that commit.

`git log --follow` is not used: it follows one path at a time and takes a file added beside
a similar one (a record begun as a copy of another, or of the template) for a copy of it, so
records with near-identical bodies get each other's dates. Where pairing similar files
needs a blob git cannot read (a snapshot or partial clone lacking it), renames are paired
by exact contents only, rather than giving no dates at all.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

_TIMEOUT = 60
_ENV = {"LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"}
_LOG = ("log", "--reverse", "--format=%x00%H %aI", "--name-status", "--diff-filter=AR")
_SHOW = ("show", "--name-status", "--diff-filter=R", "--format=%x00%H")
# Moves followed back per file: a folder renamed more often than this is cut short there.
_MOST_MOVES = 8


@dataclass(frozen=True, slots=True)
class Added:
    """Where a file's content was first added: the day, the commit, and the path then
    (from the repository's top)."""

    day: dt.date
    commit: str
    path: str


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


def _paired(folder: Path, *args: str) -> str | None:
    """`git args` with renames paired (`-M`); where git cannot read a blob that pairing
    similar files needs (a snapshot or partial clone lacking it), with exact renames only,
    which compare no contents."""
    found = _git(folder, *args[:1], "-M", *args[1:])
    return found if found is not None else _git(folder, *args[:1], "-M100%", *args[1:])


def first_added(folder: Path) -> dict[str, dt.date]:
    """File name (directly in `folder`) → author date of the commit that first added it,
    renames followed, across folders too. Empty when git cannot tell."""
    prefix = _git(folder, "rev-parse", "--show-prefix")
    log = _paired(folder, *_LOG, "--", ".") if prefix is not None else None
    if prefix is None or log is None:
        return {}
    prefix = prefix.strip()
    here = {path[len(prefix):]: added for path, added in adds(log).items()
            if path.startswith(prefix) and "/" not in path[len(prefix):]}
    return {name: added.day for name, added in _traced(folder, here).items()}


def adds(log: str) -> dict[str, Added]:
    """Parse `git log --name-status` output (each commit a NUL, its hash and date): each
    path → where its content was first added among the paths logged (renames chained)."""
    added: dict[str, Added] = {}
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
            added.setdefault(parts[1], Added(*commit, parts[1]))
        elif parts[0].startswith("R") and len(parts) == 3:
            added.setdefault(parts[2], added.get(parts[1]) or Added(*commit, parts[1]))
    return added


def moves(log: str) -> dict[tuple[str, str], str]:
    """Parse `git show --name-status --diff-filter=R` output of several commits (each a NUL
    and its hash): (commit, new path) → the path it was moved from."""
    found: dict[tuple[str, str], str] = {}
    commit = ""
    for line in log.split("\n"):
        if line.startswith("\x00"):
            commit = line[1:].strip()
            continue
        parts = line.split("\t")
        if commit and len(parts) == 3 and parts[0].startswith("R"):
            found[(commit, parts[2])] = parts[1]
    return found


def _moves_of(folder: Path, commits: list[str]) -> dict[tuple[str, str], str]:
    """The moves `commits` made, from one `git show`; commit by commit when that fails
    (where a blob that one commit's pairing needs is missing, that commit alone is paired
    by exact contents)."""
    shown = _git(folder, *_SHOW, "-M", *commits) if commits else ""
    if shown is None:
        shown = "\n".join(_paired(folder, *_SHOW, commit) or "" for commit in commits)
    return moves(shown or "")


def _traced(folder: Path, files: dict[str, Added]) -> dict[str, Added]:
    """`files` with every add that was a move from outside the paths logged replaced by
    where the moved content was first added (moves of moves followed too)."""
    traced, pending = dict(files), dict(files)
    for _ in range(_MOST_MOVES):
        commits = sorted({added.commit for added in pending.values()})
        moved = _moves_of(folder, commits)
        sources: dict[str, dict[str, list[str]]] = {}
        for name, added in pending.items():
            source = moved.get((added.commit, added.path))
            if source is not None:
                sources.setdefault(added.commit, {}).setdefault(source, []).append(name)
        pending = {}
        for commit, names in sorted(sources.items()):
            log = _paired(folder, *_LOG, f"{commit}^", "--",
                       *(f":(top,literal){path}" for path in sorted(names)))
            earlier = adds(log or "")
            for source, moved_names in names.items():
                if source in earlier:
                    for name in moved_names:
                        traced[name] = pending[name] = earlier[source]
        if not pending:
            break
    return traced


def is_shallow(folder: Path) -> bool:
    """True when `folder` is in a shallow clone (`fetch-depth: 1`), whose history is cut."""
    return (_git(folder, "rev-parse", "--is-shallow-repository") or "").strip() == "true"


def remote_url(folder: Path) -> str | None:
    """The URL of the `origin` remote of the repository `folder` is in, or None."""
    found = _git(folder, "config", "--get", "remote.origin.url")
    return found.strip() or None if found is not None else None
