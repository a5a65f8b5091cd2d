"""Drive `site-builder mcp` as clients do: the official MCP SDK, or raw lines over stdio.

`mcp_client(...)` starts the server as a real subprocess and connects the SDK's `Client`
(mcp 2.3.0) to it over stdio; `http_client(url)` connects the same client to a Streamable
HTTP endpoint. Both take the SDK's `mode`: "auto" (the default: probe `server/discover`, fall
back to `initialize`) or "legacy" (the handshake only). Each hands back a synchronous
wrapper, so tests read as plain calls. `RawServer` writes bytes to the server's stdin and
reads its stdout line by line, for tests of the framing itself.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx2
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import REPO

SERVER = [sys.executable, "-m", "site_builder", "mcp"]


def _environment() -> dict[str, str]:
    # The SDK passes only a few variables on; the server must import this checkout.
    return {"PYTHONPATH": str(REPO)}


class Session:
    """An SDK Client used from synchronous test code."""

    def __init__(self, portal: BlockingPortal, client: Client, errlog: Path | None) -> None:
        self._portal = portal
        self.client = client
        self.session = client.session
        self.errlog = errlog

    def call(self, tool: str, **arguments: Any) -> Any:
        """The CallToolResult of one tools/call."""
        return self._portal.call(self.client.call_tool, tool, arguments)

    def answer(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """The structuredContent of a successful call, checked against its text."""
        result = self.call(tool, **arguments)
        assert not result.is_error, result.content[0].text
        if tool != "get_record":
            assert json.loads(result.content[0].text) == result.structured_content
        return result.structured_content

    def error(self, tool: str, **arguments: Any) -> str:
        """The text of a call that must fail with isError."""
        result = self.call(tool, **arguments)
        assert result.is_error, f"{tool} {arguments} did not fail"
        assert result.structured_content is None
        return result.content[0].text

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.client, name)
        return lambda *args, **kwargs: self._portal.call(lambda: method(*args, **kwargs))

    @property
    def stderr(self) -> str:
        assert self.errlog is not None, "the server runs elsewhere"
        return self.errlog.read_text(encoding="utf-8")


@asynccontextmanager
async def _connected(transport: Any, mode: str) -> AsyncIterator[Client]:
    # No client-side cache: each call must reach the server under test.
    async with Client(transport, mode=mode, cache=None) as client:
        yield client


@contextmanager
def mcp_client(*args: str, mode: str = "auto") -> Iterator[Session]:
    """A connected SDK client of `site-builder mcp ARGS` over stdio."""
    params = StdioServerParameters(command=SERVER[0], args=[*SERVER[1:], *args],
                                   env=_environment())
    with tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False) as errlog, \
            start_blocking_portal() as portal, \
            portal.wrap_async_context_manager(
                _connected(stdio_client(params, errlog=errlog), mode)) as client:
        yield Session(portal, client, Path(errlog.name))


@contextmanager
def http_client(url: str, mode: str = "auto", token: str | None = None) -> Iterator[Session]:
    """A connected SDK client of the Streamable HTTP endpoint at `url`."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with start_blocking_portal() as portal:
        http = httpx2.AsyncClient(headers=headers, timeout=30)
        transport = streamable_http_client(url, http_client=http)
        try:
            with portal.wrap_async_context_manager(_connected(transport, mode)) as client:
                yield Session(portal, client, None)
        finally:
            portal.call(http.aclose)


class RawServer:
    """`site-builder mcp` with raw pipes: bytes in, lines out."""

    def __init__(self, *args: str, cwd: Path | None = None) -> None:
        self.process = subprocess.Popen(
            [*SERVER, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=cwd, env={**os.environ, **_environment()})
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._stderr: list[bytes] = []
        self._readers = [threading.Thread(target=self._read_stdout, daemon=True),
                         threading.Thread(target=self._read_stderr, daemon=True)]
        for reader in self._readers:
            reader.start()

    def _read_stdout(self) -> None:
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(b"")

    def _read_stderr(self) -> None:
        for line in self.process.stderr:
            self._stderr.append(line)

    def send(self, data: Any) -> None:
        """Write one message to the server's stdin: bytes and str as given, anything else
        as one line of JSON."""
        if not isinstance(data, (bytes, str)):
            data = json.dumps(data) + "\n"
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def line(self, timeout: float = 30) -> bytes:
        """The next line of stdout (b"" once stdout closed)."""
        return self._lines.get(timeout=timeout)

    def answer(self, timeout: float = 30) -> Any:
        """The next line of stdout, parsed."""
        line = self.line(timeout)
        assert line.endswith(b"\n"), f"not a whole line: {line!r}"
        return json.loads(line)

    def request(self, message: Any) -> Any:
        self.send(message)
        return self.answer()

    def pending(self) -> list[bytes]:
        """Lines already written and not read yet."""
        out = []
        while not self._lines.empty():
            out.append(self._lines.get_nowait())
        return out

    def close(self, timeout: float = 30) -> int:
        """Close stdin and return the exit status, once everything the server wrote has
        been read (so pending() holds all of it)."""
        if not self.process.stdin.closed:
            self.process.stdin.close()
        status = self.process.wait(timeout=timeout)
        for reader in self._readers:
            reader.join(timeout)
        return status

    @property
    def stderr(self) -> str:
        return b"".join(self._stderr).decode("utf-8", "replace")

    def __enter__(self) -> RawServer:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            try:
                self.close(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def initialize(version: str = "2025-11-25") -> dict[str, Any]:
    """An initialize request as a client sends it."""
    return {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {},
        "clientInfo": {"name": "raw-test", "version": "1"}}}


def call(request_id: int | str, tool: str, **arguments: Any) -> dict[str, Any]:
    """A tools/call request."""
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}}
