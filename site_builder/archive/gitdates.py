"""When git first added each file of a folder: the date of a record that states none.

One `git log` per folder (not one per file): its adds and renames, oldest first, give each
file the author date of the commit that first added it under any earlier name, which is
what `git log --follow --diff-filter=A` gives file by file.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from pathlib import Path

_TIMEOUT = 60


def first_added(folder: Path) -> dict[str, dt.date]:
    """File name (directly in `folder`) → author date of the commit that first added it,
    renames followed. Empty when git is missing, times out or `folder` is in no repository."""
    env = {**os.environ, "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"}
    try:
        result = subprocess.run(
            ["git", "-c", "core.quotepath=off", "log", "--reverse", "--format=%x00%aI",
             "--name-status", "-M", "--diff-filter=AR", "--relative", "--", "."],
            cwd=folder, capture_output=True, text=True, stdin=subprocess.DEVNULL, env=env,
            timeout=_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if result.returncode != 0:
        return {}
    return _dates(result.stdout)


def _dates(log: str) -> dict[str, dt.date]:
    """Parse `git log --name-status` output (commits marked by a NUL before the date)."""
    added: dict[str, dt.date] = {}
    date: dt.date | None = None
    for line in log.split("\n"):
        if line.startswith("\x00"):
            try:
                date = dt.datetime.fromisoformat(line[1:].strip()).date()
            except ValueError:
                date = None
            continue
        parts = line.split("\t")
        if date is None or len(parts) < 2:
            continue
        if parts[0] == "A":
            added.setdefault(parts[1], date)
        elif parts[0].startswith("R") and len(parts) == 3:
            added.setdefault(parts[2], added.get(parts[1], date))
    return {name: day for name, day in added.items() if "/" not in name}
