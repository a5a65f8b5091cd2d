"""`site-builder mcp --http` as a real subprocess on 127.0.0.1: for the bench's load run and
for the tests that connect to it.

The server is started with port 0, and the address it prints on stderr is where clients
connect, exactly as a user reads it. Its stderr is kept; `stop()` sends SIGTERM, as a
service manager would, and waits for the exit status. Whatever it wrote to stdout is in
`stdout` afterwards (it should write nothing there).
"""

from __future__ import annotations

import re
import resource
import subprocess
import threading
from typing import Any

from bench import measure
from bench import site_builder_target as sb

_SERVING = re.compile(r"^site-builder mcp: serving (http://\S+/mcp)$")
START_SECONDS = 30


class HttpServer:
    """`site-builder mcp --http HOST:0 ARGS` until stopped; `url` is the address it printed."""

    def __init__(self, *args: str, host: str = "127.0.0.1",
                 env: dict[str, str] | None = None, files: int | None = None) -> None:
        """`files`: the server's limit of open file descriptors (RLIMIT_NOFILE), for runs
        that exhaust it; the inherited limit otherwise."""

        def limit_files() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        self.process = subprocess.Popen(
            [*sb.command("mcp"), "--http", f"{host}:0", *args], stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**sb.environment(), **(env or {})},
            preexec_fn=limit_files if files is not None else None)
        self.lines: list[str] = []
        self.stdout = ""
        self.url = ""
        self._ready = threading.Event()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        if not self._ready.wait(START_SECONDS) or not self.url:
            self.stop()
            raise RuntimeError(f"the MCP HTTP server did not start: {self.stderr}")

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
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
        """SIGTERM (SIGKILL after 20 s), then the exit status."""
        measure.stop(self.process, grace=20)
        if self.process.stdout is not None and not self.process.stdout.closed:
            self.stdout = self.process.stdout.read()
            self.process.stdout.close()
        return self.process.returncode

    def __enter__(self) -> HttpServer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()
