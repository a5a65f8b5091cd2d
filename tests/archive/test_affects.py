"""`affects` globs, matched the way .gitignore and CODEOWNERS match paths."""

from __future__ import annotations

import pytest

from site_builder.archive.affects import Affects
from tests.conftest import edit_text


@pytest.mark.parametrize(("patterns", "path", "matches"), [
    # a name with no `/` matches at any depth
    (["*.tf"], "main.tf", True),
    (["*.tf"], "infra/modules/vpc/main.tf", True),
    (["*.tf"], "main.tf.bak", False),
    (["Dockerfile"], "services/api/Dockerfile", True),
    # `*` and `?` never cross `/`
    (["src/*.py"], "src/app.py", True),
    (["src/*.py"], "src/pkg/app.py", False),
    (["src/?.py"], "src/a.py", True),
    (["src/?.py"], "src/ab.py", False),
    # `**` spans folders
    (["src/**/*.py"], "src/app.py", True),
    (["src/**/*.py"], "src/a/b/c/app.py", True),
    (["**/migrations/*.sql"], "db/migrations/0001.sql", True),
    (["**/migrations/*.sql"], "migrations/0001.sql", True),
    (["docs/**"], "docs/a/b.md", True),
    (["docs/**"], "other/docs/a.md", False),
    # a pattern with a `/` inside, or a leading `/`, is anchored at the repository root
    (["/build"], "build/out.js", True),
    (["/build"], "web/build/out.js", False),
    (["site_builder/mcp"], "site_builder/mcp/server.py", True),
    (["site_builder/mcp"], "vendor/site_builder/mcp/server.py", False),
    (["./scripts"], "scripts/run.sh", True),
    (["./scripts"], "tools/scripts/run.sh", False),
    # a folder pattern (trailing `/`) matches everything below it, at any depth without `/`
    (["infra/"], "infra/main.tf", True),
    (["infra/"], "team/infra/main.tf", True),
    (["infra/"], "infrastructure/main.tf", False),
    (["/infra/"], "team/infra/main.tf", False),
    # character classes
    (["v[0-9].txt"], "v1.txt", True),
    (["v[!0-9].txt"], "vx.txt", True),
    (["v[!0-9].txt"], "v1.txt", False),
    # paths are normalised
    (["src/app.py"], "./src/app.py", True),
    (["src/app.py"], "/src/app.py", True),
    (["src/app.py"], "src\\app.py", True),
    (["*"], "", False),
    ([], "anything", False),
])
def test_globs(patterns: list[str], path: str, matches: bool) -> None:
    assert Affects(tuple(patterns)).matches(path) is matches


@pytest.mark.parametrize(("path", "matches"), [
    ("infra/main.tf", True),
    ("infra/network/vpc.tf", True),
    ("infra/legacy/old.tf", False),        # excluded
    ("infra/legacy/README.md", False),
    ("modules/db/main.tf", True),          # *.tf matches at any depth
    ("modules/db/generated.tf", False),    # ...but this name is excluded everywhere
    ("docs/infra.md", False),
])
def test_exclusion_applies_to_the_same_path(path: str, matches: bool) -> None:
    affects = Affects(("infra/**", "*.tf", "!infra/legacy/", "!generated.tf"))
    assert affects.matches(path) is matches


def test_order_of_patterns_does_not_matter() -> None:
    """Unlike .gitignore, an exclusion wins wherever it is written."""
    first = Affects(("!infra/legacy/**", "infra/**"))
    last = Affects(("infra/**", "!infra/legacy/**"))
    for path in ("infra/legacy/x", "infra/new/x"):
        assert first.matches(path) is last.matches(path)


def test_only_exclusions_match_nothing() -> None:
    assert Affects(("!secret.txt",)).matches("README.md") is False


# ---- hostile patterns -------------------------------------------------------------------------

STARRY = "**a**a**a**a**a**a**a**a**a**b"


@pytest.mark.parametrize("path", ["a" * 4000, "a/" * 2000, ("a" * 200 + "/") * 20 + "c",
                                  "a" * 4095 + "b"])
def test_stars_against_long_paths_follow_the_glob_without_backtracking(path: str) -> None:
    # A backtracking regex takes longer than the age of the universe on these; the matcher
    # takes one step per character. (Speed itself is for `make bench`; the answers are
    # checked here, and a blow-up would hang the test run.)
    expected = path.endswith("b")
    assert Affects((STARRY,)).matches(path) is expected
    assert Affects(("*a*a*a*a*a*a*a*a*a*a*a*b",)).matches(path) is (
        expected and "/" not in path)


@pytest.mark.parametrize(("patterns", "path", "matches"), [
    ([STARRY], "xaxaxaxaxaxaxaxaxab", True),
    ([STARRY], "a/a/a/a/a/a/a/a/a/b", True),       # `**` spans folders
    (["*a*a*b"], "x/yayab", True),                  # a name at any depth
    (["*a*a*b"], "a/a/b", False),
    (["src/*a*a*b"], "src/a/a/b", False),           # `*` never crosses `/`
    (["a**/x"], "ax", True),                        # `**/` may stand for nothing
    (["a**/x"], "a/b/x", True),
    (["[]x]"], "]", True),                          # `]` first in a class is a member
    (["v[!0-9]"], "v/", False),                     # a class never matches `/`
    (["a[b"], "a[b", True),                         # an unclosed `[` is a literal
])
def test_edge_cases(patterns: list[str], path: str, matches: bool) -> None:
    assert Affects(tuple(patterns)).matches(path) is matches


@pytest.mark.parametrize(("pattern", "reason"), [
    ("[z-a]", "the range z-a in [...] is reversed"),
    ("src/[9-0].py", "the range 9-0 in [...] is reversed"),
    ("!docs/[b-a]/**", "the range b-a in [...] is reversed"),
    ("/", "it is empty, so it names no path"),
    ("", "it is empty, so it names no path"),
    ("a" * 1025, "it is longer than 1024 characters"),
    ("[a]" * 17, "it has more than 16 [...] classes"),
])
def test_bad_patterns_are_reported_and_match_nothing(pattern: str, reason: str) -> None:
    affects = Affects((pattern, "docs/**"))
    assert affects.problems() == [(0, reason)]
    assert affects.matches("docs/a.md") is True  # a bad exclusion excludes nothing
    assert affects.matches("src/9.py") is False


def test_check_reports_a_bad_pattern_at_its_line(fixture_archive) -> None:
    from site_builder.sources.load import load_archive

    root = fixture_archive("mcp-lineage")
    record = root / "content" / "core" / "adr" / "0001-use-postgres.md"
    edit_text(record, 'affects: ["db/**"]', 'affects:\n  - db/**\n  - "[z-a]"')
    found = [(f.path, f.line, f.level, f.message) for f in load_archive(root).findings
             if "affects" in f.message]
    assert found == [(record, 10, "error", "affects pattern '[z-a]' cannot be used: "
                                          "the range z-a in [...] is reversed")]
