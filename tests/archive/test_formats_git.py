"""Dates from git for records in another tool's format, in real repositories made here:
renames across folders followed, placeholders falling back, shallow clones warned about."""

from __future__ import annotations

import datetime as dt
import subprocess
from pathlib import Path

from site_builder.archive.loader import SHALLOW_DATES
from site_builder.sources.load import load_archive
from tests.archive.test_formats_loading import git
from tests.conftest import run_cli

SITE = "title: T\nsources:\n  - path: docs/adr\n    format: log4brains\n    project: tools\n"


def repository(root: Path) -> Path:
    (root / "docs" / "adr").mkdir(parents=True)
    (root / "site.yml").write_text(SITE)
    git(root, "init", "-q")
    return root


def test_a_record_moved_from_another_folder_keeps_the_date_it_was_first_added(
        tmp_path: Path) -> None:
    root = repository(tmp_path / "repo")
    (root / "old").mkdir()
    (root / "old/20200101-use-kafka.md").write_text("# Use Kafka\n\n- Status: accepted\n")
    (root / "docs/adr/20200202-use-go.md").write_text("# Use Go\n\n- Status: accepted\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "first", date="2020-01-01T10:00:00+00:00")
    git(root, "mv", "old/20200101-use-kafka.md", "docs/adr/20200101-use-kafka.md")
    git(root, "commit", "-qm", "move", date="2024-06-01T10:00:00+00:00")
    archive = load_archive(root)
    assert archive.get("20200101-use-kafka").date == dt.date(2020, 1, 1)
    assert archive.get("20200202-use-go").date == dt.date(2020, 1, 1)


def test_records_moved_together_with_near_identical_bodies_keep_their_own_dates(
        tmp_path: Path) -> None:
    # V-Sekai/manuals: every record begun from one template, all moved to an archive folder
    # at once. `git log --follow` took the later record for a copy of the earlier one.
    root = repository(tmp_path / "repo")
    (root / "decisions").mkdir()
    body = "\n- Status: rejected\n\n## Context\n\nThe same words in every record.\n"
    for day, name in (("2020-01-01", "20200101-use-kafka"), ("2021-06-01", "20210601-use-nats"),
                      ("2022-03-01", "20220301-use-redis")):
        (root / f"decisions/{name}.md").write_text(f"# {name[9:]}\n{body}")
        git(root, "add", ".")
        git(root, "commit", "-qm", name, date=f"{day}T10:00:00+00:00")
    git(root, "mv", "decisions/20210601-use-nats.md", "docs/adr/20210601-use-nats.md")
    git(root, "mv", "decisions/20220301-use-redis.md", "docs/adr/20220301-use-redis.md")
    git(root, "commit", "-qm", "archive", date="2024-06-01T10:00:00+00:00")
    archive = load_archive(root)
    assert archive.get("20210601-use-nats").date == dt.date(2021, 6, 1)
    assert archive.get("20220301-use-redis").date == dt.date(2022, 3, 1)


def test_records_edited_as_they_move_pair_by_their_names(tmp_path: Path) -> None:
    # Archived with their status changed in the same commit: no pair is exact, and every
    # record is as like the others as itself but for its name.
    root = repository(tmp_path / "repo")
    (root / "decisions").mkdir()
    body = "".join(f"\nThe same line {n} of every record, written from one template.\n"
                   for n in range(12))
    names = ("20200101-use-kafka", "20210601-use-nats", "20220301-use-redis")
    for day, name in zip(("2020-01-01", "2021-06-01", "2022-03-01"), names, strict=True):
        (root / f"decisions/{name}.md").write_text(f"# {name[9:]}\n\n- Status: accepted\n{body}")
        git(root, "add", ".")
        git(root, "commit", "-qm", name, date=f"{day}T10:00:00+00:00")
    for name in names:
        (root / f"decisions/{name}.md").unlink()
        (root / f"docs/adr/{name}.md").write_text(f"# {name[9:]}\n\n- Status: rejected\n{body}")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "archive", date="2024-06-01T10:00:00+00:00")
    archive = load_archive(root)
    assert [archive.get(name).date for name in names] == [
        dt.date(2020, 1, 1), dt.date(2021, 6, 1), dt.date(2022, 3, 1)]


def test_a_record_moved_twice_keeps_the_date_of_its_first_folder(tmp_path: Path) -> None:
    root = repository(tmp_path / "repo")
    (root / "a").mkdir()
    (root / "a/0001-x.md").write_text("# X\n\n- Status: accepted\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "first", date="2019-05-01T10:00:00+00:00")
    (root / "b").mkdir()
    git(root, "mv", "a/0001-x.md", "b/20190501-x.md")
    git(root, "commit", "-qm", "rename", date="2021-01-01T10:00:00+00:00")
    git(root, "mv", "b/20190501-x.md", "docs/adr/20190501-x.md")
    git(root, "commit", "-qm", "move", date="2023-01-01T10:00:00+00:00")
    assert load_archive(root).get("20190501-x").date == dt.date(2019, 5, 1)


def test_dates_come_from_git_where_a_blob_rename_pairing_needs_is_missing(
        tmp_path: Path) -> None:
    # A snapshot lacking a large attachment: `git log -M` dies reading it.
    root = repository(tmp_path / "repo")
    (root / "docs/adr/20200101-x.md").write_text("# X\n\n- Status: accepted\n")
    (root / "docs/adr/big.bin").write_bytes(b"a" * 4000)
    git(root, "add", ".")
    git(root, "commit", "-qm", "first", date="2020-03-01T10:00:00+00:00")
    (root / "docs/adr/big.bin").unlink()
    (root / "docs/adr/big2.bin").write_bytes(b"a" * 3900 + b"b" * 100)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "second", date="2021-03-01T10:00:00+00:00")
    blob = subprocess.run(["git", "rev-parse", "HEAD~1:docs/adr/big.bin"], cwd=root,
                          capture_output=True, text=True, check=True).stdout.strip()
    (root / ".git/objects" / blob[:2] / blob[2:]).unlink()
    assert load_archive(root).get("20200101-x").date == dt.date(2020, 3, 1)


def test_a_placeholder_date_takes_gits_date_with_a_warning(tmp_path: Path) -> None:
    root = repository(tmp_path / "repo")
    (root / "docs/adr/20221005-x.md").write_text(
        "# Keep the leftovers\n\n- Status: accepted\n"
        "- Date: [YYYY-MM-DD when the decision was last updated] <!-- optional -->\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "first", date="2022-10-07T10:00:00+00:00")
    archive = load_archive(root)
    assert archive.get("20221005-x").date == dt.date(2022, 10, 7)
    [warning] = archive.findings
    assert (warning.path.name, warning.line, warning.level) == ("20221005-x.md", 4, "warning")
    assert "placeholder" in warning.message and "2022-10-07" in warning.message


def test_a_shallow_clone_warns_once_naming_fetch_depth(tmp_path: Path) -> None:
    origin = repository(tmp_path / "origin")
    for day in (1, 2):
        (origin / f"docs/adr/2020010{day}-x{day}.md").write_text(
            f"# X{day}\n\n- Status: accepted\n")
        git(origin, "add", ".")
        git(origin, "commit", "-qm", f"day {day}", date=f"2020-01-0{day}T10:00:00+00:00")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{origin}", str(clone)],
                   check=True, capture_output=True)
    full = load_archive(origin)
    assert [f.message for f in full.findings] == []
    shallow = load_archive(clone)
    assert shallow.get("20200101-x1").date == dt.date(2020, 1, 2)  # cut history: wrong
    assert [(f.path.name, f.level, f.message) for f in shallow.findings] == [
        ("site.yml", "warning", SHALLOW_DATES)]
    assert "fetch-depth: 0" in SHALLOW_DATES
    for command in ("check", "build"):
        result = run_cli(command, cwd=clone)
        assert result.returncode == 0, result.stderr
        assert result.stderr.count("fetch-depth: 0") == 1, result.stderr
