"""The `citations:` key of site.yml: `true` (the default), `false`, or `{include, exclude}`.

Kept apart from config/site.py, which reads the rest of site.yml. The globs are matched as
`affects` patterns are (site_builder/archive/affects.py), against repository-relative paths;
one that cannot be a glob matches nothing and is a `check` error there (archive/codescan.py).
"""

from __future__ import annotations

from typing import Any

from site_builder.config.checker import Checker
from site_builder.config.keys import CITATIONS, Key
from site_builder.config.values import CitationsSpec

__all__ = ["parse_citations"]


def parse_citations(data: dict[str, Any], checker: Checker, key: Key) -> CitationsSpec | None:
    """The `citations` setting of site.yml's mapping `data`: None when turned off, else which
    files to read. Problems go to `checker` at their line; a bad value reads as the default."""
    raw = data.get(key.name)
    if raw is None or raw is True:
        return CitationsSpec()
    if raw is False:
        return None
    if not isinstance(raw, dict):
        checker.error("'citations' must be true, false or a mapping such as "
                      "{exclude: [\"tests/**\"]}", key.name)
        return CitationsSpec()
    checker.unknown_keys(raw, CITATIONS.names, "'citations'", key.name)
    return CitationsSpec(include=_globs(raw, "include", checker),
                         exclude=_globs(raw, "exclude", checker),
                         line=checker.line_of(key.name))


def _globs(raw: dict[str, Any], key: str, checker: Checker) -> tuple[str, ...]:
    """The globs under `citations.<key>` (one string counts as a list of one)."""
    value = raw.get(key)
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        checker.error(f"'citations.{key}' must be a list of globs such as [\"src/**\"]",
                      "citations", key)
        return ()
    return tuple(pattern.strip() for pattern in value)
