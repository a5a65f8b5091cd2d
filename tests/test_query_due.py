"""due_reviews: decided records due within the window, soonest first (checked against the
obvious definition on example-site), and the Facets it reads them from."""

from __future__ import annotations

import dataclasses
import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.archive.archive import Archive
from site_builder.query import answers as query
from site_builder.query import governance
from site_builder.query.facets import facets_for
from site_builder.sources.load import load_archive
from tests.conftest import EXAMPLE_SITE

EXAMPLE = load_archive(EXAMPLE_SITE)


def obvious(project: str | None, within: int, all: bool, today: dt.date) -> list[str]:
    due = []
    for record in EXAMPLE.records:
        review = EXAMPLE.review(record)
        if review is None or EXAMPLE.is_open(record):
            continue
        if project and record.project.lower() != project.lower():
            continue
        if all or review.due <= today + dt.timedelta(days=within):
            due.append((review.due, record.id))
    return [record_id for _, record_id in sorted(due)]


@settings(max_examples=200, deadline=None)
@given(project=st.sampled_from([None, "", "agents", "AUTHORING", "build", "nope"]),
       within=st.sampled_from([0, 1, 30, 200, 365, 36_500]),
       all=st.booleans(),
       today=st.dates(dt.date(2024, 1, 1), dt.date(2029, 1, 1)),
       offset=st.sampled_from([0, 1, 3]))
def test_due_reviews_are_the_decided_records_due_in_the_window(project, within, all, today,
                                                               offset):
    found = governance.due_reviews(EXAMPLE, project=project, within=within, all=all, limit=3,
                              offset=offset, today=today)
    expected = obvious(project, within, all, today)
    assert found["total"] == len(expected)
    assert [r["id"] for r in found["records"]] == expected[offset:offset + 3]
    for item in found["records"]:
        assert item["daysLeft"] == (dt.date.fromisoformat(item["review"]["due"]) - today).days
        assert item["overdue"] is (item["daysLeft"] < 0)


def test_facets_group_records_by_folded_value_in_archive_order():
    facets = facets_for(EXAMPLE)
    assert facets_for(EXAMPLE) is facets
    build = facets.records("project", "BUILD")
    assert [r.id for r in build] == [r.id for r in EXAMPLE.records if r.project == "build"]
    assert facets.ids("project", "Build") == {r.id for r in build}
    tagged = facets.records("tag", "MCP")
    assert tagged and all("mcp" in [t.lower() for t in r.tags] for r in tagged)
    assert len({r.id for r in tagged}) == len(tagged)
    assert facets.records("status", "no-such-status") == ()


def test_a_record_that_writes_a_tag_twice_is_found_once():
    record = dataclasses.replace(EXAMPLE.records[0], tags=("mcp", "MCP", "Mcp"))
    archive = Archive(EXAMPLE.config, EXAMPLE.projects, [record])
    assert facets_for(archive).records("tag", "mcp") == (record,)
    assert query.search_records(archive, tag="MCP")["total"] == 1
