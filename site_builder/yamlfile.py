"""YAML parsing for site.yml, _project.yml and front matter, with line numbers for findings.

The C loader is used when PyYAML was built with it (about 8x faster than the pure one).
Timestamps become `datetime.date`; a date YAML cannot construct (`2026-13-45`) becomes an
`InvalidDate` so that validation can report it at its own line instead of failing the file.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import yaml

_Base: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class InvalidDate(str):
    """A timestamp-looking scalar that is not a real date, kept as written."""


class _Loader(_Base):  # type: ignore[misc, valid-type]
    """Safe loader whose timestamps are plain dates and never raise."""


def _timestamp(loader: yaml.BaseLoader, node: yaml.Node) -> Any:
    text = loader.construct_scalar(node)  # type: ignore[arg-type]
    try:
        value = yaml.SafeLoader.construct_yaml_timestamp(loader, node)  # type: ignore[arg-type]
    except ValueError:
        return InvalidDate(text)
    return value.date() if isinstance(value, dt.datetime) else value


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp)


class YamlError(Exception):
    """YAML that cannot be parsed; `line` is 1-based within the parsed text."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def parse(text: str) -> Any:
    """Parse one YAML document.

    Raises YamlError with the line of the problem when the text is not valid YAML.
    """
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or exc.context or "invalid YAML"
        return _raise(f"invalid YAML: {problem}", line)
    except yaml.YAMLError as exc:
        return _raise(f"invalid YAML: {exc}", 1)


def _raise(message: str, line: int) -> Any:
    raise YamlError(message, line)


_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:", re.MULTILINE)
_NESTED_KEY = re.compile(r"^[ \t]+-?[ \t]*([\w.@-]+)[ \t]*:")


def key_lines(text: str) -> dict[str, int]:
    """Map each top-level key of a block-style mapping to its 1-based line in `text`."""
    lines: dict[str, int] = {}
    for match in _TOP_KEY.finditer(text):
        lines.setdefault(match.group(1), text.count("\n", 0, match.start()) + 1)
    return lines


def nested_key_line(text: str, parent: str, key: str) -> int | None:
    """The line of `key` inside the block of top-level `parent`, when written in block style."""
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line and not line[0].isspace() and not line.startswith("#"):
            inside = line.startswith(f"{parent}:")
            continue
        if inside:
            match = _NESTED_KEY.match(line)
            if match and match.group(1) == key:
                return number
    return None


def item_lines(text: str, parent: str) -> list[int]:
    """The 1-based lines where the items of the block list under top-level `parent` start.

    Empty when `parent` is missing or written in flow style (`[a, b]`); callers then fall
    back to the line of `parent` itself.
    """
    lines: list[int] = []
    inside, indent = False, None
    for number, line in enumerate(text.splitlines(), start=1):
        if line and not line[0].isspace() and not line.startswith(("#", "-")):
            inside = line.startswith(f"{parent}:")
            continue
        if not inside:
            continue
        stripped = line.lstrip(" ")
        if not stripped.startswith("- ") and stripped != "-":
            continue
        depth = len(line) - len(stripped)
        if indent is None:
            indent = depth
        if depth == indent:
            lines.append(number)
    return lines
