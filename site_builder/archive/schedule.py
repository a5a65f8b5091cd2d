"""Review schedules: `every: 6 months` → the next due date."""

from __future__ import annotations

import calendar
import datetime as dt
import re

_EVERY = re.compile(r"^\s*(\d+)\s*(day|week|month|year)s?\s*$", re.IGNORECASE)


def parse_every(text: str) -> tuple[int, str] | None:
    """`"6 months"` → `(6, "month")`.

    Returns None when the text is not N day(s), week(s), month(s) or year(s).
    """
    match = _EVERY.match(text)
    if not match or int(match.group(1)) < 1:
        return None
    return int(match.group(1)), match.group(2).lower()


def add_interval(start: dt.date, count: int, unit: str) -> dt.date:
    """`start` plus the interval; a day past the target month's end is clamped to that end."""
    if unit == "day":
        return start + dt.timedelta(days=count)
    if unit == "week":
        return start + dt.timedelta(weeks=count)
    months = count * (12 if unit == "year" else 1)
    index = start.month - 1 + months
    year, month = start.year + index // 12, index % 12 + 1
    day = min(start.day, calendar.monthrange(year, month)[1])
    return dt.date(year, month, day)
