"""Where records come from: content roots, and the source a root belongs to.

The loader reads every `ContentRoot` alike; only `Source` (attached to each record read from
it) remembers that a root came from `sources:` in site.yml rather than from `content`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from site_builder.base.kept import rebuilt_by_init


@rebuilt_by_init
@dataclass(frozen=True, slots=True)
class Source:
    """Where a record from `sources` comes from.

    `location` is the repository URL (credentials removed) or the path as written in site.yml;
    `ref` and `commit` are set for a repository (the ref asked for, the commit checked out).
    `edit_url` is the source's own "edit this page" template, `{path}` standing for the
    record's path below the source's folder (`<project>/<type>/<NNNN-slug>.md`).
    """

    location: str
    ref: str | None = None
    commit: str | None = None
    edit_url: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The record's `source` in decisions.json and MCP answers."""
        return {"location": self.location, "ref": self.ref, "commit": self.commit}

    @property
    def from_repository(self) -> bool:
        """True for a `repo:` source (read from a checkout), False for a `path:` source."""
        return self.commit is not None

    def edit_link(self, path_in_source: str) -> str | None:
        """The edit address of the file at `path_in_source`, or None without `edit_url`."""
        if not self.edit_url:
            return None
        return self.edit_url.replace("{path}", quote(path_in_source))


@dataclass(frozen=True, slots=True)
class Foreign:
    """How to read a flat folder kept in another tool's format.

    `format` is nygard, madr, log4brains or auto; every record of the folder belongs to
    `project` and `type`; `default_status` is given to records that state none,
    `status_map` maps statuses as written (as `status_key` makes them) to status names,
    `exclude` holds the globs of file names that are no records, and `strict` makes what the
    folder's own tool accepts an error, as in native content, rather than a warning.
    """

    format: str
    project: str
    type: str = "adr"
    default_status: str = "accepted"
    status_map: tuple[tuple[str, str], ...] = ()
    exclude: tuple[str, ...] = ()
    strict: bool = False
    drafts: bool = False
    """Drafts are settled as records (marked `draft`) rather than left out: `import` writes
    them as native drafts."""
    status_hint: str = "'status_map' in this source's entry of site.yml"
    """Where an unknown status is mapped to one, as the error about it says (`{written}`
    stands for the status as written)."""


@dataclass(frozen=True, slots=True)
class ContentRoot:
    """A folder laid out like `content`: the archive's own, or one provided by a source.

    `label` names it in messages (`content`, `source ../platform/decisions`); `line` is where
    site.yml declares it, which is where a problem with the root as a whole is reported.
    `foreign`, when set, makes the root one flat folder of records in another tool's format
    rather than a folder laid out like `content`.
    """

    path: Path
    label: str
    source: Source | None = None
    line: int = 1
    foreign: Foreign | None = None
