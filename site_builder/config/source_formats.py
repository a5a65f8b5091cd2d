"""The keys of a `sources:` entry kept in another tool's format.

`format` (one of `FORMATS`, the names the readers of archive/formats declare), `project`
(required with it), `type` (default adr), `default_status` (default accepted), `status_map`
(extra aliases, keys normalised like statuses), `exclude` (globs of files that are no
records) and `strict` (what the folder's own tool accepts is an error here too). Kept apart
from config/site.py, which reads the rest of site.yml.
"""

from __future__ import annotations

import re
from typing import Any

from site_builder.config.keys import FORMAT_NAMES, SOURCE_FORMAT
from site_builder.config.values import Status

__all__ = ["FORMATS", "FORMAT_KEYS", "UNKNOWN_STATUS", "format_keys", "format_status_problems",
           "status_key", "with_unknown_status"]

FORMAT_KEYS = SOURCE_FORMAT.names
FORMATS = FORMAT_NAMES
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
# What a record of such a folder is published as when its status has no known word.
UNKNOWN_STATUS = Status("unknown", label="Unknown", description=(
    "A status the record's own tool wrote that this site does not know; shown as written "
    "beside it. Map it to a status with status_map in site.yml."))


def status_key(written: str) -> str:
    """A status as written, the way statuses and `status_map` keys are compared: emphasis
    and a closing `.` dropped, spaces collapsed, lowercased (`**Accepted.**` → `accepted`)."""
    return " ".join(written.strip().strip("*_.").split()).lower()


def with_unknown_status(statuses: tuple[Status, ...], sources: tuple[Any, ...],
                        ) -> tuple[Status, ...]:
    """`statuses` with UNKNOWN_STATUS after them when a source is kept in another tool's
    format and the site does not name a status `unknown` itself."""
    if any(s.format for s in sources) and all(s.name != UNKNOWN_STATUS.name for s in statuses):
        return (*statuses, UNKNOWN_STATUS)
    return statuses


def format_keys(item: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The SourceSpec keys of a `format` source entry, or ({}, why it cannot be used)."""
    fmt, project = item.get("format"), item.get("project")
    if fmt not in FORMATS:
        return {}, f"'format' must be one of {', '.join(FORMATS)}, not {fmt!r}"
    if not isinstance(project, str) or not _NAME.match(project):
        return {}, ("a source with 'format' needs 'project': the project its records "
                    "belong to (letters, digits, '.', '_' or '-')")
    kind = item.get("type", "adr")
    if not isinstance(kind, str) or not _NAME.match(kind):
        return {}, f"'type' must be a name of letters, digits, '.', '_' or '-', not {kind!r}"
    default = item.get("default_status", "accepted")
    if not isinstance(default, str) or not default.strip():
        return {}, "'default_status' must be a status name"
    raw = item.get("status_map") or {}
    if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
        return {}, "'status_map' must map each status as written to a status name"
    mapping = tuple(sorted((status_key(str(k)), v.strip()) for k, v in raw.items()))
    exclude = item.get("exclude") or []
    if isinstance(exclude, str):
        exclude = [exclude]
    if not isinstance(exclude, list) or not all(isinstance(g, str) and g for g in exclude):
        return {}, "'exclude' must be a list of file name globs such as '0000-*.md'"
    strict = item.get("strict", False)
    if not isinstance(strict, bool):
        return {}, f"'strict' must be true or false, not {strict!r}"
    return {"format": fmt, "project": project, "type": kind,
            "default_status": default.strip(), "status_map": mapping,
            "exclude": tuple(exclude), "strict": strict}, None


def format_status_problems(spec: Any, statuses: set[str]) -> list[str]:
    """Why `spec`'s `default_status` or a `status_map` target is no status of the site."""
    if spec.format is None:
        return []
    targets = [spec.default_status, *(target for _, target in spec.status_map)]
    return [f"source {spec.label}: '{target}' is not a status (one of "
            f"{', '.join(sorted(statuses))})" for target in dict.fromkeys(targets)
            if target not in statuses]
