"""The HTML pages of the site (home, projects, records, tags, timeline, 404) and theme assets.

STUB: a minimal renderer that keeps the build pipeline testable until the Jinja2 templates
land; its signature is the interface the build uses.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping

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
                 write: Callable[[str, str | bytes], None]) -> int:
    """Write every HTML page (home, projects, records, tags, timeline, 404) and theme assets
    through `write(rel_path, data)`; return the number of pages written."""
    items = []
    for record in archive.records:
        page = urls.record_page(record)
        body = bodies[record.id]
        markdown_href = urls.relative(page, urls.record_markdown(record))
        write(page, _page(record.title, f"<h1>{html.escape(record.title)}</h1>\n{body.html}",
                          markdown_href))
        items.append(f'<li><a href="{html.escape(urls.relative(urls.HOME_PAGE, page))}">'
                     f"{html.escape(record.title)}</a></li>")
    write(urls.HOME_PAGE, _page(archive.config.title,
                                f"<h1>{html.escape(archive.config.title)}</h1>\n"
                                f"<ul>\n{chr(10).join(items)}\n</ul>"))
    return len(archive.records) + 1
