"""`serve` answers before its first build is done: pages made on demand meanwhile are the
bytes the build writes, and a save made while the first build runs is not lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import make_corpus
from tests.conftest import run_cli
from tests.serve.conftest import DEADLINE, Serving, save

RECORDS = 1500  # enough for the first build to take seconds: the first answers come before
SCRIPT = b'<script src="/__site-builder__/reload.js'
MADE = "x-site-builder-made"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("first-page") / "site"
    make_corpus.generate(str(root), RECORDS, 20240601)
    return root


def _without_script(page: bytes) -> bytes:
    """A page as served, less the live-reload script serve adds."""
    at = page.find(SCRIPT)
    if at < 0:
        return page
    return page[:at] + page[page.index(b"\n", at) + 1:]


def _first_record(root: Path) -> Path:
    return sorted((root / "content").glob("*/adr/*.md"))[0]


def test_pages_made_on_demand_are_the_bytes_the_build_writes(corpus: Path,
                                                             tmp_path: Path) -> None:
    record = _first_record(corpus).relative_to(corpus / "content").with_suffix("")
    wanted = [f"{record.as_posix()}/index.html", f"{record.as_posix()}.md", "index.html",
              f"{record.parts[0]}/index.html", "decisions.json", "llms.txt"]
    server = Serving(corpus)
    try:
        answers = {rel: server.get("/" + rel) for rel in wanted}
        server.wait_for("the first build", lambda: any(
            "built" in line for line in server.stderr), timeout=DEADLINE * 20)
    finally:
        assert server.stop() == 0
    assert any(a.headers.get(MADE) == "on-demand" for a in answers.values())
    assert run_cli("build", "--root", str(corpus), "--output", str(tmp_path / "out"),
                   timeout=600).returncode == 0
    for rel, answer in answers.items():
        assert answer.status == 200, rel
        assert _without_script(answer.body) == (tmp_path / "out" / rel).read_bytes(), rel


def test_a_save_during_the_first_build_is_not_lost(corpus: Path) -> None:
    path = _first_record(corpus)
    page = "/" + path.relative_to(corpus / "content").with_suffix("").as_posix() + "/"
    server = Serving(corpus)
    try:
        first = server.get(page)
        assert first.status == 200
        save(path, path.read_text(encoding="utf-8").replace("\n## ", "\nsaved-early\n\n## ", 1))
        server.wait_for("the early save on its page", lambda: b"saved-early" in server.get(
            page).body, timeout=DEADLINE * 20)
        assert server.problems() == []
    finally:
        assert server.stop() == 0
