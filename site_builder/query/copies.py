"""A record's published Markdown copy: its JSON detail as a YAML block, then the body.

The `.md` files of a build, `site-builder show --markdown` and the MCP server's record
resources all come from `markdown_copy`, so a copy reads the same wherever it is fetched.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.query.answers import detail

# One encoder for every value: json.dumps with options builds a new encoder per call, which
# was most of the cost of writing 10,000 Markdown copies.
_FLOW = json.JSONEncoder(ensure_ascii=False)


def _yaml_scalar(value: Any) -> str:
    if isinstance(value, dt.date):
        return _FLOW.encode(value.isoformat())
    return _FLOW.encode(value)


def front_matter(archive: Archive, record: Record) -> str:
    """The YAML block of a record's Markdown copy, `---` lines included.

    Values are written in JSON's flow style, which every YAML parser reads, so the block is
    fast to write and identical for every archive that holds the same record.
    """
    data = detail(archive, record, body=False)
    lines = ["---"]
    order = ["id", "ref", "title", "status", "statusNote", "date", "description", "project", "type",
             "authors", "deciders", "tags", "current", "supersedes", "supersededBy",
             "currentRecord", "related", "review", "reviewers", "rfcReview", "affects",
             "fields", "source"]
    always = {"id", "ref", "title", "status", "date", "description", "current"}
    for key in order:
        value = data[key]
        if key not in always and value in (None, [], {}):
            continue
        lines.append(f"{key}: {_yaml_scalar(value)}")
    lines.append("---")
    return "\n".join(lines) + "\n"


def markdown_copy(archive: Archive, record: Record, front: str | None = None) -> str:
    """The published `.md` copy: the YAML block (`front`, when the caller has already made
    it with `front_matter`), then the body exactly as written."""
    return (front_matter(archive, record) if front is None else front) + archive.body(record)
