"""`reload_records`: an archive with a few record files read again, for callers told by file
events exactly which files changed. It must give what a full load gives, or say it cannot."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.archive.loader import LoaderCache, reload_records
from site_builder.sources.load import load_archive
from tests.conftest import edit_text

FIRST = "content/demo/adr/0001-write-records-in-markdown.md"
SECOND = "content/demo/adr/0002-keep-records-short.md"


@pytest.fixture
def site(fixture_archive: Callable[[str], Path]) -> Path:
    return fixture_archive("serve-site")


def test_reloading_edited_records_gives_what_a_full_load_gives(site: Path) -> None:
    cache = LoaderCache()
    before = load_archive(site, cache=cache)
    edit_text(site / FIRST, "title: Write records in Markdown",
              "title: Write records in CommonMark")
    edit_text(site / SECOND, "status: proposed", "status: acepted")  # an error, still a record
    after = reload_records(before, [site / FIRST, site / SECOND], cache)
    full = load_archive(site, cache=LoaderCache())
    assert after is not None
    assert after.records == full.records
    assert after.findings == full.findings
    # the lookup table is lent by the archive the files were read from
    assert after.get("DEMO-ADR-1").title == "Write records in CommonMark"
    assert after.candidates("0002-keep-records-short") == ["demo/adr/0002-keep-records-short"]
    assert any("acepted" in f.message for f in after.findings)

    edit_text(site / SECOND, "status: acepted", "status: proposed")
    fixed = reload_records(after, [site / SECOND], cache)
    assert fixed is not None and fixed.findings == load_archive(site).findings == ()


def test_a_file_that_is_not_a_record_of_the_archive_asks_for_a_full_load(site: Path) -> None:
    cache = LoaderCache()
    before = load_archive(site, cache=cache)
    new = site / "content/demo/adr/0003-new.md"
    new.write_text("---\ntitle: New\nstatus: proposed\ndate: 2026-03-01\n---\n")
    assert reload_records(before, [new], cache) is None
    edit_text(site / FIRST, "status: accepted", "status: accepted\ndraft: true")
    assert reload_records(before, [site / FIRST], cache) is None
    (site / SECOND).unlink()
    assert reload_records(before, [site / SECOND], cache) is None
