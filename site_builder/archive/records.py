"""Record (a frozen dataclass) and front-matter parsing.

Parsing never touches the disk: `parse_record` takes the text and where it came from, so the
same code serves files, tests and published data.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from site_builder.archive.affects import Affects
from site_builder.archive.body_files import BodyFile, body_digest
from site_builder.archive.body_files import split_front_matter as split_front_matter
from site_builder.archive.links import BodyLink, body_links, content_root
from site_builder.archive.origins import Source
from site_builder.archive.values import (
    Problems,
    check_field_value,
    date_value,
    due_in_range,
    field_value,
    read_review,
    read_reviewers,
    scalar_text,
    string_list,
)
from site_builder.base.findings import Finding
from site_builder.base.kept import rebuilt_by_init
from site_builder.config.site import BUILT_IN_KEYS, FieldDef
from site_builder.text import yamlfile

FILE_NAME = re.compile(r"^(\d{4,})-([^\s/\\]+)\.md$")
"""`NNNN-slug.md`: at least four digits, a dash, and a slug without spaces or slashes."""


@rebuilt_by_init
@dataclass(frozen=True, slots=True)
class Record:
    """One decision record as written, before anything is derived from other records.

    `id` is `<project>/<type>/<NNNN-slug>`; `path` the source file (absolute), `rel_path` the
    same relative to the archive root in POSIX form; the body starts at `body_line` of the
    file. References (`supersedes`, `related`,
    `superseded_by`) are kept as written and resolved by the Archive. `key_lines` places each
    front-matter key path (`title`, `review.every`, `supersedes.1`) within the front matter,
    whose first line is the file's line 2; `line_of` gives file lines.

    A record read from a folder in another tool's format has `root`, that flat
    folder; its slug is the file stem, and `number` is
    the stem itself when the stem gives no number of its own in the folder (so the ref and
    the short id are derived from the stem). `status_note` is what its status said after
    the status word (`Accepted (for the package pipeline)` → `for the package pipeline`), and
    `lenient` says its problems that its own tool accepts are warnings (read, not judged).

    `body` is the Markdown after the front matter: `body_text` as parsed, or read again from
    the file when the loader left it there (`body_file`, with `body_text` empty).
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
    body_text: str = ""
    body_line: int = 1
    source: Source | None = None
    key_lines: tuple[tuple[str, int], ...] = ()
    root: Path | None = None
    status_note: str | None = None
    lenient: bool = False
    body_file: BodyFile | None = None
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
    def links(self) -> tuple[BodyLink, ...]:
        """The links of the body, found on first use (only `check` and `build` need them)."""
        found = self.body_file.links if self.body_file is not None else None
        return found if found is not None else body_links(self.body)

    @property
    def body(self) -> str:
        """The Markdown body: `body_text`, or read from the file when the loader left it
        there (`body_file`). Raises RecordChanged when that file changed since."""
        return self.body_text if self.body_file is None else self.body_file.read()

    def on_disk(self, path: str, stamp: tuple[int, int], hold: bool = False,
                digest: bytes = b"") -> Record:
        """This record with its body in its file, as read at `stamp` (the file's bytes then
        known by `digest`). With `hold` the body is held too (`BodyFile.text`) and its links
        are found when asked; without, they are found now, uncached (the cache of
        `body_links` would hold the bodies)."""
        known = body_digest(self.body_text)
        if hold:
            return replace(self, body_text="", body_file=BodyFile(
                path, stamp, None, self.body_text, digest=digest, body_digest=known))
        return replace(self, body_text="", body_file=BodyFile(
            path, stamp, body_links.__wrapped__(self.body_text), digest=digest,
            body_digest=known))

    @property
    def field_values(self) -> dict[str, Any]:
        return dict(self.fields)

    @property
    def source_path(self) -> str:
        """The file's path below its content folder (`<project>/<type>/<slug>.md`), or below
        its flat folder (`<stem>.md`) for a record in another tool's format."""
        if self.root is not None:
            return f"{self.slug}.md"
        return f"{self.project}/{self.type}/{self.slug}.md"

    @property
    def content_folder(self) -> Path:
        """The folder the record was loaded from: its content root
        (`<root>/<project>/<type>/<file>`) or its flat folder in another tool's format."""
        return content_root(self.path, self.root)

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
        """The line of a front-matter key (`supersedes`, or an item: `supersedes.1`) in the
        source file; the line of its parent key when the item is not known, else 1."""
        line = yamlfile.line_of(dict(self.key_lines), *key.split("."), default=0)
        return line + 1 if line else 1


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


def _head(data: dict[Any, Any], ctx: RecordContext,
          problems: Problems) -> tuple[str | None, str | None, dt.date | None]:
    """Title, status and date, each None when missing or unusable (an error is reported)."""
    for key in ("title", "status", "date"):
        if data.get(key) in (None, ""):
            problems.add("error", f"missing required key '{key}'", key)
    title, status = data.get("title"), data.get("status")
    if title not in (None, "") and scalar_text(title) is None:
        problems.add("error", f"'title' must be a string, not {title!r}", "title")
    title = scalar_text(title) or None
    if status not in (None, "") and (not isinstance(status, str) or (
            ctx.statuses and status not in ctx.statuses)):
        problems.add("error", f"unknown status {status!r} (one of "
                              f"{', '.join(sorted(ctx.statuses))})", "status")
        # An unknown status still names the record's state: keep it readable (for `mcp`).
        status = status if isinstance(status, str) else None
    date = date_value(data["date"], "date", problems) if data.get("date") is not None else None
    return title, status or None, date


def _custom_fields(data: dict[Any, Any], ctx: RecordContext,
                   problems: Problems) -> tuple[tuple[str, Any], ...]:
    """The declared fields the record sets; unknown keys are warned about."""
    declared = {f.name: f for f in ctx.fields}
    values = []
    for key, value in data.items():
        if key in BUILT_IN_KEYS:
            continue
        if key in declared:
            why = check_field_value(declared[key], value)
            if why:
                problems.add("error", why, str(key))
            else:
                values.append((key, field_value(declared[key], value)))
            continue
        hint = difflib.get_close_matches(str(key), sorted(BUILT_IN_KEYS | set(declared)), n=1)
        extra = f" (did you mean '{hint[0]}'?)" if hint else ""
        problems.add("warning", f"unknown key '{key}'{extra}", str(key))
    for definition in ctx.fields:
        if definition.required and definition.name not in data:
            problems.add("error", f"missing required field '{definition.name}'")
    return tuple(values)


def _reference(data: dict[Any, Any], problems: Problems) -> str | None:
    value = data.get("supersededBy")
    if value is not None and not isinstance(value, str):
        problems.add("error", "'supersededBy' must be one record reference", "supersededBy")
        return None
    return value


def _approvals(data: dict[Any, Any], problems: Problems) -> int | None:
    value = data.get("approvals")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                              or value < 0):
        problems.add("error", "'approvals' must be a whole number", "approvals")
        return None
    return value


def _read_front(text: str, problems: Problems) -> tuple[dict[Any, Any] | None, str, int]:
    """The front matter as a mapping (None when unusable, with an error), body, body line."""
    front, body, body_line = split_front_matter(text)
    if front is None:
        problems.add("error", "no front matter: a record starts with a '---' line, "
                              "its YAML keys, and another '---' line")
        return None, body, body_line
    try:
        data, problems.lines = yamlfile.parse_with_lines(front)
    except yamlfile.YamlError as exc:
        problems.add("error", exc.message, line=exc.line + 1)
        return None, body, body_line
    if not isinstance(data, dict):
        problems.add("error", "front matter must be a mapping of keys to values", line=2)
        return None, body, body_line
    return data, body, body_line


def parse_record(text: str, ctx: RecordContext) -> tuple[Record | None, list[Finding]]:
    """Parse one record file's text.

    Returns the Record (None when it cannot be built: no front matter, bad YAML, a required
    key missing or invalid) and every problem found, each at the line of the key at fault.
    `draft: true` records come back as None with no findings: drafts are never built.
    """
    match = FILE_NAME.match(ctx.file_name)
    assert match, "the loader only parses NNNN-slug.md files"
    problems = Problems(ctx.path)
    data, body, body_line = _read_front(text, problems)
    if data is None:
        return None, problems.items
    draft = data.get("draft")
    if draft is True:
        return None, []
    if draft is not None and not isinstance(draft, bool):
        problems.add("error", "'draft' must be true or false", "draft")
    title, status, date = _head(data, ctx, problems)
    description = data.get("description")
    if description in (None, ""):
        problems.add("warning", "missing 'description': add a one-line summary")
    elif scalar_text(description) is None:
        problems.add("error", "'description' must be a one-line string", "description")
    fields = _custom_fields(data, ctx, problems)
    every, reviewed = read_review(data.get("review"), problems)
    lists = {key: string_list(data.get(key), key, problems)
             for key in ("authors", "deciders", "tags", "related", "supersedes", "affects")}
    reviewers = read_reviewers(data.get("reviewers"), problems)
    superseded_by, approvals = _reference(data, problems), _approvals(data, problems)
    every = due_in_range(every, reviewed or date, problems)
    if title is None or status is None or date is None:
        return None, problems.items
    record = Record(
        project=ctx.project, type=ctx.type, slug=ctx.file_name[:-3], number=match.group(1),
        path=ctx.path, rel_path=ctx.rel_path, title=title, status=sys.intern(status), date=date,
        description=scalar_text(description) or "", authors=lists["authors"],
        deciders=lists["deciders"], tags=lists["tags"], related=lists["related"],
        supersedes=lists["supersedes"], superseded_by=superseded_by, review_every=every,
        reviewed=reviewed, reviewers=reviewers, approvals=approvals,
        affects=Affects(lists["affects"]), fields=fields, body_text=body,
        body_line=body_line, source=ctx.source,
        key_lines=_shared_lines(problems.lines),
    )
    return record, problems.items


# (key, line) pairs, one object each for every record that has it: records written from one
# template place their keys alike, and a pair of its own per key and record was a tenth of a
# loaded archive's memory. Bounded: emptied when it grows past _PAIRS_AT_MOST.
_PAIRS: dict[tuple[str, int], tuple[str, int]] = {}
_PAIRS_AT_MOST = 1 << 16


def _shared_lines(lines: dict[str, int]) -> tuple[tuple[str, int], ...]:
    if len(_PAIRS) > _PAIRS_AT_MOST:
        _PAIRS.clear()
    return tuple([_PAIRS.setdefault(pair, pair) for pair in lines.items()])
