"""The archive as site.yml describes it: its own content folder, then every `sources` entry.

What every front end reads (build, check, serve, the MCP server's local mode, the CLI's
queries): the loader, handed the content roots that `resolve` makes from site.yml.
"""

from __future__ import annotations

from pathlib import Path

from site_builder.archive.archive import Archive
from site_builder.archive.loader import LoaderCache
from site_builder.archive.loader import load_archive as read_roots
from site_builder.config.site import SiteConfig
from site_builder.sources.resolve import content_roots

__all__ = ["LoaderCache", "load_archive"]


def load_archive(root: Path, cache: LoaderCache | None = None,
                 config: SiteConfig | None = None) -> Archive:
    """The archive at `root` with its sources (a `repo:` source the cache lacks is cloned);
    see `archive.loader.load_archive`."""
    return read_roots(root, cache, config, content_roots)
