"""Record bodies → sanitised HTML with a table of contents.

A body goes through the site's renderer (`renderers`: cmark-gfm by default, or
Python-Markdown) and then through the one HTML pass every renderer shares (`html_pass`):
sanitising, heading ids, highlighting, link rewriting and alerts.
"""

from __future__ import annotations

from dataclasses import dataclass

from site_builder.archive.records import Record
from site_builder.render.markdown.headings import TocEntry
from site_builder.render.markdown.highlight import HIGHLIGHT_CLASS
from site_builder.render.markdown.html_pass import finish
from site_builder.render.markdown.links import LinkResolver, Origin
from site_builder.render.markdown.renderers import DEFAULT, RenderRefused, renderer
from site_builder.render.markdown.sanitise import sanitise

__all__ = ["HIGHLIGHT_CLASS", "BodyRenderer", "RenderRefused", "RenderedBody", "TocEntry",
           "sanitise"]


@dataclass(frozen=True, slots=True)
class RenderedBody:
    """A record body rendered for its HTML page.

    `html` is sanitised with links rewritten; `toc` lists every heading in order; `assets`
    are the files beside records the body links to, as output paths (relative to the site
    root), which the build copies.
    """

    html: str
    toc: tuple[TocEntry, ...]
    assets: tuple[str, ...] = ()


class BodyRenderer:
    """Renders record bodies with one renderer, reused for every body.

    Not thread-safe: keep one per process (the build keeps one per worker).
    """

    def __init__(self, resolve: LinkResolver, markdown: str = DEFAULT) -> None:
        self._resolve = resolve
        self._render = renderer(markdown)

    def render(self, source: Record | Origin, body: str) -> RenderedBody:
        """`body` (of a record, or from the given origin) as sanitised HTML, its headings and
        the assets it links to. Raises RenderRefused, naming the source file, for a body the
        renderer will not render."""
        origin = source if isinstance(source, Origin) else Origin.of(source)
        try:
            raw = self._render(body)
        except RenderRefused as refused:
            raise RenderRefused(f"{origin.path}:1: error: {refused}") from None
        html, toc, assets = finish(raw, origin, self._resolve)
        return RenderedBody(html, toc, assets)
