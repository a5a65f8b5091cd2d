"""`site-builder mcp --http` as a real subprocess on 127.0.0.1, for tests to connect to.

The server is started with port 0 and the address it prints on stderr is where tests
connect, exactly as a user reads it. Its stderr is kept for assertions; stop() sends
SIGTERM, as a service manager would, and waits for the exit status.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
from typing import Any

from tests.mcp.client import SERVER, _environment

_SERVING = re.compile(r"^site-builder mcp: serving (http://\S+/mcp)$")


class HttpServer:
    """`site-builder mcp --http HOST:0 ARGS` until stopped."""

    def __init__(self, *args: str, host: str = "127.0.0.1",
                 env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            [*SERVER, "--http", f"{host}:0", *args], stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, **_environment(), **(env or {})})
        self.lines: list[str] = []
        self._ready = threading.Event()
        self.url = ""
        threading.Thread(target=self._read_stderr, daemon=True).start()
        if not self._ready.wait(30) or not self.url:
            self.stop()
            raise AssertionError(f"the server did not start: {self.stderr}")

    def _read_stderr(self) -> None:
        for line in self.process.stderr:
            self.lines.append(line)
            found = _SERVING.match(line.rstrip("\n"))
            if found and not self.url:
                self.url = found.group(1)
                self._ready.set()
        self._ready.set()

    @property
    def base(self) -> str:
        """The server's origin, such as http://127.0.0.1:41234."""
        return self.url.removesuffix("/mcp")

    @property
    def stderr(self) -> str:
        return "".join(self.lines)

    def stop(self) -> int:
        """SIGTERM, then the exit status."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        stdout = self.process.stdout.read() if self.process.stdout else ""
        assert stdout == "", f"the HTTP server wrote to stdout: {stdout[:200]!r}"
        return self.process.returncode

    def __enter__(self) -> HttpServer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()
