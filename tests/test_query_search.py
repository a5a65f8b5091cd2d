"""search_records' filters: AND-ed, case-insensitive, newest first (checked against the
obvious definition on example-site)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.query import answers as query
from site_builder.sources.load import load_archive
from tests.conftest import EXAMPLE_SITE

EXAMPLE = load_archive(EXAMPLE_SITE)


def obvious(project=None, type=None, status=None, tag=None, author=None, current_only=False):
    def same(a: str, b: str | None) -> bool:
        return b is None or a.lower() == b.lower()

    return [r.id for r in EXAMPLE.records
            if same(r.project, project) and same(r.type, type) and same(r.status, status)
            and (tag is None or tag.lower() in [t.lower() for t in r.tags])
            and (author is None or author.lower() in [a.lower() for a in r.authors])
            and (not current_only or EXAMPLE.is_current(r))]


@settings(max_examples=200, deadline=None)
@given(project=st.sampled_from([None, "build", "AGENTS", "authoring", "nope"]),
       type=st.sampled_from([None, "adr", "RFC"]),
       status=st.sampled_from([None, "implemented", "Proposed", "superseded"]),
       tag=st.sampled_from([None, "mcp", "Build", "output", "reliability"]),
       author=st.sampled_from([None, "hsato", "PNAIR"]),
       current_only=st.booleans())
def test_filters_are_anded_and_case_insensitive(**filters):
    found = query.search_records(EXAMPLE, limit=200, **filters)
    assert [r["id"] for r in found["records"]] == obvious(**filters)
    assert found["total"] == len(found["records"])
