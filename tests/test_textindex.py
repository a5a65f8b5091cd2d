"""textindex.py: substring search and BM25 over an Archive, memoised per Archive."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder import query
from site_builder.archive.archive import Archive
from site_builder.archive.loader import load_archive
from site_builder.textindex import count_word, index_for
from tests.conftest import EXAMPLE_SITE

EXAMPLE = load_archive(EXAMPLE_SITE)


def naive(archive: Archive, text: str) -> list[str]:
    """What search_records' query means, written the slow and obvious way."""
    terms = text.casefold().split()
    out = []
    for record in archive.records:
        meta = " ".join([record.title, record.description, " ".join(record.tags)]).casefold()
        body = archive.body(record).casefold()
        if all(t in meta or t in body for t in terms):
            out.append(record.id)
    return out


WORDS = ["cache", "build", "the", "mcp server", "json", "slo.yaml", "site_builder/mcp",
         "zebra", "Markdown", "ß", "-", "a b", "ETag", "output"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
def test_query_finds_exactly_the_records_holding_every_term(words: list[str]):
    text = " ".join(words)
    found = query.search_records(EXAMPLE, query=text, limit=200)
    assert [r["id"] for r in found["records"]] == naive(EXAMPLE, text)


def test_relevance_puts_the_record_about_the_words_first():
    ranked = query.search_records(EXAMPLE, query="remote cache", sort="relevance")
    assert ranked["records"][0]["id"] == "agents/adr/0004-remote-cache-with-etag-revalidation"
    dated = query.search_records(EXAMPLE, query="remote cache")
    assert dated["records"][0]["date"] > ranked["records"][0]["date"]
    assert {r["id"] for r in ranked["records"]} == {r["id"] for r in dated["records"]}


def test_whole_words_are_counted():
    assert count_word("cache", "cache caches cache_x (cache) Cache") == 2
    assert count_word("a", "a ab ba a") == 2
    assert count_word("é", "é é") == 2


def test_bodies_are_read_again_when_the_archive_hands_out_new_ones():
    bodies = {"p/adr/0001-x": "nothing here"}
    archive = Archive(EXAMPLE.config, {}, [EXAMPLE.records[0].__class__(
        project="p", type="adr", slug="0001-x", number="0001", path=Path("x"),
        rel_path="x", title="X", status="accepted", date=EXAMPLE.records[0].date)],
        all_bodies=lambda: bodies)
    assert query.search_records(archive, query="zebra")["total"] == 0
    assert index_for(archive) is index_for(archive)
    bodies = {"p/adr/0001-x": "a zebra"}  # a republished site: a new mapping
    assert query.search_records(archive, query="zebra")["total"] == 1


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([None, "build", "agents", "authoring"]),
                          st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)),
                min_size=1, max_size=4))
def test_searches_within_a_project_and_then_everywhere_agree(searches):
    # One Archive for all searches: what a search within one project learnt about a term's
    # bodies must not change what a later search, in the whole archive or elsewhere, finds.
    archive = load_archive(EXAMPLE_SITE)
    for project, words in searches:
        text = " ".join(words)
        found = query.search_records(archive, project=project, query=text, limit=200)
        expected = [i for i in naive(archive, text)
                    if project is None or archive.by_id[i].project == project]
        assert [r["id"] for r in found["records"]] == expected
