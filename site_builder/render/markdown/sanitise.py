"""Rendered HTML reduced to an allow-list with nh3, after its nesting is bounded.

nh3 (html5ever underneath) looks back through the open elements at every block tag, so its
time grows with the square of the nesting depth: 50,000 nested block quotes took it 11–28 s.
No page needs more than a few dozen levels, so block containers deeper than MAX_DEPTH are
unwrapped first (their text stays, their tags go) in one linear scan.
"""

from __future__ import annotations

import re
from functools import cache

import nh3

from site_builder.render.markdown.links import SAFE_SCHEMES

_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "col", "colgroup", "dd",
    "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3",
    "h4", "h5", "h6", "hr", "i", "img", "input", "ins", "kbd", "li", "mark", "ol", "p", "pre",
    "q", "s", "samp", "section", "small", "span", "strong", "sub", "summary", "sup", "table",
    "tbody", "td", "tfoot", "th", "thead", "time", "tr", "u", "ul", "var", "wbr",
}
_GENERIC_ATTRIBUTES = {"class", "id", "title", "lang", "dir"}
_ATTRIBUTES = {
    "a": {"href", "hreflang", "aria-label"},
    "abbr": {"title"},
    "col": {"span"},
    "colgroup": {"span"},
    "del": {"cite", "datetime"},
    "details": {"open"},
    "img": {"src", "alt", "width", "height", "loading"},
    "input": {"type", "checked"},
    "ins": {"cite", "datetime"},
    "ol": {"start", "reversed", "type"},
    "q": {"cite"},
    "td": {"colspan", "rowspan", "align"},
    "th": {"colspan", "rowspan", "align", "scope"},
    "time": {"datetime"},
}

# Block containers deeper than this are unwrapped before sanitising.
MAX_DEPTH = 100
_CONTAINERS = ("blockquote", "ul", "ol", "li", "div", "details", "dl", "dd", "section",
               "table", "td", "th")
_CONTAINER_TAG = re.compile(r"<(/?)(" + "|".join(_CONTAINERS) + r")\b[^>]*>", re.IGNORECASE)
_INPUT = re.compile(r"<input\b[^>]*>")


def sanitise(fragment: str) -> str:
    """`fragment` reduced to the allow-list: no scripts, styles, `on*` handlers or
    `javascript:` URLs, and no more than MAX_DEPTH nested block containers. Task-list
    checkboxes are the only form controls kept, always disabled and labelled (a control
    without a name fails accessibility audits)."""
    clean = _cleaner().clean(bound_nesting(fragment))
    return _INPUT.sub(_checkbox, clean) if "<input" in clean else clean


@cache
def _cleaner() -> nh3.Cleaner:
    # Built once: passing the allow-list to nh3.clean converts it again on every call.
    return nh3.Cleaner(tags=_TAGS, attributes={"*": _GENERIC_ATTRIBUTES, **_ATTRIBUTES},
                       url_schemes=set(SAFE_SCHEMES), link_rel=None, strip_comments=True)


def bound_nesting(fragment: str) -> str:
    """`fragment` with the block-container tags nested deeper than MAX_DEPTH removed (the
    text between them kept). Returns `fragment` itself when it cannot be that deep."""
    if sum(fragment.count(f"<{name}") for name in ("blockquote", "li", "div", "dd")) < MAX_DEPTH:
        return fragment
    out: list[str] = []
    stack: list[tuple[str, bool]] = []  # (tag name, kept) of every open container
    kept_depth = 0
    done = 0
    for match in _CONTAINER_TAG.finditer(fragment):
        closing, name = match.group(1), match.group(2).lower()
        keep = True
        if not closing:
            keep = kept_depth < MAX_DEPTH
            stack.append((name, keep))
            kept_depth += keep
        elif stack and stack[-1][0] == name:
            keep = stack.pop()[1]
            kept_depth -= keep
        if not keep:
            out.append(fragment[done:match.start()])
            done = match.end()
    out.append(fragment[done:])
    return "".join(out)


def _checkbox(match: re.Match[str]) -> str:
    tag = match.group(0)
    if 'type="checkbox"' not in tag:
        return ""
    if 'checked=""' in tag:
        return '<input type="checkbox" disabled="" checked="" aria-label="done">'
    return '<input type="checkbox" disabled="" aria-label="not done">'
