"""A text index kept by one run and recalled by the next analyses only what changed, and
answers, holds and writes exactly what an index made afresh does.

A copy of example-site is built (which keeps its index in `.site-builder/cache`), edited one
way (tests/test_textindex_updates.py's edits: a title, a body, tags, a status, a date that
moves the record, a supersede, a record added, one removed, a draft), and read again from
scratch, as the next build or an MCP server starting reads it. An index recalling the kept
one must have analysed only the records the edit touched, and match a fresh index of the
edited archive in every answer, posting, level, word and chain. A kept file that is
missing, for another archive, damaged, or lying about its postings is never used.
"""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

import pytest

from site_builder.access.source import LocalSource
from site_builder.archive.archive import Archive
from site_builder.archive.loader import LoaderCache
from site_builder.base.kept import KeptFile
from site_builder.config.site import load_config
from site_builder.query import answers as query
from site_builder.query.kept_index import IndexState, kept_index_file
from site_builder.query.postings import Analysis, Postings
from site_builder.query.textindex import TextIndex, follow, index_for, stem
from site_builder.render.search.index import _encoded_file
from site_builder.render.site import build_site
from site_builder.sources.load import load_archive
from tests.test_textindex_updates import EDITS, same_as_fresh

PLAIN = "content/build/adr/0041-keep-the-search-analysis-between-runs.md"
EDITED = "build/adr/0022-body-cache-in-one-sqlite-file"  # the record EDITS["body"] edits
# Records each edit leaves to analyse again: the one edited, or added; none for a removal.
TOUCHED = {"title": 1, "body": 1, "tags": 1, "status": 1, "date": 1, "supersede": 1,
           "add": 1, "remove": 0, "draft": 0}


def fresh_archive(root: Path) -> Archive:
    """The archive as a new process reads it: a cache of its own, bodies on disk."""
    return load_archive(root, cache=LoaderCache(bodies_on_disk=True))


def recalling(archive: Archive, keep: bool = False) -> TextIndex:
    index = TextIndex(archive, kept_index_file(archive.config), keep=keep)
    index.ready(archive)
    return index


@pytest.fixture
def built(example_root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764633600")
    build_site(example_root, jobs=1)
    assert kept_index_file(fresh_archive(example_root).config).path.is_file()
    return example_root


@pytest.mark.parametrize("name", list(EDITS))
def test_a_recalled_index_analyses_only_the_edited_records(name: str, built: Path) -> None:
    EDITS[name](built)
    archive = fresh_archive(built)
    index = recalling(archive)
    assert index.analysed == TOUCHED[name]
    same_as_fresh(index, archive)


def test_an_unchanged_archive_analyses_nothing(built: Path) -> None:
    archive = fresh_archive(built)
    index = recalling(archive)
    assert index.analysed == 0
    same_as_fresh(index, archive)


def test_what_a_build_keeps_after_an_edit_is_what_a_cold_build_keeps(built: Path,
                                                                      tmp_path: Path) -> None:
    """Kept again after edits that add, remove and move records, the file holds the same
    postings, in record order, as one made from nothing."""
    for name in ("add", "date", "body"):
        EDITS[name](built)
    (built / PLAIN).unlink()  # a record nothing links to, so the build goes on
    build_site(built, jobs=1)
    archive = fresh_archive(built)
    own = kept_index_file(archive.config)
    elsewhere = KeptFile(tmp_path / "search.pickle", own.key, own.allowed)
    fresh = TextIndex(archive, elsewhere, keep=True)  # nothing there yet: made afresh
    fresh.postings()  # as the build's index asks, levels and all
    assert fresh.analysed == len(archive.records)
    assert fresh.keep()
    kept, made = IndexState.read(own), IndexState.read(elsewhere)
    assert kept is not None and made is not None
    assert kept.records == made.records == [r.id for r in archive.records]
    assert kept.marks == made.marks
    docs, counts, lengths, held, total, seen, levels, _, average = kept.parts
    assert (docs, counts, lengths, held, total, seen, average) == (
        *made.parts[:6], made.parts[8])
    made_levels = made.parts[6]
    assert sorted(levels) == sorted(made_levels)
    assert [t for t in levels if levels[t] != made_levels[t]] == []
    assert [kept.words.get(n) for n in range(len(kept.records))] == \
        [made.words.get(n) for n in range(len(made.records))]


def _damage(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-20] ^= 0xFF
    path.write_bytes(bytes(data))


def _lie(kept: KeptFile, record_id: str) -> None:
    """Rewrite the kept file, validly signed, with one record's words swapped for a word
    no record holds: taking that record out then looks for a term it was never posted
    under."""
    state = IndexState.read(kept)
    assert state is not None
    state.words.set(state.records.index(record_id), ["zzzunheardofword"])
    assert state.write(kept)


@pytest.mark.parametrize("how", ["missing", "damaged", "lying", "other-key"])
def test_a_kept_file_that_cannot_be_used_is_not(how: str, built: Path) -> None:
    EDITS["body"](built)
    EDITS["title"](built)
    archive = fresh_archive(built)
    kept = kept_index_file(archive.config)
    if how == "missing":
        kept.path.unlink()
    elif how == "damaged":
        _damage(kept.path)
    elif how == "lying":
        _lie(kept, EDITED)  # a record the body edit changed
    index = TextIndex(archive, KeptFile(kept.path, "another key", kept.allowed)
                      if how == "other-key" else kept)
    index.ready(archive)
    assert index.analysed == len(archive.records)  # made afresh
    same_as_fresh(index, archive)


def test_a_kept_file_naming_anything_else_is_not_unpickled(built: Path) -> None:
    archive = fresh_archive(built)
    kept = kept_index_file(archive.config)
    payload = pickle.dumps(print)  # a callable the file may not name
    head = kept.path.read_bytes().split(b"\n", 2)
    kept.path.write_bytes(b"\n".join(head[:2]) + b"\n" + hashlib.sha256(payload).digest()
                          + payload)
    assert kept.path.read_bytes().startswith(b"site-builder kept 1\n" + kept.key.encode())
    assert IndexState.read(kept) is None


def test_the_mcp_server_starts_from_the_kept_index(built: Path) -> None:
    EDITS["body"](built)
    config, findings = load_config(built)
    assert config is not None, findings
    source = LocalSource(config, log=lambda message: None)
    archive = source.archive()
    found = query.search_records(archive, query="quagga okapi")
    assert [r["id"] for r in found["records"]][:1] == [EDITED]
    assert index_for(archive).analysed == 1


def _analysis(n: int, extra: int = 0) -> Analysis:
    counts = {f"t{n % 7}": 1 + n % 3, f"u{n % 11}": 2, "common": 1 + n % 4}
    return Analysis(counts, 500 + 3 * n + extra, list(counts))  # a length of its own


def test_relevelling_works_out_again_only_the_terms_whose_levels_moved() -> None:
    """After one record's change moved the average length, the levels kept for the other
    terms stand as they are, and every level equals what postings made afresh hold."""
    records = [_analysis(n) for n in range(400)]
    kept = Postings()
    for slot, analysis in enumerate(records):
        kept.add(slot, analysis, last=True)
    for term in list(kept.docs):
        kept.levels(term)
    kept = Postings.restored(pickle.loads(pickle.dumps(kept.parts())))
    kept.remove(5, records[5])
    records[5] = _analysis(5, extra=400)  # a longer record: the average moves
    kept.add(5, records[5])
    before = dict(kept._levels)
    kept.relevel(lambda slots: {t for s in slots for t in records[s].counts})
    assert 0 < len(kept._levels) < len(kept.docs)  # some kept, some to work out again
    assert all(kept._levels[t] is before[t] for t in kept._levels)
    fresh = Postings()
    for slot, analysis in enumerate(records):
        fresh.add(slot, analysis, last=True)
    assert {t: kept.levels(t) for t in kept.docs} == {t: fresh.levels(t) for t in fresh.docs}


def _shard_text(root: Path) -> str:
    terms = root / "_site" / "assets" / "search" / "terms"
    return "".join(path.read_text(encoding="utf-8") for path in sorted(terms.iterdir()))


def test_a_term_whose_postings_are_unchanged_takes_the_encoding_the_last_build_kept(
        built: Path) -> None:
    """The kept encoding is what is written when the term's records and levels digest the
    same; a term whose postings changed (a record about it added) is encoded again."""
    archive = fresh_archive(built)
    kept = _encoded_file(archive.config)
    encodings = kept.read()
    sqlite, quagga = stem("sqlite"), stem("quagga")
    assert isinstance(encodings, dict) and sqlite in encodings and quagga not in encodings
    digest_of, real = encodings[sqlite]
    assert f'"{sqlite}":"{real}"' in _shard_text(built)
    encodings[sqlite] = (digest_of, "MARKED")
    assert kept.write(encodings)
    build_site(built, jobs=1, force=True)
    assert f'"{sqlite}":"MARKED"' in _shard_text(built)
    (built / "content/build/adr/0099-sqlite-for-quaggas.md").write_text(
        "---\ntitle: SQLite for quaggas\nstatus: proposed\ndate: 2026-11-30\n"
        "description: A record more about SQLite.\n---\n\nSQLite, for quagga.\n",
        encoding="utf-8")
    build_site(built, jobs=1)
    assert f'"{sqlite}":"MARKED"' not in _shard_text(built)
    assert f'"{quagga}":"' in _shard_text(built)


def test_a_recalled_index_follows_an_edit_of_a_record_whose_body_it_never_read(
        built: Path) -> None:
    """The MCP server recalls the index, so it never reads the bodies of the records that
    did not change; when one of them is edited, its old terms are taken out by its kept
    words (its old body is gone from the disk), and the answers are a fresh index's."""
    config, findings = load_config(built)
    assert config is not None, findings
    source = LocalSource(config, log=lambda message: None)
    archive = source.archive()
    index = index_for(archive)
    assert query.search_records(archive, query="okapi")["total"] == 0
    assert index.analysed == 0
    EDITS["body"](built)  # a record whose body nothing read yet
    edited = source.archive()
    assert edited is not archive
    follow(edited, archive)  # as the server does with the archive it answers from next
    found = query.search_records(edited, query="okapi")
    assert [r["id"] for r in found["records"]] == [EDITED]
    assert index_for(edited) is index and index.analysed == 1
    same_as_fresh(index, edited)
