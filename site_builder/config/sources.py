"""The `sources:` list of site.yml: records kept outside `content`, read in place or cloned.

Each entry is a `path:` folder or a `repo:` git repository (site_builder/sources/ fetches
it); one kept in another tool's format adds the keys of `source_formats.py`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import PurePosixPath
from typing import Any

from site_builder.config.checker import Checker, text_or_none
from site_builder.config.keys import SOURCE
from site_builder.config.source_formats import FORMAT_KEYS, format_keys
from site_builder.config.values import SourceSpec

__all__ = ["parse_sources"]

_SOURCE_KEYS = SOURCE.names
_SOURCE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def parse_sources(raw: Any, checker: Checker) -> tuple[SourceSpec, ...]:
    """The entries of `sources` (empty when absent); a bad entry is reported and left out."""
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
        text = {k: text_or_none(item.get(k)) for k in _SOURCE_KEYS}
        spec = SourceSpec(path=text["path"], repo=text["repo"], ref=text["ref"], dir=text["dir"],
                          name=text["name"], edit_url=text["edit_url"], line=line)
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
