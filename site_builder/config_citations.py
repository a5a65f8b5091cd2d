"""The `citations:` key of site.yml: `true` (the default), `false`, or `{include, exclude}`.

Kept apart from config.py, which reads the rest of site.yml. The globs are matched as
`affects` patterns are (site_builder/archive/affects.py), against repository-relative paths;
one that cannot be a glob matches nothing and is a `check` error there (archive/codescan.py).
"""

from __future__ import annotations

from typing import Any, Protocol

from site_builder.config_keys import CITATIONS
from site_builder.config_values import CitationsSpec

__all__ = ["parse_citations"]


class _Reports(Protocol):
    """What config.py's checker offers: an error at the line of a key path."""

    def error(self, message: str, *path: str | int) -> None: ...

    def line_of(self, *path: str | int) -> int: ...

    def unknown_keys(self, mapping: dict[Any, Any], known: Any, where: str,
                     *path: str | int) -> None: ...


def parse_citations(raw: Any, checker: _Reports) -> CitationsSpec | None:
    """The `citations` setting (None: turned off); problems go to `checker` at their line."""
    if raw is None or raw is True:
        return CitationsSpec()
    if raw is False:
        return None
    if not isinstance(raw, dict):
        checker.error("'citations' must be true, false or a mapping such as "
                      "{exclude: [\"tests/**\"]}", "citations")
        return CitationsSpec()
    checker.unknown_keys(raw, CITATIONS.names, "'citations'", "citations")
    return CitationsSpec(include=_globs(raw, "include", checker),
                         exclude=_globs(raw, "exclude", checker),
                         line=checker.line_of("citations"))


def _globs(raw: dict[str, Any], key: str, checker: _Reports) -> tuple[str, ...]:
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
