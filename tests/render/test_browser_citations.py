"""A record page's "Cited in code" list in headless Chromium: links to the lines, and long
paths that wrap rather than widen the page, at 390 and 1280 px."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from site_builder.render.site import build_site
from tests import browsers
from tests.citing import REPO_URL, git, make_repository

LONG = "src/" + "a_rather_long_folder_name/" * 8 + "module.py"


@pytest.fixture(scope="module")
def record_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = make_repository(tmp_path_factory.mktemp("cited") / "shop")
    (root.parent / LONG).parent.mkdir(parents=True)
    (root.parent / LONG).write_text("\n# PAY-ADR-0002\n")
    git(root.parent, "add", LONG)
    git(root.parent, "commit", "-q", "-m", "a long path")
    build_site(root, jobs=1)
    with browsers.serving(root / "_site") as address:
        yield f"{address}pay/adr/0002-use-stripe/"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with browsers.chromium() as chromium:
        yield chromium


@pytest.mark.parametrize("width", [390, 1280])
def test_cited_in_code_links_each_line_and_wraps(browser: Browser, record_url: str,
                                                 width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(record_url)
    links = page.locator(".cited a")
    assert links.count() == 3
    last = links.nth(0)  # sorted by path: src/a_rather… before src/billing.py
    assert last.inner_text() == f"{LONG}:2"
    assert last.get_attribute("href") == f"{REPO_URL.removesuffix('decisions/')}{LONG}#L2"
    assert last.is_visible()
    box = last.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width  # wrapped, not cut off
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"the page is {scroll_width} px wide at {width} px"
    context.close()
