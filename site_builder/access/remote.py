"""Remote mode: read a published site over HTTP and serve it as the same Archive.

`PublishedSite` fetches files of the site: each response is kept `ttl` seconds (30 by
default), then revalidated with If-None-Match / If-Modified-Since, so an unchanged
decisions.json costs a 304 and no parsing. The site is not trusted: every request must be
done within `timeout` seconds (10 by default) from connecting to the last byte, every file
has a size limit that holds after each decoding layer (`site_builder.access.fetch`), and a
redirect is followed only to the same origin, below the site's path, at most twice
(AGENTS-ADR-0010: a published site is hostile input). The proxy and the trusted certificates
come from the environment (`site_builder.access.network`); going through a proxy changes none
of those rules.
`RemoteSource` turns decisions.json into an Archive (`site_builder.access.published`),
reading bodies lazily: one `.md` copy for one record, and llms-full.txt, in one request,
when a text search needs every body.
"""

from __future__ import annotations

import json
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit, urlunsplit

import httpx

from site_builder import __version__
from site_builder.access import fetch, network
from site_builder.access.jsonshape import PublishedError
from site_builder.access.published import (
    archive_from_index,
    bad_patterns,
    bodies_from_full,
    project_names,
    site_path,
)
from site_builder.access.source import Log, SourceError, log_to_stderr
from site_builder.archive.archive import Archive
from site_builder.archive.records import Record, split_front_matter
from site_builder.base.site_paths import DECISIONS, LLMS, LLMS_FULL

DEFAULT_TIMEOUT = 10.0
DEFAULT_TTL = 30.0
MB = 1024 * 1024
# Size limits per file: the index of a very large archive fits in the first, a single
# record in the second; llms-full.txt holds every body of the archive.
LIMITS = {DECISIONS: 64 * MB, LLMS: 16 * MB, LLMS_FULL: 512 * MB}
MD_LIMIT = 4 * MB
# Markdown copies kept in memory; older ones are fetched again when asked for.
_MAX_CACHED_COPIES = 2000
MAX_REDIRECTS = 2
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_LOGGED_PATTERNS = 10  # bad affects patterns named in the log per decisions.json


class FetchError(SourceError):
    """A file of the site could not be read; the message names its URL and what failed."""


def site_url(given: str) -> str | None:
    """The site's address with a trailing `/`, or None when `given` is not an http(s) URL."""
    parts = urlsplit(given.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


@dataclass(slots=True)
class Response:
    """A cached file: its bytes, its validators, and when it was last known fresh.

    A 304, or a 200 with the same bytes, refreshes `checked` (and the validators) on the
    same object, so whatever was derived from an unchanged file (keyed by the object's
    identity) stays valid.
    """

    data: bytes
    etag: str | None
    modified: str | None
    checked: float

    def text(self, url: str) -> str:
        try:
            return self.data.decode("utf-8")
        except UnicodeDecodeError:
            raise FetchError(f"{url} is not UTF-8 text") from None


class PublishedSite:
    """Files of one published site, fetched over HTTP with a short cache."""

    def __init__(self, url: str, timeout: float = DEFAULT_TIMEOUT, ttl: float = DEFAULT_TTL,
                 client: httpx.Client | None = None) -> None:
        """Raises network.NetworkError for a proxy or certificate setting it cannot use."""
        self.url = url
        self.timeout = timeout
        self.ttl = ttl
        # Redirects are followed by hand (`_redirect`), and the proxy and certificates are
        # read here rather than by httpx (trust_env=False), so every connection, the
        # proxy's included, goes through the deadline transport.
        self.proxy = network.proxy_for(url)
        self._client = client or httpx.Client(
            transport=fetch.DeadlineTransport(self.proxy, network.ssl_context()),
            follow_redirects=False, trust_env=False,
            headers={"User-Agent": f"site-builder/{__version__} mcp",
                     "Accept-Encoding": fetch.ACCEPT_ENCODING})
        self._origin = httpx.URL(url)
        self._cache: OrderedDict[str, Response] = OrderedDict()

    def fresh(self, path: str) -> Response | None:
        """The cached copy of `path` while it is fresh, without contacting the site."""
        cached = self._cache.get(self.url_of(path))
        if cached is not None and time.monotonic() - cached.checked < self.ttl:
            return cached
        return None

    def url_of(self, path: str) -> str:
        """The URL of a file of the site, its relative `path` checked and percent-encoded."""
        site_path(path, "path")
        return self.url + "/".join(quote(segment, safe="") for segment in path.split("/"))

    def fetch(self, path: str, limit: int) -> Response:
        """The file at `path`, from the cache while fresh. Raises FetchError."""
        url = self.url_of(path)
        cached = self._cache.get(url)
        if cached is not None and time.monotonic() - cached.checked < self.ttl:
            self._cache.move_to_end(url)
            return cached
        headers = {}
        if cached is not None and cached.etag:
            headers["If-None-Match"] = cached.etag
        if cached is not None and cached.modified:
            headers["If-Modified-Since"] = cached.modified
        fresh = self._get(url, headers, limit, cached)
        self._cache[url] = fresh
        self._cache.move_to_end(url)
        while len(self._cache) > _MAX_CACHED_COPIES:
            self._cache.popitem(last=False)
        return fresh

    def _get(self, url: str, headers: dict[str, str], limit: int,
             cached: Response | None) -> Response:
        token = fetch.deadline.set(time.monotonic() + self.timeout)
        try:
            target = url
            for _hop in range(MAX_REDIRECTS + 1):
                with self._client.stream("GET", target, headers=headers,
                                         timeout=self.timeout) as response:
                    if response.status_code not in _REDIRECTS:
                        return self._received(url, response, limit, cached)
                    target = self._redirect(url, response)
            raise FetchError(f"{url} redirects more than {MAX_REDIRECTS} times; "
                             "not followed further")
        except httpx.TimeoutException:
            raise FetchError(f"{url} did not answer within {self.timeout:g}s") from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            # InvalidURL: httpx reads a redirect's Location even when it does not follow it.
            raise FetchError(self._failure(url, exc)) from None
        finally:
            fetch.deadline.reset(token)

    def _failure(self, url: str, exc: Exception) -> str:
        """One line saying why `url` could not be read."""
        via = f" through the proxy {self.proxy.url} ({self.proxy.variable})" if self.proxy \
            else ""
        bad = network.untrusted(exc)
        if bad is not None:
            return (f"{url} could not be read{via}: its certificate is not trusted "
                    f"({bad.verify_message}); if a private CA signed it, name the CA's file "
                    "in SSL_CERT_FILE or REQUESTS_CA_BUNDLE")
        return f"{url} could not be read{via}: {exc or type(exc).__name__}"

    def _redirect(self, url: str, response: httpx.Response) -> str:
        """Where a redirect of `url` leads, when that is inside the site. Raises FetchError."""
        location = response.headers.get("location")
        if not location:
            raise FetchError(f"{url} answered HTTP {response.status_code} without a Location")
        try:
            target = response.url.join(location)
        except (httpx.InvalidURL, ValueError):
            raise FetchError(f"{url} redirects to {location[:200]!r}, which is not an "
                             "address") from None
        site = self._origin
        path = unquote(target.raw_path.decode("ascii", "replace").split("?", 1)[0])
        if ((target.scheme, target.host, target.port) != (site.scheme, site.host, site.port)
                or target.userinfo or not path.startswith(site.path)
                or ".." in path.split("/")):
            raise FetchError(f"{url} redirects to {target}, outside {self.url}; redirects are "
                             "followed only within the site")
        return str(target)

    def _received(self, url: str, response: httpx.Response, limit: int,
                  cached: Response | None) -> Response:
        """The file in a (non-redirect) response. Raises FetchError and httpx errors."""
        if response.status_code == 304 and cached is not None:
            cached.checked = time.monotonic()
            return cached
        if response.status_code != 200:
            raise FetchError(f"{url} answered HTTP {response.status_code} "
                             f"{response.reason_phrase}".rstrip())
        declared = response.headers.get("content-length", "")
        if declared.isascii() and declared.isdigit() and int(declared[:20]) > limit:
            raise FetchError(_too_large(url, limit))
        try:
            data = fetch.read_body(response, limit)
        except fetch.TooLarge:
            raise FetchError(_too_large(url, limit)) from None
        except fetch.BadEncoding as exc:
            raise FetchError(f"{url} {exc}") from None
        etag, modified = response.headers.get("etag"), response.headers.get("last-modified")
        if cached is not None and data == cached.data:
            # Unchanged although the host did not say so (it sends no validators, or new
            # ones for the same bytes): keep the object, and with it the Archive and
            # indexes built from it.
            cached.etag, cached.modified, cached.checked = etag, modified, time.monotonic()
            return cached
        return Response(data, etag, modified, time.monotonic())

    def forget(self, path: str) -> None:
        """Drop a cached file, so the next fetch reads it again (it was unusable)."""
        self._cache.pop(self.url_of(path), None)

    def close(self) -> None:
        self._client.close()


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:40]} is too large for a JSON number")
    return value


def _too_large(url: str, limit: int) -> str:
    return f"{url} is larger than {limit // MB} MB; refusing to read it"


class RemoteSource:
    """A published site as an Archive, rebuilt only when its decisions.json changes."""

    open_world = True

    def __init__(self, site: PublishedSite, log: Log = log_to_stderr) -> None:
        self.site = site
        self._log = log
        self._index: Response | None = None
        self._archive: Archive | None = None
        self._full: tuple[Response, Archive | None, dict[str, str]] | None = None

    def archive(self) -> Archive:
        """The archive decisions.json describes now. Raises FetchError."""
        index = self.site.fetch("decisions.json", LIMITS["decisions.json"])
        if index is not self._index or self._archive is None:
            try:
                archive = self._read_index(index)
            except FetchError:
                # A file that cannot be used is not kept: the next call reads it again, so
                # a fixed site is seen at once.
                self.site.forget("decisions.json")
                raise
            self._index, self._archive = index, archive
            self._log_bad_patterns(archive)
        return self._archive

    def _log_bad_patterns(self, archive: Archive) -> None:
        """Name the affects patterns that match nothing, once per decisions.json."""
        lines = bad_patterns(archive)
        url = self.site.url_of("decisions.json")
        for line in lines[:_LOGGED_PATTERNS]:
            self._log(f"{url}: {line}")
        if len(lines) > _LOGGED_PATTERNS:
            self._log(f"{url}: ... and {len(lines) - _LOGGED_PATTERNS} more such patterns")

    def _read_index(self, index: Response) -> Archive:
        url = self.site.url_of("decisions.json")
        try:
            data = json.loads(index.text(url), parse_constant=_no_constant,
                              parse_float=_finite)
        except ValueError as exc:
            raise FetchError(f"{url} is not valid JSON: {exc}") from None
        except RecursionError:
            raise FetchError(f"{url} is not valid JSON: it is nested too deeply") from None
        try:
            return archive_from_index(data, self._body, self._all_bodies, self._project_names)
        except PublishedError as exc:
            raise FetchError(f"{url} cannot be used: {exc}") from None
        except (ValueError, TypeError, LookupError, AttributeError, OverflowError,
                RecursionError) as exc:
            # The decoder missed a wrong shape: still the site's data, not a server fault,
            # so the call fails with a message and the trace goes to the log for a fix.
            self._log(f"unexpected problem decoding {url}:\n{traceback.format_exc()}")
            raise FetchError(f"{url} cannot be used: {type(exc).__name__}: {exc}") from None

    def warm(self, then: Callable[[Archive], None] | None = None) -> None:
        """Nothing: remote mode contacts the site only when a call needs it."""

    def unchanged(self) -> Archive | None:
        """The archive read from decisions.json while the cached copy of it is fresh."""
        index = self.site.fresh("decisions.json")
        return self._archive if index is not None and index is self._index else None

    def _body(self, record: Record) -> str:
        response = self.site.fetch(record.rel_path, MD_LIMIT)
        return split_front_matter(response.text(self.site.url_of(record.rel_path)))[1]

    def _all_bodies(self) -> Mapping[str, str]:
        response = self.site.fetch("llms-full.txt", LIMITS["llms-full.txt"])
        archive = self._archive
        if self._full is None or self._full[0] is not response or self._full[1] is not archive:
            ids = set(archive.by_id) if archive is not None else set()
            text = response.text(self.site.url_of("llms-full.txt"))
            self._full = (response, archive, bodies_from_full(text, ids))
        return self._full[2]

    def _project_names(self) -> Mapping[str, str]:
        try:
            response = self.site.fetch("llms.txt", LIMITS["llms.txt"])
            return project_names(response.text(self.site.url_of("llms.txt")), self.site.url)
        except FetchError as exc:
            self._log(f"{exc}; naming projects after their folders")
            return {}
