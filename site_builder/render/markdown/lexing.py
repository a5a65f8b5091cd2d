"""A Pygments RegexLexer's tokens found with one regular expression per state.

Pygments' RegexLexer tries the rules of the current state one after the other, a call of
`Pattern.match` from Python each, until one matches: about sixteen calls for every token of
the bench corpus's code, most of the time highlighting takes (0.6 ms of a block's 0.7). The
same choice is made by one pattern per state, the rules' patterns as alternatives in their
order, each in a group of its own: at a position, the engine tries the alternatives left to
right and takes the first that matches, as the loop does, and the group that matched
(`lastindex`: a rule's outer group closes after any of its own) says which rule it was. The
rule's own pattern then matches again, so its action sees the very match it always saw.

`tokens` is that loop, Pygments' own in every other respect (the state transitions, the
reset at a line end, the error token), used only by lexers that keep RegexLexer's. Each run
of neighbouring rules that can be joined is joined; a rule that cannot (a back reference
or a conditional, whose group numbers would shift; flags of its own or verbose ones; a run
that does not compile joined) is tried alone, in its place, as Pygments tries it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

# Rules whose patterns are not joined: numbered back references and conditionals count
# groups, which joining renumbers (a named one is found by name and stays right).
_COUNTS_GROUPS = re.compile(r"\\[1-9]|\(\?\(")

Compile = Callable[[str, int], "re.Pattern[str] | None"]
Rule = tuple[Any, Any, Any]
# One step of trying a state's rules: a run of them joined (the joined pattern's match, and
# by the number of each rule's outer group, the rule), or one rule alone.
Joined = tuple[Callable[[str, int], "re.Match[str] | None"], dict[int, Rule]]
Try = Joined | Rule
# A pattern that sets flags for the whole of itself (`(?i)...`) keeps them only at the start.
_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")


def speed_up(lexer: Any, compile_pattern: Compile) -> None:
    """Make `lexer` (a Pygments lexer just made) find its tokens with `tokens`, when it lexes
    as RegexLexer does; patterns are compiled by `compile_pattern(regex, flags)` (None when
    one cannot be)."""
    from pygments.lexer import RegexLexer

    kind = type(lexer)
    if kind.get_tokens_unprocessed is not RegexLexer.get_tokens_unprocessed:
        return
    tokendefs = kind._tokens
    tries = {state: _tries(rules, compile_pattern) for state, rules in tokendefs.items()}
    lexer.get_tokens_unprocessed = partial(tokens, lexer, tokendefs, tries)


def _tries(rules: list[Rule], compile_pattern: Compile) -> list[Try]:
    """The state's rules in their order, each run of neighbours that can be joined (the same
    flags, nothing that counts groups) joined into one pattern."""
    out: list[Try] = []
    run: list[tuple[re.Pattern[str], Rule]] = []
    for rule in [*rules, None]:
        pattern = getattr(rule[0], "__self__", None) if rule is not None else None
        joinable = (isinstance(pattern, re.Pattern) and isinstance(pattern.pattern, str)
                    and not pattern.flags & re.VERBOSE
                    and not _COUNTS_GROUPS.search(pattern.pattern)
                    and not _GLOBAL_FLAGS.match(pattern.pattern))
        if run and (not joinable or pattern is None or pattern.flags != run[0][0].flags):
            out.extend(_join(run, compile_pattern))
            run = []
        if joinable and rule is not None and pattern is not None:
            run.append((pattern, rule))
        elif rule is not None:
            out.append(rule)
    return out


def _join(run: list[tuple[re.Pattern[str], Rule]], compile_pattern: Compile) -> list[Try]:
    """The run's rules as one step, or one step each when they cannot be joined."""
    if len(run) < 2:
        return [rule for _, rule in run]
    by_group: dict[int, Rule] = {}
    group = 1
    for pattern, rule in run:
        by_group[group] = rule
        group += 1 + pattern.groups
    joined = compile_pattern("|".join(f"({p.pattern})" for p, _ in run), run[0][0].flags)
    if joined is None or joined.groups != group - 1:
        return [rule for _, rule in run]
    return [(joined.match, by_group)]


def tokens(lexer: Any, tokendefs: dict[str, list[Rule]], tries: dict[str, list[Try]], text: str,
           stack: tuple[str, ...] = ("root",)) -> Iterator[tuple[int, Any, str]]:
    """RegexLexer.get_tokens_unprocessed, a rule found by its state's joined pattern."""
    from pygments.token import Error, Whitespace, _TokenType

    pos = 0
    statestack = list(stack)
    statetokens = tokendefs[statestack[-1]]
    steps = tries[statestack[-1]]
    while True:
        rule, m = _first(steps, statetokens, text, pos)
        if rule is None or m is None:
            try:
                if text[pos] == "\n":  # at a line end, back to the root state
                    statestack = ["root"]
                    statetokens = tokendefs["root"]
                    steps = tries["root"]
                    yield pos, Whitespace, "\n"
                    pos += 1
                    continue
                yield pos, Error, text[pos]
                pos += 1
            except IndexError:
                break
            continue
        _, action, new_state = rule
        if action is not None:
            if type(action) is _TokenType:
                yield pos, action, m.group()
            else:
                yield from action(lexer, m)
        pos = m.end()
        if new_state is not None:
            _transition(statestack, new_state)
            statetokens = tokendefs[statestack[-1]]
            steps = tries[statestack[-1]]


def _first(steps: list[Try], statetokens: list[Rule], text: str,
           pos: int) -> tuple[Rule | None, re.Match[str] | None]:
    """The first rule of the state that matches at `pos`, and its match (None, None)."""
    for step in steps:
        if len(step) == 2:  # joined rules
            hit = step[0](text, pos)
            if hit is None:
                continue
            rule = step[1].get(hit.lastindex or 0)
            m = rule[0](text, pos) if rule is not None else None
            if rule is None or m is None:  # never, as the engine works: Pygments' loop decides
                break
            return rule, m
        m = step[0](text, pos)
        if m:
            return step, m
    else:
        return None, None
    for rule in statetokens:
        m = rule[0](text, pos)
        if m:
            return rule, m
    return None, None


def _transition(statestack: list[str], new_state: Any) -> None:
    """RegexLexer's change of state after a rule (`new_state` as its rule gives it)."""
    if isinstance(new_state, tuple):
        for state in new_state:
            if state == "#pop":
                if len(statestack) > 1:
                    statestack.pop()
            elif state == "#push":
                statestack.append(statestack[-1])
            else:
                statestack.append(state)
    elif isinstance(new_state, int):
        # Pop, but keep at least one state on the stack.
        if abs(new_state) >= len(statestack):
            del statestack[1:]
        else:
            del statestack[new_state:]
    elif new_state == "#push":
        statestack.append(statestack[-1])
    else:
        raise ValueError(f"wrong state def: {new_state!r}")
