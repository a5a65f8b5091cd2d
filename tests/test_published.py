"""access/published.py: decisions.json and llms files back into an Archive, safely."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.access.published import (
    PublishedError,
    archive_from_index,
    bodies_from_full,
    project_names,
    record_id,
    site_path,
)
from site_builder.contract import index as index_contract
from site_builder.contract import records as contract
from site_builder.contract.validate import fits, problem
from site_builder.mcp import tools
from site_builder.query import answers as query
from site_builder.render.agents.artifacts import decisions
from site_builder.render.pages.urls import Urls
from site_builder.render.site import build_site
from site_builder.sources.load import load_archive
from tests.conftest import EXAMPLE_SITE


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """example-site and its real build output."""
    import shutil

    root = tmp_path_factory.mktemp("published") / "example-site"
    shutil.copytree(EXAMPLE_SITE, root, ignore=shutil.ignore_patterns("_site", ".site-builder"))
    return root, build_site(root, jobs=1, cache=False).output


@pytest.mark.parametrize("path", ["build/adr/0001-x.md", "a/b/c d é.md", "decisions.json"])
def test_paths_inside_the_site_are_kept(path: str):
    assert site_path(path, "path") == path


@pytest.mark.parametrize("path", ["", "../x.md", "a/../../x.md", "/etc/passwd", "a//b.md",
                                  "a/./b.md", "http://evil/x.md", "javascript:alert(1)",
                                  "a\\..\\b.md", "a/b\x00.md", ".hidden/x.md", 42, None])
def test_paths_that_leave_the_site_are_refused(path):
    with pytest.raises(PublishedError):
        site_path(path, "path")


def test_record_ids_have_three_parts_and_a_numbered_slug():
    assert record_id("sre/adr/0001-define-slos") == ("sre", "adr", "0001-define-slos", "0001")
    for bad in ("sre/adr", "sre/adr/define-slos", "a/b/c/0001-x", "c:/adr/0001-x"):
        with pytest.raises(PublishedError):
            record_id(bad)


def test_the_published_index_gives_back_the_same_answers(built: tuple[Path, Path]):
    root, output = built
    local = load_archive(root)
    index = json.loads((output / "decisions.json").read_text(encoding="utf-8"))
    bodies = {r.id: r.body for r in local.records}
    remote = archive_from_index(index, lambda r: bodies[r.id], lambda: bodies)
    assert [r.id for r in remote.records] == [r.id for r in local.records]
    assert list(remote.projects) == list(local.projects)
    for record in local.records:
        assert query.detail(remote, remote.by_id[record.id]) == query.detail(local, record)
    assert query.list_fields(remote) == query.list_fields(local)
    assert remote.config.required_approvals == 2


def test_llms_full_gives_every_body(built: tuple[Path, Path]):
    root, output = built
    local = load_archive(root)
    text = (output / "llms-full.txt").read_text(encoding="utf-8")
    bodies = bodies_from_full(text, set(local.by_id))
    assert bodies == {r.id: r.body for r in local.records}


def test_llms_txt_names_the_projects(built: tuple[Path, Path]):
    root, output = built
    local = load_archive(root)
    names = project_names((output / "llms.txt").read_text(encoding="utf-8"),
                          "https://decisions.example.org/")
    assert names == {p.id: p.name for p in local.projects.values()
                     if any(local.is_current(r) for r in local.records if r.project == p.id)}


def test_an_index_that_is_not_one_is_refused():
    with pytest.raises(PublishedError, match="no records list"):
        archive_from_index({"records": {}}, str, dict)
    with pytest.raises(PublishedError, match=r"title is required"):
        archive_from_index({"records": [{"id": "a/b/0001-c", "status": "x",
                                         "date": "2026-01-01"}]}, str, dict)
    with pytest.raises(PublishedError, match="date"):
        archive_from_index({"records": [{"id": "a/b/0001-c", "title": "t", "status": "x",
                                         "date": "yesterday"}]}, str, dict)


# ---- the decoder follows the declaration -------------------------------------------------------

READ_BACK = [k.name for k in (*contract.RECORD, *contract.PUBLISHED)
             if not k.derived and k.name != "path"]


@pytest.mark.parametrize("key", READ_BACK)
def test_every_declared_key_is_checked_by_its_declared_schema(built: tuple[Path, Path],
                                                              key: str):
    # 7.5 fits none of the record's schemas: not a string, list, object, boolean, whole
    # number or null. A key the decoder read without the declaration would let it through.
    _, output = built
    index = json.loads((output / "decisions.json").read_text(encoding="utf-8"))
    index["records"][0][key] = 7.5
    record_id_ = index["records"][0]["id"] if key != "id" else None
    with pytest.raises(PublishedError) as caught:
        archive_from_index(index, str, dict)
    if record_id_ is not None:
        assert f"records[0] ({record_id_}).{key} must be" in str(caught.value)
    else:
        assert "record id must be a non-empty string, not 7.5" in str(caught.value)


def test_keys_the_archive_works_out_again_are_not_read_back(built: tuple[Path, Path]):
    _, output = built
    index = json.loads((output / "decisions.json").read_text(encoding="utf-8"))
    derived = [k.name for k in contract.RECORD if k.derived]
    assert derived == ["currentRecord", "current", "rfcReview"]
    for key in [*derived, "path"]:
        index["records"][0][key] = 7.5
    archive = archive_from_index(index, str, dict)
    first = archive.records[0]
    assert query.detail(archive, first, body=False)["current"] in (True, False)


def test_a_newer_sites_keys_are_let_through_and_an_older_sites_missing_ones_too(
        built: tuple[Path, Path]):
    _, output = built
    index = json.loads((output / "decisions.json").read_text(encoding="utf-8"))
    for record in index["records"]:
        record["confidence"] = {"level": "high"}  # a key of some later version
        for key in ("authors", "deciders", "affects", "source", "review", "md"):
            record.pop(key, None)
    archive = archive_from_index(index, str, dict)
    assert len(archive.records) == len(index["records"])


# ---- the compiled check says what the validator says ------------------------------------------

_EXAMPLE = load_archive(EXAMPLE_SITE)
_RECORDS = decisions(_EXAMPLE, Urls(_EXAMPLE.config))["records"]
_LEAVES = [None, True, 0, -1, 2.5, "", " ", "x", "\ud800", "2026-01-01", "a/b/0001-c", "x.md",
           "approved", [], {}, ["\ud800"], [7], {"id": "\ud800"}, {"id": "a/b/0001-c"}]
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False)
    | st.sampled_from([v for v in _LEAVES if isinstance(v, str)]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["id", "ref", "title", "every", "location", "name", "x"]), inner,
        max_size=3),
    max_leaves=8)
_READABLE = index_contract.readable()
_FITS_RECORD = fits(index_contract.record(), _READABLE["$defs"])


def test_the_compiled_check_agrees_with_the_validator_at_every_key():
    defs = _READABLE["$defs"]
    for key in sorted({k for r in _RECORDS for k in r} | {"unknown"}):
        for value in _LEAVES:
            data = {**_RECORDS[0], key: value}
            expected = problem(data, index_contract.record(), "record", defs) is None
            assert _FITS_RECORD(data) is expected, (key, value)


@settings(max_examples=400, deadline=None)
@given(number=st.integers(0, len(_RECORDS) - 1),
       key=st.sampled_from(sorted({k for r in _RECORDS for k in r} | {"unknown"})),
       value=_JSON)
def test_the_compiled_check_agrees_with_the_validator(number: int, key: str, value: Any):
    data = {**_RECORDS[number], key: value}
    expected = problem(data, index_contract.record(), "record", _READABLE["$defs"]) is None
    assert _FITS_RECORD(data) is expected, (key, value)


@settings(max_examples=300, deadline=None)
@given(tool=st.sampled_from(tools.TOOLS), value=_JSON)
def test_the_compiled_check_agrees_on_tool_arguments(tool: tools.Tool, value: Any):
    schema = tool.input_schema
    assert fits(schema)(value) is (problem(value, schema, tool.name) is None), value
