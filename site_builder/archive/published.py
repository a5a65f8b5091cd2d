"""An Archive rebuilt from what a site publishes: decisions.json, llms.txt, llms-full.txt.

The inverse of the build's agent artifacts. decisions.json holds every record as
`query.detail` writes it (without the body), plus the site's statuses and fields; from that
the same Records and the same Archive come back, so the query layer answers for a published
site exactly as it does for the content folder. Parsing only: fetching is the caller's job
(`site_builder.mcp.remote`), and nothing here trusts the data: every record id is checked
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

from site_builder.archive.affects import Affects
from site_builder.archive.archive import Archive, Project
from site_builder.archive.origins import Source
from site_builder.archive.records import FILE_NAME, Record
from site_builder.config import DEFAULT_STATUSES, FieldDef, SiteConfig, Status


class PublishedError(ValueError):
    """Published data that is not what site-builder writes; the message says what is wrong."""


# ---- paths inside the site ------------------------------------------------------------------

_UNSAFE = re.compile(r"[\x00-\x1f\x7f\\]")


def site_path(value: Any, what: str) -> str:
    """`value` as a relative POSIX path inside the site. Raises PublishedError.

    No scheme, no leading `/`, no empty, `.` or `..` segment and no control characters or
    backslashes: whatever decisions.json says, it cannot name a file outside the site.
    """
    if not isinstance(value, str) or not value:
        raise PublishedError(f"{what} must be a non-empty string, not {value!r}")
    segments = value.split("/")
    if (_UNSAFE.search(value) or value.startswith("/")
            or any(s in ("", ".", "..") or s.startswith(".") for s in segments)
            or urlsplit(value).scheme):
        raise PublishedError(f"{what} {value!r} is not a path inside the site")
    return value


def record_id(value: Any, ref: Any = None) -> tuple[str, str, str, str]:
    """(project, type, slug, number) of a published record id, the number taken from `ref`
    when it has one (a record read from another tool's format may have a stem for number).
    Raises PublishedError."""
    path = site_path(value, "record id")
    parts = path.split("/")
    if len(parts) != 3 or ":" in parts[0]:
        raise PublishedError(f"record id {value!r} is not <project>/<type>/<slug>")
    prefix = f"{parts[0]}-{parts[1]}-".upper()
    if isinstance(ref, str) and ref.upper().startswith(prefix) and len(ref) > len(prefix):
        number = ref[len(prefix):]
        return parts[0], parts[1], parts[2], number if number.isdigit() else parts[2]
    match = FILE_NAME.match(parts[-1] + ".md")
    if not match:
        raise PublishedError(f"record id {value!r} is not <project>/<type>/NNNN-slug")
    return parts[0], parts[1], parts[2], match.group(1)


# ---- decisions.json → Archive -----------------------------------------------------------------


def _strings(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise PublishedError(f"expected a list, not {value!r}")
    return tuple(str(v) for v in value)


def _date(value: Any, what: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise PublishedError(f"{what} must be a date as YYYY-MM-DD, not {value!r}") from None


def _reference(link: Any) -> str:
    """The reference a published record link stands for (the id, or what was written)."""
    if isinstance(link, dict) and isinstance(link.get("id"), str):
        return link["id"]
    raise PublishedError(f"a record reference must be an object with an id, not {link!r}")


def _field(data: Any) -> FieldDef:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise PublishedError(f"a field needs a name: {data!r}")
    return FieldDef(name=data["name"], type=str(data.get("type") or "string"),
                    label=data.get("label"), values=_strings(data.get("values")),
                    unit=data.get("unit"), description=data.get("description"),
                    required=bool(data.get("required", False)))


def _status(data: Any) -> Status:
    if isinstance(data, str):
        return Status(data)
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise PublishedError(f"a status needs a name: {data!r}")
    return Status(name=data["name"], open=bool(data.get("open")),
                  current=bool(data.get("current")), label=data.get("label"),
                  description=data.get("description"))


def _record(data: Any) -> Record:
    if not isinstance(data, dict):
        raise PublishedError(f"a record must be an object, not {data!r}")
    project, kind, slug, number = record_id(data.get("id"), data.get("ref"))
    md = site_path(data["md"], f"the md path of {data['id']}") if data.get("md") else (
        f"{data['id']}.md")
    for key in ("title", "status"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise PublishedError(f"record {data['id']} has no {key}")
    review = data.get("review") if isinstance(data.get("review"), dict) else {}
    successor = data.get("supersededBy")
    fields = data.get("fields") or {}
    reviewers = data.get("reviewers") or {}
    source = data.get("source")
    if not isinstance(fields, dict) or not isinstance(reviewers, dict):
        raise PublishedError(f"record {data['id']}: fields and reviewers must be objects")
    return Record(
        project=project, type=kind, slug=slug, number=number, path=Path(md), rel_path=md,
        title=data["title"], status=data["status"], date=_date(data.get("date"), "date"),
        description=str(data.get("description") or ""),
        authors=_strings(data.get("authors")), deciders=_strings(data.get("deciders")),
        tags=_strings(data.get("tags")),
        related=tuple(_reference(r) for r in data.get("related") or ()),
        supersedes=tuple(_reference(r) for r in data.get("supersedes") or ()),
        superseded_by=_reference(successor) if successor else None,
        review_every=review.get("every"),
        reviewed=_date(review["reviewed"], "review.reviewed") if review.get("reviewed")
        else None,
        reviewers=tuple((str(h), str(state)) for h, state in reviewers.items()),
        approvals=data.get("approvals") if isinstance(data.get("approvals"), int) else None,
        affects=Affects(_strings(data.get("affects"))),
        fields=tuple(fields.items()),
        source=Source(str(source.get("location")), source.get("ref"), source.get("commit"))
        if isinstance(source, dict) else None,
    )


def _required_approvals(site: dict[str, Any], records: list[dict[str, Any]]) -> int | None:
    """The site's default number of approvals for records with reviewers.

    Taken from `site` when published; otherwise read back from a record that sets no
    `approvals` of its own but needs fewer or more than all its reviewers.
    """
    review = site.get("review") if isinstance(site.get("review"), dict) else {}
    for value in (site.get("requiredApprovals"), site.get("required_approvals"),
                  review.get("required_approvals")):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    for record in records:
        signoff = record.get("rfcReview")
        if (record.get("approvals") is None and isinstance(signoff, dict)
                and isinstance(record.get("reviewers"), dict)
                and signoff.get("required") != len(record["reviewers"])):
            return signoff.get("required")
    return None


def _project(data: Any) -> Project:
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        raise PublishedError(f"a project needs an id: {data!r}")
    order = data.get("order")
    return Project(id=data["id"], name=str(data.get("name") or data["id"]),
                   description=str(data.get("description") or ""),
                   owners=_strings(data.get("owners")),
                   order=order if isinstance(order, int) and not isinstance(order, bool)
                   else None,
                   fields=tuple(_field(f) for f in data.get("fields") or ()))


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
    site = data.get("site") if isinstance(data.get("site"), dict) else {}
    statuses = tuple(_status(s) for s in data.get("statuses") or ()) or DEFAULT_STATUSES
    config = SiteConfig(
        root=Path("."), title=str(site.get("title") or ""),
        description=str(site.get("description") or ""),
        url=site.get("url") if isinstance(site.get("url"), str) else None,
        base=site.get("base") if isinstance(site.get("base"), str) else "/",
        statuses=statuses, fields=tuple(_field(f) for f in data.get("fields") or ()),
        required_approvals=_required_approvals(site, data["records"]),
    )
    records = [_record(r) for r in data["records"]]
    if isinstance(data.get("projects"), list) and data["projects"]:
        projects = {p.id: p for p in (_project(item) for item in data["projects"])}
    else:
        names = project_names() if project_names else {}
        projects = {r.project: Project(id=r.project, name=names.get(r.project, r.project))
                    for r in records}
    return Archive(config, projects, records, bodies=bodies, all_bodies=all_bodies)


# ---- llms.txt and llms-full.txt -------------------------------------------------------------

_SECTION = re.compile(r"^## (.+?)\s*$")
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
            section = heading.group(1)
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
