"""YAML parsing for site.yml, _project.yml and front matter, with the line of every key.

The common shape of front matter is read by `yaml_subset` (several times faster than building
PyYAML's node graph); everything else by PyYAML's C loader when it was built with it. Both give
the same values: timestamps become `datetime.date`, and a date YAML cannot construct
(`2026-13-45`) becomes an `InvalidDate` so that validation can report it at its own line
instead of failing the file.

Every file read here arrives from many hands, so what YAML could be made to cost is bounded
before anything walks the values: aliases may add at most `MAX_ALIAS_GROWTH` to what the
document itself holds (a 600-byte alias bomb would otherwise expand to billions of items) and
may not refer to themselves; integers stay within JSON's exact range, floats are finite
(`.nan` and `.inf` have no JSON form), and strings hold no control characters. Each is a
YamlError at the line that holds it.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from functools import lru_cache
from typing import Any

import yaml

from site_builder.errors import InputError
from site_builder.text import yaml_subset

_Base: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_STR = "tag:yaml.org,2002:str"

# Integers a JSON reader keeps exactly (RFC 8259 §6); longer texts are not even converted,
# since Python refuses int() of more than 4,300 digits with a ValueError.
MAX_INTEGER = 2**53 - 1
_MAX_NUMBER_TEXT = 64
# How much aliases may add to a document, counted as nodes plus characters / 64 per scalar:
# enough for anchors reused by hand dozens of times, far too little for a bomb to matter.
MAX_ALIAS_GROWTH = 10_000
# Real files nest three or four levels; every walk of the values (validation, JSON, repr)
# recurses, so depth is bounded well below Python's recursion limit.
MAX_DEPTH = 64
# C0 and C1 controls but tab and line feed, surrogates (no UTF-8 form) and the two
# non-characters XML forbids: none belongs in a title, and each breaks feed.xml or a terminal.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"

KeyLines = dict[str, int]
"""Key path (`title`, `review.every`, `authors.0`) → 1-based line of the key or list item."""


class InvalidDate(str):
    """A timestamp-looking scalar that is not a real date, kept as written."""


def _timestamp(constructor: Any, node: yaml.Node) -> Any:
    text = constructor.construct_scalar(node)
    try:
        value = yaml.SafeLoader.construct_yaml_timestamp(constructor, node)  # type: ignore[arg-type]
    except ValueError:
        return InvalidDate(text)
    return value.date() if isinstance(value, dt.datetime) else value


class _Refused(yaml.MarkedYAMLError):
    """A value parsed fine but refused (too large, not finite); `problem` says why."""


def _int(constructor: Any, node: yaml.ScalarNode) -> int:
    text = node.value
    if len(text) <= _MAX_NUMBER_TEXT:
        value = yaml.SafeLoader.construct_yaml_int(constructor, node)
        if abs(value) <= MAX_INTEGER:
            return value
    shown = text if len(text) <= 24 else f"{text[:20]}… ({len(text):,} characters)"
    raise _Refused(problem=f"the integer {shown} is too large (at most {MAX_INTEGER:,} either "
                           "way; quote it to keep it as text)", problem_mark=node.start_mark)


def _float(constructor: Any, node: yaml.ScalarNode) -> float:
    value = yaml.SafeLoader.construct_yaml_float(constructor, node)
    if math.isfinite(value) and len(node.value) <= _MAX_NUMBER_TEXT:
        return value
    shown = node.value if len(node.value) <= 24 else f"{node.value[:20]}…"
    raise _Refused(problem=f"the number {shown} is not a finite number (NaN, infinity and "
                           "numbers out of range have no JSON form; quote it to keep it as "
                           "text)", problem_mark=node.start_mark)


class _Loader(_Base):  # type: ignore[misc]
    """Safe loader whose timestamps are plain dates and never raise, and whose numbers are
    bounded."""


class _Scalars(yaml.constructor.SafeConstructor):
    """The same constructors as `_Loader`, for scalars `yaml_subset` has already found."""


for _cls in (_Loader, _Scalars):
    _cls.add_constructor(_TIMESTAMP, _timestamp)
    _cls.add_constructor(_INT, _int)
    _cls.add_constructor(_FLOAT, _float)

_SCALARS = _Scalars()
_RESOLVERS = yaml.resolver.Resolver.yaml_implicit_resolvers
_BUILT = {tag: _Scalars.yaml_constructors[tag] for tag in (
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float", _TIMESTAMP)}


@lru_cache(maxsize=8192)
def plain_scalar(text: str) -> Any:
    """The value PyYAML gives the plain (unquoted) scalar `text`.

    Resolved with PyYAML's own implicit resolvers and built by its constructors. Raises
    yaml_subset.Unsupported for the rare tags (`<<`, `=`) that only make sense to PyYAML,
    and for numbers that are refused, so that PyYAML reports them at their line.
    """
    tag = next((tag for tag, pattern in _RESOLVERS.get(text[:1], ()) if pattern.match(text)),
               _STR)
    if tag == _STR:
        return text
    build = _BUILT.get(tag)
    if build is None:
        raise yaml_subset.Unsupported
    try:
        return build(_SCALARS, yaml.ScalarNode(tag, text))
    except _Refused:
        raise yaml_subset.Unsupported from None


class YamlError(InputError):
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
        if node is not None:
            _guard(node)
        value = loader.construct_document(node) if node is not None else None
    except _Refused as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark is not None else 1
        raise YamlError(str(exc.problem), line) from None
    except yaml.MarkedYAMLError as exc:
        raise _error(exc, text) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow, by offset
        line = text.count("\n", 0, exc.position) + 1
        raise YamlError(f"invalid YAML: character U+{exc.character:04X} is not allowed "
                        "(control characters have no place in these files)", line) from None
    except yaml.YAMLError as exc:
        raise YamlError(f"invalid YAML: {exc}", 1) from None
    except RecursionError:
        raise YamlError("invalid YAML: nested too deeply", 1) from None
    finally:
        loader.dispose()
    lines: KeyLines = {}
    if node is not None:
        _locate(node, "", lines, set())
    return value, lines


def _guard(root: yaml.Node) -> None:
    """Refuse what the node graph could be made to cost before anything walks it.

    Aliases make the graph a DAG whose expansion may be exponential in its size; this visits
    each node once (iteratively, so depth costs no recursion), adding up what the expansion
    would hold. Raises _Refused at the node where aliases grow the document by more than
    MAX_ALIAS_GROWTH, at a node that contains itself, at a collection nested more than
    MAX_DEPTH deep, or at a string holding a control character.
    """
    own = 0  # the weight of the graph with every node counted once
    expanded: dict[int, int] = {}  # id(node) → the weight of its full expansion
    open_: set[int] = set()
    stack: list[tuple[yaml.Node, bool, int]] = [(root, False, 0)]
    while stack:
        node, done, depth = stack.pop()
        key = id(node)
        if done:
            open_.discard(key)
            children = _children(node)
            expanded[key] = 1 + sum(expanded[id(child)] for child in children)
            if expanded[key] - own > MAX_ALIAS_GROWTH:
                raise _Refused(problem=(
                    f"aliases here expand to more than {MAX_ALIAS_GROWTH:,} values beyond what "
                    "the file holds (an alias bomb?); write the values out instead"),
                    problem_mark=node.start_mark)
            continue
        if key in expanded:
            continue
        if key in open_:
            raise _Refused(problem="an alias refers to the value that contains it",
                           problem_mark=node.start_mark)
        if isinstance(node, yaml.ScalarNode):
            weight = 1 + len(node.value) // 64
            expanded[key] = weight
            own += weight
            bad = _CONTROL.search(node.value)
            if bad is not None:
                raise _Refused(problem=(
                    f"control character U+{ord(bad.group()):04X} in a string (remove it; "
                    "these files are text)"), problem_mark=node.start_mark)
            continue
        if depth >= MAX_DEPTH:
            raise _Refused(problem=f"values nested more than {MAX_DEPTH} levels deep",
                           problem_mark=node.start_mark)
        own += 1
        open_.add(key)
        stack.append((node, True, depth))
        stack.extend((child, False, depth + 1) for child in _children(node))


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


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


def _locate(node: yaml.Node, prefix: str, lines: KeyLines, seen: set[int] | None = None
            ) -> None:
    """Record the line of every key and list item below `node` (later duplicates win).

    A node reached a second time (through an alias) is not walked again: its keys are
    located where it is written, and an aliased path falls back to the alias's own line.
    """
    seen = set() if seen is None else seen
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                continue
            path = f"{prefix}{key_node.value}"
            lines[path] = key_node.start_mark.line + 1
            _locate(value_node, f"{path}.", lines, seen)
    elif isinstance(node, yaml.SequenceNode) and prefix:
        for index, item in enumerate(node.value):
            path = f"{prefix}{index}"
            lines[path] = item.start_mark.line + 1
            _locate(item, f"{path}.", lines, seen)


def line_of(lines: KeyLines, *path: str | int, default: int = 1) -> int:
    """The line of the deepest part of `path` that `lines` knows (`default` when none)."""
    parts = [str(p) for p in path]
    while parts:
        found = lines.get(".".join(parts))
        if found is not None:
            return found
        parts.pop()
    return default
