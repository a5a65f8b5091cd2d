"""The MCP tools, each declared once: one row per tool, read by every front end.

A row is everything about a tool: its name, title and description, its parameters
(`contract.records.Param`, checked and published as the inputSchema), the query function of
`site_builder.query.answers` that answers it, its output schema (built from the record contract),
and what its answer holds in a sentence for people (the README's tool table is made from
it, `tests/readme.py`). The server lists and calls the rows (`server.py`), `site-builder
search` and `show` take their flags and checks from the search_records and get_record rows,
and nothing else names a tool. A tool here knows nothing of JSON-RPC: `Tool.arguments()`
checks a call's arguments before anything runs, `run()` calls the query, and the server
turns the outcome into protocol messages. Adding a tool is a query function and a row.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from site_builder.archive.archive import Archive
from site_builder.contract import answers as shapes
from site_builder.contract import records as contract
from site_builder.contract.answers import counted, page_of, record_key
from site_builder.contract.records import (
    NAMES_LIMIT,
    OFFSET,
    PROJECT_PARAM,
    SORTS,
    ArgumentError,
    Param,
    Parameters,
    limit,
    summary_schema,
)
from site_builder.contract.validate import Schema
from site_builder.errors import InputError
from site_builder.mcp.protocol import at_least
from site_builder.query import answers as query
from site_builder.query import copies, governance

__all__ = ["BY_NAME", "TOOLS", "ArgumentError", "Tool", "UnencodableAnswer", "arguments",
           "cached", "call_key", "run"]


@dataclass(frozen=True)
class Tool:
    """One MCP tool: what it is called and says about itself, what it takes, the query that
    answers it, and the shape of the answer.

    `answer` is a query function called as `answer(archive, **arguments)`; `params` its
    parameters; `output` the answer's schema (its `$ref`s resolved when the row is made);
    `answers` the README's one-line account of the answer. `text`, when set, gives the
    text content instead of the answer as JSON (get_record: the Markdown copy).
    """

    name: str
    title: str
    description: str
    answer: Callable[..., dict[str, Any]]
    params: tuple[Param, ...]
    output: Schema
    answers: str
    text: Callable[[Archive, dict[str, Any]], str] | None = None
    parameters: Parameters = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", Parameters(self.name, self.params))
        object.__setattr__(self, "output", contract.inline(self.output))

    @property
    def input_schema(self) -> Schema:
        return self.parameters.schema

    @property
    def output_schema(self) -> Schema:
        return self.output

    def arguments(self, given: Any) -> dict[str, Any]:
        """`given` checked against the tool's parameters. Raises ArgumentError."""
        return self.parameters.checked(given)

    def definition(self, version: str, open_world: bool) -> dict[str, Any]:
        """The tools/list entry for a client on protocol `version`.

        Titles and output schemas came with 2025-06-18 and annotations with 2025-03-26; an
        older client is not shown what it cannot use (a client that sees an outputSchema
        expects structuredContent, which older revisions do not have).
        """
        out: dict[str, Any] = {"name": self.name, "description": self.description,
                               "inputSchema": self.input_schema}
        if at_least(version, "2025-03-26"):
            out["annotations"] = {"title": self.title, "readOnlyHint": True,
                                  "destructiveHint": False, "idempotentHint": True,
                                  "openWorldHint": open_world}
        if at_least(version, "2025-06-18"):
            out["title"] = self.title
            out["outputSchema"] = self.output_schema
        return out


class UnencodableAnswer(InputError, ValueError):
    """An answer holding a value JSON cannot carry (NaN or infinity in a custom field)."""


def arguments(tool: Tool, given: Any) -> dict[str, Any]:
    """`given` checked against the tool's parameters. Raises ArgumentError."""
    return tool.arguments(given)


# Answers per Archive, keyed by the call: an Archive never changes, so while the source
# hands out the same one (nothing edited, nothing republished) the same call gets the same
# answer, computed and encoded once. Entries go with their Archive; a full table is emptied.
_ANSWERS: weakref.WeakKeyDictionary[Archive, dict[str, tuple[dict[str, Any], str]]] = (
    weakref.WeakKeyDictionary())
_ANSWERS_LOCK = threading.Lock()
_MAX_ANSWERS = 4096


def run(tool: Tool, archive: Archive, given: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The tool's answer and its text content, from the Archive's answer cache when the same
    call was answered before (callers must not change what comes back).

    Raises query.QueryError for a bad request, UnencodableAnswer for an answer JSON cannot
    carry: the archive's problem, which the agent is told about instead of a protocol error.
    """
    key = call_key(tool, given)
    with _ANSWERS_LOCK:
        found = _ANSWERS.get(archive, {}).get(key)
    if found is not None:
        return found
    made = _run(tool, archive, given)
    with _ANSWERS_LOCK:
        table = _ANSWERS.setdefault(archive, {})
        if len(table) >= _MAX_ANSWERS:
            table.clear()
        table[key] = made
    return made


def cached(tool: Tool, archive: Archive,
           given: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
    """What `run` would give when the same call was answered before; None otherwise."""
    key = call_key(tool, given)
    with _ANSWERS_LOCK:
        return _ANSWERS.get(archive, {}).get(key)


def call_key(tool: Tool, given: dict[str, Any]) -> str:
    """The key of a call's answer among an Archive's: the tool, its arguments and today
    (due_reviews counts days left from it)."""
    return json.dumps([tool.name, given, dt.date.today().isoformat()], sort_keys=True,
                      default=str)


def _run(tool: Tool, archive: Archive, given: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The tool's answer and its text content, worked out.

    Raises query.QueryError for a bad request, UnencodableAnswer for an answer JSON cannot
    carry: the archive's problem, which the agent is told about instead of a protocol error.
    """
    answer = tool.answer(archive, **given)
    try:
        payload = json.dumps(answer, ensure_ascii=False, allow_nan=False)
    except ValueError:
        raise UnencodableAnswer(
            f"{tool.name} found an answer holding a number JSON cannot carry (NaN or "
            "infinity, most likely in a custom field of a record); fix that value in the "
            "record, or narrow the request to leave the record out.") from None
    if tool.text is not None:
        return answer, tool.text(archive, given)
    return answer, payload


def _markdown(archive: Archive, given: dict[str, Any]) -> str:
    return copies.markdown_copy(archive, archive.get(given["id"]))


TOOLS: tuple[Tool, ...] = (
    Tool(
        "list_projects", "List projects",
        "Lists the projects of the archive in the site's order, each with its id, name, "
        "description, owners, number of records and its own custom fields. The project ids "
        "are what the project argument of other tools takes.",
        query.list_projects,
        (),
        contract.strict({"projects": {"type": "array", "items": contract.PROJECT}}),
        "`projects[]`: `id`, `name`, `description`, `owners`, `order`, `records` (count), "
        "`fields`",
    ),
    Tool(
        "search_records", "Search records",
        "Finds records by metadata and text and returns summaries (call get_record for a "
        "whole record). Filters are combined with AND and compare case-insensitively: "
        "project, type (adr, rfc, ...), status, tag, author, and field as name=value for a "
        "custom field (see list_fields). query is words or a question as you would ask it "
        "(\"why did we choose RDS for databases\"): stop words are dropped, words are "
        "stemmed, the last word also matches as a prefix, and a record matches when it holds "
        "any word; records holding every word, in title, ref or tags before the body, come "
        "first (BM25). A query naming a record (BUILD-ADR-0004, build/adr/4) puts it first; "
        "a mistyped word is corrected and the answer says so in didYouMean. current_only "
        "keeps records in force: a current status and not superseded. With a query, best "
        "match first (sort \"date\": newest first); without one, newest first. total counts "
        "every match; use offset for the next page.",
        query.search_records,
        (
            PROJECT_PARAM,
            Param("type", "string", "Record type, the folder under the project: adr, rfc, ..."),
            Param("status", "string",
                  "Status such as proposed, accepted, implemented, superseded"),
            Param("tag", "string", "A tag (see list_tags)"),
            Param("author", "string", "An author (see list_authors)"),
            Param("field", "string", "A custom field as name=value, for example risk=high",
                  max_length=400, hint="`name=value`"),
            Param("query", "string", "Words or a question; records holding any of its words "
                                     "match, best first", max_length=500, positional=True),
            Param("current_only", "boolean", "Only records in force", False),
            Param("sort", "enum", "relevance (the default with a query): best match first; "
                                  "date (the default without): newest first", values=SORTS),
            limit(), OFFSET,
        ),
        shapes.search_answer(),
        "`total`, `offset`, `limit`, `records[]` of summaries (`id`, `ref`, `title`, "
        "`status`, `date`, `project`, `type`, `tags`, `description`, `fields`), best match "
        "first with a query (`sort: \"date\"`: newest first), plus `didYouMean` when a "
        "mistyped word was corrected",
    ),
    Tool(
        "get_record", "Get one record",
        "Returns one record in full: metadata, custom fields, supersedes, supersededBy, "
        "currentRecord (where its lineage ends when something superseded it), current, "
        "review schedule, RFC sign-off, affects patterns and the Markdown body. The text "
        "content is the record's Markdown copy: a YAML block, then the body. id may be a "
        "full id (build/adr/0008-build-beside-the-output-and-swap), a short id "
        "(build/adr/8), a ref (BUILD-ADR-0008) or the slug.",
        query.get_record,
        (Param("id", "string", "Full id, short id, ref or slug of the record",
               max_length=500, required=True, positional=True,
               hint="full id, short id, ref or slug"),),
        contract.detail_schema(),
        "every key of the record, lineage resolved, and `body`; the text content is the "
        "Markdown copy (YAML block, then the body)",
        _markdown,
    ),
    Tool(
        "list_tags", "List tags",
        "Lists the tags records use with how many records use each, most used first, "
        "optionally within one project. The names are what search_records takes as tag.",
        query.list_tags,
        (PROJECT_PARAM, NAMES_LIMIT),
        counted("tags"),
        "`tags[]` of `{name, count}`, most used first, and `total`",
    ),
    Tool(
        "list_fields", "List custom fields",
        "Lists the custom metadata fields the site declares (name, label, type, allowed "
        "values, unit, description) and, under projects, the fields each project adds. "
        "search_records filters on them with field \"name=value\".",
        query.list_fields,
        (),
        shapes.FIELDS_ANSWER,
        "`fields[]` (name, label, type, values, unit, description) and `projects` (each "
        "project's own fields)",
    ),
    Tool(
        "list_authors", "List authors",
        "Lists the people named in records' authors (not deciders) with how many records "
        "each wrote, most first, optionally within one project.",
        query.list_authors,
        (PROJECT_PARAM, NAMES_LIMIT),
        counted("authors"),
        "`authors[]` of `{name, count}` (from `authors`), and `total`",
    ),
    Tool(
        "due_reviews", "List reviews due",
        "Lists decided records with a review schedule whose next review is overdue or due "
        "within the given number of days (default 30), soonest first. Each has review "
        "(due, reviewed, every), daysLeft (negative when overdue) and overdue. With all, "
        "every record with a schedule is listed.",
        governance.due_reviews,
        (
            PROJECT_PARAM,
            Param("within", "integer", "Days ahead to look", contract.DEFAULT_WITHIN, 0,
                  36_500, hint=f"days, default {contract.DEFAULT_WITHIN}"),
            Param("all", "boolean", "Every scheduled record, due or not", False),
            limit(), OFFSET,
        ),
        page_of(summary_schema(review=record_key("review"), overdue={"type": "boolean"},
                               daysLeft={"type": "integer"})),
        "decided records whose review is overdue or due within the window, soonest first, "
        "with `review`, `overdue`, `daysLeft`",
    ),
    Tool(
        "rfc_reviews", "List RFC sign-offs",
        "Lists open records (under discussion, such as proposed RFCs) that name reviewers, "
        "with each reviewer's state, the sign-off status (approved, pending or "
        "changes-requested), approvals counted against those required, and waitingOn: the "
        "reviewers still pending. With reviewer, only records waiting on that handle.",
        governance.rfc_reviews,
        (Param("reviewer", "string", "A reviewer handle, with or without @"),
         limit(), OFFSET),
        page_of(summary_schema(reviewers=record_key("reviewers"),
                               rfcReview=record_key("rfcReview"))),
        "open records with reviewers: `reviewers`, `rfcReview` (`status`, `approved`, "
        "`required`, `waitingOn`)",
    ),
    Tool(
        "records_for_paths", "Decisions governing files",
        "Returns the records whose affects patterns match any of the given "
        "repository-relative file paths, and those that the code in these files (or below "
        "these folders) cites, each record once; via says which: [\"affects\"], "
        "[\"cited\"] or both. current holds the records in force; historical holds the "
        "others (superseded, rejected, deprecated, and open proposals, which govern nothing "
        "yet). Paths are compared with the patterns and the citations found when the "
        "archive was read, never read themselves; paths that match nothing give empty lists.",
        governance.records_for_paths,
        (
            Param("paths", "paths", "Repository-relative file or folder paths", maximum=256,
                  max_length=1024, required=True, hint="repository-relative"),
            limit(), OFFSET,
        ),
        shapes.paths_answer("current", "historical"),
        "`current[]` (records in force whose `affects` match or that the files cite) and "
        "`historical[]` (the rest, open proposals included), each record once, with `via`",
    ),
    Tool(
        "list_superseded", "List superseded records",
        "Lists every record that another record superseded, newest first, each with chain: "
        "the summaries of its replacements from the direct one to the end of the chain "
        "(the last one is where the lineage ends today).",
        governance.list_superseded,
        (limit(), OFFSET),
        page_of(summary_schema(chain={"type": "array", "items": summary_schema()})),
        "every superseded record with `chain`: its replacements, from the direct one to "
        "the end",
    ),
)

BY_NAME: dict[str, Tool] = {tool.name: tool for tool in TOOLS}
