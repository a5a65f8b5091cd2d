"""`site-builder mcp --http` as a real subprocess on 127.0.0.1, for tests to connect to: the
bench's starter (bench/mcp_http.py), and every stop checks the server wrote nothing to
stdout."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from bench import mcp_http
from tests.conftest import REPO


class HttpServer(mcp_http.HttpServer):
    """`site-builder mcp --http HOST:0 ARGS` until stopped."""

    def stop(self) -> int:
        """SIGTERM, then the exit status."""
        code = super().stop()
        assert self.stdout == "", f"the HTTP server wrote to stdout: {self.stdout[:200]!r}"
        return code


@contextmanager
def uvicorn_factory(env: dict[str, str], *options: str) -> Iterator[str]:
    """The ASGI factory (`site_builder.mcp.http:app`) under uvicorn on 127.0.0.1 port 0, with
    `env` added to the environment and `options` given to uvicorn; yields the /mcp URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "site_builder.mcp.http:app", *options,
         "--host", "127.0.0.1", "--port", "0"],
        env={**os.environ, "PYTHONPATH": str(REPO), **env}, stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL, text=True)
    try:
        url = None
        assert process.stderr is not None
        for line in process.stderr:
            found = re.search(r"(http://127\.0\.0\.1:\d+)", line)
            if found:
                url = found.group(1) + "/mcp"
                break
        assert url, "uvicorn did not start"
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)
