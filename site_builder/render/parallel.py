"""`process_map`: run a function over many items in worker processes, on every core.

Workers are started fresh (spawned), not forked: a forked worker's resident memory counts
everything its parent had loaded, so two forked workers after loading a 10,000-record
archive tripled the build's memory. A spawned worker holds only the modules it imports and
what its initializer builds from small, picklable arguments; the items carry the rest.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import multiprocessing.spawn
import os
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

# Below this many items, or this much work (in the units of `weight`: characters of
# Markdown for bodies), starting worker processes costs more than it saves. A worker takes
# about 0.3 s of CPU to start (an interpreter, the renderer, Pygments and nh3), on the other
# core while this process loads and writes; rendering runs at about 4 MB of Markdown a second
# here (cmark-gfm, sanitising and Pygments), so 2 MB is half a second of this process's time.
PARALLEL_FROM = 200
PARALLEL_WEIGHT = 2_000_000
# Batches each worker may have done or in hand before the caller takes their results: the
# workers render faster than pages are written, and every result not yet taken is held in
# this process (at 10,000 records, all of them: 170 MB of HTML).
IN_FLIGHT = 3


class WorkersFailed(Exception):
    """Worker processes could not start, or one stopped without an answer (killed, out of
    memory); the message says which, in one line."""


def default_jobs() -> int:
    """Worker processes to use: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def process_map(function: Callable[[T], R], items: Sequence[T], jobs: int | None = None,
                initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = (),
                weight: int | None = None, finish: Callable[[], None] | None = None,
                ahead: int | None = IN_FLIGHT) -> Results[R]:
    """`function(item)` for every item, in order, computed by `jobs` worker processes
    (default: one per CPU), each set up once by `initializer(*initargs)`. `finish()`, when
    given, runs where the items were computed before their results are handed over: after
    each batch in a worker, after each item in this process (to commit what they stored).
    Workers stay `ahead` batches each ahead of the results taken (IN_FLIGHT), or run through
    every batch without waiting with None: for results that take no memory to hold.

    The workers start at once, before the first result is asked for, so the caller can do
    other work while they compute. `function` and `initializer` must be module-level
    functions (`finish` too); items, `initargs` and results must pickle. With one job, fewer than
    PARALLEL_FROM items or a `weight` (the work all items hold) under PARALLEL_WEIGHT,
    everything runs in this process instead, one item each time a
    result is asked for. Results come in order as they arrive; an exception in a worker is
    raised here, and WorkersFailed when the workers cannot start or one dies (at once: a
    broken pool is not waited on). Iterate to the end or `close()` the results: closing
    early stops the workers and drops the work not started yet.
    """
    jobs = jobs or default_jobs()
    if (jobs < 2 or len(items) < PARALLEL_FROM
            or (weight is not None and weight < PARALLEL_WEIGHT)):
        return Results(_in_this_process(function, items, initializer, initargs, finish))
    # Small batches keep every worker busy to the end; batches at all keep the number of
    # messages between processes low.
    size = max(1, min(64, math.ceil(len(items) / (jobs * 8))))
    batches = [(function, list(items[start:start + size]), finish)
               for start in range(0, len(items), size)]
    context = multiprocessing.get_context("spawn")
    executable = os.fsdecode(multiprocessing.spawn.get_executable())
    if not os.access(executable, os.X_OK):
        # Found before any process or semaphore exists: nothing half-started to clean up.
        raise WorkersFailed(_failed(OSError(f"{executable} is not an executable"),
                                    started=False))
    try:  # the pool starts a resource tracker process at once, the workers on submit
        # The initializer's arguments (the link table: 100 KB at 1,000 records) reach each
        # worker through a queue, not with the spawn's start-up data: that goes down a pipe
        # the new interpreter reads only once it has started, so anything beyond the pipe's
        # 64 KB held this process up for the whole start of each worker, one after the other.
        arguments = context.Queue()
        arguments.cancel_join_thread()  # copies no worker took must not hold up the exit
        for _ in range(jobs):
            arguments.put(initargs)
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                   initializer=_initialise, initargs=(arguments, initializer))
    except OSError as error:
        raise WorkersFailed(_failed(error, started=False)) from None
    waiting = iter(batches)
    try:  # the first batches now, so the workers start at once
        submitted = deque(pool.submit(_run, batch)
                          for batch in itertools.islice(
                              waiting, None if ahead is None else jobs * ahead))
    except BaseException as error:
        pool.shutdown(wait=False, cancel_futures=True)
        if isinstance(error, (OSError, BrokenExecutor)):
            raise WorkersFailed(_failed(error, started=False)) from None
        raise
    return Results(_in_order(pool, submitted, waiting), pool)


_Batch = tuple[Callable[[Any], Any], list[Any], Callable[[], None] | None]


def _in_order(pool: ProcessPoolExecutor, submitted: deque[Future[list[Any]]],
              waiting: Iterator[_Batch]) -> Iterator[Any]:
    """The items of each batch's result in turn, submitting one more batch for each batch
    taken: the workers stay IN_FLIGHT batches ahead of the caller, never further."""
    while submitted:
        done = submitted.popleft().result()
        batch = next(waiting, None)
        if batch is not None:
            submitted.append(pool.submit(_run, batch))
        yield from done


def _failed(error: BaseException, started: bool) -> str:
    if started:
        what = "a render worker process stopped without an answer (killed, or out of memory?)"
    else:
        what = "render worker processes could not start"
    if isinstance(error, OSError):
        what += f" ({error.strerror or error})"
    return f"{what}; try again with --jobs 1 to render in this process"


def _in_this_process(function: Callable[[T], R], items: Sequence[T],
                     initializer: Callable[..., None] | None, initargs: tuple[Any, ...],
                     finish: Callable[[], None] | None) -> Generator[R, None, None]:
    if initializer is not None:
        initializer(*initargs)
    for item in items:
        result = function(item)
        if finish is not None:
            finish()
        yield result


class Results(Iterator[R]):
    """The results of one `process_map`, in order; `close()` stops what is still running."""

    def __init__(self, results: Iterator[R], pool: ProcessPoolExecutor | None = None) -> None:
        self._results = results
        self._pool = pool
        self._taken = 0

    def __next__(self) -> R:
        try:
            result = next(self._results)
        except BrokenExecutor as error:
            self.close(wait=False)  # the pool is broken: nothing is left to wait for
            raise WorkersFailed(_failed(error, started=self._taken > 0)) from None
        except BaseException:  # the end, or a worker's exception: no work remains
            self.close()
            raise
        self._taken += 1
        return result

    def close(self, wait: bool = True) -> None:
        """Stop the workers (waiting for the batches they are in, unless not `wait`) and
        drop every result not taken yet."""
        self._results = iter(())
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=True)
            self._pool = None


def _initialise(arguments: Any, initializer: Callable[..., None] | None) -> None:
    """A worker's start: take one copy of the initializer's arguments and run it."""
    initargs = arguments.get()
    if initializer is not None:
        initializer(*initargs)


def _run(batch: _Batch) -> list[Any]:
    function, items, finish = batch
    results = [function(item) for item in items]
    if finish is not None:
        finish()
    return results
