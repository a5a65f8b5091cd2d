"""The words of a text query and of a record, as every search reads them (textindex.py says
how they are matched and ranked): stop words, folding, stems, and parsing a query.

`RULES` is written into the site's search index, so theme/search.js reads words exactly as
this module does.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from site_builder.archive.records import Record

_STOP_WORDS = " ".join((
    "a about after all also am an and any are as at be because been before being but by can "
    "could did do does doing done for from had has have having he her here hers how i if in "
    "into is it its me might more most must my no nor not of off on once only or other our "
    "ours out over own same shall she should so some such than that the their theirs them "
    "then there these they this those through to too under until up us very was we were "
    "what when where which while who whom why will with would you your yours "
    # Words every decision record could answer to: they find nothing in particular.
    "choose chose chosen decide decided decision decisions pick picked use used using",
)).split()

RULES: dict[str, Any] = {
    "stopWords": sorted(set(_STOP_WORDS)),
    # Endings taken off words of more than four letters, longest first, never leaving fewer
    # than four letters; `ies` becomes `y`.
    "endings": ["ings", "ions", "ing", "ion", "ies", "es", "ed", "s", "e"],
    "minStem": 4,
    "prefixMin": 3,
    "typoMin": 5,
    "weights": {"title": 8, "ref": 6, "tags": 4, "description": 3, "people": 2, "body": 1},
    "k1": 3.0,
    "b": 0.75,
    "levels": 31,
    "idfScale": 1000,
    # A query naming a record: project, type and number, optionally followed by the slug.
    "refPattern": r"^(\S+?)[-/ ]([a-z]+)[-/ ]0*(\d+)(?:[-/ ].*)?$",
}

STOP = frozenset(RULES["stopWords"])
_ENDINGS: tuple[str, ...] = tuple(RULES["endings"])
_REF = re.compile(RULES["refPattern"])
_WORD = re.compile(r"\w+")
# What ASCII `\w` leaves out, as spaces: on ASCII text, translating these and splitting on
# whitespace finds exactly the words `\w+` finds, in a little over half the time.
_ASCII_GAPS = str.maketrans({code: " " for code in range(128)
                             if not (chr(code).isalnum() or chr(code) == "_")})


def fold(text: str) -> str:
    """`text` for case-insensitive comparison."""
    return text.casefold()


def words(text: str) -> list[str]:
    """The words of `text`: NFKC-normalised, casefolded runs of `\\w`."""
    if text.isascii():  # the common case, and faster: nothing to normalise
        return text.lower().translate(_ASCII_GAPS).split()
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def stem(word: str) -> str:
    """`word` without a common English ending (`migrating` → `migrat`, `policies` →
    `policy`); words of four letters or fewer, and words that are not all letters, stay."""
    if len(word) <= RULES["minStem"] or not word.isalpha():
        return word
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= RULES["minStem"]:
            return word[:-3] + "y" if ending == "ies" else word[:-len(ending)]
    return word


# word → word_terms(word), for the words met so far (read directly by hot loops).
TERM_MEMO: dict[str, tuple[str, ...]] = {}


def word_terms(word: str) -> tuple[str, ...]:
    """The index terms one word yields: its stem, and the stems of its `_`-joined parts;
    none for a one-character word or a stop word."""
    found = TERM_MEMO.get(word)
    if found is None:
        out = [stem(word)] if len(word) > 1 and word not in STOP else []
        if "_" in word:
            out.extend(stem(p) for p in word.split("_") if len(p) > 1 and p not in STOP)
        found = tuple(dict.fromkeys(out))
        if len(TERM_MEMO) < 1 << 17:  # an archive repeats a few thousand words
            TERM_MEMO[word] = found
    return found


def terms(text: str) -> list[str]:
    """The index terms of `text`, in order (repeats kept)."""
    return [term for word in words(text) for term in word_terms(word)]


def ref_key(text: str) -> str | None:
    """The record key a query names (`#build/adr/25` for `BUILD-ADR-0025`), or None."""
    match = _REF.match(text.strip().casefold())
    return f"#{match[1]}/{match[2]}/{int(match[3])}" if match else None


def record_key(record: Record) -> str:
    """`ref_key` of the record's own ref (a record kept in another tool's format may have its
    stem for a number: `use-tailwind`)."""
    number = str(int(record.number)) if record.number.isdigit() else record.number
    return f"#{record.project}/{record.type}/{number}".casefold()


def extends(word: str, term: str) -> bool:
    """Whether a word being typed matches index term `term` by the prefix rule."""
    if term.startswith(word):
        return True
    rest = word[len(term):]
    return (len(term) >= RULES["minStem"] and word.startswith(term)
            and any(e.startswith(rest) for e in _ENDINGS))


def one_edit(a: str, b: str) -> bool:
    """Whether `b` is `a` with one letter inserted, removed, changed, or two swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) < len(b):
        return a[i:] == b[i + 1:]
    return a[i + 1:] == b[i + 1:] or (
        i + 1 < len(a) and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2:] == b[i + 2:])


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query: its terms (each with the word it came from) and the prefix word."""

    words: tuple[tuple[str, str], ...]
    """(word as typed, casefolded; its index term), one per distinct term."""
    prefix: str | None
    """The last word, matched by the prefix rule, or None."""
    ref: str | None


def parse(text: str) -> Query:
    """The terms of a query; the last word is a prefix when nothing follows it."""
    pairs: dict[str, str] = {}
    typed = words(text)
    for word in typed:
        for term in word_terms(word):
            pairs.setdefault(term, word)
    last = typed[-1] if typed else None
    prefix = None
    if (last is not None and not text[-1:].isspace() and len(last) >= RULES["prefixMin"]
            and word_terms(last) == (stem(last),)):
        prefix = last
    return Query(tuple((w, t) for t, w in pairs.items()), prefix, ref_key(text))
