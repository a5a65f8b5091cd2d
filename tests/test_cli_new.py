"""`site-builder new PROJECT TYPE "Title"`: the next-numbered record from the template."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from site_builder.authoring import new as authoring
from site_builder.authoring.new import NewRecordError, new_record, next_number, slugify
from site_builder.config.site import load_config
from site_builder.sources.load import load_archive
from tests.conftest import run_cli

RECORD = "---\ntitle: {0}\nstatus: accepted\ndate: 2026-01-01\ndescription: {0}.\n---\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """An archive whose adr folder has a gap (0002-0004) and whose rfc folder a duplicate."""
    root = tmp_path / "archive"
    for rel in ("sre/adr/0001-a.md", "sre/adr/0005-b.md", "sre/rfc/0001-x.md",
                "sre/rfc/0002-y.md", "sre/rfc/0002-z.md"):
        path = root / "content" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(RECORD.format(path.stem))
    (root / "content/sre/adr/notes.txt").write_text("not a record\n")
    (root / "site.yml").write_text("title: New\n")
    return root


@pytest.fixture
def git_name(tmp_path: Path) -> dict[str, str]:
    """An environment whose git configuration names the author Ana Lima."""
    gitconfig = tmp_path / "gitconfig"
    gitconfig.write_text("[user]\n\tname = Ana Lima\n")
    return {"GIT_CONFIG_GLOBAL": str(gitconfig), "GIT_CONFIG_NOSYSTEM": "1",
            "HOME": str(tmp_path)}


def test_numbering_skips_gaps_and_duplicates(root: Path) -> None:
    assert next_number(root / "content/sre/adr") == 6
    assert next_number(root / "content/sre/rfc") == 3
    assert next_number(root / "content/sre/empty") == 1


def test_new_prints_the_path_of_a_record_that_check_accepts(
        root: Path, git_name: dict[str, str]) -> None:
    result = run_cli("new", "sre", "adr", "Use error budgets", cwd=root, env=git_name)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == "content/sre/adr/0006-use-error-budgets.md\n"
    text = (root / "content/sre/adr/0006-use-error-budgets.md").read_text(encoding="utf-8")
    assert text.startswith(
        '---\ntitle: "Use error budgets"\nstatus: proposed\n'
        f"date: {dt.date.today().isoformat()}\n")
    assert 'authors: ["Ana Lima"]\n' in text
    for section in ("## Context and Problem Statement", "## Considered Options",
                    "## Decision Outcome", "## Consequences"):
        assert f"\n{section}\n" in text
    (root / "content/sre/rfc/0002-z.md").unlink()  # the fixture's duplicate number
    assert run_cli("check", cwd=root).returncode == 0
    # The template's own sentences are warnings until the author writes the record.
    assert run_cli("check", "--strict", cwd=root).returncode == 1
    path = root / "content/sre/adr/0006-use-error-budgets.md"
    written = (text.replace("One line: what was decided, and why.", "Page on budget burn.")
               .replace("What is the problem, and why does it need a decision now?", "Why?")
               .replace('Chosen option: "…", because …', "Budgets, because they measure."))
    path.write_text(written, encoding="utf-8")
    check = run_cli("check", "--strict", cwd=root)
    assert (check.returncode, check.stderr) == (0, "")


def test_without_a_git_name_there_is_no_author(root: Path, tmp_path: Path) -> None:
    env = {"GIT_CONFIG_GLOBAL": str(tmp_path / "none"), "GIT_CONFIG_NOSYSTEM": "1",
           "HOME": str(tmp_path)}
    result = run_cli("new", "sre", "rfc", "Page less", "--root", str(root), env=env)
    assert result.returncode == 0
    path = root / "content/sre/rfc/0003-page-less.md"
    assert result.stdout == f"{path}\n"  # outside the current folder: absolute
    assert "authors: []\n" in path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("title", "name"), [
    ("Café über Straße", "0006-cafe-uber-strasse.md"),
    ("日本語のタイトル", "0006-日本語のタイトル.md"),
    ("Привет, мир!", "0006-привет-мир.md"),
    ("Version 2.0: the \"new\" API/SDK", "0006-version-2-0-the-new-api-sdk.md"),
    ("🚀 Launch", "0006-launch.md"),
    ("???", "0006-record.md"),
])
def test_unicode_titles(root: Path, title: str, name: str) -> None:
    config, _ = load_config(root)
    path = new_record(config, "sre", "adr", title, author="")
    assert path.name == name
    record = load_archive(root).get(f"sre/adr/{path.stem}")
    assert record.title == title


def test_slugs_are_short_and_safe() -> None:
    slug = slugify("A very long title " * 10)
    assert len(slug) <= 60 and not slug.endswith("-")
    assert slugify("  Leading and trailing  ") == "leading-and-trailing"
    assert slugify("snake_case and dots.in.names") == "snake-case-and-dots-in-names"
    assert slugify("हिन्दी शीर्षक") == "हिन्दी-शीर्षक"  # vowel signs stay with their letters


def test_status_is_the_first_open_status_and_date_today(root: Path) -> None:
    (root / "site.yml").write_text(
        "title: New\nstatuses:\n  - {name: accepted, current: true}\n"
        "  - {name: draft-review, open: true}\n  - {name: proposed, open: true}\n")
    config, _ = load_config(root)
    path = new_record(config, "sre", "adr", "Custom", today=dt.date(2027, 3, 4), author="Bo")
    text = path.read_text(encoding="utf-8")
    assert "status: draft-review\ndate: 2027-03-04\n" in text
    assert 'authors: ["Bo"]' in text


def test_unknown_project_is_refused_unless_asked(root: Path) -> None:
    result = run_cli("new", "ops", "adr", "Run books", cwd=root)
    assert result.returncode == 2
    assert result.stderr == ("site-builder: unknown project 'ops' (projects: sre); "
                             "pass --create-project to start it\n")
    assert not (root / "content/ops").exists()
    created = run_cli("new", "ops", "adr", "Run books", "--create-project", cwd=root)
    assert created.returncode == 0
    assert created.stdout == "content/ops/adr/0001-run-books.md\n"


def test_a_new_type_folder_starts_at_one(root: Path) -> None:
    result = run_cli("new", "sre", "postmortem", "Outage", cwd=root)
    assert result.stdout == "content/sre/postmortem/0001-outage.md\n"


@pytest.mark.parametrize(("args", "message"), [
    (("SRE", "adr", "X"), "project 'SRE' must be lowercase letters, digits, '.', '_' or '-'"),
    (("sre", "a/b", "X"), "type 'a/b' must be lowercase letters, digits, '.', '_' or '-'"),
    (("sre", "adr", "   "), "the title must not be empty"),
])
def test_bad_arguments_are_refused(root: Path, args: tuple[str, ...], message: str) -> None:
    before = sorted(root.rglob("*"))
    result = run_cli("new", *args, cwd=root)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"site-builder: {message}\n"
    assert sorted(root.rglob("*")) == before


def test_an_existing_file_is_never_overwritten(root: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Another writer may take the number between counting and writing."""
    config, _ = load_config(root)
    existing = root / "content/sre/adr/0005-b.md"
    before = existing.read_text()
    monkeypatch.setattr(authoring, "next_number", lambda folder: 5)
    with pytest.raises(NewRecordError, match="already exists; nothing was written"):
        new_record(config, "sre", "adr", "B", author="")
    assert existing.read_text() == before


def test_new_needs_an_archive(tmp_path: Path) -> None:
    result = run_cli("new", "sre", "adr", "X", cwd=tmp_path)
    assert result.returncode == 2
    assert "no site.yml here or above" in result.stderr
