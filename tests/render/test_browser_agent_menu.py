"""The record page's agent menu in headless Chromium: copying the `.md` copy, the chat links
and the connect command, the keyboard, and pages without JavaScript.

Two builds of example-site are served on 127.0.0.1 under `/decisions/`: the one the other
browser tests use (no `url` in site.yml, so the page fills in its own address) and one with
`url` set, whose links the build writes in full.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page

from site_builder.render.agents.agent_menu import SERVER_NAME, connect_command, prompt
from site_builder.render.site import build_site
from tests import browsers
from tests.conftest import EXAMPLE_SITE
from tests.render import test_browser as shared
from tests.render.test_browser import BASE, Site, open_page

# The example site served over HTTP, and the browser, as the main browser tests have them.
site = shared.site
browser = shared.browser

RECORD = "build/adr/0013-search-with-a-sharded-json-index"
PUBLISHED = "https://decisions.example.org"
CHATS = {"Open in ChatGPT": "https://chatgpt.com/", "Open in Claude": "https://claude.ai/new"}


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """example-site built with `url: https://decisions.example.org` and `base: /decisions/`,
    served from 127.0.0.1; yields the address of the site root there."""
    root = tmp_path_factory.mktemp("published") / "example-site"
    shutil.copytree(EXAMPLE_SITE, root, ignore=shutil.ignore_patterns("_site", ".site-builder"))
    config = (root / "site.yml").read_text(encoding="utf-8")
    assert "base: /\n" in config
    (root / "site.yml").write_text(
        config.replace("base: /\n", f"base: {BASE}\nurl: {PUBLISHED}\n"), "utf-8")
    served = root.parent / "www"
    build_site(root, output=served / BASE.strip("/"), jobs=1)
    with browsers.serving(served) as url:
        yield url.rstrip("/") + BASE


def open_menu(page: Page) -> None:
    page.locator(".agent-menu > summary").click()
    assert page.locator(".agent-menu").evaluate("menu => menu.open")


def chat_prompts(page: Page) -> dict[str, tuple[str, str]]:
    """Each chat link's label → (its address without the query, the first message it sends)."""
    found = {}
    for link in page.locator(".agent-menu__items a[href^='https:']").all():
        href = link.get_attribute("href") or ""
        parts = urlsplit(href)
        found[link.inner_text()] = (f"{parts.scheme}://{parts.netloc}{parts.path}",
                                    parse_qs(parts.query)["q"][0])
    return found


def connect_texts(page: Page) -> tuple[str, Any]:
    """The command and the parsed `.mcp.json` the "Connect an agent" part shows."""
    page.locator(".agent-menu__connect > summary").click()
    command, config = page.locator(".agent-menu__connect pre").all_inner_texts()
    return command, json.loads(config)


def expanded(page: Page, name: str) -> bool:
    """Whether Chromium's accessibility tree says the disclosure called `name` is open."""
    cdp = page.context.new_cdp_session(page)
    for node in cdp.send("Accessibility.getFullAXTree")["nodes"]:
        if node.get("name", {}).get("value") == name and node["role"]["value"] != "StaticText":
            states = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
            if "expanded" in states:
                return bool(states["expanded"])
    raise AssertionError(f"no disclosure named {name!r}")


def test_copy_puts_the_markdown_copy_on_the_clipboard(site: Site, browser: Browser) -> None:
    page, problems = open_page(browser)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{site.url}{RECORD}/")
    open_menu(page)
    page.get_by_role("button", name="Copy as Markdown").click()
    status = page.locator("[data-copy-status]")
    status.filter(has_text="Copied").wait_for(timeout=15_000)
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == (site.output / f"{RECORD}.md").read_text(encoding="utf-8")
    assert copied.startswith(f'---\nid: "{RECORD}"\n')
    assert page.evaluate("window.__cspViolations") == []
    assert problems.console == [] and problems.failed == []


def test_without_url_the_page_names_its_own_address(site: Site, browser: Browser) -> None:
    page, _ = open_page(browser)
    page.goto(f"{site.url}{RECORD}/")
    open_menu(page)
    markdown = f"{site.url}{RECORD}.md"
    assert chat_prompts(page) == {label: (address, prompt(markdown))
                                  for label, address in CHATS.items()}
    command, config = connect_texts(page)
    assert command == connect_command(site.url)
    assert config == {"mcpServers": {SERVER_NAME: {
        "command": "site-builder", "args": ["mcp", "--url", site.url]}}}
    assert not page.locator("[data-until-address]").is_visible()


def test_with_url_the_links_are_in_the_page_itself(published: str, browser: Browser) -> None:
    for javascript in (True, False):
        page, _ = open_page(browser, javascript=javascript)
        page.goto(f"{published}{RECORD}/")
        open_menu(page)
        markdown = f"{PUBLISHED}{BASE}{RECORD}.md"
        assert chat_prompts(page) == {label: (address, prompt(markdown))
                                      for label, address in CHATS.items()}, javascript
        command, config = connect_texts(page)
        assert command == connect_command(f"{PUBLISHED}{BASE}")
        assert config["mcpServers"] == {SERVER_NAME: {
            "command": "site-builder", "args": ["mcp", "--url", f"{PUBLISHED}{BASE}"]}}


def test_without_javascript_the_menu_opens_and_links_the_markdown_copy(
        site: Site, browser: Browser) -> None:
    page, _ = open_page(browser, javascript=False)
    page.goto(f"{site.url}{RECORD}/")
    open_menu(page)
    copy = page.locator(".agent-menu__items").get_by_role("link", name="View as Markdown")
    assert copy.get_attribute("href") == "../0013-search-with-a-sharded-json-index.md"
    copy.click()
    page.wait_for_url(f"{site.url}{RECORD}.md")
    page.go_back()
    open_menu(page)
    # The page cannot know its address without script: no chat link is shown.
    chats = page.locator(".agent-menu__items a[href^='https:']")
    assert chats.count() == len(CHATS) and not any(c.is_visible() for c in chats.all())
    command, _ = connect_texts(page)
    assert command == connect_command(None)
    assert page.locator("[data-until-address]").is_visible()


def test_the_keyboard_opens_walks_and_closes_the_menu(site: Site, browser: Browser) -> None:
    page, _ = open_page(browser)
    page.goto(f"{site.url}{RECORD}/")
    summary = page.locator(".agent-menu > summary")
    summary.focus()
    assert not expanded(page, "Use with an agent")
    page.keyboard.press("Enter")
    assert expanded(page, "Use with an agent")
    order = []
    for _ in range(4):
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.textContent.trim()"))
    assert order == ["Copy as Markdown", "Open in ChatGPT", "Open in Claude", "Connect an agent"]
    page.keyboard.press("Escape")
    assert not expanded(page, "Use with an agent")
    assert summary.evaluate("element => element === document.activeElement")
    page.keyboard.press(" ")
    assert expanded(page, "Use with an agent")
    page.keyboard.press("Shift+Tab")  # focus leaves the menu: it closes
    assert not expanded(page, "Use with an agent")


def test_a_click_outside_closes_the_menu(site: Site, browser: Browser) -> None:
    page, _ = open_page(browser)
    page.goto(f"{site.url}{RECORD}/")
    open_menu(page)
    page.locator("h1").click()
    assert not page.locator(".agent-menu").evaluate("menu => menu.open")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_open_menu_fits_the_screen_in_both_themes(site: Site, browser: Browser,
                                                      scheme: str) -> None:
    surfaces = {"light": "rgb(255, 255, 255)", "dark": "rgb(21, 26, 34)"}  # --surface
    for width in (390, 1280):
        page, problems = open_page(browser, scheme, width=width)
        page.goto(f"{site.url}{RECORD}/")
        open_menu(page)
        page.locator(".agent-menu__connect > summary").click()
        panel = page.locator(".agent-menu__panel")
        assert panel.evaluate("e => getComputedStyle(e).backgroundColor") == surfaces[scheme]
        box = panel.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, (scheme, width)
        assert page.evaluate("window.__cspViolations") == []
        assert problems.console == []
