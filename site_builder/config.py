"""site.yml → SiteConfig: frozen dataclasses with defaults; problems become findings."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from site_builder import yamlfile
from site_builder.archive.findings import Finding

CONFIG_FILE = "site.yml"
FIELD_TYPES = ("string", "number", "boolean", "date", "enum", "list")

_SITE_KEYS = {
    "title", "description", "url", "base", "content", "output", "edit_url",
    "statuses", "fields", "review", "sources",
}
_STATUS_KEYS = {"name", "open", "current", "label", "description"}
_FIELD_KEYS = {"name", "label", "type", "values", "unit", "description", "required"}
_SOURCE_KEYS = {"path", "repo", "ref", "dir", "name", "edit_url"}
_SOURCE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


@dataclass(frozen=True, slots=True)
class Status:
    """One entry of `statuses`: `current` statuses are in force, `open` ones under discussion."""

    name: str
    open: bool = False
    current: bool = False
    label: str | None = None
    description: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The status as published in decisions.json, defaults filled in."""
        return {
            "name": self.name,
            "open": self.open,
            "current": self.current,
            "label": self.label or self.name.capitalize(),
            "description": self.description or "",
        }


DEFAULT_STATUSES = (
    Status("proposed", open=True),
    Status("accepted", current=True),
    Status("implemented", current=True),
    Status("rejected"),
    Status("deprecated"),
    Status("superseded"),
)


@dataclass(frozen=True, slots=True)
class FieldDef:
    """A custom metadata field declared in site.yml or a project's _project.yml."""

    name: str
    type: str = "string"
    label: str | None = None
    values: tuple[str, ...] = ()
    unit: str | None = None
    description: str | None = None
    required: bool = False

    def to_json(self) -> dict[str, Any]:
        """The field as published in decisions.json and by `list_fields`, defaults filled in."""
        return {
            "name": self.name,
            "label": self.label or self.name.replace("_", " ").capitalize(),
            "type": self.type,
            "values": list(self.values),
            "unit": self.unit,
            "description": self.description or "",
            "required": self.required,
        }


@dataclass(frozen=True, slots=True)
class SourceSpec:
    """One entry of `sources`: a folder laid out like `content`, in place or in a git repo.

    Exactly one of `path` (relative to the archive root, read in place) and `repo` (a git
    URL, cloned into `.site-builder/sources/`) is set. `ref` (branch, tag or commit; default:
    the remote's HEAD) and `dir` (the folder inside the repository, default its top) apply to
    `repo` only. `name` names the cache folder; `edit_url` is the source's own "edit this
    page" template, `{path}` being the record's path below the source's folder. `line` is
    where the entry starts in site.yml.
    """

    path: str | None = None
    repo: str | None = None
    ref: str | None = None
    dir: str | None = None
    name: str | None = None
    edit_url: str | None = None
    line: int = 1

    @property
    def label(self) -> str:
        """How messages name the source: `repo@ref` or the path, as written in site.yml."""
        if self.repo is not None:
            repo = without_credentials(self.repo)
            return f"{repo}@{self.ref}" if self.ref else repo
        return str(self.path)


def without_credentials(url: str) -> str:
    """`url` without a `user:token@` part, so a secret never reaches output or logs."""
    return re.sub(r"^([a-zA-Z][\w+.-]*://)[^/@]*@", r"\1", url)


@dataclass(frozen=True, slots=True)
class SiteConfig:
    """Everything site.yml says, with defaults filled in. `root` is the folder holding it."""

    root: Path
    title: str
    description: str = ""
    url: str | None = None
    base: str = "/"
    content: str = "content"
    output: str = "_site"
    edit_url: str | None = None
    statuses: tuple[Status, ...] = DEFAULT_STATUSES
    fields: tuple[FieldDef, ...] = ()
    required_approvals: int | None = None
    sources: tuple[SourceSpec, ...] = field(default=())

    @property
    def path(self) -> Path:
        """The site.yml file itself."""
        return self.root / CONFIG_FILE

    @property
    def content_dir(self) -> Path:
        return self.root / self.content

    @property
    def output_dir(self) -> Path:
        return self.root / self.output

    @property
    def cache_dir(self) -> Path:
        """Every cache the tool keeps lives here; deleting it is always safe."""
        return self.root / ".site-builder"

    def status(self, name: str) -> Status | None:
        """The status called `name`, or None."""
        return next((s for s in self.statuses if s.name == name), None)

    @property
    def current_statuses(self) -> frozenset[str]:
        return frozenset(s.name for s in self.statuses if s.current)

    @property
    def open_statuses(self) -> frozenset[str]:
        return frozenset(s.name for s in self.statuses if s.open)


class _Checker:
    """Collects findings against one YAML file, each at the line of the key at fault."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text
        self.lines = yamlfile.key_lines(text)
        self.findings: list[Finding] = []

    def line_of(self, key: str, nested: str | None = None) -> int:
        if nested is not None:
            inner = yamlfile.nested_key_line(self.text, key, nested)
            if inner is not None:
                return inner
        return self.lines.get(key, 1)

    def error(self, message: str, key: str = "", nested: str | None = None) -> None:
        self.findings.append(Finding(self.path, self.line_of(key, nested), "error", message))

    def error_at(self, line: int, message: str) -> None:
        self.findings.append(Finding(self.path, line, "error", message))

    def warning(self, message: str, key: str = "") -> None:
        self.findings.append(Finding(self.path, self.line_of(key), "warning", message))

    def unknown_keys(self, mapping: dict[str, Any], known: set[str], where: str, key: str = "",
                     error: bool = True) -> None:
        for name in mapping:
            if name in known:
                continue
            hint = difflib.get_close_matches(str(name), sorted(known), n=1)
            extra = f" (did you mean '{hint[0]}'?)" if hint else ""
            message = f"unknown key '{name}' in {where}{extra}"
            if error:
                self.error(message, key or str(name), str(name) if key else None)
            else:
                self.warning(message, key or str(name))


def read_yaml_mapping(path: Path,
                      checker: _Checker | None = None) -> tuple[dict[str, Any], _Checker]:
    """Read a YAML file that must hold a mapping; problems go to the returned checker."""
    text = path.read_text(encoding="utf-8")
    checker = checker or _Checker(path, text)
    try:
        data = yamlfile.parse(text)
    except yamlfile.YamlError as exc:
        checker.findings.append(Finding(path, exc.line, "error", exc.message))
        return {}, checker
    if data is None:
        data = {}
    if not isinstance(data, dict):
        checker.error(f"{path.name} must be a mapping of keys to values")
        return {}, checker
    return data, checker


def parse_fields(raw: Any, checker: _Checker, key: str = "fields") -> tuple[FieldDef, ...]:
    """Validate a `fields` list (site or project level) into FieldDefs."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        checker.error(f"'{key}' must be a list of field definitions", key)
        return ()
    fields: list[FieldDef] = []
    seen: set[str] = set()
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"]:
            checker.error(f"every entry of '{key}' needs a 'name'", key)
            continue
        name = item["name"]
        checker.unknown_keys(item, _FIELD_KEYS, f"field '{name}'", key)
        kind = item.get("type", "string")
        if kind not in FIELD_TYPES:
            checker.error(f"field '{name}' has unknown type '{kind}' "
                          f"(one of {', '.join(FIELD_TYPES)})", key)
            kind = "string"
        values = item.get("values") or []
        if kind == "enum" and (not isinstance(values, list) or not values):
            checker.error(f"enum field '{name}' needs a list of 'values'", key)
            values = []
        if name in seen:
            checker.error(f"field '{name}' is declared twice", key)
        seen.add(name)
        fields.append(FieldDef(
            name=name, type=kind, label=_opt_str(item.get("label")),
            values=tuple(str(v) for v in values) if isinstance(values, list) else (),
            unit=_opt_str(item.get("unit")), description=_opt_str(item.get("description")),
            required=bool(item.get("required", False)),
        ))
    return tuple(fields)


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _parse_statuses(raw: Any, checker: _Checker) -> tuple[Status, ...]:
    if raw is None:
        return DEFAULT_STATUSES
    if not isinstance(raw, list) or not raw:
        checker.error("'statuses' must be a non-empty list", "statuses")
        return DEFAULT_STATUSES
    statuses: list[Status] = []
    for item in raw:
        if isinstance(item, str):
            item = {"name": item}
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"]:
            checker.error("every status needs a 'name'", "statuses")
            continue
        checker.unknown_keys(item, _STATUS_KEYS, f"status '{item['name']}'", "statuses")
        if any(s.name == item["name"] for s in statuses):
            checker.error(f"status '{item['name']}' is listed twice", "statuses")
            continue
        statuses.append(Status(
            name=item["name"], open=bool(item.get("open", False)),
            current=bool(item.get("current", False)), label=_opt_str(item.get("label")),
            description=_opt_str(item.get("description")),
        ))
    return tuple(statuses) or DEFAULT_STATUSES


def _parse_sources(raw: Any, checker: _Checker) -> tuple[SourceSpec, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        checker.error("'sources' must be a list", "sources")
        return ()
    lines = yamlfile.item_lines(checker.text, "sources")
    if len(lines) != len(raw):  # flow style: every problem goes to the `sources:` line
        lines = [checker.line_of("sources")] * len(raw)
    specs: list[SourceSpec] = []
    names: dict[str, int] = {}
    for item, line in zip(raw, lines, strict=True):
        if not isinstance(item, dict) or ("path" in item) == ("repo" in item):
            checker.error_at(line, "every source needs exactly one of 'path' or 'repo'")
            continue
        checker.unknown_keys(item, _SOURCE_KEYS, "a source", "sources")
        spec = SourceSpec(**{k: _opt_str(item.get(k)) for k in _SOURCE_KEYS}, line=line)
        problem = _source_problem(spec)
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
    checker.error(f"'{key}' must be a string", key)
    return default


def load_config(root: Path) -> tuple[SiteConfig | None, list[Finding]]:
    """Read `root/site.yml`.

    Returns the config (None when there is no usable one) and every problem found in it.
    """
    root = root.resolve()
    path = root / CONFIG_FILE
    if not path.is_file():
        return None, [Finding(path, 1, "error", f"no {CONFIG_FILE} in {root} "
                                                "(run 'site-builder init' to create one)")]
    data, checker = read_yaml_mapping(path)
    if checker.findings:
        return None, checker.findings
    checker.unknown_keys(data, _SITE_KEYS, CONFIG_FILE)
    title = _string(data, "title", checker, None)
    if not title:
        checker.error("'title' is required in site.yml", "title")
    base = _string(data, "base", checker, "/") or "/"
    base = "/" + base.strip("/") + "/" if base.strip("/") else "/"
    url = _string(data, "url", checker, None)
    if url and not url.startswith(("http://", "https://")):
        checker.error("'url' must start with http:// or https://", "url")
        url = None
    review = data.get("review") or {}
    approvals = review.get("required_approvals") if isinstance(review, dict) else None
    if approvals is not None and (not isinstance(approvals, int) or approvals < 0):
        checker.error("'review.required_approvals' must be a whole number", "review")
        approvals = None
    if not isinstance(review, dict):
        checker.error("'review' must be a mapping such as {required_approvals: 2}", "review")
    config = SiteConfig(
        root=root,
        title=title or root.name,
        description=_string(data, "description", checker, "") or "",
        url=url.rstrip("/") if url else None,
        base=base,
        content=_string(data, "content", checker, "content") or "content",
        output=_string(data, "output", checker, "_site") or "_site",
        edit_url=_string(data, "edit_url", checker, None),
        statuses=_parse_statuses(data.get("statuses"), checker),
        fields=parse_fields(data.get("fields"), checker),
        required_approvals=approvals,
        sources=_parse_sources(data.get("sources"), checker),
    )
    return config, checker.findings
