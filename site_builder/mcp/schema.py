"""The JSON Schema the tools publish, and a validator for the part of it inputs use.

Tool inputs are checked before a tool runs, so a wrong argument becomes a sentence the agent
can act on rather than an exception deep in a query. The validator covers exactly what the
input schemas here use (object/string/integer/boolean/array, bounds, enums, required,
additionalProperties: false); output schemas are only published, and the tests check
answers against them with the full `jsonschema` library.
"""

from __future__ import annotations

import difflib
from typing import Any

Schema = dict[str, Any]

# ---- building blocks for inputs ---------------------------------------------------------


def text(description: str, max_length: int = 200, **extra: Any) -> Schema:
    """A non-empty string argument."""
    return {"type": "string", "minLength": 1, "maxLength": max_length,
            "description": description, **extra}


def whole(description: str, minimum: int, maximum: int, default: int | None = None) -> Schema:
    """An integer argument within bounds."""
    schema: Schema = {"type": "integer", "minimum": minimum, "maximum": maximum,
                      "description": description}
    if default is not None:
        schema["default"] = default
    return schema


def flag(description: str) -> Schema:
    """A boolean argument (default false)."""
    return {"type": "boolean", "default": False, "description": description}


def arguments(properties: dict[str, Schema], required: tuple[str, ...] = ()) -> Schema:
    """A tool's inputSchema: a strict object of these properties."""
    schema: Schema = {"type": "object", "properties": properties,
                      "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    return schema


# ---- building blocks for outputs --------------------------------------------------------

STRINGS: Schema = {"type": "array", "items": {"type": "string"}}
NULLABLE_STRING: Schema = {"type": ["string", "null"]}
DATE: Schema = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}

RECORD_LINK: Schema = {
    "description": "A reference to another record, or {id, missing: true} when it names none.",
    "anyOf": [
        {"type": "object", "required": ["id", "ref", "title", "status"],
         "properties": {"id": {"type": "string"}, "ref": {"type": "string"},
                        "title": {"type": "string"}, "status": {"type": "string"}}},
        {"type": "object", "required": ["id", "missing"],
         "properties": {"id": {"type": "string"}, "missing": {"const": True}}},
    ],
}

SUMMARY_PROPERTIES: dict[str, Schema] = {
    "id": {"type": "string", "description": "Full id, <project>/<type>/<NNNN-slug>"},
    "ref": {"type": "string", "description": "Reference such as BUILD-ADR-0001"},
    "title": {"type": "string"},
    "status": {"type": "string"},
    "date": DATE,
    "project": {"type": "string"},
    "type": {"type": "string"},
    "tags": STRINGS,
    "description": {"type": "string"},
    "fields": {"type": "object", "description": "Custom fields the record sets"},
}


def summary(**more: Schema) -> Schema:
    """One record of a list answer, with `more` keys."""
    return {"type": "object", "required": [*SUMMARY_PROPERTIES, *more],
            "properties": {**SUMMARY_PROPERTIES, **more}}


REVIEW: Schema = {
    "type": ["object", "null"],
    "required": ["due", "reviewed", "every"],
    "properties": {"due": DATE, "reviewed": {"type": ["string", "null"]},
                   "every": {"type": "string"}},
}
RFC_REVIEW: Schema = {
    "type": ["object", "null"],
    "required": ["status", "approved", "required", "waitingOn"],
    "properties": {"status": {"enum": ["approved", "pending", "changes-requested"]},
                   "approved": {"type": "integer"}, "required": {"type": "integer"},
                   "waitingOn": STRINGS},
}
REVIEWERS: Schema = {"type": ["object", "null"],
                     "additionalProperties": {"enum": ["approved", "changes-requested",
                                                       "pending"]}}
NULLABLE_LINK: Schema = {"anyOf": [{"type": "null"}, RECORD_LINK]}

DETAIL: Schema = {
    "type": "object",
    "required": [*SUMMARY_PROPERTIES, "authors", "deciders", "related", "supersedes",
                 "supersededBy", "currentRecord", "current", "review", "reviewers",
                 "approvals", "rfcReview", "affects", "source", "body"],
    "properties": {
        **SUMMARY_PROPERTIES,
        "authors": STRINGS,
        "deciders": STRINGS,
        "related": {"type": "array", "items": RECORD_LINK},
        "supersedes": {"type": "array", "items": RECORD_LINK},
        "supersededBy": NULLABLE_LINK,
        "currentRecord": NULLABLE_LINK,
        "current": {"type": "boolean"},
        "review": REVIEW,
        "reviewers": REVIEWERS,
        "approvals": {"type": ["integer", "null"]},
        "rfcReview": RFC_REVIEW,
        "affects": STRINGS,
        "source": {"type": ["object", "null"]},
        "body": {"type": "string"},
    },
}

FIELD: Schema = {
    "type": "object",
    "required": ["name", "label", "type", "values", "unit", "description"],
    "properties": {"name": {"type": "string"}, "label": {"type": "string"},
                   "type": {"enum": ["string", "number", "boolean", "date", "enum", "list"]},
                   "values": STRINGS, "unit": NULLABLE_STRING,
                   "description": {"type": "string"}, "required": {"type": "boolean"}},
}

PAGE: dict[str, Schema] = {
    "total": {"type": "integer", "description": "Matches in all, before limit and offset"},
    "offset": {"type": "integer"},
    "limit": {"type": "integer"},
}


def page_of(key: str, item: Schema) -> Schema:
    """A paged answer: total, offset, limit and the items under `key`."""
    return {"type": "object", "required": [*PAGE, key],
            "properties": {**PAGE, key: {"type": "array", "items": item}}}


def counted(key: str) -> Schema:
    """`{key: [{name, count}], total}`."""
    return {"type": "object", "required": [key, "total"], "properties": {
        key: {"type": "array", "items": {
            "type": "object", "required": ["name", "count"],
            "properties": {"name": {"type": "string"}, "count": {"type": "integer"}}}},
        "total": {"type": "integer", "description": "Distinct names in all"},
    }}


def integral(value: dict[str, Any], schema: Schema) -> dict[str, Any]:
    """`value` with whole-number floats (20.0) turned into ints where the schema wants one.

    JSON Schema counts 20.0 as an integer, and some clients send numbers that way.
    """
    properties = schema.get("properties", {})
    return {name: int(item) if isinstance(item, float) and item.is_integer()
            and properties.get(name, {}).get("type") == "integer" else item
            for name, item in value.items()}


# ---- validating inputs --------------------------------------------------------------------

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "boolean": (bool,), "array": (list,),
    "object": (dict,), "number": (int, float),
}
_NAMES = {"string": "a string", "integer": "a whole number", "boolean": "true or false",
          "array": "a list", "object": "an object", "number": "a number"}


def _type_ok(value: Any, kind: str) -> bool:
    if isinstance(value, bool) and kind in ("integer", "number"):
        return False
    return isinstance(value, _TYPES[kind])


def _shown(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else f'"{value}"'
    return text if len(text) <= 60 else text[:57] + "..."


def problem(value: Any, schema: Schema, where: str) -> str | None:
    """Why `value` does not fit `schema`, as a sentence naming `where`; None when it fits."""
    kind = schema.get("type")
    if kind is not None and not _type_ok(value, kind):
        return f"{where} must be {_NAMES[kind]}, not {_shown(value)}."
    if "enum" in schema and value not in schema["enum"]:
        choices = ", ".join(f'"{v}"' for v in schema["enum"])
        return f"{where} must be one of {choices}, not {_shown(value)}."
    if isinstance(value, str):
        if len(value.strip()) < schema.get("minLength", 0):
            return f"{where} must not be empty."
        if len(value) > schema.get("maxLength", len(value)):
            return f"{where} must be at most {schema['maxLength']} characters long."
    if isinstance(value, int) and not isinstance(value, bool):
        low, high = schema.get("minimum"), schema.get("maximum")
        if (low is not None and value < low) or (high is not None and value > high):
            return f"{where} must be from {low} to {high}, not {value}."
    if isinstance(value, list):
        return _list_problem(value, schema, where)
    if isinstance(value, dict) and kind == "object":
        return _object_problem(value, schema, where)
    return None


def _list_problem(value: list[Any], schema: Schema, where: str) -> str | None:
    low, high = schema.get("minItems", 0), schema.get("maxItems")
    if len(value) < low:
        return f"{where} must hold at least {low} item{'s' if low != 1 else ''}."
    if high is not None and len(value) > high:
        return f"{where} must hold at most {high} items, not {len(value)}."
    items = schema.get("items")
    for index, item in enumerate(value):
        found = problem(item, items, f"{where}[{index}]") if items else None
        if found:
            return found
    return None


def _object_problem(value: dict[str, Any], schema: Schema, where: str) -> str | None:
    properties = schema.get("properties", {})
    for name in schema.get("required", ()):
        if name not in value:
            about = properties[name].get("description")
            if not about:
                return f"{name} is required."
            return f"{name} is required: {about[0].lower()}{about[1:]}."
    if schema.get("additionalProperties") is False:
        for name in value:
            if name not in properties:
                return _unknown_argument(name, sorted(properties), where)
    for name, item in value.items():
        found = problem(item, properties[name], name) if name in properties else None
        if found:
            return found
    return None


def _unknown_argument(name: str, known: list[str], where: str) -> str:
    hint = difflib.get_close_matches(name, known, n=1)
    extra = f' Did you mean "{hint[0]}"?' if hint else ""
    if not known:
        return f'{where} takes no arguments; "{name}" is not one.'
    return (f'"{name}" is not an argument of {where}; it takes '
            f'{", ".join(known)}.{extra}')
