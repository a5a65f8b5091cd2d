"""Links in bodies between source files, rewritten for the HTML pages.

A link to another record's source (`../rfc/0001-x.md#options`) becomes a relative link to its
page; a link to a file beside the records (`img/flow.png`) becomes a relative link to a copy
of it, which the build places at the same path relative to the content folder. The `.md`
copies keep links as written: they sit at those same relative places, so links still work.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.treeprocessors import Treeprocessor

from site_builder.archive.archive import Archive
from site_builder.archive.links import is_local, local_path, split_target
from site_builder.archive.records import Record
from site_builder.build.urls import Urls


@dataclass(frozen=True, slots=True)
class Resolved:
    """Where a link in a body points in the output: `path` (relative to the site root), the
    `?query#fragment` to keep, and whether `path` is an asset the build must copy."""

    path: str
    suffix: str = ""
    asset: bool = False


LinkResolver = Callable[[Record, str], Resolved | None]

# `href`/`src` attributes in raw HTML, with the value in double or single quotes.
_RAW_LINK = re.compile(r"""(\s(?:href|src)\s*=\s*)(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)


def content_root(record: Record) -> Path:
    """The content folder a record was loaded from (`<root>/<project>/<type>/<file>`)."""
    return record.path.parents[2]


class SourceLinks:
    """Resolves links written in bodies against one archive (a LinkResolver)."""

    def __init__(self, archive: Archive) -> None:
        self._archive = archive
        self._files: dict[Path, bool] = {}

    def __call__(self, record: Record, target: str) -> Resolved | None:
        """Where `target`, written in `record`'s body, points in the output; None when the
        link is not to a record or a publishable file, and stays as written."""
        if not target or not is_local(target):
            return None
        path = local_path(record.path, target)
        _, suffix = split_target(target)
        other = self._archive.record_at(path)
        if other is not None:
            return Resolved(Urls.record_page(other), suffix)
        root = content_root(record)
        try:
            inside = path.relative_to(root)
        except ValueError:
            return None  # files outside the content folder are never published
        if (path.suffix == ".md" or any(part.startswith(".") for part in inside.parts)
                or not self._is_file(path)):
            return None
        return Resolved(inside.as_posix(), suffix, asset=True)

    def _is_file(self, path: Path) -> bool:
        known = self._files.get(path)
        if known is None:
            known = self._files[path] = path.is_file()
        return known

    def signature(self, record: Record) -> tuple[tuple[str, str], ...]:
        """How every local link of `record` resolves: part of its render-cache key, so a body
        is rendered again when a record or file it links to appears, moves or goes."""
        targets = [link.target for link in record.links]
        body = self._archive.body(record)
        if "<" in body:  # raw HTML links (`<img src=…>`) are rewritten too
            targets += [html.unescape(m.group(2) if m.group(2) is not None else m.group(3))
                        for m in _RAW_LINK.finditer(body)]
        out = []
        for target in targets:
            resolved = self(record, target)
            out.append((target, "" if resolved is None else
                        f"{resolved.path}{resolved.suffix}{'+' if resolved.asset else ''}"))
        return tuple(out)


# ---- the Python-Markdown extension --------------------------------------------------------

class _Document:
    """Per-document state: the record being rendered and the assets its links need."""

    def __init__(self) -> None:
        self.record: Record | None = None
        self.assets: dict[str, None] = {}


def _rewrite(resolve: LinkResolver, state: _Document, value: str) -> str | None:
    if state.record is None:
        return None
    resolved = resolve(state.record, value)
    if resolved is None:
        return None
    if resolved.asset:
        state.assets[resolved.path] = None
    return Urls.relative(Urls.record_page(state.record), resolved.path) + resolved.suffix


class SourceLinkTreeprocessor(Treeprocessor):
    """Rewrites `href` of links and `src` of images on the element tree."""

    def __init__(self, md: Markdown, resolve: LinkResolver, state: _Document) -> None:
        super().__init__(md)
        self.resolve = resolve
        self.state = state

    def run(self, root: Element) -> None:
        for element in root.iter():
            attribute = "href" if element.tag == "a" else "src" if element.tag == "img" else None
            value = element.get(attribute) if attribute else None
            if attribute and value:
                new = _rewrite(self.resolve, self.state, value)
                if new is not None:
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
            if isinstance(block, str) and ("href" in block or "src" in block):
                stash[index] = _RAW_LINK.sub(self._replace, block)
        return text

    def _replace(self, match: re.Match[str]) -> str:
        written = match.group(2) if match.group(2) is not None else match.group(3)
        new = _rewrite(self.resolve, self.state, html.unescape(written))
        if new is None:
            return match.group(0)
        return f'{match.group(1)}"{html.escape(new, quote=True)}"'


class SourceLinkExtension(Extension):
    """Rewrites links between source files to page URLs, and collects linked assets.

    Call `start(record)` before converting a record's body and `finish()` after; `finish`
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
        self.state.record = None
        self.state.assets = {}

    def start(self, record: Record) -> None:
        self.state.record = record
        self.state.assets = {}

    def finish(self) -> tuple[str, ...]:
        assets = tuple(self.state.assets)
        self.reset()
        return assets
