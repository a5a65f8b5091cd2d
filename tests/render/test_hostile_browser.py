"""No script runs on the site's origin, seen by real headless Chromium.

A record links a hostile SVG and carries hostile links; the built site is served on
127.0.0.1 and Chromium opens the record page and the published SVG itself (an SVG document
runs its scripts when opened), reads every link and image of the body with its own URL parser
and clicks every link whose target was dropped. Any `alert` is a failure.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from site_builder.render.site import build_site
from tests import browsers
from tests.render.test_hostile_attachments import EVIL_SVG, HOSTILE_LINKS, RECORD
from tests.sources.conftest import make_archive, record_text


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    root = make_archive(tmp_path / "site")
    body = "\n\n".join(["![drawing](drawing.svg) [open it](drawing.svg)", *HOSTILE_LINKS])
    (root / RECORD).write_text(record_text("Local choice") + "\n" + body + "\n")
    (root / RECORD).parent.joinpath("drawing.svg").write_bytes(EVIL_SVG)
    output = build_site(root, jobs=1, cache=False).output
    with browsers.serving(output) as address:
        yield address


def test_no_alert_from_the_page_the_svg_or_any_link(served: str) -> None:
    alerts: list[str] = []
    with sync_playwright() as playwright:
        browser = browsers.launch(playwright)
        try:
            page = browser.new_page()
            page.on("dialog", lambda dialog: (alerts.append(dialog.message), dialog.dismiss()))
            record_page = f"{served}local/adr/0001-local-choice/"
            page.goto(record_page, wait_until="load")
            drawn = page.evaluate("""() => Array.from(document.querySelectorAll('img'))
                .filter(img => img.src.endsWith('drawing.svg'))
                .map(img => img.complete && img.naturalWidth > 0)""")
            assert drawn == [True]  # the cleaned drawing still shows
            page.goto(f"{served}local/adr/drawing.svg", wait_until="load")
            page.wait_for_timeout(300)  # let an onload handler, had one survived, fire
            assert page.evaluate("document.documentElement.localName") == "svg"
            page.goto(record_page, wait_until="load")
            # The browser's own URL parser decides what each link and image would load.
            protocols = page.evaluate("""() => Array.from(
                document.querySelectorAll('article [href], article [src]'),
                el => new URL(el.getAttribute('href') ?? el.getAttribute('src'),
                              document.baseURI).protocol)""")
            assert len(protocols) >= 3
            assert set(protocols) <= {"http:", "https:", "mailto:"}, protocols
            dropped = page.locator("article a:not([href])")
            assert dropped.count() == 9  # every hostile link but the relative one
            for index in range(dropped.count()):
                dropped.nth(index).click()
            page.wait_for_timeout(300)
        finally:
            browser.close()
    assert alerts == []
