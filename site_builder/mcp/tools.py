"""The MCP tools: one row per tool, each a query function with its published schemas.

A tool here knows nothing of JSON-RPC: it is a name, a title, a description and the
function of `site_builder.query.answers` that answers it; its input and output schemas come from
the one declaration of the contract (`site_builder.contract.records`), which the CLI uses too.
`arguments()` checks a call's arguments before anything runs; `run()` calls the query. The
server turns the outcome into protocol messages.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from site_builder.archive.archive import Archive
from site_builder.contract import answers
from site_builder.contract import records as contract
from site_builder.contract.records import ArgumentError
from site_builder.contract.validate import Schema
from site_builder.errors import InputError
from site_builder.mcp.protocol import at_least
from site_builder.query import answers as query
from site_builder.query import copies, governance

__all__ = ["BY_NAME", "TOOLS", "ArgumentError", "Tool", "arguments", "run"]


@dataclass(frozen=True, slots=True)
class Tool:
    """One MCP tool: what it is called, what it says about itself, and the query it runs.

    `answer` is a query function called as `answer(archive, **arguments)`; `text`, when set,
    gives the text content instead of the answer as JSON (get_record: the Markdown copy).
    """

    name: str
    title: str
    description: str
    answer: Callable[..., dict[str, Any]]
    text: Callable[[Archive, dict[str, Any]], str] | None = None

    @property
    def input_schema(self) -> Schema:
        return contract.INPUTS[self.name]

    @property
    def output_schema(self) -> Schema:
        return answers.OUTPUTS[self.name]

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
    return contract.checked(tool.name, given)


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
    # Today is part of the call: due_reviews counts days left from it.
    key = json.dumps([tool.name, given, dt.date.today().isoformat()], sort_keys=True,
                     default=str)
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


def _run(tool: Tool, archive: Archive, given: dict[str, Any]) -> tuple[dict[str, Any], str]:
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
        _markdown,
    ),
    Tool(
        "list_tags", "List tags",
        "Lists the tags records use with how many records use each, most used first, "
        "optionally within one project. The names are what search_records takes as tag.",
        query.list_tags,
    ),
    Tool(
        "list_fields", "List custom fields",
        "Lists the custom metadata fields the site declares (name, label, type, allowed "
        "values, unit, description) and, under projects, the fields each project adds. "
        "search_records filters on them with field \"name=value\".",
        query.list_fields,
    ),
    Tool(
        "list_authors", "List authors",
        "Lists the people named in records' authors (not deciders) with how many records "
        "each wrote, most first, optionally within one project.",
        query.list_authors,
    ),
    Tool(
        "due_reviews", "List reviews due",
        "Lists decided records with a review schedule whose next review is overdue or due "
        "within the given number of days (default 30), soonest first. Each has review "
        "(due, reviewed, every), daysLeft (negative when overdue) and overdue. With all, "
        "every record with a schedule is listed.",
        governance.due_reviews,
    ),
    Tool(
        "rfc_reviews", "List RFC sign-offs",
        "Lists open records (under discussion, such as proposed RFCs) that name reviewers, "
        "with each reviewer's state, the sign-off status (approved, pending or "
        "changes-requested), approvals counted against those required, and waitingOn: the "
        "reviewers still pending. With reviewer, only records waiting on that handle.",
        governance.rfc_reviews,
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
    ),
    Tool(
        "list_superseded", "List superseded records",
        "Lists every record that another record superseded, newest first, each with chain: "
        "the summaries of its replacements from the direct one to the end of the chain "
        "(the last one is where the lineage ends today).",
        governance.list_superseded,
    ),
)

BY_NAME: dict[str, Tool] = {tool.name: tool for tool in TOOLS}
