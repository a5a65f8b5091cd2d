"""A value checked against the part of JSON Schema that site-builder's contract uses.

Tool arguments are checked before a query runs and a published decisions.json before it
becomes an Archive, so a wrong value becomes one sentence naming where it is, rather than an
exception deep in a query. Covered: `type` (one or a list), `enum`, `const`, string
`minLength`/`maxLength`/`pattern`, integer `minimum`/`maximum`, arrays with `items`,
`minItems`, `maxItems`, objects with `properties`, `required`, `additionalProperties`
(false or a schema), `anyOf`/`oneOf` and local `$ref`s into `$defs`. The tests check every
published schema with the full `jsonschema` library as well.
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import Any

__all__ = ["Schema", "problem", "shown"]

Schema = dict[str, Any]

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "boolean": (bool,), "array": (list,),
    "object": (dict,), "number": (int, float), "null": (type(None),),
}
_NAMES = {"string": "a string", "integer": "a whole number", "boolean": "true or false",
          "array": "a list", "object": "an object", "number": "a number", "null": "null"}


def _type_ok(value: Any, kind: str) -> bool:
    if isinstance(value, bool) and kind in ("integer", "number"):
        return False
    if kind == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _TYPES[kind])


def shown(value: Any) -> str:
    """A value as messages quote it, cut to 60 characters."""
    text = repr(value) if not isinstance(value, str) else f'"{value}"'
    return text if len(text) <= 60 else text[:57] + "..."


@lru_cache(maxsize=256)
def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text)


def problem(value: Any, schema: Schema, where: str, defs: Schema | None = None) -> str | None:
    """Why `value` does not fit `schema`, as a sentence naming `where`; None when it fits.

    `defs` holds the schemas that `{"$ref": "#/$defs/<name>"}` names.
    """
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return problem(value, (defs or {})[name], where, defs)
    if "anyOf" in schema:
        # One fitting option is enough; the others are only tried when none fits.
        options = schema["anyOf"]
        if _of_type(value, options[0], defs) and problem(value, options[0], where, defs) is None:
            return None
    for key in ("anyOf", "oneOf"):
        if key in schema:
            found = [problem(value, option, where, defs) for option in schema[key]]
            fitting = found.count(None)
            if fitting == 0:
                # An option of the value's own type says more ("review.every must be…")
                # than one it could never fit ("review must be null").
                typed = [reason for option, reason in zip(schema[key], found, strict=True)
                         if _of_type(value, option, defs)]
                return _closest(typed or found)
            if key == "oneOf" and fitting > 1:
                return f"{where} fits more than one of its allowed shapes."
    kind = schema.get("type")
    if kind is not None:
        kinds = kind if isinstance(kind, list) else [kind]
        if not (_type_ok(value, kinds[0]) or any(_type_ok(value, k) for k in kinds[1:])):
            names = " or ".join(_NAMES[k] for k in kinds)
            return f"{where} must be {names}, not {shown(value)}."
    if "const" in schema and value != schema["const"]:
        return f"{where} must be {shown(schema['const'])}, not {shown(value)}."
    if "enum" in schema and value not in schema["enum"]:
        choices = ", ".join(f'"{v}"' for v in schema["enum"])
        return f"{where} must be one of {choices}, not {shown(value)}."
    if isinstance(value, str):
        return _string_problem(value, schema, where)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        low, high = schema.get("minimum"), schema.get("maximum")
        if (low is not None and value < low) or (high is not None and value > high):
            return (f"{where} must be from {low} to {high}, not {shown(value)}."
                    if high is not None else f"{where} must be {low} or more, not {value}.")
    if isinstance(value, list):
        return _list_problem(value, schema, where, defs)
    if isinstance(value, dict):
        return _object_problem(value, schema, where, defs)
    return None


def _of_type(value: Any, schema: Schema, defs: Schema | None) -> bool:
    """True when `schema` admits values of `value`'s JSON type (or says nothing of types)."""
    if "$ref" in schema:
        schema = (defs or {})[schema["$ref"].rsplit("/", 1)[-1]]
    kind = schema.get("type")
    if kind is None:
        options = schema.get("anyOf") or schema.get("oneOf")
        return options is None or any(_of_type(value, o, defs) for o in options)
    return any(_type_ok(value, k) for k in (kind if isinstance(kind, list) else [kind]))


def _closest(found: list[str | None]) -> str:
    """Of the reasons no option fits, the one from the option that got furthest: a message
    about a nested key says more than one about the value's type."""
    reasons = [r for r in found if r is not None]
    return max(reasons, key=lambda r: (" must be " not in r.split(".")[0], len(r)))


def _string_problem(value: str, schema: Schema, where: str) -> str | None:
    try:  # JSON may escape half a surrogate pair, which no page, file or URL can hold
        value.encode("utf-8")
    except UnicodeEncodeError:
        return f"{where} must be text, not {ascii(value)[:60]} (it holds a lone surrogate)."
    if len(value.strip()) < schema.get("minLength", 0):
        return f"{where} must not be empty."
    if len(value) > schema.get("maxLength", len(value)):
        return f"{where} must be at most {schema['maxLength']} characters long."
    if "pattern" in schema and not _pattern(schema["pattern"]).search(value):
        return f"{where} {shown(value)} is not of the expected form."
    return None


def _list_problem(value: list[Any], schema: Schema, where: str,
                  defs: Schema | None) -> str | None:
    low, high = schema.get("minItems", 0), schema.get("maxItems")
    if len(value) < low:
        return f"{where} must hold at least {low} item{'s' if low != 1 else ''}."
    if high is not None and len(value) > high:
        return f"{where} must hold at most {high} items, not {len(value)}."
    items = schema.get("items")
    for index, item in enumerate(value):
        found = problem(item, items, f"{where}[{index}]", defs) if items else None
        if found:
            return found
    return None


def _object_problem(value: dict[str, Any], schema: Schema, where: str,
                    defs: Schema | None) -> str | None:
    properties = schema.get("properties", {})
    for name in schema.get("required", ()):
        if name not in value:
            about = properties.get(name, {}).get("description")
            named = _member(where, name)
            if not about:
                return f"{named} is required."
            return f"{named} is required: {about[0].lower()}{about[1:]}."
    extra = schema.get("additionalProperties", True)
    if extra is False:
        for name in value:
            if name not in properties:
                return _unknown_key(name, sorted(properties), where)
    for name, item in value.items():
        inner = properties.get(name, extra if isinstance(extra, dict) else None)
        found = problem(item, inner, _member(where, name), defs) if inner else None
        if found:
            return found
    return None


def _member(where: str, name: str) -> str:
    """How a key inside `where` is named: a tool's argument by its own name, a key of a
    record by its path (`record build/adr/1: review.due`)."""
    return name if where.isidentifier() else f"{where}.{name}"


def _unknown_key(name: str, known: list[str], where: str) -> str:
    hint = difflib.get_close_matches(name, known, n=1)
    extra = f' Did you mean "{hint[0]}"?' if hint else ""
    if not known:
        return f'{where} takes no arguments; "{name}" is not one.'
    return (f'"{name}" is not an argument of {where}; it takes '
            f'{", ".join(known)}.{extra}')
