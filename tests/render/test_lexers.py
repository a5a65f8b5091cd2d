"""Pygments lexers whose patterns come from the machine's cache highlight as Pygments does.

A lexer's patterns are compiled once per process, so each case that needs a fresh process
(no lexer made yet) runs one, with its own machine cache.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from site_builder.render.markdown import lexers

ROOT = Path(__file__).resolve().parents[2]
SNIPPETS = {
    "python": "def f(x: int) -> str:\n    return f'{x!r}'  # note\n",
    "sql": "SELECT id, COUNT(*) FROM t WHERE a = 'x' GROUP BY id;\n",
    "bash": "for f in *.md; do echo \"$f\" | wc -l; done\n",
    "typescript": "export const f = async (x: number): Promise<string> => `${x}`;\n",
}

_OURS = """
import html, json, sys
from site_builder.render.markdown.highlight import highlight_block
print(json.dumps({lang: highlight_block(lang, html.escape(code))
                  for lang, code in json.loads(sys.argv[1]).items()}))
"""
_PYGMENTS = """
import json, sys
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
formatter = HtmlFormatter(cssclass="highlight", wrapcode=True)
print(json.dumps({lang: highlight(code, get_lexer_by_name(lang), formatter)
                  for lang, code in json.loads(sys.argv[1]).items()}))
"""


def _run(code: str, cache: Path) -> dict[str, str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code, json.dumps(SNIPPETS)], env=env,
                          capture_output=True, text=True, check=True)
    result: dict[str, str] = json.loads(done.stdout)
    return result


def _kept(cache: Path) -> list[Path]:
    return sorted(cache.glob("site-builder/*/lexers/*/*.marshal"))


def test_highlighting_is_pygments_own_with_an_empty_and_with_a_filled_cache(tmp_path: Path):
    cache = tmp_path / "machine"
    expected = _run(_PYGMENTS, tmp_path / "unused")
    assert _run(_OURS, cache) == expected  # compiled by re, the programs kept
    kept = _kept(cache)
    assert {path.name.split(".")[-2] for path in kept} >= {"PythonLexer", "SqlLexer",
                                                           "BashLexer", "TypeScriptLexer"}
    before = {path: path.read_bytes() for path in kept}
    assert _run(_OURS, cache) == expected  # made from the kept programs
    assert {path: path.read_bytes() for path in _kept(cache)} == before  # nothing to add


def test_every_kept_program_makes_the_pattern_re_compiles(tmp_path: Path):
    cache = tmp_path / "machine"
    _run(_OURS, cache)
    programs = [program for path in _kept(cache) for program in lexers._read(path).items()]
    assert len(programs) > 100
    for (regex, flags), program in programs:
        assert lexers._sre.compile(*program) == re.compile(regex, flags)


def test_a_damaged_cache_file_is_compiled_again_and_replaced(tmp_path: Path):
    cache = tmp_path / "machine"
    expected = _run(_OURS, cache)
    damaged = next(path for path in _kept(cache) if "PythonLexer" in path.name)
    damaged.write_bytes(b"not a marshal dump")
    assert _run(_OURS, cache) == expected
    assert len(lexers._read(damaged)) > 10


def test_a_program_the_engine_refuses_is_compiled_by_re():
    regex, flags = r"(?P<word>\w+)\s*=", re.MULTILINE
    program = lexers._program(regex, flags)
    assert program is not None and lexers._same(program, re.compile(regex, flags))
    broken = (*program[:2], [9999, 1, 2], *program[3:])
    kept: lexers.Programs = {(regex, flags): broken}  # type: ignore[dict-item]
    made: lexers.Programs = {}
    assert lexers._pattern(kept, made, regex, flags) == re.compile(regex, flags)
    assert made == {(regex, flags): program}


def _texts(language: str, count: int) -> list[str]:
    """Random texts of the characters code is made of, and one of every snippet joined."""
    import random

    chance = random.Random(language)
    alphabet = "abcdefxyz_ 0123456789\n\t'\"`{}()[]<>=+-*/\\#$%&|;:,.!?@^~"
    texts = ["".join(chance.choice(alphabet) for _ in range(chance.randint(0, 300)))
             for _ in range(count)]
    return [*texts, *SNIPPETS.values(), "\n".join(SNIPPETS.values())]


def test_joined_rules_find_the_tokens_pygments_finds():
    from pygments.lexers import get_lexer_by_name

    joined = 0
    for language in ("python", "sql", "bash", "typescript", "go", "javascript", "c", "rust",
                     "html", "css", "toml", "diff", "ruby", "java"):
        ours, theirs = lexers.lexer(language), get_lexer_by_name(language)
        assert type(ours) is type(theirs)
        joined += "get_tokens_unprocessed" in vars(ours)
        for text in _texts(language, 60):
            assert list(ours.get_tokens(text)) == list(theirs.get_tokens(text)), text
    assert joined >= 10  # the lexers that keep RegexLexer's loop use the joined one


def test_a_rule_that_counts_groups_or_sets_its_own_flags_is_tried_alone():
    from site_builder.render.markdown import lexing

    def rule(regex: str, flags: int = re.MULTILINE) -> tuple[object, None, None]:
        return re.compile(regex, flags).match, None, None

    rules = [rule(r"a+"), rule(r"b+"), rule(r"(['\"]).*?\1"), rule(r"(?i)c"), rule(r"d"),
             rule(r"e", re.VERBOSE), rule(r"f"), rule(r"g")]
    steps = lexing._tries(rules, lambda regex, flags: re.compile(regex, flags))
    assert [len(step[1]) if len(step) == 2 else step for step in steps] == [
        2, rules[2], rules[3], rules[4], rules[5], 2]
