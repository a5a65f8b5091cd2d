"""A real `site-builder serve` in a subprocess, and small HTTP and event-stream clients for it."""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
DEADLINE = 30.0  # seconds: a functional check, not a speed test
_ADDRESS = re.compile(r"at (http://127\.0\.0\.1:(\d+)(/\S*)) ")


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


class EventStream:
    """The server's Server-Sent Events, read on a thread into a queue of (event, data)."""

    def __init__(self, port: int, path: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=DEADLINE * 2)
        self.connection.request("GET", path)
        self.response = self.connection.getresponse()
        self.events: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event, data = "message", ""
        try:
            for raw in self.response.fp:
                line = raw.decode("utf-8").rstrip("\r\n")
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data += line[5:].strip()
                elif not line and data:
                    self.events.put((event, json.loads(data)))
                    event, data = "message", ""
        except (OSError, ValueError):
            pass

    def next(self, name: str, where: Callable[[dict[str, Any]], bool] = lambda d: True,
             timeout: float = DEADLINE) -> dict[str, Any]:
        """The data of the next `name` event for which `where` holds; fails after `timeout`."""
        end = time.monotonic() + timeout
        while (left := end - time.monotonic()) > 0:
            try:
                event, data = self.events.get(timeout=left)
            except queue.Empty:
                break
            if event == name and where(data):
                return data
        raise AssertionError(f"no {name!r} event within {timeout} s")

    def close(self) -> None:
        self.connection.close()


class Serving:
    """`site-builder serve --root ROOT --port 0` running in a subprocess."""

    def __init__(self, root: Path, *args: str) -> None:
        self.root = root
        self.process = subprocess.Popen(
            [sys.executable, "-m", "site_builder", "serve", "--root", str(root), "--port", "0",
             *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.stderr: list[str] = []
        threading.Thread(target=self._collect, daemon=True).start()
        line = self.process.stdout.readline() if self.process.stdout else ""
        found = _ADDRESS.search(line)
        if not found:
            self.process.kill()
            raise AssertionError(f"serve did not start: {line!r} {''.join(self.stderr)}")
        self.address, self.port, self.base = found.group(1), int(found.group(2)), found.group(3)

    def _collect(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line)

    def get(self, path: str, headers: dict[str, str] | None = None,
            method: str = "GET") -> Answer:
        """One request for `path` exactly as given (no normalising, no redirects)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=DEADLINE)
        try:
            connection.putrequest(method, path, skip_accept_encoding=True)
            for name, value in (headers or {}).items():
                connection.putheader(name, value)
            connection.endheaders()
            response = connection.getresponse()
            return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                          response.read())
        finally:
            connection.close()

    def events(self) -> EventStream:
        return EventStream(self.port, f"{self.base}__site-builder__/events")

    def problems(self) -> list[dict[str, Any]]:
        return json.loads(self.get(f"{self.base}__site-builder__/problems.json").body)["problems"]

    def wait_for(self, what: str, check: Callable[[], bool], timeout: float = DEADLINE) -> None:
        """Poll `check` until it holds; fail naming `what` after `timeout` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if check():
                return
            time.sleep(0.05)
        raise AssertionError(f"{what}: not within {timeout} s; serve said:\n"
                             + "".join(self.stderr))

    def wait_built(self) -> None:
        """Wait until the first build is in: serve answers before it, on demand, and a save
        made meanwhile is held until it is done (tests/serve/test_first_page.py)."""
        self.wait_for("the first build",
                      lambda: any("site-builder serve: built " in line for line in self.stderr))

    def stop(self, how: int = signal.SIGINT) -> int:
        """Send `how` (Ctrl-C by default); return the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(how)
        try:
            return self.process.wait(timeout=DEADLINE)
        finally:
            if self.process.poll() is None:
                self.process.kill()


def save(path: Path, text: str, atomic: bool = False) -> None:
    """Write `text` as an editor does: in place, or (`atomic`) to a temporary file beside it
    that is then renamed over it."""
    if atomic:
        temporary = path.with_name(f".{path.name}.swp-{os.getpid()}")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    else:
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A private copy of the serve fixture archive."""
    target = tmp_path / "serve-site"
    shutil.copytree(FIXTURES / "serve-site", target)
    return target


@pytest.fixture
def serving(site: Path) -> Iterator[Serving]:
    """`serve` running on the fixture archive, its first build in; stopped (and checked to
    stop) afterwards."""
    server = Serving(site)
    server.wait_built()
    try:
        yield server
    finally:
        server.stop()
