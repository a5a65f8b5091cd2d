"""Markdown → HTML with cmark-gfm, GitHub's own renderer (the `cmarkgfm` bindings).

One place sets the extensions and options, so the build's HTML and the links `check` reads
come from the same parse. Raw HTML is passed through (`UNSAFE`) because the build sanitises
every body afterwards with an allow-list.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

# GitHub's extension set: tables, bare-URL autolinks, ~~strikethrough~~ and task lists;
# footnotes are an option of the core parser. Not the tag filter: it turns `<script>` into
# text shown on the page, where the sanitiser every body goes through drops it altogether.
# `~one~` strikes through, as on GitHub (a lone `~5 ms` stays prose: nothing closes it).
EXTENSIONS = ("table", "autolink", "strikethrough", "tasklist")


@cache
def _bindings() -> tuple[Any, Any, Callable[[int], None], Callable[[int], None]]:
    """cmark-gfm's functions, its cffi interface, and the two frees its Python wrapper
    never calls (imported on first use: `check` on an archive without links never needs the
    C library)."""
    import ctypes

    from cmarkgfm import cmark

    # cmarkgfm's `markdown_to_html_with_extensions` frees the parser but neither the document
    # tree `cmark_parser_finish` hands over nor the HTML string `cmark_render_html` returns:
    # about 65 KB lost per body, 1.5 GB over a 10,000-record build. Both functions are
    # exported by the bindings' own library; the string comes from the C library's malloc.
    # Called through ctypes: declaring them to cffi would load its C parser (pycparser), 35 ms
    # of every build's start.
    node_free = ctypes.CDLL(cmark._cmark.__file__).cmark_node_free
    free = ctypes.CDLL(None).free
    for function in (node_free, free):
        function.argtypes, function.restype = [ctypes.c_void_p], None
    cmark._cmark.lib.cmark_gfm_core_extensions_ensure_registered()
    return cmark, cmark._cmark, node_free, free


def to_html(body: str, sourcepos: bool = False, extensions: tuple[str, ...] = EXTENSIONS,
            footnotes: bool = True) -> str:
    """`body` as HTML, as GitHub renders it before sanitising; with `sourcepos`, block
    elements carry `data-sourcepos="line:col-line:col"` (1-based lines of `body`).

    `extensions` and `footnotes` are GitHub's unless a caller asks for fewer: the GFM spec
    states each of its examples with the extensions it uses, and its conformance test
    renders them so. The same calls as cmarkgfm's `markdown_to_html_with_extensions`, with
    everything they allocate freed. Raises ValueError for an unknown extension."""
    cmark, bindings, node_free, free = _bindings()
    lib, ffi = bindings.lib, bindings.ffi
    flags = cmark.Options.CMARK_OPT_UNSAFE
    if sourcepos:
        flags |= cmark.Options.CMARK_OPT_SOURCEPOS
    if footnotes:
        flags |= cmark.Options.CMARK_OPT_FOOTNOTES
    parser = lib.cmark_parser_new(flags)
    try:
        for name in extensions:
            extension = lib.cmark_find_syntax_extension(name.encode("utf-8"))
            if extension == ffi.NULL:
                raise ValueError(f"Unknown extension {name}")
            lib.cmark_parser_attach_syntax_extension(parser, extension)
        encoded = body.encode("utf-8")
        lib.cmark_parser_feed(parser, encoded, len(encoded))
        root = lib.cmark_parser_finish(parser)
        try:
            raw = lib.cmark_render_html(root, flags, lib.cmark_parser_get_syntax_extensions(parser))
            try:
                return str(ffi.string(raw).decode("utf-8"))
            finally:
                free(_address(ffi, raw))
        finally:
            node_free(_address(ffi, root))
    finally:
        lib.cmark_parser_free(parser)


def _address(ffi: Any, pointer: Any) -> int:
    """A cffi pointer as the plain address ctypes takes."""
    return int(ffi.cast("uintptr_t", pointer))


def version() -> str:
    """The cmark-gfm release the bindings were built from (`0.29.0.gfm.13`)."""
    _, bindings, _, _ = _bindings()
    raw = bindings.lib.cmark_version_string()
    return str(bindings.ffi.string(raw).decode("ascii"))
