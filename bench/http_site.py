"""HTTP on 127.0.0.1: a static server for a built site, and polling a page until it changes."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from bench import measure


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str, timeout: float = 5.0) -> str | None:
    """The body of `url`, or None when it cannot be fetched (refused, 404, timeout)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.read().decode("utf-8", errors="replace")
    except (urllib.error.URLError, OSError):
        return None


def wait_for(url: str, timeout: float = 60.0, contains: str | None = None,
             every: float = 0.005) -> float | None:
    """Poll `url` until it answers (with `contains` in its body, when given).

    Returns the time it took in seconds, or None when `timeout` passed first.
    """
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        body = fetch(url, timeout=timeout)
        if body is not None and (contains is None or contains in body):
            return time.perf_counter() - start
        time.sleep(every)
    return None


class StaticServer:
    """`python -m http.server` serving `folder` on 127.0.0.1 in a child process.

    The standard library server sends Last-Modified and answers If-Modified-Since with 304,
    like the static hosts the site is published to.
    """

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self._process = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1",
             "--directory", str(folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if wait_for(self.url, timeout=30) is None:
            self.close()
            raise RuntimeError(f"the static server for {folder} did not start")

    def close(self) -> None:
        measure.stop(self._process)

    def __enter__(self) -> StaticServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
