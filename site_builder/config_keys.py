"""Every key of site.yml, of its list entries and of `_project.yml`, declared once.

The parsers (config.py, archive/loader.py) take their key lists, unknown-key checks and
defaults from these tables, and docs/site-yml.md is generated from them
(`python -m tests.site_yml --write`; a test fails when the page is stale), so the reference
cannot drift from what the tool accepts. To add a key: add a `Key` to its table, parse it
where the table is used, and regenerate the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class _Required:
    """The default of a key that must be given."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()


@dataclass(frozen=True, slots=True)
class Key:
    """One key: its `type` and `description` as the reference prints them, the `default`
    the parser uses (None: unset; REQUIRED: must be given), `shown_default` when the
    default is derived rather than a plain value, and `example`, a YAML value."""

    name: str
    type: str
    default: Any
    description: str
    example: str
    shown_default: str | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """The keys of one mapping (site.yml itself, one `statuses` entry, …)."""

    title: str
    where: str
    keys: tuple[Key, ...]

    @property
    def names(self) -> frozenset[str]:
        """Every key this mapping accepts."""
        return frozenset(key.name for key in self.keys)

    def default(self, name: str) -> Any:
        """The parser's default for `name`. Raises KeyError for an undeclared key."""
        for key in self.keys:
            if key.name == name:
                return key.default
        raise KeyError(name)


SITE = Table("site.yml", "the archive root, beside `content/`", (
    Key("title", "string", REQUIRED, "The site's name: page titles, the header, llms.txt.",
        "Acme decisions"),
    Key("description", "string", "", "One line about the archive, under the title and in "
        "llms.txt.", "How Acme builds things"),
    Key("url", "URL (http:// or https://)", None, "Where the site is published. Makes "
        "llms.txt, the feed, the sitemap and AGENTS.md absolute; without it links are "
        "relative and no sitemap is written.", "https://decisions.acme.dev"),
    Key("base", "path", "/", "The sub-path the site is served from; written with or "
        "without slashes.", "/decisions/"),
    Key("content", "folder", "content", "The records folder, relative to site.yml: "
        "`<project>/<type>/NNNN-slug.md`.", "records"),
    Key("output", "folder", "_site", "Where `build` writes the site, relative to site.yml. "
        "Files the build did not write there are removed, except those `static` holds.",
        "public"),
    Key("static", "folder", "static", "A folder copied to the output root as it is "
        "(`CNAME`, `.nojekyll`, verification files). A file whose path a generated file "
        "also takes is a `check` error. Absent folder: nothing is copied.", "static"),
    Key("edit_url", "URL template", None, "The \"edit this page\" link of each record; "
        "`{path}` is the record's path below `content`.",
        "https://github.com/acme/decisions/edit/main/content/{path}"),
    Key("repo_url", "URL", None, "Where links to repository files outside the archive "
        "point.", "https://github.com/acme/decisions/blob/main/",
        shown_default="`edit_url` before `{path}`, with `/edit/` read as `/blob/`"),
    Key("markdown", "`gfm` or `python-markdown`", "gfm", "The body renderer: `gfm` renders "
        "as GitHub does; `python-markdown` keeps admonitions and attribute lists for "
        "archives first written for MkDocs.", "python-markdown"),
    Key("statuses", "list of statuses (below)", None, "The statuses a record may have, in "
        "order. An entry is a mapping or just a name.",
        "[{name: proposed, open: true}, {name: accepted, current: true}, rejected]",
        shown_default="proposed (open), accepted (current), implemented (current), "
        "rejected, deprecated, superseded"),
    Key("fields", "list of fields (below)", None, "Custom metadata fields every record may "
        "set in its front matter.",
        "[{name: risk, type: enum, values: [low, medium, high]}]", shown_default="none"),
    Key("review", "mapping (below)", None, "Defaults for RFC-style sign-off.",
        "{required_approvals: 2}", shown_default="none"),
    Key("sources", "list of sources (below)", None, "Records kept outside `content`: a "
        "folder read in place or a git repository cloned into `.site-builder/sources/`.",
        "[{path: ../platform/decisions}]", shown_default="none"),
    Key("citations", "`true`, `false` or a mapping (below)", True, "Find the records that "
        "the code of the repository holding the archive cites (refs such as `SRE-ADR-0001`, "
        "links to a record's page or file): each record page lists where, decisions.json and "
        "the tools give `citedBy`, and `check` warns where code cites a superseded, rejected "
        "or missing record. `false` turns it off.", "{exclude: [\"tests/**\"]}"),
))

CITATIONS = Table("citations", "the `citations` mapping; globs as in `affects`, relative to "
                  "the repository root", (
    Key("include", "list of globs", None, "Only tracked files matching one of these are read.",
        "[\"src/**\", \"Makefile\"]", shown_default="every tracked file"),
    Key("exclude", "list of globs", None, "Tracked files matching one of these are not read.",
        "[\"tests/**\", \"*.lock\"]", shown_default="none"),
))

STATUS = Table("statuses entry", "each item of `statuses`", (
    Key("name", "string", REQUIRED, "What records write in `status:`.", "accepted"),
    Key("open", "boolean", False, "Under discussion (\"proposed\"); decided means not open.",
        "true"),
    Key("current", "boolean", False, "In force: a current record has a current status and "
        "nothing supersedes it.", "true"),
    Key("label", "string", None, "How pages show the status.", "Accepted",
        shown_default="the name, capitalised"),
    Key("description", "string", "", "What the status means, published in decisions.json.",
        "In force; follow it"),
))

FIELD = Table("fields entry", "each item of `fields` (in site.yml or `_project.yml`)", (
    Key("name", "string", REQUIRED, "The front-matter key; not one of the built-in keys.",
        "risk"),
    Key("type", "`string`, `number`, `boolean`, `date`, `enum` or `list`", "string",
        "What values the field takes; `check` reports a value of another type.", "enum"),
    Key("values", "list of strings", None, "The allowed values; required for `enum`.",
        "[low, medium, high]", shown_default="none"),
    Key("label", "string", None, "How pages name the field.", "Monthly cost",
        shown_default="the name in words, capitalised"),
    Key("unit", "string", None, "Shown after a number (`3 days`; singular for 1).", "days"),
    Key("description", "string", "", "What the field means, for people and agents.",
        "Blast radius if this is wrong"),
    Key("required", "boolean", False, "Every record must set it (`check` error otherwise).",
        "true"),
))

REVIEW = Table("review", "the `review` mapping", (
    Key("required_approvals", "whole number", None, "Approvals an RFC with `reviewers` needs "
        "unless it sets `approvals` itself.", "2", shown_default="every reviewer"),
))

SOURCE = Table("sources entry", "each item of `sources`; exactly one of `path` and `repo`", (
    Key("path", "folder", None, "A folder laid out like `content`, relative to site.yml, "
        "read in place.", "../platform/decisions"),
    Key("repo", "git URL", None, "A repository cloned (shallow) into `.site-builder/sources/` "
        "on first use; `site-builder sources update` fetches it again.",
        "https://github.com/acme/payments.git"),
    Key("ref", "string", None, "Branch, tag or commit of a `repo` source.", "main",
        shown_default="the remote's HEAD"),
    Key("dir", "path", None, "The folder inside a `repo` source that holds the records.",
        "docs/decisions", shown_default="the repository's top"),
    Key("name", "letters, digits, `.`, `_`, `-`", None, "Names the source's cache folder.",
        "payments", shown_default="derived from the URL"),
    Key("edit_url", "URL template", None, "The source's own \"edit this page\" link; `{path}` "
        "is the record's path below the source's folder.",
        "https://github.com/acme/payments/edit/main/docs/decisions/{path}"),
))

SOURCE_FORMAT = Table(
    "sources entry in another tool's format",
    "keys a `path` source adds to read a flat folder of adr-tools, MADR or Log4brains "
    "records in place", (
        Key("format", "nygard, madr, log4brains or auto", None, "The folder's record format; "
            "auto decides per file.", "nygard"),
        Key("project", "folder name", REQUIRED, "The project the records belong to "
            "(required with `format`).", "platform"),
        Key("type", "folder name", "adr", "The record type of the records.", "adr"),
        Key("default_status", "status name", "accepted", "The status of a record that "
            "states none.", "accepted"),
        Key("status_map", "mapping", None, "Extra status aliases, matched case-insensitively, "
            "before the built-in ones.", "{approved: accepted, on hold: proposed}",
            shown_default="none"),
    ))

PROJECT = Table("_project.yml", "`content/<project>/_project.yml`, or in the folder of a "
                "`format` source (for its project), optional", (
    Key("name", "string", None, "The project's name on pages.", "Site reliability",
        shown_default="the folder name (a `format` source's `project`)"),
    Key("description", "string", "", "One line about the project.", "How we run production"),
    Key("owners", "list of strings", None, "Who answers for the project's decisions.",
        "[alice, bob]", shown_default="none"),
    Key("order", "whole number", None, "Position in project listings (then by name).", "1",
        shown_default="after ordered projects, by name"),
    Key("fields", "list of fields (above)", None, "Extra custom fields for this project's "
        "records only.", "[{name: slo, type: number, unit: '%'}]", shown_default="none"),
))

TABLES = (SITE, STATUS, FIELD, REVIEW, CITATIONS, SOURCE, SOURCE_FORMAT, PROJECT)
