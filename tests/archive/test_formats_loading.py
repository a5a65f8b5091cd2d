"""Folders in other tools' formats loaded in place: identity, lookup, lineage,
dates from git, and one clear line for one broken record."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from site_builder.access.published import archive_from_index
from site_builder.query import answers as query
from site_builder.render.site import build_site
from site_builder.sources.load import load_archive
from tests.conftest import FIXTURES, run_cli


def git(folder: Path, *args: str, date: str | None = None) -> None:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
           "HOME": str(folder), "PATH": "/usr/bin:/bin"}
    if date:
        env |= {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True, env=env)


def summary(archive) -> dict[str, tuple[str, str, str]]:
    return {r.id: (r.ref, r.title, r.status) for r in archive.records}


def test_nygard_records_read_in_place() -> None:
    archive = load_archive(FIXTURES / "formats" / "nygard")
    assert summary(archive) == {
        "tools/adr/0001-record-architecture-decisions":
            ("TOOLS-ADR-0001", "Record architecture decisions", "accepted"),
        "tools/adr/0002-implement-as-shell-scripts":
            ("TOOLS-ADR-0002", "Implement as shell scripts", "superseded"),
        "tools/adr/0003-single-command-with-subcommands":
            ("TOOLS-ADR-0003", "Single command with subcommands", "accepted"),
        "tools/adr/0004-rewrite-in-go": ("TOOLS-ADR-0004", "Rewrite in Go", "accepted"),
        "tools/adr/0005-use-rds": ("TOOLS-ADR-0005", "Use RDS", "superseded"),
    }
    shell = archive.get("tools/adr/2")
    assert shell.date == dt.date(2016, 2, 12)  # written 12/02/2016
    assert archive.superseded_by[shell.id] == "tools/adr/0004-rewrite-in-go"
    assert archive.superseded_by["tools/adr/0005-use-rds"] == "tools/adr/0004-rewrite-in-go"
    amends = archive.get("TOOLS-ADR-0003")
    assert amends.related == ("tools/adr/0001-record-architecture-decisions",)
    assert [f.level for f in archive.findings if f.level == "error"] == []


def test_log4brains_identity_by_stem_packages_and_cross_package_links() -> None:
    archive = load_archive(FIXTURES / "formats" / "log4brains")
    # Two records share a date: no "number used by 2 records".
    assert not [f for f in archive.findings if f.level == "error"], archive.findings
    assert sorted(summary(archive)) == [
        "backend/adr/20201028-use-rest", "backend/adr/20201029-use-graphql",
        "shop/adr/20200925-use-log4brains", "shop/adr/20200925-use-markdown",
        "web/adr/20201030-use-react"]
    graphql = archive.get("backend/20201029-use-graphql")
    assert archive.get("20201029-use-graphql") is graphql
    assert graphql.ref == "BACKEND-ADR-20201029-USE-GRAPHQL"
    assert archive.get(graphql.ref.lower()) is graphql
    assert graphql.related == ("shop/adr/20200925-use-markdown",)
    assert archive.superseded_by["backend/adr/20201028-use-rest"] == graphql.id
    react = archive.get("web/20201030-use-react")
    assert (react.title, react.status) == ("Use react", "proposed")  # no H1: the stem
    assert "20201026-draft-idea" not in {r.slug for r in archive.records}


def test_a_record_saying_only_superseded_by_gives_its_successor_supersedes() -> None:
    archive = load_archive(FIXTURES / "lineage")
    teller = archive.get("p/adr/0008-teller")
    assert teller.supersedes == ()
    detail = query.detail(archive, teller, body=False)
    assert [link["id"] for link in detail["supersedes"]] == ["p/adr/0007-told"]
    told = query.detail(archive, archive.get("p/adr/0007-told"), body=False)
    assert told["supersededBy"]["id"] == "p/adr/0008-teller"


def test_a_dateless_madr_record_takes_the_date_git_first_added_it(
        fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive("formats")
    repo = root / "madr"
    git(repo, "init", "-q")
    # First added under another name, then renamed: the first add's date counts.
    decisions = repo / "docs" / "decisions"
    (decisions / "0002-use-htmx.md").rename(decisions / "0002-old-name.md")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "first", date="2021-04-05T10:00:00+00:00")
    git(repo, "mv", "docs/decisions/0002-old-name.md", "docs/decisions/0002-use-htmx.md")
    git(repo, "commit", "-qm", "rename", date="2023-01-01T10:00:00+00:00")
    archive = load_archive(repo)
    htmx = archive.get("app/adr/0002-use-htmx")
    assert htmx.date == dt.date(2021, 4, 5)
    assert (htmx.status, htmx.deciders, htmx.tags) == (
        "proposed", ("Alice", "Bob"), ("frontend", "web"))
    postgres = archive.get("app/0001-use-postgres")
    assert postgres.field_values == {"consulted": ["Carol"], "informed": ["Dave", "Erin"]}
    assert archive.superseded_by[postgres.id] == "app/adr/0003-use-cockroachdb"
    assert archive.get("app/adr/4").status == "superseded"  # status_map
    assert not [f for f in archive.findings if f.level == "error"], archive.findings


def test_a_broken_foreign_record_is_one_line_and_nothing_else_is_refused(
        fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive("formats") / "nygard"
    path = root / "doc" / "adr" / "0003-single-command-with-subcommands.md"
    path.write_text(path.read_text().replace("Date: 2016-02-13 (back dated)",
                                             "Date: 2016-13-02"))
    go = root / "doc" / "adr" / "0004-rewrite-in-go.md"  # links to it stay quiet
    go.write_text(go.read_text().replace("## Context", "Amends [3. Single](0003-single-"
                                         "command-with-subcommands.md)\n\n## Context\n\n"
                                         "See [3](0003-single-command-with-subcommands.md)."))
    result = run_cli("check", "--root", ".", cwd=root)
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert [line.split(", and git")[0] for line in errors] == [
        "doc/adr/0003-single-command-with-subcommands.md:3: error: "
        "'date' is not a real date: 2016-13-02"]  # and no git date to fall back on
    assert len(load_archive(root).records) == 4


def test_check_passes_and_no_source_file_is_written_by_a_build(
        fixture_archive: Callable[[str], Path], tmp_path: Path) -> None:
    root = fixture_archive("formats") / "log4brains"
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    result = run_cli("build", "--root", str(root), "--output", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()
             if ".site-builder" not in p.parts}
    assert after == before
    page = (tmp_path / "out" / "backend/adr/20201029-use-graphql/index.html").read_text()
    assert "../../../shop/adr/20200925-use-markdown/" in page
    copy = (tmp_path / "out" / "backend/adr/20201029-use-graphql.md").read_text()
    assert "- Status:" not in copy and "# Use GraphQL" not in copy.split("---", 2)[2]


def test_the_published_index_of_foreign_records_gives_back_the_same_answers(
        fixture_archive: Callable[[str], Path], tmp_path: Path) -> None:
    root = fixture_archive("formats") / "log4brains"
    (root / "packages/web/adr/use-tailwind.md").write_text(
        "# Use Tailwind\n\n- Status: accepted\n- Date: 2020-11-02\n\nUtility classes.\n")
    local = load_archive(root)
    output = build_site(root, tmp_path / "out", jobs=1, cache=False).output
    index = json.loads((output / "decisions.json").read_text(encoding="utf-8"))
    bodies = {r.id: r.body for r in local.records}
    remote = archive_from_index(index, lambda r: bodies[r.id], lambda: bodies)
    assert [r.id for r in remote.records] == [r.id for r in local.records]
    for record in local.records:
        assert query.detail(remote, remote.by_id[record.id]) == query.detail(local, record)
    assert remote.get("web/use-tailwind").ref == "WEB-ADR-USE-TAILWIND"
    assert remote.get("WEB-ADR-20201030-USE-REACT").title == "Use react"


def test_links_to_a_broken_record_without_a_number_stay_quiet(
        fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive("formats") / "log4brains"
    folder = root / "packages/web/adr"
    (folder / "use-tailwind.md").write_text(
        "# Tailwind\n\n- Date: 2020-13-01\n- Status: accepted\n")
    react = folder / "20201030-use-react.md"
    react.write_text(react.read_text() + "\nSee [Tailwind](use-tailwind.md).\n\n## Links\n\n"
                     "- Relates to [Tailwind](use-tailwind.md)\n")
    errors = [f for f in load_archive(root).findings if f.level == "error"]
    assert [(f.path.name, f.line) for f in errors] == [("use-tailwind.md", 3)]
