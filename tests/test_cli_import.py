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


def source_repository(tmp_path: Path, remote: str | None) -> Path:
    """A git repository of Log4brains records linking an image, a PDF, code and each other."""
    repo = tmp_path / "payments"
    (repo / "docs/adr/img").mkdir(parents=True)
    (repo / "docs/adr/img/flow.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (repo / "docs/spec.pdf").write_bytes(b"%PDF-1.4\n")
    (repo / "src").mkdir()
    (repo / "src/pay.py").write_text("print('pay')\n")
    (repo / "docs/adr/20230101-use-queues.md").write_text(
        "# Use queues\n\n- Status: accepted\n- Date: 2023-01-01\n\n## Context\n\n"
        "![flow](img/flow.png) and [the spec](../spec.pdf) and [code](../../src/pay.py#L1).\n"
        "Next: [retries](20230202-retry-twice.md).\n")
    (repo / "docs/adr/20230202-retry-twice.md").write_text(
        "# Retry twice\n\n- Status: Ratified\n- Date: 2023-02-02\n\nBody.\n")
    (repo / "docs/adr/20230303-idea.md").write_text(
        "# An idea\n\n- Status: draft\n- Date: 2023-03-03\n\nNot yet.\n")
    git(repo, "init", "-q", "-b", "trunk")
    if remote:
        git(repo, "remote", "add", "origin", remote)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "records")
    return repo


def test_an_unknown_status_names_the_flag_and_the_flag_maps_it(tmp_path: Path) -> None:
    source = source_repository(tmp_path, "git@github.com:acme/payments.git")
    root = native_archive(tmp_path)
    refused = run_cli("import", str(source / "docs/adr"), "--project", "pay", "--root",
                      str(root))
    assert refused.returncode == 1
    assert "unknown status 'Ratified'" in refused.stderr
    assert "--status-map 'Ratified=STATUS'" in refused.stderr
    assert "site.yml" not in refused.stderr
    result = run_cli("import", str(source / "docs/adr"), "--project", "pay", "--root",
                     str(root), "--status-map", "ratified=accepted")
    assert result.returncode == 0, result.stderr
    assert "status 'Ratified' read as accepted (status_map)" in result.stdout


def test_links_images_and_drafts_survive_the_move(tmp_path: Path) -> None:
    source = source_repository(tmp_path, "git@github.com:acme/payments.git")
    root = native_archive(tmp_path)
    result = run_cli("import", str(source / "docs/adr"), "--project", "pay", "--root",
                     str(root), "--status-map", "Ratified=accepted")
    assert result.returncode == 0, result.stderr
    folder = root / "content/pay/adr"
    queues = (folder / "0001-use-queues.md").read_text()
    assert "![flow](img/flow.png)" in queues
    assert (folder / "img/flow.png").read_bytes() == (source / "docs/adr/img/flow.png"
                                                      ).read_bytes()
    assert "[the spec](spec.pdf)" in queues and (folder / "spec.pdf").is_file()
    assert "[code](https://github.com/acme/payments/blob/trunk/src/pay.py#L1)" in queues
    assert "  copied img/flow.png beside the records, as img/flow.png" in result.stdout
    assert "[retries](0002-retry-twice.md)" in queues
    written = "".join(p.read_text() for p in folder.glob("*.md"))
    assert str(tmp_path) not in written and "../" not in written
    idea = (folder / "0003-idea.md").read_text()
    assert "draft: true\n" in idea
    assert "1 draft imported as drafts (draft: true)" in result.stdout
    native = load_archive(root)
    assert not [f for f in native.findings if f.level == "error"], native.findings
    assert sorted(r.slug for r in native.records) == ["0001-use-queues", "0002-retry-twice"]


def test_without_a_web_address_a_link_stays_as_written_and_is_reported(
        tmp_path: Path) -> None:
    source = source_repository(tmp_path, remote=str(tmp_path / "elsewhere"))
    root = native_archive(tmp_path)
    result = run_cli("import", str(source / "docs/adr"), "--project", "pay", "--root",
                     str(root), "--status-map", "Ratified=accepted", "--dry-run")
    assert result.returncode == 0, result.stderr
    assert "left as written: ../../src/pay.py#L1 (no web address" in result.stdout


def test_the_sources_entry_in_site_yml_is_read(tmp_path: Path) -> None:
    source = source_repository(tmp_path, "https://git.example/acme/payments.git")
    (source / "site.yml").write_text(
        "title: Payments\nsources:\n  - path: docs/adr\n    format: log4brains\n"
        "    project: pay\n    status_map: {ratified: accepted}\n")
    (source / "content").mkdir()
    result = run_cli("import", "docs/adr", "--root", str(source), "--dry-run", cwd=source)
    assert result.returncode == 0, result.stderr
    assert "read as accepted (status_map)" in result.stdout
    assert "→ content/pay/adr/0001-use-queues.md" in result.stdout
    unknown = run_cli("import", "src", "--root", str(source), cwd=source)
    assert unknown.returncode == 2
    assert "--project is needed: site.yml has no format source for src" in unknown.stderr


def test_a_bad_status_map_is_a_usage_error(tmp_path: Path) -> None:
    root = native_archive(tmp_path)
    result = run_cli("import", str(FIXTURES / "formats/nygard/doc/adr"), "--project", "t",
                     "--root", str(root), "--status-map", "approved")
    assert result.returncode == 2
    assert "--status-map 'approved' must be WRITTEN=STATUS" in result.stderr
