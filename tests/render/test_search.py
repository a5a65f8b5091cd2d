"""The search index the build writes under assets/search/, read the way search.js reads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from site_builder.query.textindex import RULES, index_for, stem, terms
from site_builder.render.search import index as search
from site_builder.render.search.index import CHUNK, SearchIndex, encode, file_key
from site_builder.sources.load import load_archive


def decode(text: str) -> list[int]:
    """site.js `decode`: base-32 digits, least significant first, upper half = more follows."""
    values, value, shift = [], 0, 0
    for char in text:
        digit = search._DIGITS.index(char)
        if digit >= 32:
            value += (digit - 32) << shift
            shift += 5
        else:
            values.append(value + (digit << shift))
            value, shift = 0, 0
    return values


def shard_for(term: str, keys: list[str]) -> str:
    """site.js `shardsFor` for an exact term: the longest shard key the term starts with."""
    return max((k for k in keys if term.startswith(k)), key=len)


def record_id(files: dict[str, bytes], number: int) -> str:
    """search.js `record`: the id of record `number`, from its chunk."""
    chunk = json.loads(files[f"{search.OUTPUT_DIR}/records/{number // CHUNK}.json"])
    return chunk[number % CHUNK][0]


def lookup(files: dict[str, bytes], term: str) -> dict[str, int]:
    """record id → level for `term`, found as the browser finds it."""
    manifest = json.loads(files[search.MANIFEST])
    key = shard_for(term, manifest["shards"])
    shard = json.loads(files[f"{search.OUTPUT_DIR}/terms/{file_key(key)}.json"])
    values = decode(shard.get(term, ""))
    found, doc = {}, 0
    for gap, score in zip(values[::2], values[1::2], strict=True):
        doc += gap
        found[record_id(files, doc)] = score
    return found


def find(files: dict[str, bytes], word: str) -> dict[str, int]:
    """`lookup` of a word as a person types it (the browser stems it first)."""
    [term] = terms(word)
    return lookup(files, term)


@pytest.fixture
def files(fixture_archive) -> dict[str, bytes]:
    archive = load_archive(fixture_archive("site-pages"))
    return dict(SearchIndex(archive).files())


def test_terms_are_casefolded_words_and_underscore_parts_without_stop_words() -> None:
    assert terms("Use retry_policy with Kafka, not X!") == [
        "retry_policy", "retry", "policy", "kafka"]
    assert terms("Straße ＡＰＩ café") == ["strass", "api", "café"]


@pytest.mark.parametrize(("words", "term"), [
    (["migrate", "migrating", "migration", "migrations"], "migrat"),
    (["cache", "cached", "caches", "caching"], "cach"),
    (["policy", "policies"], "policy"),
    (["user", "users"], "user"),
])
def test_forms_of_one_word_share_a_term(words: list[str], term: str) -> None:
    assert {stem(word) for word in words} == {term}


@pytest.mark.parametrize("values", [[0], [1, 31, 32, 33], [1023, 1024, 2**31 + 7], []])
def test_encoded_numbers_decode_to_themselves(values: list[int]) -> None:
    assert decode(encode(values)) == values
    assert len(encode([5, 3])) == 2  # a typical posting takes two characters


def test_file_keys_are_safe_file_names() -> None:
    assert file_key("ka") == "ka"
    assert file_key("ça") == "~e7-61"
    assert file_key("") == "~"  # the one shard of a small archive


def test_a_word_in_one_body_finds_that_record_only(files: dict[str, bytes]) -> None:
    assert list(find(files, "zephyrquartz")) == ["core/adr/0003-store-events-in-object-storage"]


def test_levels_are_what_textindex_computes(fixture_archive) -> None:
    archive = load_archive(fixture_archive("site-pages"))
    files = dict(SearchIndex(archive).files())
    docs, levels = index_for(archive).postings()
    for term, numbers in docs.items():
        expected = {archive.records[n].id: v for n, v in zip(numbers, levels[term], strict=True)}
        assert lookup(files, term) == expected
        assert all(1 <= v <= RULES["levels"] for v in expected.values())


def test_title_words_outscore_body_words(files: dict[str, bytes]) -> None:
    kafka = find(files, "kafka")
    assert kafka["core/adr/0002-store-events-in-kafka"] > kafka[
        "core/adr/0003-store-events-in-object-storage"]


def test_tags_people_and_fields_are_searchable(files: dict[str, bytes]) -> None:
    assert "core/rfc/0001-sign-off-for-retention" in find(files, "retention")
    assert set(find(files, "cleo")) == {"core/adr/0003-store-events-in-object-storage",
                                          "core/rfc/0001-sign-off-for-retention"}
    assert "core/adr/0002-store-events-in-kafka" in find(files, "1200")


def test_manifest_carries_the_rules_and_every_shard_and_chunk(files: dict[str, bytes]) -> None:
    manifest = json.loads(files[search.MANIFEST])
    assert "records" not in manifest  # the first query must not download every id
    assert manifest["rules"] == RULES
    assert manifest["count"] == 7
    assert record_id(files, 0) == "core/rfc/0001-sign-off-for-retention"
    assert record_id(files, 6) == "web/adr/0001-render-on-the-server"
    assert manifest["statuses"]["accepted"] == ["Accepted", "current"]
    for key in manifest["shards"]:
        assert f"{search.OUTPUT_DIR}/terms/{file_key(key)}.json" in files
    chunks = -(-manifest["count"] // CHUNK)
    assert len(files) == len(manifest["shards"]) + chunks + 2  # + manifest and words.json


def test_refs_and_facets_have_their_own_terms(files: dict[str, bytes]) -> None:
    assert lookup(files, "#core/adr/2") == {"core/adr/0002-store-events-in-kafka": 31}
    assert "core/adr/0002-store-events-in-kafka" in lookup(files, "@project=core")
    assert all(i.startswith("web/") for i in lookup(files, "@project=web"))


def test_large_shards_are_split_and_every_term_stays_findable(
        fixture_archive, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "SHARD_BYTES", 60)
    archive = load_archive(fixture_archive("site-pages"))
    index = SearchIndex(archive)
    files = dict(index.files())
    keys = json.loads(files[search.MANIFEST])["shards"]
    assert any(len(key) > 2 for key in keys)
    assert "" not in keys  # every term is long enough to go into a longer prefix's shard
    for term, count in index.documents.items():
        assert len(lookup(files, term)) == count, term


def test_a_small_index_is_one_shard(fixture_archive) -> None:
    files = dict(SearchIndex(load_archive(fixture_archive("site-pages"))).files())
    assert json.loads(files[search.MANIFEST])["shards"] == [""]
    assert f"{search.OUTPUT_DIR}/terms/~.json" in files


def test_the_index_is_byte_identical_across_builds(fixture_archive, tmp_path: Path) -> None:
    root = fixture_archive("site-pages")
    first = dict(SearchIndex(load_archive(root)).files())
    second = dict(SearchIndex(load_archive(root)).files())
    assert first == second
