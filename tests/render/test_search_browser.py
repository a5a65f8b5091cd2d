"""Search as people use it, in headless Chromium: results as you type in the header box,
the keyboard, `/`, the search page's filters, "did you mean" and shareable addresses."""

# ruff: noqa: F811 -- the fixtures of test_browser.py are imported and then taken as arguments

from __future__ import annotations

from playwright.sync_api import Browser, Page

from site_builder.query import answers as query
from site_builder.query.textindex import index_for
from tests.render.test_browser import Site, browser, open_page, site  # noqa: F401 (fixtures)

CSS_ID = "search-suggestions-1"  # the page's first (and here only) box's listbox


def wait_for_results(page: Page, site: Site, ids: list[str]) -> None:
    """Wait until the search page lists exactly `ids` (its first page of twenty)."""
    urls = [f"{site.url}{i}/" for i in ids[:20]]
    page.wait_for_function("""(urls) => {
        const shown = [...document.querySelectorAll("[data-search-results] a.row__title")]
            .map((a) => a.href);
        return JSON.stringify(shown) === JSON.stringify(urls);
    }""", arg=urls)


def wait_for_status(page: Page, text: str) -> str:
    status = page.locator("[data-search-status]")
    status.filter(has_text=text).wait_for()
    return status.inner_text()


def test_header_box_offers_records_as_you_type_and_the_keyboard_opens_one(
        site: Site, browser: Browser) -> None:
    page, problems = open_page(browser)
    page.goto(f"{site.url}timeline/")
    page.keyboard.press("/")  # focuses the header search box
    box = page.locator("#site-search")
    assert page.evaluate("document.activeElement.id") == "site-search"
    box.press_sequentially("sqlite body cach", delay=20)
    listbox = page.get_by_role("listbox", name="Matching records")
    expected = query.search_records(site.archive, query="sqlite body cach", limit=8)
    # Each pause in typing may show results for the words so far; wait for the last ones.
    page.locator(".search-suggestion__all").filter(
        has_text=f"Enter shows all {expected['total']} results.").wait_for()
    page.locator(f"#{CSS_ID}-{len(expected['records']) - 1}").filter(
        has_text=expected["records"][-1]["ref"]).wait_for()
    assert box.get_attribute("role") == "combobox"
    assert box.get_attribute("aria-expanded") == "true"
    options = listbox.get_by_role("option")
    assert options.count() == len(expected["records"])
    assert "body cache" in options.first.inner_text().lower()
    assert options.first.locator(".ref").inner_text() == expected["records"][0]["ref"]
    box.press("ArrowDown")
    box.press("ArrowDown")
    second = options.nth(1)
    assert second.get_attribute("aria-selected") == "true"
    assert box.get_attribute("aria-activedescendant") == second.get_attribute("id")
    box.press("ArrowUp")
    assert options.first.get_attribute("aria-selected") == "true"
    box.press("Escape")
    assert listbox.is_hidden() and box.get_attribute("aria-expanded") == "false"
    box.press("ArrowDown")  # opens it again
    listbox.wait_for()
    box.press("ArrowDown")
    box.press("Enter")
    page.wait_for_url(f"{site.url}{expected['records'][0]['id']}/")
    assert problems.console == [] and problems.failed == []


def test_enter_without_a_chosen_option_opens_the_search_page(site: Site,
                                                              browser: Browser) -> None:
    page, _ = open_page(browser)
    page.goto(f"{site.url}tags/")
    page.locator("#site-search").fill("etag")
    page.locator("#site-search").press("Enter")
    page.wait_for_url(f"{site.url}search.html?q=etag")
    wait_for_status(page, "match")


def test_search_page_filters_by_project_status_and_tag_and_keeps_them_in_the_address(
        site: Site, browser: Browser) -> None:
    page, problems = open_page(browser)
    page.goto(f"{site.url}search.html?q=cache")
    everything = [r["id"] for r in query.search_records(site.archive, query="cache",
                                                           limit=200)["records"]]
    wait_for_results(page, site, everything)
    page.locator("#filter-project").select_option("agents")
    expected = query.search_records(site.archive, query="cache", project="agents")
    assert [r["id"] for r in expected["records"]] == [
        i for i in everything if i.startswith("agents/")]
    wait_for_results(page, site, [r["id"] for r in expected["records"]])
    assert "project=agents" in page.url and "q=cache" in page.url
    page.locator("#filter-status").select_option("implemented")
    both = query.search_records(site.archive, query="cache", project="agents",
                                status="implemented")
    wait_for_results(page, site, [r["id"] for r in both["records"]])
    shared = page.url  # a search can be shared: the address restores query and filters
    other, _ = open_page(browser)
    other.goto(shared)
    wait_for_results(other, site, [r["id"] for r in both["records"]])
    assert other.locator("#filter-status").input_value() == "implemented"
    assert other.locator("#search-page-input").input_value() == "cache"
    page.locator("#filter-tag").select_option("mcp")
    tagged = query.search_records(site.archive, query="cache", project="agents",
                                  status="implemented", tag="mcp")
    wait_for_results(page, site, [r["id"] for r in tagged["records"]])
    assert "tag=mcp" in page.url
    assert problems.console == [] and problems.failed == []


def test_a_mistyped_word_gets_did_you_mean_and_its_results(site: Site,
                                                            browser: Browser) -> None:
    page, problems = open_page(browser)
    page.goto(f"{site.url}search.html")
    page.locator("#search-page-input").fill("cahce")
    text = wait_for_status(page, "Did you mean")
    assert text.startswith("No records match “cahce”. Did you mean cache?")
    expected = query.search_records(site.archive, query="cahce")
    assert expected["didYouMean"] == "cache"
    wait_for_results(page, site, [r["id"] for r in expected["records"]])
    page.get_by_role("link", name="cache", exact=True).click()
    page.wait_for_function("() => new URL(location.href).searchParams.get('q') === 'cache'")
    assert page.locator("#search-page-input").input_value() == "cache"
    wait_for_status(page, "records match “cache”")
    assert problems.console == [] and problems.failed == []


def test_a_ref_puts_its_record_first(site: Site, browser: Browser) -> None:
    page, _ = open_page(browser)
    for text in ("BUILD-ADR-0004", "build/adr/4"):
        page.goto(f"{site.url}search.html?q={text}")
        found = query.search_records(site.archive, query=text)["records"]
        assert found[0]["id"] == "build/adr/0004-build-in-a-temp-folder-and-copy"
        wait_for_results(page, site, [r["id"] for r in found])


PARITY_QUERIES = [
    "cache", "cache ", "remote cache etag", "why did we choose a body cache", "BUILD-ADR-0004",
    "build/adr/4", "agents/adr/0004-remote-cache-with-etag-revalidation", "cahce", "renderring",
    "migr", "migr ", "sanitis", "site_builder/mcp", "slo.yaml", "Straße café", "ＡＰＩ json",
    "the a of", "x", "records_for_paths", "rendering bodies in parallel workers", "mcp server",
    "feeds per project", "deterministic outp", "pagefind chunked index", "kernel inotify",
    "how are builds made reproducible byte for byte", "0004", "rfc", "zzzz qqqq", "étag",
]


def test_the_browser_ranks_every_record_as_textindex_does(site: Site, browser: Browser) -> None:
    # The whole ranking, not only the first page: what search.js computes from the index the
    # build wrote must equal what textindex.py computes from the archive.
    page, problems = open_page(browser)
    page.goto(f"{site.url}search.html")
    answers = page.evaluate("""(queries) => window.siteSearch.load().then((engine) =>
        Promise.all(queries.map((q) => engine.search(q).then((a) => [a.numbers, a.didYouMean]))))
        """, PARITY_QUERIES)
    index = index_for(site.archive)
    for text, (numbers, meant) in zip(PARITY_QUERIES, answers, strict=True):
        ranked = index.search(text)
        assert (numbers, meant) == (ranked.numbers, ranked.did_you_mean), text
    assert problems.console == [] and problems.failed == []
