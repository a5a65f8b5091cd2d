"""The record's JSON shape and every tool's parameters, declared once.

What a record looks like as JSON (decisions.json, MCP answers, `--json`) and what each query
takes are facts that several front ends publish. They are written down here, and only here:
- `RECORD` lists the record's keys with their schemas; `summary_schema()` and
  `detail_schema()` are the MCP tools' output items, `record_schema()` the record of a
  site's `decisions.schema.json` (`index_contract.document`), which loosened for other
  versions is also what a published decisions.json is checked against before it is read
  back (`index_contract.readable`, `access/published.py`);
- `TOOLS` lists each query's parameters; `input_schema()` is a tool's MCP inputSchema,
  `checked()` validates arguments for the MCP server and the CLI alike (`cli/common.py`
  adds the same parameters to a command line).
The query functions themselves (`query/answers.py`) then trust their arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from site_builder.archive.values import REVIEW_STATES
from site_builder.config.site import FIELD_TYPES
from site_builder.contract.validate import Schema, problem
from site_builder.errors import UsageError

DEFAULT_LIMIT = 20
MAX_LIMIT = 200
DEFAULT_NAME_LIMIT = 100
DEFAULT_WITHIN = 30
# What an RFC's sign-off says as a whole (`rfcReview.status`).
SIGNOFF_STATES = ("approved", "changes-requested", "pending")
SORTS = ("date", "relevance")

# ---- shapes ------------------------------------------------------------------------------

STRING: Schema = {"type": "string"}
STRINGS: Schema = {"type": "array", "items": STRING}
DATE: Schema = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$", "format": "date"}
RECORD_REF: Schema = {"$ref": "#/$defs/recordRef"}


def nullable(schema: Schema) -> Schema:
    """`schema`, or null."""
    return {"anyOf": [schema, {"type": "null"}]}


def strict(properties: dict[str, Schema], **extra: Any) -> Schema:
    """An object with exactly these keys, all required."""
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False, **extra}


FIELD: Schema = strict({
    "name": STRING,
    "label": STRING,
    "type": {"enum": list(FIELD_TYPES)},
    "values": STRINGS,
    "unit": nullable(STRING),
    "description": STRING,
    "required": {"type": "boolean"},
})

DEFS: dict[str, Schema] = {
    "field": FIELD,
    "recordRef": {
        "description": "A reference to another record, or {id, missing: true} when it "
                       "names none.",
        "oneOf": [
            strict({"id": STRING, "ref": STRING, "title": STRING, "status": STRING}),
            strict({"id": STRING, "missing": {"const": True}}),
        ]},
}


@dataclass(frozen=True, slots=True)
class Key:
    """One key of a record as JSON: its name, its schema, and whether list answers carry it
    (`summary`) or only whole records do."""

    name: str
    schema: Schema
    summary: bool = False
    derived: bool = False
    """Worked out from the other keys and records, so a reader of decisions.json skips it."""


RECORD: tuple[Key, ...] = (
    Key("id", {"type": "string", "pattern": r"^[^/]+/[^/]+/[^/]+$",
               "description": "Full id, <project>/<type>/<NNNN-slug>"}, summary=True),
    Key("ref", {"type": "string", "description": "Reference such as BUILD-ADR-0001"},
        summary=True),
    Key("title", {"type": "string", "minLength": 1}, summary=True),
    Key("status", {"type": "string", "minLength": 1}, summary=True),
    Key("date", DATE, summary=True),
    Key("project", STRING, summary=True),
    Key("type", STRING, summary=True),
    Key("tags", STRINGS, summary=True),
    Key("description", STRING, summary=True),
    Key("fields", {"type": "object", "description": "Custom fields the record sets"},
        summary=True),
    Key("statusNote", nullable({"type": "string", "description": (
        "What the record's status said after the status word, as written "
        "(`for the package pipeline`); the whole status as written when it is 'unknown'")})),
    Key("authors", STRINGS),
    Key("deciders", STRINGS),
    Key("related", {"type": "array", "items": RECORD_REF}),
    Key("supersedes", {"type": "array", "items": RECORD_REF}),
    Key("supersededBy", nullable(RECORD_REF)),
    Key("currentRecord", nullable(RECORD_REF), derived=True),
    Key("current", {"type": "boolean"}, derived=True),
    Key("review", nullable(strict({"due": DATE, "reviewed": nullable(DATE),
                                   "every": STRING}))),
    Key("reviewers", nullable({"type": "object",
                               "additionalProperties": {"enum": list(REVIEW_STATES)}})),
    Key("approvals", nullable({"type": "integer", "minimum": 0})),
    Key("rfcReview", nullable(strict({
        "status": {"enum": list(SIGNOFF_STATES)},
        "approved": {"type": "integer", "minimum": 0},
        "required": {"type": "integer", "minimum": 0},
        "waitingOn": STRINGS,
    })), derived=True),
    Key("affects", STRINGS),
    Key("source", nullable(strict({"location": STRING, "ref": nullable(STRING),
                                   "commit": nullable(STRING)}))),
    Key("citedBy", {"type": "array", "description": "Where the repository's code cites the "
                    "record, sorted", "items": strict({
                        "path": {**STRING, "description": "Repository-relative file path"},
                        "line": {"type": "integer", "minimum": 1}})}),
)
SUMMARY_KEYS: tuple[str, ...] = tuple(k.name for k in RECORD if k.summary)
BODY = Key("body", {"type": "string", "description": "Markdown without front matter"})
# decisions.json adds where each record is published, relative to the site root.
PUBLISHED = (Key("path", {"type": "string", "pattern": r"/index\.html$"}),
             Key("md", {"type": "string", "pattern": r"\.md$"}))


def inline(schema: Any) -> Any:
    """`schema` with every `$ref` into DEFS replaced by what it names, for documents that
    carry no `$defs` of their own (an MCP tool's outputSchema)."""
    if isinstance(schema, dict):
        if "$ref" in schema:
            return inline(DEFS[schema["$ref"].rsplit("/", 1)[-1]])
        return {key: inline(value) for key, value in schema.items()}
    if isinstance(schema, list):
        return [inline(item) for item in schema]
    return schema


def _object(keys: tuple[Key, ...], more: dict[str, Schema]) -> Schema:
    properties = {k.name: k.schema for k in keys} | more
    return {"type": "object", "required": list(properties), "properties": properties}


def summary_schema(**more: Schema) -> Schema:
    """One record of a list answer, with `more` keys, as tools publish it."""
    schema: Schema = inline(_object(tuple(k for k in RECORD if k.summary), more))
    return schema


def detail_schema() -> Schema:
    """A whole record with its body (get_record)."""
    schema: Schema = inline(_object((*RECORD, BODY), {}))
    return schema


def record_schema(statuses: list[str] | None, fields: dict[str, Schema] | None) -> Schema:
    """A record of one site's decisions.json: its statuses by name, its custom fields by type
    (None: any), no key that is not declared here. Refers to DEFS."""
    keys = {k.name: k.schema for k in (*RECORD, *PUBLISHED)}
    if statuses is not None:
        keys["status"] = {"enum": statuses}
    if fields is not None:
        keys["fields"] = {"type": "object", "properties": fields, "additionalProperties": True}
    return strict(keys)


def field_value_schema(kind: str, values: tuple[str, ...] = ()) -> Schema:
    """The schema of a custom field's value, by the field's declared type."""
    if kind == "enum":
        return {"enum": list(values)}
    if kind == "date":
        return DATE
    if kind == "list":
        return {"type": "array"}
    return {"type": {"string": "string", "number": "number", "boolean": "boolean"}[kind]}


PROJECT: Schema = strict({
    "id": STRING, "name": STRING, "description": STRING, "owners": STRINGS,
    "order": nullable({"type": "integer"}),
    "records": {"type": "integer", "minimum": 0},  # how many records it holds
    "fields": {"type": "array", "items": {"$ref": "#/$defs/field"}},
})


# ---- tool parameters ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a query: its JSON type and bounds, its default and what it means.

    `kind` is string, integer, boolean, enum (one of `values`) or paths (a list of strings).
    `positional` parameters are the command line's bare words (`search WORDS…`).
    """

    name: str
    kind: str
    description: str
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    max_length: int = 200
    values: tuple[str, ...] = ()
    required: bool = False
    positional: bool = False

    def schema(self) -> Schema:
        """The parameter's JSON Schema."""
        out: Schema
        if self.kind == "string":
            out = {"type": "string", "minLength": 1, "maxLength": self.max_length}
        elif self.kind == "integer":
            out = {"type": "integer", "minimum": self.minimum, "maximum": self.maximum}
        elif self.kind == "boolean":
            out = {"type": "boolean"}
        elif self.kind == "enum":
            out = {"type": "string", "enum": list(self.values)}
        else:  # paths
            out = {"type": "array", "minItems": 1, "maxItems": self.maximum,
                   "items": {"type": "string", "minLength": 1, "maxLength": self.max_length}}
        if self.default is not None:
            out["default"] = self.default
        return {**out, "description": self.description}


def _limit(default: int = DEFAULT_LIMIT, maximum: int = MAX_LIMIT,
           what: str = "Records") -> Param:
    return Param("limit", "integer", f"{what} per answer", default, 1, maximum)


_OFFSET = Param("offset", "integer", "Records to skip, for the next page", 0, 0, 1_000_000)
_PROJECT = Param("project", "string", "Project id (see list_projects)")
_NAMES = _limit(DEFAULT_NAME_LIMIT, 1000, "Names")

TOOLS: dict[str, tuple[Param, ...]] = {
    "list_projects": (),
    "search_records": (
        _PROJECT,
        Param("type", "string", "Record type, the folder under the project: adr, rfc, ..."),
        Param("status", "string", "Status such as proposed, accepted, implemented, superseded"),
        Param("tag", "string", "A tag (see list_tags)"),
        Param("author", "string", "An author (see list_authors)"),
        Param("field", "string", "A custom field as name=value, for example risk=high",
              max_length=400),
        Param("query", "string", "Words or a question; records holding any of its words "
                                 "match, best first", max_length=500, positional=True),
        Param("current_only", "boolean", "Only records in force", False),
        Param("sort", "enum", "relevance (the default with a query): best match first; date "
                              "(the default without): newest first", values=SORTS),
        _limit(), _OFFSET,
    ),
    "get_record": (Param("id", "string", "Full id, short id, ref or slug of the record",
                         max_length=500, required=True, positional=True),),
    "list_tags": (_PROJECT, _NAMES),
    "list_fields": (),
    "list_authors": (_PROJECT, _NAMES),
    "due_reviews": (
        _PROJECT,
        Param("within", "integer", "Days ahead to look", DEFAULT_WITHIN, 0, 36_500),
        Param("all", "boolean", "Every scheduled record, due or not", False),
        _limit(), _OFFSET,
    ),
    "rfc_reviews": (Param("reviewer", "string", "A reviewer handle, with or without @"),
                    _limit(), _OFFSET),
    "records_for_paths": (
        Param("paths", "paths", "Repository-relative file or folder paths", maximum=256,
              max_length=1024, required=True),
        _limit(), _OFFSET,
    ),
    "list_superseded": (_limit(), _OFFSET),
}


class ArgumentError(UsageError, ValueError):
    """Arguments that do not fit a tool's parameters; the message says what to change."""


def input_schema(tool: str) -> Schema:
    """A tool's arguments as one strict JSON object schema (its MCP inputSchema)."""
    params = TOOLS[tool]
    schema: Schema = {"type": "object", "properties": {p.name: p.schema() for p in params},
                      "additionalProperties": False}
    required = [p.name for p in params if p.required]
    if required:
        schema["required"] = required
    return schema


# Every tool's inputSchema, made once: tools/list and each call's check read them.
INPUTS: dict[str, Schema] = {name: input_schema(name) for name in TOOLS}


def checked(tool: str, given: Any) -> dict[str, Any]:
    """`given` checked against the tool's parameters, whole-number floats (20.0, as some
    clients send them) made ints. Raises ArgumentError with one sentence naming the fault."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise ArgumentError(f"The arguments of {tool} must be an object, "
                            f"not {type(given).__name__}.")
    kinds = {p.name: p.kind for p in TOOLS[tool]}
    given = {name: int(value) if kinds.get(name) == "integer" and isinstance(value, float)
             and value.is_integer() else value for name, value in given.items()}
    found = problem(given, INPUTS[tool], tool)
    if found:
        raise ArgumentError(found)
    arguments: dict[str, Any] = given
    return arguments

