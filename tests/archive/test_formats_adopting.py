"""A real-shaped archive adopted as it stands (tests/fixtures/adopting): every habit of the
records' own tools is read, warned about at its line, and never refuses the site."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from site_builder.archive import foreign
from site_builder.sources.load import load_archive
from site_builder.sources.resolve import content_roots
from tests.conftest import FIXTURES, run_cli

ADOPTING = FIXTURES / "adopting"


def test_statuses_with_more_words_keep_their_status_note_and_successors() -> None:
    archive = load_archive(ADOPTING)
    shown = {r.slug: (r.status, r.status_note) for r in archive.records}
    assert shown["0002-use-shell"] == ("deprecated", "no superseding ADR")
    assert shown["0003-package-pipeline"] == ("accepted", "for the GitHub package pipeline")
    assert shown["0004-release-captain"] == ("proposed", "review")
    assert shown["0008-frobnicate"] == ("unknown", "Frobnicated")
    assert shown["0009-ratified"] == ("accepted", None)  # status_map key "Ratified."
    successors = archive.superseded_by
    assert successors["platform/adr/0006-cache-in-redis"] == "platform/adr/0010-cache-in-memory"
    # An absolute URL into the site's own repository (repo_url) names a record.
    assert successors["platform/adr/0007-queue-in-rabbitmq"] == "platform/adr/0016-queue-in-kafka"
    # The title's `[Superseded by [ADR-0017](…)]` decoration is lineage, not title.
    assert successors["platform/adr/0011-persist-dex"] == "platform/adr/0017-persist-dex-in-etcd"
    titles = {r.slug: r.title for r in archive.records}
    assert titles["0011-persist-dex"] == "Do not persist Dex"
    assert titles["0016-queue-in-kafka"] == "Queue with Kafka"
    assert titles["0017-persist-dex-in-etcd"] == "Persist Dex in etcd"


def test_check_warns_at_each_line_and_passes_and_strict_makes_them_errors(
        fixture_archive: Callable[[str], Path]) -> None:
    # A copy outside this repository: in place, check would also scan site-builder's own
    # code for citations (the repository holding the archive).
    root = fixture_archive("adopting")
    result = run_cli("check", "--root", str(root), cwd=root)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if ": warning: " in line]
    assert [line.split(": warning: ")[0] for line in lines] == [
        "docs/adr/0008-frobnicate.md:7", "docs/adr/0010-cache-in-memory.md:12"]
    assert "status_map" in lines[0] and "missing record: 0042-shard-the-cache.md" in lines[1]
    assert "unknown key" not in result.stderr  # layout, nav_order, github_org, slug…
    assert run_cli("check", "--strict", "--root", str(root), cwd=root).returncode == 1


def test_strict_on_the_source_makes_its_tools_habits_errors(
        fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive("adopting")
    site = root / "site.yml"
    site.write_text(site.read_text().replace("    project: platform\n",
                                             "    project: platform\n    strict: true\n"))
    errors = [f for f in load_archive(root).findings if f.level == "error"]
    assert [(f.path.name, f.line) for f in errors] == [
        ("0008-frobnicate.md", 7), ("0010-cache-in-memory.md", 12)]


def test_templates_pages_excluded_files_and_drafts_are_skipped_with_why() -> None:
    archive = load_archive(ADOPTING)
    skipped = {s.rel_path: s.reason for s in archive.skipped}
    assert set(skipped) == {
        "docs/adr/0000-TEMPLATE.md", "docs/adr/xxxx-template.md", "docs/adr/install.md",
        "docs/adr/index.md", "docs/decisions/0000-short-title.md",
        "docs/decisions/0002-title-template.md", "docs/decisions/0099-scratch.md",
        "docs/log/template.md", "docs/log/20230101-idea.md"}
    assert "template" in skipped["docs/adr/0000-TEMPLATE.md"]
    assert "placeholders" in skipped["docs/decisions/0000-short-title.md"]
    assert "not a record" in skipped["docs/adr/install.md"]
    assert "exclude" in skipped["docs/decisions/0099-scratch.md"]
    assert "draft" in skipped["docs/log/20230101-idea.md"]
    assert "install" not in {r.slug for r in archive.records}
    config = archive.config
    roots, _ = content_roots(config)
    per_folder = [s.rel_path for root in roots if root.foreign is not None
                  for s in foreign.skipped_files(config, root)]
    assert sorted(per_folder) == sorted(skipped)  # the API `init --from` prints


def test_build_counts_its_drafts_and_lists_what_it_left_out_when_verbose(
        fixture_archive: Callable[[str], Path], tmp_path: Path) -> None:
    root = fixture_archive("adopting")
    quiet = run_cli("build", "--output", str(tmp_path / "a"), cwd=root)
    assert quiet.returncode == 0, quiet.stderr
    summary = [line for line in quiet.stderr.splitlines() if ": warning: " not in line]
    assert len(summary) == 1  # the one summary line counts the drafts
    assert "; 1 draft left out (not published)" in quiet.stderr
    assert "install.md" not in quiet.stderr
    verbose = run_cli("build", "-v", "--force", "--output", str(tmp_path / "b"), cwd=root)
    assert "  docs/adr/install.md: a page, not a record" in verbose.stderr
    assert "  docs/log/20230101-idea.md: a draft: not published" in verbose.stderr
    checked = run_cli("check", "-v", cwd=root)
    assert "left out docs/adr/0000-TEMPLATE.md: a template" in checked.stderr


def test_the_published_site_shows_notes_cleans_svg_and_keeps_comments_out(
        fixture_archive: Callable[[str], Path], tmp_path: Path) -> None:
    root = fixture_archive("adopting")
    out = tmp_path / "site"
    result = run_cli("build", "--output", str(out), cwd=root)
    assert result.returncode == 0, result.stderr
    page = (out / "platform/adr/0003-package-pipeline/index.html").read_text()
    assert '<span class="status-note">for the GitHub package pipeline</span>' in page
    index = json.loads((out / "decisions.json").read_text())
    notes = {r["id"]: r["statusNote"] for r in index["records"]}
    assert notes["platform/adr/0008-frobnicate"] == "Frobnicated"
    assert notes["platform/adr/0001-record-architecture-decisions"] is None
    assert {"name": "unknown", "open": False, "current": False} .items() <= next(
        s for s in index["statuses"] if s["name"] == "unknown").items()
    dex = (out / "platform/adr/0017-persist-dex-in-etcd/index.html").read_text()
    body = dex.split("data-body>", 1)[1]
    assert not body.lstrip().startswith("<hr") and "SPDX" not in dex
    for name in ("llms.txt", "llms-full.txt", "decisions.json"):
        assert "maintainers@acme.example" not in (out / name).read_text()
    svg = (out / "platform/adr/overview.svg").read_bytes()
    assert b"<rect" in svg and b"DOCTYPE" not in svg
    memory = (out / "platform/adr/0010-cache-in-memory/index.html").read_text()
    assert 'href="../0004-release-captain/"' in memory  # written `./0004-release-captain`
    install = (out / "platform/adr/0001-record-architecture-decisions/index.html").read_text()
    assert "https://github.com/acme/platform/blob/main/docs/adr/install.md" in install
