"""Parsing one record's text: no disk needed, every problem at its line."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from site_builder.archive.records import RecordContext, parse_record, split_front_matter
from site_builder.config.site import DEFAULT_STATUSES, FieldDef

FIELDS = (
    FieldDef("risk", type="enum", values=("low", "high")),
    FieldDef("cost", type="number"),
    FieldDef("reversible", type="boolean"),
    FieldDef("deadline", type="date"),
    FieldDef("teams", type="list"),
    FieldDef("owner", type="string"),
)
CTX = RecordContext(project="sre", type="adr", file_name="0007-use-slos.md",
                    path=Path("/archive/content/sre/adr/0007-use-slos.md"),
                    rel_path="content/sre/adr/0007-use-slos.md", fields=FIELDS,
                    statuses=frozenset(s.name for s in DEFAULT_STATUSES))


def parse(front: str, body: str = "Body.\n"):
    return parse_record(f"---\n{front}---\n{body}", CTX)


def problems(front: str) -> list[tuple[int, str, str]]:
    return [(f.line, f.level, f.message) for f in parse(front)[1]]


BASE = "title: Use SLOs\nstatus: accepted\ndate: 2026-03-01\ndescription: Measure it.\n"


def test_a_complete_record() -> None:
    record, found = parse(
        BASE + "authors: [Ana Lima, bo]\ndeciders: Cy\ntags: [sre, slo]\n"
        "related: [sre/adr/1]\nsupersedes: SRE-ADR-0002\nsupersededBy: sre/adr/9\n"
        "review: {every: 6 months, reviewed: 2026-05-01}\n"
        "reviewers: {ana: approved, bo: pending}\napprovals: 1\n"
        "affects: ['*.tf', '!legacy/']\nrisk: high\ncost: 12.5\nreversible: true\n"
        "deadline: 2026-09-30\nteams: ops\nowner: 42\n",
        body="\n## Context\n\nSee [one](0001-x.md).\n")
    assert found == []
    assert (record.id, record.ref, record.title, record.status) == (
        "sre/adr/0007-use-slos", "SRE-ADR-0007", "Use SLOs", "accepted")
    assert record.date == dt.date(2026, 3, 1)
    assert record.authors == ("Ana Lima", "bo")
    assert record.deciders == ("Cy",)            # a single string is a list of one
    assert record.supersedes == ("SRE-ADR-0002",)
    assert record.superseded_by == "sre/adr/9"
    assert (record.review_every, record.reviewed) == ("6 months", dt.date(2026, 5, 1))
    assert record.reviewers == (("ana", "approved"), ("bo", "pending"))
    assert record.approvals == 1
    assert record.affects.matches("infra/main.tf")
    assert record.field_values == {"risk": "high", "cost": 12.5, "reversible": True,
                                   "deadline": dt.date(2026, 9, 30), "teams": ["ops"],
                                   "owner": "42"}
    assert record.body == "\n## Context\n\nSee [one](0001-x.md).\n"
    assert record.body_line == 23
    assert [(link.target, record.body_line + link.line - 1) for link in record.links] == [
        ("0001-x.md", 26)]
    assert record.line_of("status") == 3
    assert record.line_of("supersedes") == 10


def test_parsing_never_reads_the_disk() -> None:
    assert not CTX.path.exists()
    assert parse(BASE)[0] is not None


def test_only_declared_fields_are_kept_and_only_those_set() -> None:
    record, _ = parse(BASE + "risk: low\n")
    assert record.fields == (("risk", "low"),)


@pytest.mark.parametrize(("line", "message"), [
    ("risk: medium", "field 'risk' must be one of low, high, not 'medium'"),
    ("cost: twelve", "field 'cost' must be a number, not 'twelve'"),
    ("cost: true", "field 'cost' must be a number, not True"),
    ("reversible: maybe", "field 'reversible' must be true or false, not 'maybe'"),
    ("reversible: 1", "field 'reversible' must be true or false, not 1"),
    ("deadline: soon", "field 'deadline' must be a date as YYYY-MM-DD, not 'soon'"),
    ("deadline: 2026-04-31", "field 'deadline' is not a real date: 2026-04-31"),
    ("teams: {a: 1}", "field 'teams' must be a list of values, not {'a': 1}"),
    ("owner: [a, b]", "field 'owner' must be a single value, not ['a', 'b']"),
])
def test_custom_fields_are_type_checked(line: str, message: str) -> None:
    assert problems(BASE + line + "\n") == [(6, "error", message)]


def test_drafts_are_nothing_at_all() -> None:
    assert parse(BASE + "draft: true\n") == (None, [])
    assert parse("status: nonsense\ndraft: true\n") == (None, [])
    # Front matter that cannot be read cannot say it is a draft.
    assert len(parse("title: [broken\ndraft: true\n")[1]) == 1


def test_draft_false_is_a_record() -> None:
    assert parse(BASE + "draft: false\n")[0] is not None
    assert problems(BASE + "draft: maybe\n") == [(6, "error", "'draft' must be true or false")]


@pytest.mark.parametrize(("front", "expected"), [
    (BASE.replace("2026-03-01", '"2026-03-01"'), []),   # a quoted date is a date too
    (BASE.replace("2026-03-01", "2026-02-29"),
     [(4, "error", "'date' is not a real date: 2026-02-29")]),
    (BASE.replace("2026-03-01", '"2026-02-30"'),
     [(4, "error", "'date' is not a real date: 2026-02-30")]),
    (BASE.replace("2026-03-01", "March 1st"),
     [(4, "error", "'date' must be a date as YYYY-MM-DD, not 'March 1st'")]),
    (BASE.replace("Use SLOs", "[a, b]"),
     [(2, "error", "'title' must be a string, not ['a', 'b']")]),
    (BASE.replace("accepted", "[accepted]"),
     [(3, "error", "unknown status ['accepted'] (one of accepted, deprecated, implemented, "
                   "proposed, rejected, superseded)")]),
    (BASE.replace("Measure it.", "[a]"), [(5, "error", "'description' must be a one-line string")]),
    (BASE.replace("description: Measure it.\n", ""),
     [(1, "warning", "missing 'description': add a one-line summary")]),
    (BASE + "tags: [ok, no]\n",
     [(6, "error", "'tags' must be a list of strings, not False "
                   "(quote it: YAML reads yes/no/on/off as true/false)")]),
    (BASE + "authors:\n  - ana\n  - {name: bo}\n",
     [(8, "error", "'authors' must be a list of strings, not {'name': 'bo'}")]),
    (BASE + "supersededBy: [a, b]\n",
     [(6, "error", "'supersededBy' must be one record reference")]),
    (BASE + "approvals: -1\n", [(6, "error", "'approvals' must be a whole number")]),
    (BASE + "approvals: yes\n", [(6, "error", "'approvals' must be a whole number")]),
    (BASE + "reviewers:\n  ana: approved\n  bo: lgtm\n",
     [(8, "error", "reviewer 'bo' has state 'lgtm'; use one of approved, changes-requested, "
                   "pending")]),
    (BASE + "reviewers: [ana]\n", [(6, "error", "'reviewers' must map each handle to approved, "
                                                "changes-requested or pending")]),
    (BASE + "review:\n  every: fortnightly\n",
     [(7, "error", "review 'every' must be N days, weeks, months or years, not 'fortnightly'")]),
    (BASE + "review:\n  every: 1 year\n  reviewed: 2026-13-01\n",
     [(8, "error", "'review.reviewed' is not a real date: 2026-13-01")]),
    (BASE + "review:\n  every: 1 year\n  by: ana\n",
     [(8, "warning", "unknown key 'by' in 'review'")]),
    (BASE + "review: 2027-01-01\n", [(6, "error", "'review' must be a mapping such as "
                                                  "{every: \"6 months\", reviewed: 2026-05-01}")]),
    (BASE + "tag: [x]\n", [(6, "warning", "unknown key 'tag' (did you mean 'tags'?)")]),
    (BASE + "Risk: low\n", [(6, "warning", "unknown key 'Risk' (did you mean 'risk'?)")]),
])
def test_problems_are_found_at_their_line(front: str, expected) -> None:
    assert problems(front) == expected


def test_a_required_custom_field() -> None:
    ctx = RecordContext(**{**{k: getattr(CTX, k) for k in CTX.__slots__},
                           "fields": (FieldDef("team", required=True),)})
    _, found = parse_record(f"---\n{BASE}---\n", ctx)
    assert [(f.line, f.message) for f in found] == [(1, "missing required field 'team'")]


def test_unknown_status_is_reported_but_the_record_is_kept() -> None:
    record, found = parse(BASE.replace("accepted", "approved"))
    assert record is not None and record.status == "approved"
    assert [f.line for f in found] == [3]


@pytest.mark.parametrize(("text", "line", "message"), [
    ("No front matter\n", 1, "no front matter: a record starts with a '---' line, its YAML "
                             "keys, and another '---' line"),
    ("---\ntitle: never closed\n", 1, "no front matter: a record starts with a '---' line, its "
                                      "YAML keys, and another '---' line"),
    ("---\n- a list\n---\n", 2, "front matter must be a mapping of keys to values"),
    ("---\ntitle: a\n  bad: indent\n---\n", 3,
     "invalid YAML: mapping values are not allowed in this context"),
    ("---\ntitle: 'unclosed\nstatus: x\n---\n", 2,
     "invalid YAML: found unexpected end of stream (while scanning a quoted scalar)"),
])
def test_unreadable_front_matter(text: str, line: int, message: str) -> None:
    record, found = parse_record(text, CTX)
    assert record is None
    assert [(f.line, f.level, f.message) for f in found] == [(line, "error", message)]


def test_split_front_matter() -> None:
    assert split_front_matter("---\na: 1\n---\nbody\n") == ("a: 1\n", "body\n", 4)
    assert split_front_matter("\ufeff---\r\na: 1\r\n---\r\nbody\r\n") == (
        "a: 1\r\n", "body\r\n", 4)
    assert split_front_matter("---\na: 1\n...\n\nbody") == ("a: 1\n", "\nbody", 4)
    assert split_front_matter("---\na: 1\n---") == ("a: 1\n", "", 4)
    assert split_front_matter("# Title\n") == (None, "# Title\n", 1)


def test_windows_line_endings_parse_the_same() -> None:
    text = f"---\n{BASE}tags: [a]\n---\nBody\n".replace("\n", "\r\n")
    record, found = parse_record(text, CTX)
    assert found == []
    assert (record.title, record.tags, record.line_of("tags")) == ("Use SLOs", ("a",), 6)
