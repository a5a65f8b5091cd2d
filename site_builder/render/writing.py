"""Phase two of a build: a loaded, checked archive → every file of the site, through a writer.

Bodies render in worker processes (cached on disk) while this process writes the agent files
and the pages that need no body, then each record page as its body arrives, and the files
bodies link to. An incremental build (`increment.Increment`) makes only the files it names
and keeps the rest through `keep`; `build_site` writes through `Output`, `serve` through its
memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from site_builder.archive import attachments
from site_builder.archive.archive import Archive
from site_builder.archive.static import static_files
from site_builder.base.confined import Refused
from site_builder.base.site_paths import SITEMAP
from site_builder.render.agents.artifacts import write_artifacts
from site_builder.render.increment import Increment
from site_builder.render.markdown.bodies import (
    BodyStats,
    RenderedBodies,
    environment_key,
    render_bodies,
)
from site_builder.render.markdown.body_cache import BodyCache
from site_builder.render.markdown.links import SourceLinks, asset_source
from site_builder.render.pages import rendering as pages
from site_builder.render.pages.theme import Theme
from site_builder.render.pages.urls import Urls
from site_builder.render.parallel import Background, in_background
from site_builder.render.search.index import index_files

# progress(stage, done, total): called now and then while a build runs.
Progress = Callable[[str, int, int], None]
Index = Background[list[tuple[str, bytes]]] | None


class FileWriter(Protocol):
    """Where files go by site path (POSIX, relative to the site root)."""

    def write(self, rel: str, data: str | bytes | Iterable[bytes]) -> None: ...
    def copy(self, rel: str, source: Path) -> None: ...
    def exists(self, rel: str) -> bool: ...


class SiteWriter(FileWriter, Protocol):
    """What phase two writes through: `Output` (a folder, swapped in on commit) or the
    memory `serve` answers from; `written` holds every path written so far."""

    written: set[str]


class KeepingWriter(SiteWriter, Protocol):
    """A writer that can also keep a file of the previous output as it is (`Output`)."""

    def keep(self, rel: str) -> None: ...


@dataclass(slots=True)
class Made:
    """What phase two made: the pages, the search index's files, the assets bodies link to
    by record id, and the records whose pages draw a diagram."""

    pages: int = 0
    search: list[str] = field(default_factory=list)
    assets: dict[str, tuple[str, ...]] = field(default_factory=dict)
    drawn: set[str] = field(default_factory=set)


def write_site(archive: Archive, out: SiteWriter, jobs: int | None = None,
               progress: Progress | None = None) -> RenderedBodies:
    """Phase two alone, through any writer: for `serve`, which keeps a loaded and checked
    archive and the site in memory. Renders the bodies (through the same cache as
    `build_site`), writes every file through `out` and returns the bodies, so that single
    pages can be rendered again later; committing `out` is the caller's business."""
    report = progress or (lambda stage, done, total: None)
    body_cache = BodyCache(archive.config.cache_dir / "cache" / "bodies",
                           environment_key(archive))
    index, bodies, _ = start_rendering(archive, body_cache, jobs)
    write_files(archive, bodies, index, out, report)
    return bodies


def start_rendering(archive: Archive, cache: BodyCache | None, jobs: int | None,
                    keyed: tuple[SourceLinks, dict[str, str]] | None = None,
                    increment: Increment | None = None,
                    ) -> tuple[Index, RenderedBodies, BodyStats]:
    """Start the search index and the bodies (those an `increment` makes pages of, when
    there is one). The index first: its worker is forked without a thread, while the body
    workers' pool starts one, after which nothing more forks. The index starts from the
    analysis the cache folder keeps when there is a `cache`, and only a build that keeps
    what it made (an `increment`) keeps the analysis too: `serve` reads it, never writes."""
    index = (in_background(index_files, archive, cache is not None, increment is not None,
                           jobs=jobs)
             if increment is None or increment.search else None)
    needed = None
    if increment is not None and increment.full is None:
        needed = {r.id for r in archive.records if Urls.record_page(r) in increment.make}
    bodies, stats = render_bodies(archive, cache, jobs, keyed=keyed, needed=needed)
    return index, bodies, stats


def write_files(archive: Archive, bodies: RenderedBodies, index: Index, out: SiteWriter,
                report: Progress, increment: Increment | None = None,
                kept: Made | None = None) -> Made:
    """Write agent files, pages and linked assets while the bodies are still arriving and
    the search `index` is computed. The bodies are all in (or stopped, on an error) on
    return. With an `increment`, `out` is a KeepingWriter: what the increment keeps is
    kept, and `kept` holds what the last build knew of the kept pages (assets, diagrams).

    The agent files come first: they need no body, so this process writes them while the
    workers render; so is the index when this process computes it. An index computed by a
    worker is written once the pages are; the sitemap comes last: it needs the list of pages.
    """
    urls = Urls(archive.config)
    write = out.write
    made = Made(drawn={i for i in kept.drawn if i in archive.by_id} if kept else set())
    only = _keep(archive, out, increment)

    def write_index() -> None:
        if index is not None:
            for path, data in index.result():
                write(path, data)
                made.search.append(path)

    try:
        write_artifacts(archive, urls, write, only=_AllBut(SITEMAP, only))
        if index is not None and not index.elsewhere:
            write_index()
        made.pages = pages.render_pages(
            archive, bodies, urls, write, only=only, search_index=False, drawn=made.drawn,
            progress=lambda done, total: report("writing pages", done, total))
        bodies.wait()
        if index is not None and index.elsewhere:
            write_index()
    finally:
        if index is not None:
            index.close()
        bodies.close()  # stops the workers on an error; commits the cache either way
    report("finishing", 0, 0)
    _write_last(archive, urls, out, only)
    made.assets = _assets(archive, bodies, kept if only is not None else None)
    copy_assets(archive, made.assets, out)
    if only is not None and increment is not None:
        made.pages += sum(rel.endswith(".html") for rel in increment.keep)
    return made


def _keep(archive: Archive, out: SiteWriter, increment: Increment | None) -> _Made | None:
    """Keep what an incremental build keeps, and return what it makes (None: everything)."""
    if increment is None or increment.full is not None:
        return None
    keeper: KeepingWriter = out  # type: ignore[assignment]
    for rel in increment.keep:
        keeper.keep(rel)
    return _Made(increment.make, Theme(archive.config.root).published.values())


def _write_last(archive: Archive, urls: Urls, out: SiteWriter, only: _Made | None) -> None:
    """The sitemap (it lists every page), then the static files."""
    html_pages = sorted(rel for rel in out.written if rel.endswith(".html"))
    if only is None or SITEMAP in only:
        write_artifacts(archive, urls, out.write, html_pages, only=(SITEMAP,))
    # After the sitemap (a verification page is no page of the site), before the files
    # bodies link to (a static file of the same name is the one the author meant).
    for rel, source in static_files(archive.config):
        out.copy(rel, source)


def _assets(archive: Archive, bodies: RenderedBodies,
            kept: Made | None) -> dict[str, tuple[str, ...]]:
    """Record id → the files its body links to: each body's own, or for a page kept
    unread, what the last build found in it."""
    if kept is None:
        return bodies.assets()
    fresh = bodies.handed_out()
    return {record.id: fresh[record.id] if record.id in fresh
            else tuple(kept.assets.get(record.id, ())) for record in archive.records}


class _Made:
    """The site paths an incremental build makes: its planned files and the theme's (which
    every build compares byte for byte)."""

    def __init__(self, make: set[str], theme: Iterable[str]) -> None:
        self.make = make
        self.theme = frozenset(theme)

    def __contains__(self, path: object) -> bool:
        return path in self.make or path in self.theme


class _AllBut:
    """Every site path of `within` (of all, for None) except one (an `only=` filter)."""

    def __init__(self, excluded: str, within: _Made | None = None) -> None:
        self.excluded = excluded
        self.within = within

    def __contains__(self, path: object) -> bool:
        return path != self.excluded and (self.within is None or path in self.within)


def copy_assets(archive: Archive, assets: Mapping[str, Iterable[str]], out: FileWriter) -> None:
    """Copy the files bodies link to (`assets`: site paths by record id, as
    `RenderedBodies.assets`), each to its place relative to the content folder, unless `out`
    has a file there already; an SVG is written as its cleaned copy (archive.attachments),
    never as it is. Links resolve only to kinds that may be published, so nothing else
    reaches here. Raises OSError for a file that cannot be read."""
    for record_id, paths in assets.items():
        record = archive.by_id[record_id]
        for rel in paths:
            if out.exists(rel):  # a generated file of the same name wins
                continue
            source = asset_source(record, rel)
            if attachments.kind(rel) == "safe":
                out.copy(rel, source)
                continue
            try:
                out.write(rel, attachments.published_bytes(source, record.content_folder))
            except (Refused, attachments.SvgRefused):
                continue  # `check` reports it at the linking line; nothing is published
