"""The governance questions: reviews due, RFC sign-offs, the records that govern paths, and
supersede chains. Answered as answers.py answers the rest, Archive × parameters → plain dicts,
for the CLI, local MCP mode and remote MCP mode alike.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_right
from typing import Any

from site_builder.archive.affects import normalise_path
from site_builder.archive.archive import Archive
from site_builder.contract.records import DEFAULT_WITHIN
from site_builder.query.answers import detail, page_bounds, paged, review_json, summary
from site_builder.query.facets import facets_for
from site_builder.query.textindex import fold

__all__ = ["due_reviews", "list_superseded", "records_for_paths", "rfc_reviews"]


def due_reviews(archive: Archive, project: str | None = None, within: int = DEFAULT_WITHIN,
                all: bool = False, limit: int | None = None,
                offset: int | None = None, today: dt.date | None = None) -> dict[str, Any]:
    """Decided records whose review is overdue or due within `within` days, soonest first."""
    limit, offset = page_bounds(limit, offset)
    today = today or dt.date.today()
    horizon = today + dt.timedelta(days=within)
    dues, scheduled = facets_for(archive).scheduled(project or None)
    # Soonest first: the records due within the window are a prefix.
    items = scheduled if all else scheduled[:bisect_right(dues, horizon)]
    out = paged(items, limit, offset)
    out["records"] = [{
        **summary(record),
        "review": review_json(review),
        "overdue": review.due < today,
        "daysLeft": (review.due - today).days,
    } for review, record in items[offset:offset + limit]]
    return out


def rfc_reviews(archive: Archive, reviewer: str | None = None, limit: int | None = None,
                offset: int | None = None) -> dict[str, Any]:
    """Open records with reviewers, with each reviewer's state and who the review waits on."""
    limit, offset = page_bounds(limit, offset)
    wanted = fold(reviewer.lstrip("@")) if reviewer else None
    items = []
    for record in archive.records:
        signoff = archive.signoff(record)
        if signoff is None or not archive.is_open(record):
            continue
        if wanted is not None and wanted not in (fold(h.lstrip("@")) for h in
                                                 signoff.waiting_on):
            continue
        items.append(record)
    out = paged(items, limit, offset)
    out["records"] = [{
        **summary(record),
        "reviewers": dict(record.reviewers),
        "rfcReview": detail(archive, record, body=False)["rfcReview"],
    } for record in items[offset:offset + limit]]
    return out


def records_for_paths(archive: Archive, paths: list[str], limit: int | None = None,
                      offset: int | None = None) -> dict[str, Any]:
    """Records whose `affects` match any of `paths`, or that code in those files (or below
    those folders) cites: those in force, and the rest. Each item says which in `via`
    (`["affects"]`, `["cited"]` or `["affects", "cited"]`)."""
    limit, offset = page_bounds(limit, offset)
    clean = [normalise_path(p) for p in paths]
    cited = archive.citations.records_in(clean)
    hits = []
    for r in archive.records:
        via = [name for name, found in (
            ("affects", bool(r.affects.patterns) and any(r.affects.matches(p) for p in clean)),
            ("cited", r.id in cited)) if found]
        if via:
            hits.append((r, via))
    ordered = ([("current", hit) for hit in hits if archive.is_current(hit[0])]
               + [("historical", hit) for hit in hits if not archive.is_current(hit[0])])
    window = ordered[offset:offset + limit]
    out = paged(ordered, limit, offset)
    for kind in ("current", "historical"):
        out[kind] = [{**summary(r), "via": via} for k, (r, via) in window if k == kind]
    return out


def list_superseded(archive: Archive, limit: int | None = None,
                    offset: int | None = None) -> dict[str, Any]:
    """Every superseded record with its chain of replacements to the current one."""
    limit, offset = page_bounds(limit, offset)
    items = [r for r in archive.records if r.id in archive.superseded_by]
    out = paged(items, limit, offset)
    out["records"] = [{**summary(r), "chain": [summary(c) for c in archive.chain(r)]}
                      for r in items[offset:offset + limit]]
    return out
