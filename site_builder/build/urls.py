"""Where every output file lives, and links between them.

Paths are POSIX and relative to the site root (`build/adr/0001-x/index.html`). Pages link to
each other with relative URLs, so a site works under any `base` and without `url`; absolute
URLs (feed, sitemap, llms.txt with `url` set) are `url + base + path`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import quote

from site_builder.archive.records import Record
from site_builder.config import SiteConfig


def tag_slug(tag: str) -> str:
    """A URL-safe folder name for a tag (`Data Model` → `data-model`)."""
    text = unicodedata.normalize("NFKC", tag).casefold()
    slug = re.sub(r"[^\w.-]+", "-", text).strip("-.")
    return slug or "tag"


def encode_path(path: str) -> str:
    """`path` percent-encoded for use in a URL (spaces, `(`, `)`, non-ASCII; `/` kept)."""
    return quote(path, safe="/-._~!$&'*+,;=:@")


@dataclass(frozen=True, slots=True)
class Urls:
    """The site's URL scheme for one config."""

    config: SiteConfig

    # ---- output paths (relative to the site root) ----------------------------------------

    @staticmethod
    def record_page(record: Record) -> str:
        return f"{record.id}/index.html"

    @staticmethod
    def record_markdown(record: Record) -> str:
        return f"{record.id}.md"

    @staticmethod
    def project_page(project_id: str) -> str:
        return f"{project_id}/index.html"

    @staticmethod
    def tag_page(tag: str) -> str:
        return f"tags/{tag_slug(tag)}/index.html"

    TAGS_PAGE = "tags/index.html"
    TIMELINE_PAGE = "timeline/index.html"
    HOME_PAGE = "index.html"

    # ---- links ----------------------------------------------------------------------------------

    @staticmethod
    def relative(from_file: str, to_file: str) -> str:
        """A relative URL from the page at `from_file` to `to_file` (`index.html` dropped)."""
        # Plain string work rather than posixpath.relpath, which calls os.getcwd() twice per
        # link: a large site computes hundreds of thousands of these.
        start = from_file.split("/")[:-1]
        target = to_file.split("/")
        trailing = ""
        if target[-1] == "index.html":
            target.pop()
            trailing = "/"
        common = 0
        for mine, theirs in zip(start, target, strict=False):
            if mine != theirs:
                break
            common += 1
        rel = "/".join([".."] * (len(start) - common) + target[common:])
        if not rel:
            return "./"
        return rel + trailing

    def absolute(self, path: str) -> str | None:
        """`url + base + path` (`index.html` dropped), or None when `url` is not set."""
        if not self.config.url:
            return None
        if path == "index.html" or path.endswith("/index.html"):
            path = path[: -len("index.html")]
        return f"{self.config.url}{self.config.base}{path}"

    def site_path(self, path: str) -> str:
        """`base + path`: the server-absolute path (for 404.html, which any URL may serve)."""
        if path == "index.html" or path.endswith("/index.html"):
            path = path[: -len("index.html")]
        return f"{self.config.base}{path}"
