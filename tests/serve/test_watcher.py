"""File events become change kinds, and a burst of them becomes one batch."""

from __future__ import annotations

import os
import time
from pathlib import Path

from site_builder.config.site import load_config
from site_builder.render.pages.theme import builtin_folder
from site_builder.serve.watcher import ChangeKind, Layout, Watcher, is_litter

RECORD = "content/demo/adr/0001-write-records-in-markdown.md"


def _layout(root: Path) -> Layout:
    config, _ = load_config(root)
    assert config is not None
    return Layout.of(config)


def test_each_file_of_an_archive_has_its_kind(site: Path) -> None:
    layout = _layout(site)
    assert layout.kind(site / "site.yml") == ChangeKind.CONFIG
    assert layout.kind(site / RECORD) == ChangeKind.RECORD
    assert layout.kind(site / "content/demo/adr/0009-new.md") == ChangeKind.RECORD
    assert layout.kind(site / "content/demo/_project.yml") == ChangeKind.CONTENT
    assert layout.kind(site / "content/demo/adr/diagram.svg") == ChangeKind.CONTENT
    assert layout.kind(site / "templates/record.html") == ChangeKind.THEME
    assert layout.kind(site / "theme/site.css") == ChangeKind.THEME
    assert layout.kind(site / "templates") == ChangeKind.THEME
    assert layout.kind(builtin_folder("templates") / "base.html") == ChangeKind.THEME


def test_editor_litter_and_build_output_are_not_changes(site: Path) -> None:
    layout = _layout(site)
    for name in (".0001-x.md.swp", "0001-x.md~", "4913", "#0001-x.md#", ".#0001-x.md",
                 "0001-x.md.tmp"):
        assert is_litter(name)
        assert layout.kind(site / "content/demo/adr" / name) is None
    assert layout.kind(site / "_site/index.html") is None
    assert layout.kind(site / ".site-builder/cache/bodies/ab/x.json") is None
    assert layout.kind(site / "README.md") is None
    assert layout.kind(site / ".git/index") is None


def test_an_archive_whose_content_is_its_root_ignores_what_builds_write(site: Path) -> None:
    config = site / "site.yml"
    config.write_text(config.read_text().replace("content: content", "content: ."))
    layout = _layout(site)
    assert layout.kind(site / "_site/demo/adr/0001-x.md") is None
    assert layout.kind(site / ".site-builder/serve/x.md") is None
    assert layout.kind(site / "demo/adr/0001-x.md") == ChangeKind.RECORD


def test_a_save_through_a_temporary_file_is_one_batch(site: Path) -> None:
    watcher = Watcher(_layout(site))
    watcher.start()
    try:
        time.sleep(0.2)  # inotify watches are in place once start() returns; a margin
        record = site / RECORD
        temporary = record.with_name(f".{record.name}.tmp1234")
        temporary.write_text(record.read_text() + "\nMore.\n")
        os.replace(temporary, record)
        batch = watcher.next_batch(timeout=10)
        assert batch == {record: ChangeKind.RECORD}
        assert watcher.next_batch(timeout=0.3) == {}
    finally:
        watcher.stop()


def test_changes_of_several_kinds_in_one_burst_are_one_batch(site: Path) -> None:
    watcher = Watcher(_layout(site))
    watcher.start()
    try:
        time.sleep(0.2)
        (site / "content/demo/_project.yml").write_text("name: Demo again\n")
        (site / "site.yml").write_text((site / "site.yml").read_text() + "\n")
        batch = watcher.next_batch(timeout=10)
        deadline = time.monotonic() + 5
        while len(batch) < 2 and time.monotonic() < deadline:
            batch |= watcher.next_batch(timeout=1)
        assert batch == {site / "content/demo/_project.yml": ChangeKind.CONTENT,
                         site / "site.yml": ChangeKind.CONFIG}
        assert max(batch.values()) == ChangeKind.CONFIG
    finally:
        watcher.stop()
