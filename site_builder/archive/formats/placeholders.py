"""Template leftovers in another tool's folder: placeholders, and files that are templates.

Real folders keep their templates beside the records (`0000-TEMPLATE.md`, `xxxx-template.md`,
`NNNN-title-template.md`), and real records keep a template's unfilled lines
(`Date: <!-- Today's date -->`, `- Date: [YYYY-MM-DD when the decision was last updated]`,
`- Status: [ accepted | deprecated | … ]`, `{{ STATUS }}`). Pure functions of names and text.
"""

from __future__ import annotations

import re

from site_builder.archive.formats.fields import Fields

_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
# `{{ STATUS }}`, `YYYY-MM-DD`, `[ a | b | c ]`, `<date>`, `DATE`, `TITLE`, `NUMBER. TITLE`.
_PLACEHOLDER = re.compile(
    r"\{\{.*?\}\}|\bY{4}\b|\bDD\b|\[[^\]|]*\|[^\]]*\]|<[A-Za-z ]{2,40}>|\{[^{}]{2,80}\}"
    r"|^(?:number\.?\s*)?(?:title|date|status|short title.*)$", re.IGNORECASE)
# A title that is itself the template's hint: wholly in brackets or braces, or a known word.
_TITLE_HINT = re.compile(r"^(?:\[[^\]]*\]|\{[^}]*\}|<[^>]*>|(?:number\.?\s*)?title)$",
                         re.IGNORECASE)
# `xxxx-`, `nnnn-`, `NNNN-`: a number not yet given.
_UNNUMBERED = re.compile(r"^(?:x{3,}|n{3,}|#{3,})[-_.]", re.IGNORECASE)
# A record's name: a number or a date first, perhaps after a short prefix (`adr-007-…`).
_NUMBERED = re.compile(r"^(?:[A-Za-z]{1,5}[-_])?\d{1,8}(?=[-_.]|$)")
_ZERO = re.compile(r"^0+[-_.]")
# `0004-title-template.md`: a numbered name ending in `template`, a template unless filled in.
_TEMPLATE_END = re.compile(r"[-_. ]template(?:\.md)?$", re.IGNORECASE)


def without_comments(text: str) -> str:
    """`text` without its HTML comments (one left open runs to the end)."""
    return _COMMENT.sub(" ", text).strip() if "<!--" in text else text.strip()


def is_placeholder(value: str) -> bool:
    """True for a metadata value that is a template's hint rather than a value: empty once
    its comments are gone, or holding a placeholder."""
    text = without_comments(value).strip("[] \t")
    return not text or bool(_PLACEHOLDER.search(without_comments(value)))


def template_reason(name: str, fields: Fields) -> str | None:
    """Why the file `name`, read as `fields`, is a template rather than a record, or None.

    By name: a number not yet given (`xxxx-`, `NNNN-`). By content: a
    `0000-` file whose title, status or date is a placeholder, a numbered file named
    `…-template` without a title or with a placeholder, or any file whose title is the
    template's hint and whose status or date is a placeholder too.
    """
    if _UNNUMBERED.match(name):
        return "a template (its name has no number yet)"
    title = fields.values.get("title")
    hinted = title is not None and isinstance(title.text, str) and bool(
        _TITLE_HINT.match(title.text.strip()))
    unfilled = [key for key in ("status", "date") if key in fields.values
                and isinstance(fields.values[key].text, str)
                and is_placeholder(fields.values[key].text)]
    if _ZERO.match(name) and (hinted or unfilled):
        return "a template (a 0000 file with unfilled placeholders)"
    if _TEMPLATE_END.search(name) and (hinted or unfilled or title is None):
        return "a template (its name says so, and its title or metadata are unfilled)"
    if hinted and unfilled:
        return f"a template (its title and {unfilled[0]} are unfilled placeholders)"
    return None


def is_numbered(name: str) -> bool:
    """True for a file name that starts with a number or a YYYYMMDD date, perhaps after a
    short prefix (`0007-use-go.md`, `ADR-0006-use-zio.md`, `20201028-use-rest.md`)."""
    return bool(_NUMBERED.match(name))
