"""What an edit changes, worked out without checking the whole archive again: `recheck` and
`affected.touched` give what a full load and check would."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.archive import checks
from site_builder.archive.archive import Archive
from site_builder.archive.loader import LoaderCache, reload_records
from site_builder.serve import affected
from site_builder.serve.checked import check, recheck
from site_builder.sources.load import load_archive
from tests.conftest import edit_text

FIRST = "content/demo/adr/0001-write-records-in-markdown.md"
SECOND = "content/demo/adr/0002-keep-records-short.md"


def test_rechecking_the_edited_records_finds_what_checking_everything_finds(site: Path) -> None:
    cache = LoaderCache()
    before = load_archive(site, cache=cache)
    checked = check(before)
    assert checked.findings == before.findings == ()
    edit_text(site / SECOND, "related: [demo/adr/0001]", "related: [demo/adr/0009]")
    after = reload_records(before, [site / SECOND], cache)
    assert after is not None
    rechecked = recheck(checked, after, ["demo/adr/0002-keep-records-short"])
    assert rechecked.findings == after.findings
    assert [f.message for f in rechecked.errors] == [
        "'related' refers to a missing record: demo/adr/0009"]


def test_checking_record_by_record_works_out_what_they_point_at_once(
        site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = load_archive(site)
    asked: list[str] = []

    def counted(name: str) -> Callable[[Archive], object]:
        original = getattr(checks, name)

        def derive(archive: Archive) -> object:
            asked.append(name)
            return original(archive)
        return derive

    for name in ("_unreadable", "_content_folders"):
        monkeypatch.setattr(checks, name, counted(name))
    checked = check(archive)
    assert len(checked.by_record) == len(archive.records) > 1
    assert sorted(asked) == ["_content_folders", "_unreadable"]  # not once per record
    assert checked.findings == archive.findings


def test_an_edit_touches_its_own_files_those_showing_it_listings_and_agent_files(
        site: Path) -> None:
    cache = LoaderCache()
    before = load_archive(site, cache=cache)
    edit_text(site / FIRST, "tags: [docs]", "tags: [docs, markdown]")
    after = load_archive(site, cache=cache)
    assert affected.same_records(before, after)
    changed = affected.edited(before, after)
    assert changed == ["demo/adr/0001-write-records-in-markdown"]
    touched = affected.touched(before, after, changed)
    assert {
        "demo/adr/0001-write-records-in-markdown/index.html",
        "demo/adr/0001-write-records-in-markdown.md",
        # 0002 is related to 0001: its page and copy show 0001's title and status
        "demo/adr/0002-keep-records-short/index.html",
        "demo/adr/0002-keep-records-short.md",
        "index.html", "demo/index.html", "timeline/index.html", "tags/index.html",
        "tags/docs/index.html", "tags/markdown/index.html",
        "decisions.json", "llms.txt", "llms-full.txt", "AGENTS.md", "feed.xml",
    } <= touched
    assert "tags/style/index.html" not in touched


def test_adding_a_record_is_not_anedit_text(site: Path) -> None:
    cache = LoaderCache()
    before = load_archive(site, cache=cache)
    (site / "content/demo/adr/0003-new.md").write_text(
        "---\ntitle: New\nstatus: proposed\ndate: 2026-03-01\n---\n")
    assert not affected.same_records(before, load_archive(site, cache=cache))
