"""The site's full-text search index: query/textindex.py's analysis, in small JSON files.

Why a sharded index and not Pagefind is recorded in example-site's BUILD-ADR-0013 (the
search RFC it followed was rejected). What a query means lives in site_builder/query/textindex.py,
which also answers `site-builder search` and the MCP tools; this module only writes its
analysis down, and its rules with it, so theme/site.js finds and ranks the same records for
the same words.

Layout, under `assets/search/` (beside the theme files, never in a project's folder):
- `manifest.json`: the number of records, the shard keys that exist, textindex's `RULES`
  (stop words, endings, prefix and typo rules, weights, BM25 parameters), how statuses are
  shown, and how many records each `records/` file holds. No list of every record: the first
  query at 10,000 records downloads far less than such a list.
- `terms/<key>.json`: the terms that begin with `<key>` (as few characters as keep a shard
  under SHARD_BYTES: none at all, `~.json`, for a small archive), each with its postings:
  pairs of (gap to the previous record's number, level 1–31), written as base-32 digits
  with a continuation marker (`encode`), so a posting usually takes two characters.
  Records are numbered in archive order (newest first). Besides words,
  `#project/type/number` terms name records (a query naming a record puts it first) and
  `@project=…`, `@status=…`, `@tag=…` terms list the records of a facet (the search page's
  filters).
- `records/<n>.json`: records n×CHUNK … n×CHUNK+CHUNK−1 as `[id, ref, title]`, fetched for
  the results shown (the search page reads status, date and excerpt from the records'
  Markdown copies, which the build publishes anyway).
- `words.json`: the archive's words of four or more letters, most records first, from which
  a mistyped word's correction is taken; fetched only when a word matches nothing.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cached_property
from typing import Any

from site_builder.archive.archive import Archive
from site_builder.base.installed import code_digest
from site_builder.base.kept import KeptFile, digest
from site_builder.base.site_paths import SEARCH_DIR
from site_builder.config.site import SiteConfig
from site_builder.query.kept_index import kept_index_file
from site_builder.query.textindex import RULES, TextIndex, record_key
from site_builder.render.pages import views
from site_builder.render.pages.urls import tag_slug

OUTPUT_DIR = SEARCH_DIR
MANIFEST = f"{OUTPUT_DIR}/manifest.json"
FORMAT = 2
CHUNK = 16
_TOP = RULES["levels"]

# A shard bigger than this is split by one more character of its terms. Shards are no
# smaller than they need be: a file per two-letter prefix made 249 files of a 100-record
# archive's 527, a fifth of its build's time spent creating them on the disks measured here.
SHARD_BYTES = 48_000
_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def file_key(prefix: str) -> str:
    """A term prefix as a file name: itself when a-z/0-9, else `~` and its code points in
    hex (`~` alone for the empty prefix, the shard of every term)."""
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


def facet_terms(record: Any) -> list[str]:
    """The `@name=value` terms of one record's project, status and tags (by slug, as the
    search page's filters name them)."""
    return [f"@project={record.project}", f"@status={record.status}",
            *dict.fromkeys(f"@tag={tag_slug(tag)}" for tag in record.tags)]


class SearchIndex:
    """The inverted index of one archive, built in one pass over its records."""

    def __init__(self, archive: Archive, checkpoint: Callable[[], None] | None = None,
                 kept: bool = False, keep: bool = False) -> None:
        """`checkpoint` is called now and then while the records are analysed; raising there
        gives the index up (`TextIndex.postings`). With `kept`, the analysis starts from the
        one the archive's cache folder keeps (query/kept_index.py); with `keep` too, it is
        kept there for the next run."""
        self.archive = archive
        # Not memoised: nothing of it outlives the files written.
        text = TextIndex(archive, kept_index_file(archive.config) if kept else None, keep=keep)
        self._encoded = _encoded_file(archive.config) if kept else None
        self._keep = keep
        self.ids = [record.id for record in archive.records]
        # term → record numbers and levels, ascending: textindex's own, plus the terms that
        # name records and facets (level 31, never ranked).
        words, levels = text.postings(checkpoint)
        text.keep()
        extra: dict[str, array[int]] = {}
        for number, record in enumerate(archive.records):
            for term in [record_key(record), *facet_terms(record)]:
                found = extra.get(term)
                if found is None:
                    found = extra[term] = array("I")
                found.append(number)
        self._docs: dict[str, Sequence[int]] = {**words, **extra}
        self._levels: dict[str, Sequence[int]] = {
            **levels, **{term: array("B", [_TOP]) * len(docs) for term, docs in extra.items()}}
        self.typo_words = text.typo_words
        self.chains = text.chains

    @cached_property
    def documents(self) -> dict[str, int]:
        """term → how many records hold it (worked out when asked; the build never asks)."""
        return {term: len(docs) for term, docs in self._docs.items()}

    def postings(self) -> dict[str, str]:
        """term → its postings as written to the shards: (gap, level) pairs, `encode`d.

        A term whose records and levels are those of the last build's (the same digest of
        both) takes the encoding that build kept, when it kept one: after a one-record
        change, nearly every term (encoding them all took 0.4 s at 10,000 records)."""
        codes = [encode((value,)) for value in range(max(len(self.ids), _TOP) + 1)]
        found = self._encoded.read() if self._encoded is not None else None
        known: dict[str, tuple[bytes, str]] = found if isinstance(found, dict) else {}
        out, made = {}, {}
        for term, docs in self._docs.items():
            levels = self._levels[term]
            hashed = hashlib.blake2b(_raw(docs, "I"), digest_size=16)
            hashed.update(_raw(levels, "B"))
            key = hashed.digest()
            before = known.get(term)
            if isinstance(before, tuple) and before[0] == key and isinstance(before[1], str):
                out[term] = before[1]
            else:
                gaps = [docs[0], *(b - a for a, b in itertools.pairwise(docs))]
                out[term] = "".join([codes[g] + codes[s]
                                     for g, s in zip(gaps, levels, strict=True)])
            made[term] = (key, out[term])
        if self._keep and self._encoded is not None and made != known:
            self._encoded.write(made)
        return out

    def shards(self) -> dict[str, dict[str, str]]:
        """prefix → {term: encoded postings} for every shard.

        All terms start in one group (prefix ""); a group over SHARD_BYTES is split by one
        more character of its terms, except for terms too short to split, which stay behind.
        A term is in the shard of the longest prefix it starts with (theme/search.js).
        """
        encoded = self.postings()
        out: dict[str, dict[str, str]] = {}
        todo = [(0, sorted(encoded))]
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

    def chunks(self) -> Iterator[list[list[str]]]:
        """The `records/` files' contents, in order."""
        rows = [[r.id, r.ref, r.title] for r in self.archive.records]
        for start in range(0, len(rows), CHUNK):
            yield rows[start:start + CHUNK]

    def files(self) -> Iterator[tuple[str, bytes]]:
        """(site path, bytes) of every file of the index, the manifest first."""
        shards = self.shards()
        statuses = views.status_views(self.archive.config)
        yield MANIFEST, _json({
            "format": FORMAT,
            "count": len(self.ids),
            "chunk": CHUNK,
            "shards": list(shards),
            "rules": RULES,
            "statuses": {name: [s.label, s.kind] for name, s in statuses.items()},
            # number → its supersede chain (textindex.current_first), superseded records only.
            "chains": {str(number): chain for number, chain in sorted(self.chains.items())},
        })
        while shards:  # each shard let go once written: the postings are never held twice
            prefix = next(iter(shards))
            yield f"{OUTPUT_DIR}/terms/{file_key(prefix)}.json", _json(shards.pop(prefix))
        for number, chunk in enumerate(self.chunks()):
            yield f"{OUTPUT_DIR}/records/{number}.json", _json(chunk)
        yield f"{OUTPUT_DIR}/words.json", _json(self.typo_words)


def _raw(values: Sequence[int], code: str) -> array[int]:
    """`values` as an array of `code`: itself when it is one (no copy)."""
    return values if isinstance(values, array) and values.typecode == code else array(
        code, values)


def _encoded_file(config: SiteConfig) -> KeptFile:
    """Where a build keeps each term's encoded postings for the next (`postings`)."""
    key = digest(("search shards", str(FORMAT), code_digest(), str(config.root)))
    return KeptFile(config.cache_dir / "cache" / "search-shards.pickle", key, ())


def index_files(archive: Archive, kept: bool = False,
                keep: bool = False) -> list[tuple[str, bytes]]:
    """(site path, bytes) of every file of the archive's index, the manifest first: what a
    build computes in a worker process while it writes the pages (`in_background`); `kept`
    and `keep` as for SearchIndex."""
    return list(SearchIndex(archive, kept=kept, keep=keep).files())


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
