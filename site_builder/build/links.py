"""Links in bodies between source files, rewritten for the HTML pages.

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
from typing import Any
from urllib.parse import quote
from xml.etree.ElementTree import Element

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.treeprocessors import Treeprocessor

from site_builder.archive import attachments
from site_builder.archive.archive import Archive
from site_builder.archive.links import attachment, is_local, local_path, split_target
from site_builder.archive.links import content_root as _content_root
from site_builder.archive.records import Record
from site_builder.build.urls import Urls
from site_builder.site_paths import pages_by_source


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

# `href`/`src` attributes in raw HTML, with the value in double or single quotes.
_RAW_LINK = re.compile(r"""(\s(?:href|src)\s*=\s*)(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
# What a browser ignores around and inside a URL before it looks for a scheme (WHATWG URL:
# leading and trailing C0 controls and spaces, and every tab and line break).
_URL_NOISE = re.compile(r"[\t\n\r]")
_C0_AND_SPACE = "".join(chr(code) for code in range(0x21))
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_MAY_LINK = re.compile(r"href|src", re.IGNORECASE)


def safe_url(value: str) -> bool:
    """True when a browser reads `value` as a relative URL or one with a scheme in
    SAFE_SCHEMES; False for `javascript:`, `data:`, `vbscript:` and every other scheme,
    however it is disguised with case, spaces, tabs or line breaks."""
    found = _SCHEME.match(_URL_NOISE.sub("", value).strip(_C0_AND_SPACE))
    return found is None or found.group(1).lower() in SAFE_SCHEMES


def content_root(record: Record) -> Path:
    """The folder a record was loaded from: its content root, or its flat folder in
    another tool's format."""
    return record.content_folder


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
# repository's address, its root and the records folders (SPEC §3.5 "Links").
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
        self._files: dict[Path, str | None] = {}

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
        """The `repo_url` address of an existing file outside every records folder."""
        if self._repository is None:
            return None
        url, root, folders = self._repository
        flat_folders = {folder for folder, _ in self._flat.values()}
        if any(path.is_relative_to(folder) for folder in folders) and not (
                path.suffix == ".md" and str(path.parent) in flat_folders):
            return None  # a records folder's own file: a record, or published beside them
        if not path.is_relative_to(root) or not path.exists():
            return None
        return url + quote(path.relative_to(root).as_posix())

    def __call__(self, origin: Origin, target: str) -> Resolved | None:
        """Where `target`, written in the body from `origin`, points in the output; None when
        the link is not to a record or a publishable file, and stays as written."""
        if not target or not is_local(target):
            return None
        path = local_path(origin.path, target)
        _, suffix = split_target(target)
        page = self._pages.get(str(path))
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

    def signature(self, record: Record, body: str) -> tuple[tuple[str, str], ...]:
        """How every local link of `record` resolves: part of its render-cache key, so a body
        is rendered again when a record or file it links to appears, moves or goes."""
        targets = [link.target for link in record.links]
        if "<" in body:  # raw HTML links (`<img src=…>`) are rewritten too
            targets += [html.unescape(m.group(2) if m.group(2) is not None else m.group(3))
                        for m in _RAW_LINK.finditer(body)]
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


# ---- the Python-Markdown extension --------------------------------------------------------

class _Document:
    """Per-document state: where the body being rendered comes from, and the assets its
    links need."""

    def __init__(self) -> None:
        self.origin: Origin | None = None
        self.assets: dict[str, None] = {}


def _rewrite(resolve: LinkResolver, state: _Document, value: str) -> str | None:
    if state.origin is None:
        return None
    resolved = resolve(state.origin, value)
    if resolved is None:
        return None
    if resolved.external:
        return resolved.path + resolved.suffix
    if resolved.asset:
        state.assets[resolved.path] = None
    return Urls.relative(state.origin.page, resolved.path) + resolved.suffix


class SourceLinkTreeprocessor(Treeprocessor):
    """Rewrites `href` of links and `src` of images on the element tree."""

    def __init__(self, md: Markdown, resolve: LinkResolver, state: _Document) -> None:
        super().__init__(md)
        self.resolve = resolve
        self.state = state

    def run(self, root: Element) -> None:
        for element in root.iter():
            for attribute in ("href", "src"):
                value = element.get(attribute)
                if value is None:
                    continue
                new = _rewrite(self.resolve, self.state, value) if value else None
                if not safe_url(new if new is not None else value):
                    del element.attrib[attribute]
                elif new is not None:
                    element.set(attribute, new)


class RawHtmlLinkPostprocessor(Postprocessor):
    """Rewrites `href`/`src` inside raw HTML the author wrote (`<img src="flow.png">`), which
    Python-Markdown keeps out of the element tree until its own raw-HTML postprocessor."""

    def __init__(self, md: Markdown, resolve: LinkResolver, state: _Document) -> None:
        super().__init__(md)
        self.resolve = resolve
        self.state = state

    def run(self, text: str) -> str:
        stash = self.md.htmlStash.rawHtmlBlocks
        for index, block in enumerate(stash):
            if isinstance(block, str) and _MAY_LINK.search(block):
                stash[index] = _RAW_LINK.sub(self._replace, block)
        return text

    def _replace(self, match: re.Match[str]) -> str:
        written = html.unescape(match.group(2) if match.group(2) is not None
                                else match.group(3))
        new = _rewrite(self.resolve, self.state, written)
        if not safe_url(new if new is not None else written):
            return " "  # the attribute goes; the space keeps its neighbours apart
        if new is None:
            return match.group(0)
        return f'{match.group(1)}"{html.escape(new, quote=True)}"'


class SourceLinkExtension(Extension):
    """Rewrites links between source files to page URLs, and collects linked assets.

    Call `start(origin)` before converting a record's body and `finish()` after; `finish`
    returns the output paths of the assets the body linked to, in order of first use.
    """

    def __init__(self, resolve: LinkResolver, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.resolve = resolve
        self.state = _Document()

    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        # After inline patterns (20) have made the links; before the toc (5) reads headings.
        md.treeprocessors.register(
            SourceLinkTreeprocessor(md, self.resolve, self.state), "source_links", 9)
        # Before RawHtmlPostprocessor (30) puts stashed raw HTML back into the text.
        md.postprocessors.register(
            RawHtmlLinkPostprocessor(md, self.resolve, self.state), "source_links_raw", 35)

    def reset(self) -> None:
        self.state.origin = None
        self.state.assets = {}

    def start(self, origin: Origin) -> None:
        self.state.origin = origin
        self.state.assets = {}

    def finish(self) -> tuple[str, ...]:
        assets = tuple(self.state.assets)
        self.reset()
        return assets
