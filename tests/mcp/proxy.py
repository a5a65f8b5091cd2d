"""A small forward proxy on 127.0.0.1, as a corporate network would have: CONNECT tunnels
for https, absolute-form requests for http, each one logged.

It knows names the machine does not (`names`, such as decisions.invalid → 127.0.0.1), so a
client given such a name can reach the site only through it. Threads, one per client
connection; it goes only to loopback addresses, and every socket has a timeout, so
nothing outlives a test by more than that.
"""

from __future__ import annotations

import base64
import ipaddress
import select
import socket
import threading
from urllib.parse import urlsplit

IDLE_SECONDS = 30.0


class ForwardProxy:
    """A proxy at `url` until stopped; `seen` holds each request line it was sent, and
    `auth` the Proxy-Authorization it must see (None: anyone may use it)."""

    def __init__(self, names: dict[str, str] | None = None,
                 auth: tuple[str, str] | None = None) -> None:
        self.seen: list[str] = []
        self._names = names or {}
        self._auth = None if auth is None else "Basic " + base64.b64encode(
            f"{auth[0]}:{auth[1]}".encode()).decode()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.2)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._listener.getsockname()[1]}"

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(10)
        self._listener.close()

    def __enter__(self) -> ForwardProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            client.settimeout(IDLE_SECONDS)
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        with client:
            head = _read_head(client)
            if head is None:
                return
            line, headers = head
            self.seen.append(line)
            method, target, _ = line.split(" ", 2)
            if self._auth is not None and headers.get("proxy-authorization") != self._auth:
                client.sendall(b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                               b"content-length: 0\r\nconnection: close\r\n\r\n")
                return
            if method == "CONNECT":
                host, _, port = target.rpartition(":")
                upstream = _open(self._names.get(host, host), int(port))
                if upstream is None:
                    client.sendall(b"HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n")
                    return
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                _relay(client, upstream)
            else:
                self._forward(client, method, target, headers)

    def _forward(self, client: socket.socket, method: str, target: str,
                 headers: dict[str, str]) -> None:
        parts = urlsplit(target)
        host = parts.hostname or ""
        upstream = _open(self._names.get(host, host), parts.port or 80)
        if upstream is None:
            client.sendall(b"HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n")
            return
        kept = {k: v for k, v in headers.items() if not k.startswith("proxy-")}
        kept["connection"] = "close"
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        upstream.sendall(f"{method} {path} HTTP/1.1\r\n".encode() + "".join(
            f"{k}: {v}\r\n" for k, v in kept.items()).encode("latin-1") + b"\r\n")
        _relay(client, upstream)


def _read_head(sock: socket.socket) -> tuple[str, dict[str, str]] | None:
    data = b""
    while b"\r\n\r\n" not in data:
        try:
            chunk = sock.recv(65536)
        except OSError:
            return None
        if not chunk or len(data) > 65536:
            return None
        data += chunk
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    headers = {}
    for line in head[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return head[0], headers


def _open(host: str, port: int) -> socket.socket | None:
    """A connection to `host`, only when that is a loopback address."""
    try:
        if not ipaddress.ip_address(host.strip("[]")).is_loopback:
            return None
    except ValueError:
        if host != "localhost":
            return None
    try:
        return socket.create_connection((host.strip("[]"), port), timeout=IDLE_SECONDS)
    except OSError:
        return None


def _relay(one: socket.socket, other: socket.socket) -> None:
    """Copy bytes both ways until either side closes or both are idle too long."""
    with other:
        while True:
            ready, _, _ = select.select([one, other], [], [], IDLE_SECONDS)
            if not ready:
                return
            for sock in ready:
                try:
                    data = sock.recv(65536)
                except OSError:
                    return
                if not data:
                    return
                (other if sock is one else one).sendall(data)
