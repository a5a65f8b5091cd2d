"""RFC sign-off: reviewers and approvals → {status, approved, required, waitingOn}."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from site_builder.archive.archive import Archive, SignOff
from site_builder.archive.records import Record
from site_builder.config.site import SiteConfig


def signoff(reviewers: dict[str, str], approvals: int | None = None,
            site_default: int | None = None) -> SignOff | None:
    record = Record(project="p", type="rfc", slug="0001-x", number="0001",
                    path=Path("/a/x.md"), rel_path="x.md", title="X", status="proposed",
                    date=dt.date(2026, 1, 1), reviewers=tuple(reviewers.items()),
                    approvals=approvals)
    config = SiteConfig(root=Path("/a"), title="A", required_approvals=site_default)
    return Archive(config, {}, [record]).signoff(record)


def test_no_reviewers_no_signoff() -> None:
    assert signoff({}) is None


def test_without_any_setting_every_reviewer_must_approve() -> None:
    assert signoff({"ana": "approved", "bo": "approved", "cy": "pending"}) == SignOff(
        "pending", 2, 3, ("cy",))
    assert signoff({"ana": "approved", "bo": "approved"}) == SignOff("approved", 2, 2, ())


def test_site_default_required_approvals() -> None:
    reviewers = {"ana": "approved", "bo": "approved", "cy": "pending"}
    assert signoff(reviewers, site_default=2) == SignOff("approved", 2, 2, ("cy",))
    assert signoff({"ana": "approved", "bo": "pending"}, site_default=2) == SignOff(
        "pending", 1, 2, ("bo",))


def test_the_records_approvals_overrides_the_site_default() -> None:
    reviewers = {"ana": "approved", "bo": "pending", "cy": "pending"}
    assert signoff(reviewers, approvals=1, site_default=3) == SignOff(
        "approved", 1, 1, ("bo", "cy"))
    assert signoff(reviewers, approvals=0) == SignOff("approved", 1, 0, ("bo", "cy"))


@pytest.mark.parametrize("approvals", [None, 1])
def test_changes_requested_wins_over_enough_approvals(approvals: int | None) -> None:
    reviewers = {"ana": "approved", "bo": "approved", "cy": "changes-requested"}
    assert signoff(reviewers, approvals=approvals) == SignOff(
        "changes-requested", 2, approvals or 3, ())


def test_waiting_on_is_sorted() -> None:
    reviewers = {"zoe": "pending", "adam": "approved", "mia": "pending", "bo": "pending"}
    assert signoff(reviewers).waiting_on == ("bo", "mia", "zoe")
