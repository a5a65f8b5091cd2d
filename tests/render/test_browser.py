"""The built example site in headless Chromium, served over real HTTP under a base path.

example-site is built with `base: /decisions/` and served from 127.0.0.1 by a `http.server`
thread that, like GitHub Pages, answers a missing path with the site's 404.html. Screenshots
of the main page kinds, light and dark, are saved under tests/output/screenshots/.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from site_builder.archive.archive import Archive
from site_builder.query.textindex import terms
from site_builder.render.search.index import SearchIndex
from site_builder.render.site import build_site
from site_builder.sources.load import load_archive
from tests import browsers
from tests.conftest import EXAMPLE_SITE, TEST_OUTPUT

BASE = "/decisions/"
SCREENSHOTS = TEST_OUTPUT / "screenshots"

# Collects Content-Security-Policy violations; runs before any script of the page.
WATCH_CSP = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site folder; a missing path gets `<base>404.html`, as static hosts do."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        page = Path(self.directory) / BASE.strip("/") / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@dataclass
class Site:
    """The built example site being served, and the archive it was built from."""

    url: str
    archive: Archive
    output: Path


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    work = tmp_path_factory.mktemp("browser")
    root = work / "example-site"
    shutil.copytree(EXAMPLE_SITE, root, ignore=shutil.ignore_patterns("_site", ".site-builder"))
    config = (root / "site.yml").read_text(encoding="utf-8")
    (root / "site.yml").write_text(config.replace("base: /\n", f"base: {BASE}\n"), "utf-8")
    assert f"base: {BASE}" in (root / "site.yml").read_text(encoding="utf-8")
    served = work / "www"
    output = served / BASE.strip("/")
    build_site(root, output=output, jobs=1)
    handler = functools.partial(_Handler, directory=str(served))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Site(f"http://127.0.0.1:{server.server_address[1]}{BASE}", load_archive(root),
                   output)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with browsers.chromium() as chromium:
        yield chromium


@dataclass
class Problems:
    """Everything that went wrong on the pages one browser context opened."""

    console: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    """URLs that failed to load or answered with an HTTP error (404 pages excepted)."""


def open_page(browser: Browser, scheme: str = "light", javascript: bool = True,
              width: int = 1280) -> tuple[Page, Problems]:
    context = browser.new_context(color_scheme=scheme, java_script_enabled=javascript,
                                  viewport={"width": width, "height": 900})
    page = context.new_page()
    problems = Problems()
    def on_console(message) -> None:
        # Chromium's "Failed to load resource" lines carry no URL; `failed` records them.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            problems.console.append(message.text)

    def on_response(response) -> None:
        if response.status >= 400 and not (response.request.is_navigation_request()
                                           and response.status == 404):
            problems.failed.append(f"{response.status} {response.url}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.console.append(str(error)))
    def on_request_failed(request) -> None:
        # A request still in flight when the page navigates away (the favicon, after a click)
        # is aborted by the browser: that is leaving the page, not a broken resource.
        if request.failure != "net::ERR_ABORTED":
            problems.failed.append(request.url)

    page.on("requestfailed", on_request_failed)
    page.on("response", on_response)
    page.add_init_script(WATCH_CSP)
    return page, problems


def visible_rows(page: Page) -> int:
    return page.locator("[data-filterable] > li:visible").count()


def word_in_one_body_only(archive: Archive) -> tuple[str, str]:
    """A word that occurs in exactly one record, in its body and nowhere else: (word, id)."""
    bodies = Counter(t for r in archive.records for t in set(terms(archive.body(r))))
    elsewhere = {t for r in archive.records
                 for t in terms(" ".join([r.title, r.description, r.ref, *r.tags, *r.authors,
                                          *r.deciders, *(str(v) for _, v in r.fields)]))}
    candidates = sorted((t for t, n in bodies.items()
                         if n == 1 and t not in elsewhere and t.isalpha() and len(t) > 7),
                        key=lambda t: (-len(t), t))
    word = candidates[0]
    owner = next(r for r in archive.records if word in terms(archive.body(r)))
    return word, owner.id


# ---- tests --------------------------------------------------------------------------------------


def test_home_to_project_to_record_by_clicking(site: Site, browser: Browser) -> None:
    page, problems = open_page(browser)
    page.goto(site.url)
    assert page.title() == "site-builder decisions"
    page.get_by_role("link", name="Build", exact=True).click()
    page.wait_for_url(f"{site.url}build/")
    assert page.locator("h1").inner_text() == "Build"
    page.get_by_role("link", name="Search on a static host: Pagefind or a JSON index").click()
    page.wait_for_url(f"{site.url}build/rfc/0001-search-on-a-static-host/")
    assert page.locator("h1").inner_text() == "Search on a static host: Pagefind or a JSON index"
    assert page.locator(".record__kicker .badge").inner_text() == "Rejected"
    assert problems.console == [] and problems.failed == []
    page.get_by_role("link", name="View as Markdown").click()
    assert page.url == f"{site.url}build/rfc/0001-search-on-a-static-host.md"
    assert page.locator("body").inner_text().startswith("---\nid: ")


def test_search_finds_a_word_that_only_one_body_holds(site: Site, browser: Browser) -> None:
    word, record_id = word_in_one_body_only(site.archive)
    page, problems = open_page(browser)
    page.goto(site.url)
    page.locator("#home-search").fill(word)
    page.locator("#home-search").press("Enter")
    page.wait_for_url(f"{site.url}search.html?q={word}")
    results = page.locator("[data-search-results] > li")
    results.first.wait_for()
    assert results.count() == 1
    link = results.first.locator("a.row__title")
    assert link.get_attribute("href") == f"{site.url}{record_id}/"
    assert word in results.first.locator("mark").first.inner_text().lower()
    assert page.locator("[data-search-status]").inner_text() == f"1 record matches “{word}”."
    link.click()
    page.wait_for_url(f"{site.url}{record_id}/")
    assert problems.console == [] and problems.failed == []


def test_search_ranks_title_matches_first_and_says_when_nothing_matches(
        site: Site, browser: Browser) -> None:
    page, _ = open_page(browser)
    page.goto(f"{site.url}search.html")
    page.locator("#search-page-input").fill("sanitise raw html")
    first = page.locator("[data-search-results] > li").first
    first.filter(has_text="Sanitise raw HTML").wait_for()
    # Of two records in one supersede chain, the one in force ranks first: "swap" is in the
    # title of build/adr/0008, superseded along the chain that ends at build/adr/0025.
    page.locator("#search-page-input").fill("atomic swap")
    titles = page.locator("[data-search-results] a.row__title")
    titles.filter(has_text="Build beside the output and swap it in").wait_for()
    listed = [t.lower() for t in titles.all_inner_texts()]
    swap = listed.index("build beside the output and swap it in")
    assert any(t.startswith("journal the output commit") for t in listed[:swap]), listed
    # Another form of a title word finds it too ("renders" → "Render pages …").
    page.locator("#search-page-input").fill("renders parallel")
    page.locator("[data-search-results] a.row__title").filter(
        has_text="Render pages in parallel worker processes").wait_for()
    page.locator("#search-page-input").fill("xylophonequartet")
    status = page.locator("[data-search-status]")
    status.filter(has_text="No records match").wait_for()
    assert page.locator("[data-search-results] > li").count() == 0


def test_search_shows_twenty_results_then_twenty_more_on_request(site: Site,
                                                                 browser: Browser) -> None:
    # "records " with a space: a whole word, not a prefix, so the index says how many match.
    holding = SearchIndex(site.archive).documents["record"]
    assert holding > 20
    page, problems = open_page(browser)
    page.goto(f"{site.url}search.html?q=records+")
    results = page.locator("[data-search-results] > li")
    results.nth(19).wait_for()
    assert results.count() == 20
    shown = 20
    while shown < holding:  # each click shows the next twenty
        page.get_by_role("button", name="Show more results").click()
        shown = min(shown + 20, holding)
        results.nth(shown - 1).wait_for()
        assert results.count() == shown
    assert not page.get_by_role("button", name="Show more results").is_visible()
    assert problems.console == [] and problems.failed == []


def test_status_filter_hides_and_shows_rows(site: Site, browser: Browser) -> None:
    page, problems = open_page(browser)
    page.goto(f"{site.url}timeline/")
    total = len(site.archive.records)
    proposed = sum(r.status == "proposed" for r in site.archive.records)
    assert 0 < proposed < total
    assert visible_rows(page) == total
    page.locator("#filter-status").select_option("proposed")
    assert visible_rows(page) == proposed
    assert page.locator('[data-filterable] > li:visible:not([data-status="proposed"])').count() == 0
    assert page.locator("[data-filter-count]").inner_text() == f"{proposed} of {total} records"
    assert page.url.endswith("timeline/?status=proposed")
    page.get_by_role("button", name="Clear").click()
    page.wait_for_function(f"document.querySelectorAll('[data-filterable] > li:not([hidden])')"
                           f".length === {total}")
    # The filtered view has an address of its own, and is revealed only once filtered.
    page.goto(f"{site.url}timeline/?status=proposed")
    assert visible_rows(page) == proposed
    assert page.evaluate("document.documentElement.className") == ""
    assert page.locator("main").is_visible()
    assert problems.console == []


def test_without_javascript_every_record_is_listed_and_no_filter_is_shown(
        site: Site, browser: Browser) -> None:
    page, _ = open_page(browser, javascript=False)
    page.goto(f"{site.url}timeline/")
    assert visible_rows(page) == len(site.archive.records)
    assert not page.locator("form[data-filters]").is_visible()


def test_dark_mode_follows_the_system_setting(site: Site, browser: Browser) -> None:
    colours = {}
    for scheme in ("light", "dark"):
        page, _ = open_page(browser, scheme)
        page.goto(site.url)
        colours[scheme] = page.evaluate(
            "[getComputedStyle(document.body).backgroundColor,"
            " getComputedStyle(document.body).color]")
    assert colours["light"] == ["rgb(246, 247, 249)", "rgb(26, 32, 48)"]
    assert colours["dark"] == ["rgb(13, 17, 23)", "rgb(231, 234, 240)"]


def test_keyboard_users_get_a_skip_link_and_a_visible_focus(site: Site, browser: Browser) -> None:
    page, _ = open_page(browser)
    page.goto(site.url)
    page.keyboard.press("Tab")
    skip = page.locator(".skip-link")
    assert skip.evaluate("element => element === document.activeElement")
    box = skip.bounding_box()
    assert box is not None and box["y"] >= 0
    assert skip.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
    page.keyboard.press("Enter")
    # Following the link updates the address a moment later on a loaded machine.
    page.wait_for_function("location.hash === '#main'", timeout=10_000)
    assert page.url.endswith("#main")


def test_no_console_errors_or_csp_violations_on_any_page_kind(
        site: Site, browser: Browser) -> None:
    paths = {
        "home": "", "project": "build/", "record": "build/adr/0006-python-markdown-and-pygments/",
        "superseded record": "build/adr/0005-one-atom-feed-per-project/",
        "rfc": "build/rfc/0001-search-on-a-static-host/", "tags": "tags/",
        "tag": "tags/performance/", "timeline": "timeline/?project=build",
        "search": "search.html?q=markdown", "404": "no/such/page/",
    }
    page, problems = open_page(browser)
    for kind, path in paths.items():
        response = page.goto(site.url + path)
        assert response is not None
        assert response.status == (404 if kind == "404" else 200), kind
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.__cspViolations") == [], kind
        # The stylesheet applied (a 404 page deep in the tree links it from the base path).
        assert page.evaluate("getComputedStyle(document.body).display") == "flex", kind
    assert problems.console == []
    assert problems.failed == []


def test_404_page_links_work_from_any_depth(site: Site, browser: Browser) -> None:
    page, _ = open_page(browser)
    page.goto(f"{site.url}a/b/c/missing/")
    page.get_by_role("link", name="Go to the home page").click()
    page.wait_for_url(site.url)
    assert page.locator("h1").inner_text() == "site-builder decisions"


def test_pages_fit_a_phone_screen(site: Site, browser: Browser) -> None:
    page, _ = open_page(browser, width=375)
    for path in ("", "build/rfc/0001-search-on-a-static-host/", "timeline/"):
        page.goto(site.url + path)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, path


def test_screenshots_of_home_project_and_record(site: Site, browser: Browser) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shots = {"home": "", "project": "build/", "record": "build/rfc/0001-search-on-a-static-host/"}
    for scheme in ("light", "dark"):
        page, problems = open_page(browser, scheme)
        for name, path in shots.items():
            page.goto(site.url + path)
            target = SCREENSHOTS / f"{name}-{scheme}.png"
            page.screenshot(path=str(target), full_page=True)
            assert target.stat().st_size > 10_000
        assert problems.console == []
