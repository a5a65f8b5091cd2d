"""The keys of a `sources:` entry kept in another tool's format.

`format` (one of `FORMATS`, the names the readers of archive/formats declare), `project`
(required with it), `type` (default adr), `default_status` (default accepted) and
`status_map` (extra aliases, matched case-insensitively). Kept apart from config.py, which
reads the rest of site.yml.
"""

from __future__ import annotations

import re
from typing import Any

from site_builder.config_keys import FORMAT_NAMES, SOURCE_FORMAT

__all__ = ["FORMATS", "FORMAT_KEYS", "format_keys", "format_status_problems"]

FORMAT_KEYS = SOURCE_FORMAT.names
FORMATS = FORMAT_NAMES
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


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
    mapping = tuple(sorted((str(k).strip().lower(), v.strip()) for k, v in raw.items()))
    return {"format": fmt, "project": project, "type": kind,
            "default_status": default.strip(), "status_map": mapping}, None


def format_status_problems(spec: Any, statuses: set[str]) -> list[str]:
    """Why `spec`'s `default_status` or a `status_map` target is no status of the site."""
    if spec.format is None:
        return []
    targets = [spec.default_status, *(target for _, target in spec.status_map)]
    return [f"source {spec.label}: '{target}' is not a status (one of "
            f"{', '.join(sorted(statuses))})" for target in dict.fromkeys(targets)
            if target not in statuses]
