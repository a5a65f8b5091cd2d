"""YAML parsing for site.yml, _project.yml and front matter, with the line of every key.

The common shape of front matter is read by `yaml_subset` (several times faster than building
PyYAML's node graph); everything else by PyYAML's C loader when it was built with it. Both give
the same values: timestamps become `datetime.date`, and a date YAML cannot construct
(`2026-13-45`) becomes an `InvalidDate` so that validation can report it at its own line
instead of failing the file.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Any

import yaml

from site_builder import yaml_subset

_Base: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_STR = "tag:yaml.org,2002:str"

KeyLines = dict[str, int]
"""Key path (`title`, `review.every`, `authors.0`) → 1-based line of the key or list item."""


class InvalidDate(str):
    """A timestamp-looking scalar that is not a real date, kept as written."""


def _timestamp(constructor: Any, node: yaml.Node) -> Any:
    text = constructor.construct_scalar(node)
    try:
        value = yaml.SafeLoader.construct_yaml_timestamp(constructor, node)
    except ValueError:
        return InvalidDate(text)
    return value.date() if isinstance(value, dt.datetime) else value


class _Loader(_Base):  # type: ignore[misc, valid-type]
    """Safe loader whose timestamps are plain dates and never raise."""


class _Scalars(yaml.constructor.SafeConstructor):
    """The same constructors as `_Loader`, for scalars `yaml_subset` has already found."""


for _cls in (_Loader, _Scalars):
    _cls.add_constructor(_TIMESTAMP, _timestamp)

_SCALARS = _Scalars()
_RESOLVERS = yaml.resolver.Resolver.yaml_implicit_resolvers
_BUILT = {tag: _Scalars.yaml_constructors[tag] for tag in (
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float", _TIMESTAMP)}


@lru_cache(maxsize=8192)
def plain_scalar(text: str) -> Any:
    """The value PyYAML gives the plain (unquoted) scalar `text`.

    Resolved with PyYAML's own implicit resolvers and built by its constructors. Raises
    yaml_subset.Unsupported for the rare tags (`<<`, `=`) that only make sense to PyYAML.
    """
    tag = next((tag for tag, pattern in _RESOLVERS.get(text[:1], ()) if pattern.match(text)),
               _STR)
    if tag == _STR:
        return text
    build = _BUILT.get(tag)
    if build is None:
        raise yaml_subset.Unsupported
    return build(_SCALARS, yaml.ScalarNode(tag, text))


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
    return parse_with_lines(text)[0]


def parse_with_lines(text: str) -> tuple[Any, KeyLines]:
    """Parse one YAML document and locate its keys.

    Returns the value and the line of every mapping key and list item below mappings.
    Raises YamlError with the line of the problem when the text is not valid YAML.
    """
    fast = yaml_subset.parse(text, plain_scalar)
    if fast is not None:
        return fast
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        value = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        raise _error(exc, text) from None
    except yaml.YAMLError as exc:
        raise YamlError(f"invalid YAML: {exc}", 1) from None
    finally:
        loader.dispose()
    lines: KeyLines = {}
    if node is not None:
        _locate(node, "", lines)
    return value, lines


def _error(exc: yaml.MarkedYAMLError, text: str) -> YamlError:
    """A YamlError at the line a person should look at.

    PyYAML marks where it gave up. For an unclosed `[`, `{` or quote, or anything that runs
    to the end of the text, the line where the construct began is the one to fix.
    """
    mark = exc.problem_mark or exc.context_mark
    last_line = len(text.rstrip("\n").split("\n"))
    unclosed = (exc.context or "").startswith(("while parsing a flow", "while scanning a quoted"))
    if exc.context_mark is not None and (unclosed or mark is None or mark.line + 1 > last_line):
        mark = exc.context_mark
    problem = exc.problem or exc.context or "not valid YAML"
    if exc.problem and exc.context:
        problem = f"{problem} ({exc.context})"
    return YamlError(f"invalid YAML: {problem}", mark.line + 1 if mark is not None else 1)


def _locate(node: yaml.Node, prefix: str, lines: KeyLines) -> None:
    """Record the line of every key and list item below `node` (later duplicates win)."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                continue
            path = f"{prefix}{key_node.value}"
            lines[path] = key_node.start_mark.line + 1
            _locate(value_node, f"{path}.", lines)
    elif isinstance(node, yaml.SequenceNode) and prefix:
        for index, item in enumerate(node.value):
            path = f"{prefix}{index}"
            lines[path] = item.start_mark.line + 1
            _locate(item, f"{path}.", lines)


def line_of(lines: KeyLines, *path: str | int, default: int = 1) -> int:
    """The line of the deepest part of `path` that `lines` knows (`default` when none)."""
    parts = [str(p) for p in path]
    while parts:
        found = lines.get(".".join(parts))
        if found is not None:
            return found
        parts.pop()
    return default
