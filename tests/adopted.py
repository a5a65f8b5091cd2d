"""The adopted-archive fixtures (tests/fixtures/adopted/) as real git repositories.

Each fixture recreates the metadata of a public archive's decision folder; its FACTS.json says
what each file states and when the real repository first added it, and under which path. A
repository made here has that history: every file committed at its first-add date under the path
it was first added with, then moved with `git mv` where it has moved since, so dates read from
git come out as they do in the real repository.
"""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

from tests.archive.test_formats_loading import git
from tests.conftest import FIXTURES

ADOPTED = FIXTURES / "adopted"
FACTS = "FACTS.json"


def fixtures() -> list[str]:
    """Return the fixture folder names, sorted."""
    return sorted(p.name for p in ADOPTED.iterdir() if (p / FACTS).is_file())


def facts(name: str) -> dict[str, Any]:
    """Return a fixture's FACTS.json."""
    loaded: dict[str, Any] = json.loads((ADOPTED / name / FACTS).read_text(encoding="utf-8"))
    return loaded


def _commit(repo: Path, paths: list[str], date: str, message: str) -> None:
    git(repo, "add", "--", *paths)
    git(repo, "commit", "-q", "-m", message, date=date)


def make_repository(name: str, tmp: Path) -> Path:
    """Return a git repository holding fixture `name`, each record added at its first-add date.

    Files FACTS.json gives no date (images, config) come in the first commit; a file first
    added under another path is committed there and moved to its path in a last commit.
    """
    source, known = ADOPTED / name, facts(name)
    repo = tmp / str(known["repository"]).split("/")[1]
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    dated = {r["path"]: r for r in known["records"] if r.get("first_added")}
    unclear = _shared_first_paths(known["records"])
    by_date: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in dated.values():
        by_date[record["first_added"]].append(record)
    first = min(by_date, default="2000-01-01T00:00:00+00:00")
    others = [p.relative_to(source).as_posix() for p in sorted(source.rglob("*"))
              if p.is_file() and p.name != FACTS]
    undated = [p for p in others if p not in dated]
    for path in undated:
        _copy(source / path, repo / path)
    if undated:
        _commit(repo, undated, first, "files without a recorded first-add date")
    moved = []
    for when in sorted(by_date):
        added = []
        for record in by_date[when]:
            old = record.get("first_path") or record["path"]
            old = record["path"] if old in unclear else old
            _copy(source / record["path"], repo / old)
            added.append(old)
            if old != record["path"]:
                moved.append(record)
        _commit(repo, added, when, f"add {len(added)} records")
    for record in moved:
        (repo / record["path"]).parent.mkdir(parents=True, exist_ok=True)
        git(repo, "mv", record["first_path"], record["path"])
    if moved:
        git(repo, "commit", "-q", "-m", "move records", date=max(by_date))
    return repo


def _shared_first_paths(records: list[dict[str, Any]]) -> set[str]:
    """Return first paths that cannot be recreated: claimed by two records, or another's path.

    `git log --follow` pairs a file with a similar older one (a record begun as a copy of the
    template), so two records can share a first path; such a record is added at its own path,
    on the same date.
    """
    finals = {r["path"] for r in records}
    seen = [r["first_path"] for r in records if r.get("first_path")]
    return {p for p in seen if seen.count(p) > 1 or p in finals}


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
