"""A real HTTP server on 127.0.0.1 serving a built site, as a static host would.

Files get an ETag and a Last-Modified header and a 304 when the client's validators match,
as nginx or GitHub Pages do. Every request is logged (path, validators sent, status) before
its answer goes out, so a test that got an answer finds it in the log; and a test can make
any path misbehave: answer 500, never answer, or send too much.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit


@dataclass(frozen=True)
class Hit:
    """One request the server received."""

    path: str
    if_none_match: str | None
    if_modified_since: str | None
    status: int


Behaviour = Callable[[BaseHTTPRequestHandler], int]


class SiteServer:
    """Serves `folder` at http://127.0.0.1:<port>/ until stopped."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.hits: list[Hit] = []
        self.behaviours: dict[str, Behaviour] = {}
        self.stopping = threading.Event()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = unquote(urlsplit(self.path).path)
                behaviour = site.behaviours.get(path)
                if behaviour:
                    behaviour(self)
                else:
                    site.serve_file(self, path)

            def send_response(self, code: int, message: str | None = None) -> None:
                site.hits.append(Hit(unquote(urlsplit(self.path).path),
                                     self.headers.get("If-None-Match"),
                                     self.headers.get("If-Modified-Since"), code))
                super().send_response(code, message)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._http.server_address[1]}/"

    def start(self) -> SiteServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._http.shutdown()
        self._http.server_close()

    def requests_for(self, path: str) -> list[Hit]:
        return [hit for hit in self.hits if hit.path == path]

    def serve_file(self, handler: BaseHTTPRequestHandler, path: str) -> int:
        """Send a file of the folder with its validators; 304 when they match."""
        target = (self.folder / path.lstrip("/")).resolve()
        if target.is_dir():
            target = target / "index.html"
        if not target.is_relative_to(self.folder.resolve()) or not target.is_file():
            return send(handler, 404, b"not found")
        data = target.read_bytes()
        etag = '"' + hashlib.sha256(data).hexdigest()[:16] + '"'
        modified = formatdate(target.stat().st_mtime, usegmt=True)
        if handler.headers.get("If-None-Match") == etag:
            handler.send_response(304)
            handler.send_header("ETag", etag)
            handler.end_headers()
            return 304
        handler.send_response(200)
        handler.send_header("Content-Length", str(len(data)))
        handler.send_header("ETag", etag)
        handler.send_header("Last-Modified", modified)
        handler.end_headers()
        handler.wfile.write(data)
        return 200


def send(handler: BaseHTTPRequestHandler, status: int, body: bytes,
         content_type: str = "text/plain") -> int:
    """Answer with `status` and `body`."""
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)
    return status


def never_answer(site: SiteServer) -> Behaviour:
    """Accept the request and say nothing until the server stops."""
    def behaviour(handler: BaseHTTPRequestHandler) -> int:
        site.stopping.wait(120)
        return 0
    return behaviour


def answer(status: int, body: bytes = b"") -> Behaviour:
    """Always answer `status` with `body`."""
    return lambda handler: send(handler, status, body)


def stream_without_length(size: int) -> Behaviour:
    """Send `size` bytes in chunks without announcing a length (no Content-Length)."""
    def behaviour(handler: BaseHTTPRequestHandler) -> int:
        handler.protocol_version = "HTTP/1.0"
        handler.send_response(200)
        handler.end_headers()
        chunk = b"x" * 65536
        sent = 0
        try:
            while sent < size:
                handler.wfile.write(chunk[:size - sent])
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up, as it should
        handler.close_connection = True
        return 200
    return behaviour


def announce_length(size: int) -> Behaviour:
    """Announce a Content-Length of `size` bytes, then send nothing."""
    def behaviour(handler: BaseHTTPRequestHandler) -> int:
        handler.send_response(200)
        handler.send_header("Content-Length", str(size))
        handler.end_headers()
        handler.close_connection = True
        return 200
    return behaviour


# ---- a hostile host -----------------------------------------------------------------------------


def redirect(location: str, status: int = 302) -> Behaviour:
    """Answer `status` with a Location header (a relative or absolute address)."""
    def behaviour(handler: BaseHTTPRequestHandler) -> int:
        handler.send_response(status)
        handler.send_header("Location", location)
        handler.send_header("Content-Length", "0")
        handler.end_headers()
        return status
    return behaviour


def drip_headers(site: SiteServer, every: float = 0.5, limit: float = 60) -> Behaviour:
    """Send a status line, then a header one byte every `every` seconds, for `limit` seconds
    at most: each read of the client gets a byte long before any per-read timeout."""
    def behaviour(handler: BaseHTTPRequestHandler) -> int:
        handler.send_response_only(200)
        site.hits.append(Hit(urlsplit(handler.path).path, None, None, 200))
        handler.wfile.write(b"X-Drip: ")
        try:
            for _ in range(int(limit / every)):
                handler.wfile.write(b"x")
                handler.wfile.flush()
                if site.stopping.wait(every):
                    break
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up, as it should
        handler.close_connection = True
        return 200
    return behaviour


def encoded(body: bytes, encoding: str) -> Behaviour:
    """Answer 200 with `body` as it is, announced with `Content-Encoding: encoding`."""
    def behaviour(handler: BaseHTTPRequestHandler) -> int:
        handler.send_response(200)
        handler.send_header("Content-Encoding", encoding)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            handler.wfile.write(body)  # the client may stop reading at its limit
        return 200
    return behaviour


def gzip_bomb(megabytes: int) -> bytes:
    """A body of about 1 KB that, sent with `Content-Encoding: gzip, gzip`, unpacks to
    `megabytes` MB of zeros.

    The inner layer is built from one compressed megabyte repeated (each ends in a full
    flush, so every copy is the same bytes), which takes milliseconds instead of compressing
    every zero; its gzip trailer is left wrong, as a client that stops at its limit never
    reaches it.
    """
    import zlib

    zeros = b"\0" * (1 << 20)
    inner = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    first = inner.compress(zeros) + inner.flush(zlib.Z_FULL_FLUSH)
    again = inner.compress(zeros) + inner.flush(zlib.Z_FULL_FLUSH)
    layer = first + again * (megabytes - 1) + inner.flush()
    outer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return outer.compress(layer) + outer.flush()
