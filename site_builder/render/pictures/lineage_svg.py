"""A lineage `Picture` drawn as SVG (for pages and documents) or as Graphviz DOT.

The SVG holds no script, no event attribute and no style attribute: on a page, the site's
stylesheet colours it (its "lineage pictures" section, light and dark), so the page's
Content-Security-Policy needs nothing new. Drawn `standalone` (for `site-builder graph`), the
SVG carries that same section and the colours it uses in a `<style>` element of its own.
Every node is a link to its record; its status shows as a mark and a word, never by colour
alone. Output depends on the picture alone: the same archive gives the same bytes.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from html import escape

from markupsafe import Markup

from site_builder.render.pictures.lineage import SPACING, Chain, Edge, Node, Picture

__all__ = ["chains_text", "dot", "lineage_markup", "svg", "truncate"]

PAD = 6
LEGEND_LINE = 26
_W, _H = SPACING.node_width, SPACING.node_height

CSS_START = "/* ---- lineage pictures"
CSS_END = "/* ---- end of lineage pictures"
_VARIABLE = re.compile(r"(--[a-z0-9-]+):\s*([^;]+);")
_USED_VARIABLE = re.compile(r"var\((--[a-z0-9-]+)")
# light-dark() of two plain colours (no parentheses inside: what the lineage section uses).
_LIGHT_DARK = re.compile(r"light-dark\(\s*([^(),]+?)\s*,\s*([^(),]+?)\s*\)")


# ---- text measures --------------------------------------------------------------------------

_NARROW = set("fijlrtI.,:;'!|() ")
_WIDE = set("mwMW@%")


def text_width(text: str, size: float) -> float:
    """About how wide `text` is in a sans-serif face at `size` px (an estimate that errs
    wide, so truncated text always fits its box)."""
    total = 0.0
    for char in text:
        if char in _NARROW:
            total += 0.32
        elif char in _WIDE:
            total += 0.9
        elif char.isupper() or char.isdigit():
            total += 0.68
        else:
            total += 0.6
    return total * size


def truncate(text: str, width: float, size: float) -> str:
    """`text` cut at a word where possible, with an ellipsis, to fit `width` px."""
    if text_width(text, size) <= width:
        return text
    room = width - text_width("…", size)
    cut = ""
    for char in text:
        if text_width(cut + char, size) > room:
            break
        cut += char
    word = cut.rsplit(" ", 1)[0]
    return (word if len(word) >= len(cut) * 0.6 else cut).rstrip(" ,.;:-") + "…"


# ---- SVG ----------------------------------------------------------------------------------


def svg(picture: Picture, link: Callable[[str], str], standalone: bool = False,
        stylesheet: str = "") -> str:
    """The picture as one `<svg>` element; `link(site path)` gives each node's href.

    `standalone` adds the XML namespace and a `<style>` made from `stylesheet` (the site's
    CSS) so the file looks the same outside the site.
    """
    legend, legend_height = _legend(picture)
    width = max(picture.width, _legend_width(picture)) + 2 * PAD
    height = picture.height + legend_height + 2 * PAD
    dx, dy = PAD, PAD + legend_height
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="lineage" viewBox="0 0 {width} '
           f'{height}" width="{width}" height="{height}" '
           f'aria-labelledby="lineage-title" aria-describedby="lineage-desc">',
           f'<title id="lineage-title">{escape(picture.label)}</title>',
           f'<desc id="lineage-desc">{escape(chains_text(picture))}</desc>']
    if standalone:
        # Outside the site nothing paints behind the picture: it brings its own surface, so
        # its colours hold on any page, light or dark.
        out.append(f"<style>{standalone_style(stylesheet)}</style>")
        out.append(f'<rect class="lineage__backdrop" width="{width}" height="{height}" rx="8"/>')
    out.append('<defs><marker id="lineage-arrow" viewBox="0 0 10 10" refX="9" refY="5" '
               'markerWidth="8" markerHeight="8" orient="auto">'
               '<path class="lineage__arrowhead" d="M0 1L10 5L0 9z"/></marker></defs>')
    out.extend(legend)
    out.append('<g class="lineage__edges">')
    nodes = {n.id: n for n in picture.nodes}
    for edge in picture.edges:
        out.append(_edge(edge, nodes, dx, dy))
    out.append('</g><g class="lineage__nodes">')
    for node in picture.nodes:
        out.append(_node(node, link(node.page), dx, dy))
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def _edge(edge: Edge, nodes: dict[str, Node], dx: int, dy: int) -> str:
    if edge.kind == "related":
        return (f'<path class="lineage__edge lineage__edge--related" '
                f'd="{_related_path(nodes[edge.source], nodes[edge.target], dx, dy)}"/>')
    points = [(x + dx, y + dy) for x, y in edge.points]
    d = [f"M{points[0][0]} {points[0][1]}"]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        middle = (x0 + x1) // 2
        d.append(f"C{middle} {y0} {middle} {y1} {x1 - 2} {y1}" if (x1, y1) == points[-1]
                 else f"C{middle} {y0} {middle} {y1} {x1} {y1}")
    return (f'<path class="lineage__edge" d="{" ".join(d)}" '
            'marker-end="url(#lineage-arrow)"/>')


def _related_path(a: Node, b: Node, dx: int, dy: int) -> str:
    """A dashed link between two chains: side to side when one is to the right of the
    other, else out of both right sides into the free gap beside their column."""
    if b.x < a.x:
        a, b = b, a
    if b.x >= a.x + _W:
        x0, y0, x1, y1 = a.x + _W + dx, a.y + _H // 2 + dy, b.x + dx, b.y + _H // 2 + dy
        middle = (x0 + x1) // 2
        return f"M{x0} {y0}C{middle} {y0} {middle} {y1} {x1} {y1}"
    x0, y0 = a.x + _W + dx, a.y + _H // 2 + dy
    x1, y1 = b.x + _W + dx, b.y + _H // 2 + dy
    bulge = max(x0, x1) + SPACING.layer_gap // 2
    return f"M{x0} {y0}C{bulge} {y0} {bulge} {y1} {x1} {y1}"


def _mark(shape: str, cx: int, cy: int) -> str:
    """The status mark centred on (cx, cy)."""
    if shape == "circle":
        return f'<circle class="lineage__mark" cx="{cx}" cy="{cy}" r="4.5"/>'
    if shape == "diamond":
        return (f'<path class="lineage__mark" d="M{cx} {cy - 5.5}L{cx + 5.5} {cy}L{cx} '
                f'{cy + 5.5}L{cx - 5.5} {cy}z"/>')
    if shape == "bar":
        return f'<rect class="lineage__mark" x="{cx - 5}" y="{cy - 1.5}" width="10" height="3"/>'
    if shape == "cross":
        return (f'<path class="lineage__mark lineage__mark--line" d="M{cx - 4} {cy - 4}L{cx + 4}'
                f' {cy + 4}M{cx + 4} {cy - 4}L{cx - 4} {cy + 4}"/>')
    return f'<rect class="lineage__mark" x="{cx - 4}" y="{cy - 4}" width="8" height="8"/>'


def _node(node: Node, href: str, dx: int, dy: int) -> str:
    x, y = node.x + dx, node.y + dy
    classes = f"lineage__node tone-{node.tone}" + (" lineage__node--here" if node.marked else "")
    current = ' aria-current="page"' if node.marked else ""
    title = truncate(node.title, _W - 24, 12)
    long, squeezed = _fitted(node.ref)
    here = " (this record)" if node.marked else ""
    return (f'<a class="{classes}" href="{escape(href)}"{current}>'
            f"<title>{escape(f'{node.ref}: {node.title} ({node.status.label}){here}')}</title>"
            f'<rect class="lineage__box" x="{x}" y="{y}" width="{_W}" height="{_H}" rx="8"/>'
            f'<text class="lineage__ref{long}" x="{x + 10}" y="{y + 18}"{squeezed}>'
            f"{escape(node.ref)}</text>"
            f'<text class="lineage__title" x="{x + 10}" y="{y + 35}">{escape(title)}</text>'
            f"{_mark(node.shape, x + 15, y + 47)}"
            f'<text class="lineage__status" x="{x + 25}" y="{y + 51}">'
            f"{escape(node.status.label)}</text></a>")


def _fitted(ref: str) -> tuple[str, str]:
    """(class suffix, attributes) that fit a long ref in its box whole (never cut: a ref is
    what people type to find a record): a smaller size (a class, as the CSP allows no inline
    style), then the text squeezed to the box's width."""
    room = _W - 20
    if text_width(ref, 12) * 1.08 <= room:  # 1.08: the ref is bold
        return "", ""
    if text_width(ref, 10) * 1.08 <= room:
        return " lineage__ref--long", ""
    return " lineage__ref--long", f' textLength="{room}" lengthAdjust="spacingAndGlyphs"'


def lineage_markup(picture: Picture, link: Callable[[str], str]) -> Markup:
    """`draw_lineage(picture, link)` in templates: the picture's SVG for a page, as markup
    (it is escaped here), with links made by the page's `link`."""
    return Markup(svg(picture, link))


# ---- legend ---------------------------------------------------------------------------------


def _legend_items(picture: Picture) -> list[tuple[str, str, str]]:
    """(kind, tone|shape, label) of every legend entry: each status drawn, first seen first,
    then the kinds of line and the marked record."""
    seen: dict[str, Node] = {}
    for node in picture.nodes:
        seen.setdefault(node.status.name, node)
    items = [("status", f"{n.tone}|{n.shape}", n.status.label) for n in seen.values()]
    items.append(("edge", "supersedes", "replaced by"))
    if picture.related:
        items.append(("edge", "related", "related"))
    if picture.marked:
        items.append(("here", "", "this record"))
    return items


def _item_width(label: str, kind: str) -> int:
    lead = 28 if kind == "edge" else 18
    return lead + int(text_width(label, 12)) + 18


def _legend_width(picture: Picture) -> int:
    return min(sum(_item_width(label, kind) for kind, _, label in _legend_items(picture)),
               max(picture.width, 320))


def _legend(picture: Picture) -> tuple[list[str], int]:
    """The legend's SVG lines and its height: one entry per status drawn, then the edges."""
    limit = max(picture.width, 320)
    out = ['<g class="lineage__legend">']
    x, line = 0, 0
    for kind, what, label in _legend_items(picture):
        step = _item_width(label, kind)
        if x and x + step > limit:
            x, line = 0, line + 1
        cy = PAD + line * LEGEND_LINE + 10
        left = PAD + x
        if kind == "status":
            tone_name, shape_name = what.split("|")
            out.append(f'<g class="tone-{tone_name}">{_mark(shape_name, left + 6, cy)}</g>')
            text_x = left + 18
        elif kind == "edge":
            related = " lineage__edge--related" if what == "related" else ""
            arrow = "" if related else ' marker-end="url(#lineage-arrow)"'
            out.append(f'<path class="lineage__edge{related}" d="M{left} {cy}H{left + 20}"'
                       f"{arrow}/>")
            text_x = left + 28
        else:
            out.append(f'<rect class="lineage__here-sample" x="{left}" y="{cy - 6}" '
                       'width="12" height="12" rx="3"/>')
            text_x = left + 18
        out.append(f'<text class="lineage__legend-text" x="{text_x}" y="{cy + 4}">'
                   f"{escape(label)}</text>")
        x += step
    out.append("</g>")
    return out, (line + 1) * LEGEND_LINE + 4


# ---- text alternative -------------------------------------------------------------------------


def chains_text(picture: Picture) -> str:
    """Every chain in one plain sentence each, for `<desc>` and terminals."""
    sentences = []
    for number, chain in enumerate(picture.chains, 1):
        sentences.append(f"Chain {number}: {chain_sentence(chain)}.")
    for a, b in picture.related:
        sentences.append(f"{a.ref} is related to {b.ref}.")
    return " ".join(sentences)


def chain_sentence(chain: Chain) -> str:
    """`A (Superseded) → B (Accepted)`, or for a branching chain who replaced whom."""
    def named(node: Node) -> str:
        return f"{node.ref} {node.title} ({node.status.label})"

    if chain.linear:
        return " → ".join(named(step.node) for step in chain.steps)
    parts = [f"{named(step.node)} replaced by {', '.join(n.ref for n in step.replaced_by)}"
             for step in chain.steps if step.replaced_by]
    return "; ".join(parts)


# ---- standalone style ---------------------------------------------------------------------


def standalone_style(stylesheet: str) -> str:
    """The CSS of the site's "lineage pictures" section, with every colour it uses defined
    on the SVG itself, light and dark (taken from the same stylesheet's custom properties).

    Raises ValueError when the stylesheet has no such section (an archive's own site.css
    that dropped it).
    """
    start = stylesheet.find(CSS_START)
    end = stylesheet.find(CSS_END, start)
    if start < 0 or end < 0:
        raise ValueError("the theme's site.css has no lineage pictures section "
                         f"(from {CSS_START!r} to {CSS_END!r})")
    rules = stylesheet[stylesheet.index("\n", start) + 1:end].strip()
    used = sorted(set(_USED_VARIABLE.findall(rules)))
    light, dark = _palettes(stylesheet)
    def block(values: dict[str, str]) -> str:
        return "".join(f"{name}:{values[name]};" for name in used if name in values)
    rules = re.sub(r"\s*\n\s*", "", rules)
    return (f".lineage{{{block(light)}}}"
            f"@media (prefers-color-scheme: dark){{.lineage{{{block(dark)}}}}}{rules}")


def _palettes(stylesheet: str) -> tuple[dict[str, str], dict[str, str]]:
    """The custom properties of the stylesheet's first `:root` block in the light and the
    dark scheme: a `light-dark(light, dark)` value is split (the built-in theme's way), and a
    stylesheet of its own may instead set dark values in a `prefers-color-scheme: dark`
    block; a property neither gives a dark value keeps its light one."""
    light: dict[str, str] = {}
    dark: dict[str, str] = {}
    root = stylesheet.find(":root")
    if root >= 0:
        for name, value in _VARIABLE.findall(stylesheet[root:stylesheet.find("}", root)]):
            both = _LIGHT_DARK.fullmatch(value.strip())
            light[name], dark[name] = both.groups() if both else (value, value)
    media = stylesheet.find("prefers-color-scheme: dark")
    if media >= 0:
        inner = stylesheet.find(":root", media)
        dark.update(_VARIABLE.findall(stylesheet[inner:stylesheet.find("}", inner)]))
    return light, dark


# ---- DOT ------------------------------------------------------------------------------------


def dot(picture: Picture, link: Callable[[str], str]) -> str:
    """The picture as a Graphviz digraph, one cluster per chain, left to right."""
    lines = ["digraph lineage {",
             f"  label={_quote(picture.label)};",
             "  rankdir=LR;",
             '  node [shape=box, style="rounded,filled", fontname="sans-serif"];']
    for number, chain in enumerate(picture.chains, 1):
        lines.append(f"  subgraph cluster_{number} {{")
        lines.append(f"    label={_quote(f'Chain {number}')};")
        for step in chain.steps:
            lines.append(f"    {_node_dot(step.node, link)}")
        lines.append("  }")
    for edge in picture.edges:
        if edge.kind == "supersedes":
            lines.append(f"  {_quote(edge.source)} -> {_quote(edge.target)};")
        else:
            lines.append(f"  {_quote(edge.source)} -> {_quote(edge.target)} "
                         "[style=dashed, arrowhead=none, constraint=false];")
    lines.append("}")
    return "\n".join(lines) + "\n"


_DOT_FILL = {"current": "#e2f4e7", "implemented": "#dff3f1", "open": "#fff3d1",
             "closed": "#eceff3", "rejected": "#fde9e9"}
_DOT_SHAPE_WORD = {"circle": "●", "diamond": "◆", "cross": "✕", "square": "■", "bar": "▬"}


def _node_dot(node: Node, link: Callable[[str], str]) -> str:
    lines = (node.ref, node.title, f"{_DOT_SHAPE_WORD[node.shape]} {node.status.label}")
    label = "\\n".join(_escaped(line) for line in lines)
    extra = ", penwidth=3" if node.marked else ""
    return (f'{_quote(node.id)} [label="{label}", '
            f"URL={_quote(link(node.page))}, fillcolor={_quote(_DOT_FILL[node.tone])}"
            f"{extra}];")


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _quote(text: str) -> str:
    """A DOT double-quoted string."""
    return f'"{_escaped(text)}"'


