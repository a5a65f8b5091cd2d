"""`fork_map`: run a function over many items on every core, in forked worker processes.

Workers are forked after the caller has built whatever the function needs (the loaded
archive, a template environment), so each worker starts with it already in memory and loads
nothing again; only the items and the results cross between processes. Where `fork` is not
available, or there is too little work to pay for starting processes, the items are simply
mapped in this process.
"""

from __future__ import annotations

import math
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

# Below this many items, starting worker processes costs more than it saves.
PARALLEL_FROM = 32

# The function of the current fork_map, inherited by its forked workers. Set only while a
# pool runs, by the process that starts the pool.
_task: Callable[[Any], Any] | None = None


def default_jobs() -> int:
    """Worker processes to use: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _run(batch: list[Any]) -> list[Any]:
    assert _task is not None, "set by fork_map before the pool forks"
    return [_task(item) for item in batch]


def fork_map(function: Callable[[T], R], items: Sequence[T], jobs: int | None = None,
             ) -> Iterator[R]:
    """`function(item)` for every item, in order, computed by `jobs` forked processes
    (default: one per CPU). Results are yielded as they arrive; an exception in a worker is
    raised here. `function` may use anything that exists when fork_map is called."""
    global _task
    jobs = jobs or default_jobs()
    if (jobs < 2 or len(items) < PARALLEL_FROM
            or "fork" not in multiprocessing.get_all_start_methods()):
        yield from map(function, items)
        return
    # Small batches keep every worker busy to the end; batches at all keep the number of
    # messages between processes low.
    size = max(1, min(64, math.ceil(len(items) / (jobs * 8))))
    batches = [list(items[start:start + size]) for start in range(0, len(items), size)]
    if _task is not None:
        raise RuntimeError("fork_map cannot be nested")
    _task = function
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"))
    try:
        for batch in pool.map(_run, batches):
            yield from batch
    finally:
        _task = None
        # When the caller stops early (an error while writing), queued batches are dropped
        # instead of being rendered for nothing.
        pool.shutdown(wait=True, cancel_futures=True)
