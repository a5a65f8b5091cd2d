"""The shapes of the tools' answers, in the terms of records.py: each tool's row in
`site_builder.mcp.tools` builds its `outputSchema` from these. List items are record
summaries with the keys the tool adds.
"""

from __future__ import annotations

from site_builder.contract.records import FIELD, RECORD, STRING, strict, summary_schema
from site_builder.contract.validate import Schema

__all__ = ["FIELDS_ANSWER", "VIA", "counted", "page_of", "paths_answer", "record_key",
           "search_answer"]

_PAGE: dict[str, Schema] = {
    "total": {"type": "integer", "description": "Matches in all, before limit and offset"},
    "offset": {"type": "integer"},
    "limit": {"type": "integer"},
}

# How records_for_paths found a record: its `affects` match a path, code in the paths cites
# it, or both (then both, in this order).
VIA = ("affects", "cited")

FIELDS_ANSWER: Schema = strict({
    "fields": {"type": "array", "items": FIELD},
    "projects": {"type": "object", "additionalProperties": {"type": "array", "items": FIELD}}})


def page_of(item: Schema) -> Schema:
    """A paged answer: total, offset, limit and the records."""
    return {"type": "object", "required": [*_PAGE, "records"],
            "properties": {**_PAGE, "records": {"type": "array", "items": item}}}


def paths_answer(*keys: str) -> Schema:
    """records_for_paths' page: its records under several `keys`, each saying `via` which
    way it was found."""
    item = summary_schema(via={"type": "array", "minItems": 1, "uniqueItems": True,
                               "items": {"enum": list(VIA)}})
    return {"type": "object", "required": [*_PAGE, *keys],
            "properties": {**_PAGE, **{key: {"type": "array", "items": item}
                                       for key in keys}}}


def counted(key: str) -> Schema:
    """`{key: [{name, count}], total}`."""
    return {"type": "object", "required": [key, "total"], "properties": {
        key: {"type": "array", "items": strict({"name": STRING, "count": {"type": "integer"}})},
        "total": {"type": "integer", "description": "Distinct names in all"},
    }}


def search_answer() -> Schema:
    """search_records' page, which says how a mistyped query was understood."""
    answer = page_of(summary_schema())
    answer["properties"]["didYouMean"] = {
        "type": "string",
        "description": "The query as it was understood when a mistyped word was corrected"}
    return answer


def record_key(name: str) -> Schema:
    """A nullable key of the record, as a list item that always has it."""
    present: Schema = next(k.schema for k in RECORD if k.name == name)["anyOf"][0]
    return present
