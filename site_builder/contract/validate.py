"""A value checked against the part of JSON Schema that site-builder's contract uses.

Tool arguments are checked before a query runs and a published decisions.json before it
becomes an Archive, so a wrong value becomes one sentence naming where it is, rather than an
exception deep in a query. Covered: `type` (one or a list), `enum`, `const`, string
`minLength`/`maxLength`/`pattern`, integer `minimum`/`maximum`, arrays with `items`,
`minItems`, `maxItems`, objects with `properties`, `required`, `additionalProperties`
(false or a schema), `anyOf`/`oneOf` and local `$ref`s into `$defs`. The tests check every
published schema with the full `jsonschema` library as well.

`problem` walks the schema for each value and says what is wrong; `fits` compiles the same
rules once into closures that only say whether a value fits, for documents of thousands of
records (0.17 s for 10,000 published records, against 0.6 s walking; a test holds the two to
the same answers).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

__all__ = ["Check", "Schema", "encodes", "fits", "problem", "shown"]

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
    if not encodes(value):
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


# ---- compiled: the same rules as `problem`, as closures made once per schema ------------------

Check = Callable[[Any], bool]


def fits(schema: Schema, defs: Schema | None = None) -> Check:
    """A function telling whether a value fits `schema`, exactly as `problem(...) is None`
    would, but compiled once: a document of ten thousand records is checked in a fraction of
    the time. Ask `problem` for the sentence when it says False."""
    return _Compiler(defs or {}).check(schema)


class _Compiler:
    def __init__(self, defs: Schema) -> None:
        self.defs = defs
        self.named: dict[str, Check] = {}

    def check(self, schema: Schema) -> Check:
        if "$ref" in schema:
            return self._ref(schema["$ref"].rsplit("/", 1)[-1])
        checks: list[Check] = []
        if "anyOf" in schema:
            options = [self.check(o) for o in schema["anyOf"]]
            checks.append(lambda v: any(f(v) for f in options))
        if "oneOf" in schema:
            choices = [self.check(o) for o in schema["oneOf"]]
            checks.append(lambda v: sum(1 for f in choices if f(v)) == 1)
        if "type" in schema:
            kind = schema["type"]
            kinds = kind if isinstance(kind, list) else [kind]
            if len(kinds) == 1:
                checks.append(_ONE_TYPE[kinds[0]])
            else:
                checks.append(lambda v: any(_type_ok(v, k) for k in kinds))
        if "const" in schema:
            const = schema["const"]
            checks.append(lambda v: v == const)
        if "enum" in schema:
            allowed = schema["enum"]
            checks.append(lambda v: v in allowed)
        checks.extend(self._by_kind(schema))
        return _all(checks)

    def _ref(self, name: str) -> Check:
        found = self.named.get(name)
        if found is None:
            self.named[name] = lambda v: self.named[name](v)  # while compiling a cycle
            found = self.named[name] = self.check(self.defs[name])
        return found

    def _by_kind(self, schema: Schema) -> list[Check]:
        """Checks that apply to one JSON type and let the others through."""
        out: list[Check] = []
        low, high = schema.get("minLength", 0), schema.get("maxLength")
        pattern = _pattern(schema["pattern"]) if "pattern" in schema else None
        if low or high is not None or pattern is not None:
            out.append(lambda v: not isinstance(v, str) or (
                encodes(v) and len(v.strip()) >= low and (high is None or len(v) <= high)
                and (pattern is None or pattern.search(v) is not None)))
        elif _may_be_text(schema):
            out.append(lambda v: not isinstance(v, str) or encodes(v))
        minimum, maximum = schema.get("minimum"), schema.get("maximum")
        if minimum is not None or maximum is not None:
            out.append(lambda v: not isinstance(v, (int, float)) or isinstance(v, bool) or (
                (minimum is None or v >= minimum) and (maximum is None or v <= maximum)))
        few, many = schema.get("minItems", 0), schema.get("maxItems")
        items = self.check(schema["items"]) if "items" in schema else None
        if few or many is not None or items is not None:
            out.append(lambda v: not isinstance(v, list) or (
                len(v) >= few and (many is None or len(v) <= many)
                and (items is None or all(items(i) for i in v))))
        if any(k in schema for k in ("properties", "required", "additionalProperties")):
            out.append(self._object(schema))
        return out

    def _object(self, schema: Schema) -> Check:
        required = tuple(schema.get("required", ()))
        properties = {name: self.check(s) for name, s in schema.get("properties", {}).items()}
        extra = schema.get("additionalProperties", True)
        closed = extra is False
        other = self.check(extra) if isinstance(extra, dict) else None

        def fits_object(value: Any) -> bool:
            if not isinstance(value, dict):
                return True
            if any(name not in value for name in required):
                return False
            for name, item in value.items():
                inner = properties.get(name)
                if inner is None:
                    if closed or (other is not None and not other(item)):
                        return False
                elif not inner(item):
                    return False
            return True

        return fits_object


def _may_be_text(schema: Schema) -> bool:
    """True when a string may reach this node (so its text is checked here, as `problem`
    checks it): the node says nothing of types, or allows strings."""
    kind = schema.get("type")
    return kind is None or kind == "string" or (isinstance(kind, list) and "string" in kind)


def _all(checks: list[Check]) -> Check:
    """One check passing when all of `checks` pass, without a loop for the usual one or two."""
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) and second(v)
    return lambda v: all(f(v) for f in checks)


_ONE_TYPE: dict[str, Check] = {
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "boolean": lambda v: v is True or v is False,
    "null": lambda v: v is None,
    "integer": lambda v: _type_ok(v, "integer"),
    "number": lambda v: _type_ok(v, "number"),
}


def encodes(text: str) -> bool:
    """True when `text` is text UTF-8 can carry: no half of a surrogate pair, which JSON can
    escape but no page, file or URL can hold."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
