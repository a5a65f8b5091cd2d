"""`affects` globs, matched the way .gitignore and CODEOWNERS match paths.

`*` and `?` never cross `/`; `**` spans folders; a pattern with no `/` (other than a trailing
one) matches a name at any depth; a leading `/` anchors at the repository root; a pattern that
matches a folder matches everything below it; `!pattern` excludes. A path matches when some
positive pattern matches it and no `!` pattern matches that same path.

Patterns come from records anyone may edit and from sites anyone may publish, so they are
never handed to a backtracking regex engine (`**a**a**a**b` against a long path would take
years there). A glob is a small NFA over the path's characters whose states move together, as
the bits of one int, and whose steps are memoised: one step per character whatever the pattern.
A pattern that cannot be a glob (`[z-a]`) matches nothing; `problem` says why, for `check`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from site_builder.base.kept import rebuilt_by_init
from site_builder.errors import InputError

MAX_PATTERN = 1024
"""Longer patterns are refused: no real path glob needs more."""
MAX_CLASSES = 16
"""More `[...]` classes in one pattern are refused: each costs a test per character."""
MAX_PATH = 4096
"""Longer paths (PATH_MAX) match nothing: they cannot name a file in a repository."""
_MAX_STEPS = 256  # DFA transitions memoised per pattern; beyond that, computed each time

# Token kinds of a compiled glob. _ONE is `?` (one character but `/`), _STAR `*` (a run
# without `/`), _ANY `**` (any run). `**/` and the implicit prefix of an unanchored pattern
# (nothing, or any run ending in `/`) become _SKIP, _ANY, `/`: _SKIP consumes nothing and
# lets the match jump past the `/`.
_LIT, _ONE, _CLASS, _STAR, _ANY, _SKIP = range(6)
_DIRS = [(_SKIP, 3), (_ANY, None), (_LIT, "/")]


class BadPattern(InputError, ValueError):
    """A pattern that cannot be matched; the message says why."""


@dataclass(frozen=True, slots=True)
class _Class:
    """A bracket expression: `[a-z_]`, `[!0-9]`. Never matches `/`."""

    negated: bool
    chars: frozenset[str]
    ranges: tuple[tuple[str, str], ...]

    def __contains__(self, ch: str) -> bool:
        inside = ch in self.chars
        if not inside:
            for low, high in self.ranges:
                if low <= ch <= high:
                    inside = True
                    break
        return inside is not self.negated


def _bracket(glob: str, start: int) -> tuple[_Class, int] | None:
    """The class opened at `glob[start] == "["` and the index after its `]`, or None when
    it is never closed (the `[` is then a literal, as before). Raises BadPattern."""
    i = start + 1
    negated = i < len(glob) and glob[i] in "!^"
    i += negated
    first = i
    chars: set[str] = set()
    ranges: list[tuple[str, str]] = []
    while i < len(glob):
        ch = glob[i]
        if ch == "]" and i > first:
            return _Class(negated, frozenset(chars), tuple(ranges)), i + 1
        if i + 2 < len(glob) and glob[i + 1] == "-" and glob[i + 2] != "]":
            low, high = ch, glob[i + 2]
            if low > high:
                raise BadPattern(f"the range {low}-{high} in [...] is reversed")
            ranges.append((low, high))
            i += 3
            continue
        chars.add(ch)
        i += 1
    return None


def _tokens(glob: str) -> list[tuple[int, object]]:
    out: list[tuple[int, object]] = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.extend(_DIRS)
            i += 3
        elif glob[i] == "*":
            double = glob.startswith("**", i)
            i += 2 if double else 1
            # `***`, `*` next to `**`: one run, which crosses `/` if any part of it does
            if out and out[-1][0] in (_STAR, _ANY):
                double = double or out.pop()[0] == _ANY
            out.append((_ANY if double else _STAR, None))
        elif glob[i] == "?":
            out.append((_ONE, None))
            i += 1
        elif glob[i] == "[" and (found := _bracket(glob, i)) is not None:
            out.append((_CLASS, found[0]))
            i = found[1]
        else:
            out.append((_LIT, glob[i]))
            i += 1
    return out


class Glob:
    """One compiled pattern: `match(path)` in time linear in the path's length.

    The NFA's states are the bits of an int (bit i: the first i tokens are matched; bit
    `end`: all of them; bit `end + 1`: inside the `(/.*)?` that lets a folder match what it
    holds), and one character moves them all at once with a few shifts and masks, so a step
    costs the same for `*.tf` and for `**a**a**a**a**a**b`.
    """

    def __init__(self, tokens: list[tuple[int, object]]) -> None:
        end = len(tokens)
        self._end_bit = 1 << end
        self._tail = 1 << (end + 1)
        self._accept = self._end_bit | self._tail
        self._literals: dict[str, int] = {}  # character → tokens that match it
        self._one = self._star = self._any = self._skip = 0
        self._classes: list[tuple[int, _Class]] = []
        for i, (kind, value) in enumerate(tokens):
            bit = 1 << i
            if kind == _LIT:
                self._literals[value] = self._literals.get(value, 0) | bit  # type: ignore
            elif kind == _ONE:
                self._one |= bit
            elif kind == _CLASS:
                self._classes.append((bit, value))  # type: ignore[arg-type]
            elif kind == _STAR:
                self._star |= bit
            elif kind == _ANY:
                self._any |= bit
            else:
                self._skip |= bit
        self._empty = self._star | self._any | self._skip  # may match nothing: go on
        self._start = self._closure(1)
        self._steps: dict[tuple[int, str], int] = {}
        self._singles: dict[str, int] = {}  # character → tokens matching it as one character
        self._head, self._needle = _literal_runs(tokens)

    def _closure(self, states: int) -> int:
        """`states` plus what wildcards and skips reach by matching nothing."""
        while True:
            reached = ((states & self._empty) << 1 | (states & self._skip) << 3) & ~states
            if not reached:
                return states
            states |= reached

    def _step(self, states: int, ch: str) -> int:
        """The states after reading `ch` in `states`."""
        single = self._singles.get(ch)
        if single is None:
            single = self._literals.get(ch, 0)
            if ch != "/":
                single |= self._one
                for bit, members in self._classes:
                    if ch in members:
                        single |= bit
            if len(self._singles) < _MAX_STEPS:
                self._singles[ch] = single
        out = (states & single) << 1 | states & self._any
        if ch != "/":
            out |= states & self._star
        if states & self._tail or (states & self._end_bit and ch == "/"):
            out |= self._tail
        return self._closure(out)

    def match(self, path: str) -> bool:
        """True when `path` (normalised, repo-relative) or a folder above it matches."""
        if not path.startswith(self._head) or self._needle not in path:
            return False
        states = self._start
        steps = self._steps
        for ch in path:
            key = (states, ch)
            following = steps.get(key)
            if following is None:
                following = self._step(states, ch)
                if len(steps) < _MAX_STEPS:
                    steps[key] = following
            states = following
            if not states:
                return False
            if states == self._tail:
                return True
        return bool(states & self._accept)


def _literal_runs(tokens: list[tuple[int, object]]) -> tuple[str, str]:
    """(the literal head of an anchored pattern, its longest literal run).

    Most paths miss most patterns; these reject them without running the automaton: an
    anchored pattern's head starts every path it matches, and every literal run of a pattern
    appears in every path it matches (the `/` of a skippable `**/` is not always there).
    """
    runs = [""]
    optional: set[int] = set()
    for i, (kind, value) in enumerate(tokens):
        if kind == _LIT and i not in optional:
            runs[-1] += value  # type: ignore[operator]
        else:
            runs.append("")
            if kind == _SKIP:
                optional.add(i + value - 1)  # type: ignore[operator]
    head = runs[0] if tokens and tokens[0][0] == _LIT else ""
    return head, max(runs, key=len)


def problem(pattern: str) -> str | None:
    """Why `pattern` (without its leading `!`) cannot be matched, or None when it can."""
    try:
        compile_glob(pattern)
    except BadPattern as exc:
        return str(exc)
    return None


@lru_cache(maxsize=1024)
def compile_glob(pattern: str) -> Glob:
    """The matcher of `pattern` for repo-relative POSIX paths. Raises BadPattern."""
    if len(pattern) > MAX_PATTERN:
        raise BadPattern(f"it is longer than {MAX_PATTERN} characters")
    glob = pattern.rstrip("/") if pattern not in ("/", "") else pattern
    if glob.startswith("./"):
        glob = "/" + normalise_path(glob)  # `./x` means x at the root, as `/x` does
    anchored = glob.startswith("/") or "/" in glob
    glob = glob.lstrip("/")
    if not glob:
        raise BadPattern("it is empty, so it names no path")
    tokens = _tokens(glob)
    if sum(kind == _CLASS for kind, _ in tokens) > MAX_CLASSES:
        raise BadPattern(f"it has more than {MAX_CLASSES} [...] classes")
    return Glob(tokens if anchored else [*_DIRS, *tokens])


def normalise_path(path: str) -> str:
    """A repo-relative POSIX path without a leading `./` or `/`."""
    path = path.replace("\\", "/").strip()
    while path.startswith("./"):
        path = path[2:]
    return path.lstrip("/")


def _matcher(pattern: str) -> Glob | None:
    try:
        return compile_glob(pattern)
    except BadPattern:
        return None


@rebuilt_by_init
@dataclass(frozen=True, slots=True)
class Affects:
    """The compiled `affects` list of one record."""

    patterns: tuple[str, ...]
    _compiled: tuple[tuple[bool, Glob], ...] | None = field(
        default=None, init=False, repr=False, compare=False)

    def _globs(self) -> tuple[tuple[bool, Glob], ...]:
        # Compiled on first match: loading 10,000 records should not pay for globs that
        # only records_for_paths reads.
        if self._compiled is None:
            compiled = []
            for pattern in self.patterns:
                negative = pattern.startswith("!")
                glob = _matcher(pattern[1:] if negative else pattern)
                if glob is not None:
                    compiled.append((negative, glob))
            object.__setattr__(self, "_compiled", tuple(compiled))
        assert self._compiled is not None
        return self._compiled

    def matches(self, path: str) -> bool:
        """True when a positive pattern matches `path` and no `!` pattern matches it.

        Patterns that cannot be matched (see `problems`) are left out.
        """
        path = normalise_path(path)
        if not path or len(path) > MAX_PATH:
            return False
        hit = False
        for negative, glob in self._globs():
            if negative:
                if glob.match(path):
                    return False
            elif not hit and glob.match(path):
                hit = True
        return hit

    def problems(self) -> list[tuple[int, str]]:
        """(index, reason) of every pattern that cannot be matched and so matches nothing."""
        out = []
        for index, pattern in enumerate(self.patterns):
            reason = problem(pattern[1:] if pattern.startswith("!") else pattern)
            if reason is not None:
                out.append((index, reason))
        return out
