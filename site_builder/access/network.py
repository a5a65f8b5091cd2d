"""How site-builder reaches a published site: the proxy and the certificates the environment
names, as curl, requests and pip read them.

- Proxy: `HTTPS_PROXY` for an https site, `HTTP_PROXY` for an http one, `ALL_PROXY` for
  either when that one is unset (lower-case names too; the standard library's reading, which
  ignores `HTTP_PROXY` under CGI), and none for a host `NO_PROXY` names (`*`, a host, a
  domain and its subdomains, `host:port`). A proxy URL without a scheme is http; its
  credentials go in Proxy-Authorization and are never shown. An https site is reached
  through a CONNECT tunnel, so the proxy sees only the host and port.
- Trust: every one of `SSL_CERT_FILE`, `SSL_CERT_DIR` and `REQUESTS_CA_BUNDLE` that is set
  is trusted, together (httpx reads only the first two, and only one of them); with none,
  certifi's bundle, as httpx does.

Raises NetworkError, naming the variable, for a value that cannot be used.
"""

from __future__ import annotations

import os
import ssl
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

import httpx

from site_builder.errors import UsageError

CA_VARIABLES = ("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE")
CA_DIRECTORY = "SSL_CERT_DIR"


class NetworkError(UsageError, ValueError):
    """A proxy or certificate setting that cannot be used; the message names it."""


@dataclass(frozen=True)
class Proxy:
    """A proxy: its URL without credentials, and the credentials, if any."""

    url: str
    auth: tuple[str, str] | None
    variable: str


def _bypassed(netloc: str, proxies: dict[str, str]) -> bool:
    """Returns whether NO_PROXY in `proxies` names the host of `netloc`."""
    # The standard library's own NO_PROXY matcher; typeshed does not declare it.
    check: Callable[[str, dict[str, str]], bool] = (
        urllib.request.proxy_bypass_environment  # type: ignore[attr-defined]
    )
    return check(netloc, proxies)


def proxy_for(url: str) -> Proxy | None:
    """The proxy the environment names for `url`, or None to connect directly.
    Raises NetworkError."""
    parts = urlsplit(url)
    proxies = urllib.request.getproxies_environment()
    netloc = parts.netloc.rpartition("@")[2]
    if _bypassed(netloc, proxies):
        return None
    scheme = parts.scheme
    given = proxies.get(scheme) or proxies.get("all")
    if not given:
        return None
    variable = f"{scheme.upper()}_PROXY" if proxies.get(scheme) else "ALL_PROXY"
    return _proxy(given, variable)


def _proxy(given: str, variable: str) -> Proxy:
    value = given.strip() if "://" in given else f"http://{given.strip()}"
    parts = urlsplit(value)
    try:
        port = parts.port
    except ValueError:
        raise NetworkError(f"{variable} must be a proxy's address, such as "
                           "http://proxy.example.org:3128") from None
    if parts.scheme.startswith("socks"):
        raise NetworkError(f"{variable} names a SOCKS proxy, which site-builder cannot use; "
                           "name an HTTP proxy (http://HOST:PORT)")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise NetworkError(f"{variable} must be a proxy's address, such as "
                           "http://proxy.example.org:3128")
    auth = None
    if parts.username is not None:
        auth = (unquote(parts.username), unquote(parts.password or ""))
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    where = f"{parts.scheme}://{host}" + (f":{port}" if port else "")
    return Proxy(where, auth, variable)


def ssl_context() -> ssl.SSLContext:
    """The context that checks a site's certificate against what the environment trusts.
    Raises NetworkError for a file or folder it names that cannot be read."""
    files = [(name, os.environ[name]) for name in CA_VARIABLES if os.environ.get(name)]
    folder = os.environ.get(CA_DIRECTORY)
    if not files and not folder:
        return httpx.create_ssl_context(trust_env=False)  # certifi's bundle
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    for name, path in files:
        try:
            context.load_verify_locations(cafile=path)
        except (OSError, ssl.SSLError) as exc:
            raise NetworkError(f"{name} names {path}, which cannot be read as certificates: "
                               f"{getattr(exc, 'strerror', None) or exc}") from None
    if folder:
        if not os.path.isdir(folder):
            raise NetworkError(f"{CA_DIRECTORY} names {folder}, which is not a folder")
        context.load_verify_locations(capath=folder)
    return context


def untrusted(exc: BaseException) -> ssl.SSLCertVerificationError | None:
    """The certificate failure behind a transport error, if that is what it was."""
    seen: BaseException | None = exc
    for _ in range(8):  # httpx wraps httpcore's error, which wraps ssl's
        if seen is None:
            return None
        if isinstance(seen, ssl.SSLCertVerificationError):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None
