"""The MCP Inspector's CLI lists and gets the prompts: a client that is not Python reads
the same prompts as the SDK (test_prompts.py)."""

from __future__ import annotations

from pathlib import Path

from site_builder.mcp import prompts
from tests.mcp.httpserver import HttpServer
from tests.mcp.test_inspector import inspect, server

__all__ = ["server"]  # the Inspector's HTTP server fixture, shared with test_inspector.py


def test_the_inspector_lists_and_gets_the_prompts(server: HttpServer, tmp_path: Path):
    listed = inspect(server, tmp_path, "--method", "prompts/list")["prompts"]
    assert [p["name"] for p in listed] == [p.name for p in prompts.PROMPTS]
    got = inspect(server, tmp_path, "--method", "prompts/get", "--prompt-name",
                  "explain_record", "--prompt-args", "id=BUILD-ADR-0004")
    text = got["messages"][0]["content"]["text"]
    assert text.startswith("Explain decision BUILD-ADR-0004")
