"""Fields → Record: statuses matched with aliases, dates read, lists split.

Pure like the readers: the git date, the folder's numbering and the site's statuses come in
`Folder` and `FileFacts`, so nothing here touches the disk.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from site_builder.archive.affects import Affects
from site_builder.archive.formats.dates import SPELLINGS, read_date
from site_builder.archive.formats.fields import RELATED, SUPERSEDED_BY, SUPERSEDES, Fields
from site_builder.archive.formats.placeholders import is_placeholder, without_comments
from site_builder.archive.formats.status import UNKNOWN, match_status
from site_builder.archive.formats.text import first_paragraph
from site_builder.archive.origins import Foreign, Source
from site_builder.archive.records import Record
from site_builder.archive.values import check_field_value
from site_builder.base.findings import Finding, Level
from site_builder.config.site import FieldDef
from site_builder.text import yamlfile


@dataclass(frozen=True, slots=True)
class Folder:
    """What settling a record needs to know about its folder and site."""

    foreign: Foreign
    statuses: frozenset[str]
    fields: tuple[FieldDef, ...] = ()
    source: Source | None = None
    root: Path | None = None

    @property
    def level(self) -> Level:
        """The level of a problem the folder's own tool accepts: a warning (read, not
        judged), an error with `strict: true` on the source."""
        return "error" if self.foreign.strict else "warning"


@dataclass(frozen=True, slots=True)
class FileFacts:
    """One file: where it is, the number its ref uses (the stem when none), its git date."""

    path: Path
    rel_path: str
    stem: str
    number: str
    git_date: dt.date | None = None


class Problem(Protocol):
    """Reports a problem of the record at the line of `key` (line 1 without one)."""

    def __call__(self, level: Level, message: str, key: str | None = None) -> None: ...


@dataclass(slots=True)
class Settled:
    """A record (None for a draft or a file that cannot be one), its findings, and the
    guesses made reading it, in words (`status 'Approved' read as accepted`)."""

    record: Record | None
    findings: list[Finding]
    guesses: list[str]
    draft: bool = False
    """The record is a draft (only when the folder's `Foreign.drafts` keeps drafts)."""


def status_of(written: str, folder: Folder) -> tuple[str | None, str, str | None]:
    """(status, note, guess) for a status as written (`match_status` against the site's
    statuses and the source's `status_map`); None when it has no known word, `draft` for a
    draft."""
    return match_status(written, folder.statuses, dict(folder.foreign.status_map))


def date_of(value: Any) -> tuple[dt.date | None, str | None, str | None]:
    """(date, problem, trailing text) of a date as written: YAML's own date, or a spelling
    `dates.read_date` reads, text after it ignored (and returned to be warned about)."""
    if isinstance(value, dt.datetime):
        return value.date(), None, None
    if isinstance(value, dt.date):
        return value, None, None
    text = without_comments(str(value)).strip()
    if text.startswith("[") and "]" in text:  # Log4brains' `[2022-10-05]`
        inside, _, after = text[1:].partition("]")
        text = f"{inside.strip()} {after.strip()}".strip()
    found = read_date(text)
    if found is None or found[3][:1].isdigit():
        return None, f"'date' must be a date as {SPELLINGS}, not {text!r}", None
    year, month, day, rest = found
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
    """The record `fields` describe, every problem with it (at its line), and the guesses.

    What the folder's own tool accepts is at `folder.level` and the record is published
    with what could be read; only a record without any date (none written, none in git)
    cannot be, and is an error.
    """
    out = Settled(None, [Finding(facts.path, line, level, message)
                         for line, level, message in fields.problems], [])
    values = fields.values

    def problem(level: Level, message: str, key: str | None = None) -> None:
        out.findings.append(Finding(facts.path, values[key].line if key in values else 1,
                                    level, message))

    out.draft = bool(values.get("draft") and values["draft"].text is True)
    if out.draft and not folder.foreign.drafts:
        return Settled(None, [], [])
    status, note = _status(values, folder, out, problem)
    if status == "draft":
        if not folder.foreign.drafts:
            return Settled(None, [], [])
        out.draft, status = True, _draft_status(folder, out)
    title = _title(values, facts, folder, out, problem)
    date = _record_date(values, facts, folder, out, problem)
    description = values["description"].text if "description" in values else None
    if not isinstance(description, str) or not description.strip():
        description = first_paragraph(fields.body)
        if description:
            out.guesses.append("description taken from the first paragraph")
    refs, lines = _references(fields, folder)
    custom = _custom(values, folder, problem)
    if date is None:
        return out
    out.record = Record(
        project=folder.foreign.project, type=folder.foreign.type, slug=facts.stem,
        number=facts.number, path=facts.path, rel_path=facts.rel_path, title=title,
        status=status, date=date, description=description,
        authors=_list(values["authors"].text) if "authors" in values else (),
        deciders=_list(values["deciders"].text) if "deciders" in values else (),
        tags=_list(values["tags"].text) if "tags" in values else (),
        related=tuple(refs[RELATED]), supersedes=tuple(refs[SUPERSEDES]),
        superseded_by=refs[SUPERSEDED_BY][0] if refs[SUPERSEDED_BY] else None,
        affects=Affects(()), fields=custom, body_text=fields.body, body_line=fields.body_line,
        source=folder.source, key_lines=tuple(lines.items()), root=folder.root,
        status_note=note or None, lenient=not folder.foreign.strict,
    )
    return out


def _title(values: dict[str, Any], facts: FileFacts, folder: Folder, out: Settled,
           problem: Problem) -> str:
    """The title as written, else the stem in words (a guess)."""
    title = values["title"].text if "title" in values else None
    if isinstance(title, str) and title.strip():
        return title.strip()
    if title is not None:
        problem(folder.level, f"'title' must be a string, not {title!r}", "title")
    made = words(facts.stem)
    out.guesses.append(f"title '{made}' made from the file name")
    return made


def _references(fields: Fields, folder: Folder) -> tuple[dict[str, list[str]], dict[str, int]]:
    """The references by kind (numbers as `<project>/<type>/<number>`), and the line of
    each and of every metadata key, 0-based as `Record.key_lines` keeps them."""
    refs: dict[str, list[str]] = {SUPERSEDES: [], SUPERSEDED_BY: [], RELATED: []}
    lines: dict[str, int] = {}
    for relation in fields.relations:
        target = relation.target
        if not relation.is_link and target.isdigit():
            target = f"{folder.foreign.project}/{folder.foreign.type}/{target}"
        key = relation.kind
        if target in refs[key]:
            continue  # said twice (in the title's decoration and in the status)
        lines[f"{key}.{len(refs[key])}" if key != SUPERSEDED_BY else key] = relation.line - 1
        refs[key].append(target)
    for key in ("title", "status", "date", "description", "deciders", "tags", "authors"):
        if key in fields.values:
            lines.setdefault(key, fields.values[key].line - 1)
    return refs, lines


def _status(values: dict[str, Any], folder: Folder, out: Settled,
            problem: Problem) -> tuple[str, str]:
    """(status, note): the leading known status and what follows it; `unknown` with the
    text as written as its note when it has no known word."""
    default = folder.foreign.default_status
    if "status" not in values:
        out.guesses.append(f"no status: {default} (default_status)")
        return default, ""
    written = str(values["status"].text)
    if is_placeholder(written):
        problem(folder.level, f"the status is the template's placeholder {written!r}; "
                              f"read as {default} (default_status)", "status")
        return default, ""
    status, note, guess = status_of(written, folder)
    if status is None:
        # Where the site has no `unknown` status (a native archive `import` writes into),
        # such a record could not be published at all.
        publishable = UNKNOWN in folder.statuses
        shown = "published as 'unknown', shown as written" if publishable else "not publishable"
        problem(folder.level if publishable else "error",
                f"unknown status {written!r}: {shown}; map it to one of "
                f"{', '.join(sorted(folder.statuses - {UNKNOWN}))} with "
                f"{folder.foreign.status_hint.format(written=written)}", "status")
        return UNKNOWN, written
    if guess:
        out.guesses.append(guess)
    return status, note


def _draft_status(folder: Folder, out: Settled) -> str:
    """The status a kept draft is given: `proposed` when the site has it, else the default."""
    status = "proposed" if "proposed" in folder.statuses else folder.foreign.default_status
    out.guesses.append(f"status 'draft' kept as a draft with status {status}")
    return status


def _record_date(values: dict[str, Any], facts: FileFacts, folder: Folder, out: Settled,
                 problem: Problem) -> dt.date | None:
    """The date as written, else git's (a guess; with a warning when what is written
    cannot be read); None, with an error, when there is neither."""
    why = None
    if "date" in values:
        value = values["date"].text
        if isinstance(value, yamlfile.InvalidDate):
            why = f"'date' is not a real date: {value}"
        elif isinstance(value, str) and is_placeholder(value):
            why = f"the date is the template's placeholder {value!r}"
        else:
            date, why, rest = date_of(value)
            if rest:
                problem(folder.level, f"text after the date is ignored: {rest!r}", "date")
            if date is not None:
                return date
    if facts.git_date is not None:
        if why:
            problem(folder.level, f"{why}; the date git first added the file is used "
                                  f"({facts.git_date.isoformat()})", "date")
        out.guesses.append(f"date {facts.git_date.isoformat()} from git (first commit)")
        return facts.git_date
    problem("error", (f"{why}, and" if why else "no date:") + " git has no date for the file "
            "either: write 'Date: YYYY-MM-DD', or commit the file (the date of its first "
            "commit is used)", "date")
    return None


def _custom(values: dict[str, Any], folder: Folder,
            problem: Problem) -> tuple[tuple[str, Any], ...]:
    """The declared custom fields the record sets (`consulted` and `informed` among them);
    a value of the wrong kind is left out, at `folder.level`."""
    out = []
    for definition in folder.fields:
        if definition.name not in values:
            continue
        value = values[definition.name].text
        if definition.type == "list" and isinstance(value, str):
            value = list(_list(value))
        why = check_field_value(definition, value)
        if why:
            problem(folder.level, f"{why}; it is left out", definition.name)
            continue
        out.append((definition.name, value))
    return tuple(out)
