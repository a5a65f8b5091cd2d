"""Loading a content folder: what is read, what is left out, and what a reload reparses."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.archive import record_file
from site_builder.archive.loader import LoaderCache
from site_builder.sources.load import load_archive


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The file names `parse_record` is called for, in order."""
    calls: list[str] = []
    real = record_file.parse_record

    def counting(text, ctx):
        calls.append(ctx.file_name)
        return real(text, ctx)

    monkeypatch.setattr(record_file, "parse_record", counting)
    return calls


def touch_later(path: Path) -> None:
    """Move the file's mtime on, as an editor saving it a little later would."""
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))


def test_a_second_load_of_an_unchanged_archive_reparses_nothing(
        fixture_archive: Callable[[str], Path], parses: list[str]) -> None:
    root = fixture_archive("lineage")
    cache = LoaderCache()
    first = load_archive(root, cache=cache)
    assert len(parses) == 11
    parses.clear()
    second = load_archive(root, cache=cache)
    assert parses == []
    assert second is first  # and nothing derived is recomputed either
    assert len(cache.files) == 11


def test_an_edited_file_is_reparsed_and_only_it(
        fixture_archive: Callable[[str], Path], parses: list[str]) -> None:
    root = fixture_archive("lineage")
    cache = LoaderCache()
    load_archive(root, cache=cache)
    parses.clear()
    path = root / "content/p/adr/0009-alone.md"
    path.write_text(path.read_text().replace("title: Alone", "title: Alone, edited"))
    archive = load_archive(root, cache=cache)
    assert parses == ["0009-alone.md"]
    assert archive.get("p/adr/9").title == "Alone, edited"


def test_a_same_size_edit_is_seen_through_the_mtime(
        fixture_archive: Callable[[str], Path], parses: list[str]) -> None:
    root = fixture_archive("lineage")
    cache = LoaderCache()
    load_archive(root, cache=cache)
    parses.clear()
    path = root / "content/p/adr/0009-alone.md"
    path.write_text(path.read_text().replace("title: Alone", "title: Alane"))
    touch_later(path)
    assert load_archive(root, cache=cache).get("p/adr/9").title == "Alane"
    assert parses == ["0009-alone.md"]


def test_added_and_deleted_files(fixture_archive: Callable[[str], Path],
                                 parses: list[str]) -> None:
    root = fixture_archive("lineage")
    cache = LoaderCache()
    load_archive(root, cache=cache)
    parses.clear()
    (root / "content/p/adr/0011-open.md").unlink()
    (root / "content/p/adr/0012-new.md").write_text(
        "---\ntitle: New\nstatus: proposed\ndate: 2026-05-01\ndescription: New.\n---\n")
    archive = load_archive(root, cache=cache)
    assert parses == ["0012-new.md"]
    assert "p/adr/0011-open" not in archive.by_id
    assert archive.get("p/adr/12").title == "New"
    assert not [path for path in cache.files if path.endswith("0011-open.md")]


def test_a_changed_site_yml_reparses_what_depends_on_it(
        fixture_archive: Callable[[str], Path], parses: list[str]) -> None:
    root = fixture_archive("lineage")
    cache = LoaderCache()
    path = root / "content/p/adr/0011-open.md"
    path.write_text(path.read_text().replace("status: proposed", "status: draft-review"))
    assert [f.message for f in load_archive(root, cache=cache).findings] == [
        "unknown status 'draft-review' (one of accepted, deprecated, implemented, proposed, "
        "rejected, superseded)"]
    (root / "site.yml").write_text(
        "title: Lineage\nstatuses:\n  - {name: draft-review, open: true}\n"
        "  - {name: accepted, current: true}\n  - {name: implemented, current: true}\n"
        "  - deprecated\n  - rejected\n  - superseded\n")
    parses.clear()
    archive = load_archive(root, cache=cache)
    assert archive.findings == ()
    assert len(parses) == 11


def test_drafts_are_excluded_from_everything(tmp_path: Path) -> None:
    root = tmp_path / "drafts"
    folder = root / "content/p/adr"
    folder.mkdir(parents=True)
    (root / "site.yml").write_text("title: Drafts\n")
    (folder / "0001-published.md").write_text(
        "---\ntitle: Published\nstatus: accepted\ndate: 2026-01-01\ndescription: Yes.\n"
        "related: [p/adr/0002-idea]\n---\nSee [the idea](0002-idea.md).\n")
    (folder / "0002-idea.md").write_text(
        "---\ntitle: Idea\nstatus: nonsense\ndate: 2026-99-99\ndraft: true\n---\n")
    (folder / "0001-same-number-draft.md").write_text("---\ntitle: X\ndraft: true\n---\n")
    archive = load_archive(root)
    assert [r.id for r in archive.records] == ["p/adr/0001-published"]
    assert archive.candidates("p/adr/2") == []
    # The draft's own errors and its number are not reported; links to it are missing records.
    assert [(f.path.name, f.line, f.message) for f in archive.findings] == [
        ("0001-published.md", 6, "'related' refers to a missing record: p/adr/0002-idea"),
        ("0001-published.md", 8, "link to a missing record: 0002-idea.md "
                                 "(that file is a draft or not a valid record)"),
    ]


def test_a_missing_content_folder(tmp_path: Path) -> None:
    (tmp_path / "site.yml").write_text("title: Empty\ncontent: decisions\n")
    archive = load_archive(tmp_path)
    assert [(f.path.name, f.message) for f in archive.findings] == [
        ("decisions", "content folder decisions does not exist")]


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "site.yml").write_text("title: Latin-1\n")
    folder = tmp_path / "content/p/adr"
    folder.mkdir(parents=True)
    (folder / "0001-cafe.md").write_bytes(b"---\ntitle: Caf\xe9\n---\n")
    (folder / "0002-ok.md").write_text(
        "---\ntitle: Ok\nstatus: accepted\ndate: 2026-01-01\ndescription: Fine.\n---\n")
    archive = load_archive(tmp_path)
    assert [(f.path.name, f.line, f.message) for f in archive.findings] == [
        ("0001-cafe.md", 1, "not UTF-8 text (invalid continuation byte)")]
    assert [r.title for r in archive.records] == ["Ok"]


def test_project_files_and_custom_fields(tmp_path: Path) -> None:
    (tmp_path / "site.yml").write_text(
        "title: Fields\nfields:\n  - {name: risk, type: enum, values: [low, high]}\n")
    folder = tmp_path / "content/pay/adr"
    folder.mkdir(parents=True)
    (tmp_path / "content/pay/_project.yml").write_text(
        "name: Payments\nowners: ana\norder: 2\nfields:\n"
        "  - {name: pci, type: boolean, label: PCI scope}\n"
        "  - {name: since, type: date}\n")
    (folder / "0001-x.md").write_text(
        "---\ntitle: X\nstatus: accepted\ndate: 2026-01-01\ndescription: X.\nrisk: low\n"
        "pci: true\nsince: 2025-12-01\n---\n")
    archive = load_archive(tmp_path)
    assert archive.findings == ()
    project = archive.projects["pay"]
    assert (project.name, project.owners, project.order) == ("Payments", ("ana",), 2)
    assert [f.name for f in project.fields] == ["pci", "since"]
    record = archive.get("PAY-ADR-0001")
    assert record.field_values == {"risk": "low", "pci": True, "since": dt.date(2025, 12, 1)}
    assert [f.name for f in archive.fields_for(record)] == ["risk", "pci", "since"]


def test_dot_folders_and_other_files_are_ignored(tmp_path: Path) -> None:
    (tmp_path / "site.yml").write_text("title: Quiet\n")
    folder = tmp_path / "content/p/adr"
    folder.mkdir(parents=True)
    (folder / "0001-x.md").write_text(
        "---\ntitle: X\nstatus: accepted\ndate: 2026-01-01\ndescription: X.\n---\n")
    (folder / "diagram.png").write_bytes(b"\x89PNG")
    (tmp_path / "content/.git").mkdir()
    (tmp_path / "content/.git/notes.md").write_text("# not content\n")
    (tmp_path / "content/p/.obsidian").mkdir()
    (tmp_path / "content/p/.obsidian/x.md").write_text("# editor state\n")
    assert load_archive(tmp_path).findings == ()
