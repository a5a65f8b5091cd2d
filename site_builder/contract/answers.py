"""Every tool's answer as a JSON Schema: the `outputSchema` of tools/list, and what tests
check each answer against. List items are record summaries (records.py) with the keys the
tool adds.
"""

from __future__ import annotations

from site_builder.contract.records import (
    FIELD,
    PROJECT,
    RECORD,
    STRING,
    detail_schema,
    inline,
    strict,
    summary_schema,
)
from site_builder.contract.validate import Schema

__all__ = ["OUTPUTS", "VIA"]


_PAGE: dict[str, Schema] = {
    "total": {"type": "integer", "description": "Matches in all, before limit and offset"},
    "offset": {"type": "integer"},
    "limit": {"type": "integer"},
}


def _page_of(item: Schema) -> Schema:
    """A paged answer: total, offset, limit and the records."""
    return {"type": "object", "required": [*_PAGE, "records"],
            "properties": {**_PAGE, "records": {"type": "array", "items": item}}}


def _counted(key: str) -> Schema:
    """`{key: [{name, count}], total}`."""
    return {"type": "object", "required": [key, "total"], "properties": {
        key: {"type": "array", "items": strict({"name": STRING, "count": {"type": "integer"}})},
        "total": {"type": "integer", "description": "Distinct names in all"},
    }}


def _search_answer() -> Schema:
    """search_records' page, which says how a mistyped query was understood."""
    answer = _page_of(summary_schema())
    answer["properties"]["didYouMean"] = {
        "type": "string",
        "description": "The query as it was understood when a mistyped word was corrected"}
    return answer


def _review_key(name: str) -> Schema:
    """A nullable key of the record, as a list item that always has it."""
    schema: Schema = next(k.schema for k in RECORD if k.name == name)["anyOf"][0]
    return schema



# How records_for_paths found a record: its `affects` match a path, code in the paths cites
# it, or both (then both, in this order).
VIA = ("affects", "cited")
_VIA = summary_schema(via={"type": "array", "minItems": 1, "uniqueItems": True,
                           "items": {"enum": list(VIA)}})

# Each tool's answer; list items are record summaries with the keys the tool adds.
OUTPUTS: dict[str, Schema] = {
    "list_projects": strict({"projects": {"type": "array", "items": PROJECT}}),
    "search_records": _search_answer(),
    "get_record": detail_schema(),
    "list_tags": _counted("tags"),
    "list_fields": strict({
        "fields": {"type": "array", "items": FIELD},
        "projects": {"type": "object", "additionalProperties": {
            "type": "array", "items": FIELD}}}),
    "list_authors": _counted("authors"),
    "due_reviews": _page_of(summary_schema(review=_review_key("review"),
                                           overdue={"type": "boolean"},
                                           daysLeft={"type": "integer"})),
    "rfc_reviews": _page_of(summary_schema(reviewers=_review_key("reviewers"),
                                           rfcReview=_review_key("rfcReview"))),
    "records_for_paths": {"type": "object", "required": [*_PAGE, "current", "historical"],
                          "properties": {**_PAGE,
                                         "current": {"type": "array", "items": _VIA},
                                         "historical": {"type": "array", "items": _VIA}}},
    "list_superseded": _page_of(summary_schema(chain={"type": "array",
                                                      "items": summary_schema()})),
}
OUTPUTS = {name: inline(schema) for name, schema in OUTPUTS.items()}
