"""What every page is made of besides its template: links from the page, and listing rows.

`PageLinks` is a page's `link(target)`; `ListedRows` renders each record's listing row once
and fills in its links for every page that lists it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from functools import cached_property
from typing import Any

from markupsafe import Markup, escape

from site_builder.render.pages import views
from site_builder.render.pages.theme import Theme
from site_builder.render.pages.urls import Urls, encode_path

# Encoding a path keeps its segments, so the relative link between two encoded paths is the
# encoded relative link; and a site links to the same few thousand paths again and again.
encoded = functools.lru_cache(maxsize=1 << 16)(encode_path)


class PageLinks:
    """`link(target)` in templates: a link from one page to site path `target`,
    percent-encoded; relative, or from the server root with `server_paths`.

    One per page, handed to the template as a plain callable rather than a Jinja context
    function: Jinja gives a context function a fresh copy of the context on every call made
    inside a loop, which cost more than the links themselves on listing pages. Links are
    remembered for the page, since a listing links to the same tag pages row after row.
    """

    __slots__ = ("_here", "_known", "_server_paths", "_urls")

    def __init__(self, here: str, urls: Urls, server_paths: bool) -> None:
        # As written, not encoded, as links from templates always were (nav links start from
        # the encoded path): the two differ only inside a shared folder whose name needs
        # encoding, where both links work, and the output stays as it was.
        self._here = here
        self._urls = urls
        self._server_paths = server_paths
        self._known: dict[str, str] = {}

    def __call__(self, target: str) -> str:
        found = self._known.get(target)
        if found is None:
            if self._server_paths:
                found = self._urls.site_path(encoded(target))
            else:
                found = Urls.relative(self._here, encoded(target))
            self._known[target] = found
        return found


class ListedRows:
    """The HTML of listing rows (`record_row` of listing.html), each rendered once per record
    and kind of listing with its links left open, then completed for each page listing it.

    A record is listed on its project page, the timeline and every page of its tags; its row
    differs between them only in its links, which are relative to the page. Filling in a few
    links costs a small part of rendering the row again.
    """

    # Stands for a link while a row is rendered. It cannot come out of an escaped value (any
    # "<" in one is written "&lt;"), and the row's template has no reason to write it.
    HOLE = Markup("<\x00>")

    def __init__(self, theme: Theme) -> None:
        self._theme = theme
        self._targets: list[str] = []
        self._open: dict[tuple[str, bool, bool], tuple[list[str], list[str]]] = {}

    def html(self, link: Callable[[str], str], row: views.Row, show_project: bool,
             compact: bool) -> Markup:
        """The row's HTML with its links made by `link` (the page's own)."""
        key = (row.page, show_project, compact)
        found = self._open.get(key)
        if found is None:
            found = self._open[key] = self._render(row, show_project, compact)
        return self._filled(link, *found)

    def once(self, link: Callable[[str], str], row: views.Row, show_project: bool,
             compact: bool) -> Markup:
        """As `html`, for a row no other page lists alike: nothing is kept of it."""
        return self._filled(link, *self._render(row, show_project, compact))

    def _filled(self, link: Callable[[str], str], parts: list[str],
                targets: list[str]) -> Markup:
        out = [parts[0]]
        for target, part in zip(targets, parts[1:], strict=True):
            out.append(escape(link(target)))
            out.append(part)
        return Markup("".join(out))

    def forget(self) -> None:
        """Let go of every row's HTML; rows asked for again are rendered again."""
        self._open.clear()

    def _render(self, row: views.Row, show_project: bool,
                compact: bool) -> tuple[list[str], list[str]]:
        """The row's HTML split at its links, and the site paths they lead to."""
        self._targets = []
        # As a plain str: Markup.split would make a Markup of every part.
        html = str(self._template.record_row(row, show_project, compact))
        parts = html.split(self.HOLE)
        if len(parts) != len(self._targets) + 1:
            raise ValueError(f"listing.html record_row writes {self.HOLE!r} itself")
        return parts, self._targets

    @cached_property
    def _template(self) -> Any:
        """listing.html as a module whose `link` leaves holes and notes their targets."""
        return self._theme.template("listing.html").make_module({"link": self._hole})

    def _hole(self, target: str) -> Markup:
        self._targets.append(target)
        return self.HOLE
