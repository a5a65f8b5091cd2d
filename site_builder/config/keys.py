"""Every key of site.yml, of its list entries and of `_project.yml`, declared once.

A `Key` carries what the reference prints (type, default, description, example) and, for
site.yml's own keys, the parser that reads it (`config/site.py` declares that table beside
its parsers, and loading is a loop over it). The entry tables here (a status, a field, a
source, `_project.yml`) give their parsers the key lists, unknown-key checks and defaults.
docs/site-yml.md is generated from all of them (`python -m tests.site_yml --write`; a test
fails when the page is stale), so the reference cannot drift from what the tool accepts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from site_builder.config.checker import Checker


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
    # site.yml's keys only: how the key's value is read from the whole mapping (problems go
    # to the checker), and the SiteConfig attribute it fills (default: the key's name).
    parse: Callable[[dict[str, Any], Checker, Key], Any] | None = None
    attribute: str | None = None


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

# The `format:` values a source may take: one per reader module of archive/formats, which
# declares the same name (its registry checks the two agree). Plain data here, so that
# config can check a value without importing a reader.
FORMAT_NAMES = ("nygard", "madr", "log4brains", "auto")

SOURCE_FORMAT = Table(
    "sources entry in another tool's format",
    "keys a `path` source adds to read a flat folder of adr-tools, MADR or Log4brains "
    "records in place", (
        Key("format", f"{', '.join(FORMAT_NAMES[:-1])} or {FORMAT_NAMES[-1]}", None,
            "The folder's record format; auto decides per file.", "nygard"),
        Key("project", "folder name", REQUIRED, "The project the records belong to "
            "(required with `format`).", "platform"),
        Key("type", "folder name", "adr", "The record type of the records.", "adr"),
        Key("default_status", "status name", "accepted", "The status of a record that "
            "states none.", "accepted"),
        Key("status_map", "mapping", None, "Extra status aliases, matched case-insensitively, "
            "before the built-in ones.", "{approved: accepted, on hold: proposed}",
            shown_default="none"),
        Key("exclude", "list of globs", None, "Files of the folder that are no records, "
            "matched against file names.", "['0000-*.md', 'install.md']", shown_default="none"),
        Key("strict", "true or false", False, "Make what the folder's own tool accepts (an "
            "unknown status, an unreadable date, a link to a missing record) an error, as in "
            "native content, rather than a warning.", "true"),
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

# The entries of site.yml and `_project.yml`; site.yml itself is `config.site.SITE`.
ENTRY_TABLES = (STATUS, FIELD, REVIEW, CITATIONS, SOURCE, SOURCE_FORMAT, PROJECT)
