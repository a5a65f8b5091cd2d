"""Typed readers of untrusted JSON values, each naming the place of a value that is wrong.

What a published site sends is decoded with these, so a value that reaches the Archive has
the type the code expects, and a wrong one becomes one message such as
`records[3] (build/adr/0001-x).date must be a date as YYYY-MM-DD, not 42`.
Every reader raises PublishedError; `where` is the value's place in the document.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

_DATE_TEXT = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MAX_DEPTH = 16
"""How deeply a free-form value (a custom field) may nest lists and objects."""


class PublishedError(ValueError):
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
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise PublishedError(f"{where} is not valid Unicode (it holds a lone surrogate)") from None
    return value


def optional_text(data: dict[str, Any], key: str, where: str) -> str | None:
    """`data[key]` as a string, or None when it is missing or null."""
    value = data.get(key)
    return None if value is None else text(value, f"{where}.{key}")


def flag(data: dict[str, Any], key: str, where: str) -> bool:
    """`data[key]` as a bool; False when missing."""
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise wrong(f"{where}.{key}", "true or false", value)
    return value


def count(data: dict[str, Any], key: str, where: str) -> int | None:
    """`data[key]` as a whole number of 0 or more, or None when missing or null."""
    value = data.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                              or value < 0):
        raise wrong(f"{where}.{key}", "a whole number of 0 or more", value)
    return value


def mapping(value: Any, where: str) -> dict[str, Any]:
    """`value` as an object; {} when null."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise wrong(where, "an object", value)
    return value


def items(value: Any, where: str) -> list[Any]:
    """`value` as a list; [] when null."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise wrong(where, "a list", value)
    return value


def strings(value: Any, where: str) -> tuple[str, ...]:
    """`value` as a list of strings; () when null."""
    return tuple(text(v, f"{where}[{i}]") for i, v in enumerate(items(value, where)))


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
