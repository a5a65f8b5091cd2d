"""The MCP server: reads JSON-RPC lines from stdin, answers each request on stdout.

One request at a time, in order. Every request gets exactly one answer, at once: unknown
methods (such as the `server/discover` probe newer clients send first) are refused with
-32601 rather than left unanswered. Notifications are never answered. A tool that cannot
run (bad arguments, an unknown id, a site that did not answer) gives a result with
`isError: true` whose text says what to do; only a request the protocol itself cannot
serve gets a JSON-RPC error.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any, BinaryIO
from urllib.parse import unquote

from site_builder import __version__, query
from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.mcp import tools
from site_builder.mcp.protocol import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    LATEST_VERSION,
    MAX_LINE_BYTES,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    RESOURCE_NOT_FOUND,
    Invalid,
    Request,
    RpcError,
    at_least,
    encode,
    error,
    negotiate,
    parse_line,
    result,
)
from site_builder.mcp.source import Log, Source, SourceError, log_to_stderr

SERVER_NAME = "site-builder"
URI_SCHEME = "decision://"
# resources/list answers in pages of this many records.
RESOURCE_PAGE = 1000

INSTRUCTIONS = (
    "This server answers questions about an archive of decision records (ADRs, RFCs and "
    "similar) and never changes it. Start with list_projects to see the projects, or with "
    "search_records to find records by status, tag, text or custom field; get_record "
    "returns one record in full. Trust only records whose current is true: they are in "
    "force. A superseded record names its replacement (supersededBy, currentRecord), and a "
    "proposal under discussion decides nothing yet. records_for_paths tells which "
    "decisions govern the files you are about to change."
)

Handler = Callable[[dict[str, Any]], dict[str, Any]]


def tool_error(message: str) -> dict[str, Any]:
    """A tools/call result that reports a problem the agent can act on."""
    return {"content": [{"type": "text", "text": message}], "isError": True}


class Server:
    """Dispatch of MCP requests to the tools and resources over one Source."""

    def __init__(self, source: Source, log: Log = log_to_stderr) -> None:
        self.source = source
        self.version = LATEST_VERSION
        self._log = log
        self._warm_pending = False
        self._methods: dict[str, Handler] = {
            "initialize": self._initialize,
            "ping": lambda params: {},
            "tools/list": self._tools_list,
            "tools/call": self._tools_call,
            "resources/list": self._resources_list,
            "resources/read": self._resources_read,
            "resources/templates/list": self._resource_templates,
        }

    # ---- framing ---------------------------------------------------------------------------

    def serve(self, stdin: BinaryIO, stdout: BinaryIO) -> int:
        """Answer requests until stdin closes. Returns the exit status (0)."""
        while True:
            line = stdin.readline(MAX_LINE_BYTES + 1)
            if not line:
                return 0
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                _skip_line(stdin)
                answer: bytes | None = encode(error(None, RpcError(
                    PARSE_ERROR, f"Parse error: a message longer than "
                                 f"{MAX_LINE_BYTES // (1024 * 1024)} MB")))
            else:
                answer = self._answer_line(line)
            if answer is not None:
                try:
                    stdout.write(answer)
                    stdout.flush()
                except BrokenPipeError:
                    return 0
            if self._warm_pending:
                self._warm_pending = False
                self.source.warm()

    def _answer_line(self, line: bytes) -> bytes | None:
        """`handle_line`, except that a bug in it costs this one line, never the server."""
        try:
            return self.handle_line(line)
        except Exception:
            self._log(f"internal error answering a line:\n{traceback.format_exc()}")
            return encode(error(None, RpcError(INTERNAL_ERROR, "Internal error")))

    def handle_line(self, line: bytes) -> bytes | None:
        """The answer line for one input line, or None when nothing is to be answered."""
        if not line.strip():
            return None  # a blank line is not a message
        parsed = parse_line(line)
        if isinstance(parsed, RpcError):
            return encode(error(None, parsed))
        messages, batch = parsed
        answers = [a for a in (self.handle(m) for m in messages) if a is not None]
        if not answers:
            return None
        try:
            return encode(answers if batch else answers[0])
        except ValueError:  # a value JSON cannot carry, such as NaN in a custom field
            failed = [error(a["id"], RpcError(INTERNAL_ERROR, "Internal error: the answer "
                                              "holds a value JSON cannot represent"))
                      for a in answers]
            return encode(failed if batch else failed[0])

    def handle(self, message: Request | Invalid | None) -> dict[str, Any] | None:
        """The answer to one message; None for notifications and client responses."""
        if message is None:
            return None
        if isinstance(message, Invalid):
            return error(message.id, message.error)
        if message.is_notification:
            return None  # initialized, cancelled, …: nothing to do, nothing to answer
        method = self._methods.get(message.method)
        if method is None:
            return error(message.id, RpcError(METHOD_NOT_FOUND,
                                              f"Method not found: {message.method}"))
        try:
            return result(message.id, method(message.params))
        except RpcError as exc:
            return error(message.id, exc)
        except Exception as exc:  # a bug must cost one answer, never the server
            self._log(f"internal error in {message.method}:\n{traceback.format_exc()}")
            return error(message.id, RpcError(INTERNAL_ERROR, f"Internal error: {exc}"))

    # ---- lifecycle ------------------------------------------------------------------------

    def _initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        self.version = negotiate(params.get("protocolVersion"))
        self._warm_pending = True
        return {
            "protocolVersion": self.version,
            "capabilities": {"tools": {}, "resources": {}},
            "serverInfo": {"name": SERVER_NAME, "title": "site-builder decision records",
                           "version": __version__},
            "instructions": INSTRUCTIONS,
        }

    def _archive(self) -> Archive:
        try:
            return self.source.archive()
        except SourceError as exc:
            raise RpcError(INTERNAL_ERROR, str(exc)) from None

    # ---- tools ------------------------------------------------------------------------------

    def _tools_list(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"tools": [tool.definition(self.version, self.source.open_world)
                          for tool in tools.TOOLS]}

    def _tools_call(self, params: dict[str, Any]) -> dict[str, Any]:
        name = params.get("name")
        tool = tools.BY_NAME.get(name) if isinstance(name, str) else None
        if tool is None:
            raise RpcError(INVALID_PARAMS, f"Unknown tool {name!r}; the tools are "
                                           f"{', '.join(tools.BY_NAME)}.")
        try:
            given = tools.arguments(tool, params.get("arguments"))
        except tools.ArgumentError as exc:
            return tool_error(str(exc))
        try:
            answer, text = tools.run(tool, self.source.archive(), given)
        except (query.QueryError, SourceError) as exc:
            return tool_error(str(exc))
        out: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": False}
        if at_least(self.version, "2025-06-18"):
            out["structuredContent"] = answer
        return out

    # ---- resources -------------------------------------------------------------------------

    def _resources_list(self, params: dict[str, Any]) -> dict[str, Any]:
        cursor = params.get("cursor")
        start = 0
        if cursor is not None:
            if not isinstance(cursor, str) or not cursor.isdigit():
                raise RpcError(INVALID_PARAMS, "Invalid params: unknown cursor")
            start = int(cursor)
        records = self._archive().records
        page = [_resource(r) for r in records[start:start + RESOURCE_PAGE]]
        out: dict[str, Any] = {"resources": page}
        if start + RESOURCE_PAGE < len(records):
            out["nextCursor"] = str(start + RESOURCE_PAGE)
        return out

    def _resources_read(self, params: dict[str, Any]) -> dict[str, Any]:
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: uri must be a string")
        archive = self._archive()
        record = _record_at(archive, uri)
        if record is None:
            raise RpcError(RESOURCE_NOT_FOUND, "Resource not found", {"uri": uri})
        try:
            text = query.markdown_copy(archive, record)
        except SourceError as exc:
            raise RpcError(INTERNAL_ERROR, str(exc)) from None
        return {"contents": [{"uri": uri, "mimeType": "text/markdown", "text": text}]}

    def _resource_templates(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"resourceTemplates": [{
            "uriTemplate": URI_SCHEME + "{id}",
            "name": "decision",
            "title": "Decision record",
            "description": "One record as Markdown: a YAML block, then the body. id is the "
                           "full id, for example build/adr/0008-build-beside-the-output-and-swap",
            "mimeType": "text/markdown",
        }]}


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


def _skip_line(stream: BinaryIO) -> None:
    """Read and drop the rest of an over-long line."""
    while True:
        chunk = stream.readline(MAX_LINE_BYTES)
        if not chunk or chunk.endswith(b"\n"):
            return
