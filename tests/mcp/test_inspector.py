"""The MCP Inspector's CLI (from npm) against `site-builder mcp --http`.

`make test` installs the Inspector into .venv/inspector (the Makefile's $(INSPECTOR) step);
these tests run it as a real Node process against the HTTP server on 127.0.0.1 and check its
answers against the query layer, so a client that is not Python sees the same records.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from site_builder.query import answers as query
from site_builder.query import copies
from site_builder.sources.load import load_archive
from tests.conftest import EXAMPLE_SITE, REPO
from tests.mcp.httpserver import HttpServer
from tests.mcp.test_sdk_example import TOOLS

INSPECTOR = REPO / ".venv" / "inspector" / "node_modules" / ".bin" / "mcp-inspector"
TOKEN = "inspector-token"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    assert INSPECTOR.is_file(), (f"{INSPECTOR} is missing: `make test` installs it "
                                 "(npm install @modelcontextprotocol/inspector)")
    with HttpServer("--root", str(EXAMPLE_SITE),
                    env={"SITE_BUILDER_MCP_TOKENS": TOKEN}) as running:
        yield running


def inspect(server: HttpServer, home: Path, *args: str, token: str = TOKEN) -> Any:
    """The Inspector CLI's JSON output for one method; fails on a non-zero exit."""
    done = subprocess.run(
        [str(INSPECTOR), "--cli", server.url, "--header", f"Authorization: Bearer {token}",
         *args], capture_output=True, text=True, timeout=120, check=False,
        env={"PATH": "/usr/bin:/bin", "HOME": str(home),
             "MCP_CATALOG_PATH": str(home / "catalog.json")})
    assert done.returncode == 0, done.stderr + done.stdout
    return json.loads(done.stdout)


def test_the_inspector_lists_every_tool_in_order(server: HttpServer, tmp_path: Path):
    listed = inspect(server, tmp_path, "--method", "tools/list")
    assert [tool["name"] for tool in listed["tools"]] == TOOLS
    assert all(tool["annotations"]["readOnlyHint"] for tool in listed["tools"])


def test_the_inspector_gets_the_query_layers_answers(server: HttpServer, tmp_path: Path):
    archive = load_archive(EXAMPLE_SITE)
    found = inspect(server, tmp_path, "--method", "tools/call", "--tool-name",
                    "search_records", "--tool-arg", "query=cache", "tag=build")
    assert found["isError"] is False
    assert found["structuredContent"] == query.search_records(archive, query="cache",
                                                              tag="build")
    record = inspect(server, tmp_path, "--method", "tools/call", "--tool-name", "get_record",
                     "--tool-arg", "id=BUILD-ADR-0008")
    assert record["content"][0]["text"] == copies.markdown_copy(
        archive, archive.get("BUILD-ADR-0008"))
    resources = inspect(server, tmp_path, "--method", "resources/list")["resources"]
    assert len(resources) == len(archive.records)
    read = inspect(server, tmp_path, "--method", "resources/read", "--uri", resources[0]["uri"])
    assert read["contents"][0]["text"] == copies.markdown_copy(archive, archive.records[0])


def test_the_inspector_is_refused_without_the_token(server: HttpServer, tmp_path: Path):
    done = subprocess.run(
        [str(INSPECTOR), "--cli", server.url, "--header", "Authorization: Bearer wrong",
         "--method", "tools/list"], capture_output=True, text=True, timeout=120, check=False,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
             "MCP_CATALOG_PATH": str(tmp_path / "catalog.json")})
    assert done.returncode != 0
    assert "tools" not in done.stdout
