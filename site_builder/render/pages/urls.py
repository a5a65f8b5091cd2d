"""Links between the files of the site (whose places `site_paths` says).

Pages link to each other with relative URLs, so a site works under any `base` and without
`url`; absolute URLs (feed, sitemap, llms.txt with `url` set) are `url + base + path`.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from site_builder.base import site_paths
from site_builder.base.site_paths import tag_slug, url_path
from site_builder.config.site import SiteConfig

__all__ = ["Urls", "encode_path", "tag_slug"]


def encode_path(path: str) -> str:
    """`path` percent-encoded for use in a URL (spaces, `(`, `)`, non-ASCII; `/` kept)."""
    return quote(path, safe="/-._~!$&'*+,;=:@")


@dataclass(frozen=True, slots=True)
class Urls:
    """The site's URL scheme for one config."""

    config: SiteConfig

    # The output paths, as the table in site_paths gives them.
    record_page = staticmethod(site_paths.record_page)
    record_markdown = staticmethod(site_paths.record_markdown)
    project_page = staticmethod(site_paths.project_page)
    tag_page = staticmethod(site_paths.tag_page)
    TAGS_PAGE = site_paths.TAGS_PAGE
    TIMELINE_PAGE = site_paths.TIMELINE_PAGE
    HOME_PAGE = site_paths.HOME_PAGE

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
        return f"{self.config.url}{self.config.base}{url_path(path)}"

    def for_agents(self, path: str) -> str:
        """A site file's URL as agent files write it (llms.txt, AGENTS.md): absolute with
        `url` set, else relative to the site root; percent-encoded, so that `)`, spaces and
        the like cannot end a Markdown link early."""
        encoded = encode_path(path)
        absolute = self.absolute(encoded)
        return absolute if absolute is not None else encoded

    def site_path(self, path: str) -> str:
        """`base + path`: the server-absolute path (for 404.html, which any URL may serve)."""
        return f"{self.config.base}{url_path(path)}"
