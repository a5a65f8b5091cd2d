"""Front-matter values read one kind at a time: each reader gives a value, or a problem at
the key's own line (and the value to go on with).

`parse_record` (records.py) reads a record with these; the readers of other tools' formats
check custom field values with `check_field_value` too.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from pathlib import Path
from typing import Any

from site_builder.archive.schedule import add_interval, parse_every
from site_builder.base.findings import Finding, Level
from site_builder.config.site import FieldDef
from site_builder.text import yamlfile

REVIEW_STATES = ("approved", "changes-requested", "pending")


class Problems:
    """Findings against one record file, located by front-matter key path (`review.every`).

    `lines` are the key lines within the front matter, which starts on the file's line 2.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: yamlfile.KeyLines = {}
        self.items: list[Finding] = []

    def add(self, level: Level, message: str, key: str | None = None,
            line: int | None = None) -> None:
        if line is None:
            line = yamlfile.line_of(self.lines, *key.split("."), default=0) + 1 if key else 1
        self.items.append(Finding(self.path, line, level, message))


def scalar_text(value: Any) -> str | None:
    """A scalar as text (numbers and dates as written), or None for lists, maps and booleans."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float, dt.date)):
        return None
    return value.isoformat() if isinstance(value, dt.date) else str(value)


def string_list(value: Any, key: str, problems: Problems) -> tuple[str, ...]:
    """A list of strings; a single string is a list of one. The strings are interned: the
    same tags and people recur across an archive, one object each (`sys.intern`)."""
    if value is None:
        return ()
    if type(value) is list and all(type(item) is str for item in value):
        return tuple(map(sys.intern, value))  # the usual case, checked in one pass
    items = value if isinstance(value, list) else [value]
    out = []
    for index, item in enumerate(items):
        text = scalar_text(item)
        if text is None:
            hint = " (quote it: YAML reads yes/no/on/off as true/false)" \
                if isinstance(item, bool) else ""
            problems.add("error", f"'{key}' must be a list of strings, not {item!r}{hint}",
                         f"{key}.{index}" if isinstance(value, list) else key)
            continue
        out.append(sys.intern(text))
    return tuple(out)


_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def date_value(value: Any, key: str, problems: Problems) -> dt.date | None:
    """A date from YAML's own date, or a quoted `YYYY-MM-DD`."""
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str) and _ISO_DATE.match(value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            value = yamlfile.InvalidDate(value)
    if isinstance(value, yamlfile.InvalidDate):
        problems.add("error", f"'{key}' is not a real date: {value}", key)
    else:
        problems.add("error", f"'{key}' must be a date as YYYY-MM-DD, not {value!r}", key)
    return None


def check_field_value(definition: FieldDef, value: Any) -> str | None:
    """Why `value` does not fit `definition`, or None when it does."""
    kind, name = definition.type, definition.name
    if kind == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))):
        return f"field '{name}' must be a number, not {value!r}"
    if kind == "boolean" and not isinstance(value, bool):
        return f"field '{name}' must be true or false, not {value!r}"
    if kind == "date" and not isinstance(value, dt.date):
        if isinstance(value, yamlfile.InvalidDate):
            return f"field '{name}' is not a real date: {value}"
        return f"field '{name}' must be a date as YYYY-MM-DD, not {value!r}"
    if kind in ("string", "enum") and scalar_text(value) is None:
        return f"field '{name}' must be a single value, not {value!r}"
    if kind == "list" and not (isinstance(value, str) or (
            isinstance(value, list) and all(scalar_text(v) is not None for v in value))):
        return f"field '{name}' must be a list of values, not {value!r}"
    if kind == "enum" and scalar_text(value) not in definition.values:
        return f"field '{name}' must be one of {', '.join(definition.values)}, not {value!r}"
    return None


def field_value(definition: FieldDef, value: Any) -> Any:
    if definition.type == "list":
        return [value] if isinstance(value, str) else [scalar_text(v) for v in value]
    if definition.type in ("string", "enum"):
        return scalar_text(value)
    return value


def read_reviewers(value: Any, problems: Problems) -> tuple[tuple[str, str], ...]:
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
                                  f"{', '.join(REVIEW_STATES)}", f"reviewers.{handle}")
            continue
        out.append((str(handle), state))
    return tuple(out)


def read_review(value: Any, problems: Problems) -> tuple[str | None, dt.date | None]:
    if value is None:
        return None, None
    if not isinstance(value, dict) or "every" not in value:
        problems.add("error", "'review' must be a mapping such as "
                              "{every: \"6 months\", reviewed: 2026-05-01}", "review")
        return None, None
    text = str(value["every"])
    every: str | None = text
    # Length first: int() of thousands of digits raises, and no real interval needs more.
    if len(text) > _MAX_EVERY_TEXT or parse_every(text) is None:
        shown = text if len(text) <= _MAX_EVERY_TEXT else f"{text[:_MAX_EVERY_TEXT]}…"
        problems.add("error", f"review 'every' must be N days, weeks, months or years, "
                              f"not {shown!r}", "review.every")
        every = None
    for key in value:
        if key not in ("every", "reviewed"):
            problems.add("warning", f"unknown key '{key}' in 'review'", f"review.{key}")
    reviewed = value.get("reviewed")
    if reviewed is None:
        return every, None
    return every, date_value(reviewed, "review.reviewed", problems)


_MAX_EVERY_TEXT = 32


def due_in_range(every: str | None, start: dt.date | None, problems: Problems) -> str | None:
    """`every` when the review it schedules from `start` falls on a date the calendar holds;
    None (with an error at `review.every`) when it would fall after the year 9999."""
    parsed = parse_every(every) if every is not None else None
    if parsed is None or start is None:
        return every
    try:
        add_interval(start, *parsed)
    except (OverflowError, ValueError):
        problems.add("error", f"review 'every: {every}' from {start.isoformat()} falls due "
                              "after the year 9999; give a shorter interval", "review.every")
        return None
    return every
