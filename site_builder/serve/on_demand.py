"""Pages served before the first build has written them: `serve` answers at once.

`serve` listens and prints its address before it has read a record. While the first build
runs behind, a request for a file the store does not hold yet is answered here: as soon as
the archive is loaded and checked, the one page asked for is made by the build's own code
(`SitePages.planned`, the agent files' `planned`, the theme files), so its bytes are those
the build writes; a record page renders its own body alone, in this thread, the way an edit
does (`update_bodies`). Anything else (the search index, the sitemap, the Mermaid release,
files bodies link to) waits for the first build. An archive with errors is never shown:
nothing is made, and the request waits for the first build, which shows the errors instead
of a site.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping

from site_builder.archive.archive import Archive
from site_builder.archive.static import static_files
from site_builder.base.site_paths import SITEMAP
from site_builder.render.agents import artifacts
from site_builder.render.markdown.bodies import RenderedBodies, update_bodies
from site_builder.render.markdown.to_html import RenderedBody
from site_builder.render.pages.templates import SitePages
from site_builder.render.pages.theme import Theme
from site_builder.render.pages.urls import Urls
from site_builder.render.search.index import MANIFEST, OUTPUT_DIR

Made = str | bytes


class _OneBody(Mapping[str, RenderedBody]):
    """Record id → rendered body, each rendered when first asked for (a page asks for its
    own record's body only)."""

    def __init__(self, archive: Archive) -> None:
        self.archive = archive
        self.bodies = RenderedBodies({}, None, {})

    def __getitem__(self, record_id: str) -> RenderedBody:
        if record_id not in self.archive.by_id:
            raise KeyError(record_id)
        self.bodies = update_bodies(self.archive, self.bodies, [record_id])
        return self.bodies[record_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self.archive.by_id)

    def __len__(self) -> int:
        return len(self.archive.by_id)


class FirstBuild:
    """The state of `serve`'s first build, shared by the rebuild loop and the HTTP threads."""

    def __init__(self) -> None:
        self._checked = threading.Event()
        self._done = threading.Event()
        self._archive: Archive | None = None
        self._lock = threading.Lock()  # one page made at a time: pages share their caches
        self._pages: SitePages | None = None

    # ---- the rebuild loop's side --------------------------------------------------------------

    def checked(self, archive: Archive | None) -> None:
        """The archive is loaded and checked: `archive`, or None when it has errors."""
        self._archive = archive
        self._checked.set()

    def finished(self) -> None:
        """The first build is in the store (or was refused); nothing is made here after."""
        self._checked.set()
        self._done.set()
        self._archive = self._pages = None

    # ---- the HTTP threads' side ---------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the first build to be in the store. Returns False on `timeout`."""
        return self._done.wait(timeout)

    def make(self, rel: str, timeout: float | None = None) -> Made | None:
        """The file at site path `rel`, made on its own, or None when it is not one made on
        demand (wait for the first build then), the archive has errors or the first build is
        done. Waits up to `timeout` seconds for the archive to be checked."""
        if self.done or not self._checked.wait(timeout):
            return None
        with self._lock:
            archive = self._archive
            if archive is None:
                return None
            return _make(archive, self._site(archive), rel)

    def _site(self, archive: Archive) -> SitePages:
        if self._pages is None or self._pages.archive is not archive:
            self._pages = SitePages(archive, _OneBody(archive), Urls(archive.config),
                                    Theme(archive.config.root))
        return self._pages


def _make(archive: Archive, site: SitePages, rel: str) -> Made | None:
    """The bytes the build writes at `rel`, when it is a page, a theme file, an agent file or
    a static file; None for anything else (the Mermaid release too: the build publishes it
    only when some page draws a diagram, which only the whole build knows)."""
    if rel in (SITEMAP, MANIFEST) or rel.startswith(f"{OUTPUT_DIR}/"):
        return None
    if rel.endswith(".html"):
        for page in site.planned():
            if page.path == rel:
                made = page.make()  # a listing comes in chunks
                assert made is not None, rel
                return made if isinstance(made, str | bytes) else b"".join(made)
    for path, data in site.theme_files():
        if path == rel:
            return data
    for item in artifacts.planned(archive, site.urls):
        if item.path == rel:
            made = item.make()
            return made if made is None or isinstance(made, str | bytes) else b"".join(made)
    for path, source in static_files(archive.config):
        if path == rel:
            return source.read_bytes()
    return None
