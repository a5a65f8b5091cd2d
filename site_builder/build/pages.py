"""The HTML pages of the site (home, projects, records, tags, timeline, 404) and theme assets.

STUB: a minimal renderer that keeps the build pipeline testable until the Jinja2 templates
land; its signature is the interface the build uses.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Container, Mapping

from site_builder.archive.archive import Archive
from site_builder.build.markdown import RenderedBody
from site_builder.build.urls import Urls


def _page(title: str, body: str, markdown_href: str | None = None) -> str:
    alternate = (f'<link rel="alternate" type="text/markdown" href="{html.escape(markdown_href)}">'
                 if markdown_href else "")
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{html.escape(title)}</title>\n{alternate}\n</head>\n"
            f"<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n")


def render_pages(archive: Archive, bodies: Mapping[str, RenderedBody], urls: Urls,
                 write: Callable[[str, str | bytes], None],
                 only: Container[str] | None = None) -> int:
    """Write every HTML page (home, projects, records, tags, timeline, 404) and theme assets
    through `write(rel_path, data)`; return the number of pages written.

    With `only` (site paths), write just those of the pages and theme files, at a cost in
    proportion to them: `serve` re-renders what an edit touched this way. A path in `only`
    that names no page is skipped (the page no longer exists).
    """
    wanted = (lambda path: True) if only is None else only.__contains__
    count = 0
    for record in archive.records:
        page = urls.record_page(record)
        if not wanted(page):
            continue
        body = bodies[record.id]
        markdown_href = urls.relative(page, urls.record_markdown(record))
        write(page, _page(record.title, f"<h1>{html.escape(record.title)}</h1>\n{body.html}",
                          markdown_href))
        count += 1
    if wanted(urls.HOME_PAGE):
        items = [f'<li><a href="{html.escape(urls.relative(urls.HOME_PAGE, page))}">'
                 f"{html.escape(record.title)}</a></li>"
                 for record in archive.records for page in [urls.record_page(record)]]
        write(urls.HOME_PAGE, _page(archive.config.title,
                                    f"<h1>{html.escape(archive.config.title)}</h1>\n"
                                    f"<ul>\n{chr(10).join(items)}\n</ul>"))
        count += 1
    return count
