"""One bench run at several sizes: a target per size, the trimmed state, the table."""

from __future__ import annotations

import argparse

import pytest

from bench.report import every_size
from bench.results import Results
from bench.run import _sizes
from bench.stats import Summary
from bench.targets import judge


def _at(records: int, ours: float, hugo: float, trimmed: tuple[float, float] | None = None,
        mkdocs: float | None = None) -> Results:
    results = Results(records=records, runs=3)
    for kind, values in (("build", (ours, hugo)), ("trimmed", trimmed)):
        if values is None:
            continue
        for tool, value in zip(("site-builder", "hugo"), values, strict=True):
            results.seconds[f"{kind}.{tool}"] = Summary.of([value])
            results.cpu_seconds[f"{kind}.{tool}"] = Summary.of([value * 2])
            results.memory[f"{kind}.{tool}"] = Summary.of([100e6])
    if mkdocs is not None:
        results.seconds["build.mkdocs"] = Summary.of([mkdocs])
    return results


def _run() -> Results:
    by_size = {100: _at(100, 0.3, 0.4, (0.45, 0.4), mkdocs=6.0),
               1000: _at(1000, 2.4, 2.0, mkdocs=30.0),
               10000: _at(10000, 12.0, 15.0, (24.0, 12.0))}
    results = by_size[10000]
    results.by_size = by_size
    return results


def test_each_size_has_its_own_target_against_hugo_and_one_after_fstrim():
    verdicts = {v.target.key: v for v in judge(_run())}
    assert "build-vs-hugo" not in verdicts
    assert verdicts["build-vs-hugo-100"].value == pytest.approx(0.75)
    assert verdicts["build-vs-hugo-100"].met
    assert verdicts["build-vs-hugo-1000"].met is False
    assert verdicts["build-vs-hugo-1000"].describe() == "**missed** by 20%"
    assert verdicts["build-vs-hugo-10000"].met
    assert verdicts["trimmed-vs-hugo-100"].value == pytest.approx(1.125)
    assert verdicts["trimmed-vs-hugo-100"].met  # below 1,000 records the limit is 1.5×
    assert verdicts["trimmed-vs-hugo-100"].target.text.endswith("≤ 1.5× Hugo's")
    assert verdicts["build-vs-hugo-1000"].target.text.endswith("≤ 1.0× Hugo's wall time")
    assert verdicts["trimmed-vs-hugo-10000"].met is False
    assert verdicts["trimmed-vs-hugo-10000"].value == pytest.approx(2.0)
    assert "trimmed-vs-hugo-1000" not in verdicts  # not measured at that size


def test_mkdocs_is_judged_at_the_largest_size_it_ran_at():
    verdict = next(v for v in judge(_run()) if v.target.key == "build-vs-mkdocs")
    assert verdict.value == pytest.approx(30.0 / 2.4)


def test_the_table_lists_every_size_then_the_trimmed_builds_and_the_change():
    lines = every_size(_run())
    rows = [line for line in lines if line.startswith("| 1")]
    assert [row.split(" | ")[0] for row in rows] == [
        "| 100", "| 1,000", "| 10,000", "| 100, after fstrim + dropped caches",
        "| 10,000, after fstrim + dropped caches"]
    assert "| 0.75× |" in rows[0] and rows[0].endswith("| 100 MB | 6 s |")
    assert ("By how much the trimmed state changes the wall-time ratio to Hugo: "
            "100 records +50%, 10,000 records +150%.") in lines


def test_sizes_are_read_sorted_and_unique():
    assert _sizes("10000,100,1_000,100") == (100, 1000, 10000)
    for bad in ("", "a,1", "0"):
        with pytest.raises(argparse.ArgumentTypeError):
            _sizes(bad)
