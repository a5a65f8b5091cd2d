"""decisions.schema.json: the JSON Schema (draft 2020-12) of a site's decisions.json.

Generated per site from the record contract (`site_builder.contract.records`), so statuses and the
site's own custom fields are checked by name and type; a project's extra fields are allowed
with any JSON value.
"""

from __future__ import annotations

from typing import Any

from site_builder.config.site import SiteConfig
from site_builder.contract import index as index_contract
from site_builder.contract import records as contract

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def decisions_schema(config: SiteConfig) -> dict[str, Any]:
    """The schema every decisions.json of a site with `config` validates against."""
    document = index_contract.document(
        [s.name for s in config.statuses],
        {f.name: contract.field_value_schema(f.type, f.values) for f in config.fields})
    return {
        "$schema": DRAFT,
        "$id": "decisions.schema.json",
        "title": f"decisions.json of {config.title}",
        "description": "Every decision record of the site with its metadata, without bodies.",
        **document,
    }
