"""Derived lineage: supersededBy, current, currentRecord and the chain."""

from __future__ import annotations

import pytest

from site_builder.archive.archive import Archive
from site_builder.sources.load import load_archive
from tests.conftest import FIXTURES


@pytest.fixture(scope="module")
def archive() -> Archive:
    return load_archive(FIXTURES / "lineage")


def ids(records) -> list[str]:
    return [r.id for r in records]


def test_superseded_by_comes_from_the_newer_records_supersedes(archive: Archive) -> None:
    assert archive.superseded_by["p/adr/0001-first"] == "p/adr/0002-second"
    assert archive.superseded_by["p/adr/0002-second"] == "p/adr/0003-third"
    assert "p/adr/0003-third" not in archive.superseded_by


def test_the_newest_of_several_successors_wins(archive: Archive) -> None:
    assert archive.superseded_by["p/adr/0004-base"] == "p/adr/0006-newer-successor"


def test_an_explicit_superseded_by_is_honoured(archive: Archive) -> None:
    assert archive.superseded_by["p/adr/0007-told"] == "p/adr/0008-teller"
    assert archive.current_record(archive.get("p/adr/7")).id == "p/adr/0008-teller"


def test_current_record_is_the_end_of_the_chain_whatever_its_status(archive: Archive) -> None:
    first = archive.get("p/adr/1")
    assert ids(archive.chain(first)) == ["p/adr/0002-second", "p/adr/0003-third"]
    assert archive.current_record(first).id == "p/adr/0003-third"
    assert archive.current_record(first).status == "deprecated"
    assert archive.current_record(archive.get("p/adr/2")).id == "p/adr/0003-third"


@pytest.mark.parametrize("reference", ["p/adr/3", "p/adr/9", "p/adr/10", "p/adr/11", "p/adr/5"])
def test_current_record_is_null_when_nothing_supersedes(archive: Archive, reference: str) -> None:
    record = archive.get(reference)
    assert archive.current_record(record) is None
    assert archive.chain(record) == []


@pytest.mark.parametrize(("reference", "current"), [
    ("p/adr/9", True),     # accepted, nothing supersedes it
    ("p/adr/8", True),     # implemented is a current status too
    ("p/adr/5", True),     # accepted; that a newer record also replaced 0004 changes nothing
    ("p/adr/4", False),    # superseded
    ("p/adr/3", False),    # deprecated is not a current status
    ("p/adr/10", False),   # rejected
    ("p/adr/11", False),   # proposed: open, not in force
])
def test_current_means_a_current_status_and_nothing_supersedes_it(
        archive: Archive, reference: str, current: bool) -> None:
    assert archive.is_current(archive.get(reference)) is current


def test_a_current_status_does_not_make_a_superseded_record_current(tmp_path) -> None:
    import shutil

    root = tmp_path / "lineage"
    shutil.copytree(FIXTURES / "lineage", root)
    path = root / "content/p/adr/0004-base.md"
    path.write_text(path.read_text().replace("status: superseded", "status: accepted"))
    archive = load_archive(root)
    assert archive.is_current(archive.get("p/adr/4")) is False
    assert [f.message for f in archive.findings] == [
        "status 'accepted' says this record is in force, but p/adr/0006-newer-successor "
        "supersedes it (set status: superseded)"]


def test_open_statuses(archive: Archive) -> None:
    assert archive.is_open(archive.get("p/adr/11"))
    assert not archive.is_open(archive.get("p/adr/9"))


def test_records_are_newest_first(archive: Archive) -> None:
    dates = [r.date for r in archive.records]
    assert dates == sorted(dates, reverse=True)
