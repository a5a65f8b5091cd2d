"""Decisions cited in code: a real git repository whose files cite the archive's records."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_builder.archive import codescan
from site_builder.archive.loader import LoaderCache
from site_builder.query import answers as query
from site_builder.query import governance
from site_builder.sources.load import load_archive
from tests.citing import CITED, MISSING, git, make_repository
from tests.conftest import EXAMPLE_SITE, REPO


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_repository(tmp_path / "shop")


def places(found: list[tuple[str, int, str]], record_id: str) -> list[dict[str, object]]:
    return [{"path": path, "line": line} for path, line, cited in sorted(found)
            if cited == record_id]


def test_every_record_knows_where_the_code_cites_it(root: Path):
    archive = load_archive(root)
    for record in archive.records:
        assert query.get_record(archive, record.id)["citedBy"] == places(CITED, record.id)


def test_binary_large_excluded_untracked_and_record_files_are_not_read(root: Path):
    scan = load_archive(root).citations.scan
    assert scan is not None and scan.top == root.parent.resolve()
    assert set(scan.files) == {"decisions/README.md", "src/billing.py", "src/links.py"}


def test_the_repository_is_found_above_the_archive(root: Path):
    assert codescan.repository_of(root) == root.parent.resolve()
    assert codescan.repository_of(root.parent.parent) is None  # no repository there


def test_check_warns_at_the_codes_line(root: Path):
    found = {(str(f.path.relative_to(root.parent)), f.line, f.message)
             for f in load_archive(root).findings if "content" not in f.path.parts}
    assert found == {
        ("decisions/README.md", 1, "cites PAY-ADR-0001, superseded by PAY-ADR-0002 (Use Stripe)"),
        ("src/billing.py", 2, "cites PAY-ADR-0003, which is rejected, not in force"),
        ("src/billing.py", 3, "cites PAY-ADR-0001, superseded by PAY-ADR-0002 (Use Stripe)"),
        ("src/links.py", 2, "cites PAY-ADR-0001, superseded by PAY-ADR-0002 (Use Stripe)"),
        *((path, line, f"cites {token}, which names no record of this archive")
          for path, line, token in MISSING)}
    assert all(f.level == "warning" for f in load_archive(root).findings)


def test_records_for_paths_says_how_each_record_was_found(root: Path):
    archive = load_archive(root)
    answer = governance.records_for_paths(archive, ["src/billing.py"])
    assert [(r["id"], r["via"]) for r in answer["current"]] == [
        ("pay/adr/0002-use-stripe", ["affects", "cited"])]
    assert [(r["id"], r["via"]) for r in answer["historical"]] == [
        ("pay/adr/0003-use-bitcoin", ["cited"]), ("pay/adr/0001-old-gateway", ["cited"])]
    assert answer["total"] == 3
    folder = governance.records_for_paths(archive, ["src/"])
    assert folder["total"] == 4  # every record cited below src/, the open RFC historical
    assert governance.records_for_paths(archive, ["vendor/lib.py"])["total"] == 0


def test_an_unchanged_repository_reads_no_blob_again(root: Path):
    first = load_archive(root).citations.scan
    # The three citing files, site.yml, the logo and big.txt: no record file.
    assert first is not None and first.read == 6
    again = load_archive(root, cache=LoaderCache()).citations.scan
    assert again is not None and again.read == 0 and again.files == first.files


def test_an_edited_file_is_read_from_the_work_tree(root: Path):
    assert load_archive(root).citations.scan is not None  # the cache holds every blob
    billing = root.parent / "src" / "billing.py"
    billing.write_text("\n\n" + billing.read_text())  # two lines down, not staged
    archive = load_archive(root, cache=LoaderCache())
    assert archive.citations.scan is not None and archive.citations.scan.read == 1
    cited = [c.line for c in archive.citations.of("pay/adr/0002-use-stripe")
             if c.path == "src/billing.py"]
    assert cited == [3]
    git(root.parent, "rm", "-q", "-f", "src/billing.py")
    gone = load_archive(root, cache=LoaderCache())
    assert "src/billing.py" not in {c.path for c in gone.citations.of(
        "pay/adr/0002-use-stripe")}


def test_citations_false_turns_it_off(tmp_path: Path):
    root = make_repository(tmp_path / "shop", citations="false")
    archive = load_archive(root)
    assert archive.citations.scan is None
    assert query.get_record(archive, "PAY-ADR-0002")["citedBy"] == []
    assert not (root / ".site-builder" / "cache" / codescan.CACHE_FILE).exists()


def test_include_globs_narrow_what_is_read(tmp_path: Path):
    root = make_repository(tmp_path / "shop", citations='{include: ["src/links.py"]}')
    scan = load_archive(root).citations.scan
    assert scan is not None and set(scan.files) == {"src/links.py"}


def test_a_glob_that_cannot_be_matched_is_an_error_at_its_line(tmp_path: Path):
    root = make_repository(tmp_path / "shop", citations='{exclude: ["[z-a]"]}')
    errors = [f for f in load_archive(root).findings if f.level == "error"]
    assert [(f.path.name, f.line) for f in errors] == [("site.yml", 4)]
    assert "'[z-a]' cannot be used" in errors[0].message


def test_outside_a_repository_nothing_is_cited(tmp_path: Path):
    root = make_repository(tmp_path / "shop")
    import shutil
    shutil.rmtree(root.parent / ".git")
    assert load_archive(root).citations.scan is None


def test_mentions_are_found_in_bytes_with_their_lines():
    data = b"x\n# BUILD-ADR-0004 and build/adr/0004-x/\nutf-8 UTF-8 col-12\n"
    assert codescan.mentions(data) == ((2, "BUILD-ADR-0004"), (2, "build/adr/0004-x"),
                                       (3, "UTF-8"))
    assert codescan.mentions(b"\0BUILD-ADR-0004") == ()


def test_a_file_not_checked_out_is_read_through_git(root: Path):
    repo = root.parent
    git(repo, "update-index", "--skip-worktree", "src/links.py")  # as a sparse checkout does
    (repo / "src" / "links.py").unlink()
    archive = load_archive(root)
    assert ("src/links.py", 1) in {(c.path, c.line) for c in archive.citations.of(
        "pay/adr/0002-use-stripe")}


def test_example_site_finds_the_citations_in_site_builders_own_code():
    """example-site lives in a subfolder: its repository is this one, found from its root."""
    archive = load_archive(EXAMPLE_SITE)
    scan = archive.citations.scan
    assert scan is not None and scan.top == REPO.resolve()
    # Every line of site_builder/ that names a record's ref is one of its citations.
    spec = archive.config.citations
    assert spec is not None and spec.include  # example-site's site.yml narrows what is read
    wanted = codescan.wanted_by(spec, ())
    for record in archive.records:
        expected = sorted(
            (path.relative_to(REPO).as_posix(), number)
            for path in (REPO / "site_builder").rglob("*.py")
            if wanted(path.relative_to(REPO).as_posix())
            for number, text in enumerate(path.read_text().splitlines(), start=1)
            if re.search(rf"\b{record.ref}\b", text))
        found = [(c.path, c.line) for c in archive.citations.of(record.id)
                 if c.path.startswith("site_builder/")]
        assert [place for place in found if place in expected] == expected, record.ref
    assert archive.citations.of("build/adr/0022-body-cache-in-one-sqlite-file")
    assert archive.citations.findings == ()  # `make check` stays clean under --strict


def test_a_record_kept_in_another_tools_format_is_cited_by_its_file(tmp_path: Path):
    root = make_repository(tmp_path / "shop")
    repo = root.parent
    folder = root / "doc" / "adr"
    folder.mkdir(parents=True)
    (folder / "0001-record-decisions.md").write_text(
        "# 1. Record decisions\n\nDate: 2026-01-02\n\n## Status\n\nAccepted\n\n"
        "## Context\n\nSee PAY-ADR-0001.\n")
    site = root / "site.yml"
    site.write_text(site.read_text() + "sources:\n  - {path: doc/adr, format: nygard, "
                                       "project: tools}\n")
    (repo / "src" / "tools.py").write_text(
        "# decisions/doc/adr/0001-record-decisions.md\n# pay/adr/2 and TOOLS-ADR-0001\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "tools")
    archive = load_archive(root)
    assert [(c.path, c.line) for c in archive.citations.of(
        "tools/adr/0001-record-decisions")] == [("src/tools.py", 1), ("src/tools.py", 2)]
    assert ("src/tools.py", 2) in {(c.path, c.line) for c in archive.citations.of(
        "pay/adr/0002-use-stripe")}  # a short id as a path
    scan = archive.citations.scan
    assert scan is not None and not any(path.startswith("decisions/doc/") for path in scan.files)
