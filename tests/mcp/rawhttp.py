"""HTTP/1.1 by hand over a real socket, for tests of what a client library would not send:
both framing headers, a header dripped a byte at a time, a body that stops short.

Every wait is bounded by a socket timeout, so a test using these stops by itself.
"""

from __future__ import annotations

import socket
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

WAIT_SECONDS = 30.0


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


def connect(url: str, timeout: float = WAIT_SECONDS) -> socket.socket:
    """A TCP connection to the host and port of `url`."""
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
    return sock


def request(url: str, method: str = "POST", body: bytes = b"",
            headers: dict[str, str] | None = None) -> bytes:
    """The bytes of a request for `url`'s path, Host its netloc unless `headers` says."""
    parts = urlsplit(url)
    given = {"host": parts.netloc, "content-type": "application/json",
             "content-length": str(len(body)), **(headers or {})}
    head = f"{method} {parts.path or '/'} HTTP/1.1\r\n" + "".join(
        f"{name}: {value}\r\n" for name, value in given.items() if value is not None)
    return head.encode("latin-1") + b"\r\n" + body


def read_answer(sock: socket.socket) -> Answer:
    """One response read from `sock` (Content-Length framed, as the server sends).
    Raises ConnectionError when the server closes before a whole response."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed after {data[:200]!r}")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed inside the body")
        rest += chunk
    return Answer(int(lines[0].split()[1]), headers, rest[:length])


def closed_by_server(sock: socket.socket, within: float = WAIT_SECONDS) -> bool:
    """True once the server closed `sock` (whatever it sent first); False when it is still
    open after `within` seconds."""
    ends = time.monotonic() + within
    while time.monotonic() < ends:
        sock.settimeout(max(0.05, ends - time.monotonic()))
        try:
            if not sock.recv(65536):
                return True
        except TimeoutError:
            return False
        except (ConnectionResetError, BrokenPipeError):
            return True
    return False


def drip(sock: socket.socket, data: bytes, every: float) -> int:
    """Send `data` a byte each `every` seconds until it is all sent or the server closes
    the connection; the number of bytes sent."""
    for sent, byte in enumerate(data):
        try:
            sock.sendall(bytes([byte]))
        except (BrokenPipeError, ConnectionResetError):
            return sent
        sock.settimeout(every)
        try:
            sock.recv(65536)  # anything at all (a 408, the end) means the server cut it
            return sent + 1
        except TimeoutError:
            pass
        except ConnectionResetError:
            return sent + 1
    return len(data)
