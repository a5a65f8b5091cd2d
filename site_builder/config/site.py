"""site.yml → SiteConfig: frozen dataclasses with defaults; problems become findings."""

from __future__ import annotations

import os
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

from site_builder.base.findings import Finding
from site_builder.config.checker import Checker, read_yaml_mapping, text_or_none
from site_builder.config.citations import parse_citations
from site_builder.config.keys import (
    ENTRY_TABLES,
    FIELD,
    REQUIRED,
    REVIEW,
    STATUS,
    Key,
    Table,
)
from site_builder.config.source_formats import format_status_problems, with_unknown_status
from site_builder.config.sources import parse_sources
from site_builder.config.values import (
    CONFIG_FILE,
    DEFAULT_STATUSES,
    MARKDOWN_RENDERERS,
    FieldDef,
    SiteConfig,
    SourceSpec,
    Status,
    without_credentials,
)
from site_builder.errors import UsageError

__all__ = ["BUILT_IN_KEYS", "CONFIG_FILE", "DEFAULT_STATUSES", "FIELD_TYPES",
           "MARKDOWN_RENDERERS", "FieldDef", "NoArchive", "SiteConfig", "SourceSpec", "Status",
           "find_archive", "load_config", "parse_fields", "read_yaml_mapping",
           "without_credentials"]

FIELD_TYPES = ("string", "number", "boolean", "date", "enum", "list")
# The front-matter keys every record may set (the README's front-matter table); a custom
# field may not reuse one.
BUILT_IN_KEYS = frozenset({
    "title", "status", "date", "description", "authors", "deciders", "tags", "related",
    "supersedes", "supersededBy", "draft", "review", "reviewers", "approvals", "affects",
})

# The entries' keys come from the tables of config/keys.py, which the reference is made of.
_STATUS_KEYS = STATUS.names
_FIELD_KEYS = FIELD.names


def _flag(item: dict[str, Any], key: str, checker: Checker, *path: str | int) -> bool:
    """A true/false key of a list item (false when absent)."""
    value = item.get(key, False)
    if isinstance(value, bool):
        return value
    checker.error(f"'{key}' must be true or false, not {value!r}", *path, key)
    return False


def _named_items(raw: Any, key: str, checker: Checker) -> list[tuple[int, dict[str, Any]]]:
    """The entries of a list of `{name: …}` mappings, with their index; bad ones reported."""
    if not isinstance(raw, list) or (not raw and key == "statuses"):
        checker.error(f"'{key}' must be a non-empty list" if key == "statuses"
                      else f"'{key}' must be a list", key)
        return []
    items = []
    for index, item in enumerate(raw):
        if isinstance(item, str) and key == "statuses":
            item = {"name": item}
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) \
                or not item["name"].strip():
            checker.error(f"every entry of '{key}' needs a 'name'", key, index)
            continue
        items.append((index, item))
    return items


def parse_fields(raw: Any, checker: Checker, inherited: tuple[FieldDef, ...] = ()
                 ) -> tuple[FieldDef, ...]:
    """Validate a `fields` list (site level, or a project's own beside `inherited`)."""
    if raw is None:
        return ()
    fields: list[FieldDef] = []
    taken = {f.name for f in inherited}
    for index, item in _named_items(raw, "fields", checker):
        name = item["name"]
        checker.unknown_keys(item, _FIELD_KEYS, f"field '{name}'", "fields", index)
        kind = item.get("type", FIELD.default("type"))
        if kind not in FIELD_TYPES:
            checker.error(f"field '{name}' has unknown type {kind!r} "
                          f"(one of {', '.join(FIELD_TYPES)})", "fields", index, "type")
            kind = "string"
        values = item.get("values")
        if kind == "enum" and (not isinstance(values, list) or not values
                               or any(isinstance(v, (list, dict)) for v in values)):
            checker.error(f"enum field '{name}' needs a list of 'values'",
                          "fields", index, "values")
            values = []
        if name in BUILT_IN_KEYS:
            checker.error(f"field '{name}' has the name of a built-in front-matter key",
                          "fields", index, "name")
        elif name in taken:
            checker.error(f"field '{name}' is declared twice", "fields", index, "name")
        taken.add(name)
        fields.append(FieldDef(
            name=name, type=kind, label=text_or_none(item.get("label")),
            values=tuple(str(v) for v in values) if isinstance(values, list) else (),
            unit=text_or_none(item.get("unit")), description=text_or_none(item.get("description")),
            required=_flag(item, "required", checker, "fields", index),
        ))
    return tuple(fields)


def _parse_statuses(raw: Any, checker: Checker) -> tuple[Status, ...]:
    if raw is None:
        return DEFAULT_STATUSES
    statuses: list[Status] = []
    for index, item in _named_items(raw, "statuses", checker):
        name = item["name"]
        checker.unknown_keys(item, _STATUS_KEYS, f"status '{name}'", "statuses", index)
        if any(s.name == name for s in statuses):
            checker.error(f"status '{name}' is listed twice", "statuses", index, "name")
            continue
        statuses.append(Status(
            name=name, open=_flag(item, "open", checker, "statuses", index),
            current=_flag(item, "current", checker, "statuses", index),
            label=text_or_none(item.get("label")),
            description=text_or_none(item.get("description")),
        ))
    return tuple(statuses) or DEFAULT_STATUSES


def _default(name: str) -> Any:
    """SiteConfig's own default for the attribute `name`: written there, and only there."""
    return next(f.default for f in fields(SiteConfig) if f.name == name)


def _string(data: dict[str, Any], key: str, checker: Checker, default: str | None) -> str | None:
    value = data.get(key, default)
    if value is None or isinstance(value, str):
        return value
    checker.error(f"'{key}' must be a string, not {value!r}", key)
    return default


def _text(data: dict[str, Any], checker: Checker, key: Key) -> str:
    default: str = key.default
    return _string(data, key.name, checker, default) or default


def _optional_text(data: dict[str, Any], checker: Checker, key: Key) -> str | None:
    return _string(data, key.name, checker, None)


def _title(data: dict[str, Any], checker: Checker, key: Key) -> str:
    if data.get("title") in (None, ""):
        checker.error("'title' is required in site.yml", "title")
    return _string(data, "title", checker, None) or checker.path.parent.name


def _statuses(data: dict[str, Any], checker: Checker, key: Key) -> tuple[Status, ...]:
    return _parse_statuses(data.get(key.name), checker)


def _fields(data: dict[str, Any], checker: Checker, key: Key) -> tuple[FieldDef, ...]:
    return parse_fields(data.get(key.name), checker)


def _sources(data: dict[str, Any], checker: Checker, key: Key) -> tuple[SourceSpec, ...]:
    return parse_sources(data.get(key.name), checker)


def _required_approvals(data: dict[str, Any], checker: Checker, key: Key) -> int | None:
    review = data.get("review")
    if review is None:
        return None
    if not isinstance(review, dict):
        checker.error("'review' must be a mapping such as {required_approvals: 2}", "review")
        return None
    checker.unknown_keys(review, REVIEW.names, "'review'", "review")
    approvals = review.get("required_approvals")
    if approvals is not None and (isinstance(approvals, bool) or not isinstance(approvals, int)
                                  or approvals < 0):
        checker.error("'review.required_approvals' must be a whole number",
                      "review", "required_approvals")
        return None
    return approvals


# Characters that end or split an address wherever it is written (robots.txt, the feed, HTML
# attributes, llms.txt links): a `url` or `base` holding one could add lines or markup.
_NOT_IN_ADDRESS = re.compile(r"[\s<>\"'`\\{}|^]")


def _markdown(data: dict[str, Any], checker: Checker, key: Key) -> str:
    """The body renderer site.yml names (`gfm` unless it says otherwise)."""
    name = _string(data, "markdown", checker, key.default) or key.default
    if name not in MARKDOWN_RENDERERS:
        checker.error(f"'markdown' must be one of {', '.join(MARKDOWN_RENDERERS)}, not "
                      f"{name!r}", "markdown")
        return MARKDOWN_RENDERERS[0]
    return name


def _base(data: dict[str, Any], checker: Checker, key: Key) -> str:
    """`base` as `/` or `/sub/path/`, however it was written."""
    base = (_string(data, "base", checker, key.default) or "/").strip("/")
    if _NOT_IN_ADDRESS.search(base) or "?" in base or "#" in base:
        checker.error("'base' must be a path such as /decisions/, without spaces, quotes, "
                      "'?' or '#'", "base")
        return "/"
    return f"/{base}/" if base else "/"


def _url(data: dict[str, Any], checker: Checker, key: Key) -> str | None:
    url = _string(data, "url", checker, None)
    if url and not url.startswith(("http://", "https://")):
        checker.error("'url' must start with http:// or https://", "url")
        return None
    if url and _NOT_IN_ADDRESS.search(url):
        checker.error("'url' must be one address, without spaces, line breaks or quotes", "url")
        return None
    return url.rstrip("/") if url else None


# Every key of site.yml, with its parser: loading is a loop over this table, and the
# reference (docs/site-yml.md) is printed from it. A new key is a Key here and an attribute
# of SiteConfig (config/values.py), which holds its default.
SITE = Table("site.yml", "the archive root, beside `content/`", (
    Key("title", "string", REQUIRED, "The site's name: page titles, the header, llms.txt.",
        "Acme decisions",
        parse=_title),
    Key("description", "string", _default("description"), "One line about the archive, "
        "under the title and in llms.txt.", "How Acme builds things",
        parse=_text),
    Key("url", "URL (http:// or https://)", None, "Where the site is published. Makes "
        "llms.txt, the feed, the sitemap and AGENTS.md absolute; without it links are "
        "relative and no sitemap is written.", "https://decisions.acme.dev",
        parse=_url),
    Key("base", "path", _default("base"), "The sub-path the site is served from; written "
        "with or without slashes.", "/decisions/",
        parse=_base),
    Key("content", "folder", _default("content"), "The records folder, relative to "
        "site.yml: `<project>/<type>/NNNN-slug.md`.", "records",
        parse=_text),
    Key("output", "folder", _default("output"), "Where `build` writes the site, relative "
        "to site.yml. Files the build did not write there are removed, except those "
        "`static` holds.",
        "public",
        parse=_text),
    Key("static", "folder", _default("static"), "A folder copied to the output root as it "
        "is (`CNAME`, `.nojekyll`, verification files). A file whose path a generated file "
        "also takes is a `check` error. Absent folder: nothing is copied.", "static",
        parse=_text),
    Key("edit_url", "URL template", None, "The \"edit this page\" link of each record; "
        "`{path}` is the record's path below `content`.",
        "https://github.com/acme/decisions/edit/main/content/{path}",
        parse=_optional_text),
    Key("repo_url", "URL", None, "Where links to repository files outside the archive "
        "point.", "https://github.com/acme/decisions/blob/main/",
        shown_default="`edit_url` before `{path}`, with `/edit/` read as `/blob/`",
        parse=_optional_text),
    Key("markdown", "`gfm` or `python-markdown`", _default("markdown"), "The body "
        "renderer: `gfm` renders as GitHub does; `python-markdown` keeps admonitions and "
        "attribute lists for archives first written for MkDocs.", "python-markdown",
        parse=_markdown),
    Key("statuses", "list of statuses (below)", None, "The statuses a record may have, in "
        "order. An entry is a mapping or just a name.",
        "[{name: proposed, open: true}, {name: accepted, current: true}, rejected]",
        shown_default="proposed (open), accepted (current), implemented (current), "
        "rejected, deprecated, superseded",
        parse=_statuses),
    Key("fields", "list of fields (below)", None, "Custom metadata fields every record may "
        "set in its front matter.",
        "[{name: risk, type: enum, values: [low, medium, high]}]", shown_default="none",
        parse=_fields),
    Key("review", "mapping (below)", None, "Defaults for RFC-style sign-off.",
        "{required_approvals: 2}", shown_default="none",
        parse=_required_approvals, attribute="required_approvals"),
    Key("sources", "list of sources (below)", None, "Records kept outside `content`: a "
        "folder read in place or a git repository cloned into `.site-builder/sources/`.",
        "[{path: ../platform/decisions}]", shown_default="none",
        parse=_sources),
    Key("citations", "`true`, `false` or a mapping (below)", None, "Find the records that "
        "the code of the repository holding the archive cites (refs such as `SRE-ADR-0001`, "
        "links to a record's page or file): each record page lists where, decisions.json and "
        "the tools give `citedBy`, and `check` warns where code cites a superseded, rejected "
        "or missing record. `false` turns it off.", "{exclude: [\"tests/**\"]}",
        shown_default="`true`: every tracked file is read", parse=parse_citations),
))

# The reference's tables, site.yml's first.
TABLES = (SITE, *ENTRY_TABLES)


def load_config(root: Path) -> tuple[SiteConfig | None, list[Finding]]:
    """Read `root/site.yml`.

    Returns the config (None when there is no usable one) and every problem found in it;
    a config with errors is still returned when it can be read, so that `check` reports
    the archive's other problems too.
    """
    root = root.resolve()
    path = root / CONFIG_FILE
    if not os.path.lexists(path):
        return None, [Finding(path, 1, "error", f"no {CONFIG_FILE} in {root} "
                                                "(run 'site-builder init' to create one)")]
    data, checker = read_yaml_mapping(path)
    if checker.findings:
        return None, checker.findings
    checker.unknown_keys(data, SITE.names, CONFIG_FILE)
    values = {key.attribute or key.name: key.parse(data, checker, key)
              for key in SITE.keys if key.parse is not None}
    values["statuses"] = with_unknown_status(values["statuses"], values["sources"])
    config = SiteConfig(root=root, **values)
    names = {status.name for status in config.statuses}
    for spec in config.sources:
        for message in format_status_problems(spec, names):
            checker.error_at(spec.line, message)
    return config, checker.findings


class NoArchive(UsageError, ValueError):
    """No folder holding site.yml where one was asked for; the message says what to do."""


def find_archive(given: str | os.PathLike[str] | None) -> Path:
    """The archive folder: `given`, else the nearest folder holding site.yml, from the
    current folder up. Raises NoArchive."""
    if given is not None:
        root = Path(given)
        if not (root / CONFIG_FILE).is_file():
            raise NoArchive(f"no {CONFIG_FILE} in {root} (run 'site-builder init {root}')")
        return root.resolve()
    here = Path.cwd()
    for folder in (here, *here.parents):
        if (folder / CONFIG_FILE).is_file():
            return folder
    raise NoArchive(f"no {CONFIG_FILE} here or above {here}; pass --root DIR or run "
                    "'site-builder init'")
