"""The queries behind the MCP tools, `search`/`show` and decisions.json.

Pure functions, Archive × parameters → plain dicts in the records' JSON shape (camelCase
output keys). They do not know whether the Archive came from a content folder or from a
published decisions.json, so the CLI, local MCP mode and remote MCP mode answer alike.
"""

from __future__ import annotations

import datetime as dt
import weakref
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from site_builder.archive.archive import Archive, LookupFailed, Review
from site_builder.archive.records import Record
from site_builder.contract.records import DEFAULT_LIMIT, DEFAULT_NAME_LIMIT
from site_builder.errors import UsageError
from site_builder.query.facets import facets_for
from site_builder.query.memo import memoised
from site_builder.query.textindex import Window, fold, index_for


class QueryError(UsageError, ValueError):
    """An argument a query cannot use; the message says how to correct it.

    `lookup` is set when the argument named no record or several (get_record's id).
    """

    def __init__(self, message: str, lookup: LookupFailed | None = None) -> None:
        super().__init__(message)
        self.lookup = lookup


# ---- records as JSON ------------------------------------------------------------------------


def _json_value(value: Any) -> Any:
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    return value


def record_link(archive: Archive, reference: str) -> dict[str, Any]:
    """A reference to another record: `{id, ref, title, status}` or `{id, missing: true}`."""
    target = archive.resolve(reference)
    if target is None:
        return {"id": reference, "missing": True}
    return {"id": target.id, "ref": target.ref, "title": target.title, "status": target.status}


def summary(record: Record) -> dict[str, Any]:
    """One item of a list answer."""
    return {
        "id": record.id,
        "ref": record.ref,
        "title": record.title,
        "status": record.status,
        "date": record.date.isoformat(),
        "project": record.project,
        "type": record.type,
        "tags": list(record.tags),
        "description": record.description,
        "fields": {name: _json_value(value) for name, value in record.fields},
    }


def review_json(review: Review | None) -> dict[str, Any] | None:
    """A review schedule as `{due, reviewed, every}`, or None."""
    if review is None:
        return None
    return {"due": review.due.isoformat(),
            "reviewed": review.reviewed.isoformat() if review.reviewed else None,
            "every": review.every}


def detail(archive: Archive, record: Record, body: bool = True) -> dict[str, Any]:
    """Everything about one record (get_record); without the body for decisions.json."""
    successor = archive.superseded_by.get(record.id)
    current = archive.current_record(record)
    review = archive.review(record)
    signoff = archive.signoff(record)
    out = summary(record)
    out.update({
        "statusNote": record.status_note,
        "authors": list(record.authors),
        "deciders": list(record.deciders),
        "related": [record_link(archive, r) for r in record.related],
        "supersedes": [record_link(archive, r) for r in archive.supersedes_of(record)],
        "supersededBy": record_link(archive, successor) if successor else None,
        "currentRecord": record_link(archive, current.id) if current else None,
        "current": archive.is_current(record),
        "review": review_json(review),
        "reviewers": dict(record.reviewers) if record.reviewers else None,
        "approvals": record.approvals,
        "rfcReview": None if signoff is None else {
            "status": signoff.status,
            "approved": signoff.approved,
            "required": signoff.required,
            "waitingOn": list(signoff.waiting_on),
        },
        "affects": list(record.affects.patterns),
        "source": record.source.to_json() if record.source else None,
        "citedBy": [place.to_json() for place in archive.citations.of(record.id)],
    })
    if body:
        out["body"] = archive.body(record)
    return out


def shown_by(archive: Archive, record: Record) -> frozenset[str]:
    """Ids of the records whose data `detail(archive, record)` holds, its own included: those
    it refers to, and down its supersede chain every record that says it replaces the one
    before (the newest of them is `supersededBy`, the chain's end `currentRecord`, and
    whether any does decides `current`). What a page or copy made from `detail` reads."""
    successors = archive.successors_of(record)
    replaced = archive.supersedes_of(record)
    if not (record.related or replaced or successors):
        return frozenset((record.id,))  # most records: nothing to resolve
    out = {record.id, *successors}
    for reference in (*record.related, *replaced):
        found = archive.resolve(reference)
        if found is not None:
            out.add(found.id)
    for step in archive.chain(record):
        out.add(step.id)
        out.update(archive.successors_of(step))
    return frozenset(out)


# ---- arguments --------------------------------------------------------------------------------


# Arguments arrive checked against the contract (`contract.checked`, which the MCP server and
# the CLI both call), so the queries fill in defaults and trust the rest.


def page_bounds(limit: int | None, offset: int | None,
                default: int = DEFAULT_LIMIT) -> tuple[int, int]:
    """(limit, offset) with the defaults of the ones not given."""
    return (default if limit is None else limit), (0 if offset is None else offset)


def paged(items: Sequence[Any], limit: int, offset: int) -> dict[str, Any]:
    """The paging keys of an answer over `items`: `total`, `offset`, `limit`."""
    return {"total": len(items), "offset": offset, "limit": limit}


def _field_filter(spec: str) -> tuple[str, str]:
    name, sep, value = spec.partition("=")
    if not sep or not name.strip():
        raise QueryError(f'field must be written name=value (for example "risk=high"), '
                         f'not "{spec}"')
    return name.strip(), value.strip()


def _field_matches(record: Record, name: str, value: str) -> bool:
    wanted = fold(value)
    for key, actual in record.fields:
        if key != name:
            continue
        values = actual if isinstance(actual, list) else [actual]
        return any(fold(_text(v)) == wanted for v in values)
    return False


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


# ---- the tools ----------------------------------------------------------------------------------


def list_projects(archive: Archive) -> dict[str, Any]:
    """Every project in `order`, with its record count and its own fields."""
    counts = Counter(r.project for r in archive.records)
    return {"projects": [{
        "id": p.id,
        "name": p.name,
        "description": p.description,
        "owners": list(p.owners),
        "order": p.order,
        "records": counts.get(p.id, 0),
        "fields": [f.to_json() for f in p.fields],
    } for p in archive.projects.values()]}


def search_records(
    archive: Archive,
    project: str | None = None,
    type: str | None = None,
    status: str | None = None,
    tag: str | None = None,
    author: str | None = None,
    field: str | None = None,
    query: str | None = None,
    current_only: bool = False,
    sort: str | None = None,
    limit: int | None = None,
    offset: int | None = None,
) -> dict[str, Any]:
    """Records matching every given filter (case-insensitive) and, with `query`, any of its
    words (textindex.py says how): best match first, or newest first with `sort: "date"`
    (the default without a query). A corrected query comes back as `didYouMean`."""
    limit, offset = page_bounds(limit, offset)
    field_filter = _field_filter(field) if field else None
    hits = _with_facets(archive, {"status": status, "project": project, "type": type,
                                  "tag": tag, "author": author})
    if current_only:
        current = archive.current_ids
        hits = [r for r in hits if r.id in current]
    if field_filter:
        hits = [r for r in hits if _field_matches(r, *field_filter)]
    meant = None
    total = len(hits)
    page = hits[offset:offset + limit]
    if query and query.strip():
        records = archive.records
        # Only the page is ranked in full (textindex.Window); the rest is counted.
        keep = None if len(hits) == len(records) else _numbers_of(archive, hits)
        ranked = index_for(archive).search(query, archive, Window(
            keep=keep, by_number=sort == "date", first=offset + limit))
        meant, total = ranked.did_you_mean, ranked.total
        page = [records[n] for n in ranked.numbers[offset:offset + limit]]
    out: dict[str, Any] = {"total": total, "offset": offset, "limit": limit}
    out["records"] = [summary(r) for r in page]
    if meant is not None:
        out["didYouMean"] = meant
    return out


def _numbers_of(archive: Archive, records: Iterable[Record]) -> set[int]:
    """The numbers (places in `archive.records`) of `records`."""
    numbers = memoised(_NUMBERS, archive, lambda a: {r.id: n for n, r in enumerate(a.records)})
    return {numbers[r.id] for r in records}


_NUMBERS: weakref.WeakKeyDictionary[Archive, dict[str, int]] = weakref.WeakKeyDictionary()


def _with_facets(archive: Archive, wanted: dict[str, str | None]) -> list[Record]:
    """The records matching every given metadata filter, in archive order.

    Starts from the smallest group of the archive's Facets and keeps the records the other
    groups hold too, so a call reads a few short lists rather than every record.
    """
    if not any(wanted.values()):  # no filter: no Facets to make (a second at 100,000)
        return list(archive.records)
    facets = facets_for(archive)
    given = sorted(((facets.records(name, value), name, value)
                    for name, value in wanted.items() if value), key=lambda g: len(g[0]))
    hits = list(given[0][0])
    for _, name, value in given[1:]:
        ids = facets.ids(name, value)
        hits = [r for r in hits if r.id in ids]
    return hits


def get_record(archive: Archive, id: str) -> dict[str, Any]:
    """Every key of one record, body included. Raises QueryError for no match or several."""
    try:
        record = archive.get(id)
    except LookupFailed as exc:
        raise QueryError(str(exc), exc) from None
    return detail(archive, record)


def _counted(names: Iterable[str], limit: int, key: str) -> dict[str, Any]:
    counts = Counter(names)
    ordered = sorted(counts.items(), key=lambda item: (-item[1], fold(item[0]), item[0]))
    return {key: [{"name": n, "count": c} for n, c in ordered[:limit]], "total": len(ordered)}


def _in_project(archive: Archive, project: str | None) -> list[Record]:
    if not project:
        return list(archive.records)
    wanted = fold(project)
    return [r for r in archive.records if fold(r.project) == wanted]


def list_tags(archive: Archive, project: str | None = None,
              limit: int | None = None) -> dict[str, Any]:
    """Tags with their counts, most used first."""
    limit, _ = page_bounds(limit, 0, DEFAULT_NAME_LIMIT)
    return _counted((t for r in _in_project(archive, project) for t in r.tags), limit, "tags")


def list_authors(archive: Archive, project: str | None = None,
                 limit: int | None = None) -> dict[str, Any]:
    """Authors (from `authors` only) with their record counts, most active first."""
    limit, _ = page_bounds(limit, 0, DEFAULT_NAME_LIMIT)
    records = _in_project(archive, project)
    return _counted((a for r in records for a in r.authors), limit, "authors")


def list_fields(archive: Archive) -> dict[str, Any]:
    """The site's custom fields, and each project's own."""
    return {
        "fields": [f.to_json() for f in archive.config.fields],
        "projects": {p.id: [f.to_json() for f in p.fields] for p in archive.projects.values()},
    }
