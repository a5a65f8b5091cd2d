"""The site's full-text search index: an inverted index split into small JSON files.

Why this and not Pagefind is recorded in example-site's build/rfc/0001 (search on a static
host): on the 10,000-record benchmark it builds in a few seconds of Python, with no extra
process and no memory spike, and a query downloads only the index files of its own words.

Layout, under `assets/search/` (beside the theme files, never in a project's folder):
- `manifest.json`: the record ids in archive order (newest first; a record's position is its
  number in the postings), the shard keys that exist, and how statuses are shown.
- `terms/<key>.json`: the terms that begin with `<key>` (two characters, or more where a
  shard would be large), each with its postings: pairs of (gap to the previous record's
  number, score), written as base-32 digits with a continuation marker (`encode`), so a
  posting usually takes two characters.

A term's score in a record adds up where it occurs: title 8, ref (which holds the project and
type) 6, tags 4, description 3, people and custom fields 2, and its count in the body (at most
3). The browser
(theme/site.js) ranks records that hold every query word (the last one as a prefix) by the sum
of score × inverse document frequency, and reads titles and excerpts from the records'
Markdown copies, which the build publishes anyway.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
import unicodedata
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.build import views
from site_builder.site_paths import SEARCH_DIR

OUTPUT_DIR = SEARCH_DIR
MANIFEST = f"{OUTPUT_DIR}/manifest.json"
FORMAT = 1

_WORD = re.compile(r"\w+")
# What ASCII `\w` leaves out, as spaces: on ASCII text, translating these and splitting on
# whitespace finds exactly the words `\w+` finds, in a little over half the time.
_ASCII_GAPS = str.maketrans({code: " " for code in range(128)
                             if not (chr(code).isalnum() or chr(code) == "_")})
_TITLE, _REF, _TAG, _DESCRIPTION, _PEOPLE, _BODY_CAP = 8, 6, 4, 3, 2, 3
_MAX_SCORE = _TITLE + _REF + _TAG + _DESCRIPTION + _PEOPLE + _BODY_CAP
# Endings taken off words of more than four letters, longest first, so that "migrate",
# "migrating" and "migrations" share one term; never leaves fewer than four letters.
_ENDINGS = ("ings", "ions", "ing", "ion", "ies", "es", "ed", "s", "e")


def stem(word: str) -> str:
    """`word` without a common English ending (`migrating` → `migrat`, `policies` → `policy`).

    Deliberately crude: it only has to map the forms of one word to one term, and the browser
    applies the very same rules to queries (theme/site.js `stem`).
    """
    if len(word) <= 4 or not word.isalpha():
        return word
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            return word[:-3] + "y" if ending == "ies" else word[:-len(ending)]
    return word


def terms(text: str) -> list[str]:
    """The index terms of `text`: casefolded, stemmed words of two or more characters.

    A word joined by underscores (`retry_policy`) also yields its parts, so either finds it.
    The browser splits queries the same way (theme/site.js `terms`).
    """
    return [term for word in _words(text) for term in _word_terms(word)]


def _words(text: str) -> list[str]:
    if text.isascii():  # the common case, and faster: nothing to normalise
        return text.lower().translate(_ASCII_GAPS).split()
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


@functools.lru_cache(maxsize=1 << 16)
def _word_terms(word: str) -> tuple[str, ...]:
    # Cached: an archive repeats a few thousand words millions of times.
    out = [stem(word)] if len(word) > 1 else []
    if "_" in word:
        out.extend(stem(part) for part in word.split("_") if len(part) > 1)
    return tuple(out)


# A shard bigger than this is split by one more character of its terms.
SHARD_BYTES = 48_000
_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def file_key(prefix: str) -> str:
    """A term prefix as a file name: itself when a-z/0-9, else its code points in hex."""
    if prefix.isascii() and prefix.isalnum():
        return prefix
    return "~" + "-".join(f"{ord(c):x}" for c in prefix)


def encode(values: Iterable[int]) -> str:
    """Non-negative integers as base-32 digits, least significant first; every digit but a
    number's last is taken from the upper half of `_DIGITS`, which marks "more follows"."""
    out = []
    for value in values:
        while value >= 32:
            out.append(_DIGITS[32 + (value & 31)])
            value >>= 5
        out.append(_DIGITS[value])
    return "".join(out)


def _record_scores(archive: Archive, record: Record) -> dict[str, int]:
    """term → score of one record (see the module docstring for the weights)."""
    counts: dict[str, int] = {}
    for word, count in Counter(_words(archive.body(record))).items():
        for term in _word_terms(word):
            counts[term] = counts.get(term, 0) + count
    # min() mapped in C: this runs for each of a large archive's millions of postings.
    capped = map(min, counts.values(), itertools.repeat(_BODY_CAP))
    scores = dict(zip(counts, capped, strict=True))
    people = " ".join([*record.authors, *record.deciders,
                       *(views.field_text(value) for _, value in record.fields)])
    for text, weight in ((record.title, _TITLE), (record.ref, _REF),
                         (" ".join(record.tags), _TAG), (record.description, _DESCRIPTION),
                         (people, _PEOPLE)):
        for term in set(terms(text)):
            scores[term] = scores.get(term, 0) + weight
    return scores


class SearchIndex:
    """The inverted index of one archive, built in one pass over its records."""

    def __init__(self, archive: Archive) -> None:
        self.archive = archive
        self.ids = [record.id for record in archive.records]
        # term → record numbers and scores, ascending (records are visited in order); arrays
        # of machine integers, since a large archive has millions of postings.
        self._docs: dict[str, array[int]] = {}
        self._scores: dict[str, array[int]] = {}
        for number, record in enumerate(archive.records):
            for term, score in _record_scores(archive, record).items():
                docs = self._docs.get(term)
                if docs is None:
                    docs = self._docs[term] = array("I")
                    self._scores[term] = array("B")
                docs.append(number)
                self._scores[term].append(score)
        self.documents = {term: len(docs) for term, docs in self._docs.items()}
        """term → how many records hold it."""

    def postings(self) -> dict[str, str]:
        """term → its postings as written to the shards: (gap, score) pairs, `encode`d."""
        codes = [encode((value,)) for value in range(max(len(self.ids), _MAX_SCORE) + 1)]
        out = {}
        for term, docs in self._docs.items():
            gaps = [docs[0], *(b - a for a, b in itertools.pairwise(docs))]
            out[term] = "".join([codes[g] + codes[s]
                                 for g, s in zip(gaps, self._scores[term], strict=True)])
        return out

    def shards(self) -> dict[str, dict[str, str]]:
        """prefix → {term: encoded postings} for every shard.

        Terms are grouped by their first two characters; a group over SHARD_BYTES is split
        by one more character, except for terms too short to split, which stay behind.
        """
        encoded = self.postings()
        out: dict[str, dict[str, str]] = {}
        todo = [(2, sorted(encoded))]
        while todo:
            length, group = todo.pop()
            by_prefix: dict[str, list[str]] = {}
            for term in group:
                by_prefix.setdefault(term[:length], []).append(term)
            for prefix, members in by_prefix.items():
                size = sum(len(term) + len(encoded[term]) + 6 for term in members)
                longer = [term for term in members if len(term) > length]
                if size > SHARD_BYTES and len({term[:length + 1] for term in longer}) > 1:
                    todo.append((length + 1, longer))
                    members = [term for term in members if len(term) <= length]
                    if not members:
                        continue
                out[prefix] = {term: encoded[term] for term in members}
        return dict(sorted(out.items()))

    def files(self) -> Iterator[tuple[str, bytes]]:
        """(site path, bytes) of every file of the index, the manifest first."""
        shards = self.shards()
        statuses = views.status_views(self.archive.config)
        yield MANIFEST, _json({
            "format": FORMAT,
            "records": self.ids,
            "shards": list(shards),
            "statuses": {name: [s.label, s.kind] for name, s in statuses.items()},
        })
        for prefix, shard in shards.items():
            yield f"{OUTPUT_DIR}/terms/{file_key(prefix)}.json", _json(shard)


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
