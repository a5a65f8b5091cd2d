"""`process_map`: run a function over many items in worker processes, on every core.

Workers are started fresh (spawned), not forked: a forked worker's resident memory counts
everything its parent had loaded, so two forked workers after loading a 10,000-record
archive tripled the build's memory. A spawned worker holds only the modules it imports and
what its initializer builds from small, picklable arguments; the items carry the rest.
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

# Below this many items, starting worker processes (about half a second each, to import
# Markdown and Pygments) costs more than it saves.
PARALLEL_FROM = 200


def default_jobs() -> int:
    """Worker processes to use: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def process_map(function: Callable[[T], R], items: Sequence[T], jobs: int | None = None,
                initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = (),
                ) -> Iterator[R]:
    """`function(item)` for every item, in order, computed by `jobs` worker processes
    (default: one per CPU), each set up once by `initializer(*initargs)`.

    `function` and `initializer` must be module-level functions; items, `initargs` and
    results must pickle. With one job or fewer than PARALLEL_FROM items, everything runs in
    this process instead. Results are yielded as they arrive; an exception in a worker is
    raised here, and stopping early drops the work not started yet.
    """
    jobs = jobs or default_jobs()
    if jobs < 2 or len(items) < PARALLEL_FROM:
        if initializer is not None:
            initializer(*initargs)
        yield from map(function, items)
        return
    # Small batches keep every worker busy to the end; batches at all keep the number of
    # messages between processes low.
    size = max(1, min(64, math.ceil(len(items) / (jobs * 8))))
    batches = [(function, list(items[start:start + size]))
               for start in range(0, len(items), size)]
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                               initializer=initializer, initargs=initargs)
    try:
        for batch in pool.map(_run, batches):
            yield from batch
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _run(batch: tuple[Callable[[Any], Any], list[Any]]) -> list[Any]:
    function, items = batch
    return [function(item) for item in items]
