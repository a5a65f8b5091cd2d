"""The readers of other tools' formats as pure functions: text → fields."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from site_builder.archive.formats import auto, log4brains, madr, nygard
from site_builder.archive.formats.settle import FileFacts, Folder, date_of, settle, status_of
from site_builder.archive.origins import Foreign
from site_builder.config.site import DEFAULT_STATUSES
from site_builder.config.source_formats import UNKNOWN_STATUS

# The statuses of a site with a source in another tool's format (load_config adds `unknown`).
STATUSES = frozenset(s.name for s in (*DEFAULT_STATUSES, UNKNOWN_STATUS))
FOLDER = Folder(Foreign("nygard", "tools", status_map=(("partly superseded", "superseded"),)),
                STATUSES)

NYGARD = """\
# 2. Implement as shell scripts

Date: 12/02/2016

## Status

Accepted

Superceded by [5. Use Go](0005-use-go.md)
Amended by [7. Quote paths](0007-quote-paths.md)

## Context

ADRs are plain text, so [shell](https://www.gnu.org/software/bash/) is enough.
"""


def relations(fields) -> list[tuple[str, str, int]]:
    return [(r.kind, r.target, r.line) for r in fields.relations]


def settled(text: str, reader=nygard.read, stem: str = "0002-x", git: dt.date | None = None):
    facts = FileFacts(Path(f"/a/{stem}.md"), f"{stem}.md", stem, stem[:4], git)
    return settle(reader(text), facts, FOLDER)


def test_nygard_title_loses_its_number_and_the_status_section_becomes_fields() -> None:
    fields = nygard.read(NYGARD)
    assert fields.values["title"].text == "Implement as shell scripts"
    assert (fields.values["status"].text, fields.values["status"].line) == ("Accepted", 7)
    assert relations(fields) == [("supersededBy", "0005-use-go.md", 9),
                                 ("related", "0007-quote-paths.md", 10)]
    # The H1, the Date line and the Status section are not repeated; lines keep their place.
    assert fields.body.startswith("## Context\n")
    assert fields.body_line == 12


def test_misspelt_supercedes_is_read_as_supersedes() -> None:
    fields = nygard.read("# 5. Use Go\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n"
                         "Supercedes [2. Shell](0002-shell.md)\n")
    assert relations(fields) == [("supersedes", "0002-shell.md", 9)]


def test_a_status_that_is_a_superseded_by_line_is_the_status_superseded() -> None:
    fields = nygard.read("# 2. X\n\n## Status\n\nSuperceded by [5. Use Go](0005-use-go.md)\n")
    assert fields.values["status"].text == "superseded"
    assert relations(fields) == [("supersededBy", "0005-use-go.md", 5)]


def test_status_as_h1_is_a_section_not_the_title() -> None:
    fields = nygard.read("# Status\n\nAccepted\n\n# Context\n\nWhy.\n")
    assert "title" not in fields.values
    assert fields.values["status"].text == "Accepted"
    result = settled("# Status\n\nAccepted\n\n# Context\n\nWhy.\n", stem="0009-use-rds",
                     git=dt.date(2020, 1, 1))
    assert result.record is not None and result.record.title == "Use rds"


def test_superseded_by_a_number_without_a_link() -> None:
    fields = madr.read('---\nstatus: "superseded by ADR-0123"\ndate: 2024-01-01\n---\n# X\n')
    assert fields.values["status"].text == "superseded"
    assert [(r.kind, r.target, r.is_link) for r in fields.relations] == [
        ("supersededBy", "0123", False)]
    record = settled('---\nstatus: "superseded by ADR-0123"\ndate: 2024-01-01\n---\n# X\n',
                     reader=madr.read).record
    assert record is not None and record.superseded_by == "tools/adr/0123"


def test_a_status_followed_by_a_relation() -> None:
    fields = madr.read('---\nstatus: "accepted; supersedes ADR-0045"\n---\n# X\n')
    assert fields.values["status"].text == "accepted"
    assert relations(fields) == [("supersedes", "0045", 2)]


def test_madr4_decision_makers_and_a_string_list() -> None:
    record = settled('---\nstatus: accepted\ndate: 2024-01-01\ndecision-makers: "@alice, @bob"'
                     '\ntags: web, api\n---\n# X\n\nBody text.\n', reader=madr.read).record
    assert record is not None
    assert record.deciders == ("@alice", "@bob")
    assert record.tags == ("web", "api")
    assert record.description == "Body text."


def test_just_the_docs_keys_are_not_metadata_and_not_warned_about() -> None:
    result = settled("---\nparent: Decisions\nnav_order: 3\nstatsu: x\n---\n# X\n\n"
                     "* Status: accepted\n* Date: 2017-12-17\n", reader=madr.read)
    assert result.record is not None and result.record.status == "accepted"
    assert [(f.line, f.level, f.message) for f in result.findings] == [
        (4, "warning", "unknown key 'statsu' (did you mean 'status'?)")]


def test_madr2_items_and_log4brains_links() -> None:
    text = ("# Use Log4brains\n\n- Status: accepted\n- Deciders: John Doe, Foo Bar\n"
            "- Date: 2020-01-01\n- Tags: foo, bar\n\n## Context\n\nWhy.\n\n## Links\n\n"
            "- Supersedes [20201028-old](20201028-old.md)\n"
            "- Relates to [other](../../p2/adr/20200101-x.md)\n")
    fields = log4brains.read(text)
    assert {k: v.text for k, v in fields.values.items()} == {
        "title": "Use Log4brains", "status": "accepted", "deciders": "John Doe, Foo Bar",
        "date": "2020-01-01", "tags": "foo, bar"}
    assert relations(fields) == [("supersedes", "20201028-old.md", 14),
                                 ("related", "../../p2/adr/20200101-x.md", 15)]
    assert "Links" not in fields.body and "Status" not in fields.body


@pytest.mark.parametrize(("text", "reader"), [
    ("---\nstatus: accepted\n---\n# X\n", "madr"),
    ("# X\n\n* Status: accepted\n", "log4brains"),
    ("# 1. X\n\n## Status\n\nAccepted\n", "nygard"),
])
def test_auto_decides_per_file(text: str, reader: str) -> None:
    assert auto.read(text).reader == reader


@pytest.mark.parametrize(("written", "status"), [
    ("Accepted", "accepted"), ("APPROVED", "accepted"), ("Pending", "proposed"),
    ("In Review", "proposed"), ("on hold", "proposed"), ("**Proposal**", "proposed"),
    ("Partly superseded", "superseded"),
    ("draft", "draft"), ("Unheard of", None), ("Accepted.", "accepted"),
    ("**Accepted**", "accepted"),
])
def test_statuses_with_aliases_and_status_map(written: str, status: str | None) -> None:
    assert status_of(written, FOLDER)[0] == status


def test_an_unknown_status_is_published_as_unknown_with_a_warning_naming_status_map() -> None:
    result = settled("# 1. X\n\nDate: 2020-01-01\n\n## Status\n\nUnheard of\n")
    assert result.record is not None
    assert (result.record.status, result.record.status_note) == ("unknown", "Unheard of")
    [finding] = result.findings
    assert (finding.line, finding.level) == (7, "warning") and "status_map" in finding.message


@pytest.mark.parametrize(("written", "date", "rest"), [
    ("2016-02-12", dt.date(2016, 2, 12), None),
    ("12/02/2016", dt.date(2016, 2, 12), None),
    ("2025-11- 05", dt.date(2025, 11, 5), None),  # dasch-swiss/dsp-api
    ("2024-05-22 (back dated)", dt.date(2024, 5, 22), "(back dated)"),
    ("21.07.2017", dt.date(2017, 7, 21), None),  # adoble/adr-j
    ("Jan 29, 2021", dt.date(2021, 1, 29), None),
    ("2 Sept 2024", dt.date(2024, 9, 2), None),
    ("16 May 2025", dt.date(2025, 5, 16), None),  # DFE-Digital/publish-teacher-training
    ("12 June 2026", dt.date(2026, 6, 12), None),
    ("1st March 2020 (approx.)", dt.date(2020, 3, 1), "(approx.)"),
])
def test_dates_as_written(written: str, date: dt.date, rest: str | None) -> None:
    assert date_of(written) == (date, None, rest)


@pytest.mark.parametrize("written", ["23/10/24", "Mai 16 2025", "last tuesday", "16 Ma 2025"])
def test_dates_that_cannot_be_told_are_not_guessed(written: str) -> None:
    date, problem, _ = date_of(written)
    assert date is None and problem is not None and "16 May 2025" in problem


def test_trailing_notes_are_warned_and_impossible_dates_fall_back_to_git() -> None:
    result = settled("# 1. X\n\nDate: 2024-05-22 (back dated)\n\n## Status\n\nAccepted\n")
    assert result.record is not None
    assert [(f.line, f.level) for f in result.findings] == [(3, "warning")]
    text = "# 1. X\n\nDate: 2023-13-10\n\n## Status\n\nAccepted\n"
    result = settled(text, git=dt.date(2023, 10, 13))
    assert result.record is not None and result.record.date == dt.date(2023, 10, 13)
    assert [(f.line, f.level) for f in result.findings] == [(3, "warning")]
    assert "'date' is not a real date: 2023-13-10" in result.findings[0].message
    result = settled(text)  # not in git either: no date to publish it with
    assert result.record is None
    assert [(f.line, f.level) for f in result.findings] == [(3, "error")]


def test_no_date_takes_gits_date_else_is_an_error() -> None:
    text = "# 1. X\n\n## Status\n\nAccepted\n"
    result = settled(text, git=dt.date(2021, 3, 4))
    assert result.record is not None and result.record.date == dt.date(2021, 3, 4)
    assert any("from git" in guess for guess in result.guesses)
    result = settled(text)
    assert result.record is None and "no date" in result.findings[0].message


def test_no_status_gets_default_status_and_draft_is_not_published() -> None:
    result = settled("# X\n\n- Date: 2020-01-01\n", reader=log4brains.read)
    assert result.record is not None and result.record.status == "accepted"
    result = settled("# X\n\n- Status: draft\n- Date: 2020-01-01\n", reader=log4brains.read)
    assert result.record is None and result.findings == []


def test_code_blocks_are_never_metadata() -> None:
    fields = nygard.read("# 1. X\n\n## Status\n\nAccepted\n\n## Context\n\n```\n"
                         "Date: 1999-01-01\n# Not a title\n```\n")
    assert "date" not in fields.values
    assert "Date: 1999-01-01" in fields.body


def test_a_title_written_twice_is_said_once() -> None:
    fields = nygard.read("# 3. Use X\n\n# 3. Use X\n\nDate: 2020-01-01\n\n## Status\n\n"
                         "Accepted\n\n## Context\n\nWhy.\n")
    assert fields.values["title"].text == "Use X"
    assert "Use X" not in fields.body and fields.values["date"].line == 5


def test_an_unknown_status_is_an_error_where_the_site_cannot_publish_unknown() -> None:
    # A native archive `import` writes into has no `unknown` status: such a record has none
    # it could be published with, and the hint says where to map it.
    folder = Folder(Foreign("nygard", "tools", status_hint="--status-map '{written}=STATUS'"),
                    frozenset(s.name for s in DEFAULT_STATUSES))
    facts = FileFacts(Path("/a/0002-x.md"), "0002-x.md", "0002-x", "0002")
    result = settle(nygard.read("# 1. X\n\nDate: 2020-01-01\n\n## Status\n\nUnheard of\n"),
                    facts, folder)
    [finding] = result.findings
    assert finding.level == "error"
    assert "--status-map 'Unheard of=STATUS'" in finding.message
    assert "published as" not in finding.message


def test_front_matter_yaml_cannot_read_is_read_line_by_line_with_a_warning() -> None:
    # SFDO-Tooling/CumulusCI: `@` cannot start a YAML value; its own tool published it.
    fields = madr.read("---\ndate: 2023-02-03\nstatus: Accepted\nauthor: @jstvz\n---\n\n"
                       "# 1. Record architecture decisions\n\nWhy.\n")
    assert [(line, level) for line, level, _ in fields.problems] == [(4, "warning")]
    assert fields.values["status"].text == "Accepted" and fields.values["authors"].text == \
        "@jstvz"
    result = settle(fields, FileFacts(Path("/a/0001-x.md"), "0001-x.md", "0001-x", "0001"),
                    FOLDER)
    assert result.record is not None and result.record.date == dt.date(2023, 2, 3)


def test_date_issued_is_the_date_when_no_date_is_written() -> None:
    # LBHackney-IT/Data-Platform-Playbook writes `date-issued` for its Docusaurus site.
    fields = madr.read('---\ntitle: "Use X"\ndate-issued: "2021-03-23"\nstatus: "Accepted"\n'
                       "---\n\nWhy.\n")
    assert fields.values["date"].text == "2021-03-23" and fields.problems == []
