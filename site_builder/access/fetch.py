"""One bounded HTTP GET: a deadline for the whole request, and a size cap on every layer.

httpx's timeouts hold per socket operation, so a host that drips a header byte a second is
never timed out, and its decoders inflate a whole chunk at once, so a 3.5 KB body sent with
`Content-Encoding: gzip, gzip` grows to gigabytes before any size check runs. Here:

- every connect, read and write of the connection pool gets at most the time left until the
  request's deadline (`deadline`, a context variable set per request), so the deadline holds
  from the first byte to the last, headers included;
- bodies are read raw and decoded here, each layer in steps of at most 64 KB, and each
  layer's output counts against the file's limit as it is produced, so memory stays at the
  limit whatever the compression ratio.

Transport errors come out as httpx exceptions, so callers handle one family.
"""

from __future__ import annotations

import ssl
import time
import typing
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import httpcore
import httpx

from site_builder.access.network import Proxy
from site_builder.errors import InputError

STEP = 64 * 1024
"""The most bytes one decoding step produces, and the size of raw reads."""
MAX_LAYERS = 3
ENCODINGS = ("gzip", "deflate")
ACCEPT_ENCODING = "gzip, deflate"

deadline: ContextVar[float | None] = ContextVar("site_builder_fetch_deadline", default=None)
"""The time.monotonic() by which the request in progress must be done, or None."""


class TooLarge(InputError):
    """A body, or one of its decoding layers, grew past the limit."""


class BadEncoding(InputError):
    """A body that cannot be decoded; the message says why (without the URL)."""


def _left(timeout: float | None) -> float | None:
    """The timeout for one socket operation: `timeout`, cut to what is left of the deadline.

    Raises httpcore.ReadTimeout once the deadline has passed.
    """
    ends = deadline.get()
    if ends is None:
        return timeout
    left = ends - time.monotonic()
    if left <= 0:
        raise httpcore.ReadTimeout("the deadline passed")
    return left if timeout is None else min(timeout, left)


class _Stream(httpcore.NetworkStream):
    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _left(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _left(timeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(self, ssl_context: typing.Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        return _Stream(self._stream.start_tls(ssl_context, server_hostname, _left(timeout)))

    def get_extra_info(self, info: str) -> typing.Any:
        return self._stream.get_extra_info(info)


class _Backend(httpcore.NetworkBackend):
    """httpcore's own sockets, each operation kept within the deadline."""

    def __init__(self) -> None:
        self._backend = httpcore.SyncBackend()

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None,
                    socket_options: typing.Iterable[typing.Any] | None = None,
                    ) -> httpcore.NetworkStream:
        return _Stream(self._backend.connect_tcp(host, port, _left(timeout), local_address,
                                                 socket_options))

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: typing.Iterable[typing.Any] | None = None,
                            ) -> httpcore.NetworkStream:
        return _Stream(self._backend.connect_unix_socket(path, _left(timeout), socket_options))

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


@contextmanager
def _as_httpx(request: httpx.Request) -> Iterator[None]:
    try:
        yield
    except httpcore.TimeoutException as exc:
        raise httpx.ReadTimeout(str(exc), request=request) from exc
    except (httpcore.NetworkError, httpcore.ProtocolError, httpcore.UnsupportedProtocol,
            httpcore.ProxyError) as exc:
        raise httpx.TransportError(str(exc) or type(exc).__name__, request=request) from exc


class _Body(httpx.SyncByteStream):
    def __init__(self, stream: typing.Any, request: httpx.Request) -> None:
        self._stream = stream
        self._request = request

    def __iter__(self) -> Iterator[bytes]:
        with _as_httpx(self._request):
            yield from self._stream

    def close(self) -> None:
        self._stream.close()


class DeadlineTransport(httpx.BaseTransport):
    """An httpx transport on httpcore's connection pool whose sockets keep the deadline,
    through `proxy` when one is given (network.py), checking certificates with
    `ssl_context` (httpx's default when None)."""

    def __init__(self, proxy: Proxy | None = None,
                 ssl_context: ssl.SSLContext | None = None) -> None:
        context = ssl_context or httpx.create_ssl_context()
        self._pool: httpcore.ConnectionPool
        if proxy is None:
            self._pool = httpcore.ConnectionPool(ssl_context=context,
                                                 network_backend=_Backend())
        else:
            # The tunnel's sockets are the backend's too: connecting to the proxy, CONNECT
            # and the TLS handshake through it all keep the deadline.
            tls_proxy = proxy.url.startswith("https:")
            self._pool = httpcore.HTTPProxy(proxy_url=proxy.url, proxy_auth=proxy.auth,
                                            ssl_context=context,
                                            proxy_ssl_context=context if tls_proxy else None,
                                            network_backend=_Backend())

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        core = httpcore.Request(
            method=request.method,
            url=httpcore.URL(scheme=request.url.raw_scheme, host=request.url.raw_host,
                             port=request.url.port, target=request.url.raw_path),
            headers=request.headers.raw, content=request.stream,
            extensions=request.extensions)
        with _as_httpx(request):
            response = self._pool.handle_request(core)
        return httpx.Response(status_code=response.status, headers=response.headers,
                              stream=_Body(response.stream, request),
                              extensions=response.extensions)

    def close(self) -> None:
        self._pool.close()


# ---- bodies -------------------------------------------------------------------------------------


def encodings(response: httpx.Response) -> list[str]:
    """The Content-Encoding layers to undo, outermost first. Raises BadEncoding."""
    named = [e.strip().lower() for e in response.headers.get("content-encoding", "").split(",")]
    layers = ["gzip" if e == "x-gzip" else e for e in named if e and e != "identity"]
    unknown = [e for e in layers if e not in ENCODINGS]
    if unknown:
        raise BadEncoding(f"is sent with Content-Encoding {unknown[0]}, which site-builder "
                          "cannot read")
    if len(layers) > MAX_LAYERS:
        raise BadEncoding(f"is sent compressed {len(layers)} times over; refusing to unpack it")
    return layers[::-1]


def _inflate(chunks: Iterator[bytes], encoding: str, limit: int) -> Iterator[bytes]:
    """The bytes of one compressed layer, `STEP` at a time, at most `limit` in all."""
    produced = 0
    inflater: typing.Any = None
    pending = b""
    for data in chunks:
        if inflater is None:
            pending += data
            if len(pending) < 2:
                continue
            inflater = zlib.decompressobj(_window(encoding, pending))
            data, pending = pending, b""
        while not inflater.eof:
            try:
                out = inflater.decompress(data, STEP)
            except zlib.error:
                raise BadEncoding(f"is not valid {encoding} data") from None
            if out:
                produced += len(out)
                if produced > limit:
                    raise TooLarge
                yield out
            data = inflater.unconsumed_tail
            # A full step may leave output inside zlib: ask again, even without more input.
            if not data and len(out) < STEP:
                break
    if pending:
        raise BadEncoding(f"is not valid {encoding} data")


def _window(encoding: str, head: bytes) -> int:
    if encoding == "gzip":
        return 16 + zlib.MAX_WBITS
    # `deflate` is meant to be zlib-wrapped, but some servers send raw deflate: the header's
    # checksum tells them apart.
    wrapped = head[0] & 0x0F == 8 and (head[0] << 8 | head[1]) % 31 == 0
    return zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS


def read_body(response: httpx.Response, limit: int) -> bytes:
    """The decoded body, at most `limit` bytes raw and after every layer.

    Raises TooLarge, BadEncoding, httpx errors, and httpx.ReadTimeout once the deadline
    passes (also between decoding steps, which read no socket).
    """
    layers = encodings(response)
    received = 0

    def raw() -> Iterator[bytes]:
        nonlocal received
        for chunk in response.iter_raw(STEP):
            received += len(chunk)
            if received > limit:
                raise TooLarge
            yield chunk

    stream: Iterator[bytes] = raw()
    for encoding in layers:
        stream = _inflate(stream, encoding, limit)
    parts: list[bytes] = []
    size = 0
    for part in stream:
        size += len(part)
        if size > limit:
            raise TooLarge
        parts.append(part)
        ends = deadline.get()
        if ends is not None and time.monotonic() > ends:  # decoding reads no socket
            raise httpx.ReadTimeout("the deadline passed while decoding")
    return b"".join(parts)
