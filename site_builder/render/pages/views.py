"""What the templates show, as plain values: listing rows, filters, one record's details.

Everything here is read from the query layer (`summary`, `detail`) and the Archive's derived
values; nothing about lineage, reviews or sign-off is worked out again. Paths are site paths
(`build/adr/0001-x/index.html`); templates turn them into relative links for the page at hand.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin

from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.config.site import FieldDef, SiteConfig
from site_builder.query import answers as query
from site_builder.render.pages.urls import Urls, tag_slug

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun",
           "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def date_text(value: dt.date | str) -> str:
    """`2026-10-27` → `27 Oct 2026` (unambiguous in every locale, unlike 10/27/2026)."""
    day = dt.date.fromisoformat(value) if isinstance(value, str) else value
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


@dataclass(frozen=True, slots=True)
class StatusView:
    """How a status is shown: its label and kind (`current`, `open` or `closed`)."""

    name: str
    label: str
    kind: str
    description: str


def status_views(config: SiteConfig) -> dict[str, StatusView]:
    """Every configured status by name, in the configured order."""
    out = {}
    for status in config.statuses:
        data = status.to_json()
        kind = "current" if status.current else "open" if status.open else "closed"
        out[status.name] = StatusView(status.name, data["label"], kind, data["description"])
    return out


def status_view(statuses: dict[str, StatusView], name: str) -> StatusView:
    """The view of status `name`; a status missing from the config shows as written."""
    return statuses.get(name) or StatusView(name, name.capitalize(), "closed", "")


@dataclass(frozen=True, slots=True)
class Tag:
    name: str
    slug: str
    page: str


@functools.lru_cache(maxsize=4096)
def tag(name: str) -> Tag:
    """The tag written `name`. Remembered: an archive uses a few dozen tags tens of thousands
    of times, and a slug takes Unicode normalisation and a regex."""
    return Tag(name, tag_slug(name), Urls.tag_page(name))


@dataclass(frozen=True, slots=True)
class Row:
    """One record in a listing: its summary plus what a listing shows beside it."""

    summary: dict[str, Any]
    page: str
    status: StatusView
    project_name: str
    type_label: str
    date_text: str
    tags: tuple[Tag, ...]
    tag_slugs: str
    """Space-separated tag slugs, for the `data-tags` filter attribute: worked out once,
    since a row is listed four or five times."""
    current: bool
    replaced: bool


def type_label(record_type: str) -> str:
    """`adr` → `ADR`: record types are acronyms far more often than words."""
    return record_type.upper() if len(record_type) <= 4 else record_type.capitalize()


def rows(archive: Archive) -> dict[str, Row]:
    """A listing row for every record, by id, newest first."""
    statuses = status_views(archive.config)
    return {record.id: row(archive, record, statuses) for record in archive.records}


def row(archive: Archive, record: Record, statuses: dict[str, StatusView]) -> Row:
    """The listing row of one record (`statuses`: `status_views` of the archive's config)."""
    project = archive.projects.get(record.project)
    tags = tuple(tag(t) for t in record.tags)
    return Row(
        summary=query.summary(record),
        page=Urls.record_page(record),
        status=status_view(statuses, record.status),
        project_name=project.name if project else record.project,
        type_label=type_label(record.type),
        date_text=date_text(record.date),
        tags=tags,
        tag_slugs=" ".join(t.slug for t in tags),
        current=archive.is_current(record),
        replaced=record.id in archive.superseded_by,
    )


def row_reads(archive: Archive, record: Record) -> tuple[str, ...]:
    """Ids of the records `row(archive, record)` shows something of: the record, and every
    record that says it replaces it (whether one does decides `current` and `replaced`)."""
    return (record.id, *archive.successors_of(record))


# ---- filters on listing pages ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: str
    count: int


@dataclass(frozen=True, slots=True)
class Filter:
    """One `<select>` of a listing's filter bar; `key` names the row's data attribute."""

    key: str
    label: str
    choices: tuple[Choice, ...]


def filters(listed: Sequence[Row], config: SiteConfig, keys: Iterable[str]) -> tuple[Filter, ...]:
    """The filters (`project`, `status`, `tag`) worth offering for these rows.

    A filter with fewer than two choices is left out: it could not narrow anything.
    """
    built = []
    for key in keys:
        if key == "project":
            counts = _count((r.summary["project"], r.project_name) for r in listed)
            choices = [Choice(v, label, n) for (v, label), n in counts.items()]
            title = "Project"
        elif key == "status":
            counts = _count((r.status.name, r.status.label) for r in listed)
            order = [s.name for s in config.statuses]
            choices = sorted((Choice(v, label, n) for (v, label), n in counts.items()),
                             key=lambda c: order.index(c.value) if c.value in order else 99)
            title = "Status"
        else:
            counts = _count((t.slug, t.name) for r in listed for t in r.tags)
            choices = sorted((Choice(v, label, n) for (v, label), n in counts.items()),
                             key=lambda c: c.label.casefold())
            title = "Tag"
        if len(choices) > 1:
            built.append(Filter(key, title, tuple(choices)))
    return tuple(built)


def _count(pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for pair in pairs:
        counts[pair] = counts.get(pair, 0) + 1
    return counts


# ---- one record ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Link:
    """A reference to another record as `detail` gives it, with its page (None when missing)."""

    id: str
    ref: str
    title: str
    status: StatusView | None
    page: str | None


@dataclass(frozen=True, slots=True)
class FieldValue:
    label: str
    text: str
    description: str


@dataclass(frozen=True, slots=True)
class Reviewer:
    handle: str
    state: str
    label: str


@dataclass(frozen=True, slots=True)
class CodePlace:
    """A place in the code citing the record: `path:line` as shown, and its address in the
    repository (None without `repo_url`)."""

    text: str
    url: str | None


def code_places(archive: Archive, record: Record) -> tuple[CodePlace, ...]:
    """Where the code cites `record`, each linked through `repo_url` (the address of the
    archive's folder, as for links in bodies) to its line, `#L<line>`."""
    places = archive.citations.of(record.id)
    base, scan = archive.config.repository_url, archive.citations.scan
    if not places or base is None or scan is None:
        return tuple(CodePlace(f"{p.path}:{p.line}", None) for p in places)
    # The repository's top as seen from the archive's folder: `..` for example-site.
    up = Path(os.path.relpath(scan.top, archive.config.root)).as_posix()
    prefix = "" if up == "." else up + "/"
    return tuple(CodePlace(f"{p.path}:{p.line}",
                           urljoin(base, quote(prefix + p.path)) + f"#L{p.line}")
                 for p in places)


@dataclass(frozen=True, slots=True)
class RecordView:
    """Everything a record page shows besides the rendered body."""

    row: Row
    detail: dict[str, Any]
    authors: tuple[str, ...]
    deciders: tuple[str, ...]
    fields: tuple[FieldValue, ...]
    supersedes: tuple[Link, ...]
    superseded_by: Link | None
    current_record: Link | None
    related: tuple[Link, ...]
    review_due: str | None
    review_every: str | None
    reviewed: str | None
    signoff: dict[str, Any] | None
    reviewers: tuple[Reviewer, ...]
    markdown: str
    edit_url: str | None
    cited: tuple[CodePlace, ...] = ()


_REVIEW_LABELS = {"approved": "Approved", "changes-requested": "Changes requested",
                  "pending": "Pending"}


def record_view(archive: Archive, record: Record, row: Row,
                statuses: dict[str, StatusView]) -> RecordView:
    """The record page's values, from `query.detail` and the record's declared fields
    (`statuses`: `status_views` of the archive's config, worked out once per site)."""
    data = query.detail(archive, record, body=False)

    def link(ref: dict[str, Any] | None) -> Link | None:
        if ref is None:
            return None
        if ref.get("missing"):
            return Link(ref["id"], ref["id"], ref["id"], None, None)
        return Link(ref["id"], ref["ref"], ref["title"], status_view(statuses, ref["status"]),
                    Urls.record_page(archive.by_id[ref["id"]]))

    review = data["review"]
    return RecordView(
        row=row,
        detail=data,
        authors=record.authors,
        deciders=record.deciders,
        fields=field_values(archive.fields_for(record), record.field_values),
        supersedes=tuple(filter(None, map(link, data["supersedes"]))),
        superseded_by=link(data["supersededBy"]),
        current_record=link(data["currentRecord"]),
        related=tuple(filter(None, map(link, data["related"]))),
        review_due=date_text(review["due"]) if review else None,
        review_every=review["every"] if review else None,
        reviewed=date_text(review["reviewed"]) if review and review["reviewed"] else None,
        signoff=data["rfcReview"],
        reviewers=tuple(Reviewer(h, s, _REVIEW_LABELS.get(s, s)) for h, s in record.reviewers),
        markdown=Urls.record_markdown(record),
        edit_url=record.edit_url(archive.config.edit_url),
        cited=code_places(archive, record),
    )


def field_values(declared: Sequence[FieldDef], values: dict[str, Any]) -> tuple[FieldValue, ...]:
    """The record's custom fields in declaration order, each as label and display text."""
    out = []
    for definition in declared:
        if definition.name not in values:
            continue
        label, description = _shown(definition)
        text = field_text(values[definition.name])
        if definition.unit:
            text = f"{text} {unit_for(values[definition.name], definition.unit)}"
        out.append(FieldValue(label, text, description))
    return tuple(out)


def unit_for(value: Any, unit: str) -> str:
    """`unit` as it reads after `value`: units are declared in the plural (`days`), and one
    of them is singular (`1 day`). Units that are no English plural (`EUR`, `ms`, `class`)
    stay as written."""
    single = (isinstance(value, (int, float)) and not isinstance(value, bool)
              and abs(value) == 1)
    if single and len(unit) > 2 and unit.endswith("s") and not unit.endswith("ss"):
        return unit[:-1]
    return unit


@functools.lru_cache(maxsize=256)
def _shown(definition: FieldDef) -> tuple[str, str]:
    """A field's label and description, defaults filled in: asked for on every record page."""
    data = definition.to_json()
    return data["label"], data["description"]


def field_text(value: Any) -> str:
    """A custom field value as people read it: `Yes`/`No`, dates spelt out, lists joined."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, dt.date):
        return date_text(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(field_text(v) for v in value)
    return str(value)
