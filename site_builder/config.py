"""site.yml → SiteConfig: frozen dataclasses with defaults; problems become findings."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Set
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Any

from site_builder import yamlfile
from site_builder.config_citations import parse_citations
from site_builder.config_keys import FIELD, REVIEW, SITE, SOURCE, STATUS
from site_builder.config_values import (
    CONFIG_FILE,
    DEFAULT_STATUSES,
    MARKDOWN_RENDERERS,
    FieldDef,
    SiteConfig,
    SourceSpec,
    Status,
    without_credentials,
)
from site_builder.confined import MAX_RECORD_BYTES, Refused, read_regular
from site_builder.findings import Finding
from site_builder.source_formats import FORMAT_KEYS, format_keys, format_status_problems

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

# The accepted keys come from the one declaration (config_keys.py) the reference is made of.
_SITE_KEYS = SITE.names
_STATUS_KEYS = STATUS.names
_FIELD_KEYS = FIELD.names
_SOURCE_KEYS = SOURCE.names
_SOURCE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class _Checker:
    """Collects findings against one YAML file, each at the line of the key or item at fault."""

    def __init__(self, path: Path, lines: yamlfile.KeyLines | None = None) -> None:
        self.path = path
        self.lines: yamlfile.KeyLines = lines or {}
        self.findings: list[Finding] = []

    def line_of(self, *path: str | int) -> int:
        """The line of `path` (`"statuses", 2, "open"`), or of its nearest known parent."""
        return yamlfile.line_of(self.lines, *path)

    def error(self, message: str, *path: str | int) -> None:
        self.findings.append(Finding(self.path, self.line_of(*path), "error", message))

    def error_at(self, line: int, message: str) -> None:
        self.findings.append(Finding(self.path, line, "error", message))

    def unknown_keys(self, mapping: dict[Any, Any], known: Set[str], where: str,
                     *path: str | int) -> None:
        """An error for each key of `mapping` (found at `path`) that is not in `known`."""
        for name in mapping:
            if name in known:
                continue
            hint = difflib.get_close_matches(str(name), sorted(known), n=1)
            extra = f" (did you mean '{hint[0]}'?)" if hint else ""
            self.error(f"unknown key '{name}' in {where}{extra}", *path, str(name))


def read_yaml_mapping(path: Path) -> tuple[dict[str, Any], _Checker]:
    """Read a YAML file that must hold a mapping (an empty file is an empty one).

    The file is read only when it is a regular file that resolves inside its own folder,
    so a `site.yml` or `_project.yml` that is a symlink to a file of the
    machine, a FIFO or a device is an error at the file, never read.
    Returns the mapping ({} when unusable) and a checker holding the problems found so far.
    """
    checker = _Checker(path)
    try:
        raw = read_regular(path, MAX_RECORD_BYTES, root=path.parent)
        text = raw.decode("utf-8")
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        data, checker.lines = yamlfile.parse_with_lines(text)
    except Refused as exc:
        checker.error(f"{path.name} {exc.reason}")
        return {}, checker
    except yamlfile.YamlError as exc:
        checker.findings.append(Finding(path, exc.line, "error", exc.message))
        return {}, checker
    except UnicodeDecodeError:
        checker.error(f"{path.name} is not UTF-8 text")
        return {}, checker
    if data is None:
        return {}, checker
    if not isinstance(data, dict):
        checker.error(f"{path.name} must be a mapping of keys to values")
        return {}, checker
    return data, checker


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _flag(item: dict[str, Any], key: str, checker: _Checker, *path: str | int) -> bool:
    """A true/false key of a list item (false when absent)."""
    value = item.get(key, False)
    if isinstance(value, bool):
        return value
    checker.error(f"'{key}' must be true or false, not {value!r}", *path, key)
    return False


def _named_items(raw: Any, key: str, checker: _Checker) -> list[tuple[int, dict[str, Any]]]:
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


def parse_fields(raw: Any, checker: _Checker, inherited: tuple[FieldDef, ...] = ()
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
            name=name, type=kind, label=_opt_str(item.get("label")),
            values=tuple(str(v) for v in values) if isinstance(values, list) else (),
            unit=_opt_str(item.get("unit")), description=_opt_str(item.get("description")),
            required=_flag(item, "required", checker, "fields", index),
        ))
    return tuple(fields)


def _parse_statuses(raw: Any, checker: _Checker) -> tuple[Status, ...]:
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
            label=_opt_str(item.get("label")), description=_opt_str(item.get("description")),
        ))
    return tuple(statuses) or DEFAULT_STATUSES


def _parse_sources(raw: Any, checker: _Checker) -> tuple[SourceSpec, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        checker.error("'sources' must be a list", "sources")
        return ()
    specs: list[SourceSpec] = []
    names: dict[str, int] = {}
    for index, item in enumerate(raw):
        line = checker.line_of("sources", index)
        if not isinstance(item, dict) or ("path" in item) == ("repo" in item):
            checker.error_at(line, "every source needs exactly one of 'path' or 'repo'")
            continue
        checker.unknown_keys(item, _SOURCE_KEYS | FORMAT_KEYS, "a source", "sources", index)
        spec = SourceSpec(**{k: _opt_str(item.get(k)) for k in _SOURCE_KEYS}, line=line)
        problem = _source_problem(spec)
        if problem is None and "format" in item:
            keys, problem = format_keys(item)
            spec = replace(spec, **keys)
        if problem:
            checker.error_at(line, problem)
            continue
        if spec.name is not None:
            if spec.name in names:
                checker.error_at(line, f"source name '{spec.name}' is already used by the "
                                       f"source at line {names[spec.name]}")
                continue
            names[spec.name] = line
        specs.append(spec)
    return tuple(specs)


def _source_problem(spec: SourceSpec) -> str | None:
    """Why a `sources` entry cannot be used, or None when it can."""
    if not (spec.path or spec.repo):
        return "a source's 'path' or 'repo' must not be empty"
    if spec.path is not None and (spec.ref is not None or spec.dir is not None):
        return "'ref' and 'dir' only apply to a 'repo' source; a 'path' source is read as it is"
    if spec.name is not None and not _SOURCE_NAME.match(spec.name):
        return (f"source name '{spec.name}' must be letters, digits, '.', '_' or '-' "
                "(it names the source's folder under .site-builder/sources/)")
    if spec.dir is not None:
        parts = PurePosixPath(spec.dir).parts
        if spec.dir.startswith(("/", "\\")) or ".." in parts:
            return f"'dir' must be a folder inside the repository, not '{spec.dir}'"
    return None


def _string(data: dict[str, Any], key: str, checker: _Checker, default: str | None) -> str | None:
    value = data.get(key, default)
    if value is None or isinstance(value, str):
        return value
    checker.error(f"'{key}' must be a string, not {value!r}", key)
    return default


def _required_approvals(data: dict[str, Any], checker: _Checker) -> int | None:
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


def _markdown(data: dict[str, Any], checker: _Checker) -> str:
    """The body renderer site.yml names (`gfm` unless it says otherwise)."""
    name = _string(data, "markdown", checker, MARKDOWN_RENDERERS[0]) or MARKDOWN_RENDERERS[0]
    if name not in MARKDOWN_RENDERERS:
        checker.error(f"'markdown' must be one of {', '.join(MARKDOWN_RENDERERS)}, not "
                      f"{name!r}", "markdown")
        return MARKDOWN_RENDERERS[0]
    return name


def _base(data: dict[str, Any], checker: _Checker) -> str:
    """`base` as `/` or `/sub/path/`, however it was written."""
    base = (_string(data, "base", checker, SITE.default("base")) or "/").strip("/")
    if _NOT_IN_ADDRESS.search(base) or "?" in base or "#" in base:
        checker.error("'base' must be a path such as /decisions/, without spaces, quotes, "
                      "'?' or '#'", "base")
        return "/"
    return f"/{base}/" if base else "/"


def _url(data: dict[str, Any], checker: _Checker) -> str | None:
    url = _string(data, "url", checker, None)
    if url and not url.startswith(("http://", "https://")):
        checker.error("'url' must start with http:// or https://", "url")
        return None
    if url and _NOT_IN_ADDRESS.search(url):
        checker.error("'url' must be one address, without spaces, line breaks or quotes", "url")
        return None
    return url.rstrip("/") if url else None


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
    checker.unknown_keys(data, _SITE_KEYS, CONFIG_FILE)
    if data.get("title") in (None, ""):
        checker.error("'title' is required in site.yml", "title")
    def text(key: str) -> str:
        return _string(data, key, checker, SITE.default(key)) or SITE.default(key)

    config = SiteConfig(
        root=root,
        title=_string(data, "title", checker, None) or root.name,
        description=text("description"),
        url=_url(data, checker),
        base=_base(data, checker),
        content=text("content"),
        output=text("output"),
        static=text("static"),
        edit_url=_string(data, "edit_url", checker, SITE.default("edit_url")),
        statuses=_parse_statuses(data.get("statuses"), checker),
        fields=parse_fields(data.get("fields"), checker),
        required_approvals=_required_approvals(data, checker),
        sources=_parse_sources(data.get("sources"), checker),
        repo_url=_string(data, "repo_url", checker, None),
        markdown=_markdown(data, checker),
        citations=parse_citations(data.get("citations"), checker),
    )
    names = {status.name for status in config.statuses}
    for spec in config.sources:
        for message in format_status_problems(spec, names):
            checker.error_at(spec.line, message)
    return config, checker.findings


class NoArchive(ValueError):
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
