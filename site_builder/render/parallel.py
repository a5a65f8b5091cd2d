"""`process_map`: run a function over many items in worker processes, on every core.

Workers are forked where that is safe and cheap: on Linux, from a process that runs a single
thread (a build) and holds little (FORK_MEMORY). A forked worker starts in milliseconds with
the renderer its parent already imported, so even a small archive's bodies pay for one; the
objects the parent holds are frozen out of the cyclic collector first (`gc.freeze`), so that
the workers' collections do not copy the pages they share with it. Elsewhere (`serve`, which
runs threads; macOS, where system libraries are unsafe after a fork; a large loaded archive)
workers are spawned: a fresh interpreter that imports the renderer itself, about 0.3 s of CPU
each, so they are started only for work that pays for that.
"""

from __future__ import annotations

import gc
import itertools
import math
import multiprocessing
import multiprocessing.spawn
import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar

from site_builder.errors import SiteBuilderError
from site_builder.render.lifeline import become_helper, starting_helpers

T = TypeVar("T")
R = TypeVar("R")

# Below this many items, or this much work (in the units of `weight`: characters of
# Markdown for bodies), starting spawned worker processes costs more than it saves. A spawned
# worker takes about 0.3 s of CPU to start (an interpreter, the renderer, Pygments and nh3), on
# the other core while this process loads and writes; rendering runs at about 4 MB of Markdown
# a second here (cmark-gfm, sanitising and Pygments), so 2 MB is half a second of this
# process's time.
PARALLEL_FROM = 200
PARALLEL_WEIGHT = 2_000_000
# The same for forked workers, which cost a few milliseconds to start: one pays from about
# 25 ms of rendering (the bench's 100 records hold 0.57 MB, and one forked worker took about
# a tenth off their build). Each worker compiles the Pygments lexers it meets again (0.1 s
# for the usual seven languages), so each further one needs FORK_WEIGHT_EACH of work.
FORK_FROM = 10
FORK_WEIGHT = 100_000
FORK_WEIGHT_EACH = 2_000_000
# A forked worker comes to hold its own copy of every page its parent writes to after the
# fork (the parent's reference counts do, page after page), so workers are forked only from a
# process that holds less than this now (46 MB at 1,000 records, 162 MB at 10,000, where a forked
# build peaked at 423 MB against 323 MB spawned; the spawn's start costs little there).
FORK_MEMORY = 100 << 20
# One worker beside the build (`in_background`: the search index) copies at most what the
# build holds, once, where each of a pool's workers would: it is forked from up to this much
# (at 10,000 records the build holds 114 MB then, and computing the index in this process
# instead kept it on the build's critical path: 0.8 s of a 5 s one-record rebuild). A
# 100,000-record build holds far more, and computes its index itself.
BACKGROUND_MEMORY = 400 << 20
# Batches each worker may have done or in hand before the caller takes their results: the
# workers render faster than pages are written, and every result not yet taken is held in
# this process (at 10,000 records, all of them: 170 MB of HTML).
IN_FLIGHT = 3


class WorkersFailed(SiteBuilderError):
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
    """`function(item)` for every item, in order, computed by up to `jobs` worker processes
    (default: one per CPU), each set up once by `initializer(*initargs)`. `finish()`, when
    given, runs where the items were computed before their results are handed over: after
    each batch in a worker, after each item in this process (to commit what they stored).
    Workers stay `ahead` batches each ahead of the results taken (IN_FLIGHT), or run through
    every batch without waiting with None: for results that take no memory to hold.

    The workers start at once, before the first result is asked for, so the caller can do
    other work while they compute. `function` and `initializer` must be module-level
    functions (`finish` too); items and results must pickle, and `initargs` too where workers
    are spawned. How many workers the work pays for is `workers_for` (its `weight`: the work
    all items hold); with none, or one job, everything runs in this process instead, one item
    each time a result is asked for. Results come in order as they arrive; an exception in a
    worker is raised here, and WorkersFailed when the workers cannot start or one dies (at
    once: a broken pool is not waited on). Iterate to the end or `close()` the results:
    closing early stops the workers and drops the work not started yet.
    """
    method = start_method()
    jobs = workers_for(len(items), weight, jobs or default_jobs(), method)
    if jobs == 0:
        return Results(_in_this_process(function, items, initializer, initargs, finish))
    # Small batches keep every worker busy to the end; batches at all keep the number of
    # messages between processes low.
    size = max(1, min(64, math.ceil(len(items) / (jobs * 8))))
    batches = [(function, list(items[start:start + size]), finish)
               for start in range(0, len(items), size)]
    pool = _forked(jobs, initializer, initargs) if method == "fork" else _spawned(
        jobs, initializer, initargs)
    waiting = iter(batches)
    try:  # the first batches now, so the workers start at once (forked ones at the first)
        with _starting(forked=method == "fork"):
            submitted = deque(pool.submit(_run, batch)
                              for batch in itertools.islice(
                                  waiting, None if ahead is None else jobs * ahead))
    except BaseException as error:
        pool.shutdown(wait=False, cancel_futures=True)
        if isinstance(error, (OSError, BrokenExecutor)):
            raise WorkersFailed(_failed(error, started=False)) from None
        raise
    return Results(_in_order(pool, submitted, waiting), pool, started=method == "fork")


def in_background(function: Callable[..., R], *args: Any,
                  jobs: int | None = None) -> Background[R]:
    """`function(*args)` computed in a forked worker process while this one goes on, when
    it may fork (`start_method`, from up to BACKGROUND_MEMORY) and more than one of `jobs`
    may run (default: one per CPU); otherwise in this process, when its result is first
    asked for. The worker
    inherits the function and its arguments, so only the result is pickled, and it starts no
    thread here: a `process_map` started after it still forks its workers (the search index
    is built so, beside the pages: BUILD-ADR-0031)."""
    if (jobs or default_jobs()) < 2 or start_method(BACKGROUND_MEMORY) != "fork":
        return Background(function, args)
    context = multiprocessing.get_context("fork")
    receiving, sending = context.Pipe(duplex=False)
    process = context.Process(target=_in_background, daemon=True,
                              args=(os.getpid(), sending, function, args))
    try:
        with _starting(forked=True):
            process.start()
    except OSError as error:
        receiving.close()
        raise WorkersFailed(_failed(error, started=False)) from None
    finally:
        sending.close()
    return Background(function, args, process, receiving)


class Background(Generic[R]):
    """The result of one `in_background` call: `result()` waits for it (an exception the
    function raised is raised there), `close()` stops a worker whose result is not wanted."""

    def __init__(self, function: Callable[..., R], args: tuple[Any, ...],
                 process: multiprocessing.process.BaseProcess | None = None,
                 receiving: Connection | None = None) -> None:
        self._function = function
        self._args = args
        self._process = process
        self._receiving = receiving

    @property
    def elsewhere(self) -> bool:
        """True when a worker computes the result; False when this process will, when
        asked."""
        return self._process is not None

    def result(self) -> R:
        """The function's result (ask once)."""
        if self._receiving is None:
            return self._function(*self._args)
        try:
            done, value = self._receiving.recv()
        except (EOFError, OSError) as error:
            raise WorkersFailed(_failed(error, started=True)) from None
        finally:
            self.close()
        if not done:
            raise value
        result: R = value
        return result

    def close(self) -> None:
        if self._receiving is not None:
            self._receiving.close()
            self._receiving = None
        if self._process is not None:
            if self._process.is_alive():
                self._process.terminate()
            self._process.join()
            self._process = None


def _in_background(parent: int, sending: Connection, function: Callable[..., Any],
                   args: tuple[Any, ...]) -> None:
    become_helper(parent)
    try:
        answer: tuple[bool, Any] = (True, function(*args))
    except Exception as error:  # raised in the build's process, as process_map's are
        answer = (False, error)
    try:
        sending.send(answer)
    except BrokenPipeError:  # the build stopped waiting
        pass
    except Exception as error:  # an exception that does not pickle
        sending.send((False, RuntimeError(f"{type(error).__name__}: {error}")))


def start_method(memory: int = FORK_MEMORY) -> str:
    """How this process starts workers: "fork" on Linux from a single thread holding less
    than `memory`, else "spawn" (BUILD-ADR-0030)."""
    if (sys.platform.startswith("linux") and threading.active_count() == 1
            and _resident_memory() < memory):
        return "fork"
    return "spawn"


def _resident_memory() -> int:
    """The bytes of memory this process holds now (Linux), or more than FORK_MEMORY when
    that cannot be read. Not getrusage's peak: Linux carries that over from the process that
    exec'd this one (a bench or a test runner holding far more than a build)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return FORK_MEMORY


def workers_for(count: int, weight: int | None, jobs: int, method: str) -> int:
    """How many of `jobs` workers started by `method` pay for `count` items holding `weight`
    (None: unknown) of work; 0 when the work is better done in this process, and always with
    one job (`--jobs 1`: render in this process)."""
    if jobs < 2:
        return 0
    if method == "fork":
        if count < FORK_FROM or (weight is not None and weight < FORK_WEIGHT):
            return 0
        return jobs if weight is None else max(1, min(jobs, weight // FORK_WEIGHT_EACH))
    if count < PARALLEL_FROM or (weight is not None and weight < PARALLEL_WEIGHT):
        return 0
    return jobs


@contextmanager
def _starting(forked: bool) -> Iterator[None]:
    """Around starting helper processes: Ctrl-C held back (`starting_helpers`); and for
    forked ones, nothing left in this process's output buffers for a child to write out a
    second time, and what this process holds left out of the cyclic collector while they
    fork (see the module docstring)."""
    if forked:
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):  # closed, or a broken pipe: nothing to write twice
                pass
        gc.freeze()
    try:
        with starting_helpers():
            yield
    finally:
        if forked:
            gc.unfreeze()


def _forked(jobs: int, initializer: Callable[..., None] | None,
            initargs: tuple[Any, ...]) -> ProcessPoolExecutor:
    """A pool whose workers are forked at its first submission: they inherit `initargs`
    rather than receive a copy, and no resource tracker is needed (the pool's semaphores are
    unlinked at once where processes fork)."""
    try:
        return ProcessPoolExecutor(
            max_workers=jobs, mp_context=multiprocessing.get_context("fork"),
            initializer=_initialise, initargs=(os.getpid(), None, initializer, initargs))
    except OSError as error:
        raise WorkersFailed(_failed(error, started=False)) from None


def _spawned(jobs: int, initializer: Callable[..., None] | None,
             initargs: tuple[Any, ...]) -> ProcessPoolExecutor:
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
        return ProcessPoolExecutor(
            max_workers=jobs, mp_context=context, initializer=_initialise,
            initargs=(os.getpid(), arguments, initializer, None))
    except OSError as error:
        raise WorkersFailed(_failed(error, started=False)) from None


_Batch = tuple[Callable[[Any], Any], list[Any], Callable[[], None] | None]


def _in_order(pool: ProcessPoolExecutor, submitted: deque[Future[list[Any]]],
              waiting: Iterator[_Batch]) -> Iterator[Any]:
    """The items of each batch's result in turn, submitting one more batch (when one is left
    `waiting`) for each batch taken: the workers stay as far ahead as they started."""
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

    def __init__(self, results: Iterator[R], pool: ProcessPoolExecutor | None = None,
                 started: bool = False) -> None:
        self._results = results
        self._pool = pool
        # Whether the workers are known to have started: forked ones run from the moment
        # they are submitted to; a spawned interpreter that has not answered yet may have
        # failed to start.
        self._started = started

    def __next__(self) -> R:
        try:
            result = next(self._results)
        except BrokenExecutor as error:
            self.close(wait=False)  # the pool is broken: nothing is left to wait for
            raise WorkersFailed(_failed(error, started=self._started)) from None
        except BaseException:  # the end, or a worker's exception: no work remains
            self.close()
            raise
        self._started = True
        return result

    def close(self, wait: bool = True) -> None:
        """Stop the workers (waiting for the batches they are in, unless not `wait`) and
        drop every result not taken yet."""
        self._results = iter(())
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=True)
            self._pool = None


def _initialise(parent: int, arguments: Any, initializer: Callable[..., None] | None,
                initargs: tuple[Any, ...] | None) -> None:
    """A worker's start: a helper of `parent` (see lifeline), then its initializer, run with
    its arguments (inherited, or one copy from the `arguments` queue)."""
    become_helper(parent)
    if initargs is None:
        initargs = arguments.get()
    if initializer is not None:
        initializer(*initargs)


def _run(batch: _Batch) -> list[Any]:
    function, items, finish = batch
    results = [function(item) for item in items]
    if finish is not None:
        finish()
    return results
