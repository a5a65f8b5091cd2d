"""The loader's parses kept between runs: a new process parses only the files that changed,
reads the same archive as a cold load, and treats a kept file it cannot trust as a miss."""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.archive.archive import Archive
from site_builder.archive.body_files import RecordChanged
from site_builder.archive.loader import LoaderCache
from site_builder.archive.loader_cache import KEPT_FILE
from site_builder.base.kept import KeptFile
from site_builder.sources.load import load_archive
from tests.archive import test_body_files

RECORD = "content/p/adr/0012-linking.md"
LINKED = f"{test_body_files.LINKED}And [nothing](0404-missing.md).\n"


@pytest.fixture
def archive_root(fixture_archive: Callable[[str], Path]) -> Path:
    """An archive with lineage and a record with links, one of them broken (a finding)."""
    root = fixture_archive("lineage")
    (root / RECORD).write_text(LINKED)
    return root


def _one_off(root: Path) -> Archive:
    """A load as a new process of `build` makes it: a fresh cache, kept afterwards."""
    cache = LoaderCache(bodies_on_disk=True, kept=True)
    archive = load_archive(root, cache=cache)
    cache.keep(archive.config, create=True)
    return archive


def _same(one: Archive, other: Archive) -> None:
    assert [repr(r) for r in one.records] == [repr(r) for r in other.records]
    assert [one.body(r) for r in one.records] == [other.body(r) for r in other.records]
    assert [r.links for r in one.records] == [r.links for r in other.records]
    assert one.findings == other.findings


def _kept_file(root: Path) -> Path:
    return root / ".site-builder" / "cache" / KEPT_FILE


def test_a_new_process_parses_only_the_file_that_changed(
        archive_root: Path, parses: list[Path]) -> None:
    root = archive_root
    first = _one_off(root)
    assert len(parses) == len(first.records) and _kept_file(root).is_file()
    parses.clear()
    _same(_one_off(root), first)
    assert parses == []  # everything came from the kept file
    path = root / RECORD
    path.write_text(path.read_text().replace("See [the first]", "Read [the first]"))
    edited = _one_off(root)
    assert parses == [path]
    _same(edited, load_archive(root, cache=LoaderCache(bodies_on_disk=True)))
    assert "Read [the first]" in edited.body(edited.by_id["p/adr/0012-linking"])


def test_a_removed_and_an_added_file_are_seen(
        archive_root: Path, parses: list[Path]) -> None:
    root = archive_root
    _one_off(root)
    added = root / "content" / "p" / "adr" / "0099-added.md"
    added.write_text((root / RECORD).read_text().replace("title: Linking", "title: Added"))
    (root / RECORD).unlink()
    parses.clear()
    archive = _one_off(root)
    assert parses == [added]
    assert "p/adr/0099-added" in archive.by_id and "p/adr/0012-linking" not in archive.by_id
    _same(_one_off(root), archive)


def test_a_long_lived_process_recalls_the_parses_and_holds_the_bodies_it_reads(
        archive_root: Path, parses: list[Path]) -> None:
    root = archive_root
    cold = _one_off(root)
    parses.clear()
    cache = LoaderCache(kept=True)
    served = load_archive(root, cache=cache)
    assert parses == []
    _same(served, cold)
    record = served.by_id["p/adr/0012-linking"]
    body = served.body(record)
    (root / RECORD).write_text("---\ntitle: Changed meanwhile\n---\n")
    assert served.body(record) == body  # held, as a long-lived process's bodies are


def test_a_body_not_read_before_its_file_changed_is_never_taken_for_the_old_one(
        archive_root: Path, parses: list[Path]) -> None:
    """Reading it fails, and the next load (a server's, on the change notice) parses the
    file again."""
    root = archive_root
    _one_off(root)
    cache = LoaderCache(kept=True)
    served = load_archive(root, cache=cache)
    other = next(r for r in served.records if r.body_file is not None)
    assert other.body_file is not None and other.body_file.text is None  # not read yet
    other.path.write_text(other.path.read_text() + "\nAn edit made meanwhile.\n")
    with pytest.raises(RecordChanged):
        served.body(other)
    parses.clear()
    again = load_archive(root, cache=cache)
    assert other.path in parses
    assert "An edit made meanwhile." in again.body(again.by_id[other.id])


def test_a_long_lived_process_does_not_keep_its_parses(
        archive_root: Path) -> None:
    root = archive_root
    (root / ".site-builder").mkdir()
    load_archive(root, cache=LoaderCache(kept=True))
    assert not _kept_file(root).exists()


def test_check_and_queries_leave_no_cache_folder_in_a_checkout_that_never_built(
        archive_root: Path) -> None:
    root = archive_root
    load_archive(root)  # what `check` and the CLI's queries do
    assert not (root / ".site-builder").exists()
    (root / ".site-builder").mkdir()
    load_archive(root)
    assert _kept_file(root).is_file()


@pytest.mark.parametrize("damage", ["truncated", "flipped", "another key", "garbage"])
def test_a_damaged_kept_file_is_a_miss(
        archive_root: Path, parses: list[Path], damage: str) -> None:
    root = archive_root
    cold = _one_off(root)
    path = _kept_file(root)
    data = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[:len(data) // 2])
    elif damage == "flipped":
        path.write_bytes(data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:])
    elif damage == "another key":
        path.write_bytes(data.replace(b"\n", b"0\n", 2))
    else:
        path.write_bytes(os.urandom(len(data)))
    parses.clear()
    _same(_one_off(root), cold)
    assert len(parses) == len(cold.records)


class _Planted:
    """What a hostile cache would make run when unpickled."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.mkdir, ("planted",))


def test_a_kept_file_builds_only_the_classes_it_lists(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    kept = KeptFile(tmp_path / "kept.pickle", "key", (type(Path()),))
    assert kept.write({"fine": Path("a")}) and kept.read() == {"fine": Path("a")}
    assert kept.write({"hostile": _Planted()})  # written whole, with its digest
    assert kept.read() is None
    assert not (tmp_path / "planted").exists()
    pickle.loads(pickle.dumps(_Planted()))  # what an unrestricted read would have done
    assert (tmp_path / "planted").is_dir()
