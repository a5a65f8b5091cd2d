"""parallel.process_map: the same answers as map(), computed in worker processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from site_builder.render import parallel
from site_builder.render.parallel import WorkersFailed, process_map
from tests.conftest import REPO, process_alive, wait_until_gone

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


@pytest.fixture(params=["fork", "spawn"])
def method(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test that takes it runs with forked workers and with spawned ones."""
    monkeypatch.setattr(parallel, "start_method", lambda memory=0: request.param)
    return request.param


@pytest.fixture
def small_batches_in_parallel(monkeypatch: pytest.MonkeyPatch, method: str) -> None:
    monkeypatch.setattr(parallel, "PARALLEL_FROM", 10)
    monkeypatch.setattr(parallel, "FORK_FROM", 10)


@pytest.mark.usefixtures("small_batches_in_parallel")
def test_results_come_back_in_order_from_initialised_workers() -> None:
    results = list(process_map(_shifted, range(200), jobs=2, initializer=_set_offset,
                               initargs=(1000,)))
    assert [value for value, _ in results] == [n + 1000 for n in range(200)]
    assert os.getpid() not in {pid for _, pid in results}
    assert _offset == 0  # the initializer ran in the workers only


def _least(method: str) -> tuple[int, int]:
    """The fewest items and the least weight that workers started by `method` pay for."""
    if method == "fork":
        return parallel.FORK_FROM, parallel.FORK_WEIGHT
    return parallel.PARALLEL_FROM, parallel.PARALLEL_WEIGHT


def test_little_work_stays_in_this_process(method: str) -> None:
    fewest, _ = _least(method)
    results = list(process_map(_shifted, range(fewest - 1), jobs=2))
    assert {pid for _, pid in results} == {os.getpid()}
    assert {pid for _, pid in process_map(_shifted, range(fewest), jobs=2)} != {os.getpid()}


@pytest.mark.usefixtures("small_batches_in_parallel")
def test_light_work_stays_in_this_process_however_many_items(method: str) -> None:
    fewest, least = _least(method)
    items = range(fewest * 2)
    results = list(process_map(_shifted, items, jobs=2, weight=least - 1))
    assert {pid for _, pid in results} == {os.getpid()}


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_one_job_always_renders_in_this_process(method: str) -> None:
    assert parallel.workers_for(10_000, 10**9, 1, method) == 0


def test_forked_workers_are_started_as_the_work_pays_for_them() -> None:
    each = parallel.FORK_WEIGHT_EACH
    assert parallel.workers_for(500, parallel.FORK_WEIGHT, 2, "fork") == 1
    assert parallel.workers_for(500, 2 * each - 1, 2, "fork") == 1
    assert parallel.workers_for(500, 2 * each, 2, "fork") == 2
    assert parallel.workers_for(500, 100 * each, 4, "fork") == 4
    assert parallel.workers_for(500, None, 3, "fork") == 3
    # Spawned, every worker or none: each costs the same start whatever it is given.
    assert parallel.workers_for(500, parallel.PARALLEL_WEIGHT, 4, "spawn") == 4
    assert parallel.workers_for(500, parallel.PARALLEL_WEIGHT - 1, 4, "spawn") == 0


def test_a_single_threaded_process_holding_little_forks() -> None:
    """In a fresh interpreter (as a build runs) workers are forked; with another thread
    running, or after holding FORK_MEMORY, they are spawned."""
    script = (f"import sys, threading; sys.path.insert(0, {str(REPO)!r})\n"
              "from site_builder.render import parallel\n"
              "print(parallel.start_method())\n"
              "hold = bytearray(parallel.FORK_MEMORY); hold[::4096] = b'x' * len(hold[::4096])\n"
              "print(parallel.start_method())\n")
    lines = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           check=True).stdout.split()
    assert lines == ["fork", "spawn"]
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert parallel.start_method() == "spawn"
    finally:
        stop.set()
        other.join()


def test_an_error_in_a_worker_is_raised_here(method: str) -> None:
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


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_the_workers_die_with_the_build(method: str) -> None:
    """A build killed midway leaves no worker behind (holding the build lock, say)."""
    script = (f"import multiprocessing, sys, time; sys.path.insert(0, {str(REPO)!r})\n"
              "from site_builder.render import parallel\n"
              f"parallel.start_method = lambda memory=0: {method!r}\n"
              "parallel.PARALLEL_FROM = parallel.FORK_FROM = 1\n"
              "from tests.render.test_parallel import _first_at_once\n"
              "results = parallel.process_map(_first_at_once, range(8), jobs=2)\n"
              "next(results)\n"
              "print(*(p.pid for p in multiprocessing.active_children()), flush=True)\n"
              "time.sleep(60)\n")
    # (stderr: the resource tracker of spawned workers says it cleaned up after the kill)
    build = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                             stderr=subprocess.DEVNULL, cwd=REPO)
    assert build.stdout is not None
    workers = [int(pid) for pid in build.stdout.readline().split()]
    assert len(workers) == 2 and all(process_alive(pid) for pid in workers)
    os.kill(build.pid, signal.SIGKILL)
    build.wait()
    wait_until_gone(workers)
    assert not any(process_alive(pid) for pid in workers)


def _killed(n: int) -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return n


def test_a_forked_worker_killed_midway_is_said_to_have_stopped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Not "could not start": a forked worker runs from the moment it is submitted to."""
    monkeypatch.setattr(parallel, "start_method", lambda memory=0: "fork")
    monkeypatch.setattr(parallel, "FORK_FROM", 1)
    with pytest.raises(WorkersFailed, match=r"^a render worker process stopped without an "
                                             r"answer"):
        list(process_map(_killed, range(4), jobs=2))


def _first_at_once(n: int) -> int:
    if n:
        time.sleep(60)
    return n

