"""In a real browser: an open page reloads itself after an edit on disk, shows the overlay
while the archive is broken, and drops it once the file is fixed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import browsers
from tests.serve.conftest import DEADLINE, Serving, save

RECORD = "content/demo/adr/0001-write-records-in-markdown.md"
PAGE = "demo/adr/0001-write-records-in-markdown/"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with browsers.chromium() as launched:
        yield launched


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    opened = browser.new_page()
    opened.set_default_timeout(DEADLINE * 1000)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda message: errors.append(message.text)
              if "Content Security Policy" in message.text else None)
    yield opened
    opened.close()
    assert errors == []  # no script error, no Content-Security-Policy violation


def test_an_open_page_reloads_itself_after_an_edit(page: Page, serving: Serving,
                                                   site: Path) -> None:
    page.goto(serving.address + PAGE)
    expect(page.locator("body")).to_contain_text("Write every record in Markdown.")
    page.evaluate("window.notReloadedYet = true")

    path = site / RECORD
    save(path, path.read_text().replace("Write every record in Markdown.",
                                        "Write every record in CommonMark."), atomic=True)
    expect(page.locator("body")).to_contain_text("Write every record in CommonMark.")
    assert page.evaluate("window.notReloadedYet") is None


def test_the_overlay_shows_while_the_archive_is_broken(page: Page, serving: Serving,
                                                       site: Path) -> None:
    page.goto(serving.address + PAGE)
    overlay = page.locator("#site-builder-problems")
    expect(overlay).to_have_count(0)

    path = site / RECORD
    good = path.read_text()
    save(path, good.replace("date: 2026-01-10", "date: 2026-13-45"))
    expect(overlay).to_contain_text(f"{RECORD}:4: error: 'date' is not a real date")
    expect(page.locator("body")).to_contain_text("Write every record in Markdown.")

    save(path, good.replace("Write every record in Markdown.", "Fixed at last."))
    expect(page.locator("body")).to_contain_text("Fixed at last.")
    expect(overlay).to_have_count(0)

