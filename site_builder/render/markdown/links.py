"""Links in bodies between source files, rewritten in the rendered HTML for the pages.

A link to another record's source (`../rfc/0001-x.md#options`) becomes a relative link to its
page; a link to a file beside the records (`img/flow.png`) becomes a relative link to a copy
of it, which the build places at the same path relative to the content folder. The `.md`
copies keep links as written: they sit at those same relative places, so links still work.

Only files of a kind that is safe on the site's origin are linked as copies (see
`archive.attachments`); a link to any other file stays as written and nothing is copied.
Every `href` and `src` of a body, rewritten or not, that a browser would read as a URL with
a scheme other than http, https or mailto is dropped (the link text stays): a folder named
`javascript:alert(1)` must not turn a relative link into a script.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from site_builder.archive import attachments
from site_builder.archive.archive import Archive
from site_builder.archive.links import (
    attachment,
    is_local,
    local_path,
    record_paths,
    split_target,
)
from site_builder.archive.links import content_root as _content_root
from site_builder.archive.records import Record
from site_builder.base.site_paths import pages_by_source
from site_builder.render.pages.urls import Urls


@dataclass(frozen=True, slots=True)
class Resolved:
    """Where a link in a body points in the output: `path` (relative to the site root), the
    `?query#fragment` to keep, and whether `path` is an asset the build must copy; `external`
    when `path` is an address of its own (a repository file under `repo_url`)."""

    path: str
    suffix: str = ""
    asset: bool = False
    external: bool = False


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a body comes from: its record's page (`<id>/index.html`) and source file.

    All that rendering a body needs to know about its record, small enough to send to a
    worker process.
    """

    page: str
    path: Path

    @classmethod
    def of(cls, record: Record) -> Origin:
        return cls(Urls.record_page(record), record.path)

    @property
    def content_root(self) -> Path:
        """The content folder the record was loaded from (`<root>/<project>/<type>/<file>`)."""
        return _content_root(self.path)


LinkResolver = Callable[[Origin, str], Resolved | None]

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
# What a browser ignores around and inside a URL before it looks for a scheme (WHATWG URL:
# leading and trailing C0 controls and spaces, and every tab and line break).
_URL_NOISE = re.compile(r"[\t\n\r]")
_C0_AND_SPACE = "".join(chr(code) for code in range(0x21))
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")


def safe_url(value: str) -> bool:
    """True when a browser reads `value` as a relative URL or one with a scheme in
    SAFE_SCHEMES; False for `javascript:`, `data:`, `vbscript:` and every other scheme,
    however it is disguised with case, spaces, tabs or line breaks."""
    found = _SCHEME.match(_URL_NOISE.sub("", value).strip(_C0_AND_SPACE))
    return found is None or found.group(1).lower() in SAFE_SCHEMES


# `](target` in any text: links Python-Markdown may find where cmark-gfm sees none (inside
# an admonition's indented block). Bounded, so one scan stays linear on any input.
_LOOSE_LINK = re.compile(r"\]\([ \t]{0,8}<?([^()\s<>]{1,2048})")


def asset_source(record: Record, rel: str) -> Path:
    """The file a body's asset published at `rel` (relative to the site root) is copied from.

    Files beside records in another tool's format are published below the records' own
    `<project>/<type>/` folder, where their `.md` copies' relative links find them.
    """
    if record.root is not None:
        return record.root / rel.removeprefix(f"{record.project}/{record.type}/")
    return record.content_folder / rel


# What resolving links needs beyond the pages: the flat folders of records in another tool's
# format (source path → (folder, `<project>/<type>/`)), and for links out of the archive the
# repository's address, its root and the records folders.
Table = tuple[dict[str, str], dict[str, tuple[str, str]], tuple[str, str, tuple[str, ...]] | None]


class SourceLinks:
    """Resolves links written in bodies (a LinkResolver), knowing only where each record's
    source file is and where its page goes."""

    def __init__(self, pages: dict[str, str], flat: dict[str, tuple[str, str]] | None = None,
                 repository: tuple[str, str, tuple[str, ...]] | None = None) -> None:
        """`pages` maps each record's source path (as a string) to its page path; `flat` and
        `repository` are as in `Table`."""
        self._pages = pages
        self._flat = flat or {}
        self._repository = repository
        self._flat_folders = {folder for folder, _ in self._flat.values()}
        self._files: dict[Path, str | None] = {}
        self._outside_files: dict[Path, str | None] = {}

    @classmethod
    def of(cls, archive: Archive) -> SourceLinks:
        return cls(*table(archive))

    @property
    def table(self) -> Table:
        """What this resolver was made from, to make the same one in a worker process."""
        return self._pages, self._flat, self._repository

    def _published(self, origin: Origin, path: Path) -> str | None:
        flat = self._flat.get(str(origin.path))
        if flat is None:
            return attachment(path, origin.content_root)
        rel = attachment(path, Path(flat[0]))
        return None if rel is None else flat[1] + rel

    def _outside(self, path: Path) -> str | None:
        """The `repo_url` address of an existing file outside every records folder
        (remembered per path, as the files that are published are)."""
        if self._repository is None:
            return None
        if path not in self._outside_files:
            url, root, folders = self._repository
            address = None
            if (not any(path.is_relative_to(folder) for folder in folders)
                    or (path.suffix == ".md" and str(path.parent) in self._flat_folders)) \
                    and path.is_relative_to(root) and path.exists():
                address = url + quote(path.relative_to(root).as_posix())
            self._outside_files[path] = address
        return self._outside_files[path]

    def __call__(self, origin: Origin, target: str) -> Resolved | None:
        """Where `target`, written in the body from `origin`, points in the output; None when
        the link is not to a record or a publishable file, and stays as written."""
        if not target or not is_local(target):
            return None
        path = local_path(origin.path, target)
        _, suffix = split_target(target)
        page = next(filter(None, map(self._pages.get, map(str, record_paths(path)))), None)
        if page is not None:
            return Resolved(page, suffix)
        if path not in self._files:
            found = self._published(origin, path)
            self._files[path] = found if found and _publishable(found) else None
        published = self._files[path]
        if published is None:
            address = self._outside(path)
            return None if address is None else Resolved(address, suffix, external=True)
        return Resolved(published, suffix, asset=True)

    def signature(self, record: Record, body: str, loose: bool = False,
                  ) -> tuple[tuple[str, str], ...]:
        """How every local link of `record` resolves: part of its render-cache key, so a body
        is rendered again when a record or file it links to appears, moves or goes.

        The links are those cmark-gfm finds in `body` (raw HTML `href`/`src` included), the
        parse the default renderer makes; `loose` adds every `](target` of the text, for a
        renderer that may find links cmark-gfm does not."""
        targets = [link.target for link in record.links]
        if loose and "](" in body:
            targets += [m.group(1) for m in _LOOSE_LINK.finditer(body)]
        origin = Origin.of(record)
        out = []
        for target in targets:
            resolved = self(origin, target)
            out.append((target, "" if resolved is None else
                        f"{resolved.path}{resolved.suffix}{'+' if resolved.asset else ''}"))
        return tuple(out)


def _publishable(rel: str) -> bool:
    """True for a kind of file the build copies (safe as it is, or SVG, which it cleans)."""
    return attachments.kind(rel) in ("safe", "svg")


def table(archive: Archive) -> Table:
    """The pages, flat folders and repository of `archive`, as `SourceLinks` takes them."""
    pages = pages_by_source(archive.records)
    flat = {str(r.path): (str(r.root), f"{r.project}/{r.type}/")
            for r in archive.records if r.root is not None}
    url = archive.config.repository_url
    repository = None
    if url is not None:
        folders = {str(archive.config.content_dir)} | {
            str(r.content_folder) for r in archive.records if r.root is not None}
        repository = (url, str(archive.config.root), tuple(sorted(folders)))
    return pages, flat, repository


# ---- rewriting rendered HTML --------------------------------------------------------------

class LinkRewriter:
    """Rewrites the links of one body's HTML; `assets` collects, in order of first use, the
    output paths of the files beside records it links to."""

    def __init__(self, resolve: LinkResolver, origin: Origin) -> None:
        self.resolve = resolve
        self.origin = origin
        self.assets: dict[str, None] = {}

    def tag(self, name: str, attributes: str) -> str:
        """The `<a …>` or `<img …>` tag with its `href`/`src` pointing at the output; the
        attribute is dropped when it would lead to a scheme other than http(s) or mailto."""
        match = (_HREF if name == "a" else _SRC).search(attributes)
        if match is None:
            return f"<{name} {attributes}>"
        written = html.unescape(match.group(1))
        resolved = self.resolve(self.origin, written)
        new = None
        if resolved is not None and resolved.external:
            new = resolved.path + resolved.suffix
        elif resolved is not None:
            if resolved.asset:
                self.assets[resolved.path] = None
            new = Urls.relative(self.origin.page, resolved.path) + resolved.suffix
        if not safe_url(new if new is not None else written):
            return f"<{name} {attributes[:match.start()]}{attributes[match.end():]}>"
        if new is None:
            return f"<{name} {attributes}>"
        value = html.escape(new, quote=True)
        return f"<{name} {attributes[:match.start(1)]}{value}{attributes[match.end(1):]}>"


# After sanitising every attribute value is in double quotes.
_HREF = re.compile(r'(?:^|\s)href="([^"]*)"')
_SRC = re.compile(r'(?:^|\s)src="([^"]*)"')
