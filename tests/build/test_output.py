"""output.Output: the one writer stages a build and swaps it in, or leaves the old output."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from site_builder.build.output import Output


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def build(target: Path, files: dict[str, str]) -> Output:
    with Output(target) as out:
        for rel, text in files.items():
            out.write(rel, text)
        out.commit()
    return out


def test_a_committed_build_replaces_the_output_and_drops_stale_files(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    build(site, {"index.html": "one", "old/page.html": "gone soon"})
    out = build(site, {"index.html": "two", "new/page.html": "new"})
    assert tree(site) == {"index.html": b"two", "new/page.html": b"new"}
    assert (out.changed, out.unchanged, out.removed) == (2, 0, 1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_site"]


def test_unchanged_files_are_not_rewritten(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    build(site, {"same.txt": "same", "changes.txt": "v1"})
    past = 1_000_000_000
    for name in ("same.txt", "changes.txt"):
        os.utime(site / name, ns=(past, past))
    inode = (site / "same.txt").stat().st_ino
    out = build(site, {"same.txt": "same", "changes.txt": "v2"})
    assert (site / "same.txt").stat().st_mtime_ns == past
    assert (site / "same.txt").stat().st_ino == inode
    assert (site / "changes.txt").stat().st_mtime_ns != past
    assert (out.changed, out.unchanged) == (1, 1)


def test_copies_of_unchanged_files_keep_their_mtime(tmp_path: Path) -> None:
    source = tmp_path / "logo.png"
    source.write_bytes(b"\x89PNG")
    site = tmp_path / "_site"
    for _ in range(2):
        with Output(site) as out:
            out.copy("img/logo.png", source)
            out.commit()
        os.utime(site / "img/logo.png", ns=(7_000_000_000, 7_000_000_000))
    assert out.unchanged == 1
    assert (site / "img/logo.png").stat().st_mtime_ns == 7_000_000_000


def test_a_build_that_fails_leaves_the_old_output_byte_identical(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    build(site, {"index.html": "good", "a/b.html": "kept"})
    before = tree(site)
    with pytest.raises(RuntimeError), Output(site) as out:
        out.write("index.html", "half-built")
        raise RuntimeError("a template failed")
    assert tree(site) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_site"]


def test_paths_outside_the_site_and_double_writes_are_refused(tmp_path: Path) -> None:
    with Output(tmp_path / "_site") as out:
        for bad in ("../escape.html", "/etc/passwd", "a/../b.html", "", "a//b"):
            with pytest.raises(ValueError):
                out.write(bad, "x")
        out.write("index.html", "x")
        with pytest.raises(ValueError, match="twice"):
            out.write("index.html", "y")


def test_staging_folders_of_killed_builds_are_removed(tmp_path: Path) -> None:
    dead = tmp_path / "_site.tmp-999999999"
    dead.mkdir()
    (dead / "junk.html").write_text("junk")
    build(tmp_path / "_site", {"index.html": "x"})
    assert not dead.exists()
