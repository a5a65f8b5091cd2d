"""parallel.in_background: one function computed in a forked worker while the build goes on."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from site_builder.render import parallel
from site_builder.render.parallel import WorkersFailed, in_background, process_map
from tests.conftest import process_alive, wait_until_gone


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "start_method", lambda memory=0: "fork")


def _where(data: bytes, extra: int) -> tuple[int, int, int]:
    """Who computed it, and how much of what it was given."""
    return os.getpid(), len(data), extra


class _NotRendered(Exception):
    pass


def _fails(record: str) -> None:
    raise _NotRendered(f"{record} cannot be indexed")


def _killed() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _sleeps() -> int:
    time.sleep(60)
    return os.getpid()


@pytest.mark.usefixtures("forks")
def test_the_function_runs_in_another_process_on_what_it_inherits() -> None:
    big = b"x" * 5_000_000  # inherited by the fork: nothing but the result is pickled
    pid, size, extra = in_background(_where, big, 7, jobs=2).result()
    assert pid != os.getpid()
    assert (size, extra) == (len(big), 7)


@pytest.mark.usefixtures("forks")
def test_it_starts_no_thread_so_the_body_workers_still_fork() -> None:
    before = threading.active_count()
    background = in_background(_where, b"", 0, jobs=2)
    try:
        assert threading.active_count() == before
    finally:
        background.close()


def test_with_one_job_or_without_forking_it_runs_here_when_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "start_method", lambda memory=0: "fork")
    assert in_background(_where, b"ab", 1, jobs=1).result() == (os.getpid(), 2, 1)
    monkeypatch.setattr(parallel, "start_method", lambda memory=0: "spawn")
    assert in_background(_where, b"ab", 1, jobs=2).result() == (os.getpid(), 2, 1)


@pytest.mark.usefixtures("forks")
def test_an_exception_in_the_worker_is_raised_here() -> None:
    background = in_background(_fails, "build/adr/0007", jobs=2)
    with pytest.raises(_NotRendered, match=r"^build/adr/0007 cannot be indexed$"):
        background.result()


@pytest.mark.usefixtures("forks")
def test_a_worker_killed_midway_is_one_line() -> None:
    with pytest.raises(WorkersFailed, match=r"^a render worker process stopped without an "
                                             r"answer .*; try again with --jobs 1"):
        in_background(_killed, jobs=2).result()


@pytest.mark.usefixtures("forks")
def test_closing_stops_a_worker_whose_result_is_not_wanted() -> None:
    background = in_background(_sleeps, jobs=2)
    process = background._process
    assert process is not None and process.pid is not None
    pid = process.pid
    assert process_alive(pid)
    background.close()
    wait_until_gone([pid])
    assert not process_alive(pid)


@pytest.mark.usefixtures("forks")
def test_process_map_forks_its_workers_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "FORK_FROM", 1)
    background = in_background(_where, b"", 0, jobs=2)
    results = list(process_map(_where_item, range(20), jobs=2))
    assert os.getpid() not in {pid for pid, _, _ in results}
    assert background.result()[0] != os.getpid()


def _where_item(n: int) -> tuple[int, int, int]:
    return os.getpid(), n, 0


def test_it_says_where_the_result_is_computed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build writes an index computed here first, while the body workers render, and
    one computed by a worker after the pages."""
    monkeypatch.setattr(parallel, "start_method", lambda memory=0: "spawn")
    assert not in_background(_where, b"", 0, jobs=2).elsewhere
    monkeypatch.setattr(parallel, "start_method", lambda memory=0: "fork")
    background = in_background(_where, b"", 0, jobs=2)
    assert background.elsewhere
    background.close()


def test_it_forks_from_a_build_too_large_to_fork_a_pool_from(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One worker copies at most what the build holds once: it forks up to
    BACKGROUND_MEMORY, where a pool's workers are spawned from FORK_MEMORY on."""
    if threading.active_count() != 1:
        pytest.fail("the test runner runs threads: nothing here can fork")
    between = (parallel.FORK_MEMORY + parallel.BACKGROUND_MEMORY) // 2
    monkeypatch.setattr(parallel, "_resident_memory", lambda: between)
    assert parallel.start_method() == "spawn"
    background = in_background(_where, b"", 0, jobs=2)
    assert background.elsewhere
    assert background.result()[0] != os.getpid()
    monkeypatch.setattr(parallel, "_resident_memory", lambda: parallel.BACKGROUND_MEMORY + 1)
    assert not in_background(_where, b"", 0, jobs=2).elsewhere
