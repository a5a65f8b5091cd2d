"""The search index the build writes under assets/search/, read the way site.js reads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from site_builder.archive.loader import load_archive
from site_builder.build import search
from site_builder.build.search import SearchIndex, encode, file_key, terms


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


def lookup(files: dict[str, bytes], term: str) -> dict[str, int]:
    """record id → score for `term`, found as the browser finds it."""
    manifest = json.loads(files[search.MANIFEST])
    key = shard_for(term, manifest["shards"])
    shard = json.loads(files[f"{search.OUTPUT_DIR}/terms/{file_key(key)}.json"])
    values = decode(shard.get(term, ""))
    found, doc = {}, 0
    for gap, score in zip(values[::2], values[1::2], strict=True):
        doc += gap
        found[manifest["records"][doc]] = score
    return found


def find(files: dict[str, bytes], word: str) -> dict[str, int]:
    """`lookup` of a word as a person types it (the browser stems it first)."""
    [term] = terms(word)
    return lookup(files, term)


@pytest.fixture
def files(fixture_archive) -> dict[str, bytes]:
    archive = load_archive(fixture_archive("site-pages"))
    return dict(SearchIndex(archive).files())


def test_terms_are_casefolded_words_and_underscore_parts() -> None:
    assert terms("Use retry_policy with Kafka, not X!") == [
        "use", "retry_policy", "retry", "policy", "with", "kafka", "not"]
    assert terms("Straße ＡＰＩ café") == ["strass", "api", "café"]


@pytest.mark.parametrize(("words", "term"), [
    (["migrate", "migrating", "migration", "migrations"], "migrat"),
    (["cache", "cached", "caches", "caching"], "cach"),
    (["policy", "policies"], "policy"),
    (["user", "users"], "user"),
])
def test_forms_of_one_word_share_a_term(words: list[str], term: str) -> None:
    assert {search.stem(word) for word in words} == {term}


@pytest.mark.parametrize("values", [[0], [1, 31, 32, 33], [1023, 1024, 2**31 + 7], []])
def test_encoded_numbers_decode_to_themselves(values: list[int]) -> None:
    assert decode(encode(values)) == values
    assert len(encode([5, 3])) == 2  # a typical posting takes two characters


def test_file_keys_are_safe_file_names() -> None:
    assert file_key("ka") == "ka"
    assert file_key("ça") == "~e7-61"


def test_a_word_in_one_body_finds_that_record_only(files: dict[str, bytes]) -> None:
    assert find(files, "zephyrquartz") == {"core/adr/0003-store-events-in-object-storage": 1}


def test_title_words_outscore_body_words(files: dict[str, bytes]) -> None:
    kafka = find(files, "kafka")
    assert kafka["core/adr/0002-store-events-in-kafka"] > kafka[
        "core/adr/0003-store-events-in-object-storage"]


def test_tags_people_and_fields_are_searchable(files: dict[str, bytes]) -> None:
    assert "core/rfc/0001-sign-off-for-retention" in find(files, "retention")
    assert set(find(files, "cleo")) == {"core/adr/0003-store-events-in-object-storage",
                                          "core/rfc/0001-sign-off-for-retention"}
    assert "core/adr/0002-store-events-in-kafka" in find(files, "1200")


def test_manifest_lists_records_newest_first_and_every_shard(files: dict[str, bytes]) -> None:
    manifest = json.loads(files[search.MANIFEST])
    assert manifest["records"][0] == "core/rfc/0001-sign-off-for-retention"
    assert manifest["records"][-1] == "web/adr/0001-render-on-the-server"
    assert manifest["statuses"]["accepted"] == ["Accepted", "current"]
    for key in manifest["shards"]:
        assert f"{search.OUTPUT_DIR}/terms/{file_key(key)}.json" in files
    assert len(files) == len(manifest["shards"]) + 1


def test_large_shards_are_split_and_every_term_stays_findable(
        fixture_archive, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "SHARD_BYTES", 60)
    archive = load_archive(fixture_archive("site-pages"))
    index = SearchIndex(archive)
    files = dict(index.files())
    keys = json.loads(files[search.MANIFEST])["shards"]
    assert any(len(key) > 2 for key in keys)
    for term, count in index.documents.items():
        assert len(lookup(files, term)) == count, term


def test_the_index_is_byte_identical_across_builds(fixture_archive, tmp_path: Path) -> None:
    root = fixture_archive("site-pages")
    first = dict(SearchIndex(load_archive(root)).files())
    second = dict(SearchIndex(load_archive(root)).files())
    assert first == second
