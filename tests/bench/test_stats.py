"""The bench runner's arithmetic: percentiles, summaries, ratios and target verdicts."""

from __future__ import annotations

import pytest

from bench.results import Results
from bench.stats import (
    Summary,
    format_bytes,
    format_ratio,
    format_seconds,
    format_summary,
    median,
    percentile,
    ratio,
)
from bench.targets import judge


def test_percentile_interpolates_between_closest_ranks_like_numpy():
    values = [4.0, 1.0, 3.0, 2.0]
    assert percentile(values, 0) == 1.0
    assert percentile(values, 50) == 2.5
    assert percentile(values, 95) == pytest.approx(3.85)
    assert percentile(values, 100) == 4.0
    assert percentile([7.0], 95) == 7.0


def test_median_of_an_odd_count_is_the_middle_value():
    assert median([5.0, 1.0, 3.0]) == 3.0


@pytest.mark.parametrize("bad", [[], None])
def test_percentile_refuses_no_values(bad):
    with pytest.raises((ValueError, TypeError)):
        percentile(bad or [], 50)


def test_percentile_refuses_a_rank_outside_0_to_100():
    with pytest.raises(ValueError, match="outside"):
        percentile([1.0], 101)


def test_summary_spread_is_half_the_range_relative_to_the_median():
    summary = Summary.of([9.0, 10.0, 11.0])
    assert summary.median == 10.0
    assert summary.spread == pytest.approx(0.10)
    assert format_summary(summary) == "10 s ±10%"
    assert Summary.of([2.0]).spread == 0.0


def test_a_summary_whose_median_hit_the_limit_is_a_lower_bound():
    cut = Summary.of([300.0], censored=1)
    assert cut.is_lower_bound
    assert format_summary(cut) == "> 300 s"
    assert not Summary.of([1.0, 2.0, 300.0], censored=1).is_lower_bound


def test_ratio_is_median_over_median():
    assert ratio(Summary.of([2.0, 4.0, 3.0]), Summary.of([6.0])) == 0.5
    assert ratio(Summary.of([1.0]), None) is None
    assert ratio(Summary.of([1.0]), Summary.of([0.0])) is None
    assert format_ratio(0.5) == "0.50×"
    assert format_ratio(0.04, lower_bound=True) == "< 0.04×"
    assert format_ratio(None) == "–"


def test_units_read_naturally():
    assert format_seconds(0.0004) == "400 µs"
    assert format_seconds(0.0123) == "12.3 ms"
    assert format_seconds(0.25) == "250 ms"
    assert format_seconds(4.214) == "4.21 s"
    assert format_seconds(312.4) == "312 s"
    assert format_bytes(312e6) == "312 MB"
    assert format_bytes(2.41e9) == "2.41 GB"
    assert format_bytes(236_000) == "236 KB"  # the site's first query, not "0 MB"


def _results(**seconds: list[float]) -> Results:
    results = Results(records=10, runs=1)
    for name, values in seconds.items():
        results.seconds[name.replace("_", ".").replace("site.builder", "site-builder")] = \
            Summary.of(values)
    return results


def _verdict(results: Results, key: str):
    return next(v for v in judge(results) if v.target.key == key)


def test_a_build_within_one_hugo_build_is_met():
    verdict = _verdict(_results(build_site_builder=[8.0], build_hugo=[10.0]), "build-vs-hugo")
    assert verdict.value == pytest.approx(0.8)
    assert verdict.met
    assert verdict.describe() == "met (20% to spare)"


def test_a_slower_build_is_missed_by_how_much():
    verdict = _verdict(_results(build_site_builder=[15.0], build_hugo=[10.0]), "build-vs-hugo")
    assert verdict.met is False
    assert verdict.describe() == "**missed** by 50%"


def test_a_speedup_against_a_stopped_mkdocs_is_only_a_lower_bound():
    results = _results(build_site_builder=[20.0])
    results.seconds["build.mkdocs"] = Summary.of([300.0], censored=1)
    verdict = _verdict(results, "build-vs-mkdocs")
    assert verdict.lower_bound
    assert verdict.value == pytest.approx(15.0)
    assert verdict.met  # at least 15× already proves ≥ 10×
    results.seconds["build.site-builder"] = Summary.of([60.0])
    undecided = _verdict(results, "build-vs-mkdocs")
    assert undecided.met is None
    assert undecided.describe().startswith("undecided")


def test_targets_not_measured_say_so():
    verdict = _verdict(Results(records=10, runs=1), "mcp-filters")
    assert verdict.met is None
    assert verdict.describe() == "not measured"
