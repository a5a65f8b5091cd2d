"""Opening the archive a server answers from: a content folder or a published site.

The MCP server over stdio, over HTTP and as an ASGI app all start here, so each refuses the
same things with the same one line on stderr and the same exit status: a broken site.yml
(1), no archive, both or neither of a folder and an address, or an address that is not a
site (2).
"""

from __future__ import annotations

from site_builder.access.source import Source, log_to_stderr

__all__ = ["URL_MESSAGE", "open_source"]

URL_MESSAGE = "--url must be the address of a published site"
ARCHIVE_ERRORS, USAGE = 1, 2


def open_source(root: str | None, url: str | None, timeout: float | None = None,
                cache_ttl: float | None = None) -> Source | int:
    """The source for an archive folder (`root`, or the nearest above the current folder)
    or a published site's `url`; an exit status, after one line on stderr, when it cannot
    serve. `timeout` and `cache_ttl` (seconds) default to remote mode's own."""
    if url is not None:
        if root is not None:
            log_to_stderr("use either --root or --url, not both")
            return USAGE
        return _remote(url, timeout, cache_ttl)
    return _local(root)


def _remote(address: str, timeout: float | None, cache_ttl: float | None) -> Source | int:
    # Imported when the server starts: every other command's `--help` stays light.
    from site_builder.access.network import NetworkError
    from site_builder.access.remote import (
        DEFAULT_TIMEOUT,
        DEFAULT_TTL,
        PublishedSite,
        RemoteSource,
        site_url,
    )

    url = site_url(address)
    if url is None:
        log_to_stderr(URL_MESSAGE)
        return USAGE
    timeout = DEFAULT_TIMEOUT if timeout is None else timeout
    ttl = DEFAULT_TTL if cache_ttl is None else cache_ttl
    if timeout <= 0 or ttl < 0:
        log_to_stderr("--timeout must be above 0 and --cache-ttl 0 or more")
        return USAGE
    try:
        return RemoteSource(PublishedSite(url, timeout=timeout, ttl=ttl))
    except NetworkError as exc:
        log_to_stderr(str(exc))
        return USAGE


def _local(given: str | None) -> Source | int:
    from site_builder.access.source import LocalSource
    from site_builder.base.findings import has_errors
    from site_builder.config.site import NoArchive, find_archive, load_config

    try:
        root = find_archive(given)
    except NoArchive as exc:
        log_to_stderr(str(exc))
        return USAGE
    config, findings = load_config(root)
    for finding in findings:
        log_to_stderr(finding.format())
    if config is None or has_errors(findings):
        log_to_stderr(f"{root / 'site.yml'} cannot be used; the server did not start")
        return ARCHIVE_ERRORS
    return LocalSource(config)
