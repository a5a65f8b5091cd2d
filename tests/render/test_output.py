"""output.Output: the one writer stages a build and swaps it in, or leaves the old output."""

from __future__ import annotations

import errno
import os
import shutil
import signal
from pathlib import Path

import pytest

from site_builder.render.output.journal import Commit, recover
from site_builder.render.output.writer import Output, OutputError


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


def test_a_page_may_become_a_folder_and_a_folder_a_page(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    build(site, {"a": "file", "b/index.html": "page"})
    build(site, {"a/index.html": "now a folder", "b": "now a file"})
    assert tree(site) == {"a/index.html": b"now a folder", "b": b"now a file"}


def test_a_new_output_folder_is_the_staging_folder_renamed(tmp_path: Path) -> None:
    out = build(tmp_path / "deep/_site", {"x/y.txt": "y"})
    assert tree(tmp_path / "deep/_site") == {"x/y.txt": b"y"}
    assert (out.changed, out.removed) == (1, 0)


def test_stale_folders_are_removed_with_their_files(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    build(site, {"keep.txt": "k", "gone/deeper/page.html": "p"})
    out = build(site, {"keep.txt": "k"})
    assert sorted(p.name for p in site.iterdir()) == ["keep.txt"]
    assert out.removed == 1


def test_large_files_can_be_written_in_chunks(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    for parts in ([b"ab", b"cd"], [b"a", b"bcd"], [b"abc", b"de"], [b"ab"]):
        with Output(site) as out:
            out.write("big.txt", iter(parts))
            out.commit()
        assert (site / "big.txt").read_bytes() == b"".join(parts)
    with Output(site) as out:
        out.write("big.txt", iter([b"a", b"b"]))
        out.commit()
    assert (out.changed, out.unchanged) == (0, 1)


OLD = {"index.html": "old", "a": "a file", "b/index.html": "page b", "same.txt": "same",
       "gone/deep/x.html": "x", "c/keep.html": "k1", "c/drop.html": "d"}
NEW = {"index.html": "new", "a/index.html": "a folder now", "b": "b a file now",
       "same.txt": "same", "c/keep.html": "k2", "n/new.html": "n"}


def commit_killed_at(site: Path, files: dict[str, str], step: int, logged: bool) -> bool:
    """Commit `files` into `site` in a forked child that SIGKILLs itself at its `step`th
    journal step (before the line is written, or after it and before the step, when
    `logged`); returns whether it was killed (False: the commit had fewer steps)."""
    child = os.fork()
    if child == 0:  # pragma: no cover - the child ends by os._exit or SIGKILL
        try:
            taken = 0
            log = Commit._log

            def dying(self: Commit, kind: str, rel: str) -> None:
                nonlocal taken
                if taken == step and not logged:
                    os.kill(os.getpid(), signal.SIGKILL)
                log(self, kind, rel)
                if taken == step:
                    os.kill(os.getpid(), signal.SIGKILL)
                taken += 1

            Commit._log = dying  # type: ignore[method-assign]
            build(site, files)
        finally:
            os._exit(0)
    _, status = os.waitpid(child, 0)
    return os.WIFSIGNALED(status)


@pytest.fixture
def no_exchange(monkeypatch: pytest.MonkeyPatch) -> None:
    """A system without renameat2: commits go through the journal."""
    from site_builder.render.output import exchange

    monkeypatch.setattr(exchange, "_CALL", None)


@pytest.mark.usefixtures("no_exchange")
@pytest.mark.parametrize("logged", [False, True])
def test_a_commit_killed_at_any_step_is_undone_by_the_next_build(tmp_path: Path,
                                                                  logged: bool) -> None:
    old_tree = {rel: text.encode() for rel, text in OLD.items()}
    new_tree = {rel: text.encode() for rel, text in NEW.items()}
    site = tmp_path / "_site"
    step = mixed = 0
    while True:
        shutil.rmtree(site, ignore_errors=True)
        build(site, OLD)
        killed = commit_killed_at(site, NEW, step, logged)
        if not killed:
            break
        mixed += tree(site) not in (old_tree, new_tree)
        assert recover(site) == 1
        assert tree(site) == old_tree, f"killed at step {step}"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["_site"]
        step += 1
    assert step > 10  # every step of a commit with replaced, moved and stale files
    assert mixed > step // 2  # most kills left a mixed site for the undo to mend
    assert tree(site) == new_tree
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_site"]


@pytest.mark.usefixtures("no_exchange")
def test_a_refused_step_undoes_the_commit_at_once(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "_site"
    build(site, OLD)
    calls = 0
    place = Commit.place

    def refusing(self: Commit, rel: str) -> None:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(self.target / rel))
        place(self, rel)

    monkeypatch.setattr(Commit, "place", refusing)
    with pytest.raises(OutputError, match=r"cannot write .*_site/.*: Input/output error; "
                                          r"the previous output is unchanged"):
        build(site, NEW)
    assert tree(site) == {rel: text.encode() for rel, text in OLD.items()}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_site"]


# ---- the whole-site exchange (renameat2) and its fallback ------------------------------------

def test_an_existing_output_is_exchanged_whole_with_unchanged_files_linked(
        tmp_path: Path) -> None:
    site = tmp_path / "_site"
    build(site, {"same/index.html": "same", "changes.txt": "v1", "gone.txt": "x"})
    before = site.stat().st_ino
    kept = (site / "same/index.html").stat()
    out = build(site, {"same/index.html": "same", "changes.txt": "v2"})
    assert out.method == "exchange" and out.why_not_exchange is None
    assert site.stat().st_ino != before  # another folder now has the name
    now = (site / "same/index.html").stat()
    assert (now.st_ino, now.st_mtime_ns) == (kept.st_ino, kept.st_mtime_ns)
    assert tree(site) == {"same/index.html": b"same", "changes.txt": b"v2"}
    assert (out.changed, out.unchanged, out.removed) == (1, 1, 1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_site"]


def test_a_build_that_changes_nothing_exchanges_nothing(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    build(site, {"a.txt": "a", "b/c.txt": "c"})
    before = site.stat().st_ino
    with Output(site) as out:
        out.write("a.txt", "a")
        out.keep("b/c.txt")
        out.commit()
    assert out.method == "unchanged" and site.stat().st_ino == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_site"]


def test_a_kept_file_is_in_the_new_site_unread(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    build(site, {"kept.txt": "old bytes", "other.txt": "v1"})
    with Output(site) as out:
        out.keep("kept.txt")
        out.write("other.txt", "v2")
        out.commit()
    assert tree(site) == {"kept.txt": b"old bytes", "other.txt": b"v2"}
    assert out.unchanged == 1


@pytest.mark.usefixtures("no_exchange")
def test_without_renameat2_the_journal_commits_and_says_why(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    build(site, {"same.txt": "same", "changes.txt": "v1"})
    before = site.stat().st_ino
    out = build(site, {"same.txt": "same", "changes.txt": "v2"})
    assert out.method == "journal"
    assert out.why_not_exchange == "renameat2 is not available on this system"
    assert site.stat().st_ino == before  # the files moved in, the folder stayed
    assert tree(site) == {"same.txt": b"same", "changes.txt": b"v2"}


def test_a_mount_point_is_never_exchanged(tmp_path: Path) -> None:
    from site_builder.render.output.exchange import unavailable

    why = unavailable(Path("/dev/shm"), tmp_path / "stage", tmp_path / "probe")
    assert why == "/dev/shm is a mount point"
    assert list(tmp_path.iterdir()) == []


def test_the_spare_site_is_mended_in_place_and_never_written_through(tmp_path: Path) -> None:
    site, spare_site = tmp_path / "_site", tmp_path / "cache/spare/_site"
    first = {"a/index.html": "a1", "b.txt": "b1", "c/index.html": "c1", "d.txt": "d1"}
    with Output(site, spare_site) as out:  # no output yet: staged and renamed
        for rel, text in first.items():
            out.write(rel, text)
        out.commit()
    # The spare as a kill may leave it: a kept file's link replaced by other bytes, a file
    # linked to the live one where new bytes go, a folder where a file goes, leftovers.
    spare_site.mkdir(parents=True)
    (spare_site / "a").mkdir()
    (spare_site / "a/index.html").write_text("garbage")
    os.link(site / "b.txt", spare_site / "b.txt")
    (spare_site / "d.txt").mkdir()
    (spare_site / "leftover").mkdir()
    (spare_site / "leftover/x.txt").write_text("x")
    live = tree(site)
    with Output(site, spare_site) as out:
        assert out.reuses_spare
        out.keep("a/index.html")
        out.write("b.txt", "b2")
        out.write("c/index.html", "c1")
        out.write("d.txt", "d2")
        out.write("e/new.txt", "e")
        assert tree(site) == live  # nothing written through a link into the live site
        out.commit()
    assert out.method == "exchange"
    assert tree(site) == {"a/index.html": b"a1", "b.txt": b"b2", "c/index.html": b"c1",
                          "d.txt": b"d2", "e/new.txt": b"e"}
    assert tree(spare_site) == live  # the old site, kept whole as the next spare
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_site", "cache"]
