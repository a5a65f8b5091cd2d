"""Sizes above 10,000 records: Hugo only where it fits, the memory and scaling targets, the row."""

from __future__ import annotations

import pytest

from bench.large import why_not_hugo
from bench.report import every_size
from bench.results import Results
from bench.stats import Summary
from bench.targets import judge

GIB = 1 << 30


def _at(records: int, seconds: float, peak: float, hugo_peak: float | None = None) -> Results:
    results = Results(records=records, runs=1)
    results.seconds["build.site-builder"] = Summary.of([seconds])
    results.cpu_seconds["build.site-builder"] = Summary.of([seconds * 1.5])
    results.memory["build.site-builder"] = Summary.of([peak])
    if hugo_peak is not None:
        results.seconds["build.hugo"] = Summary.of([seconds])
        results.memory["build.hugo"] = Summary.of([hugo_peak])
    return results


def test_hugo_is_not_started_where_its_estimated_peak_passes_the_machine():
    smaller = {1000: _at(1000, 3, 130e6, 0.3e9), 10000: _at(10000, 30, 320e6, 2.44e9)}
    why, cell = why_not_hugo(smaller, 100_000, 24 * GIB)
    assert "estimated from 2.44 GB at 10,000 records" in why and "24.40 GB" in why
    assert cell == "not run: ~24.40 GB est."
    assert why_not_hugo(smaller, 100_000, 64 * GIB) is None  # it fits there
    assert why_not_hugo(smaller, 10_000, 1 * GIB) is None  # default sizes always run it
    assert why_not_hugo({}, 100_000, 64 * GIB)[1] == "not run"  # nothing to estimate from


def _run(big_seconds: float, big_peak: float) -> Results:
    by_size = {10000: _at(10000, 30, 320e6, 2.44e9), 100000: _at(100000, big_seconds, big_peak)}
    by_size[100000].not_run["hugo"] = "not run: ~24.40 GB est."
    results = by_size[10000]
    results.by_size = by_size
    return results


def test_a_large_size_is_judged_on_its_memory_and_against_the_10000_record_build():
    verdicts = {v.target.key: v for v in judge(_run(240.0, 900e6))}
    assert verdicts["build-scale-100000"].value == pytest.approx(8.0)
    assert verdicts["build-scale-100000"].met
    assert verdicts["build-memory-100000"].met
    assert "build-vs-hugo-100000" not in verdicts  # Hugo did not run there
    missed = {v.target.key: v for v in judge(_run(330.0, 1.4e9))}
    assert missed["build-scale-100000"].describe() == "**missed** by 10%"
    assert missed["build-memory-100000"].met is False


def test_the_row_of_a_size_hugo_did_not_run_at_says_why_in_its_cell():
    lines = every_size(_run(240.0, 900e6))
    row = next(line for line in lines if line.startswith("| 100,000"))
    assert "| not run: ~24.40 GB est. |" in row and "| 900 MB |" in row
    assert any("no fstrim pair" in line for line in lines)
