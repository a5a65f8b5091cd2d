"""An Archive rebuilt from what a site publishes: decisions.json, llms.txt, llms-full.txt.

The inverse of the build's agent artifacts. decisions.json holds every record as
`query.detail` writes it (without the body), plus the site's statuses and fields; from that
the same Records and the same Archive come back, so the query layer answers for a published
site exactly as it does for the content folder. Parsing only: fetching is the caller's job
(`site_builder.access.remote`), and nothing here trusts the data: every record id is checked
before it can become part of a URL.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from site_builder.access import jsonshape as shape
from site_builder.access.jsonshape import PublishedError
from site_builder.archive.affects import Affects
from site_builder.archive.archive import Archive, Project
from site_builder.archive.cited import Citation, Citations
from site_builder.archive.origins import Source
from site_builder.archive.records import FILE_NAME, Record
from site_builder.archive.schedule import add_interval, parse_every
from site_builder.config.site import DEFAULT_STATUSES, FieldDef, SiteConfig, Status
from site_builder.contract import index as index_contract
from site_builder.contract.validate import Check, Schema, fits, problem

# ---- paths inside the site ------------------------------------------------------------------

_UNSAFE = re.compile(r"[\x00-\x1f\x7f\\]")
_MAX_DIGITS = 18  # a record number that int() reads at once


def site_path(value: Any, what: str) -> str:
    """`value` as a relative POSIX path inside the site. Raises PublishedError.

    No scheme, no leading `/`, no empty, `.` or `..` segment and no control characters or
    backslashes: whatever decisions.json says, it cannot name a file outside the site.
    """
    if not isinstance(value, str) or not value:
        raise PublishedError(f"{what} must be a non-empty string, not {shape.shown(value)}")
    shape.text(value, what)  # a lone surrogate cannot become part of a URL
    segments = value.split("/")
    if (_UNSAFE.search(value) or value.startswith("/")
            or any(s in ("", ".", "..") or s.startswith(".") for s in segments)
            or urlsplit(value).scheme):
        raise PublishedError(f"{what} {shape.shown(value)} is not a path inside the site")
    return value


def record_id(value: Any, ref: Any = None) -> tuple[str, str, str, str]:
    """(project, type, slug, number) of a published record id, the number taken from `ref`
    when it has one (a record read from another tool's format may have a stem for number).
    Raises PublishedError."""
    path = site_path(value, "record id")
    parts = path.split("/")
    if len(parts) != 3 or ":" in parts[0]:
        raise PublishedError(f"record id {shape.shown(value)} is not <project>/<type>/<slug>")
    prefix = f"{parts[0]}-{parts[1]}-".upper()
    if isinstance(ref, str) and ref.upper().startswith(prefix) and len(ref) > len(prefix):
        number = ref[len(prefix):]
        if number.isdigit() and len(number) > _MAX_DIGITS:
            raise PublishedError(f"record ref {shape.shown(ref)} has a number of more than "
                                 f"{_MAX_DIGITS} digits")
        return parts[0], parts[1], parts[2], number if number.isdigit() else parts[2]
    match = FILE_NAME.match(parts[-1] + ".md")
    if not match:
        raise PublishedError(f"record id {shape.shown(value)} is not <project>/<type>/NNNN-slug")
    if len(match.group(1)) > _MAX_DIGITS:
        raise PublishedError(f"record id {shape.shown(value)} has a number of more than "
                             f"{_MAX_DIGITS} digits")
    return parts[0], parts[1], parts[2], match.group(1)


# ---- decisions.json → Archive -----------------------------------------------------------------
#
# The document is first checked against `index_contract.readable()`, the same declaration the
# build publishes as decisions.schema.json, loosened for sites of other versions (keys may be
# missing or new). So every value below already has its declared type; what is left to check
# here is what a schema cannot say. The first problem stops the decoding with a message naming
# its place (`records[3] (build/adr/0001-x).date`) and what is wrong with it.

_MAX_PATTERNS = 1000  # `affects` patterns of one record
_READABLE = index_contract.readable()
_DEFS = _READABLE["$defs"]
_RECORD = index_contract.record()


# The same rules compiled once; `problem` words the sentence when a value does not fit.
_FITS_DOCUMENT = fits(_READABLE, _DEFS)
_FITS_RECORD = fits(_RECORD, _DEFS)


def _checked(value: Any, schema: Schema, check: Check, where: str) -> None:
    """Raise PublishedError with the validator's sentence when `value` does not fit."""
    if not check(value):
        raise PublishedError((problem(value, schema, where, _DEFS) or
                              f"{where} does not fit its declaration").rstrip("."))


def _field(data: dict[str, Any]) -> FieldDef:
    return FieldDef(name=data["name"], type=data.get("type") or "string",
                    label=data.get("label"), values=tuple(data.get("values") or ()),
                    unit=data.get("unit"), description=data.get("description"),
                    required=bool(data.get("required")))


def _status(data: str | dict[str, Any]) -> Status:
    if isinstance(data, str):
        return Status(data)
    return Status(name=data["name"], open=bool(data.get("open")),
                  current=bool(data.get("current")), label=data.get("label"),
                  description=data.get("description"))


def _review(data: dict[str, Any], where: str, date: dt.date) -> tuple[str | None,
                                                                      dt.date | None]:
    """(every, reviewed) of a record's published `review`."""
    review = data.get("review") or {}
    every = review.get("every")
    reviewed = (shape.date(review["reviewed"], f"{where}.review.reviewed")
                if review.get("reviewed") is not None else None)
    parsed = parse_every(every) if every else None
    if parsed is not None:
        try:  # the Archive works the due date out again; it must exist
            add_interval(reviewed or date, *parsed)
        except (OverflowError, ValueError):
            raise PublishedError(f"{where}.review.every {every!r} puts the next review "
                                 "after the year 9999") from None
    return every, reviewed


def _source(value: dict[str, Any] | None) -> Source | None:
    if not value:
        return None
    return Source(value["location"], value.get("ref"), value.get("commit"))


def _record(data: Any, where: str, statuses: frozenset[str] | None) -> Record:
    if not isinstance(data, dict):
        raise shape.wrong(where, "an object", data)
    project, kind, slug, number = record_id(data.get("id"), data.get("ref"))
    where = f"{where} ({data['id']})"
    _checked(data, _RECORD, _FITS_RECORD, where)
    md = site_path(data["md"], f"{where}.md") if data.get("md") else f"{data['id']}.md"
    if not md.endswith(".md"):
        raise shape.wrong(f"{where}.md", "the path of a .md copy", md)
    if statuses is not None and data["status"] not in statuses:
        raise PublishedError(f"{where}.status {data['status']!r} is not one of the published "
                             "statuses")
    date = shape.date(data["date"], f"{where}.date")
    every, reviewed = _review(data, where, date)
    reviewers = data.get("reviewers") or {}
    fields = data.get("fields") or {}
    affects = tuple(data.get("affects") or ())
    if len(affects) > _MAX_PATTERNS:
        raise PublishedError(f"{where}.affects holds more than {_MAX_PATTERNS} patterns")
    successor = data.get("supersededBy")
    return Record(
        project=project, type=kind, slug=slug, number=number, path=Path(md), rel_path=md,
        title=data["title"], status=data["status"], date=date,
        status_note=data.get("statusNote"),
        description=data.get("description") or "",
        authors=tuple(data.get("authors") or ()),
        deciders=tuple(data.get("deciders") or ()),
        tags=tuple(data.get("tags") or ()),
        related=tuple(link["id"] for link in data.get("related") or ()),
        supersedes=tuple(link["id"] for link in data.get("supersedes") or ()),
        superseded_by=successor["id"] if successor else None,
        review_every=every, reviewed=reviewed,
        reviewers=tuple(reviewers.items()),
        approvals=data.get("approvals"),
        affects=Affects(affects),
        fields=tuple((name, shape.value_of(value, f"{where}.fields.{name}"))
                     for name, value in fields.items()),
        source=_source(data.get("source")),
    )


def _required_approvals(site: dict[str, Any], records: list[Any]) -> int | None:
    """The site's default number of approvals for records with reviewers.

    Taken from `site` when published; otherwise read back from a record that sets no
    `approvals` of its own but needs fewer or more than all its reviewers.
    """
    found = site.get("review")
    review: dict[str, Any] = found if isinstance(found, dict) else {}
    for value in (site.get("requiredApprovals"), site.get("required_approvals"),
                  review.get("required_approvals")):
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
    for record in records:
        signoff = record.get("rfcReview")
        required = signoff.get("required") if isinstance(signoff, dict) else None
        if (record.get("approvals") is None and isinstance(required, int)
                and not isinstance(required, bool) and required >= 0
                and isinstance(record.get("reviewers"), dict)
                and required != len(record["reviewers"])):
            return required
    return None


def _project(data: dict[str, Any]) -> Project:
    return Project(id=data["id"], name=data.get("name") or data["id"],
                   description=data.get("description") or "",
                   owners=tuple(data.get("owners") or ()), order=data.get("order"),
                   fields=tuple(_field(f) for f in data.get("fields") or ()))


def _config(data: dict[str, Any]) -> SiteConfig:
    """The site's settings as decisions.json publishes them."""
    site = data.get("site") or {}
    return SiteConfig(
        root=Path("."), title=site.get("title") or "",
        description=site.get("description") or "",
        url=site.get("url"), base=site.get("base", "/"),
        statuses=tuple(_status(s) for s in data.get("statuses") or ()) or DEFAULT_STATUSES,
        fields=tuple(_field(f) for f in data.get("fields") or ()),
        required_approvals=_required_approvals(site, data["records"]),
    )


def archive_from_index(
    data: Any,
    bodies: Callable[[Record], str],
    all_bodies: Callable[[], Mapping[str, str]],
    project_names: Callable[[], Mapping[str, str]] | None = None,
) -> Archive:
    """The Archive that decisions.json describes. Raises PublishedError.

    `bodies` and `all_bodies` supply bodies lazily (decisions.json has none).
    `project_names` is asked only when decisions.json lists no projects (project id →
    name, as llms.txt gives them); without it a project is named after its folder.
    """
    if not isinstance(data, dict) or not isinstance(data.get("records"), list):
        raise PublishedError("it is not a site-builder decisions.json (no records list)")
    # A null section is a missing one, as older versions wrote it.
    _checked({key: value for key, value in data.items() if value is not None}, _READABLE,
             _FITS_DOCUMENT, "decisions.json")
    published = (frozenset(s if isinstance(s, str) else s["name"] for s in data["statuses"])
                 if data.get("statuses") else None)
    records = [_record(r, f"records[{i}]", published) for i, r in enumerate(data["records"])]
    seen: set[str] = set()
    for index, record in enumerate(records):
        if record.id in seen:
            raise PublishedError(f"records[{index}] ({record.id}) is listed twice")
        seen.add(record.id)
    listed = data.get("projects") or ()
    if listed:
        projects = {p.id: p for p in map(_project, listed)}
    else:
        names = project_names() if project_names else {}
        projects = {r.project: Project(id=r.project, name=names.get(r.project, r.project))
                    for r in records}
    cited = Citations({record.id: _cited_by(item)
                       for record, item in zip(records, data["records"], strict=True)})
    return Archive(_config(data), projects, records, bodies=bodies,
                   all_bodies=all_bodies, citations=lambda archive: cited)


def _cited_by(item: dict[str, Any]) -> list[Citation]:
    """A published record's `citedBy` (checked against the contract already): the places
    the code of the site's repository cites it, which the site alone knows."""
    return [Citation(place["path"], place["line"]) for place in item.get("citedBy") or ()
            if "path" in place and "line" in place]


def bad_patterns(archive: Archive) -> list[str]:
    """One line per `affects` pattern of the archive that cannot be matched (it matches
    nothing), for the log."""
    return [f"{record.id}: affects pattern {record.affects.patterns[index]!r} cannot be "
            f"used: {reason}; it matches nothing"
            for record in archive.records for index, reason in record.affects.problems()]


# ---- llms.txt and llms-full.txt -------------------------------------------------------------

_SECTION = re.compile(r"^## (.+)$")  # stripped after: `(.+?)\s*$` is quadratic on spaces
_LINK = re.compile(r"^\s*-\s*\[[^\]]*\]\(([^)\s]+)\)")


def project_names(llms_txt: str, site_url: str) -> dict[str, str]:
    """Project id → name from llms.txt: each `## Name` section's links name the project.

    Links are `.md` copies (`<project>/<type>/<slug>.md`), relative or absolute under
    `site_url`. The `## Optional` section lists records of every project and names none.
    """
    names: dict[str, str] = {}
    section = None
    base = urlsplit(site_url).path.rstrip("/") + "/"
    for line in llms_txt.splitlines():
        heading = _SECTION.match(line)
        if heading:
            section = heading.group(1).strip()
            continue
        link = _LINK.match(line)
        if not link or section is None or section == "Optional":
            continue
        path = unquote(urlsplit(link.group(1)).path)
        path = path[len(base):] if path.startswith(base) else path.lstrip("./")
        project = path.split("/", 1)[0]
        if project and "/" in path:
            names.setdefault(project, section)
    return names


_COPY_START = re.compile(r'^---\nid: ("(?:[^"\\\n]|\\.)*")\n', re.MULTILINE)


def bodies_from_full(text: str, ids: set[str]) -> dict[str, str]:
    """Record id → body, read from llms-full.txt (every `.md` copy, one after another).

    A copy starts with its YAML block (`---`, `id: "…"`, …, `---`); its body runs to the
    next copy of a known record, less the blank line the build puts before each copy.
    """
    starts: list[tuple[int, int, str]] = []
    for match in _COPY_START.finditer(text):
        try:
            found = json.loads(match.group(1))
        except ValueError:
            continue
        if found in ids:
            starts.append((match.start(), match.end(), found))
    bodies: dict[str, str] = {}
    for index, (_start, after_id, found) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(text)
        close = text.find("\n---\n", after_id - 1, end)
        body = text[close + 5:end] if close != -1 else ""
        if index + 1 < len(starts) and body.endswith("\n\n"):
            body = body[:-1]
        bodies[found] = body
    return bodies
