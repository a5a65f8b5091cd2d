"""build_site and `site-builder build`: refuse bad archives, swap atomically, cache bodies."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from site_builder.render import parallel
from site_builder.render.agents import artifacts
from site_builder.render.site import BuildRefused, BuildResult, UnsafeOutput, build_site
from tests.conftest import MemorySite, run_cli


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def stamps(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.relative_to(folder).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def siblings(site_root: Path) -> list[str]:
    return sorted(p.name for p in site_root.iterdir() if p.name.startswith("_site"))


def test_a_build_writes_pages_copies_artifacts_and_assets(
        built: tuple[Path, BuildResult]) -> None:
    site_dir, result = built
    files = tree(site_dir)
    for name in ("index.html", "decisions.json", "decisions.schema.json", "llms.txt",
                 "llms-full.txt", "AGENTS.md", "feed.xml", "robots.txt",
                 "platform/adr/0003-move-to-cockroachdb/index.html",
                 "platform/adr/0003-move-to-cockroachdb.md"):
        assert name in files, name
    assert files["platform/adr/img/schema.png"].startswith(b"\x89PNG")
    assert (result.records, result.rendered, result.cached) == (5, 5, 0)
    assert result.files == len(files)
    assert "Built 5 records" in result.summary()


def test_the_summary_counts_in_the_singular_where_there_is_one(tmp_path: Path) -> None:
    one = BuildResult(output=tmp_path, records=1, pages=1, files=1, changed=1, unchanged=0,
                      removed=0, rendered=1, cached=0, seconds=0.04)
    assert one.summary() == (f"Built 1 record, 1 page (1 file: 1 written, 0 removed; "
                             f"1 body rendered, 0 from cache) into {tmp_path} in 0.0 s")
    again = BuildResult(output=tmp_path, records=1, pages=8, files=27, changed=0,
                        unchanged=27, removed=0, rendered=0, cached=0, seconds=0.0,
                        up_to_date=True)
    assert again.summary() == ("Up to date: nothing changed since the last build of 1 record, "
                               f"8 pages in {tmp_path} (0.0 s)")


def test_an_archive_with_errors_is_refused_and_nothing_is_written(site_root: Path) -> None:
    record = site_root / "content/web/adr/0001-static-pages.md"
    record.write_text(record.read_text().replace("date: 2024-01-20", "date: 2024-13-45"))
    with pytest.raises(BuildRefused) as refused:
        build_site(site_root, jobs=1)
    assert any(f.path == record and f.level == "error" for f in refused.value.findings)
    assert siblings(site_root) == []
    assert not (site_root / ".site-builder").exists()


def test_a_link_to_a_missing_record_is_an_error(site_root: Path) -> None:
    (site_root / "content/platform/adr/0001-use-postgres.md").unlink()
    (site_root / "content/platform/adr/0003-move-to-cockroachdb.md").write_text(
        (site_root / "content/platform/adr/0003-move-to-cockroachdb.md").read_text()
        .replace("supersedes: [platform/adr/0001-use-postgres]\n", ""))
    with pytest.raises(BuildRefused) as refused:
        build_site(site_root, jobs=1)
    messages = [f.message for f in refused.value.findings if f.level == "error"]
    assert "link to a missing record: 0001-use-postgres.md" in messages
    assert "link to a missing record: ../adr/0001-use-postgres.md" not in messages


def test_the_cli_prints_each_error_with_its_place_and_exits_1(site_root: Path) -> None:
    build_site(site_root, jobs=1)
    before = tree(site_root / "_site")
    bad = site_root / "content/web/adr/0001-static-pages.md"
    bad.write_text(bad.read_text().replace("status: implemented", "status: maybe"))
    done = run_cli("build", "--root", str(site_root))
    assert done.returncode == 1
    assert f"{bad.as_posix()}:3: error: unknown status 'maybe'" in done.stderr
    assert tree(site_root / "_site") == before


def test_the_cli_builds_and_prints_one_summary_line(site_root: Path) -> None:
    done = run_cli("build", "--root", str(site_root), "--output", str(site_root / "out"),
                   env={"SITE_BUILDER_PROGRESS_AFTER": "600"})  # however loaded the machine
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("Built 5 records, ")
    assert (site_root / "out/decisions.json").is_file()


def test_a_build_that_fails_halfway_leaves_the_old_output_byte_identical(
        site_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_site(site_root, jobs=1)
    before = tree(site_root / "_site")
    (site_root / "content/web/adr/0001-static-pages.md").write_text(
        (site_root / "content/web/adr/0001-static-pages.md").read_text() + "\nMore text.\n")

    def broken(*args: object) -> str:
        raise RuntimeError("AGENTS.md could not be written")

    monkeypatch.setattr(artifacts, "agents_md", broken)
    with pytest.raises(RuntimeError):
        build_site(site_root, jobs=1)
    assert tree(site_root / "_site") == before
    assert siblings(site_root) == ["_site"]


def test_rebuilding_gives_identical_bytes_and_rewrites_nothing(
        built: tuple[Path, BuildResult], site_root: Path) -> None:
    site_dir, _ = built
    before, marks = tree(site_dir), stamps(site_dir)
    again = build_site(site_root, jobs=1, force=True)
    assert not again.up_to_date
    assert tree(site_dir) == before
    assert stamps(site_dir) == marks
    assert (again.changed, again.unchanged, again.removed) == (0, again.files, 0)


def test_a_no_change_rebuild_renders_no_body(built: tuple[Path, BuildResult],
                                              site_root: Path) -> None:
    again = build_site(site_root, jobs=1, force=True)
    assert (again.rendered, again.cached) == (0, 5)


def test_a_no_change_rebuild_finds_the_output_up_to_date(
        built: tuple[Path, BuildResult], site_root: Path) -> None:
    site_dir, first = built
    marks = stamps(site_dir)
    again = build_site(site_root, jobs=1)
    assert again.up_to_date
    assert (again.records, again.pages, again.files) == (first.records, first.pages,
                                                         first.files)
    assert again.rendered == again.changed == 0
    assert stamps(site_dir) == marks
    assert again.summary().startswith("Up to date: nothing changed")


@pytest.mark.parametrize("change", ["edit output", "delete output", "edit source",
                                    "add asset", "override template", "edit site.yml"])
def test_any_change_to_inputs_or_output_builds_again(
        built: tuple[Path, BuildResult], site_root: Path, change: str) -> None:
    site_dir, _ = built
    before = tree(site_dir)
    if change == "edit output":
        (site_dir / "llms.txt").write_text("tampered")
    elif change == "delete output":
        (site_dir / "platform/adr/0003-move-to-cockroachdb.md").unlink()
    elif change == "edit source":
        record = site_root / "content/web/adr/0001-static-pages.md"
        record.write_text(record.read_text().replace("Plain files.", "Only files."))
    elif change == "add asset":
        (site_root / "content/web/adr/notes.txt").write_text("n")
    elif change == "override template":
        (site_root / "templates").mkdir()
        (site_root / "templates/unused.html").write_text("x")
    else:
        config = site_root / "site.yml"
        config.write_text(config.read_text().replace("How Acme", "How ACME"))
    again = build_site(site_root, jobs=1)
    assert not again.up_to_date
    if change.endswith("output"):
        assert tree(site_dir) == before
    assert build_site(site_root, jobs=1).up_to_date


def test_an_edit_renders_only_the_edited_body(built: tuple[Path, BuildResult],
                                              site_root: Path) -> None:
    site_dir, _ = built
    record = site_root / "content/web/adr/0001-static-pages.md"
    record.write_text(record.read_text() + "\nA new paragraph.\n")
    again = build_site(site_root, jobs=1)
    # Incremental: only the pages that show the record are made, and only its body is new.
    assert again.method[0].startswith("  incremental:")
    assert again.rendered == 1
    assert "A new paragraph." in (site_dir / "web/adr/0001-static-pages/index.html").read_text()


def test_a_front_matter_edit_reuses_the_rendered_body(built: tuple[Path, BuildResult],
                                                      site_root: Path) -> None:
    record = site_root / "content/web/adr/0001-static-pages.md"
    record.write_text(record.read_text().replace("Publish static pages", "Publish files"))
    again = build_site(site_root, jobs=1)
    assert again.rendered == 0 and again.cached >= 1  # its page is made from the cached body
    assert "Publish files" in (site_root / "_site/web/adr/0001-static-pages/index.html"
                               ).read_text()


def test_a_new_link_target_renders_the_linking_body_again(built: tuple[Path, BuildResult],
                                                          site_root: Path) -> None:
    record = site_root / "content/web/adr/0001-static-pages.md"
    record.write_text(record.read_text() + "\n![chart](chart.svg)\n")
    first = build_site(site_root, jobs=1)
    assert not (site_root / "_site/web/adr/chart.svg").exists()
    (site_root / "content/web/adr/chart.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>')
    second = build_site(site_root, jobs=1)
    assert (first.rendered, second.rendered) == (1, 1)
    # Published as its cleaned copy (archive.attachments), which keeps the drawing.
    assert (site_root / "_site/web/adr/chart.svg").read_text().endswith(
        '<svg xmlns="http://www.w3.org/2000/svg"><circle r="1" /></svg>\n')
    assert 'src="../chart.svg"' in (site_root / "_site/web/adr/0001-static-pages/index.html"
                                    ).read_text()


def test_deleting_the_cache_gives_a_cold_build_with_the_same_output(
        built: tuple[Path, BuildResult], site_root: Path) -> None:
    site_dir, _ = built
    before = tree(site_dir)
    shutil.rmtree(site_root / ".site-builder")
    cold = build_site(site_root, jobs=1)
    assert (cold.rendered, cold.cached) == (5, 0)
    assert tree(site_dir) == before


def test_the_render_cache_drops_entries_no_build_needs(built: tuple[Path, BuildResult],
                                                       site_root: Path) -> None:
    def stored() -> set[str]:
        with sqlite3.connect(site_root / ".site-builder/cache/bodies/bodies.sqlite") as db:
            return {key for key, in db.execute("SELECT key FROM rendered")}

    before = stored()
    assert len(before) == 5
    record = site_root / "content/web/adr/0001-static-pages.md"
    record.write_text(record.read_text() + "\nA new paragraph.\n")
    build_site(site_root, jobs=1)
    after = stored()
    assert len(after) == 5
    assert len(before - after) == len(after - before) == 1


def _workers_always(monkeypatch: pytest.MonkeyPatch, method: str, fewest: int = 1) -> None:
    """Bodies go to workers started by `method`, however few and small (from `fewest`)."""
    monkeypatch.setattr(parallel, "start_method", lambda memory=0: method)
    for name in ("PARALLEL_FROM", "FORK_FROM"):
        monkeypatch.setattr(parallel, name, fewest)
    for name in ("PARALLEL_WEIGHT", "FORK_WEIGHT"):
        monkeypatch.setattr(parallel, name, 0)
    monkeypatch.setattr(parallel, "FORK_WEIGHT_EACH", 1)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_worker_processes_store_the_bodies_they_render(
        site_root: Path, monkeypatch: pytest.MonkeyPatch, method: str) -> None:
    _workers_always(monkeypatch, method)
    first = build_site(site_root, jobs=2)
    assert (first.rendered, first.cached) == (5, 0)
    pages = tree(site_root / "_site")
    shutil.rmtree(site_root / "_site")
    again = build_site(site_root, jobs=2)
    assert (again.rendered, again.cached) == (0, 5)  # every body from what the workers stored
    assert tree(site_root / "_site") == pages


def test_a_cache_table_of_an_earlier_version_is_dropped(site_root: Path) -> None:
    folder = site_root / ".site-builder/cache/bodies"
    folder.mkdir(parents=True)
    with sqlite3.connect(folder / "bodies.sqlite") as db:
        db.execute("CREATE TABLE bodies (key TEXT PRIMARY KEY, entry BLOB NOT NULL)")
        db.execute("INSERT INTO bodies VALUES ('k', x'00')")
    built = build_site(site_root, jobs=1)
    assert built.rendered == 5
    with sqlite3.connect(folder / "bodies.sqlite") as db:
        tables = {name for name, in db.execute("SELECT name FROM sqlite_master")}
    assert "bodies" not in tables and "rendered" in tables


def test_a_cache_left_by_an_earlier_version_is_removed(built: tuple[Path, BuildResult],
                                                      site_root: Path) -> None:
    old = site_root / ".site-builder/cache/bodies/ab/ab12.json"
    old.parent.mkdir()
    old.write_text("{}")
    build_site(site_root, jobs=1, force=True)
    assert not old.parent.exists()
    assert (site_root / ".site-builder/cache/bodies/bodies.sqlite").is_file()


def test_an_unreadable_cache_is_replaced(built: tuple[Path, BuildResult],
                                         site_root: Path) -> None:
    site_dir, _ = built
    before = tree(site_dir)
    for leftover in (site_root / ".site-builder/cache/bodies").glob("bodies.sqlite*"):
        leftover.unlink()
    (site_root / ".site-builder/cache/bodies/bodies.sqlite").write_bytes(b"not a database" * 99)
    again = build_site(site_root, jobs=1, force=True)
    assert (again.rendered, again.cached) == (5, 0)
    assert tree(site_dir) == before


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_worker_processes_build_the_same_site(example_root: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              method: str) -> None:
    _workers_always(monkeypatch, method, fewest=4)
    alone = build_site(example_root, output=tmp_path / "alone", jobs=1, cache=False)
    pooled = build_site(example_root, output=tmp_path / "pooled", jobs=2)
    assert pooled.rendered == alone.rendered == alone.records > 16
    assert tree(tmp_path / "alone") == tree(tmp_path / "pooled")


def test_the_output_may_not_hold_the_sources(site_root: Path) -> None:
    for folder in (site_root, site_root / "content", site_root / "content/web",
                   site_root / ".site-builder", site_root.parent):
        with pytest.raises(UnsafeOutput):
            build_site(site_root, output=folder, jobs=1)
    assert (site_root / "content/web/adr/0001-static-pages.md").is_file()


def test_a_progress_callback_hears_the_stages(site_root: Path) -> None:
    heard: list[str] = []
    build_site(site_root, jobs=1, progress=lambda stage, done, total: heard.append(stage))
    assert heard[0] == "loading records"
    assert {"writing pages", "finishing"} <= set(heard)


def test_an_edit_in_a_path_source_builds_again(example_root: Path) -> None:
    build_site(example_root, jobs=1)
    assert build_site(example_root, jobs=1).up_to_date
    record = next((example_root / "shared-decisions").rglob("0001-*.md"))
    record.write_text(record.read_text() + "\nEdited in the source.\n")
    again = build_site(example_root, jobs=1)
    assert (again.up_to_date, again.rendered) == (False, 1)


@pytest.mark.parametrize(("method", "jobs", "index_first"),
                         [("fork", 2, False), ("spawn", 2, True), ("fork", 1, True)])
def test_the_search_index_is_written_while_this_process_would_wait(
        example_root: Path, monkeypatch: pytest.MonkeyPatch, method: str, jobs: int,
        index_first: bool) -> None:
    """Computed by a forked worker, the index is taken once the pages are written; computed
    here, it comes first, while the body workers render (at 10,000 records, 3.5 s that the
    workers would otherwise have idled through at the end)."""
    from site_builder.render.writing import write_site
    from site_builder.sources.load import load_archive

    _workers_always(monkeypatch, method, fewest=4)
    archive = load_archive(example_root)
    out = MemorySite()
    write_site(archive, out, jobs=jobs)
    order = list(out.files)  # as written
    manifest = order.index("assets/search/manifest.json")
    pages = [at for at, rel in enumerate(order)
             if rel.endswith("/index.html") and rel.count("/") == 3]
    assert len(pages) == len(archive.records)
    assert (manifest < pages[0]) if index_first else (manifest > pages[-1])
