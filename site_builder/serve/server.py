"""HTTP for the preview: the site in memory as a static host serves it, plus live reload.

Files are served the way a static host serves the published site: under `base`, `index.html`
for a folder (a folder named without its slash is redirected to it), the site's own 404 page
for a miss, and no directory listings. The server reads nothing from disk: every answer comes
from the `SiteStore`, so no path can reach a file outside the site, whatever `..`, encoded
dots or symlinks it holds. Paths are decoded once and refused when any segment is `.`, `..`
or hidden (except `.well-known/`, where static/ puts verification files), as a static host
would.

While the first build runs, a file it has not written yet is made on demand (`on_demand`),
or the request waits for the build when it is not one made so.

Three reserved paths under `base` belong to `serve` itself:
`__site-builder__/reload.js` (the script added to every HTML page served, never to a file of
the site; a file, because the pages' Content-Security-Policy allows no inline script),
`__site-builder__/events` (the Server-Sent Events stream the script listens on) and
`__site-builder__/problems.json` (what the overlay shows, for anything else that asks).

The preview answers only requests addressed to it: a `Host` that names another machine is
refused with 421, because a page on any web site can point a name it controls at 127.0.0.1
(DNS rebinding) and would otherwise read the preview as its own origin. A connection that
sends nothing for `IDLE_TIMEOUT` seconds is closed, so idle sockets cannot hold a thread
each for ever.
"""

from __future__ import annotations

import html
import ipaddress
import json
import mimetypes
import os
import socket
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import unquote

from site_builder.base.site_paths import NOT_FOUND_PAGE, PREVIEW_FOLDER
from site_builder.serve.events import Broadcaster, Message
from site_builder.serve.on_demand import FirstBuild
from site_builder.serve.store import SiteStore, Stored

RESERVED = PREVIEW_FOLDER
# The one hidden folder a host serves: RFC 8615 puts verification and policy files there.
WELL_KNOWN = ".well-known"
HEARTBEAT = 15.0  # seconds between comments on an idle event stream, to notice closed tabs
# Seconds a connection may wait for its next request line or header before it is closed;
# browsers reopen one at once, and the event stream only ever writes, so it is unaffected.
IDLE_TIMEOUT = 30.0
# Seconds a request made during the first build waits for the archive or the build, at most.
FIRST_BUILD_WAIT = 900.0

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".json": "application/json",
    ".xml": "application/xml; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".wasm": "application/wasm",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".avif": "image/avif",
    ".ico": "image/x-icon",
    ".pdf": "application/pdf",
    ".woff2": "font/woff2",
    ".woff": "font/woff",
    ".webmanifest": "application/manifest+json",
    ".csv": "text/csv; charset=utf-8",
}

_NOT_FOUND = (b"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
              b"<title>Not found</title>\n</head>\n<body>\n<h1>Not found</h1>\n"
              b"<p>Nothing is published at this address.</p>\n</body>\n</html>\n")


def content_type(name: str) -> str:
    """The Content-Type a file called `name` is served with."""
    suffix = os.path.splitext(name)[1].lower()
    if suffix in CONTENT_TYPES:
        return CONTENT_TYPES[suffix]
    guessed, _ = mimetypes.guess_type(name)
    return guessed or "application/octet-stream"


def reload_script() -> bytes:
    """The live-reload script, shipped with the package."""
    return resources.files("site_builder.serve").joinpath("reload.js").read_bytes()


class PreviewServer(ThreadingHTTPServer):
    """Serves `store` at `base` with the live-reload endpoints; `base` may be changed
    while it runs (site.yml edited)."""

    daemon_threads = True

    def __init__(self, host: str, port: int, store: SiteStore, base: str,
                 events: Broadcaster, idle_timeout: float = IDLE_TIMEOUT,
                 first: FirstBuild | None = None) -> None:
        """Bind `host`:`port` (0: a free port). Raises OSError when it cannot. With `first`,
        files asked for before the first build has written them are made on demand."""
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.host = host
        self.idle_timeout = idle_timeout
        self.store = store
        self.base = base
        self.events = events
        self.first = first
        self.script = reload_script()
        super().__init__((host, port), PreviewHandler)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    def answers_to(self, host_header: str | None) -> bool:
        """True when a request's `Host` names this server: its own host, `localhost` (or a
        name under `.localhost`, which always means this machine), or an IP address, which
        no DNS answer can rebind. A request without one (HTTP/1.0) came from no browser."""
        if host_header is None:
            return True
        name = host_header.strip().lower()
        if name.startswith("["):  # [::1]:8000
            name = name[1:].partition("]")[0]
        elif name.count(":") == 1:
            name = name.partition(":")[0]
        name = name.rstrip(".")
        if name in (self.host.strip("[]").lower(), "localhost") or name.endswith(".localhost"):
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True

    def handle_error(self, request: object, client_address: object) -> None:
        """Browsers drop connections all the time (a reload, a closed tab): not an error."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


class PreviewHandler(BaseHTTPRequestHandler):
    """One request to the preview."""

    server: PreviewServer
    protocol_version = "HTTP/1.1"
    server_version = "site-builder-serve"
    send_body = True  # False for HEAD

    def setup(self) -> None:
        """Every read of this connection gives up after the server's idle timeout (the
        handler then closes it)."""
        self.timeout = self.server.idle_timeout  # type: ignore[misc]  # per connection
        super().setup()

    def do_GET(self) -> None:
        self._answer(send_body=True)

    def do_HEAD(self) -> None:
        self._answer(send_body=False)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the terminal is for rebuilds and problems."""

    # ---- routing ------------------------------------------------------------------------------

    def _answer(self, send_body: bool) -> None:
        self.send_body = send_body
        if not self.server.answers_to(self.headers.get("Host")):
            return self._misdirected()
        # The request target as sent: a path and a query (never a host: `//x` is a path).
        raw, _, query = self.path.split("#", 1)[0].partition("?")
        path = unquote(raw, errors="replace")
        base = self.server.base
        if not path.startswith("/") or "\0" in path or "\\" in path:
            return self._not_found()
        if not path.startswith(base):
            if path in ("/", base.rstrip("/")):
                return self._redirect(base)
            return self._not_found()
        rel = path[len(base):]
        if rel == RESERVED or rel.startswith(f"{RESERVED}/"):
            return self._reserved(rel[len(RESERVED) + 1:])
        parts = rel.split("/")
        if any(p in (".", "..") or (p.startswith(".") and p != WELL_KNOWN) for p in parts) \
                or "" in parts[:-1]:
            return self._not_found()
        if self._before_first_build(rel):
            return None
        if rel == "" or rel.endswith("/"):
            rel += "index.html"
        elif self.server.store.is_folder(rel):
            return self._redirect(f"{raw}/" + (f"?{query}" if query else ""))
        stored = self.server.store.get(rel)
        if stored is None:
            return self._not_found()
        self._send(HTTPStatus.OK, content_type(rel), stored)

    def _before_first_build(self, rel: str) -> bool:
        """While the first build runs: answer with the file at `rel` made on demand and
        return True, or wait for the build (returning False) when it is not one made so."""
        first = self.server.first
        if first is None or first.done:
            return False
        wanted = f"{rel}index.html" if rel == "" or rel.endswith("/") else rel
        if self.server.store.get(wanted) is None:
            made = first.make(wanted, FIRST_BUILD_WAIT)
            if made is not None:
                data = made.encode("utf-8") if isinstance(made, str) else made
                # Compressed as the store compresses the file: a client sees one behaviour.
                self._send(HTTPStatus.OK, content_type(wanted), Stored.of(wanted, data),
                           on_demand=True)
                return True
            first.wait(FIRST_BUILD_WAIT)
        return False

    def _reserved(self, name: str) -> None:
        if name == "reload.js":
            self._send(HTTPStatus.OK, content_type(name), Stored(self.server.script, False))
        elif name == "events":
            self._stream()
        elif name == "problems.json":
            _, state = self.server.events.state()
            self._send(HTTPStatus.OK, content_type(name),
                       Stored(json.dumps(state).encode(), False))
        else:
            self._not_found()

    # ---- answers ------------------------------------------------------------------------------

    def _not_found(self) -> None:
        first = self.server.first
        if first is not None and not first.done:
            # The site's own 404 page, as every answer after the first build gives, even for
            # an address refused before anything was looked up.
            first.wait(FIRST_BUILD_WAIT)
        page = self.server.store.get(NOT_FOUND_PAGE) or Stored(_NOT_FOUND, False)
        self._send(HTTPStatus.NOT_FOUND, CONTENT_TYPES[".html"], page)

    def _misdirected(self) -> None:
        """421 for a request addressed to another host: a short text, never a page."""
        body = b"This preview answers only to its own address.\n"
        self.send_response(HTTPStatus.MISDIRECTED_REQUEST)
        self.send_header("Content-Type", CONTENT_TYPES[".txt"])
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.close_connection = True
        if self.send_body:
            self.wfile.write(body)

    def _redirect(self, location: str) -> None:
        self.send_response(HTTPStatus.MOVED_PERMANENTLY)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _send(self, status: HTTPStatus, kind: str, stored: Stored,
              on_demand: bool = False) -> None:
        """Answer with a file: HTML with the live-reload script added; a compressed file
        as it is to a client that accepts gzip, else decompressed. A file made `on_demand`
        says so in `X-Site-Builder-Made` (for tests and the curious)."""
        gzipped = stored.gzipped and not kind.startswith("text/html") and self._takes_gzip()
        data = stored.data if gzipped else stored.content()
        if kind.startswith("text/html"):
            data = self._with_script(data)
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if on_demand:
            self.send_header("X-Site-Builder-Made", "on-demand")
        self.end_headers()
        if self.send_body:
            self.wfile.write(data)

    def _takes_gzip(self) -> bool:
        accepted = self.headers.get("Accept-Encoding", "")
        return any(part.split(";")[0].strip().lower() == "gzip" for part in accepted.split(","))

    def _with_script(self, page: bytes) -> bytes:
        """`page` with the live-reload script added (before `</head>`, else at the end). The
        script is told the build the page comes from, so that a page whose event stream
        opens only after a rebuild still knows it is out of date."""
        build = self.server.events.state()[1]["build"]
        src = html.escape(f"{self.server.base}{RESERVED}/reload.js?build={build}", quote=True)
        tag = f'<script src="{src}" defer></script>\n'.encode()
        at = page.lower().find(b"</head>")
        return page[:at] + tag + page[at:] if at >= 0 else page + tag

    def _stream(self) -> None:
        """The event stream: the current state first, then every message as it comes."""
        events = self.server.events
        number, state = events.state()
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.close_connection = True
        if not self.send_body:
            return
        chunk = b"retry: 1000\n\n" + Message(number, "hello", state).encode()
        while True:
            try:
                self.wfile.write(chunk)
                self.wfile.flush()
            except OSError:
                return
            messages = events.wait(number, HEARTBEAT)
            if messages is None:
                return
            if messages:
                number = messages[-1].number
            chunk = b"".join(m.encode() for m in messages) or b": ping\n\n"
