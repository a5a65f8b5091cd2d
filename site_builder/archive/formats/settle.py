"""Fields → Record: statuses matched with aliases, dates read, lists split.

Pure like the readers: the git date, the folder's numbering and the site's statuses come in
`Folder` and `FileFacts`, so nothing here touches the disk.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from site_builder import yamlfile
from site_builder.archive.affects import Affects
from site_builder.archive.formats.fields import RELATED, SUPERSEDED_BY, SUPERSEDES, Fields
from site_builder.archive.formats.text import first_paragraph
from site_builder.archive.origins import Foreign, Source
from site_builder.archive.records import Record
from site_builder.archive.values import check_field_value
from site_builder.config import FieldDef
from site_builder.findings import Finding

# Statuses other tools write, and the status each one means here.
ALIASES = {"approved": "accepted", "pending": "proposed", "in review": "proposed",
           "under review": "proposed", "on hold": "proposed", "in progress": "proposed"}
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(.*)$")
_DMY = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})(.*)$")


@dataclass(frozen=True, slots=True)
class Folder:
    """What settling a record needs to know about its folder and site."""

    foreign: Foreign
    statuses: frozenset[str]
    fields: tuple[FieldDef, ...] = ()
    source: Source | None = None
    root: Path | None = None


@dataclass(frozen=True, slots=True)
class FileFacts:
    """One file: where it is, the number its ref uses (the stem when none), its git date."""

    path: Path
    rel_path: str
    stem: str
    number: str
    git_date: dt.date | None = None


@dataclass(slots=True)
class Settled:
    """A record (None for a draft or a file that cannot be one), its findings, and the
    guesses made reading it, in words (`status 'Approved' read as accepted`)."""

    record: Record | None
    findings: list[Finding]
    guesses: list[str]
    draft: bool = False
    """The record is a draft (only when the folder's `Foreign.drafts` keeps drafts)."""


def status_of(written: str, folder: Folder) -> tuple[str | None, str | None]:
    """(status, guess) for a status as written; (None, None) when it is unknown. `draft`
    comes back as the status `draft`."""
    key = " ".join(written.strip().strip("*_.").split())
    lowered = key.lower()
    if key in folder.statuses:
        return key, None
    if lowered == "draft":
        return "draft", None
    mapped = dict(folder.foreign.status_map).get(lowered)
    if mapped is not None:
        return mapped, f"status '{written}' read as {mapped} (status_map)"
    named = next((s for s in sorted(folder.statuses) if s.lower() == lowered), None)
    if named is not None:
        return named, None  # the same name, written with other capitals
    alias = ALIASES.get(lowered)
    if alias is not None and alias in folder.statuses:
        return alias, f"status '{written}' read as {alias}"
    return None, None


def date_of(value: Any) -> tuple[dt.date | None, str | None, str | None]:
    """(date, problem, trailing text) of a date as written: YAML's own date, `YYYY-MM-DD`
    or `DD/MM/YYYY`, text after it ignored (and returned to be warned about)."""
    if isinstance(value, dt.datetime):
        return value.date(), None, None
    if isinstance(value, dt.date):
        return value, None, None
    text = str(value).strip()
    iso, dmy = _ISO.match(text), _DMY.match(text)
    if iso:
        year, month, day, rest = int(iso[1]), int(iso[2]), int(iso[3]), iso[4]
    elif dmy:
        year, month, day, rest = int(dmy[3]), int(dmy[2]), int(dmy[1]), dmy[4]
    else:
        return None, f"'date' must be a date as YYYY-MM-DD or DD/MM/YYYY, not {text!r}", None
    if rest and rest[:1].isdigit():
        return None, f"'date' must be a date as YYYY-MM-DD or DD/MM/YYYY, not {text!r}", None
    try:
        return dt.date(year, month, day), None, rest.strip() or None
    except ValueError:
        return None, f"'date' is not a real date: {text}", None


def _list(value: Any) -> tuple[str, ...]:
    """A list of strings: a comma-separated string is a list too."""
    if value is None:
        return ()
    items = value if isinstance(value, list) else str(value).split(",")
    return tuple(t for t in (str(item).strip() for item in items if item is not None) if t)


def words(stem: str) -> str:
    """A title from a file stem: `20200925-use-react` → `Use react`."""
    text = re.sub(r"^\d+[-_]", "", stem).replace("-", " ").replace("_", " ").strip() or stem
    return text[:1].upper() + text[1:]


def settle(fields: Fields, facts: FileFacts, folder: Folder) -> Settled:
    """The record `fields` describe, every problem with it (at its line), and the guesses."""
    out = Settled(None, [Finding(facts.path, line, level, message)
                         for line, level, message in fields.problems], [])
    values = fields.values

    def problem(level: Any, message: str, key: str | None = None, line: int = 1) -> None:
        out.findings.append(Finding(facts.path, values[key].line if key in values else line,
                                    level, message))

    out.draft = bool(values.get("draft") and values["draft"].text is True)
    if out.draft and not folder.foreign.drafts:
        return Settled(None, [], [])
    title = values["title"].text if "title" in values else None
    if not isinstance(title, str) or not title.strip():
        if title is not None:
            problem("error", f"'title' must be a string, not {title!r}", "title")
        title = words(facts.stem)
        out.guesses.append(f"title '{title}' made from the file name")
    status = _status(values, folder, out, problem)
    if status == "draft":
        if not folder.foreign.drafts:
            return Settled(None, [], [])
        out.draft, status = True, _draft_status(folder, out)
    date = _record_date(values, facts, out, problem)
    description = values["description"].text if "description" in values else None
    if not isinstance(description, str) or not description.strip():
        description = first_paragraph(fields.body)
        if description:
            out.guesses.append("description taken from the first paragraph")
    refs = {SUPERSEDES: [], SUPERSEDED_BY: [], RELATED: []}
    lines: dict[str, int] = {}
    for relation in fields.relations:
        target = relation.target
        if not relation.is_link and target.isdigit():
            target = f"{folder.foreign.project}/{folder.foreign.type}/{target}"
        key = relation.kind
        lines[f"{key}.{len(refs[key])}" if key != SUPERSEDED_BY else key] = relation.line - 1
        refs[key].append(target)
    for key in ("title", "status", "date", "description", "deciders", "tags", "authors"):
        if key in values:
            lines.setdefault(key, values[key].line - 1)
    custom = _custom(values, folder, problem)
    if status is None or date is None:
        return out
    out.record = Record(
        project=folder.foreign.project, type=folder.foreign.type, slug=facts.stem,
        number=facts.number, path=facts.path, rel_path=facts.rel_path, title=title.strip(),
        status=status, date=date, description=description,
        authors=_list(values["authors"].text) if "authors" in values else (),
        deciders=_list(values["deciders"].text) if "deciders" in values else (),
        tags=_list(values["tags"].text) if "tags" in values else (),
        related=tuple(refs[RELATED]), supersedes=tuple(refs[SUPERSEDES]),
        superseded_by=refs[SUPERSEDED_BY][0] if refs[SUPERSEDED_BY] else None,
        affects=Affects(()), fields=custom, body=fields.body, body_line=fields.body_line,
        source=folder.source, key_lines=tuple(lines.items()), root=folder.root,
    )
    return out


def _status(values: dict, folder: Folder, out: Settled, problem: Any) -> str | None:
    if "status" not in values:
        out.guesses.append(f"no status: {folder.foreign.default_status} (default_status)")
        return folder.foreign.default_status
    written = values["status"].text
    status, guess = status_of(str(written), folder)
    if status is None:
        problem("error", f"unknown status {str(written)!r} (one of "
                         f"{', '.join(sorted(folder.statuses))}); map it to one with "
                         f"{folder.foreign.status_hint.format(written=written)}", "status")
        return None
    if guess:
        out.guesses.append(guess)
    return status


def _draft_status(folder: Folder, out: Settled) -> str:
    """The status a kept draft is given: `proposed` when the site has it, else the default."""
    status = "proposed" if "proposed" in folder.statuses else folder.foreign.default_status
    out.guesses.append(f"status 'draft' kept as a draft with status {status}")
    return status


def _record_date(values: dict, facts: FileFacts, out: Settled, problem: Any) -> dt.date | None:
    if "date" not in values:
        if facts.git_date is not None:
            out.guesses.append(f"date {facts.git_date.isoformat()} from git (first commit)")
            return facts.git_date
        problem("error", "no date: add a 'Date: YYYY-MM-DD' line, or commit the file "
                         "(the date of its first commit is used)")
        return None
    value = values["date"].text
    if isinstance(value, yamlfile.InvalidDate):
        problem("error", f"'date' is not a real date: {value}", "date")
        return None
    date, why, rest = date_of(value)
    if why:
        problem("error", why, "date")
    if rest:
        problem("warning", f"text after the date is ignored: {rest!r}", "date")
    return date


def _custom(values: dict, folder: Folder, problem: Any) -> tuple[tuple[str, Any], ...]:
    """The declared custom fields the record sets (`consulted` and `informed` among them)."""
    out = []
    for definition in folder.fields:
        if definition.name not in values:
            continue
        value = values[definition.name].text
        if definition.type == "list" and isinstance(value, str):
            value = list(_list(value))
        why = check_field_value(definition, value)
        if why:
            problem("error", why, definition.name)
            continue
        out.append((definition.name, value))
    return tuple(out)
