"""Where every file of a built site lives: the one table of output paths.

Paths are POSIX and relative to the site root (`build/adr/0001-x/index.html`). The build
writes there, `serve` answers from there, remote mode reads the agent files from there and
`check` refuses a project folder whose name the site itself takes. A page is known by its
URL path with `index.html` dropped (`build/adr/0001-x/`), which `url_path` gives.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Protocol

__all__ = [
    "AGENTS", "ASSETS", "DECISIONS", "FAVICON", "FEED", "GENERATED_FOLDERS", "HOME_PAGE", "LLMS",
    "LLMS_FULL", "NOT_FOUND_PAGE", "PREVIEW_FOLDER", "RESERVED_FOLDERS", "ROBOTS", "ROOT_FILES",
    "SCHEMA", "SEARCH_DIR",
    "SEARCH_PAGE", "SITEMAP",
    "TAGS_PAGE", "TIMELINE_PAGE", "pages_by_source", "project_page", "record_markdown",
    "record_page", "tag_page", "tag_slug", "url_path",
]


class _Record(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def path(self) -> object: ...


# ---- files at the site root ----------------------------------------------------------------

HOME_PAGE = "index.html"
SEARCH_PAGE = "search.html"
NOT_FOUND_PAGE = "404.html"
DECISIONS = "decisions.json"
SCHEMA = "decisions.schema.json"
LLMS = "llms.txt"
LLMS_FULL = "llms-full.txt"
AGENTS = "AGENTS.md"
FEED = "feed.xml"
SITEMAP = "sitemap.xml"
ROBOTS = "robots.txt"
FAVICON = "favicon.svg"          # a theme file published at the root, unhashed
# Every file above: what a build writes at the root (a static file may not take one).
ROOT_FILES = frozenset({
    HOME_PAGE, SEARCH_PAGE, NOT_FOUND_PAGE, DECISIONS, SCHEMA, LLMS, LLMS_FULL, AGENTS, FEED,
    SITEMAP, ROBOTS, FAVICON,
})

# ---- folders the site itself takes ---------------------------------------------------------

ASSETS = "assets"                 # theme files, hashed names
SEARCH_DIR = f"{ASSETS}/search"   # the sharded search index
TAGS_PAGE = "tags/index.html"
TIMELINE_PAGE = "timeline/index.html"
# A project of one of these names would collide with the site's own pages.
RESERVED_FOLDERS = frozenset({ASSETS, TAGS_PAGE.split("/")[0], TIMELINE_PAGE.split("/")[0]})
PREVIEW_FOLDER = "__site-builder__"   # `serve`'s own event stream and problems
# The folders a build owns whole (hash-named assets, tag and timeline pages, the preview's).
GENERATED_FOLDERS = RESERVED_FOLDERS | {PREVIEW_FOLDER}


# ---- pages of the archive ------------------------------------------------------------------


def record_page(record: _Record) -> str:
    return f"{record.id}/index.html"


def record_markdown(record: _Record) -> str:
    return f"{record.id}.md"


def project_page(project_id: str) -> str:
    return f"{project_id}/index.html"


def tag_slug(tag: str) -> str:
    """A URL-safe folder name for a tag (`Data Model` → `data-model`)."""
    text = unicodedata.normalize("NFKC", tag).casefold()
    slug = re.sub(r"[^\w.-]+", "-", text).strip("-.")
    return slug or "tag"


def tag_page(tag: str) -> str:
    return f"tags/{tag_slug(tag)}/index.html"


def pages_by_source(records: Iterable[_Record]) -> dict[str, str]:
    """Each record's source file (as a string) → its page: how links between source files
    (`../rfc/0001-x.md`) find the pages they point at."""
    return {str(r.path): record_page(r) for r in records}


def url_path(path: str) -> str:
    """The path a page is known by in URLs: `index.html` dropped (`a/index.html` → `a/`)."""
    if path == HOME_PAGE or path.endswith("/" + HOME_PAGE):
        return path[: -len(HOME_PAGE)]
    return path
