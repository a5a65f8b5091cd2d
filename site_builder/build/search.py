"""Full-text search for the site: a Pagefind index of the record pages, under `pagefind/`.

Pagefind (https://pagefind.app) splits its index into small content-addressed chunks, so a
query downloads tens of kilobytes whatever the archive's size; why it was chosen over a JSON
index is recorded in `example-site/content/build/rfc/0001-search-on-a-static-host.md`.

The build hands each rendered record page to `SearchIndex.add`; `SearchIndex.files` runs the
Pagefind binary (shipped in the `pagefind[extended]` wheel) over a scratch copy of those pages
and returns the bundle's files, which the build writes like any other output file. Only
`<article data-pagefind-body>`, the record itself, is indexed.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

OUTPUT_DIR = "pagefind"
# Files of Pagefind's bundle that the site's own search page does not load: the prebuilt UI
# (we render results ourselves, under our CSP) and the playground.
_UNUSED = ("pagefind-ui.", "pagefind-modular-ui.", "pagefind-component-ui.", "playground/")


class SearchIndexError(RuntimeError):
    """Pagefind is missing or failed; the message says which and how to fix it."""


class SearchIndex:
    """Record pages collected during a build, indexed in one Pagefind run at the end."""

    def __init__(self) -> None:
        self._pages: list[tuple[str, str]] = []

    def add(self, path: str, html: str) -> None:
        """Queue the page at site path `path` (`build/adr/0001-x/index.html`) for indexing."""
        self._pages.append((path, html))

    def files(self) -> Iterator[tuple[str, bytes]]:
        """Run Pagefind; yield (site path, bytes) of every file of the bundle, sorted by path.

        Raises SearchIndexError when Pagefind is not installed or fails.
        """
        with tempfile.TemporaryDirectory(prefix="site-builder-search-") as scratch:
            site = Path(scratch) / "site"
            out = Path(scratch) / OUTPUT_DIR
            for path, html in self._pages:
                target = site / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(html, encoding="utf-8")
            site.mkdir(exist_ok=True)
            _run_pagefind(site, out)
            for file in sorted(p for p in out.rglob("*") if p.is_file()):
                rel = file.relative_to(out).as_posix()
                if rel.startswith(_UNUSED):
                    continue
                yield f"{OUTPUT_DIR}/{rel}", file.read_bytes()


def _run_pagefind(site: Path, out: Path) -> None:
    command = [sys.executable, "-m", "pagefind", "--site", str(site), "--output-path", str(out),
               "--force-language", "en", "--silent"]
    try:
        # Run in the scratch folder so that no pagefind.yml of the user's is picked up.
        done = subprocess.run(command, capture_output=True, text=True, check=False,
                              cwd=site.parent)
    except OSError as exc:  # pragma: no cover - the interpreter itself is missing
        raise SearchIndexError(f"could not run Pagefind: {exc}") from exc
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        if "No module named pagefind" in done.stderr:
            raise SearchIndexError("the search index needs Pagefind: "
                                   "pip install 'site-builder[search]'")
        raise SearchIndexError("Pagefind failed: " + (detail[-1] if detail else "no output"))
