"""`site-builder import SRC --project P`: native files that read as the folder read in place."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from site_builder.sources.load import load_archive
from tests.archive.test_formats_loading import git
from tests.conftest import FIXTURES, run_cli


def native_archive(tmp_path: Path) -> Path:
    root = tmp_path / "archive"
    (root / "content").mkdir(parents=True)
    (root / "site.yml").write_text("title: Imported\n")
    return root


def lineage(archive) -> set[tuple[str, str]]:
    return {(archive.by_id[old].title, archive.by_id[new].title)
            for old, new in archive.superseded_by.items()}


def seen(archive) -> set[tuple[str, str, str]]:
    return {(r.title, r.status, r.date.isoformat()) for r in archive.records}


@pytest.mark.parametrize(("fixture", "folder", "project"), [
    ("nygard", "doc/adr", "tools"),
    ("log4brains", "packages/backend/adr", "backend"),
])
def test_the_native_result_reads_as_the_in_place_read(tmp_path: Path, fixture: str,
                                                      folder: str, project: str) -> None:
    source = tmp_path / fixture
    shutil.copytree(FIXTURES / "formats" / fixture, source)
    git(source, "init", "-q", "-b", "main")
    git(source, "remote", "add", "origin", "git@github.com:acme/tools.git")
    in_place = load_archive(source)
    root = native_archive(tmp_path)
    before = {p: p.read_bytes() for p in source.rglob("*") if p.is_file()}
    result = run_cli("import", str(source / folder), "--project", project, "--root", str(root))
    assert result.returncode == 0, result.stderr
    assert {p: p.read_bytes() for p in source.rglob("*") if p.is_file()} == before
    native = load_archive(root)
    assert not [f for f in native.findings if f.level == "error"], native.findings
    expected = load_archive(source)
    mine = [r for r in expected.records if r.project == project]
    assert seen(native) == {(r.title, r.status, r.date.isoformat()) for r in mine}
    assert lineage(native) == {pair for pair in lineage(in_place)
                               if any(r.title == pair[0] for r in mine)}
    assert lineage(native)


def test_date_named_files_are_renumbered_in_date_order_and_links_follow(tmp_path: Path) -> None:
    source = tmp_path / "log4brains"
    shutil.copytree(FIXTURES / "formats" / "log4brains", source)
    root = native_archive(tmp_path)
    result = run_cli("import", str(source / "packages/backend/adr"), "--project", "backend",
                     "--format", "log4brains", "--root", str(root))
    assert result.returncode == 0, result.stderr
    assert "20201028-use-rest.md → content/backend/adr/0001-use-rest.md" in result.stdout
    folder = root / "content/backend/adr"
    assert sorted(p.name for p in folder.iterdir()) == ["0001-use-rest.md", "0002-use-graphql.md"]
    graphql = (folder / "0002-use-graphql.md").read_text()
    assert "supersedes:\n- backend/adr/0001-use-rest\n" in graphql
    rest = (folder / "0001-use-rest.md").read_text()
    assert "supersededBy: backend/adr/0002-use-graphql" in rest
    assert "- Status:" not in rest and "# Use REST" not in rest


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    root = native_archive(tmp_path)
    result = run_cli("import", str(FIXTURES / "formats/nygard/doc/adr"), "--project", "tools",
                     "--root", str(root), "--dry-run")
    assert result.returncode == 0, result.stderr
    assert "0003-single-command-with-subcommands.md → content/tools/adr/" in result.stdout
    assert "guessed status 'Approved' read as accepted" in result.stdout
    assert list((root / "content").iterdir()) == []
