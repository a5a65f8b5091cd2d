"""A record page as GitHub would show its body, checked in headless Chromium.

Two-space nested lists nest, Markdown inside `<details>` renders, alerts are callouts, a
title's inline code is code, the body sits alone in the one `data-body` element, and long
words and URLs wrap instead of widening the page, at 390 and 1280 px.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from site_builder.render.site import build_site
from tests import browsers

LONG_WORD = "Donaudampfschifffahrtsgesellschaftskapitän" * 4
LONG_URL = "https://example.com/" + "very-long-path-segment-" * 12 + "end"
BODY = f"""\
## Context

- first
  - nested by two spaces
    - and again

<details>
<summary>More</summary>

Markdown **inside** details.

</details>

> [!WARNING]
> Mind the gap.

A long word: {LONG_WORD}. A long URL: {LONG_URL} and [linked]({LONG_URL}).

`{LONG_WORD}`

| column | another |
|---|---|
| {LONG_WORD} | {LONG_URL} |
"""


@pytest.fixture(scope="module")
def record_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("layout")
    (root / "site.yml").write_text("title: Layout\n")
    folder = root / "content" / "web" / "adr"
    folder.mkdir(parents=True)
    (folder.parent / "_project.yml").write_text("name: Web\n")
    (folder / "0001-use-input.md").write_text(
        "---\ntitle: Use `--input` for " + LONG_WORD + "\nstatus: accepted\n"
        "date: 2026-12-01\ndescription: A page with long words.\n---\n" + BODY)
    build_site(root, jobs=1)
    with browsers.serving(root / "_site") as address:
        yield f"{address}web/adr/0001-use-input/"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with browsers.chromium() as chromium:
        yield chromium


@pytest.mark.parametrize("width", [390, 1280])
def test_long_words_and_urls_wrap(browser: Browser, record_url: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(record_url)
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"the page is {scroll_width} px wide at {width} px"
    context.close()


def test_the_body_renders_as_on_github(browser: Browser, record_url: str) -> None:
    page = browser.new_page()
    page.goto(record_url)
    assert page.locator("[data-body]").count() == 1
    body = page.locator("[data-body]")
    assert body.locator("ul ul ul li").inner_text() == "and again"
    assert body.locator("details strong").text_content() == "inside"  # closed: not shown
    assert body.locator(".markdown-alert-warning .markdown-alert-title").inner_text() == "Warning"
    assert "[!WARNING]" not in body.inner_text()
    assert page.locator("h1 code").inner_text() == "--input"
    # The body alone: its first child is the body's first heading, nothing of the page's own.
    assert body.evaluate("e => e.firstElementChild.id") == "context"
    page.close()
