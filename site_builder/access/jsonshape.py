"""What a schema cannot say of an untrusted JSON value, each check naming its place.

A published decisions.json is checked against its declaration first (`index_contract`); these
check the rest: that a date exists, that a string is text a page can hold, how deeply a
free-form value nests. A wrong value becomes one message such as
`records[3] (build/adr/0001-x).date must be a date as YYYY-MM-DD, not "2026-02-30"`.
Every check raises PublishedError; `where` is the value's place in the document.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

from site_builder.contract.validate import encodes
from site_builder.errors import InputError

_DATE_TEXT = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MAX_DEPTH = 16
"""How deeply a free-form value (a custom field) may nest lists and objects."""


class PublishedError(InputError, ValueError):
    """Published data that is not what site-builder writes; the message says what is wrong."""


def shown(value: Any) -> str:
    """`value` as a message shows it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def wrong(where: str, expected: str, value: Any) -> PublishedError:
    """The error for a value at `where` that is not `expected`."""
    return PublishedError(f"{where} must be {expected}, not {shown(value)}")


def text(value: Any, where: str) -> str:
    """`value`, a string that UTF-8 can carry (no lone surrogates)."""
    if not isinstance(value, str):
        raise wrong(where, "a string", value)
    if not encodes(value):
        raise PublishedError(f"{where} is not valid Unicode (it holds a lone surrogate)")
    return value


def date(value: Any, where: str) -> dt.date:
    """`value`, a `YYYY-MM-DD` string, as a date."""
    if not isinstance(value, str) or not _DATE_TEXT.match(value):
        raise wrong(where, "a date as YYYY-MM-DD", value)
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise wrong(where, "a date as YYYY-MM-DD", value) from None


def value_of(value: Any, where: str) -> Any:
    """`value` unchanged: any JSON value with finite numbers and valid strings, nested at
    most MAX_DEPTH deep (so writing it back as JSON cannot fail or recurse too far)."""
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise PublishedError(f"{where} is nested more than {MAX_DEPTH} levels deep")
        if isinstance(item, str):
            text(item, where)
        elif isinstance(item, float) and not math.isfinite(item):
            raise wrong(where, "a finite number", item)
        elif isinstance(item, list):
            pending.extend((v, depth + 1) for v in item)
        elif isinstance(item, dict):
            pending.extend((k, depth + 1) for k in item)
            pending.extend((v, depth + 1) for v in item.values())
    return value
