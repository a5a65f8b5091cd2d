"""FolderChanges: the kernel's word on whether the content folder changed since last time.

The first two tests are about inotify, so Linux (where CI runs); elsewhere FolderChanges is
inactive and every look re-reads, which the last tests cover on every system.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from site_builder.access.changes import FolderChanges
from site_builder.access.source import LocalSource
from site_builder.config.site import load_config


def one_record(tmp_path: Path) -> tuple[Path, Path]:
    """A content folder holding one record file, and that file."""
    content = tmp_path / "content"
    (content / "p" / "adr").mkdir(parents=True)
    record = content / "p" / "adr" / "0001-a.md"
    record.write_text("one", encoding="utf-8")
    return content, record


def test_quiet_until_something_is_written(tmp_path: Path):
    content, record = one_record(tmp_path)
    changes = FolderChanges([content])
    assert changes.active
    assert changes.changed() is False
    record.read_text(encoding="utf-8")  # reading is not changing
    assert changes.changed() is False
    record.write_text("two", encoding="utf-8")
    assert changes.changed() is True
    assert changes.changed() is False  # the notice was consumed
    os.utime(record, (1, 1))
    assert changes.changed() is True
    (tmp_path / "site.yml").write_text("title: x\n", encoding="utf-8")
    assert changes.changed() is False  # beside the content folder, not in it


def test_new_folders_are_watched_after_the_next_look(tmp_path: Path):
    content = tmp_path / "content"
    content.mkdir()
    changes = FolderChanges([content])
    folder = content / "q" / "rfc"
    folder.mkdir(parents=True)
    assert changes.changed() is True
    changes.watch()
    (folder / "0001-b.md").write_text("x", encoding="utf-8")
    assert changes.changed() is True
    os.rename(content, tmp_path / "moved")
    assert changes.changed() is True


def test_without_the_kernels_help_every_look_says_changed(tmp_path: Path):
    changes = FolderChanges([tmp_path])
    changes.close()
    assert changes.active is False
    assert changes.changed() is True and changes.changed() is True


def test_local_source_reuses_one_archive_until_a_file_changes(
        fixture_archive: Callable[[str], Path]):
    root = fixture_archive("mcp-lineage")
    config, _ = load_config(root)
    logged: list[str] = []
    source = LocalSource(config, log=logged.append)
    first = source.archive()
    assert source.archive() is first
    assert any("number 0004 is used by 2 records" in line for line in logged)
    count = len(logged)
    record = root / "content" / "core" / "adr" / "0001-use-postgres.md"
    record.write_text(record.read_text(encoding="utf-8").replace("Use PostgreSQL", "Use PG"),
                      encoding="utf-8")
    second = source.archive()
    assert second is not first and second.get("core/adr/1").title == "Use PG"
    assert len(logged) == count  # the same problems are not logged twice
    (root / "content" / "core" / "adr" / "0004-cache-in-process.md").unlink()
    source.archive()
    assert logged[-1] == "the archive reads cleanly again"


def test_local_source_without_inotify_still_sees_edits(fixture_archive: Callable[[str], Path]):
    root = fixture_archive("mcp-lineage")
    config, _ = load_config(root)
    source = LocalSource(config, log=lambda message: None)
    source._changes.close()  # as on a system without inotify
    assert source.archive().get("core/adr/3").status == "adopted"
    record = root / "content" / "core" / "adr" / "0003-run-postgres-as-a-managed-service.md"
    record.write_text(record.read_text(encoding="utf-8").replace("status: adopted",
                                                                "status: dropped!"),
                      encoding="utf-8")
    assert source.archive().get("core/adr/3").status == "dropped!"


def test_edits_in_place_are_named_and_anything_else_is_not(tmp_path: Path):
    content, record = one_record(tmp_path)
    changes = FolderChanges([content])
    assert changes.edited() == set()
    record.write_text("two", encoding="utf-8")
    assert changes.edited() == {record}
    (content / "p" / "adr" / "0002-b.md").write_text("new", encoding="utf-8")
    assert changes.edited() is None  # a new file: the caller lists the folders again
    record.rename(content / "p" / "adr" / "0003-c.md")
    assert changes.edited() is None
    changes.close()
    assert changes.edited() is None


def test_an_edit_that_keeps_size_and_mtime_is_still_seen(
        fixture_archive: Callable[[str], Path]):
    # As when two writes land within one tick of a coarse file-system clock: the loader's
    # (size, mtime) stamp cannot tell them apart, the kernel's notice can.
    root = fixture_archive("mcp-lineage")
    config, _ = load_config(root)
    source = LocalSource(config, log=lambda message: None)
    record = root / "content" / "core" / "adr" / "0001-use-postgres.md"
    before = os.stat(record)
    assert source.archive().get("core/adr/1").title == "Use PostgreSQL"
    record.write_text(record.read_text(encoding="utf-8").replace("Use PostgreSQL",
                                                                "Use PostgreSQX"),
                      encoding="utf-8")
    os.utime(record, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(record).st_size == before.st_size
    assert source.archive().get("core/adr/1").title == "Use PostgreSQX"
