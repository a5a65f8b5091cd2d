"""The record's JSON shape, and the vocabulary every tool's parameters are declared in.

What a record looks like as JSON (decisions.json, MCP answers, `--json`) and what a query
takes are facts that several front ends publish. They are written down here, and only here:
- `RECORD` lists the record's keys with their schemas; `summary_schema()` and
  `detail_schema()` are the MCP tools' output items, `record_schema()` the record of a
  site's `decisions.schema.json` (`contract/index.py` `document`), which loosened for other
  versions is also what a published decisions.json is checked against before it is read
  back (`contract/index.py` `readable`, `access/published.py`); `contract/answers.py` builds
  the tools' output schemas from them;
- `Param` is one parameter and `Parameters` a tool's (or a prompt's) list of them:
  `schema` is its MCP inputSchema, `checked()` validates arguments for the MCP server and
  the CLI alike, and `add_flags()` adds the same parameters to a command line.
Each tool declares its parameters and output schema in these terms, once, in its row of
`site_builder.mcp.tools`. The query functions themselves (`query/answers.py`) trust their arguments.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
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
    `positional` parameters are the command line's bare words (`search WORDS…`). `hint` is
    the few words the README's tool table shows beside the name.
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
    hint: str = ""

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


def limit(default: int = DEFAULT_LIMIT, maximum: int = MAX_LIMIT,
           what: str = "Records") -> Param:
    return Param("limit", "integer", f"{what} per answer", default, 1, maximum)


OFFSET = Param("offset", "integer", "Records to skip, for the next page", 0, 0, 1_000_000)
PROJECT_PARAM = Param("project", "string", "Project id (see list_projects)")
NAMES_LIMIT = limit(DEFAULT_NAME_LIMIT, 1000, "Names")


class ArgumentError(UsageError, ValueError):
    """Arguments that do not fit a tool's parameters; the message says what to change."""


@dataclass(frozen=True)
class Parameters:
    """The parameters of one tool (or prompt) named `owner`, and everything derived from
    them: the JSON Schema of its arguments, their check, and the same parameters as a
    command line's flags. Schema and check are made once, when the declaration is."""

    owner: str
    params: tuple[Param, ...]
    schema: Schema = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        schema: Schema = {"type": "object",
                          "properties": {p.name: p.schema() for p in self.params},
                          "additionalProperties": False}
        required = [p.name for p in self.params if p.required]
        if required:
            schema["required"] = required
        object.__setattr__(self, "schema", schema)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def checked(self, given: Any) -> dict[str, Any]:
        """`given` checked against the parameters, whole-number floats (20.0, as some
        clients send them) made ints. Raises ArgumentError with one sentence naming the
        fault."""
        if given is None:
            given = {}
        if not isinstance(given, dict):
            raise ArgumentError(f"The arguments of {self.owner} must be an object, "
                                f"not {type(given).__name__}.")
        kinds = {p.name: p.kind for p in self.params}
        out: dict[str, Any] = {
            name: int(value) if kinds.get(name) == "integer" and isinstance(value, float)
            and value.is_integer() else value for name, value in given.items()}
        found = problem(out, self.schema, self.owner)
        if found:
            raise ArgumentError(found)
        return out

    def add_flags(self, parser: argparse.ArgumentParser) -> None:
        """Add the parameters to a command line: `--current-only`, `--limit N`, …; the
        positional one as bare words. Values are checked by `checked`, not by argparse, so
        the command line and the MCP server refuse the same things in the same words."""
        for p in self.params:
            flag = f"--{p.name.replace('_', '-')}"
            if p.positional:
                parser.add_argument(p.name, nargs="+" if p.required else "*",
                                    help=p.description)
            elif p.kind == "boolean":
                parser.add_argument(flag, dest=p.name, action="store_true",
                                    help=p.description)
            elif p.kind != "paths":
                parser.add_argument(flag, dest=p.name,
                                    type=int if p.kind == "integer" else str,
                                    choices=p.values or None, help=p.description,
                                    metavar=p.name.upper() if p.kind != "enum" else None)

    def from_command_line(self, args: argparse.Namespace) -> dict[str, Any]:
        """The arguments as a command line gave them (words joined), not yet checked: only
        those given, as an MCP client sends only the arguments it sets."""
        out: dict[str, Any] = {}
        for p in self.params:
            value = getattr(args, p.name, None)
            if p.positional and isinstance(value, list):
                value = " ".join(value) or None
            if value is None or (p.kind == "boolean" and value is False):
                continue
            out[p.name] = value
        return out
