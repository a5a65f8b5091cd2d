"""Links in bodies between source files, rewritten in the rendered HTML for the pages.

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
        return self.path.parents[2]


LinkResolver = Callable[[Origin, str], Resolved | None]

# `](target` in any text: links Python-Markdown may find where cmark-gfm sees none (inside
# an admonition's indented block). Bounded, so one scan stays linear on any input.
_LOOSE_LINK = re.compile(r"\]\([ \t]{0,8}<?([^()\s<>]{1,2048})")


def content_root(record: Record) -> Path:
    """The content folder a record was loaded from (`<root>/<project>/<type>/<file>`)."""
    return record.path.parents[2]


class SourceLinks:
    """Resolves links written in bodies (a LinkResolver), knowing only where each record's
    source file is and where its page goes."""

    def __init__(self, pages: dict[str, str]) -> None:
        """`pages` maps each record's source path (as a string) to its page path."""
        self._pages = pages
        self._files: dict[Path, bool] = {}

    @classmethod
    def of(cls, archive: Archive) -> SourceLinks:
        return cls({str(r.path): Urls.record_page(r) for r in archive.records})

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
        try:
            inside = path.relative_to(origin.content_root)
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


# ---- rewriting rendered HTML --------------------------------------------------------------

class LinkRewriter:
    """Rewrites the links of one body's HTML; `assets` collects, in order of first use, the
    output paths of the files beside records it links to."""

    def __init__(self, resolve: LinkResolver, origin: Origin) -> None:
        self.resolve = resolve
        self.origin = origin
        self.assets: dict[str, None] = {}

    def tag(self, name: str, attributes: str) -> str:
        """The `<a …>` or `<img …>` tag with its `href`/`src` pointing at the output."""
        match = (_HREF if name == "a" else _SRC).search(attributes)
        if match is None:
            return f"<{name} {attributes}>"
        resolved = self.resolve(self.origin, html.unescape(match.group(1)))
        if resolved is None:
            return f"<{name} {attributes}>"
        if resolved.asset:
            self.assets[resolved.path] = None
        new = Urls.relative(self.origin.page, resolved.path) + resolved.suffix
        value = html.escape(new, quote=True)
        return f"<{name} {attributes[:match.start(1)]}{value}{attributes[match.end(1):]}>"


# After sanitising every attribute value is in double quotes.
_HREF = re.compile(r'(?:^|\s)href="([^"]*)"')
_SRC = re.compile(r'(?:^|\s)src="([^"]*)"')
