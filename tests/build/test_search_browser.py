"""Search as people use it, in headless Chromium: results as you type in the header box,
the keyboard, `/`, the search page's filters, "did you mean" and shareable addresses."""

# ruff: noqa: F811 -- the fixtures of test_browser.py are imported and then taken as arguments

from __future__ import annotations

from playwright.sync_api import Browser, Page

from site_builder import query
from site_builder.textindex import index_for
from tests.build.test_browser import Site, browser, open_page, site  # noqa: F401 (fixtures)


def result_ids(page: Page, site: Site) -> list[str]:
    links = page.locator("[data-search-results] a.row__title")
    return [h.removeprefix(site.url).strip("/") for h in
            links.evaluate_all("(links) => links.map((a) => a.href)")]


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
    listbox.wait_for()
    assert box.get_attribute("role") == "combobox"
    assert box.get_attribute("aria-expanded") == "true"
    options = listbox.get_by_role("option")
    expected = query.search_records(site.archive, query="sqlite body cach", limit=8)
    assert options.count() == len(expected["records"])
    assert "body cache" in options.first.inner_text().lower()
    total = query.search_records(site.archive, query="sqlite body cach")["total"]
    assert page.locator(".search-suggestion__all").inner_text() == (
        f"Enter shows all {total} results.")
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
    wait_for_status(page, "records match")
    everything = result_ids(page, site)
    page.locator("#filter-project").select_option("agents")
    wait_for_status(page, "records match")
    expected = query.search_records(site.archive, query="cache", project="agents")
    page.locator("[data-search-results] > li").nth(len(expected["records"]) - 1).wait_for()
    assert result_ids(page, site) == [r["id"] for r in expected["records"]]
    assert result_ids(page, site) == [i for i in everything if i.startswith("agents/")]
    assert "project=agents" in page.url and "q=cache" in page.url
    page.locator("#filter-status").select_option("implemented")
    both = query.search_records(site.archive, query="cache", project="agents",
                                status="implemented")
    page.wait_for_function(
        "(n) => document.querySelectorAll('[data-search-results] > li').length === n",
        arg=len(both["records"]))
    assert result_ids(page, site) == [r["id"] for r in both["records"]]
    shared = page.url  # a search can be shared: the address restores query and filters
    other, _ = open_page(browser)
    other.goto(shared)
    wait_for_status(other, "match")
    assert other.locator("#filter-status").input_value() == "implemented"
    assert other.locator("#search-page-input").input_value() == "cache"
    assert result_ids(other, site) == [r["id"] for r in both["records"]]
    page.locator("#filter-tag").select_option("mcp")
    tagged = query.search_records(site.archive, query="cache", project="agents",
                                  status="implemented", tag="mcp")
    page.wait_for_function(
        "(n) => document.querySelectorAll('[data-search-results] > li').length === n",
        arg=len(tagged["records"]))
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
    page.locator("[data-search-results] > li").nth(len(expected["records"]) - 1).wait_for()
    assert result_ids(page, site)[:3] == [r["id"] for r in expected["records"][:3]]
    page.get_by_role("link", name="cache", exact=True).click()
    page.wait_for_function("() => new URL(location.href).searchParams.get('q') === 'cache'")
    assert page.locator("#search-page-input").input_value() == "cache"
    wait_for_status(page, "records match “cache”")
    assert problems.console == [] and problems.failed == []


def test_a_ref_puts_its_record_first(site: Site, browser: Browser) -> None:
    page, _ = open_page(browser)
    for text in ("BUILD-ADR-0004", "build/adr/4"):
        page.goto(f"{site.url}search.html?q={text}")
        wait_for_status(page, "records match")
        assert result_ids(page, site)[0] == "build/adr/0004-build-in-a-temp-folder-and-copy"


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
