"""A small raw JSON-RPC client for `site-builder mcp`: one line per message over stdio.

An SDK client would add its own overhead to every round trip; this one writes a line and waits
for the answer with the same id, so a timing is the server's work plus one pipe hop each way.
"""

from __future__ import annotations

import json
import queue
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

PROTOCOL_VERSION = "2025-06-18"
ANSWER_TIMEOUT = 120.0  # seconds: generous, a cold first call on 10,000 records reads them all


class McpError(RuntimeError):
    """The server answered with an error, a tool error, or not at all."""


class McpClient:
    """A running `site-builder mcp` process and the JSON-RPC conversation with it."""

    def __init__(self, command: Sequence[str], env: Mapping[str, str] | None = None) -> None:
        # Closed in close(): the log lives as long as the server process.
        self._log = tempfile.TemporaryFile(  # noqa: SIM115
            mode="w+", encoding="utf-8", errors="replace")
        self.started = time.perf_counter()
        self._process = subprocess.Popen(
            list(command), env=dict(env) if env is not None else None, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self._log)
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line)
        self._lines.put(b"")

    def _send(self, message: Mapping[str, Any]) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(message).encode() + b"\n")
        self._process.stdin.flush()

    def request(self, method: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Send a request and return its `result`; raises McpError on an error or no answer."""
        self._next_id += 1
        ident = self._next_id
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params or {}})
        deadline = time.perf_counter() + ANSWER_TIMEOUT
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            except queue.Empty:
                raise McpError(f"no answer to {method} within {ANSWER_TIMEOUT:.0f}s") from None
            if not line:
                raise McpError(f"the server exited before answering {method}:\n{self.stderr()}")
            message = json.loads(line)
            if message.get("id") != ident:
                continue  # a notification or log message from the server
            if "error" in message:
                raise McpError(f"{method}: {message['error']}")
            return message["result"]

    def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params or {}})

    def initialize(self) -> dict[str, Any]:
        """The handshake: `initialize`, then the `initialized` notification."""
        result = self.request("initialize", {
            "protocolVersion": PROTOCOL_VERSION, "capabilities": {},
            "clientInfo": {"name": "site-builder-bench", "version": "1"}})
        self.notify("notifications/initialized")
        return result

    def call_tool(self, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Call a tool and return its result; raises McpError when it reports `isError`."""
        result = self.request("tools/call", {"name": name, "arguments": dict(arguments)})
        if result.get("isError"):
            text = " ".join(c.get("text", "") for c in result.get("content", []))
            raise McpError(f"{name} failed: {text}")
        return result

    def timed_call(self, name: str, arguments: Mapping[str, Any]) -> float:
        """One tool call's round trip, in seconds."""
        start = time.perf_counter()
        self.call_tool(name, arguments)
        return time.perf_counter() - start

    def stderr(self) -> str:
        self._log.seek(0)
        return self._log.read()[-4000:]

    def close(self) -> None:
        """Close stdin (the server exits when it closes) and wait; kill it if it lingers."""
        if self._process.stdin:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._log.close()

    def __enter__(self) -> McpClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
