"""decisions.schema.json: the JSON Schema (draft 2020-12) of a site's decisions.json.

Generated per site, so statuses and the site's own custom fields are checked by name and type;
a project's extra fields are allowed with any JSON value.
"""

from __future__ import annotations

from typing import Any

from site_builder.archive.records import REVIEW_STATES
from site_builder.config import FieldDef, SiteConfig

DRAFT = "https://json-schema.org/draft/2020-12/schema"
_DATE = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$", "format": "date"}
_STRINGS = {"type": "array", "items": {"type": "string"}}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _object(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """An object with exactly these keys, all required."""
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False, **extra}


def _field_value(definition: FieldDef) -> dict[str, Any]:
    kind = definition.type
    if kind == "enum":
        return {"enum": list(definition.values)}
    if kind == "date":
        return _DATE
    if kind == "list":
        return {"type": "array"}
    return {"type": {"string": "string", "number": "number", "boolean": "boolean"}[kind]}


def decisions_schema(config: SiteConfig) -> dict[str, Any]:
    """The schema every decisions.json of a site with `config` validates against."""
    field = _object({
        "name": {"type": "string"},
        "label": {"type": "string"},
        "type": {"enum": ["string", "number", "boolean", "date", "enum", "list"]},
        "values": _STRINGS,
        "unit": _nullable({"type": "string"}),
        "description": {"type": "string"},
        "required": {"type": "boolean"},
    })
    record_ref = {"oneOf": [
        _object({"id": {"type": "string"}, "ref": {"type": "string"},
                 "title": {"type": "string"}, "status": {"type": "string"}}),
        _object({"id": {"type": "string"}, "missing": {"const": True}}),
    ]}
    statuses = [s.name for s in config.statuses]
    record = _object({
        "id": {"type": "string", "pattern": r"^[^/]+/[^/]+/\d+-[^/]+$"},
        "ref": {"type": "string"},
        "title": {"type": "string", "minLength": 1},
        "status": {"enum": statuses},
        "date": _DATE,
        "project": {"type": "string"},
        "type": {"type": "string"},
        "tags": _STRINGS,
        "description": {"type": "string"},
        "fields": {
            "type": "object",
            "properties": {f.name: _field_value(f) for f in config.fields},
            "additionalProperties": True,
        },
        "authors": _STRINGS,
        "deciders": _STRINGS,
        "related": {"type": "array", "items": {"$ref": "#/$defs/recordRef"}},
        "supersedes": {"type": "array", "items": {"$ref": "#/$defs/recordRef"}},
        "supersededBy": _nullable({"$ref": "#/$defs/recordRef"}),
        "currentRecord": _nullable({"$ref": "#/$defs/recordRef"}),
        "current": {"type": "boolean"},
        "review": _nullable(_object({"due": _DATE, "reviewed": _nullable(_DATE),
                                     "every": {"type": "string"}})),
        "reviewers": _nullable({"type": "object",
                                "additionalProperties": {"enum": list(REVIEW_STATES)}}),
        "approvals": _nullable({"type": "integer", "minimum": 0}),
        "rfcReview": _nullable(_object({
            "status": {"enum": ["approved", "changes-requested", "pending"]},
            "approved": {"type": "integer", "minimum": 0},
            "required": {"type": "integer", "minimum": 0},
            "waitingOn": _STRINGS,
        })),
        "affects": _STRINGS,
        "source": _nullable(_object({"location": {"type": "string"},
                                     "ref": _nullable({"type": "string"}),
                                     "commit": _nullable({"type": "string"})})),
        "path": {"type": "string", "pattern": r"/index\.html$"},
        "md": {"type": "string", "pattern": r"\.md$"},
    })
    return {
        "$schema": DRAFT,
        "$id": "decisions.schema.json",
        "title": f"decisions.json of {config.title}",
        "description": "Every decision record of the site with its metadata, without bodies.",
        **_object({
            "site": _object({
                "title": {"type": "string"},
                "description": {"type": "string"},
                "url": _nullable({"type": "string", "format": "uri"}),
                "base": {"type": "string", "pattern": "^/(.*/)?$"},
                "editUrl": _nullable({"type": "string"}),
                "requiredApprovals": _nullable({"type": "integer", "minimum": 0}),
            }),
            "statuses": {"type": "array", "items": _object({
                "name": {"type": "string"}, "open": {"type": "boolean"},
                "current": {"type": "boolean"}, "label": {"type": "string"},
                "description": {"type": "string"}})},
            "fields": {"type": "array", "items": {"$ref": "#/$defs/field"}},
            "projects": {"type": "array", "items": _object({
                "id": {"type": "string"}, "name": {"type": "string"},
                "description": {"type": "string"}, "owners": _STRINGS,
                "order": _nullable({"type": "integer"}),
                "records": {"type": "integer", "minimum": 0},
                "fields": {"type": "array", "items": {"$ref": "#/$defs/field"}}})},
            "records": {"type": "array", "items": {"$ref": "#/$defs/record"}},
        }),
        "$defs": {"field": field, "recordRef": record_ref, "record": record},
    }
