"""The preview's files in memory: single edits, whole rebuilds, and compression."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.serve.store import SiteStore, Stored


def test_put_says_whether_the_file_changed() -> None:
    store = SiteStore()
    assert store.put("a/index.html", "<p>one</p>")
    assert not store.put("a/index.html", b"<p>one</p>")
    assert store.put("a/index.html", [b"<p>", b"two</p>"])
    assert store.get("a/index.html").content() == b"<p>two</p>"
    assert store.is_folder("a") and not store.is_folder("b")
    assert store.delete("a/index.html") and not store.delete("a/index.html")


def test_large_text_is_kept_compressed_and_comes_back_as_written() -> None:
    text = ("Decisions, decisions. " * 200).encode()
    stored = Stored.of("llms.txt", text)
    assert stored.gzipped and len(stored.data) < len(text) // 4
    assert stored.content() == text
    assert Stored.of("llms.txt", text) == stored  # same text, same bytes: cheap comparison
    assert not Stored.of("logo.png", text).gzipped
    assert not Stored.of("tiny.txt", b"short").gzipped


def test_a_full_rebuild_replaces_everything_at_commit(tmp_path: Path) -> None:
    store = SiteStore()
    store.put("old.html", "old")
    store.put("same.md", "same")
    staged = store.staged()
    staged.write("same.md", "same")
    staged.write("new/index.html", "new")
    asset = tmp_path / "flow.svg"
    asset.write_bytes(b"<svg/>")
    staged.copy("demo/flow.svg", asset)
    assert staged.exists("new/index.html") and store.get("new/index.html") is None
    changed = staged.commit()
    assert sorted(changed) == ["demo/flow.svg", "new/index.html", "old.html"]
    assert store.get("old.html") is None
    assert store.html_pages() == {"new/index.html"}


@pytest.mark.parametrize("path", ["", "/abs", "../up", "a/../b", "a//b", "a\\b", "./a"])
def test_only_paths_inside_the_site_are_written(path: str) -> None:
    with pytest.raises(ValueError):
        SiteStore().put(path, "x")
    with pytest.raises(ValueError):
        SiteStore().staged().write(path, "x")

