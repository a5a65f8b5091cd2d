"""Review schedules: `review: {every, reviewed}` → the next due date."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from site_builder.archive.archive import Archive, Review
from site_builder.archive.records import Record
from site_builder.archive.schedule import add_interval, parse_every
from site_builder.config.site import SiteConfig

D = dt.date


@pytest.mark.parametrize(("start", "every", "due"), [
    (D(2026, 1, 31), "1 month", D(2026, 2, 28)),     # clamped to the end of February
    (D(2028, 1, 31), "1 month", D(2028, 2, 29)),     # leap year
    (D(2026, 3, 31), "1 month", D(2026, 4, 30)),
    (D(2026, 8, 31), "6 months", D(2027, 2, 28)),
    (D(2026, 11, 30), "3 months", D(2027, 2, 28)),   # across the year end
    (D(2026, 12, 15), "1 month", D(2027, 1, 15)),
    (D(2026, 1, 15), "12 Months", D(2027, 1, 15)),
    (D(2026, 5, 1), "6 months", D(2026, 11, 1)),
    (D(2028, 2, 29), "1 year", D(2029, 2, 28)),      # no 29 February in 2029
    (D(2028, 2, 29), "4 years", D(2032, 2, 29)),
    (D(2026, 1, 1), "2 weeks", D(2026, 1, 15)),
    (D(2026, 12, 25), "1 week", D(2027, 1, 1)),
    (D(2026, 2, 20), "10 days", D(2026, 3, 2)),
    (D(2028, 2, 28), "1 day", D(2028, 2, 29)),
])
def test_due_dates(start: dt.date, every: str, due: dt.date) -> None:
    assert add_interval(start, *parse_every(every)) == due


@pytest.mark.parametrize(("text", "parsed"), [
    ("6 months", (6, "month")), ("1 month", (1, "month")), ("1 months", (1, "month")),
    ("2 Weeks", (2, "week")), ("1 year", (1, "year")), ("3 days", (3, "day")),
    ("  6 months ", (6, "month")), ("6months", (6, "month")),
    ("0 days", None), ("six months", None), ("6 fortnights", None), ("", None), ("-1 day", None),
])
def test_every_is_n_days_weeks_months_or_years(text: str, parsed) -> None:
    assert parse_every(text) == parsed


def record(date: dt.date, every: str | None, reviewed: dt.date | None = None) -> Record:
    return Record(project="p", type="adr", slug="0001-x", number="0001", path=Path("/a/x.md"),
                  rel_path="x.md", title="X", status="accepted", date=date,
                  review_every=every, reviewed=reviewed)


def archive_of(*records: Record) -> Archive:
    return Archive(SiteConfig(root=Path("/a"), title="A"), {}, records)


def test_never_reviewed_counts_from_the_records_date() -> None:
    never = record(D(2026, 1, 31), "1 month")
    assert archive_of(never).review(never) == Review(D(2026, 2, 28), None, "1 month")


def test_reviewed_counts_from_the_last_review_and_echoes_every_as_written() -> None:
    reviewed = record(D(2025, 1, 1), "6 Months", reviewed=D(2026, 5, 1))
    assert archive_of(reviewed).review(reviewed) == Review(D(2026, 11, 1), D(2026, 5, 1),
                                                            "6 Months")


def test_no_review_without_every() -> None:
    plain = record(D(2026, 1, 1), None)
    assert archive_of(plain).review(plain) is None
