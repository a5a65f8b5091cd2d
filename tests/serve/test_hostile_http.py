"""The preview under hostile clients: DNS rebinding (a foreign `Host`) and idle sockets.

Real HTTP on 127.0.0.1: `serve` itself in a subprocess for the `Host` rules, and the
preview's own server in this process (with a short idle timeout) for the timeout.
"""

from __future__ import annotations

import shutil
import socket
import threading
from collections.abc import Iterator

import pytest

from site_builder.serve.events import Broadcaster
from site_builder.serve.server import PreviewServer
from site_builder.serve.store import SiteStore
from tests.serve.conftest import FIXTURES, Serving


@pytest.fixture(scope="module")
def serving(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serving]:
    root = tmp_path_factory.mktemp("hostile-http") / "serve-site"
    shutil.copytree(FIXTURES / "serve-site", root)
    running = Serving(root)
    yield running
    assert running.stop() == 0


def _raw(port: int, request: bytes, timeout: float = 10) -> bytes:
    """Send `request` as written and read the whole answer (the server closes after it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(request)
        chunks = []
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def _get(port: int, host: str | None, path: str = "/") -> tuple[int, bytes]:
    header = f"Host: {host}\r\n" if host is not None else ""
    answer = _raw(port, f"GET {path} HTTP/1.1\r\n{header}Connection: close\r\n\r\n".encode())
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


@pytest.mark.parametrize("host", [
    "evil.example", "evil.example:{port}", "127.0.0.1.evil.example:{port}",
    "localhost.evil.example:{port}", "attacker.test.:{port}",
])
def test_a_foreign_host_is_refused_with_421_and_no_page(serving: Serving, host: str) -> None:
    status, body = _get(serving.port, host.format(port=serving.port))
    assert status == 421
    assert body == b"This preview answers only to its own address.\n"
    status, body = _get(serving.port, host.format(port=serving.port),
                        "/__site-builder__/problems.json")
    assert status == 421


@pytest.mark.parametrize("host", [
    "127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}", "preview.localhost:{port}",
    "[::1]:{port}", "127.0.0.1", None,
])
def test_the_servers_own_addresses_are_answered(serving: Serving, host: str | None) -> None:
    status, body = _get(serving.port, host.format(port=serving.port) if host else None)
    assert status == 200
    assert b"<html" in body


@pytest.fixture
def quick_timeout() -> Iterator[PreviewServer]:
    store = SiteStore()
    store.put("index.html", b"<!DOCTYPE html><html><head></head><body>hi</body></html>")
    server = PreviewServer("127.0.0.1", 0, store, "/", Broadcaster(), idle_timeout=0.5)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_an_idle_connection_is_closed_by_the_server(quick_timeout: PreviewServer) -> None:
    with socket.create_connection(("127.0.0.1", quick_timeout.port), timeout=10) as idle:
        idle.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0")  # and then nothing more
        # recv returns b"" once the server closed its end; the client's own 10 s timeout
        # would raise instead, failing the test.
        assert idle.recv(65536) == b""


def test_a_kept_alive_connection_that_goes_quiet_is_closed(
        quick_timeout: PreviewServer) -> None:
    with socket.create_connection(("127.0.0.1", quick_timeout.port), timeout=10) as client:
        client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = b""
        while b"</html>" not in answer:
            chunk = client.recv(65536)
            assert chunk, answer
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200")
        assert client.recv(65536) == b""  # closed after the idle timeout, not held open
