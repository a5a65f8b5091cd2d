"""The Mermaid release the theme ships (`theme/mermaid/`), and where a site publishes it.

The release is the npm package's ES-module build: a small entry module and the chunks it
imports, each diagram type and layout engine in chunks of its own, so a page fetches only what
its diagrams need (a flowchart about a third of the whole). `SHA256SUMS` in the folder lists
every file of the set with its SHA-256 (`make mermaid` writes it, and the Makefile pins its own
hash); only the files it lists are published.

The chunks import each other by relative name (`./chunks/mermaid.esm.min/chunk-….mjs`), so they
keep their names and places under one folder; that folder is fingerprinted instead, named by
the first characters of the SHA256SUMS hash, so a host may cache it forever. A site publishes
the folder only when one of its pages has a diagram.
"""

from __future__ import annotations

import functools
import hashlib
import posixpath
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from site_builder.render.pages.theme import ASSETS_DIR, THEME, builtin_folder

__all__ = ["ENTRY", "FOLDER", "SUMS", "MermaidRelease", "release"]

FOLDER = "mermaid"
"""The release's folder inside the built-in theme."""
SUMS = "SHA256SUMS"
ENTRY = "mermaid.esm.min.mjs"
"""The module a page imports; it imports the rest."""


@dataclass(frozen=True)
class MermaidRelease:
    """The vendored files, read from `folder` as its SHA256SUMS lists them."""

    folder: Path
    sums: bytes
    """The bytes of SHA256SUMS: `<sha256>  <relative path>` lines."""

    @functools.cached_property
    def listed(self) -> dict[str, str]:
        """Relative path (POSIX) → its SHA-256 as SHA256SUMS gives it, in the file's order.

        Raises ValueError on a line that is not `<64 hex digits>  <path>`, or on a path that
        would leave the folder (an absolute path, or one with `..`).
        """
        out: dict[str, str] = {}
        for number, line in enumerate(self.sums.decode("utf-8").splitlines(), 1):
            digest, sep, rel = line.partition("  ")
            if (not sep or len(digest) != 64 or not rel or rel.startswith("/")
                    or ".." in rel.split("/")):
                raise ValueError(f"{self.folder / SUMS}:{number}: not '<sha256>  <path>'")
            out[rel] = digest
        return out

    @functools.cached_property
    def site_folder(self) -> str:
        """Where the site publishes the set: `assets/mermaid.<hash>`, the hash of SHA256SUMS."""
        return f"{ASSETS_DIR}/{FOLDER}.{hashlib.sha256(self.sums).hexdigest()[:10]}"

    @property
    def entry(self) -> str:
        """The site path of the module a page imports."""
        return posixpath.join(self.site_folder, ENTRY)

    def files(self) -> Iterator[tuple[str, bytes]]:
        """(site path, bytes) of every listed file, in SHA256SUMS order.

        Raises OSError when a listed file is missing (a broken installation).
        """
        for rel in self.listed:
            yield posixpath.join(self.site_folder, rel), (self.folder / rel).read_bytes()


@functools.cache
def release() -> MermaidRelease:
    """The built-in theme's Mermaid release, read once per process.

    Raises FileNotFoundError when the theme has no `mermaid/SHA256SUMS` (a broken installation).
    """
    folder = builtin_folder(THEME) / FOLDER
    return MermaidRelease(folder, (folder / SUMS).read_bytes())
