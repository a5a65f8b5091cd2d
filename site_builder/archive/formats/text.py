"""Line-level reading shared by the readers: the H1, metadata items, sections, relations.

Every function here takes lines (the file split on `\\n`) and returns what it found with
file lines; none reads a file. Lines that became fields are blanked in place (`strip`) so
that every other line keeps its number, and with it every finding about the body.
"""

from __future__ import annotations

import re

from site_builder.archive.formats.fields import Fields
from site_builder.archive.formats.status import read_status, relation_of, title_of

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# Greedy groups, trimmed in Python: a lazy group before `\s*$` is quadratic on hostile lines.
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*)$")
# `* Status: accepted`, `- Date: 2020-01-01`, `Status: Accepted`, `**Deciders:** a, b`.
_ITEM = re.compile(r"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?([A-Za-z][A-Za-z -]{1,30}?)"
                   r"[ \t]*(?::(?:\*\*|__)?|(?:\*\*|__):)(.*)$")
# `- Date 2023-09-26`: a date item whose colon was forgotten.
_DATE_ITEM = re.compile(r"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?date(?:\*\*|__)?[ \t]+"
                        r"(\[?[ \t]*\d{1,4}[-/]\d.*)$", re.IGNORECASE)
# Link text without brackets: nested `[[[[…` cannot make each `[` scan the rest of the line.
_LINK = re.compile(r"\[([^\[\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:[ \t]+[\"'][^)\n]*)?[ \t]*\)")
# Section headings of the usual templates: never the record's title, even when written as H1.
SECTION_NAMES = frozenset({
    "status", "context", "decision", "consequences", "links", "context and problem statement",
    "decision drivers", "considered options", "decision outcome", "pros and cons of the options",
    "more information", "validation", "confirmation",
})
# A heading naming the status among other words; longer ones are prose that mentions it.
_STATUS_WORD = re.compile(r"\bstatus\b", re.IGNORECASE)
_MOST_HEADING_WORDS = 8
ITEM_KEYS = {
    "status": "status", "date": "date", "deciders": "deciders", "decision-makers": "deciders",
    "decision makers": "deciders", "tags": "tags", "consulted": "consulted",
    "informed": "informed", "authors": "authors", "author": "authors",
}


def code_lines(lines: list[str]) -> set[int]:
    """The indexes of lines inside fenced code blocks (fence lines included)."""
    inside: set[int] = set()
    fence: str | None = None
    for index, line in enumerate(lines):
        match = _FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)[0] * len(match.group(1))
            inside.add(index)
        elif fence is not None:
            inside.add(index)
            if match and match.group(1).startswith(fence):
                fence = None
    return inside


def headings(lines: list[str], code: set[int]) -> list[tuple[int, int, str]]:
    """(index, level, text) of every ATX heading outside code."""
    out = []
    for index, line in enumerate(lines):
        if index in code or "#" not in line[:4]:
            continue
        match = _HEADING.match(line)
        if match:
            out.append((index, len(match.group(1)), _heading_text(match.group(2))))
    return out


def _heading_text(text: str) -> str:
    """A heading's text without its closing `#` run (kept when it is the only text, or is
    glued to the last word, as CommonMark says)."""
    text = text.rstrip()
    bare = text.rstrip("#")
    if bare != text and (not bare or bare[-1] in " \t"):
        text = bare
    return text.strip()


def is_section(text: str) -> bool:
    return text.strip().rstrip(":").lower() in SECTION_NAMES


def take_title(lines: list[str], found: list[tuple[int, int, str]], fields: Fields,
               first: int) -> None:
    """The first `# ` heading that is not a template section is the title (without its
    number or status decoration: `title_of`); its line is blanked."""
    for position, (index, level, text) in enumerate(found):
        if level != 1 or is_section(text):
            continue
        title = title_of(text, first + index, fields)
        if title and not is_section(title):
            fields.set("title", title, first + index)
        lines[index] = ""
        # Real archives repeat the title line (`# 3. X` twice): said once is enough.
        for later, later_level, later_text in found[position + 1:]:
            if later_level == 1 and later_text == text:
                lines[later] = ""
        return


def section(found: list[tuple[int, int, str]], name: str, count: int) -> tuple[int, int] | None:
    """(heading index, end index) of the first section headed `name` (any level), which
    runs to the next heading; None when there is none."""
    for position, (index, _, text) in enumerate(found):
        if text.strip().rstrip(":").lower() == name:
            end = found[position + 1][0] if position + 1 < len(found) else count
            return index, end
    return None


def status_named_section(found: list[tuple[int, int, str]], count: int,
                         ) -> tuple[int, int] | None:
    """(heading index, end index) of the first section whose heading names the status
    among other words (`## Proposal Status`, `## What is the status of the proposal?`, as
    V-Sekai/manuals writes `Status: Rejected` under them); None when there is none."""
    for position, (index, _, text) in enumerate(found):
        if _STATUS_WORD.search(text) and len(text.split()) <= _MOST_HEADING_WORDS:
            end = found[position + 1][0] if position + 1 < len(found) else count
            return index, end
    return None


def take_status_items(lines: list[str], span: tuple[int, int], code: set[int],
                      fields: Fields, first: int) -> None:
    """Read the metadata lines of a section `status_named_section` found; its heading is
    blanked too when nothing else is left under it."""
    start, end = span
    take_items(lines, start + 1, end, code, fields, first)
    if "status" in fields.values and not any(lines[i].strip() for i in range(start + 1, end)):
        lines[start] = ""


def item(line: str) -> tuple[str, str] | None:
    """(field key, value) of a metadata line such as `* Status: accepted`, or None."""
    if ":" not in line:
        dated = _DATE_ITEM.match(line) if "ate" in line[:12].lower() else None
        return ("date", dated.group(1).strip()) if dated else None
    match = _ITEM.match(line)
    if not match:
        return None
    key = ITEM_KEYS.get(match.group(1).strip().lower())
    return (key, match.group(2).strip()) if key else None


def take_items(lines: list[str], start: int, end: int, code: set[int], fields: Fields,
               first: int) -> None:
    """Read metadata lines (`Status:`, `* Date:`, `- Deciders:`…) between `start` and
    `end`, blanking each line that became a field."""
    for index in range(start, end):
        if index in code:
            continue
        found = item(lines[index])
        if found is None:
            continue
        key, value = found
        if key == "status":
            read_status(value, first + index, fields)
        else:
            fields.set(key, value, first + index)
        lines[index] = ""


def take_section(lines: list[str], span: tuple[int, int], fields: Fields, first: int,
                 status: bool) -> None:
    """Read a `Status` section (`status=True`: its first line is the status) or a `Links`
    section: relation lines become references; the heading, and every line read, are
    blanked. Lines that are neither stay in the body, under the heading."""
    start, end = span
    kept = False
    seen_status = not status
    for index in range(start + 1, end):
        text = lines[index].strip()
        if not text:
            continue
        found = item(text)
        relations = relation_of(text, first + index)
        if found is not None:
            key, value = found
            if key == "status":
                read_status(value, first + index, fields)
                seen_status = True
            else:
                fields.set(key, value, first + index)
        elif not seen_status:
            read_status(text, first + index, fields)
            seen_status = True
        elif relations:
            fields.relations.extend(relations)
        else:
            kept = True
            continue
        lines[index] = ""
    if not kept:
        lines[start] = ""


def finish_body(lines: list[str], fields: Fields, first: int) -> None:
    """Set the body from `lines` (which start at file line `first`): leading blank lines
    dropped, trailing ones trimmed to one line end."""
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    body = "\n".join(lines[start:]).rstrip()
    fields.body = body + "\n" if body else ""
    fields.body_line = first + start


_MARKUP = re.compile(r"[*_`]+")


def first_paragraph(body: str) -> str:
    """A one-line description from the body's first paragraph of prose (links as their
    text, emphasis dropped), cut at a word near 200 characters; "" when there is none."""
    paragraph: list[str] = []
    in_code = in_comment = False
    for line in body.split("\n"):
        stripped = line.strip()
        # A comment (an SPDX header, a template's hint) is never the description.
        if in_comment or stripped.startswith("<!--"):
            in_comment = "-->" not in stripped
            if paragraph:
                break
            continue
        if _FENCE.match(line):
            in_code = not in_code
            if paragraph:
                break
            continue
        if in_code:
            continue
        if not stripped:
            if paragraph:
                break
            continue
        if stripped.startswith(("#", "|", ">", "<", "!", "---", "***")) or (
                not paragraph and re.match(r"^(?:[-*+]|\d+[.)])\s", stripped)):
            if paragraph:
                break
            continue
        paragraph.append(stripped)
    text = " ".join(paragraph)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = " ".join(_MARKUP.sub("", text).split())
    if len(text) > 200:
        text = text[:200].rsplit(" ", 1)[0].rstrip(",.;:") + "…"
    return text
