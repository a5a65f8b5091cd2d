"""The agent menu's values: chat links naming the record's `.md` copy, and the connect lines
that AGENTS.md gives too, with and without `url` in site.yml."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from site_builder.archive.archive import Archive
from site_builder.render.agents.agent_menu import (
    MARKDOWN_PLACEHOLDER,
    SITE_PLACEHOLDER,
    agent_menu,
    connect_command,
    mcp_json,
    prompt,
)
from site_builder.render.agents.guide import agents_md
from site_builder.render.pages.urls import Urls
from site_builder.sources.load import load_archive

URL = "https://decisions.example.org"


def _first_message(href: str) -> str:
    return parse_qs(urlsplit(href).query)["q"][0]


def test_with_url_each_chat_is_asked_to_read_the_absolute_copy(archive: Archive) -> None:
    config = dataclasses.replace(archive.config, url=URL, base="/docs/")
    record = archive.records[0]
    menu = agent_menu(Urls(config), record)
    assert menu.resolved
    copy = f"{URL}/docs/{record.id}.md"
    assert [(c.label, _first_message(c.href)) for c in menu.chats] == [
        ("Open in ChatGPT", prompt(copy)), ("Open in Claude", prompt(copy))]
    assert [c.href.split("?")[0] for c in menu.chats] == ["https://chatgpt.com/",
                                                           "https://claude.ai/new"]
    assert menu.command == ("claude mcp add --transport stdio decisions -- "
                            f"site-builder mcp --url {URL}/docs/")
    assert json.loads(menu.mcp_json) == {"mcpServers": {"decisions": {
        "command": "site-builder", "args": ["mcp", "--url", f"{URL}/docs/"]}}}


def test_a_copy_address_is_percent_encoded_inside_the_message(site_root: Path) -> None:
    (site_root / "content/web/adr/0003-odd-(name)-ünï.md").write_text(
        "---\ntitle: Odd\nstatus: accepted\ndate: 2024-06-01\n---\nBody.\n", encoding="utf-8")
    archive = load_archive(site_root)
    record = archive.by_id["web/adr/0003-odd-(name)-ünï"]
    config = dataclasses.replace(archive.config, url=URL)
    message = _first_message(agent_menu(Urls(config), record).chats[0].href)
    assert message == prompt(f"{URL}/web/adr/0003-odd-%28name%29-%C3%BCn%C3%AF.md")


def test_without_url_the_values_hold_the_placeholders_the_page_replaces(
        archive: Archive) -> None:
    menu = agent_menu(Urls(archive.config), archive.records[0])
    assert not menu.resolved
    assert {_first_message(c.href) for c in menu.chats} == {prompt(MARKDOWN_PLACEHOLDER)}
    assert menu.command.endswith(f"--url {SITE_PLACEHOLDER}")
    assert SITE_PLACEHOLDER in json.loads(menu.mcp_json)["mcpServers"]["decisions"]["args"]


def test_agents_md_gives_the_same_connect_lines(site_root: Path) -> None:
    for url in (None, URL):
        if url:
            config = site_root / "site.yml"
            config.write_text(f"{config.read_text(encoding='utf-8')}url: {url}\n", "utf-8")
        archive = load_archive(site_root)
        urls = Urls(archive.config)
        site = urls.absolute("index.html")
        assert (site is None) == (url is None)
        text = agents_md(archive, urls)
        mcp = text[text.index("## MCP"):]
        assert f"```sh\n{connect_command(site)}\n```" in mcp
        assert f"```json\n{mcp_json(site)}\n```" in mcp
