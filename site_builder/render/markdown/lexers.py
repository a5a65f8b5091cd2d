"""Pygments lexers, their regular expressions compiled once per machine.

A Pygments lexer compiles its regular expressions when the first one of its kind is made, in
every process that highlights: 0.1 s for the seven languages of the bench corpus, because
Python's `re` parses and compiles each pattern in Python. That is the largest part of
rendering a small archive's bodies, and each body worker pays it again. What `re` hands the
matching engine in the end (`_sre.compile`) is plain data: a list of integers and the group
names. It is kept here, one file per lexer, in the machine's cache (beside the compiled
built-in templates, as Python keeps its bytecode), in a folder named for the Python build
(its version and the engine's `MAGIC`) and Pygments' version; a later process makes the same
patterns from it in a millisecond.

The patterns are the same either way, and so is the highlighted HTML: a program is kept only
after the pattern made from it compared equal to the one `re` compiled (a Pattern compares
its flags and its code), the engine checks every program it is given, and an entry that is
damaged, or anything this Python does differently, is compiled by `re` as Pygments would.
"""

from __future__ import annotations

import importlib
import marshal
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from site_builder.base.installed import machine_cache
from site_builder.render.markdown import lexing

# What `_sre.compile` is given: pattern, flags, code, groups, group index, index group.
Program = tuple[str, int, list[int], int, dict[str, int], tuple[str | None, ...]]
Programs = dict[tuple[str, int], Program]

_sre: Any = importlib.import_module("_sre")
# Held while a lexer is made: Pygments' compiling is swapped for ours meanwhile, and two
# threads of `serve` swapping it at once could leave it swapped.
_MAKING = threading.Lock()


@lru_cache(maxsize=256)
def lexer(language: str) -> Any | None:
    """A Pygments lexer for `language` (an alias, as `get_lexer_by_name` takes it), or None
    when Pygments has none."""
    from pygments.lexers import find_lexer_class_by_name
    from pygments.util import ClassNotFound

    try:
        kind = find_lexer_class_by_name(language)
    except ClassNotFound:
        return None
    path = folder() / f"{kind.__module__}.{kind.__qualname__}.marshal"
    kept = _read(path)
    made: Programs = {}

    def compile_pattern(regex: str, flags: int) -> re.Pattern[str]:
        return _pattern(kept, made, regex, flags)

    def joinable(regex: str, flags: int) -> re.Pattern[str] | None:
        try:
            return compile_pattern(regex, flags)
        except (re.error, OverflowError, RecursionError):  # left unjoined
            return None

    with _MAKING, _patterns_from(compile_pattern):
        made_lexer = kind()
    lexing.speed_up(made_lexer, joinable)
    if made:
        _keep(path, {**kept, **made})
    return made_lexer


def folder() -> Path:
    """This Python's and this Pygments' folder of kept programs in the machine's cache."""
    import pygments

    version = ".".join(map(str, sys.version_info[:3]))
    return (machine_cache("lexers")
            / f"{sys.implementation.cache_tag}-{version}-sre{_sre.MAGIC}-pygments"
              f"{pygments.__version__}")


@contextmanager
def _patterns_from(compile_pattern: Callable[[str, int], re.Pattern[str]]) -> Iterator[None]:
    """While a lexer is made: its patterns compiled by `compile_pattern(regex, flags)`,
    in place of the `re.compile` of RegexLexerMeta._process_regex (which does the same)."""
    from pygments.lexer import RegexLexerMeta
    from pygments.util import Future

    meta: Any = RegexLexerMeta  # _process_regex is not in Pygments' published types

    def process_regex(cls: type, regex: Any, rflags: int, state: str) -> Any:
        if isinstance(regex, Future):  # `words(...)`: the pattern is made when asked for
            regex = regex.get()  # type: ignore[func-returns-value]
        return compile_pattern(regex, rflags).match

    original = meta._process_regex
    meta._process_regex = process_regex
    try:
        yield
    finally:
        meta._process_regex = original


def _pattern(kept: Programs, made: Programs, regex: str, flags: int) -> re.Pattern[str]:
    """The pattern of `regex` with `flags`: made from its kept program, else compiled by
    `re` (its program added to `made` when one that gives the same pattern can be had)."""
    key = (regex, int(flags))
    program = kept.get(key)
    if program is not None and program[0] == regex:
        try:
            pattern: re.Pattern[str] = _sre.compile(*program)
            return pattern
        except Exception:  # a damaged entry (the engine refuses it): compile it again
            kept.pop(key)
    compiled = re.compile(regex, flags)
    program = _program(regex, int(flags))
    if program is not None and _same(program, compiled):
        made[key] = program
    return compiled


def _program(regex: str, flags: int) -> Program | None:
    """What `re` gives the engine for `regex` (re._compiler.compile's steps, Python 3.11
    to 3.13), or None when this Python does not work that way."""
    try:
        parser: Any = importlib.import_module("re._parser")
        compiler: Any = importlib.import_module("re._compiler")
        parsed = parser.parse(regex, flags)
        code = [int(op) for op in compiler._code(parsed, flags)]
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        return (regex, int(flags | parsed.state.flags), code, parsed.state.groups - 1,
                groupindex, tuple(indexgroup))
    except Exception:  # another Python's internals: patterns are compiled as usual
        return None


def _same(program: Program, compiled: re.Pattern[str]) -> bool:
    try:
        return bool(_sre.compile(*program) == compiled)
    except Exception:
        return False


def _read(path: Path) -> Programs:
    """The programs kept in `path`; none when it is missing or damaged."""
    try:
        kept = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return kept if isinstance(kept, dict) else {}


def _keep(path: Path, programs: Programs) -> None:
    try:  # written beside and renamed: a concurrent process never reads half a file
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}")
        partial.write_bytes(marshal.dumps(programs))
        partial.replace(path)
    except OSError:  # a cache that cannot be written only costs the next process time
        pass
