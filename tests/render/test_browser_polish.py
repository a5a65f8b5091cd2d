"""Site polish in headless Chromium: the light/dark toggle, the header's current section,
and rows that use the whole width on a phone."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.render import test_browser as shared
from tests.render.test_browser import Site, open_page

# The example site served over HTTP, and the browser, as the main browser tests have them.
site = shared.site
browser = shared.browser

# Records, at the moment <body> is parsed (before anything can be painted), which theme the
# page has: what the toggle chose must already be in place then.
AT_FIRST_PAINT = """
new MutationObserver((changes, observer) => {
  if (document.body) {
    window.__themeAtBody = document.documentElement.getAttribute("data-theme");
    observer.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""
LIGHT_BG, DARK_BG = "rgb(246, 247, 249)", "rgb(13, 17, 23)"


def background(page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def test_the_toggle_switches_remembers_and_never_flashes(site: Site, browser: Browser) -> None:
    page, problems = open_page(browser, "light")
    page.add_init_script(AT_FIRST_PAINT)
    page.goto(site.url)
    toggle = page.locator("[data-theme-toggle]")
    assert toggle.is_visible() and toggle.get_attribute("aria-pressed") == "false"
    assert background(page) == LIGHT_BG
    toggle.click()
    assert (background(page), toggle.get_attribute("aria-pressed")) == (DARK_BG, "true")
    # Another page: dark from the start, set before <body> was parsed.
    page.goto(f"{site.url}timeline/")
    assert page.evaluate("window.__themeAtBody") == "dark"
    assert background(page) == DARK_BG
    # Back to what the system prefers: the choice is forgotten, the system decides again.
    page.locator("[data-theme-toggle]").click()
    assert background(page) == LIGHT_BG
    assert page.evaluate("localStorage.getItem('site-builder-theme')") is None
    page.reload()
    assert page.evaluate("window.__themeAtBody") is None and background(page) == LIGHT_BG
    assert problems.console == [] and problems.failed == []


def test_a_dark_system_can_choose_light(site: Site, browser: Browser) -> None:
    page, _ = open_page(browser, "dark")
    page.goto(site.url)
    assert background(page) == DARK_BG
    page.locator("[data-theme-toggle]").click()
    assert background(page) == LIGHT_BG
    page.goto(f"{site.url}tags/")
    assert background(page) == LIGHT_BG


def test_without_javascript_there_is_no_dead_toggle(site: Site, browser: Browser) -> None:
    page, _ = open_page(browser, javascript=False)
    page.goto(site.url)
    assert not page.locator("[data-theme-toggle]").is_visible()


def test_the_header_marks_the_current_section_on_every_page(site: Site,
                                                            browser: Browser) -> None:
    page, _ = open_page(browser)
    record = site.archive.records[0]
    expected = {
        "": ("Projects", "page"), "build/": ("Projects", "true"),
        f"{record.id}/": ("Projects", "true"), "timeline/": ("Timeline", "page"),
        "tags/": ("Tags", "page"), "tags/performance/": ("Tags", "true"),
    }
    for path, (label, value) in expected.items():
        page.goto(f"{site.url}{path}")
        marked = page.locator(".site-nav a[aria-current]")
        assert marked.count() == 1, path
        assert (marked.inner_text(), marked.get_attribute("aria-current")) == (label, value)
        colour = marked.evaluate("e => getComputedStyle(e).backgroundColor")
        assert colour != "rgba(0, 0, 0, 0)", path  # and it shows


def test_rows_use_the_whole_width_on_a_phone(site: Site, browser: Browser) -> None:
    page, _ = open_page(browser, width=390)
    for path, text in (("search.html?q=cache", ".result__excerpt"),
                       ("tags/performance/", ".row__desc")):
        page.goto(f"{site.url}{path}")
        page.locator(text).first.wait_for()
        row = page.locator(".row").first.bounding_box()
        excerpt = page.locator(text).first.bounding_box()
        assert row and excerpt
        assert excerpt["width"] >= row["width"] - 2 * 16, (path, excerpt, row)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
