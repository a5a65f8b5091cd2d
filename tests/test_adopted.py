"""Real public archives, adopted as a user would: `init --from` then `build`, nothing edited.

Each fixture of tests/fixtures/adopted/ is made into a git repository with its real history
(tests/adopted.py); the built decisions.json must hold every record file as one record with the
title, status, note, successor and date its FACTS.json says the file states, and nothing for
templates, pages that are not records, or drafts. No file of the repository may change.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bench.adoption import record_key
from tests.adopted import facts, fixtures, make_repository
from tests.conftest import run_cli


def hashes(repo: Path, paths: list[str]) -> dict[str, str]:
    """Return the SHA-256 of each of `paths` in `repo`."""
    return {p: hashlib.sha256((repo / p).read_bytes()).hexdigest() for p in paths}


def words(text: str | None) -> str:
    """A status note as compared: lower case, no Markdown emphasis, no enclosing punctuation."""
    return re.sub(r"\s+", " ", re.sub(r"[*_`]", "", text or "")).strip(" ()[].,;:-—–").lower()


def stem(reference: dict[str, Any] | None) -> str | None:
    """Return the file stem a record reference points at, or None for no reference."""
    return str(reference["id"]).rsplit("/", 1)[-1] if reference else None


def mismatches(record: dict[str, Any], fact: dict[str, Any]) -> list[str]:
    """Return how one built record differs from what its file states."""
    found = []
    for key, want in (("title", fact["title"]), ("status", fact["status"]),
                      ("date", fact["date"])):
        if record.get(key) != want:
            found.append(f"{key} {record.get(key)!r}, the file says {want!r}")
    if fact["note"] and words(record.get("statusNote")) != words(fact["note"]):
        found.append(f"statusNote {record.get('statusNote')!r}, the file says {fact['note']!r}")
    if "superseded_by_outside" not in fact and stem(record["supersededBy"]) != fact[
            "superseded_by"]:
        found.append(f"supersededBy {stem(record['supersededBy'])!r}, "
                     f"the file says {fact['superseded_by']!r}")
    return found


# Known gaps, kept visible: strict, so the mark fails as soon as the archive adopts whole.
OPEN: dict[str, str] = {}


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(reason=OPEN[name], strict=True))
    if name in OPEN else name for name in fixtures()])
def test_a_public_archive_adopts_with_every_record_as_its_file_states(
        name: str, tmp_path: Path) -> None:
    known = facts(name)
    repo = make_repository(name, tmp_path)
    paths = [r["path"] for r in known["records"]]
    before = hashes(repo, paths)
    init = run_cli("init", "--from", str(repo), timeout=300)
    assert init.returncode == 0, init.stdout + init.stderr
    build = run_cli("build", "--root", str(repo), timeout=300)
    assert build.returncode == 0, build.stdout + build.stderr
    assert hashes(repo, paths) == before, "a file of the archive changed"
    built = json.loads((repo / "_site/decisions.json").read_text())["records"]
    by_file: dict[str, list[dict[str, Any]]] = {}
    for record in built:
        by_file.setdefault(record_key(record), []).append(record)
    problems = []
    for fact in known["records"]:
        published = by_file.get(fact["path"], [])
        if fact["kind"] != "record" or fact["draft"]:
            if published:
                problems.append(f"{fact['path']}: a {fact['kind']}"
                                f"{' draft' if fact.get('draft') else ''} is published")
        elif len(published) != 1:
            problems.append(f"{fact['path']}: {len(published)} records, not one")
        else:
            problems += [f"{fact['path']}: {m}" for m in mismatches(published[0], fact)]
    drafts = sum(bool(f.get("draft")) for f in known["records"])
    if drafts and not re.search(rf"\b{drafts} drafts?\b", init.stdout + init.stderr
                                + build.stdout + build.stderr):
        problems.append(f"neither init nor build says the {drafts} drafts were left out")
    assert not problems, f"{len(problems)} gaps:\n" + "\n".join(problems)
