"""A status as another tool writes it: its status word, the note after it, the records it names.

Real statuses say more than one word: `Deprecated (no superseding ADR)`, `Accepted (for the
package pipeline)`, `superseded by ADR 10`, `Superseded by [ADR 16](https://…/0016-x.md)`,
`accepted; supersedes ADR-0045`. The reader (`read_status`) takes the relations out of the
text; `match_status` then finds the leading known status (or alias, or `status_map` key) and
keeps the rest as the record's status note. Pure functions: nothing here reads a file.
"""

from __future__ import annotations

import html
import re

from site_builder.archive.formats.fields import (
    RELATED,
    SUPERSEDED_BY,
    SUPERSEDES,
    Fields,
    Relation,
)
from site_builder.archive.formats.placeholders import without_comments
from site_builder.config.source_formats import status_key

# Statuses other tools write, and the status each one means here.
ALIASES = {"approved": "accepted", "pending": "proposed", "proposal": "proposed",
           "in review": "proposed", "under review": "proposed", "on hold": "proposed",
           "in progress": "proposed"}
# What a status is published as when it has no known word: shown as written beside it.
UNKNOWN = "unknown"
# Longest status phrase looked for at the start of a status (`pending review`, `on hold`).
_MOST_WORDS = 3

# A record a relation names: a Markdown link (text without brackets, so nested `[[[` cannot
# make each `[` scan the rest of the line), a URL, or a number (`ADR 10`, `ADR-0010`, `#10`,
# `[0010]`, `0010`).
_TARGET = (r"(?:\[[^\[\]\n]*\]\(\s*<?(?P<link>[^)\s>]+)>?(?:[ \t]+[\"'][^)\n]*)?[ \t]*\)"
           r"|<(?P<bare>[^<>\s]+\.md)>"
           r"|(?P<url>https?://[^\s)\]>]+)"
           r"|\[?(?:[A-Za-z]{1,12}[-_ ]?)?#?(?P<number>\d{1,6})\]?(?![\w-]))")
_NAMED = {SUPERSEDED_BY: re.compile(r"\bsuper[sc]eded[ \t]+by[ \t]*:?[ \t]*" + _TARGET, re.I),
          SUPERSEDES: re.compile(r"\bsuper[sc]edes[ \t]*:?[ \t]*" + _TARGET, re.I)}
_LINK = re.compile(_TARGET)
# `Amended by`, `Relates to`, `Clarifies`: the verb words before a link, at a line's start.
_RELATION = re.compile(r"^\s*(?:[-*+][ \t]+)?([A-Za-z]+(?: [A-Za-z]+){0,2})[ \t]*:?[ \t]+(\S.*)$")
_LEAD = re.compile(r"^\s*(?:[-*+][ \t]+)?")
_VERBS = ((SUPERSEDED_BY, re.compile(r"super[sc]eded[ \t]+by[ \t]*:?[ \t]*", re.I)),
          (SUPERSEDES, re.compile(r"super[sc]edes[ \t]*:?[ \t]*", re.I)))
# A title's leading status decoration, `[Superseded by [ADR-0017](0017-x.md)] `, and its
# leading number: `12. `, `ADR 12: `, `ADR-0012 - `, `RFC 7 `.
_DECORATION = re.compile(r"^\[[ \t]*(?:super[sc]eded|deprecated|accepted|proposed|rejected|"
                         r"draft|obsolete|withdrawn|replaced|amended)\b"
                         r"(?P<inner>(?:[^\[\]\n]|\[[^\[\]\n]*\](?:\([^)\n]*\))?){0,200})\][ \t]*",
                         re.IGNORECASE)
# A status word before a colon, `Rejected: `, `Superseded by <0042-x.md>: ` (V-Sekai/manuals),
# is a decoration too.
_STATUS_PREFIX = re.compile(r"^(?:super[sc]eded(?:[ \t]+by[ \t]+" + _TARGET + r")?"
                            r"|deprecated|accepted|proposed|rejected|draft)"
                            r"[ \t]*:[ \t]+(?=\S)", re.IGNORECASE)
# A template's number never filled in (`# n. Title`, `# NNNN. Title`) is a number too, and
# so is the kind of record without one (`ADR: `, `Architecture Decision Record: `).
_TITLE_NUMBER = re.compile(r"^(?:(?:adr|rfc|dr|decision)[-_ ]?#?\d{1,6}(?:[ \t]*[:.–—-])?"
                           r"|(?:adr|rfc|architecture[ \t]+decision(?:[ \t]+record)?)[ \t]*:"
                           r"|(?:\d{1,6}|n{1,4})(?:[ \t]*[:.–—]|[ \t]+-))[ \t]*(?=\S)",
                           re.IGNORECASE)
_EMPHASIS = re.compile(r"\*\*|__")
_JOINERS = ";,:"
_DEGREES = frozenset({"partly", "partially", "mostly", "largely"})
# Emoji and other symbols before the first word (not brackets, which may hold a note).
_SYMBOLS = re.compile(r"^[^\w(\[{<]+")
_EDGE = " \t*_.,;:-–—"


def read_status(text: str, line: int, fields: Fields) -> None:
    """Read a status as written into `fields`: the relations it names go to `relations`,
    the text without them to `status` (`superseded` when it was only a successor)."""
    # A template's hint left after the word (`Rejected <!-- Draft | Proposed | … -->`) is
    # no part of the status; a status that is only a hint stays, to be warned about.
    text = without_comments(text) or text
    # Character references read as Markdown shows them (`Draft&#x20;`, V-Sekai/manuals).
    text = html.unescape(text) if "&" in text else text
    text = _EMPHASIS.sub("", text).strip().strip("*_").strip()
    head, _, rest = text.partition(";")
    found, left = _named_relations(head, line)
    fields.relations.extend(found)
    if found and not left.strip(_EDGE):
        left = "superseded" if found[0].kind == SUPERSEDED_BY else ""
    elif found and _NAMED[SUPERSEDED_BY].match(head.lstrip()):
        left = f"superseded {left.strip(_EDGE)}"
    for part in rest.split(";"):
        more = _named_relations(part, line)[0] or relation_of(part, line)
        if more:
            fields.relations.extend(more)
        elif part.strip(_EDGE):
            left = f"{left}; {part.strip()}"
    fields.set("status", left.strip(_EDGE) or None, line)


def title_of(text: str, line: int, fields: Fields) -> str:
    """A title as written without its status decoration (whose successor link becomes a
    relation in `fields`) and without its leading number."""
    decoration = _DECORATION.match(text)
    if decoration:
        fields.relations.extend(_named_relations(decoration.group(0), line)[0])
        text = text[decoration.end():]
    prefix = _STATUS_PREFIX.match(text)
    if prefix:
        fields.relations.extend(_named_relations(prefix.group(0), line)[0])
        text = text[prefix.end():]
    number = _TITLE_NUMBER.match(text)
    return (text[number.end():] if number else text).strip()


def _named_relations(text: str, line: int) -> tuple[list[Relation], str]:
    """The supersede relations named anywhere in `text`, and the text without them."""
    found: list[Relation] = []
    for kind, pattern in _NAMED.items():
        for match in pattern.finditer(text):
            found.append(_relation(kind, match, line))
        text = pattern.sub(" ", text)
    return found, " ".join(text.split())


def _relation(kind: str, match: re.Match[str], line: int) -> Relation:
    if match.group("number"):
        return Relation(kind, match.group("number"), line, is_link=False)
    return Relation(kind, match.group("link") or match.group("bare") or match.group("url"), line)


def relation_of(text: str, line: int) -> list[Relation] | None:
    """The references of a relation line (`Superceded by [5. Use Go](0005-use-go.md)`,
    `Amends [2. X](0002-x.md)`, `superseded by ADR 10`), or None when it is none."""
    lead = text[_LEAD.match(text).end():]  # type: ignore[union-attr]  # always matches
    for kind, verb in _VERBS:
        match = verb.match(lead)
        if match:
            return _targets(kind, lead[match.end():].strip(), line)
    match = _RELATION.match(text)
    if not match:
        return None
    return _targets(RELATED, match.group(2).strip(), line)


def _targets(kind: str, rest: str, line: int) -> list[Relation] | None:
    """The records `rest`, the words after a relation's verb, names: every record link when
    it starts with a link, else the one URL or number it starts with (not for RELATED)."""
    if rest.startswith("["):
        links = [m.group("link") for m in _LINK.finditer(rest)
                 if m.group("link") and is_record_target(m.group("link"), kind)]
        return [Relation(kind, target, line) for target in links] or None
    match = _LINK.fullmatch(rest.rstrip(".").strip())
    if match is None or kind == RELATED:
        return None
    if match.group("url") or match.group("bare"):
        return [Relation(kind, match.group("url") or match.group("bare"), line)]
    return [Relation(kind, match.group("number"), line, is_link=False)]


def is_record_target(target: str, kind: str = SUPERSEDED_BY) -> bool:
    """True for a link target that may name a record: a relative link to a Markdown file
    or without an extension (`./0004-release-captain`), or, for a supersede, a URL (which
    names a record when it points into the same repository)."""
    path = target.split("#", 1)[0]
    if "://" in path:
        return kind != RELATED and path.startswith(("http://", "https://"))
    if path.startswith("/") or not path:
        return False
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return name.endswith(".md") or "." not in name.lstrip(".")


def match_status(written: str, statuses: frozenset[str],
                 status_map: dict[str, str]) -> tuple[str | None, str, str | None]:
    """(status, note, guess) for a status as written, against the site's `statuses`, the
    built-in aliases and `status_map` (keys as `status_key` makes them).

    The longest known status at the start of the text is the status and the rest is the
    note (`Accepted (for the package pipeline)` → accepted, `for the package pipeline`), a
    degree before it too (`Partly superseded` → superseded, `Partly`); a text with no known
    status gives (None, the text, None).
    """
    # `✅ Accepted`, `🤔 Proposed` (ministryofjustice/cloud-platform): a symbol is decoration.
    words = _SYMBOLS.sub("", written).split()
    # `Partly superseded` (alphagov/govuk-aws): the degree is the note, the word the status.
    lead = words[:1] if len(words) > 1 and status_key(words[0]) in _DEGREES else []
    words = words[len(lead):]
    for count in range(min(len(words), _MOST_WORDS), 0, -1):
        # `Superseded; casync adopted instead`: the punctuation joins the note to the word.
        found = _known(" ".join(words[:count]).rstrip(_JOINERS), statuses, status_map)
        if found is None:
            continue
        status, guess = found
        note = _note(" ".join([*lead, *words[count:]]))
        if guess is not None or note:
            guess = f"status '{written}' read as {status}" + (
                " (status_map)" if guess == "map" else "")
        return status, note, guess
    return None, written, None


def _known(text: str, statuses: frozenset[str],
           status_map: dict[str, str]) -> tuple[str, str | None] | None:
    """(status, how it was found: None, "alias" or "map") for the words `text`, or None."""
    key = status_key(text)
    if key in statuses:
        return key, None
    if key == "draft":
        return "draft", None
    if key in status_map:
        return status_map[key], "map"
    named = next((s for s in sorted(statuses) if s.lower() == key), None)
    if named is not None:
        return named, None  # the same name, written with other capitals
    alias = ALIASES.get(key)
    if alias is not None and alias in statuses:
        return alias, "alias"
    return None


def _note(text: str) -> str:
    """The words after a status, without the punctuation that joined them to it and
    without brackets around the whole (`(no superseding ADR)` → `no superseding ADR`)."""
    text = _EMPHASIS.sub("", text).strip(_EDGE)
    if text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        text = text[1:-1].strip()
    return " ".join(text.split())
