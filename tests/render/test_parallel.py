"""parallel.process_map: the same answers as map(), computed in worker processes."""

from __future__ import annotations

import os
import time

import pytest

from site_builder.render import parallel
from site_builder.render.parallel import process_map

_offset = 0


def _set_offset(offset: int) -> None:
    global _offset
    _offset = offset


def _shifted(n: int) -> tuple[int, int]:
    return n + _offset, os.getpid()


def _fails_at_150(n: int) -> int:
    if n == 150:
        raise ValueError("record 150 cannot be rendered")
    return n


@pytest.fixture
def small_batches_in_parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "PARALLEL_FROM", 10)


@pytest.mark.usefixtures("small_batches_in_parallel")
def test_results_come_back_in_order_from_initialised_workers() -> None:
    results = list(process_map(_shifted, range(200), jobs=2, initializer=_set_offset,
                               initargs=(1000,)))
    assert [value for value, _ in results] == [n + 1000 for n in range(200)]
    assert os.getpid() not in {pid for _, pid in results}
    assert _offset == 0  # the initializer ran in the workers only


def test_little_work_stays_in_this_process() -> None:
    results = list(process_map(_shifted, range(parallel.PARALLEL_FROM - 1), jobs=2))
    assert {pid for _, pid in results} == {os.getpid()}


@pytest.mark.usefixtures("small_batches_in_parallel")
def test_light_work_stays_in_this_process_however_many_items() -> None:
    items = range(parallel.PARALLEL_FROM * 2)
    results = list(process_map(_shifted, items, jobs=2, weight=parallel.PARALLEL_WEIGHT - 1))
    assert {pid for _, pid in results} == {os.getpid()}


def test_an_error_in_a_worker_is_raised_here() -> None:
    with pytest.raises(ValueError, match="record 150"):
        list(process_map(_fails_at_150, range(200), jobs=2))


def _touch(path: str) -> str:
    with open(path, "w") as stream:
        stream.write("done")
    return path


@pytest.mark.usefixtures("small_batches_in_parallel")
def test_workers_start_before_the_first_result_is_asked_for(tmp_path) -> None:
    paths = [str(tmp_path / f"{n}.txt") for n in range(20)]
    # The first IN_FLIGHT batches of each worker go out at once (a batch holds 1 item or
    # more); the others follow as results are taken.
    ahead = paths[:2 * parallel.IN_FLIGHT]
    results = process_map(_touch, paths, jobs=2)
    try:
        deadline = time.monotonic() + 60
        while not all(os.path.exists(p) for p in ahead) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(os.path.exists(p) for p in ahead)
        assert list(results) == paths
    finally:
        results.close()
    assert all(os.path.exists(p) for p in paths)
    assert list(results) == []  # closed: nothing more comes


_finished: list[int] = []


def _note_batch() -> None:
    _finished.append(os.getpid())


def _pid(n: int) -> int:
    return os.getpid()


@pytest.mark.usefixtures("small_batches_in_parallel")
def test_without_a_bound_the_workers_run_through_every_batch_untaken(tmp_path) -> None:
    paths = [str(tmp_path / f"{n}.txt") for n in range(200)]
    results = process_map(_touch, paths, jobs=2, ahead=None)
    try:
        deadline = time.monotonic() + 60
        while not all(os.path.exists(p) for p in paths) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(os.path.exists(p) for p in paths)  # before a single result was taken
        assert list(results) == paths
    finally:
        results.close()


def test_finish_runs_where_the_items_were_computed() -> None:
    _finished.clear()
    pids = list(process_map(_pid, range(5), jobs=2, finish=_note_batch))
    assert pids == [os.getpid()] * 5 and _finished == [os.getpid()] * 5  # after each item


@pytest.mark.usefixtures("small_batches_in_parallel")
def test_closing_midway_stops_the_workers() -> None:
    results = process_map(_shifted, range(400), jobs=2)
    first = [next(results) for _ in range(3)]
    results.close()
    assert [value for value, _ in first] == [0, 1, 2]
    assert results._pool is None
