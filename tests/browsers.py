"""Where the tests find a Chromium: on PATH (Debian's `chromium`), else Playwright's own.

`make test` installs Debian's chromium when it is missing; a developer may instead have run
`playwright install chromium`, which Playwright finds by itself when no path is given.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Playwright, sync_playwright

# Flags that work as root on a machine without network (no sandbox, no calls home).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str | None:
    """The Chromium on PATH, or None to let Playwright use the browser it installed."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def launch(playwright: Playwright, **options: Any) -> Browser:
    """A headless Chromium for the tests."""
    return playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS,
                                      headless=True, **options)


@contextmanager
def chromium() -> Iterator[Browser]:
    """A headless Chromium for the length of the `with` block."""
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser
        finally:
            browser.close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """`folder` served over real HTTP on 127.0.0.1; yields the address of its root."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
