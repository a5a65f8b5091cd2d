"""Pictures in headless Chromium: the lineage SVG on example-site's pages and the Mermaid
diagram of build/adr/0024, served over real HTTP under a base path (the fixtures of
test_browser.py). Screenshots go to tests/output/screenshots/lineage-*.png and mermaid-*.png.
"""

from __future__ import annotations

from playwright.sync_api import Browser

from site_builder.render.pages.mermaid_release import release
from tests.render.test_browser import SCREENSHOTS, Site, browser, open_page, site

__all__ = ["browser", "site"]  # the fixtures, imported for pytest

DIAGRAM = "build/adr/0024-draw-lineage-at-build-time-and-mermaid-in-the-browser/"
CHAINED = "build/adr/0008-build-beside-the-output-and-swap/"


def test_the_mermaid_page_draws_an_svg_diagram(site: Site, browser: Browser) -> None:
    for scheme in ("light", "dark"):
        page, problems = open_page(browser, scheme)
        requested: list[str] = []
        page.on("request", lambda request, into=requested: into.append(request.url))
        page.goto(site.url + DIAGRAM)
        code = page.locator("pre > code.language-mermaid")
        assert code.count() == 1
        code.scroll_into_view_if_needed()
        drawing = page.locator(".mermaid-diagram__drawing svg")
        drawing.wait_for(timeout=30_000)
        assert "render pages" in drawing.text_content()
        # ES modules from the site's own folder, and only those a flowchart needs: not the
        # ELK layout, nor other diagram types.
        mermaid = [url for url in requested if "/assets/mermaid" in url]
        folder = f"{site.url}{release().site_folder}/"
        assert all(url.startswith(folder) for url in mermaid)
        assert folder + "mermaid.esm.min.mjs" in mermaid
        names = [url.rsplit("/", 1)[1] for url in mermaid]
        assert any(n.startswith("flowDiagram-") for n in names)
        assert not [n for n in names if n.startswith(("elk-", "sequenceDiagram-", "katex-"))]
        assert len(set(mermaid)) == len(mermaid) < len(release().listed) / 2
        # The source moved under a disclosure, still there to read and copy.
        assert not code.is_visible()
        page.locator(".mermaid-diagram summary").click()
        assert code.is_visible() and "flowchart TD" in code.inner_text()
        assert page.evaluate("window.__cspViolations") == []
        assert problems.console == [] and problems.failed == []
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.locator(".mermaid-diagram").screenshot(
            path=str(SCREENSHOTS / f"mermaid-{scheme}.png"))


def test_without_javascript_the_diagram_stays_readable_code(site: Site,
                                                            browser: Browser) -> None:
    page, problems = open_page(browser, javascript=False)
    page.goto(site.url + DIAGRAM)
    code = page.locator("pre > code.language-mermaid")
    assert code.is_visible()
    assert code.inner_text().startswith("flowchart TD\n  load[\"load site.yml and records\"]")
    assert page.locator(".mermaid-diagram").count() == 0
    assert problems.failed == []


def test_pages_without_a_diagram_load_no_mermaid_asset(site: Site, browser: Browser) -> None:
    page, problems = open_page(browser)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    for path in ("", "build/", CHAINED, "timeline/"):
        page.goto(site.url + path)
        page.wait_for_load_state("networkidle")
        page.mouse.wheel(0, 20_000)  # scrolling to the end changes nothing
    assert requested
    assert not [u for u in requested if "/assets/mermaid" in u or "/assets/diagrams." in u]
    assert problems.console == [] and problems.failed == []


def test_a_lineage_node_is_a_link_to_its_record(site: Site, browser: Browser) -> None:
    page, problems = open_page(browser)
    page.goto(site.url + "build/")
    node = page.locator("svg.lineage a", has_text="BUILD-ADR-0004")
    node.click()
    page.wait_for_url(f"{site.url}build/adr/0004-build-in-a-temp-folder-and-copy/")
    here = page.locator("svg.lineage a[aria-current=page]")
    assert here.count() == 1 and "BUILD-ADR-0004" in here.text_content()
    assert problems.console == [] and problems.failed == []


def test_lineage_screenshots_light_and_dark(site: Site, browser: Browser) -> None:
    """The project page's picture in both schemes: the boxes take the scheme's colours, and
    the text stays dark on light and light on dark. The PNGs are for people to look at."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    colours = {}
    for scheme in ("light", "dark"):
        page, problems = open_page(browser, scheme)
        page.goto(site.url + "build/")
        figure = page.locator(".lineage-figure")
        figure.screenshot(path=str(SCREENSHOTS / f"lineage-project-{scheme}.png"))
        page.goto(site.url + CHAINED)
        page.locator(".lineage-figure").screenshot(
            path=str(SCREENSHOTS / f"lineage-record-{scheme}.png"))
        colours[scheme] = page.evaluate("""() => {
            const box = document.querySelector('svg.lineage .tone-implemented .lineage__box');
            const text = document.querySelector('svg.lineage .lineage__ref');
            return [getComputedStyle(box).fill, getComputedStyle(text).fill];
        }""")
        assert problems.console == []
    assert colours["light"] == ["rgb(223, 243, 241)", "rgb(26, 32, 48)"]
    assert colours["dark"] == ["rgb(15, 47, 44)", "rgb(231, 234, 240)"]


def test_the_lineage_fits_a_phone_screen(site: Site, browser: Browser) -> None:
    page, _ = open_page(browser, width=375)
    page.goto(site.url + "build/")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    # The picture keeps its size and scrolls sideways inside its frame.
    width = page.locator("svg.lineage").evaluate("e => e.getBoundingClientRect().width")
    assert width > 375
