"""textindex.py: what a query means, checked through search_records on example-site."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.archive.archive import Archive
from site_builder.query import answers as query
from site_builder.query.textindex import (
    TextIndex,
    extends,
    index_for,
    one_edit,
    parse,
    ref_key,
    stem,
    terms,
    words,
)
from site_builder.sources.load import load_archive
from tests.conftest import EXAMPLE_SITE

EXAMPLE = load_archive(EXAMPLE_SITE)


def record_terms(archive: Archive, record) -> set[str]:
    people = [*record.authors, *record.deciders, *(str(v) for _, v in record.fields)]
    text = " ".join([record.title, record.ref, " ".join(record.tags), record.description,
                     " ".join(people), archive.body(record)])
    return set(terms(text))


def naive(archive: Archive, text: str) -> set[str]:
    """The records holding any term of the query, the slow and obvious way (no typos)."""
    wanted = set(terms(text))
    parsed = parse(text)
    out = set()
    for record in archive.records:
        held = record_terms(archive, record)
        if wanted & held or (parsed.prefix and any(extends(parsed.prefix, t) for t in held)):
            out.add(record.id)
    return out


WORDS = ["cache", "build", "the", "mcp server", "json", "slo.yaml", "site_builder",
         "Markdown", "ETag", "output", "records", "search", "why did we", "rendering"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3), st.booleans())
def test_a_record_matches_when_it_holds_any_term(chosen: list[str], space: bool):
    text = " ".join(chosen) + (" " if space else "")
    found = query.search_records(EXAMPLE, query=text, limit=200)
    assert {r["id"] for r in found["records"]} == naive(EXAMPLE, text)
    dated = query.search_records(EXAMPLE, query=text, sort="date", limit=200)
    order = [r.id for r in EXAMPLE.records]
    assert [r["id"] for r in dated["records"]] == sorted(
        (r["id"] for r in found["records"]), key=order.index)


def test_records_holding_every_term_come_first():
    found = query.search_records(EXAMPLE, query="remote cache etag", limit=200)["records"]
    held = [len({"remot", "cach", "etag"} & record_terms(EXAMPLE, EXAMPLE.by_id[r["id"]]))
            for r in found]
    assert held == sorted(held, reverse=True)
    assert found[0]["id"] == "agents/adr/0004-remote-cache-with-etag-revalidation"


def test_stop_words_do_not_sink_a_question():
    asked = query.search_records(EXAMPLE, query="why did we choose a body cache for rendering")
    plain = query.search_records(EXAMPLE, query="body cache rendering")
    assert asked["records"][:3] == plain["records"][:3]
    assert asked["records"][0]["id"] == "build/adr/0022-body-cache-in-one-sqlite-file"


def test_a_query_naming_a_record_puts_it_first():
    for text in ("BUILD-ADR-0004", "build/adr/4", "build/adr/0004-build-in-a-temp-folder-and-copy"):
        found = query.search_records(EXAMPLE, query=text)
        assert found["records"][0]["id"] == "build/adr/0004-build-in-a-temp-folder-and-copy"
        assert found["total"] > 1  # and the records holding its words follow
    assert ref_key("kafka retry") is None


def test_a_mistyped_word_is_corrected_and_said():
    found = query.search_records(EXAMPLE, query="cahce")
    assert found["didYouMean"] == "cache"
    assert found["records"] == query.search_records(EXAMPLE, query="cache")["records"]
    assert "didYouMean" not in query.search_records(EXAMPLE, query="cache")
    assert query.search_records(EXAMPLE, query="cahc")["total"] == 0  # four letters: kept


def test_the_last_word_is_a_prefix_unless_a_space_follows():
    typing = query.search_records(EXAMPLE, query="sanitis")
    assert typing["records"][0]["id"] == "build/adr/0007-sanitise-raw-html-with-nh3"
    assert query.search_records(EXAMPLE, query="migr")["total"] > 0
    assert query.search_records(EXAMPLE, query="migr ")["total"] == 0


def test_words_stems_prefixes_and_edits():
    assert words("Straße ＡＰＩ café_au") == ["strasse", "api", "café_au"]
    assert stem("databases") == stem("database") == "databas"
    assert extends("cachi", "cach") and extends("mig", "migrat") and not extends("data", "dat")
    assert one_edit("cahce", "cache") and one_edit("cache", "caches") and one_edit("x", "")
    assert not one_edit("cache", "cache") and not one_edit("cache", "chace2")


def test_filters_keep_the_relevance_order():
    everywhere = [r["id"] for r in query.search_records(EXAMPLE, query="cache",
                                                          limit=200)["records"]]
    build = [r["id"] for r in query.search_records(EXAMPLE, query="cache", project="build",
                                                     limit=200)["records"]]
    assert build == [i for i in everywhere if i.startswith("build/")]


def test_bodies_are_read_again_when_the_archive_hands_out_new_ones():
    bodies = {"p/adr/0001-x": "nothing here"}
    archive = Archive(EXAMPLE.config, {}, [EXAMPLE.records[0].__class__(
        project="p", type="adr", slug="0001-x", number="0001", path=Path("x"),
        rel_path="x", title="X", status="accepted", date=EXAMPLE.records[0].date)],
        all_bodies=lambda: bodies)
    assert query.search_records(archive, query="zebra ")["total"] == 0
    assert index_for(archive) is index_for(archive)
    bodies = {"p/adr/0001-x": "a zebra"}  # a republished site: a new mapping
    assert query.search_records(archive, query="zebra")["total"] == 1


class _Stop(Exception):
    pass


def test_a_checkpoint_gives_the_analysis_up_and_nothing_half_done_is_kept():
    archive = load_archive(EXAMPLE_SITE)
    index = TextIndex(archive)
    calls = []

    def checkpoint() -> None:
        calls.append(1)
        raise _Stop

    try:
        index.postings(checkpoint)
    except _Stop:
        pass
    else:
        raise AssertionError("the checkpoint was never called")
    assert calls == [1]
    docs, levels = index.postings()  # analysed whole this time
    assert docs.keys() == levels.keys() and "markdown" in docs
    assert max(max(numbers) for numbers in docs.values()) == len(archive.records) - 1


@pytest.mark.parametrize("filters", [{}, {"project": "build"}, {"tag": "caching"},
                                     {"status": "accepted", "project": "agents"}])
@pytest.mark.parametrize("sort", [None, "date"])
def test_a_page_is_the_slice_of_the_whole_order(filters: dict[str, str], sort: str | None):
    """Only the page asked for is ranked in full; it must be that page of the whole order."""
    for text in ("cache", "build output", "BUILD-ADR-0004", "migr", "cahce", "remote etag"):
        whole = query.search_records(EXAMPLE, query=text, sort=sort, limit=500, **filters)
        ids = [r["id"] for r in whole["records"]]
        for offset, limit in ((0, 1), (0, 3), (2, 4), (5, 10), (len(ids), 5)):
            page = query.search_records(EXAMPLE, query=text, sort=sort, limit=limit,
                                        offset=offset, **filters)
            assert [r["id"] for r in page["records"]] == ids[offset:offset + limit]
            assert page["total"] == whole["total"] == len(ids)


def test_the_whole_order_is_the_one_before_windows(example_root: Path):
    """search_records' full list equals the index's unwindowed ranking, filtered."""
    archive = load_archive(example_root)
    index = index_for(archive)
    for text in ("cache", "output folder", "sanitis", "BUILD-ADR-0007"):
        ranked = [archive.records[n].id for n in index.search(text, archive).numbers]
        found = query.search_records(archive, query=text, project="build", limit=500)
        assert [r["id"] for r in found["records"]] == [i for i in ranked
                                                        if i.startswith("build/")]


def test_a_word_written_more_often_than_two_bytes_count_is_still_ranked_by_it(
        fixture_archive) -> None:
    root = fixture_archive("lineage")
    heavy = root / "content" / "p" / "adr" / "0010-heavy.md"
    heavy.write_text("---\ntitle: Heavy\nstatus: accepted\ndate: 2020-01-01\n"
                     "description: Says one word.\n---\n\n" + "zebra " * 70_000 + "\n",
                     encoding="utf-8")
    light = root / "content" / "p" / "adr" / "0011-light.md"
    light.write_text("---\ntitle: Light\nstatus: accepted\ndate: 2020-01-02\n"
                     "description: Says it once.\n---\n\nA zebra, and much else besides.\n",
                     encoding="utf-8")
    archive = load_archive(root)
    index = TextIndex(archive)
    docs, levels = index.postings()
    numbers = {archive.records[n].slug: level for n, level in
               zip(docs["zebra"], levels["zebra"], strict=True)}
    assert numbers["0010-heavy"] == 31 > numbers["0011-light"]
    found = [archive.records[n].slug for n in index.search("zebra").numbers]
    assert found == ["0010-heavy", "0011-light"]
