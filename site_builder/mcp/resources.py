"""MCP resources: each record as `decision://{id}`, its Markdown copy, listed page by page."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from site_builder.access.source import SourceError
from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.mcp.protocol import (
    HANDSHAKE_VERSIONS,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    RESOURCE_NOT_FOUND,
    RpcError,
)
from site_builder.query import copies

URI_SCHEME = "decision://"
# The resource templates' variables, with the kind of name completion offers for each.
TEMPLATES: dict[str, dict[str, str | None]] = {URI_SCHEME + "{id}": {"id": "record"}}
# resources/list answers in pages of this many records; a cursor is a position, in ASCII
# digits, short enough that no client can make int() work hard.
RESOURCE_PAGE = 1000
_CURSOR = re.compile(r"[0-9]{1,12}")


def listed(archive: Archive, params: dict[str, Any]) -> dict[str, Any]:
    """resources/list: one page of records, with the cursor of the next."""
    start = _cursor_start(params)
    records = archive.records
    page = [_resource(r) for r in records[start:start + RESOURCE_PAGE]]
    out: dict[str, Any] = {"resources": page}
    if start + RESOURCE_PAGE < len(records):
        out["nextCursor"] = str(start + RESOURCE_PAGE)
    return out


def read(archive: Archive, params: dict[str, Any], version: str) -> dict[str, Any]:
    """resources/read: the record a `decision://` URI names, as its Markdown copy. Raises
    RpcError for a URI that names none (its code depends on the protocol `version`)."""
    uri = params.get("uri")
    if not isinstance(uri, str):
        raise RpcError(INVALID_PARAMS, "Invalid params: uri must be a string")
    record = _record_at(archive, uri)
    if record is None:
        # 2026-07-28 made an unknown resource an invalid parameter.
        code = RESOURCE_NOT_FOUND if version in HANDSHAKE_VERSIONS else INVALID_PARAMS
        raise RpcError(code, "Resource not found", {"uri": uri})
    try:
        text = copies.markdown_copy(archive, record)
    except SourceError as exc:
        raise RpcError(INTERNAL_ERROR, str(exc)) from None
    return {"contents": [{"uri": uri, "mimeType": "text/markdown", "text": text}]}


def templates() -> dict[str, Any]:
    """resources/templates/list: the one template, `decision://{id}`."""
    return {"resourceTemplates": [{
        "uriTemplate": URI_SCHEME + "{id}",
        "name": "decision",
        "title": "Decision record",
        "description": "One record as Markdown: a YAML block, then the body. id is the "
                       "full id, for example build/adr/0008-build-beside-the-output-and-swap",
        "mimeType": "text/markdown",
    }]}


def _cursor_start(params: dict[str, Any]) -> int:
    """Where a paginated list starts. Raises RpcError -32602 for a cursor this server did not
    hand out."""
    cursor = params.get("cursor")
    if cursor is None:
        return 0
    if not isinstance(cursor, str) or not _CURSOR.fullmatch(cursor):
        raise RpcError(INVALID_PARAMS, "Invalid params: unknown cursor")
    return int(cursor)


def _resource(record: Record) -> dict[str, Any]:
    return {"uri": URI_SCHEME + record.id, "name": record.ref, "title": record.title,
            "description": f"{record.status}: {record.description}",
            "mimeType": "text/markdown"}


def _record_at(archive: Archive, uri: str) -> Record | None:
    """The record a `decision://` URI names (its id, percent-encoded or not), or None."""
    if not uri.startswith(URI_SCHEME):
        return None
    wanted = uri[len(URI_SCHEME):]
    for candidate in (wanted, unquote(wanted)):
        record = archive.by_id.get(candidate) or archive.resolve(candidate)
        if record is not None:
            return record
    return None
