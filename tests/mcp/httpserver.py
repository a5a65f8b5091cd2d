"""`site-builder mcp --http` as a real subprocess on 127.0.0.1, for tests to connect to: the
bench's starter (bench/mcp_http.py), and every stop checks the server wrote nothing to
stdout."""

from __future__ import annotations

from bench import mcp_http


class HttpServer(mcp_http.HttpServer):
    """`site-builder mcp --http HOST:0 ARGS` until stopped."""

    def stop(self) -> int:
        """SIGTERM, then the exit status."""
        code = super().stop()
        assert self.stdout == "", f"the HTTP server wrote to stdout: {self.stdout[:200]!r}"
        return code
