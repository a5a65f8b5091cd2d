"""The ways to hand a published record to an agent: the record page's menu (open the record's
`.md` copy in a chat) and how to connect an MCP client to the site, which AGENTS.md gives too.

Every address here is absolute: a chat reads the `.md` copy from the web, and `--url` needs the
site's address. Without `url` in site.yml the build cannot know them, so the values hold
placeholders (`MARKDOWN_PLACEHOLDER`, `SITE_PLACEHOLDER`) that theme/site.js replaces with the
page's own address resolved in the browser; without script the chat links stay hidden and
the command shows `<site url>`, as AGENTS.md does.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from urllib.parse import quote

from site_builder.archive.records import Record
from site_builder.render.pages.urls import Urls, encode_path

__all__ = ["MARKDOWN_PLACEHOLDER", "SERVER_NAME", "SITE_PLACEHOLDER", "AgentMenu", "ChatLink",
           "agent_menu", "connect_command", "mcp_json"]

SERVER_NAME = "decisions"
"""The name the MCP server is added under, as README, `init` and `adopt` name it."""
SITE_PLACEHOLDER = "<site url>"
MARKDOWN_PLACEHOLDER = "<md url>"
# (label, address the prompt is appended to, percent-encoded): chats that take a first
# message in the address.
_CHATS = (("Open in ChatGPT", "https://chatgpt.com/?q="),
          ("Open in Claude", "https://claude.ai/new?q="))


@dataclass(frozen=True, slots=True)
class ChatLink:
    label: str
    href: str


@dataclass(frozen=True, slots=True)
class AgentMenu:
    """What a record page's agent menu shows."""

    chats: tuple[ChatLink, ...]
    """Links that open a chat whose first message names the record's `.md` copy."""
    command: str
    """The `claude mcp add` line that connects Claude Code to this site."""
    mcp_json: str
    """The `.mcp.json` that connects a client reading an `mcpServers` map to this site."""
    resolved: bool
    """False when site.yml sets no `url`: the values hold the placeholders."""
    site_placeholder: str = SITE_PLACEHOLDER
    markdown_placeholder: str = MARKDOWN_PLACEHOLDER


def prompt(markdown_url: str) -> str:
    """The first message a chat is opened with, naming the `.md` copy at `markdown_url`."""
    return f"Read {markdown_url} and answer questions about this decision."


@functools.cache
def connect_command(site: str | None) -> str:
    """The Claude Code command that adds the MCP server reading the site at `site`."""
    return (f"claude mcp add --transport stdio {SERVER_NAME} -- "
            f"site-builder mcp --url {site or SITE_PLACEHOLDER}")


@functools.cache
def mcp_json(site: str | None) -> str:
    """A `.mcp.json` naming the MCP server that reads the site at `site` (no final newline)."""
    # Laid out as README shows it: the arguments on one line.
    args = json.dumps(["mcp", "--url", site or SITE_PLACEHOLDER])
    return "\n".join(["{", '  "mcpServers": {', f"    {json.dumps(SERVER_NAME)}: {{",
                      '      "command": "site-builder",', f'      "args": {args}', "    }",
                      "  }", "}"])


def agent_menu(urls: Urls, record: Record) -> AgentMenu:
    """The agent menu of `record`'s page."""
    site = urls.absolute("index.html")
    markdown = urls.absolute(encode_path(Urls.record_markdown(record)))
    message = quote(prompt(markdown or MARKDOWN_PLACEHOLDER), safe="")
    return AgentMenu(
        chats=tuple(ChatLink(label, f"{address}{message}") for label, address in _CHATS),
        command=connect_command(site), mcp_json=mcp_json(site), resolved=site is not None)
