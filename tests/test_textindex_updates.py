"""An index that follows an archive through edits answers exactly as one made afresh.

A copy of example-site is edited the ways an author edits (a title, a body, tags, a status,
a date that moves the record, a supersede added, a record added, one removed, a draft made
of one), one edit at a time. After each, the archive is read again through the loader's
cache, as local MCP mode reads it, and handed the index of the archive before it
(`textindex.follow`); a fresh index of the same archive must then give the same answers to
every query (matches, their order, corrections) and hold the same postings, words and
chains.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.archive.archive import Archive
from site_builder.archive.loader import LoaderCache
from site_builder.mcp.completion import completions_for
from site_builder.query import answers as query
from site_builder.query.textindex import TextIndex, follow, index_for
from site_builder.sources.load import load_archive
from tests.conftest import edit_text

BUILD = Path("content") / "build" / "adr"
RECORD = BUILD / "0007-sanitise-raw-html-with-nh3.md"
OTHER = BUILD / "0022-body-cache-in-one-sqlite-file.md"

# Words of the example archive and of the edits, typed whole, half-typed, mistyped and as
# refs: every path of `search` (terms, prefixes, corrections, records named).
QUERIES = ["cache", "sanitise raw html", "sanitis", "migr", "cahce", "zebrafish",
           "zebra", "quagga stripes", "nh3", "BUILD-ADR-0007", "build/adr/22", "why did we "
           "choose a body cache for rendering", "etag remote", "output folder", "okapi",
           "sqlite", "tokafor", "reliability", "superseded", "json schema", "markdown"]

Edit = Callable[[Path], None]


def _new_record(root: Path) -> None:
    (root / BUILD / "0099-stripes-for-zebrafish.md").write_text(
        "---\ntitle: Stripes for zebrafish\nstatus: proposed\ndate: 2026-11-30\n"
        "tags: [zebrafish, quagga]\n---\n\nA zebrafish is not a quagga.\n", encoding="utf-8")


EDITS: dict[str, Edit] = {
    "title": lambda root: edit_text(root / RECORD, "title: Sanitise",
                                    "title: Zebrafish sanitise"),
    "body": lambda root: (root / OTHER).write_text(
        (root / OTHER).read_text(encoding="utf-8") + "\nQuagga stripes, okapi legs.\n",
        encoding="utf-8"),
    "tags": lambda root: edit_text(root / OTHER, "tags: [", "tags: [zebrafish, "),
    "status": lambda root: edit_text(root / RECORD, "status: implemented", "status: deprecated"),
    "date": lambda root: edit_text(root / RECORD, "date: 2026-", "date: 2025-"),
    "supersede": lambda root: edit_text(
        root / OTHER, "---\n\n", "supersedes: [build/adr/0007-sanitise-raw-html-with-nh3]\n"
        "---\n\n"),
    "add": _new_record,
    "remove": lambda root: (root / RECORD).unlink(),
    "draft": lambda root: edit_text(root / OTHER, "status: ", "draft: true\nstatus: "),
}


def answers(index: TextIndex, archive: Archive) -> list[tuple[list[str], str | None]]:
    out = []
    for text in QUERIES:
        ranked = index.search(text, archive)
        out.append(([archive.records[n].id for n in ranked.numbers], ranked.did_you_mean))
    return out


def same_as_fresh(followed: TextIndex, archive: Archive) -> None:
    fresh = TextIndex(archive)
    assert answers(followed, archive) == answers(fresh, archive)
    docs, levels = followed.postings(archive=archive)
    fresh_docs, fresh_levels = fresh.postings(archive=archive)
    assert docs == fresh_docs
    assert levels == fresh_levels
    assert followed.typo_words == fresh.typo_words
    assert followed.chains == fresh.chains and followed.keys == fresh.keys


def test_each_kind_of_edit_updates_the_index_to_what_a_fresh_one_holds(example_root: Path):
    cache = LoaderCache()
    archive = load_archive(example_root, cache=cache)
    index = index_for(archive)
    index.ready(archive)
    for name, edit in EDITS.items():
        edit(example_root)
        edited = load_archive(example_root, cache=cache)
        assert edited is not archive, name
        follow(edited, archive)
        assert index_for(edited) is index, f"{name}: the index was made again"
        same_as_fresh(index, edited)
        archive = edited
    found = query.search_records(archive, query="zebrafish")
    assert [r["id"] for r in found["records"]] == ["build/adr/0099-stripes-for-zebrafish"]


def test_the_edits_are_seen_in_the_answers(example_root: Path):
    cache = LoaderCache()
    archive = load_archive(example_root, cache=cache)
    assert query.search_records(archive, query="zebrafish")["total"] == 0
    EDITS["title"](example_root)
    edited = load_archive(example_root, cache=cache)
    follow(edited, archive)
    found = query.search_records(edited, query="zebrafish")
    assert [r["id"] for r in found["records"]] == ["build/adr/0007-sanitise-raw-html-with-nh3"]


def test_an_index_taken_over_still_answers_the_archive_it_left(example_root: Path):
    cache = LoaderCache()
    archive = load_archive(example_root, cache=cache)
    index = index_for(archive)
    before = answers(index, archive)
    EDITS["title"](example_root)
    EDITS["add"](example_root)
    edited = load_archive(example_root, cache=cache)
    follow(edited, archive)
    same_as_fresh(index, edited)
    # A call still under way on the archive before: its answer is about that archive.
    assert answers(index, archive) == before
    assert index_for(archive) is not index


@pytest.mark.parametrize("name", ["body", "add", "remove"])
def test_a_republished_site_is_followed_through_its_bodies(name: str, example_root: Path):
    cache = LoaderCache()
    archive = load_archive(example_root, cache=cache)
    bodies = dict(archive.all_bodies())
    served = Archive(archive.config, archive.projects, archive.records,
                     all_bodies=lambda: bodies)
    index = index_for(served)
    index.ready(served)
    EDITS[name](example_root)
    edited = load_archive(example_root, cache=cache)
    bodies = dict(edited.all_bodies())  # a new mapping, as remote mode hands out
    republished = Archive(edited.config, edited.projects, edited.records,
                          all_bodies=lambda: bodies)
    follow(republished, served)
    same_as_fresh(index, republished)


def test_an_archive_no_longer_used_is_freed_with_what_was_made_of_it(example_root: Path):
    archive = load_archive(example_root)
    query.search_records(archive, query="cache", tag="build")
    query.search_records(archive, query="cache", project="build")
    completions_for(archive).matching("record", "build")
    gone = weakref.ref(archive)
    del archive
    gc.collect()
    assert gone() is None


def test_a_word_written_more_often_than_two_bytes_count_is_held_exactly(example_root: Path):
    archive = load_archive(example_root)
    bodies = dict(archive.all_bodies())
    first = archive.records[0].id
    served = Archive(archive.config, archive.projects, archive.records,
                     all_bodies=lambda: bodies)
    index = index_for(served)
    index.ready(served)
    bodies = {**bodies, first: "zebrafish " * 70_000}  # a weighted count past 65,535
    republished = Archive(archive.config, archive.projects, archive.records,
                          all_bodies=lambda: bodies)
    follow(republished, served)
    same_as_fresh(index, republished)
    assert index.search("zebrafish", republished).numbers[0] == 0
