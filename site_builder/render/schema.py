"""decisions.schema.json: the JSON Schema (draft 2020-12) of a site's decisions.json.

Generated per site from the record contract (`site_builder.contract`), so statuses and the
site's own custom fields are checked by name and type; a project's extra fields are allowed
with any JSON value.
"""

from __future__ import annotations

from typing import Any

from site_builder import contract
from site_builder.config import SiteConfig
from site_builder.contract import STRING, STRINGS, nullable, strict

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def decisions_schema(config: SiteConfig) -> dict[str, Any]:
    """The schema every decisions.json of a site with `config` validates against."""
    record = contract.record_schema(
        [s.name for s in config.statuses],
        {f.name: contract.field_value_schema(f.type, f.values) for f in config.fields})
    field = {"$ref": "#/$defs/field"}
    return {
        "$schema": DRAFT,
        "$id": "decisions.schema.json",
        "title": f"decisions.json of {config.title}",
        "description": "Every decision record of the site with its metadata, without bodies.",
        **strict({
            "site": strict({
                "title": STRING,
                "description": STRING,
                "url": nullable({"type": "string", "format": "uri"}),
                "base": {"type": "string", "pattern": "^/(.*/)?$"},
                "editUrl": nullable(STRING),
                "requiredApprovals": nullable({"type": "integer", "minimum": 0}),
            }),
            "statuses": {"type": "array", "items": strict({
                "name": STRING, "open": {"type": "boolean"},
                "current": {"type": "boolean"}, "label": STRING,
                "description": STRING})},
            "fields": {"type": "array", "items": field},
            "projects": {"type": "array", "items": strict({
                "id": STRING, "name": STRING,
                "description": STRING, "owners": STRINGS,
                "order": nullable({"type": "integer"}),
                "records": {"type": "integer", "minimum": 0},
                "fields": {"type": "array", "items": field}})},
            "records": {"type": "array", "items": {"$ref": "#/$defs/record"}},
        }),
        "$defs": {**contract.DEFS, "record": record},
    }
