"""What site.yml says, as frozen values: statuses, fields, sources and the config itself.

Parsing and checking site.yml is `config/site.py`'s job; these are the values every layer
reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from site_builder.base.kept import rebuilt_by_init

__all__ = ["CONFIG_FILE", "DEFAULT_STATUSES", "MARKDOWN_RENDERERS", "CitationsSpec", "FieldDef",
           "SiteConfig", "SourceSpec", "Status", "without_credentials"]

CONFIG_FILE = "site.yml"
# The body renderers `markdown:` may name (render/markdown/renderers.py), default first.
MARKDOWN_RENDERERS = ("gfm", "python-markdown")


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


@rebuilt_by_init
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
    where the entry starts in site.yml. `format` (with `project`, `type`, `default_status`
    `status_map`, alias as `status_key` makes it → status, `exclude`, file name globs that are
    no records, and `strict`) marks a flat folder kept in another tool's format, read in place.
    """

    path: str | None = None
    repo: str | None = None
    ref: str | None = None
    dir: str | None = None
    name: str | None = None
    edit_url: str | None = None
    line: int = 1
    format: str | None = None
    project: str | None = None
    type: str = "adr"
    default_status: str = "accepted"
    status_map: tuple[tuple[str, str], ...] = ()
    exclude: tuple[str, ...] = ()
    strict: bool = False

    @property
    def label(self) -> str:
        """How messages name the source: `repo@ref` or the path, as written in site.yml."""
        if self.repo is not None:
            repo = without_credentials(self.repo)
            return f"{repo}@{self.ref}" if self.ref else repo
        return str(self.path)


@dataclass(frozen=True, slots=True)
class CitationsSpec:
    """`citations:` in site.yml: which tracked files of the archive's repository are read for
    citations of records. `include` globs (empty: every tracked file) and `exclude` globs
    are repository-relative and matched as `affects` patterns are; `line` is where the key
    is in site.yml."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    line: int = 1


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
    static: str = "static"
    edit_url: str | None = None
    statuses: tuple[Status, ...] = DEFAULT_STATUSES
    fields: tuple[FieldDef, ...] = ()
    required_approvals: int | None = None
    sources: tuple[SourceSpec, ...] = field(default=())
    repo_url: str | None = None
    citations: CitationsSpec | None = CitationsSpec()
    """None when `citations: false`; by default every tracked file is read."""

    @property
    def repository_url(self) -> str | None:
        """Where links to repository files outside the archive point: `repo_url`, else the
        part of `edit_url` before `{path}` with `/edit/` read as `/blob/`; None without."""
        if self.repo_url:
            return self.repo_url if self.repo_url.endswith("/") else self.repo_url + "/"
        if self.edit_url and "{path}" in self.edit_url:
            return self.edit_url.split("{path}", 1)[0].replace("/edit/", "/blob/")
        return None
    markdown: str = MARKDOWN_RENDERERS[0]

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
    def static_dir(self) -> Path:
        """The folder whose files are copied to the output root as they are."""
        return self.root / self.static

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
