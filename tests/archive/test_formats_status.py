"""Statuses, titles, dates and template leftovers as real folders write them, read as pure
functions (text → fields → record): what the record's own tool accepts is read, not judged."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from site_builder.archive.formats import log4brains, madr, nygard
from site_builder.archive.formats.fields import Fields
from site_builder.archive.formats.files import content_reason, name_reason
from site_builder.archive.formats.settle import FileFacts, Folder, settle
from site_builder.archive.formats.status import read_status, title_of
from site_builder.archive.origins import Foreign
from site_builder.config.site import DEFAULT_STATUSES
from site_builder.config.source_formats import UNKNOWN_STATUS, status_key

STATUSES = frozenset(s.name for s in (*DEFAULT_STATUSES, UNKNOWN_STATUS))


def folder(strict: bool = False, status_map: dict[str, str] | None = None) -> Folder:
    mapping = tuple((status_key(k), v) for k, v in (status_map or {}).items())
    return Folder(Foreign("nygard", "platform", status_map=mapping, strict=strict), STATUSES)


def nygard_record(status: str, date: str = "2020-01-01", **kw: object):
    text = f"# 3. X\n\nDate: {date}\n\n## Status\n\n{status}\n\n## Context\n\nWhy.\n"
    facts = FileFacts(Path("/a/0003-x.md"), "0003-x.md", "0003-x", "0003",
                      kw.get("git"))  # type: ignore[arg-type]
    return settle(nygard.read(text), facts, kw.get("folder") or folder())  # type: ignore[arg-type]


@pytest.mark.parametrize(("written", "status", "note"), [
    ("Deprecated (no superseding ADR)", "deprecated", "no superseding ADR"),
    ("Accepted (for the GitHub package pipeline)", "accepted", "for the GitHub package pipeline"),
    # `pending` is the alias; `review` is what the file says more (issue 26, GSA-TTS/FAC).
    ("Pending review", "proposed", "review"),
    ("In review", "proposed", None),
    ("proposed. **This ADR did not reach consensus…** However…", "proposed",
     "This ADR did not reach consensus… However…"),
    ("Accepted", "accepted", None),
    ("Partly superseded", "superseded", "Partly"),  # alphagov/govuk-aws
    ("✅ Accepted (documenting an existing thing)", "accepted",  # ministryofjustice
     "documenting an existing thing"),
    ("🤔 Proposed", "proposed", None),
    ("Partially accepted (for the pipeline)", "accepted", "Partially (for the pipeline)"),
    # V-Sekai/manuals: a semicolon joins the note; a template's hint is no part of it.
    ("Superseded; casync adopted without a benchmark.", "superseded",
     "casync adopted without a benchmark"),
    ("Rejected <!-- Draft | Proposed | Rejected | Accepted | Superseded by -->", "rejected",
     None),
])
def test_the_leading_known_status_is_the_status_and_the_rest_its_note(
        written: str, status: str, note: str | None) -> None:
    result = nygard_record(written)
    assert result.record is not None and result.findings == []
    assert (result.record.status, result.record.status_note) == (status, note)


@pytest.mark.parametrize(("written", "successor"), [
    ("superseded by ADR 10", "platform/adr/10"),
    ("Superseded by ADR-0010", "platform/adr/0010"),
    ("Superseded by #10", "platform/adr/10"),
    ("Superseded by [ADR 16](https://github.com/ORG/REPO/blob/main/docs/adr/0016-x.md)",
     "https://github.com/ORG/REPO/blob/main/docs/adr/0016-x.md"),
    ("Deprecated, superseded by [ADR 12](0012-y.md)", "0012-y.md"),
    ("Superseded by <0012-y.md> <!-- Options: Draft | Superseded by [Link] -->", "0012-y.md"),
])
def test_successors_named_in_the_status_become_superseded_by(written: str,
                                                             successor: str) -> None:
    result = nygard_record(written)
    assert result.record is not None and result.findings == []
    assert result.record.superseded_by == successor
    assert result.record.status in ("superseded", "deprecated")
    assert result.record.status_note is None  # the successor is lineage, not a note


def test_a_status_with_no_known_word_is_published_as_unknown_with_a_warning() -> None:
    result = nygard_record("Frobnicated")
    assert result.record is not None
    assert (result.record.status, result.record.status_note) == ("unknown", "Frobnicated")
    [warning] = result.findings
    assert (warning.line, warning.level) == (7, "warning")
    assert "'status_map'" in warning.message and "'Frobnicated'" in warning.message
    strict = nygard_record("Frobnicated", folder=folder(strict=True))
    assert [f.level for f in strict.findings] == ["error"]


@pytest.mark.parametrize("written", ["Ratified*", "_Ratified_", "Ratified.", "**Ratified.**"])
def test_a_status_map_key_copied_from_the_message_matches(written: str) -> None:
    mapped = folder(status_map={f"{written}": "accepted"})
    result = nygard_record(written, folder=mapped)
    assert result.record is not None and result.record.status == "accepted"
    assert result.findings == []


@pytest.mark.parametrize(("written", "title", "successor"), [
    ("[Superseded by [ADR-0017](0017-persist-dex.md)] Do not persist Dex",
     "Do not persist Dex", "0017-persist-dex.md"),
    ("ADR 0036: FIPSification of the images", "FIPSification of the images", None),
    ("ADR-0012 - Use Kafka", "Use Kafka", None),
    ("12. Use Kafka", "Use Kafka", None),
    ("2FA for every account", "2FA for every account", None),
    # A template's number never filled in (cisagov/manage.get.gov).
    ("n. Django Templates", "Django Templates", None),
    ("Nginx as the proxy", "Nginx as the proxy", None),
    ("Rejected: Package Godot for pkgin", "Package Godot for pkgin", None),  # V-Sekai
    ("Superceded: RISCV Binaries as Shared Libraries", "RISCV Binaries as Shared Libraries",
     None),
    # DFE-Digital/publish-teacher-training, arachne-framework/architecture.
    ("ADR: Recent Searches and Email Alerts", "Recent Searches and Email Alerts", None),
    ("Architecture Decision Record: Simplify the Model", "Simplify the Model", None),
    ("Superseded by <20250427-backpack.md>: Phoenix-Based Recommenders",
     "Phoenix-Based Recommenders", "20250427-backpack.md"),
    ("Draft protocol: a plan", "Draft protocol: a plan", None),
])
def test_titles_drop_status_decorations_and_numbers(written: str, title: str,
                                                   successor: str | None) -> None:
    fields = Fields("nygard")
    assert title_of(written, 1, fields) == title
    assert [r.target for r in fields.relations] == ([successor] if successor else [])


def test_a_front_matter_title_loses_its_number_too() -> None:
    fields = madr.read('---\ntitle: "ADR 0036: FIPSification"\nstatus: accepted\n---\n')
    assert fields.values["title"].text == "FIPSification"


@pytest.mark.parametrize(("line", "date"), [
    ("- Date: [2022-10-05]", dt.date(2022, 10, 5)),
    ("- Date 2023-09-26", dt.date(2023, 9, 26)),
    ("* **Date:** 2021-02-03", dt.date(2021, 2, 3)),
])
def test_log4brains_dates_in_brackets_or_without_a_colon_are_read(line: str,
                                                                  date: dt.date) -> None:
    text = f"# Use X\n\n- Status: accepted\n{line}\n\n## Context\n\nWhy.\n"
    facts = FileFacts(Path("/a/20220101-x.md"), "20220101-x.md", "20220101-x", "20220101",
                      dt.date(1999, 1, 1))
    result = settle(log4brains.read(text), facts, folder())
    assert result.record is not None and result.record.date == date
    assert result.findings == [] and "Date" not in result.record.body


@pytest.mark.parametrize("leftover", [
    "- Date: [YYYY-MM-DD when the decision was last updated] <!-- optional -->",
    "- Date: <!-- Today's date -->",
])
def test_a_date_placeholder_falls_back_to_git_with_a_warning(leftover: str) -> None:
    text = f"# Use X\n\n- Status: [ accepted | deprecated | superseded ]\n{leftover}\n"
    facts = FileFacts(Path("/a/20220101-x.md"), "20220101-x.md", "20220101-x", "20220101",
                      dt.date(2022, 1, 3))
    result = settle(log4brains.read(text), facts, folder())
    assert result.record is not None
    assert (result.record.date, result.record.status) == (dt.date(2022, 1, 3), "accepted")
    assert [(f.line, f.level) for f in result.findings] == [(3, "warning"), (4, "warning")]
    assert "placeholder" in result.findings[0].message


def test_front_matter_after_an_spdx_comment_is_read_and_no_description_is_a_comment() -> None:
    text = ("<!--\nSPDX-FileCopyrightText: 2020 Acme <maintainers@acme.example>\n"
            "SPDX-License-Identifier: Apache-2.0\n-->\n\n---\nstatus: accepted\n"
            "date: 2020-05-17\nlayout: default\nnav_order: 17\ngithub_org: acme\n"
            "github_source_path: docs/adr/x.md\nsidebar_position: 3\nslug: /x\n---\n"
            "# Persist Dex\n\nDex keeps sessions in etcd.\n")
    fields = madr.read(text)
    assert fields.problems == []
    assert (fields.values["status"].text, fields.values["status"].line) == ("accepted", 7)
    assert fields.body.startswith("Dex keeps") and fields.body_line == 18
    result = settle(fields, FileFacts(Path("/a/0017-x.md"), "0017-x.md", "0017-x", "0017"),
                    folder())
    assert result.record is not None and result.record.description == "Dex keeps sessions in etcd."
    only_comment = madr.read("<!-- SPDX-License-Identifier: MIT\nmaintainers@acme.example -->\n"
                             "\n# X\n\n* Status: accepted\n\nThe real first paragraph.\n")
    assert only_comment.values["status"].text == "accepted"


@pytest.mark.parametrize(("name", "text", "why"), [
    ("0000-TEMPLATE.md", "# NUMBER. TITLE\n\nDate: <!-- Today's date -->\n", "its name"),
    ("xxxx-template.md", "# Title\n", "its name"),
    ("0004-title-template.md", "# Title\n", "its name"),
    ("adr-template-minimal.md", "# Title\n", "its name"),
    ("0000-use-x.md", "# {short title of solved problem}\n\n* Status: {proposed | accepted}\n",
     "0000"),
    ("install.md", "# Installation\n\nRun make.\n", "no number"),
    ("README.md", "# Decisions\n", "a page"),
])
def test_templates_and_pages_are_no_records_and_say_why(name: str, text: str, why: str) -> None:
    reason = name_reason(name) or content_reason(name, nygard.read(text))
    assert reason is not None and why in reason


@pytest.mark.parametrize(("name", "text"), [
    ("0010-template-engine.md", "# Pick a template engine\n\n## Status\n\nAccepted\n"),
    ("use-tailwind.md", "# Use Tailwind\n\n- Status: accepted\n"),
    ("20230101-x.md", "# X\n\n- Date: [YYYY-MM-DD] <!-- optional -->\n"),
    # DFE-Digital/publish-teacher-training: a record about the team's template.
    ("0002-use-adr-tools-with-custom-template.md",
     "# 2. Use adr-tools with custom template\n\nDate: 2019-12-18\n\n## Status\n\nAccepted\n"),
])
def test_records_are_records_even_with_leftovers(name: str, text: str) -> None:
    assert name_reason(name) is None and content_reason(name, log4brains.read(text)) is None


def test_status_words_after_a_semicolon_stay_in_the_note() -> None:
    fields = Fields("madr")
    read_status("accepted; supersedes ADR-0045", 2, fields)
    assert fields.values["status"].text == "accepted"
    assert [(r.kind, r.target) for r in fields.relations] == [("supersedes", "0045")]


@pytest.mark.parametrize("heading", ["## What is the status of the proposal?",
                                     "## Proposal Status", "### Current status"])
def test_a_status_line_under_a_heading_naming_the_status_is_the_status(heading: str) -> None:
    # V-Sekai/manuals writes `Status: Rejected` under such headings, after the context.
    text = (f"# Rejected: Use X\n\n## Context\n\nWhy.\n\n{heading}\n\n"
            f"Status: Rejected <!-- Draft | Proposed | Rejected -->\n\n## Links\n\n- none\n")
    fields = nygard.read(text)
    assert (fields.values["status"].text, fields.values["status"].line) == ("Rejected", 9)
    assert heading not in fields.body and "Status:" not in fields.body


def test_a_status_heading_with_more_than_the_status_keeps_its_text() -> None:
    text = ("# Use X\n\n- Status: accepted\n\n## Context\n\nWhy.\n\n## Status history\n\n"
            "Status: proposed in March.\n")
    fields = nygard.read(text)
    assert fields.values["status"].text == "accepted"  # the first place wins
    assert "## Status history\n\nStatus: proposed in March." in fields.body


def test_a_character_reference_in_a_status_reads_as_markdown_shows_it() -> None:
    fields = log4brains.read("# Use byobu\n\n- Status: Draft&#x20;\n- Date: 2023-12-29\n")
    assert fields.values["status"].text == "Draft"  # V-Sekai/manuals: a draft, not unknown
