"""The plain subset of YAML that front matter nearly always uses, read without PyYAML's node graph
(BUILD-ADR-0014).

Building PyYAML's node graph costs more than everything else in loading an archive (about
0.2 ms for a 20-key front matter, even with the C parser), and front matter nearly always has
one shape: a block mapping of simple keys whose values are plain or quoted one-line scalars,
one-line `[a, b]` lists and `{k: v}` mappings of scalars, block lists of scalars, or one level
of nested mapping (`review:` / `  every: 1 year`). `parse` reads exactly that shape and gives
up (returns None) on anything else, so that PyYAML decides: anchors, tags, block scalars,
multi-line scalars, escapes, tabs, unusual keys, deeper nesting. Plain scalars are resolved
and built by the caller's `plain` function (PyYAML's own resolver and constructors), so the
values, and the key lines, are those PyYAML gives; tests/test_yaml_subset.py checks that with
generated documents.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from site_builder.errors import InputError

Plain = Callable[[str], Any]
"""Builds the value of a plain scalar; raises Unsupported when PyYAML must decide."""


class Unsupported(InputError):
    """The text leaves the subset; PyYAML must read it."""


# Characters PyYAML rejects or treats as line breaks, tabs, and a BOM: all left to PyYAML.
# Listed, not as the complement of what is allowed: a class of wide ranges after `^` takes
# the regex compiler 7 ms at every start, this one 0.7 ms.
_LEAVE_TO_PYYAML = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
# One row per line: (indent, "-" of a list item, key of a `key:` line, the rest of the line).
_LINE = re.compile(r"^( *)(?:(-)(?: +|$)|([A-Za-z0-9_][A-Za-z0-9_.-]*):(?: +|$))?(.*)$",
                   re.MULTILINE)
# A plain scalar may not start with an indicator; `-`, `?` and `:` only when followed by a space.
_BAD_START = frozenset("?:,[]{}#&*!|>'\"%@`")
_FLOW_FORBIDDEN = re.compile(r"[\[\]{}#:?]")
# The inside of a one-line `[…]` that needs no quote handling.
_SIMPLE_FLOW = re.compile(r"[^\[\]{}#:?\"']*")

Row = tuple[str, str, str, str]


def parse(text: str, plain: Plain) -> tuple[dict[Any, Any], dict[str, int]] | None:
    """Read `text` when it is a block mapping in the subset.

    Returns (mapping, lines) where `lines` maps each key path (`review`, `review.every`,
    `authors.0`) to its 1-based line (the key's line; a list item's own line), or None when
    the text is outside the subset (PyYAML must then read it, and may find it invalid).
    """
    if _LEAVE_TO_PYYAML.search(text):
        return None
    try:
        return _document(_LINE.findall(text), plain)
    except Unsupported:
        return None


def _insignificant(row: Row) -> bool:
    """A blank line or a comment."""
    return not row[1] and not row[2] and (not row[3] or row[3][0] == "#")


def _key(key: str, plain: Plain) -> str:
    name = plain(key)
    if type(name) is not str:
        raise Unsupported  # `yes:`, `1:`, `null:` are not string keys
    return name


def _document(rows: list[Row], plain: Plain) -> tuple[dict[Any, Any], dict[str, int]]:
    data: dict[Any, Any] = {}
    lines: dict[str, int] = {}
    at, count = 0, len(rows)
    while at < count:
        indent, dash, key, rest = rows[at]
        at += 1
        if not key:
            if dash or (rest and rest[0] != "#"):
                raise Unsupported  # content outside a `key:` line
            continue
        if indent or dash:
            raise Unsupported
        name = plain(key)
        if type(name) is not str:
            raise Unsupported  # `yes:`, `1:`, `null:` are not string keys
        lines[name] = at
        if rest and rest[0] != "#":
            rest = rest.rstrip(" ")
            if rest[0].isalnum() and "#" not in rest and ":" not in rest:
                data[name] = plain(rest)  # the most common value, a plain word or date
            else:
                data[name] = _inline(rest, name, at, plain, lines)
            continue
        start = at
        while at < count and (rows[at][0] or _insignificant(rows[at])):
            at += 1
        block = [(number + 1, rows[number]) for number in range(start, at)
                 if not _insignificant(rows[number])]
        if not block:
            data[name] = plain("")
        elif block[0][1][1]:
            data[name] = _sequence(block, name, plain, lines)
        else:
            data[name] = _mapping(block, name, plain, lines)
    if not data:
        raise Unsupported  # an empty document is null, not a mapping
    return data, lines


def _sequence(block: list[tuple[int, Row]], parent: str, plain: Plain,
              lines: dict[str, int]) -> list[Any]:
    """A block list of one-line items, all at the indent of the first."""
    indent = block[0][1][0]
    items: list[Any] = []
    for line, (own, dash, _, rest) in block:
        if own != indent or not dash or not rest or rest[0] == "#":
            raise Unsupported  # deeper content, or an empty item
        path = f"{parent}.{len(items)}"
        lines[path] = line
        items.append(_inline(rest.rstrip(" "), path, line, plain, lines))
    return items


def _mapping(block: list[tuple[int, Row]], parent: str, plain: Plain,
             lines: dict[str, int]) -> dict[Any, Any]:
    """A nested block mapping of one-line values, all at the indent of the first key."""
    indent = block[0][1][0]
    data: dict[Any, Any] = {}
    for line, (own, dash, key, rest) in block:
        if own != indent or dash or not key or not rest or rest[0] == "#":
            raise Unsupported  # deeper nesting, or a null that PyYAML marks elsewhere
        name = _key(key, plain)
        path = f"{parent}.{name}"
        lines[path] = line
        data[name] = _inline(rest.rstrip(" "), path, line, plain, lines)
    return data


def _inline(text: str, path: str, line: int, plain: Plain, lines: dict[str, int]) -> Any:
    """A value written on `line`: a quoted or plain scalar, a `[…]` list or a `{…}` mapping."""
    first = text[0]
    if first == "[" and text[-1] == "]" and _SIMPLE_FLOW.fullmatch(text, 1, len(text) - 1):
        items = _simple_flow(text[1:-1], plain)
        for index in range(len(items)):
            lines[f"{path}.{index}"] = line
        return items
    if first == "[" or first == "{":
        value, end = _flow(text, plain)
        _only_comment(text[end:])
        for key in (value if first == "{" else range(len(value))):
            lines[f"{path}.{key}"] = line
        return value
    if first == '"' or first == "'":
        if text[-1] == first and text.count(first) == 2 and "\\" not in text:
            return text[1:-1]  # the common case, `"a title"`, in one step
        value, end = _quoted(text, 0)
        _only_comment(text[end:])
        return value
    return plain(_plain_block(text))


_FLOW_KEY = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.-]*): +")


def _simple_flow(inner: str, plain: Plain) -> list[Any]:
    """`a, b, c` of a `[a, b, c]` without quotes or brackets, as `_flow` would read it."""
    if not inner.strip(" "):
        return []
    items = [item.strip(" ") for item in inner.split(",")]
    if len(items) > 1 and not items[-1]:
        items.pop()  # a trailing comma; any other empty item is declined by _plain_flow
    return [plain(_plain_flow(item)) for item in items]


def _flow(text: str, plain: Plain) -> tuple[Any, int]:
    """A one-line `[…]` of scalars or `{key: scalar, …}`; returns it and the index after it."""
    mapping = text[0] == "{"
    close = "}" if mapping else "]"
    items: list[Any] = []
    keys: list[str] = []
    at = 1
    while True:
        at = _skip_spaces(text, at)
        if at >= len(text):
            raise Unsupported  # continues on the next line
        if text[at] == close:
            end = at + 1
            return (dict(zip(keys, items, strict=True)) if mapping else items), end
        if mapping:
            key = _FLOW_KEY.match(text, at)
            if key is None:
                raise Unsupported
            keys.append(_key(key.group(1), plain))
            at = key.end()
        if text[at] in "\"'":
            value, at = _quoted(text, at)
            items.append(value)
        else:
            end = at
            while end < len(text) and text[end] != "," and text[end] != close:
                end += 1
            items.append(plain(_plain_flow(text[at:end])))
            at = end
        at = _skip_spaces(text, at)
        if at < len(text) and text[at] == ",":
            at += 1
        elif at >= len(text) or text[at] != close:
            raise Unsupported


def _skip_spaces(text: str, at: int) -> int:
    while at < len(text) and text[at] == " ":
        at += 1
    return at


def _only_comment(rest: str) -> None:
    """What follows a closed scalar or list may only be spaces and a comment."""
    if rest and not (rest[0] == " " and rest.lstrip(" ")[:1] in ("", "#")):
        raise Unsupported


def _quoted(text: str, start: int) -> tuple[str, int]:
    """A one-line quoted scalar without escapes; returns it and the index after it."""
    quote = text[start]
    if quote == '"':
        end = text.find('"', start + 1)
        if end == -1 or "\\" in text[start + 1:end]:
            raise Unsupported
        return text[start + 1:end], end + 1
    parts: list[str] = []
    at = start + 1
    while True:
        end = text.find("'", at)
        if end == -1:
            raise Unsupported
        parts.append(text[at:end])
        if text.startswith("''", end):
            parts.append("'")
            at = end + 2
            continue
        return "".join(parts), end + 1


def _plain_block(text: str) -> str:
    """A plain scalar of block context without its comment, or Unsupported."""
    cut = text.find(" #")
    if cut != -1:
        text = text[:cut].rstrip(" ")
    if (text[0] in _BAD_START or (text[0] == "-" and (len(text) == 1 or text[1] == " "))
            or ": " in text or text.endswith(":")):
        raise Unsupported
    return text


def _plain_flow(text: str) -> str:
    """A plain scalar inside `[…]`, or Unsupported."""
    text = text.strip(" ")
    if (not text or text[0] in _BAD_START or _FLOW_FORBIDDEN.search(text)
            or (text[0] == "-" and (len(text) == 1 or text[1] == " "))):
        raise Unsupported
    return text
