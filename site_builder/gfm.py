"""Markdown → HTML with cmark-gfm, GitHub's own renderer (the `cmarkgfm` bindings).

One place sets the extensions and options, so the build's HTML and the links `check` reads
come from the same parse. Raw HTML is passed through (`UNSAFE`) because the build sanitises
every body afterwards with an allow-list.
"""

from __future__ import annotations

from functools import cache
from typing import Any

# GitHub's extension set: tables, bare-URL autolinks, ~~strikethrough~~ and task lists;
# footnotes are an option of the core parser. Not the tag filter: it turns `<script>` into
# text shown on the page, where the sanitiser every body goes through drops it altogether.
# `~one~` strikes through, as on GitHub (a lone `~5 ms` stays prose: nothing closes it).
EXTENSIONS = ("table", "autolink", "strikethrough", "tasklist")


@cache
def _bindings() -> tuple[Any, Any, int]:
    # Imported on first use: `check` on an archive without links never needs the C library.
    from cmarkgfm import cmark
    options = cmark.Options
    return cmark, options, options.CMARK_OPT_UNSAFE


def to_html(body: str, sourcepos: bool = False, extensions: tuple[str, ...] = EXTENSIONS,
            footnotes: bool = True) -> str:
    """`body` as HTML, as GitHub renders it before sanitising; with `sourcepos`, block
    elements carry `data-sourcepos="line:col-line:col"` (1-based lines of `body`).

    `extensions` and `footnotes` are GitHub's unless a caller asks for fewer: the GFM spec
    states each of its examples with the extensions it uses, and its conformance test
    renders them so."""
    cmark, options, flags = _bindings()
    if sourcepos:
        flags |= options.CMARK_OPT_SOURCEPOS
    if footnotes:
        flags |= options.CMARK_OPT_FOOTNOTES
    return cmark.markdown_to_html_with_extensions(body, flags, list(extensions))


def version() -> str:
    """The cmark-gfm release the bindings were built from (`0.29.0.gfm.13`)."""
    cmark, _, _ = _bindings()
    raw = cmark._cmark.lib.cmark_version_string()
    return str(cmark._cmark.ffi.string(raw).decode("ascii"))
