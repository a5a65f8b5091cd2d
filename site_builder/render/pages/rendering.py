"""`render_pages`: every page of the site (`templates.SitePages`) handed to `write`, with the
theme files and the Mermaid release; the one entry point the build and `serve` call. It never
touches the disk itself.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping
from typing import TYPE_CHECKING

from site_builder.archive.archive import Archive
from site_builder.render.pages.mermaid_release import release as mermaid_release
from site_builder.render.pages.templates import SitePages
from site_builder.render.pages.theme import Theme
from site_builder.render.pages.urls import Urls
from site_builder.render.search.index import MANIFEST, SearchIndex

if TYPE_CHECKING:
    from site_builder.render.markdown.to_html import RenderedBody


def render_pages(archive: Archive, bodies: Mapping[str, RenderedBody], urls: Urls,
                 write: Callable[[str, str | bytes | Iterable[bytes]], None],
                 only: Container[str] | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 checkpoint: Callable[[], None] | None = None,
                 search_index: bool = True, drawn: set[str] | None = None) -> int:
    """Write every HTML page (home, projects, records, tags, timeline, search, 404), the
    theme files, and the Mermaid release when a page written has a diagram, through
    `write(rel_path, data)`; return the number of pages written.
    `progress(done, total)` hears of each page written.

    With `only` (site paths), write just those pages, theme files and search-index files, at
    a cost in proportion to them: `serve` re-renders what an edit touched this way. A path in
    `only` that names no file is skipped (the page no longer exists). `checkpoint()` is
    called now and then while the search index analyses the records; raising there stops.
    Without `search_index`, the caller writes the index (a build has it computed in a worker
    process meanwhile: `search.index_files`).

    `drawn` (ids of the records whose pages draw a diagram) is kept up to date with the
    record pages rendered; when it is not empty at the end the Mermaid release is written
    even if no page rendered here draws one (an incremental build keeps such pages).
    """
    wanted = (lambda path: True) if only is None else only.__contains__
    site = SitePages(archive, bodies, urls, Theme(archive.config.root))
    if drawn is not None:
        site.drawn = drawn
    for path, data in site.theme_files():
        if wanted(path):
            write(path, data)
    # The search index and the pages before the record pages need no rendered body: a
    # whole build writes the index first, while the bodies are still being rendered; a
    # selection writes it last, since it takes the longest and the pages are what a
    # reader of `serve` is waiting for.
    index_first = only is None
    if index_first and search_index:
        _write_index(archive, write, wanted, checkpoint)
    count = _write_planned(site, write, wanted, progress)
    if not index_first and search_index:
        _write_index(archive, write, wanted, checkpoint)
    return count


def _write_planned(site: SitePages, write: Callable[[str, str | bytes | Iterable[bytes]], None],
                   wanted: Callable[[str], bool],
                   progress: Callable[[int, int], None] | None) -> int:
    """Write the planned pages `wanted` names, with the Mermaid release before the first of
    them when the site draws diagrams; return how many pages were written."""
    # Counting the plan costs no rendering: every path is known up front.
    total = sum(1 for page in site.planned() if wanted(page.path)) if progress else 0
    count = 0
    released = False
    for page in site.planned():
        if not wanted(page.path):
            continue
        html = page.make()  # whole, or a listing's chunks (rendered as they are written)
        assert html is not None, page.path
        # The Mermaid release goes out before the first page written (a site without a
        # diagram publishes none of it), so `serve`, which shows each file as it is
        # written, never shows a diagram page whose script is not there yet. Written
        # whenever a page written here needs it, `only` or not, so a preview that gains
        # its first diagram gains the release too.
        if site.draws_diagrams and not released:
            for path, data in mermaid_release().files():
                write(path, data)
            released = True
        write(page.path, html)
        count += 1
        if progress:
            progress(count, total)
    if site.drawn and not released:
        for path, data in mermaid_release().files():
            write(path, data)
    return count


def _write_index(archive: Archive, write: Callable[[str, str | bytes], None],
                 wanted: Callable[[str], bool], checkpoint: Callable[[], None] | None) -> None:
    """The search index's files, when its manifest is wanted (it stands for all of them)."""
    if wanted(MANIFEST):
        for path, data in SearchIndex(archive, checkpoint).files():
            if wanted(path):
                write(path, data)
