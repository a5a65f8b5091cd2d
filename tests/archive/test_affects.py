"""`affects` globs (SPEC §3.3), matched the way .gitignore and CODEOWNERS match paths."""

from __future__ import annotations

import pytest

from site_builder.archive.affects import Affects


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
