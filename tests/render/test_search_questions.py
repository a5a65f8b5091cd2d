"""The question set (tests/fixtures/search-questions.json) through the site and through MCP:
the same first records everywhere, and the answering record in the top 3 for ≥ 90 %."""

# ruff: noqa: F811 -- the fixtures of test_browser.py are imported and then taken as arguments

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from bench.http_site import StaticServer
from bench.search_quality import ARCHIVES, TOP, Question, questions, rates, site_answers
from site_builder.render.site import build_site
from tests.mcp.client import mcp_client
from tests.render.test_browser import browser  # noqa: F401 (fixture)

ASKED = questions()


def test_the_set_is_large_and_a_third_is_answered_only_in_bodies() -> None:
    assert len(ASKED) >= 30
    assert sum(q.kind == "body" for q in ASKED) * 3 >= len(ASKED)
    assert {q.archive for q in ASKED} == set(ARCHIVES)


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[Path, str]]]:
    """Each archive built and served: name → (archive root, site URL)."""
    work = tmp_path_factory.mktemp("questions")
    servers, out = [], {}
    for name, source in ARCHIVES.items():
        root = work / name
        shutil.copytree(source, root, ignore=shutil.ignore_patterns("_site", ".site-builder"))
        server = StaticServer(build_site(root, jobs=1, cache=False).output)
        servers.append(server)
        out[name] = (root, server.url)
    yield out
    for server in servers:
        server.close()


def mcp_answers(args: list[str], asked: list[Question]) -> list[list[str]]:
    with mcp_client(*args) as session:
        return [[r["id"] for r in session.answer("search_records", query=q.text,
                                                 limit=TOP)["records"]] for q in asked]


def test_site_and_both_mcp_modes_give_the_same_first_records(
        published: dict[str, tuple[Path, str]], browser: Browser) -> None:
    page = browser.new_page()
    found: dict[str, list[list[str]]] = {"local": [], "remote": [], "site": []}
    order: list[Question] = []
    for name, (root, url) in published.items():
        mine = [q for q in ASKED if q.archive == name]
        found["local"] += mcp_answers(["--root", str(root)], mine)
        found["remote"] += mcp_answers(["--url", url], mine)
        found["site"] += site_answers(page, url, mine)
        order += mine
    page.close()
    for i, question in enumerate(order):
        assert found["site"][i] == found["local"][i] == found["remote"][i], question.text
    for path, answers in found.items():
        measured = rates(order, answers)
        assert measured.top3 * 10 >= measured.questions * 9, (path, measured.text())
