"""Hostile text: cmark-gfm's pathological inputs as record bodies, built and
checked by the real command line with either renderer. No traceback, ever; Python-Markdown
refuses what it cannot render in bounded time, one line at the file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.render.pathological import inputs

# A hang guard, not a speed test (bench measures speed): far above the seconds each takes.
GUARD = 300


@pytest.fixture(scope="module")
def hostile_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    (root / "site.yml").write_text("title: Hostile text\n")
    folder = root / "content" / "hostile" / "adr"
    folder.mkdir(parents=True)
    (folder.parent / "_project.yml").write_text("name: Hostile\n")
    for number, (name, body) in enumerate(inputs().items(), start=1):
        front = (f"---\ntitle: {name}\nstatus: accepted\ndate: 2026-12-01\n"
                 f"description: cmark-gfm's pathological input '{name}'.\n---\n")
        # newline="": the bodies hold carriage returns, which must reach the renderer as is.
        with (folder / f"{number:04d}-{name}.md").open("w", encoding="utf-8", newline="") as f:
            f.write(front + body)
    return root


def _body(page: Path) -> str:
    """The rendered body of a record page: what its `data-body` element holds."""
    return page.read_text(encoding="utf-8").split("data-body>", 1)[1].split("</div>\n", 1)[0]


def _site(root: Path, renderer: str) -> Path:
    (root / "site.yml").write_text(f"title: Hostile text\nmarkdown: {renderer}\n")
    return root


def test_every_input_checks_and_builds_with_gfm(hostile_root: Path) -> None:
    root = _site(hostile_root, "gfm")
    check = run_cli("check", "--root", str(root), timeout=GUARD)
    assert check.returncode == 0, check.stderr
    build = run_cli("build", "--root", str(root), "--force", timeout=GUARD)
    assert build.returncode == 0, build.stderr
    assert "Traceback" not in check.stderr + build.stderr
    pages = sorted((root / "_site" / "hostile" / "adr").glob("*/index.html"))
    assert len(pages) == len(inputs())
    lists = _body(root / "_site/hostile/adr/0014-deeply-nested-lists/index.html")
    assert 0 < lists.count("<ul>") <= 100  # nesting bounded…
    assert re.sub(r"<[^>]*>", "", lists).split() == ["a"] * 1_000  # …every item's text kept
    quotes = _body(root / "_site/hostile/adr/0013-nested-block-quotes/index.html")
    assert 0 < quotes.count("<blockquote>") <= 100 and ">a</p>" in quotes


def test_python_markdown_refuses_what_it_cannot_render_in_bounded_time(
        hostile_root: Path) -> None:
    root = _site(hostile_root, "python-markdown")
    check = run_cli("check", "--root", str(root), timeout=GUARD)
    assert check.returncode == 1
    assert "Traceback" not in check.stderr
    refused = [line for line in check.stderr.splitlines() if "Python-Markdown cannot" in line]
    names = {Path(line.split(":", 1)[0]).stem.split("-", 1)[1] for line in refused}
    # Everything but the three small or linear inputs, each once, at its own file.
    assert len(refused) == len(names) == len(inputs()) - 3
    assert names.isdisjoint({"hard-link-emph-case", "nul-in-input", "tables"})
    build = run_cli("build", "--root", str(root), timeout=GUARD)
    assert build.returncode == 1 and "Traceback" not in build.stderr
    assert "Python-Markdown cannot" in build.stderr
