"""Record (a frozen dataclass) and front-matter parsing.

Parsing never touches the disk: `parse_record` takes the text and where it came from, so the
same code serves files, tests and published data.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from site_builder import yamlfile
from site_builder.archive.affects import Affects
from site_builder.archive.findings import Finding
from site_builder.archive.links import BodyLink, body_links
from site_builder.archive.origins import Source
from site_builder.archive.schedule import parse_every
from site_builder.config import FieldDef

FILE_NAME = re.compile(r"^(\d+)-([^/\\]+)\.md$")
REVIEW_STATES = ("approved", "changes-requested", "pending")
BUILT_IN_KEYS = frozenset({
    "title", "status", "date", "description", "authors", "deciders", "tags", "related",
    "supersedes", "supersededBy", "draft", "review", "reviewers", "approvals", "affects",
})


@dataclass(frozen=True, slots=True)
class Record:
    """One decision record as written, before anything is derived from other records.

    `id` is `<project>/<type>/<NNNN-slug>`; `path` the source file (absolute), `rel_path` the
    same relative to the archive root in POSIX form; `body` the Markdown after the front matter,
    which starts at `body_line` of the file. References (`supersedes`, `related`,
    `superseded_by`) are kept as written and resolved by the Archive.
    """

    project: str
    type: str
    slug: str
    number: str
    path: Path
    rel_path: str
    title: str
    status: str
    date: dt.date
    description: str = ""
    authors: tuple[str, ...] = ()
    deciders: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    supersedes: tuple[str, ...] = ()
    superseded_by: str | None = None
    review_every: str | None = None
    reviewed: dt.date | None = None
    reviewers: tuple[tuple[str, str], ...] = ()
    approvals: int | None = None
    affects: Affects = field(default_factory=lambda: Affects(()))
    fields: tuple[tuple[str, Any], ...] = ()
    body: str = ""
    body_line: int = 1
    links: tuple[BodyLink, ...] = ()
    source: Source | None = None
    key_lines: tuple[tuple[str, int], ...] = ()
    # Derived from project, type and slug in __post_init__: every lookup, sort and query
    # reads it, and an f-string per read is measurable on 10,000 records.
    id: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", f"{self.project}/{self.type}/{self.slug}")

    @property
    def ref(self) -> str:
        """`SRE-ADR-0001`."""
        return f"{self.project}-{self.type}-{self.number}".upper()

    @property
    def short_id(self) -> str:
        """`sre/adr/0001`."""
        return f"{self.project}/{self.type}/{self.number}"

    @property
    def field_values(self) -> dict[str, Any]:
        return dict(self.fields)

    @property
    def reviewer_states(self) -> dict[str, str]:
        return dict(self.reviewers)

    @property
    def source_path(self) -> str:
        """The file's path below its content folder (`<project>/<type>/<slug>.md`)."""
        return f"{self.project}/{self.type}/{self.slug}.md"

    def edit_url(self, site_edit_url: str | None) -> str | None:
        """The "edit this page" address, or None when there is none to give.

        A record from a source uses the source's own `edit_url` (`{path}` = `source_path`).
        Without one, a record from a `path:` source inside the archive folder still lives in
        the archive's repository, so site.yml's `edit_url` serves; one from elsewhere gets
        None rather than a link to the wrong repository. A local record uses site.yml's
        `edit_url` with `{path}` relative to the archive root.
        """
        if self.source is not None:
            own = self.source.edit_link(self.source_path)
            if own is not None or self.source.from_repository or self.rel_path.startswith("../"):
                return own
        if not site_edit_url:
            return None
        return site_edit_url.replace("{path}", quote(self.rel_path))

    def line_of(self, key: str) -> int:
        """The line of a front-matter key in the source file (1 when unknown)."""
        return dict(self.key_lines).get(key, 1)


@dataclass(frozen=True, slots=True)
class RecordContext:
    """What parsing a record needs to know beyond its text."""

    project: str
    type: str
    file_name: str
    path: Path
    rel_path: str
    fields: tuple[FieldDef, ...] = ()
    statuses: frozenset[str] = frozenset()
    source: Source | None = None


def split_front_matter(text: str) -> tuple[str | None, str, int]:
    """Split `---` front matter from the body.

    Returns (front matter text or None when there is none, body, line where the body starts).
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return None, text, 1
    start = text.index("\n") + 1
    match = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.MULTILINE).search(text, start)
    if not match:
        return None, text, 1
    front = text[start:match.start()]
    end = text.find("\n", match.end())
    body = "" if end == -1 else text[end + 1:]
    body_line = text.count("\n", 0, end) + 2 if end != -1 else text.count("\n") + 2
    return front, body, body_line


class _Problems:
    """Findings against one record file, located by front-matter key."""

    def __init__(self, ctx: RecordContext, lines: dict[str, int]) -> None:
        self.ctx = ctx
        self.lines = lines
        self.items: list[Finding] = []

    def add(self, level: str, message: str, key: str | None = None, line: int | None = None):
        at = line or (self.lines.get(key, 1) + 1 if key else 1)
        self.items.append(Finding(self.ctx.path, at, level, message))  # type: ignore[arg-type]


def _string_list(value: Any, key: str, problems: _Problems) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return tuple(str(v) for v in value)
    problems.add("error", f"'{key}' must be a list of strings", key)
    return ()


def _date(value: Any, key: str, problems: _Problems) -> dt.date | None:
    if isinstance(value, dt.date):
        return value
    if isinstance(value, yamlfile.InvalidDate):
        problems.add("error", f"'{key}' is not a real date: {value}", key)
    else:
        problems.add("error", f"'{key}' must be a date as YYYY-MM-DD, not {value!r}", key)
    return None


def check_field_value(definition: FieldDef, value: Any) -> str | None:
    """Why `value` does not fit `definition`, or None when it does."""
    kind = definition.type
    if kind == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))):
        return f"field '{definition.name}' must be a number, not {value!r}"
    if kind == "boolean" and not isinstance(value, bool):
        return f"field '{definition.name}' must be true or false, not {value!r}"
    if kind == "date" and not (isinstance(value, dt.date) and not isinstance(value, str)):
        return f"field '{definition.name}' must be a date as YYYY-MM-DD, not {value!r}"
    if kind == "string" and not isinstance(value, (str, int, float)):
        return f"field '{definition.name}' must be a string, not {value!r}"
    if kind == "list" and not isinstance(value, (list, str)):
        return f"field '{definition.name}' must be a list, not {value!r}"
    if kind == "enum" and str(value) not in definition.values:
        return (f"field '{definition.name}' must be one of {', '.join(definition.values)}, "
                f"not {value!r}")
    return None


def _field_value(definition: FieldDef, value: Any) -> Any:
    if definition.type == "list" and isinstance(value, str):
        return [value]
    if definition.type in ("string", "enum"):
        return str(value)
    return value


def _reviewers(value: Any, problems: _Problems) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if not isinstance(value, dict):
        problems.add("error", "'reviewers' must map each handle to approved, "
                              "changes-requested or pending", "reviewers")
        return ()
    out = []
    for handle, state in value.items():
        if state not in REVIEW_STATES:
            problems.add("error", f"reviewer '{handle}' has state {state!r}; use one of "
                                  f"{', '.join(REVIEW_STATES)}", "reviewers")
            continue
        out.append((str(handle), state))
    return tuple(out)


def _review(value: Any, problems: _Problems) -> tuple[str | None, dt.date | None]:
    if value is None:
        return None, None
    if not isinstance(value, dict) or "every" not in value:
        problems.add("error", "'review' must be a mapping such as "
                              "{every: \"6 months\", reviewed: 2026-05-01}", "review")
        return None, None
    every = str(value["every"])
    if parse_every(every) is None:
        problems.add("error", f"review 'every' must be N days, weeks, months or years, "
                              f"not {every!r}", "review")
        every = None  # type: ignore[assignment]
    reviewed = value.get("reviewed")
    unknown = set(value) - {"every", "reviewed"}
    if unknown:
        problems.add("warning", f"unknown key '{sorted(unknown)[0]}' in 'review'", "review")
    return every, (_date(reviewed, "review", problems) if reviewed is not None else None)


def parse_record(text: str, ctx: RecordContext) -> tuple[Record | None, list[Finding]]:
    """Parse one record file's text.

    Returns the Record (None when it cannot be built: no front matter, bad YAML, a required
    key missing or invalid) and every problem found, each at the line of the key at fault.
    `draft: true` records come back as None with no findings.
    """
    match = FILE_NAME.match(ctx.file_name)
    assert match, "the loader only parses NNNN-slug.md files"
    front, body, body_line = split_front_matter(text)
    problems = _Problems(ctx, {})
    if front is None:
        problems.add("error", "no front matter: a record starts with a '---' line, "
                              "its YAML keys, and another '---' line")
        return None, problems.items
    try:
        data = yamlfile.parse(front)
    except yamlfile.YamlError as exc:
        problems.add("error", exc.message, line=exc.line + 1)
        return None, problems.items
    if not isinstance(data, dict):
        problems.add("error", "front matter must be a mapping of keys to values", line=2)
        return None, problems.items
    if data.get("draft") is True:
        return None, []
    problems.lines = yamlfile.key_lines(front)
    for key in ("title", "status", "date"):
        if data.get(key) in (None, ""):
            problems.add("error", f"missing required key '{key}'")
    title, status = data.get("title"), data.get("status")
    if title is not None and not isinstance(title, str):
        title = str(title)
    if status is not None and ctx.statuses and status not in ctx.statuses:
        problems.add("error", f"unknown status '{status}' (one of "
                              f"{', '.join(sorted(ctx.statuses))})", "status")
    date = _date(data["date"], "date", problems) if data.get("date") is not None else None
    description = data.get("description")
    if not description:
        problems.add("warning", "missing 'description': add a one-line summary")
    declared = {f.name: f for f in ctx.fields}
    values = []
    for key, value in data.items():
        if key in BUILT_IN_KEYS:
            continue
        if key in declared:
            why = check_field_value(declared[key], value)
            if why:
                problems.add("error", why, key)
            else:
                values.append((key, _field_value(declared[key], value)))
            continue
        hint = difflib.get_close_matches(str(key), sorted(BUILT_IN_KEYS | set(declared)), n=1)
        extra = f" (did you mean '{hint[0]}'?)" if hint else ""
        problems.add("warning", f"unknown key '{key}'{extra}", str(key))
    for definition in ctx.fields:
        if definition.required and definition.name not in data:
            problems.add("error", f"missing required field '{definition.name}'")
    every, reviewed = _review(data.get("review"), problems)
    approvals = data.get("approvals")
    if approvals is not None and (isinstance(approvals, bool) or not isinstance(approvals, int)
                                  or approvals < 0):
        problems.add("error", "'approvals' must be a whole number", "approvals")
        approvals = None
    superseded_by = data.get("supersededBy")
    if superseded_by is not None and not isinstance(superseded_by, str):
        problems.add("error", "'supersededBy' must be one record reference", "supersededBy")
        superseded_by = None
    draft = data.get("draft")
    if draft is not None and not isinstance(draft, bool):
        problems.add("error", "'draft' must be true or false", "draft")
    lists = {key: _string_list(data.get(key), key, problems)
             for key in ("authors", "deciders", "tags", "related", "supersedes", "affects")}
    reviewers = _reviewers(data.get("reviewers"), problems)
    if title in (None, "") or status in (None, "") or date is None:
        return None, problems.items
    record = Record(
        project=ctx.project, type=ctx.type, slug=ctx.file_name[:-3], number=match.group(1),
        path=ctx.path, rel_path=ctx.rel_path, title=title, status=str(status), date=date,
        description=str(description or ""), authors=lists["authors"],
        deciders=lists["deciders"], tags=lists["tags"], related=lists["related"],
        supersedes=lists["supersedes"], superseded_by=superseded_by, review_every=every,
        reviewed=reviewed, reviewers=reviewers, approvals=approvals,
        affects=Affects(lists["affects"]), fields=tuple(values), body=body,
        body_line=body_line, links=body_links(body), source=ctx.source,
        key_lines=tuple((k, v + 1) for k, v in problems.lines.items()),
    )
    return record, problems.items
