"""parallel.fork_map: the same answers as map(), computed in forked worker processes."""

from __future__ import annotations

import os

import pytest

from site_builder.build.parallel import PARALLEL_FROM, fork_map


def test_results_come_back_in_order_from_other_processes() -> None:
    table = {n: n * n for n in range(200)}  # built before the fork, never pickled
    results = list(fork_map(lambda n: (table[n], os.getpid()), range(200), jobs=2))
    assert [square for square, _ in results] == [n * n for n in range(200)]
    assert os.getpid() not in {pid for _, pid in results}


def test_little_work_stays_in_this_process() -> None:
    pids = set(fork_map(lambda _: os.getpid(), range(PARALLEL_FROM - 1), jobs=2))
    assert pids == {os.getpid()}
    assert set(fork_map(lambda _: os.getpid(), range(100), jobs=1)) == {os.getpid()}


def test_an_error_in_a_worker_is_raised_here() -> None:
    def check(n: int) -> int:
        if n == 150:
            raise ValueError("record 150 cannot be rendered")
        return n

    with pytest.raises(ValueError, match="record 150"):
        list(fork_map(check, range(200), jobs=2))
    assert list(fork_map(abs, range(40), jobs=2)) == list(range(40))  # usable again
