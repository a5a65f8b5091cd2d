"""Where the bench and the tests find a Chromium: on PATH (Debian's `chromium`), else
Playwright's own.

`make test` installs Debian's chromium when it is missing; a developer may instead have run
`playwright install chromium`, which Playwright finds by itself when no path is given.
"""

from __future__ import annotations

import shutil
from typing import Any

from playwright.sync_api import Browser, Playwright

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
    """A headless Chromium."""
    return playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS,
                                      headless=True, **options)
