"""Which files linked from a body are published, and SVG made safe to publish.

A published file is served from the site's own origin, so a file that a browser runs (an HTML
page, an SVG with a script or an `onload`) would run with the site's cookies and storage. Only
kinds that a browser shows and never runs are published as they are (`SAFE_KINDS`: raster
images, PDF, plain text and data); SVG is published only after `clean_svg` has reduced it to
a strict allow-list; HTML is never published and `check` refuses a link to it; any other kind
is not published (`check` warns). The kind is the file name's extension, lower-cased, which is
also what decides the Content-Type a static host serves it with.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

from site_builder.base.confined import read_regular
from site_builder.errors import InputError

__all__ = ["HTML_KINDS", "MAX_ATTACHMENT_BYTES", "SAFE_KINDS", "SvgRefused", "clean_svg",
           "kind", "published_bytes"]

SAFE_KINDS = frozenset({
    ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif",  # raster images
    ".pdf",
    ".txt", ".csv", ".tsv", ".json", ".yaml", ".yml", ".toml", ".log", ".diff", ".patch",
})
"""Published as they are: no browser runs them (XML is left out: an XHTML document is XML)."""
SVG = ".svg"
HTML_KINDS = frozenset({".html", ".htm", ".xhtml", ".xht", ".shtml", ".mhtml", ".mht"})
MAX_ATTACHMENT_BYTES = 32 * 1024 * 1024
"""Larger files are not read for sanitising (SVG) or published (a record links to them)."""


def kind(path: str | Path) -> str:
    """`"safe"`, `"svg"`, `"html"` or `"other"` for the file name of `path`."""
    suffix = Path(path).suffix.lower()
    if suffix in SAFE_KINDS:
        return "safe"
    if suffix == SVG:
        return "svg"
    return "html" if suffix in HTML_KINDS else "other"


class SvgRefused(InputError):
    """An SVG that cannot be made safe (not well-formed, entities, not an `<svg>`)."""


_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
_XML_NS = "http://www.w3.org/XML/1998/namespace"
# Drawing, text, paint servers, clipping, markers and filters; no `script`, `foreignObject`
# (HTML inside), `a`, `image` or `feImage` (references out), nor `animate`/`set` (which can
# rewrite an `href` into `javascript:`).
_ELEMENTS = frozenset({
    "svg", "g", "defs", "title", "desc", "symbol", "use", "path", "rect", "circle",
    "ellipse", "line", "polyline", "polygon", "text", "tspan", "textPath", "linearGradient",
    "radialGradient", "stop", "clipPath", "mask", "pattern", "marker", "filter", "style",
    "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feConvolveMatrix",
    "feDiffuseLighting", "feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood",
    "feFuncA", "feFuncB", "feFuncG", "feFuncR", "feGaussianBlur", "feMerge", "feMergeNode",
    "feMorphology", "feOffset", "fePointLight", "feSpecularLighting", "feSpotLight", "feTile",
    "feTurbulence",
})
_ATTRIBUTE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.:-]*")
# CSS or an attribute value may reference only this document's own ids (`url(#shadow)`);
# anything else could load a resource, and escapes or at-rules could hide one.
_URL = re.compile(r"url\s*\(\s*['\"]?\s*(?![#'\"\s])", re.IGNORECASE)
_CSS_DANGER = re.compile(r"[\\@<]|expression\s*\(|javascript:|-moz-binding", re.IGNORECASE)


# `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://…/svg11.dtd">`: no `[`, so no
# internal subset and no entity; never fetched (it is dropped before parsing).
_PLAIN_DOCTYPE = re.compile(
    rb"<!DOCTYPE[ \t\r\n]+svg(?:[ \t\r\n]+(?:PUBLIC[ \t\r\n]+(?:\"[^\"<>\[]*\"|'[^'<>\[]*')"
    rb"|SYSTEM)(?:[ \t\r\n]+(?:\"[^\"<>\[]*\"|'[^'<>\[]*'))?)?[ \t\r\n]*>")


def _safe_value(value: str) -> bool:
    return _URL.search(value) is None and _CSS_DANGER.search(value) is None


def _clean_attributes(element: ElementTree.Element) -> None:
    for name in list(element.attrib):
        value = element.attrib[name]
        keep = False
        if name in (f"{{{_XLINK_NS}}}href", "href"):
            keep = value.strip().startswith("#")  # only a part of this same document
        elif name in (f"{{{_XML_NS}}}space", f"{{{_XML_NS}}}lang"):
            keep = True
        elif not name.startswith("{") and _ATTRIBUTE_NAME.fullmatch(name):
            keep = not name.lower().startswith("on") and _safe_value(value)
        if not keep:
            del element.attrib[name]


def _clean(element: ElementTree.Element) -> None:
    """Drop every child not on the allow-list (with what it holds), then clean the rest."""
    _clean_attributes(element)
    for child in list(element):
        tag = child.tag if isinstance(child.tag, str) else ""
        local = tag[len(_SVG_NS) + 2:] if tag.startswith(f"{{{_SVG_NS}}}") else None
        if local not in _ELEMENTS or (local == "style" and not _safe_value(child.text or "")):
            element.remove(child)
            continue
        _clean(child)


def clean_svg(data: bytes) -> bytes:
    """`data` (an SVG file) with only allow-listed elements and attributes: no script, no
    event handler, no reference outside the document, no DOCTYPE.

    A plain DOCTYPE naming the SVG DTD (what draw.io and Inkscape write) is dropped. Returns
    the cleaned document as UTF-8 XML. Raises SvgRefused when it is not well-formed XML,
    declares entities or a DOCTYPE with an internal subset (refused before parsing, so no
    entity is expanded), or its root is not an SVG `<svg>`.
    """
    plain = _PLAIN_DOCTYPE.search(data, 0, data.find(b"<svg"))
    if plain is not None:
        data = data[:plain.start()] + data[plain.end():]
    if re.search(rb"<!\s*(?:DOCTYPE|ENTITY)", data, re.IGNORECASE):
        raise SvgRefused("declares entities (a DOCTYPE with an internal subset), which an SVG "
                         "to publish may not")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise SvgRefused(f"is not well-formed XML ({exc})") from None
    if root.tag != f"{{{_SVG_NS}}}svg":
        raise SvgRefused("is not an SVG image (its root is not <svg> in the SVG namespace)")
    try:
        _clean(root)
    except RecursionError:
        raise SvgRefused("is nested too deeply to check") from None
    ElementTree.register_namespace("", _SVG_NS)
    ElementTree.register_namespace("xlink", _XLINK_NS)
    written: bytes = ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)
    return written + b"\n"


def published_bytes(path: Path, root: Path) -> bytes:
    """The bytes to publish for the attachment at `path` (inside content folder `root`):
    the file itself, or for an SVG its cleaned copy.

    Raises Refused when the file may not be read (outside `root`, not a regular file, too
    large) and SvgRefused when an SVG cannot be cleaned.
    """
    data = read_regular(path, MAX_ATTACHMENT_BYTES, root=root)
    return clean_svg(data) if kind(path) == "svg" else data

