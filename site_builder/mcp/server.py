"""The MCP server: dispatches JSON-RPC requests to the tools and resources of one Source.

Every request gets exactly one answer, at once: unknown methods are refused with -32601
rather than left unanswered. Notifications are never answered. A tool that cannot run (bad
arguments, an unknown id, a site that did not answer, an answer JSON cannot carry) gives a
result with `isError: true` whose text says what to do; only a request the protocol itself
cannot serve gets a JSON-RPC error. Both protocol eras are served request by request (see
envelope.py); the transports (stdio here, Streamable HTTP in http.py) only frame messages.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

from site_builder import __version__
from site_builder.access.source import Log, Source, SourceError, log_to_stderr
from site_builder.archive.archive import Archive
from site_builder.mcp import completion, envelope, prompts, resources, tools
from site_builder.mcp.envelope import CacheHints, call_result, tool_error
from site_builder.mcp.protocol import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    LATEST_VERSION,
    MAX_LINE_BYTES,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    PROTOCOL_VERSIONS,
    Invalid,
    Request,
    RpcError,
    at_least,
    encode,
    error,
    negotiate,
    parse_line,
    result,
    skip_line,
)
from site_builder.query import answers as query
from site_builder.query.textindex import follow, index_for

SERVER_NAME = "site-builder"
SERVER_INFO = {"name": SERVER_NAME, "title": "site-builder decision records",
               "version": __version__}
# Requests answered per batch; a longer batch is refused whole, so one line cannot queue
# unbounded work.
MAX_BATCH = 100
# Bytes the answers of one batch may hold together: past them a request gets an error
# instead of its answer (and is not run), so a few KB of batch cannot ask for many MB.
MAX_BATCH_ANSWER_BYTES = 1024 * 1024

INSTRUCTIONS = (
    "This server answers questions about an archive of decision records (ADRs, RFCs and "
    "similar) and never changes it. Start with list_projects to see the projects, or with "
    "search_records to find records by status, tag, text or custom field; get_record "
    "returns one record in full. Trust only records whose current is true: they are in "
    "force. A superseded record names its replacement (supersededBy, currentRecord), and a "
    "proposal under discussion decides nothing yet. records_for_paths tells which "
    "decisions govern the files you are about to change."
)


def capabilities(version: str) -> dict[str, Any]:
    """What the server offers a client on `version` (completions are named from
    2025-03-26 on; 2024-11-05 clients ask for them without a capability)."""
    out: dict[str, Any] = {"tools": {}, "resources": {}, "prompts": {}}
    if at_least(version, "2025-03-26"):
        out["completions"] = {}
    return out

Handler = Callable[[dict[str, Any], str], dict[str, Any]]
# Methods a 2026-07-28 request may name; the handshake and ping belong to the older era.
_MODERN_METHODS = frozenset({"server/discover", "tools/list", "tools/call", "resources/list",
                             "resources/read", "resources/templates/list", "prompts/list",
                             "prompts/get", "completion/complete"})


@dataclass(slots=True)
class Connection:
    """What the handshake era remembers of a client: the revision `initialize` settled on
    (the newest handshake revision until then). 2026-07-28 requests carry their own."""

    version: str = LATEST_VERSION


class Server:
    """Dispatch of MCP requests to the tools and resources over one Source.

    `hints` sets the 2026-07-28 cache hints: how long an archive answer may be cached and
    whether a shared cache may serve it to anyone (public) or only to its client. `table`
    is the tools it serves, in tools/list order (every tool's row, unless told otherwise).
    """

    def __init__(self, source: Source, log: Log = log_to_stderr,
                 hints: CacheHints | None = None,
                 table: tuple[tools.Tool, ...] = tools.TOOLS) -> None:
        self.source = source
        self.tools = {tool.name: tool for tool in table}
        self.hints = hints or CacheHints()
        self.connection = Connection()  # the stdio client's; HTTP passes one per request
        self._log = log
        self._warm_pending = False
        self.served: Archive | None = None  # what the last call was answered from
        self._methods: dict[str, Handler] = {
            "initialize": self._initialize,
            "server/discover": self._discover,
            "ping": lambda params, version: {},
            "tools/list": self._tools_list,
            "tools/call": self._tools_call,
            "resources/list": self._resources_list,
            "resources/read": self._resources_read,
            "resources/templates/list": self._resource_templates,
            "prompts/list": self._prompts_list,
            "prompts/get": self._prompts_get,
            "completion/complete": lambda params, version: completion.complete(
                self._archive, params, resources.TEMPLATES),
        }

    # ---- framing ---------------------------------------------------------------------------

    def serve(self, stdin: BinaryIO, stdout: BinaryIO) -> int:
        """Answer requests until stdin closes. Returns the exit status (0)."""
        while True:
            line = stdin.readline(MAX_LINE_BYTES + 1)
            if not line:
                return 0
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                skip_line(stdin)
                answer: bytes | None = encode(error(None, too_long()))
            else:
                answer = self._answer_line(line)
            if answer is not None:
                try:
                    stdout.write(answer)
                    stdout.flush()
                except BrokenPipeError:
                    return 0
            self.warm_if_due()

    def _answer_line(self, line: bytes) -> bytes | None:
        """`handle_line`, except that a bug in it costs this one line, never the server."""
        try:
            return self.handle_line(line)
        except Exception:
            self._log(f"internal error answering a line:\n{traceback.format_exc()}")
            return encode(error(None, RpcError(INTERNAL_ERROR, "Internal error")))

    def warm_if_due(self) -> None:
        """Start reading the archive if a client just connected: after the answer went out,
        so the handshake never waits on it."""
        if self._warm_pending:
            self._warm_pending = False
            self.warm()

    def warm(self) -> None:
        """Have the source read the archive in the background, and the text index and the
        completion names made from it there too, so the first query does not wait on them."""
        self.source.warm(then=_analyse)

    def handle_line(self, line: bytes) -> bytes | None:
        """The answer line for one input line, or None when nothing is to be answered."""
        if not line.strip():
            return None  # a blank line is not a message
        parsed = parse_messages(line)
        if isinstance(parsed, RpcError):
            return encode_answers([error(None, parsed)], False)
        messages, batch = parsed
        return self.reply(messages, batch)[1]

    def reply(self, messages: list[Request | Invalid | None], batch: bool,
              connection: Connection | None = None) -> tuple[list[dict[str, Any]],
                                                             bytes | None]:
        """The answers to the messages of one line or body, in order (none for
        notifications), and the line carrying them (None when there is none).

        A batch's answers are kept while together, and with room for the errors of the
        requests after them, they fit in MAX_BATCH_ANSWER_BYTES; the first that would not,
        and every request after it, get an error saying so instead, without being run.
        """
        conn = self.connection if connection is None else connection
        answers: list[dict[str, Any]] = []
        if not batch:
            answers = [a for a in (self.handle(messages[0], conn),) if a is not None]
            return answers, encode_answers(answers, False)
        parts: list[bytes] = []
        size, full = 2, False
        # Room kept for the errors every later request would get once the answers are full,
        # so that the batch's whole answer stays within the cap.
        later = _error_sizes(messages)
        for number, message in enumerate(messages):
            answer = _batch_full(message) if full else self.handle(message, conn)
            if answer is None:
                continue
            part = (encode_answers([answer], False) or b"")[:-1]
            if not full and size + len(part) + 1 + later[number + 1] > MAX_BATCH_ANSWER_BYTES:
                full = True
                answer = _batch_full(message) or answer
                part = (encode_answers([answer], False) or b"")[:-1]
            answers.append(answer)
            parts.append(part)
            size += len(part) + 1
        return answers, (b"[" + b",".join(parts) + b"]\n") if parts else None

    def handle(self, message: Request | Invalid | None,
               connection: Connection | None = None) -> dict[str, Any] | None:
        """The answer to one message; None for notifications and client responses."""
        if message is None:
            return None
        if isinstance(message, Invalid):
            return error(message.id, message.error)
        if message.is_notification:
            return None  # initialized, cancelled, …: nothing to do, nothing to answer
        conn = self.connection if connection is None else connection
        try:
            modern = envelope.modern_version(message.method, message.params)
        except RpcError as exc:
            return error(message.id, exc)
        method = self._methods.get(message.method)
        if method is None or (modern is not None and message.method not in _MODERN_METHODS) \
                or (modern is None and message.method == "server/discover"):
            return error(message.id, RpcError(METHOD_NOT_FOUND,
                                              f"Method not found: {message.method[:200]}"))
        try:
            if modern is None:
                if message.method == "initialize":
                    answer = self._initialize(message.params, conn.version)
                    conn.version = answer["protocolVersion"]
                    return result(message.id, answer)
                return result(message.id, method(message.params, conn.version))
            return result(message.id, envelope.decorate(
                message.method, method(message.params, modern), self.hints))
        except RpcError as exc:
            return error(message.id, exc)
        except Exception as exc:  # a bug must cost one answer, never the server
            self._log(f"internal error in {message.method}:\n{traceback.format_exc()}")
            return error(message.id, RpcError(INTERNAL_ERROR, f"Internal error: {exc}"))

    # ---- lifecycle ------------------------------------------------------------------------

    def _initialize(self, params: dict[str, Any], version: str) -> dict[str, Any]:
        self._warm_pending = True
        negotiated = negotiate(params.get("protocolVersion"))
        return {
            "protocolVersion": negotiated,
            "capabilities": capabilities(negotiated),
            "serverInfo": SERVER_INFO,
            "instructions": INSTRUCTIONS,
        }

    def _discover(self, params: dict[str, Any], version: str) -> dict[str, Any]:
        self._warm_pending = True
        return {"supportedVersions": list(PROTOCOL_VERSIONS), "capabilities": capabilities(version),
                "instructions": INSTRUCTIONS, "_meta": {envelope.SERVER_INFO_KEY: SERVER_INFO}}

    def _archive(self) -> Archive:
        try:
            return self._current()
        except SourceError as exc:
            raise RpcError(INTERNAL_ERROR, str(exc)) from None

    def _current(self) -> Archive:
        """The source's archive; one replacing the last served (an edit, a republished site)
        takes over its text index, updated then, not remade. Raises SourceError."""
        archive = self.source.archive()
        if self.served is not None and archive is not self.served:
            follow(archive, self.served)
        self.served = archive
        return archive

    # ---- tools ------------------------------------------------------------------------------

    def _tools_list(self, params: dict[str, Any], version: str) -> dict[str, Any]:
        return {"tools": [tool.definition(version, self.source.open_world)
                          for tool in self.tools.values()]}

    def _tools_call(self, params: dict[str, Any], version: str) -> dict[str, Any]:
        name = params.get("name")
        tool = self.tools.get(name) if isinstance(name, str) else None
        if tool is None:
            shown = repr(name)[:200]
            raise RpcError(INVALID_PARAMS, f"Unknown tool {shown}; the tools are "
                                           f"{', '.join(self.tools)}.")
        try:
            given = tools.arguments(tool, params.get("arguments"))
        except tools.ArgumentError as exc:
            return tool_error(str(exc))
        try:
            answer, text = tools.run(tool, self._current(), given)
        except (query.QueryError, SourceError, tools.UnencodableAnswer) as exc:
            return tool_error(str(exc))
        return call_result(answer, text, version)

    # ---- prompts -----------------------------------------------------------------------------

    def _prompts_list(self, params: dict[str, Any], version: str) -> dict[str, Any]:
        if params.get("cursor") is not None:
            raise RpcError(INVALID_PARAMS, "Invalid params: unknown cursor")
        return {"prompts": [prompt.definition(version) for prompt in prompts.PROMPTS]}

    def _prompts_get(self, params: dict[str, Any], version: str) -> dict[str, Any]:
        name = params.get("name")
        prompt = prompts.BY_NAME.get(name) if isinstance(name, str) else None
        if prompt is None:
            raise RpcError(INVALID_PARAMS, f"Unknown prompt {repr(name)[:200]}; the prompts "
                                           f"are {', '.join(prompts.BY_NAME)}.")
        try:
            return prompt.message(self._archive(), params.get("arguments"),
                                  local=not self.source.open_world)
        except (tools.ArgumentError, prompts.PromptError) as exc:
            raise RpcError(INVALID_PARAMS, f"Invalid params: {exc}") from None
        except (SourceError, query.QueryError) as exc:
            raise RpcError(INTERNAL_ERROR, str(exc)) from None

    # ---- resources: decision://{id} (resources.py) ------------------------------------------

    def _resources_list(self, params: dict[str, Any], version: str) -> dict[str, Any]:
        return resources.listed(self._archive(), params)

    def _resources_read(self, params: dict[str, Any], version: str) -> dict[str, Any]:
        return resources.read(self._archive(), params, version)

    def _resource_templates(self, params: dict[str, Any], version: str) -> dict[str, Any]:
        return resources.templates()


def _analyse(archive: Archive) -> None:
    """Make the archive's text index now (the postings are what it is made of), and the
    record names completion offers, the one kind that takes more than a few milliseconds."""
    index_for(archive).ready(archive)
    completion.completions_for(archive).matching("record", "")


def batch_too_long(count: int) -> RpcError:
    """The error for a batch of `count` messages, more than one answer may hold."""
    return RpcError(INVALID_REQUEST, f"Invalid Request: a batch of {count} messages; at most "
                                     f"{MAX_BATCH} are answered per batch")


def _batch_full(message: Request | Invalid | None) -> dict[str, Any] | None:
    """The error that stands for a request's answer once its batch's answers are full."""
    if message is None or (isinstance(message, Request) and message.is_notification):
        return None
    return error(message.id, RpcError(
        INTERNAL_ERROR, f"Batch answer too large: the answers before this request fill "
                        f"{MAX_BATCH_ANSWER_BYTES // 1024} KB; send it alone or in a smaller "
                        "batch", {"limit": MAX_BATCH_ANSWER_BYTES}))


def _error_sizes(messages: list[Request | Invalid | None]) -> list[int]:
    """For each position, the bytes the batch-full errors of the messages from there on
    would take (with their separating commas); one more entry, 0, for past the end."""
    sizes = [0] * (len(messages) + 1)
    for number in range(len(messages) - 1, -1, -1):
        error_answer = _batch_full(messages[number])
        own = len(encode_answers([error_answer], False) or b"") if error_answer else 0
        sizes[number] = sizes[number + 1] + own
    return sizes


def too_long(limit: int = MAX_LINE_BYTES) -> RpcError:
    """The error for a message longer than the transport accepts (`limit` bytes)."""
    return RpcError(PARSE_ERROR, f"Parse error: a message longer than "
                                 f"{limit // (1024 * 1024)} MB")


def parse_messages(data: bytes) -> tuple[list[Request | Invalid | None], bool] | RpcError:
    """The messages of one line or HTTP body and whether they form a batch (an array), or the
    error that answers the whole of it (not JSON, a batch over MAX_BATCH)."""
    parsed = parse_line(data)
    if isinstance(parsed, RpcError):
        return parsed
    messages, batch = parsed
    if len(messages) > MAX_BATCH:
        return batch_too_long(len(messages))
    return messages, batch


def encode_answers(answers: list[dict[str, Any]], batch: bool) -> bytes | None:
    """The answers as one line (an array for a batch); None when there is none."""
    if not answers:
        return None
    try:
        return encode(answers if batch else answers[0])
    except ValueError:  # a value JSON cannot represent, such as NaN in a resource listing
        failed = [error(a["id"], RpcError(INTERNAL_ERROR, "Internal error: the answer "
                                          "holds a value JSON cannot represent"))
                  for a in answers]
        return encode(failed if batch else failed[0])
