"""Reading one YAML file of settings (site.yml, `_project.yml`) and collecting its problems.

`read_yaml_mapping` reads the file safely; `Checker` turns each problem into a Finding at the
line of the key or item at fault, with a "did you mean" for a mistyped key.
"""

from __future__ import annotations

import difflib
from collections.abc import Set
from pathlib import Path
from typing import Any

from site_builder.base.confined import MAX_RECORD_BYTES, Refused, read_regular
from site_builder.base.findings import Finding
from site_builder.text import yamlfile

__all__ = ["Checker", "read_yaml_mapping", "text_or_none"]


class Checker:
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


def text_or_none(value: Any) -> str | None:
    """`value` as a string, None staying None (labels, descriptions, source keys)."""
    return None if value is None else str(value)


def read_yaml_mapping(path: Path) -> tuple[dict[str, Any], Checker]:
    """Read a YAML file that must hold a mapping (an empty file is an empty one).

    The file is read only when it is a regular file that resolves inside its own folder,
    so a `site.yml` or `_project.yml` that is a symlink to a file of the
    machine, a FIFO or a device is an error at the file, never read.
    Returns the mapping ({} when unusable) and a checker holding the problems found so far.
    """
    checker = Checker(path)
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
