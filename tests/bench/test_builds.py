"""How the bench decides MkDocs' time limit: long enough to decide the contract's 10× target."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.builds import RAISED_CAP, Tool, _limit, _Samples
from bench.measure import Outcome


def _mkdocs(limit: float | None) -> Tool:
    return Tool("mkdocs", lambda: None, ["mkdocs", "build"], Path("site"), limit=limit,
                cap=RAISED_CAP)


def _after_site_builder(*seconds: float) -> _Samples:
    samples = _Samples()
    for value in seconds:
        samples.add("build.site-builder", Outcome(value, value, 1, 0, ""))
    return samples


def test_the_limit_stands_before_site_builder_was_measured():
    assert _limit(_mkdocs(300.0), _Samples()) == 300.0
    assert _limit(_mkdocs(None), _after_site_builder(60.0)) is None


def test_a_quick_site_builder_build_keeps_the_given_limit():
    assert _limit(_mkdocs(300.0), _after_site_builder(10.0, 12.0, 11.0)) == 300.0


def test_the_limit_grows_to_ten_and_a_half_site_builder_builds():
    assert _limit(_mkdocs(300.0), _after_site_builder(60.0)) == pytest.approx(630.0)


def test_the_raised_limit_is_capped():
    assert _limit(_mkdocs(300.0), _after_site_builder(200.0)) == RAISED_CAP
    assert _limit(_mkdocs(1200.0), _after_site_builder(200.0)) == 1200.0
