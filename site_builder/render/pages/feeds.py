"""feed.xml (Atom), sitemap.xml and robots.txt.

Dates come from the records, never from the clock, so the same archive gives the same bytes.
Every text goes through `_text`/`_attr`, which also drop the characters XML 1.0 cannot hold
(YAML refuses them already; a name from the file system could still carry one), so the feed
and the sitemap are well-formed whatever a title says.
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from collections.abc import Iterable

from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.base.site_paths import FEED, NOT_FOUND_PAGE, SITEMAP
from site_builder.render.pages.urls import Urls, encode_path

FEED_ENTRIES = 50
# What XML 1.0's Char production leaves out, listed (compiled in a tenth of the time of
# its complement, `[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]`).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# What XML needs escaped in text, and in a double-quoted attribute value (where a literal
# tab or line break would be read back as a space). xml.sax.saxutils does the same, but
# importing it loads urllib.request, http.client and ssl: 20 ms of every build's start.
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTRIBUTE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                            "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"})


def escape(text: str) -> str:
    """`text` as XML character data: escaped, and without characters XML cannot hold."""
    return _NOT_XML.sub("", text).translate(_TEXT)


def quoteattr(text: str) -> str:
    """`text` as a double-quoted XML attribute value, likewise."""
    return '"' + _NOT_XML.sub("", text).translate(_ATTRIBUTE) + '"'


def _stamp(day: dt.date) -> str:
    return f"{day.isoformat()}T00:00:00Z"


def _href(urls: Urls, path: str) -> str:
    """Absolute with `url` set; otherwise relative to the site root, where the feed lives."""
    absolute = urls.absolute(encode_path(path))
    if absolute is not None:
        return absolute
    return encode_path(urls.relative(FEED, path))


def _updated(record: Record) -> dt.date:
    return max(record.date, record.reviewed) if record.reviewed else record.date


def _entry_id(archive: Archive, urls: Urls, record: Record) -> str:
    absolute = urls.absolute(encode_path(urls.record_page(record)))
    if absolute is not None:
        return absolute
    # Without a site URL, a stable name-based UUID keeps entries identifiable across builds.
    return uuid.uuid5(uuid.NAMESPACE_URL,
                      f"site-builder:{archive.config.title}:{record.id}").urn


def atom_feed(archive: Archive, urls: Urls) -> str:
    """The newest FEED_ENTRIES records as an Atom feed."""
    config = archive.config
    records = archive.records[:FEED_ENTRIES]
    updated = max((_updated(r) for r in records), default=dt.date(1970, 1, 1))
    feed_id = urls.absolute("index.html") or uuid.uuid5(
        uuid.NAMESPACE_URL, f"site-builder:{config.title}").urn
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        f"  <title>{escape(config.title)}</title>",
    ]
    if config.description:
        out.append(f"  <subtitle>{escape(config.description)}</subtitle>")
    out += [
        f"  <id>{escape(feed_id)}</id>",
        f"  <updated>{_stamp(updated)}</updated>",
        f'  <link rel="self" type="application/atom+xml" href={quoteattr(_href(urls, FEED))}/>',
        f'  <link rel="alternate" type="text/html" href={quoteattr(_href(urls, "index.html"))}/>',
        f"  <author><name>{escape(config.title)}</name></author>",
        "  <generator>site-builder</generator>",
    ]
    for record in records:
        out += _entry(archive, urls, record)
    out.append("</feed>")
    return "\n".join(out) + "\n"


def _entry(archive: Archive, urls: Urls, record: Record) -> list[str]:
    page = _href(urls, urls.record_page(record))
    copy = _href(urls, urls.record_markdown(record))
    lines = [
        "  <entry>",
        f"    <title>{escape(f'{record.ref}: {record.title}')}</title>",
        f"    <id>{escape(_entry_id(archive, urls, record))}</id>",
        f'    <link rel="alternate" type="text/html" href={quoteattr(page)}/>',
        f'    <link rel="alternate" type="text/markdown" href={quoteattr(copy)}/>',
        f"    <published>{_stamp(record.date)}</published>",
        f"    <updated>{_stamp(_updated(record))}</updated>",
    ]
    lines += [f"    <author><name>{escape(name)}</name></author>" for name in record.authors]
    project = archive.projects.get(record.project)
    lines.append(f"    <category term={quoteattr(record.project)}"
                 f" label={quoteattr(project.name if project else record.project)}/>")
    lines += [f"    <category term={quoteattr(tag)}/>"
              for tag in dict.fromkeys(record.tags) if tag != record.project]
    if record.description:
        lines.append(f"    <summary>{escape(record.description)}</summary>")
    lines.append("  </entry>")
    return lines


def sitemap(archive: Archive, urls: Urls, html_pages: Iterable[str]) -> str | None:
    """sitemap.xml listing every HTML page but 404.html; None when `url` is not set (a
    sitemap needs absolute URLs)."""
    if not archive.config.url:
        return None
    modified = {urls.record_page(r): _updated(r) for r in archive.records}
    out = ['<?xml version="1.0" encoding="utf-8"?>',
           '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    for page in sorted(set(html_pages)):
        if page == NOT_FOUND_PAGE:
            continue
        location = urls.absolute(encode_path(page))
        last = modified.get(page)
        stamp = f"<lastmod>{last.isoformat()}</lastmod>" if last else ""
        out.append(f"  <url><loc>{escape(location or page)}</loc>{stamp}</url>")
    out.append("</urlset>")
    return "\n".join(out) + "\n"


def robots_txt(urls: Urls, has_sitemap: bool) -> str:
    """robots.txt allowing everything, and naming the sitemap when there is one."""
    lines = ["User-agent: *", "Allow: /"]
    if has_sitemap:
        lines += ["", f"Sitemap: {urls.absolute(SITEMAP)}"]
    return "\n".join(lines) + "\n"
