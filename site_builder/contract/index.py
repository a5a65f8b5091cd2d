"""decisions.json as a whole, declared once: what a build writes and what a reader takes back.

`document()` is the shape of a site's decisions.json, built from the record contract
(`contract.RECORD`, `contract.PROJECT`, `contract.FIELD`); the build publishes it as
`decisions.schema.json` with the site's own statuses and fields. `readable()` is the same
declaration loosened for reading a published index back (`access/published.py`): sites
published by older versions lack keys, newer ones add keys, so only the keys every version
wrote are required and unknown keys are let through. Whatever the schema cannot say (that a
path stays inside the site, that a date exists, how deep a custom value nests) the decoder
checks itself.
"""

from __future__ import annotations

import copy
from typing import Any

from site_builder.contract.records import (
    DEFS,
    PROJECT,
    RECORD,
    STRING,
    nullable,
    record_schema,
    strict,
)
from site_builder.contract.validate import Schema

STATUS: Schema = strict({
    "name": STRING, "open": {"type": "boolean"}, "current": {"type": "boolean"},
    "label": STRING, "description": STRING})
SITE: Schema = strict({
    "title": STRING,
    "description": STRING,
    "url": nullable({"type": "string", "format": "uri"}),
    "base": {"type": "string", "pattern": "^/(.*/)?$"},
    "editUrl": nullable(STRING),
    "requiredApprovals": nullable({"type": "integer", "minimum": 0}),
})

# What every version of site-builder published, and so what a reader may insist on.
ALWAYS_PUBLISHED: dict[str, tuple[str, ...]] = {
    "record": ("id", "title", "status", "date"),
    "recordRef": ("id",),
    "source": ("location",),
    "status": ("name",),
    "field": ("name",),
    "project": ("id",),
}


def document(statuses: list[str] | None = None,
             fields: dict[str, Schema] | None = None) -> Schema:
    """decisions.json of a site whose statuses are named `statuses` and whose custom fields
    have the value schemas `fields` (None: any status, any field). Refers to its `$defs`."""
    record = record_schema(statuses, fields)
    return {
        **strict({
            "site": SITE,
            "statuses": {"type": "array", "items": STATUS},
            "fields": {"type": "array", "items": {"$ref": "#/$defs/field"}},
            "projects": {"type": "array", "items": PROJECT},
            "records": {"type": "array", "items": {"$ref": "#/$defs/record"}},
        }),
        "$defs": {**DEFS, "record": record},
    }


def readable() -> Schema:
    """`document()` as a reader takes it: only ALWAYS_PUBLISHED keys required, unknown keys
    allowed, and the records list checked item by item by the caller (`record`)."""
    loose = _loosen(document())
    defs = loose["$defs"]
    # What the Archive works out again is not read back, so not checked either.
    keys = defs["record"]["properties"]
    for key in [k.name for k in RECORD if k.derived] + ["path"]:
        del keys[key]
    del keys["review"]["anyOf"][0]["properties"]["due"]
    _require(defs["record"], "record")
    for option in defs["recordRef"]["anyOf"]:
        _require(option, "recordRef")
    _require(defs["record"]["properties"]["source"]["anyOf"][0], "source")
    _require(defs["field"], "field")
    properties = loose["properties"]
    _require(properties["projects"]["items"], "project")
    # Statuses were once published by name alone.
    status = _require(properties["statuses"]["items"], "status")
    properties["statuses"]["items"] = {"anyOf": [{"type": "string", "minLength": 1}, status]}
    properties["records"] = {"type": "array"}
    schema: dict[str, Any] = loose
    return schema


def record() -> Schema:
    """One item of `records` as a reader takes it (refers to `readable()["$defs"]`)."""
    return {"$ref": "#/$defs/record"}


def _require(schema: Schema, kind: str) -> Schema:
    schema["required"] = list(ALWAYS_PUBLISHED[kind])
    return schema


def _loosen(schema: Any) -> Any:
    """`schema` with no key required and unknown keys allowed; `oneOf` becomes `anyOf`,
    since shapes that differ only in required keys overlap once those are dropped."""
    if isinstance(schema, list):
        return [_loosen(item) for item in schema]
    if not isinstance(schema, dict):
        return copy.deepcopy(schema)
    out = {}
    for key, value in schema.items():
        if key == "required" or (key == "additionalProperties" and value is False):
            continue
        out["anyOf" if key == "oneOf" else key] = _loosen(value)
    return out
