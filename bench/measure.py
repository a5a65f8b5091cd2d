"""Run one command in a fresh child process: wall time, CPU time and peak memory.

Peak memory is the largest *sum* of memory over the child and every process it starts,
sampled from /proc while it runs, so a build that forks workers is charged for all of them. Each
process counts its proportional set size (PSS: a page shared by forked workers is split between
them rather than counted once per worker, as summing RSS would), or its RSS where PSS cannot be
read. The peak is never less than what the kernel reports for the largest single process
(`wait4`'s ru_maxrss), which also catches peaks shorter than the sampling interval.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SAMPLE_EVERY = 0.05  # seconds between /proc samples; a scan costs a few ms of CPU
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one run of a command did."""

    seconds: float
    """Wall time from start to exit (or to the time limit)."""
    cpu_seconds: float
    """User + system time of the child and its descendants."""
    peak_rss: int
    """Peak memory of the process tree in bytes (summed PSS, see the module docstring)."""
    returncode: int | None
    """Exit code; None when the run was stopped at the time limit."""
    stderr: str
    """The tail of what the command wrote to stderr (for error messages)."""

    @property
    def timed_out(self) -> bool:
        return self.returncode is None

    @property
    def ok(self) -> bool:
        return self.returncode == 0


class CommandFailed(RuntimeError):
    """A measured command exited with an error; the message carries its stderr."""


def _tree_rss(root_pid: int) -> int:
    """Resident bytes of `root_pid` and all its descendants, read from /proc."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # Fields after the command name, which may itself hold spaces and parentheses.
        fields = stat[stat.rfind(b")") + 2:].split()
        pid = int(name)
        parents[pid] = int(fields[1])
        rss[pid] = int(fields[21]) * PAGE_SIZE
    tree = {root_pid}
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grew = True
    return sum(_pss(pid, rss.get(pid, 0)) for pid in tree)


def _pss(pid: int, fallback: int) -> int:
    """The proportional set size of `pid` in bytes, or `fallback` when it cannot be read."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
            for line in handle:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return fallback


class _Sampler(threading.Thread):
    """Samples the tree's resident memory until stopped; `peak` is the largest sample."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.peak = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(SAMPLE_EVERY):
            self.peak = max(self.peak, _tree_rss(self.pid))


def run(command: Sequence[str], cwd: Path | None = None, env: Mapping[str, str] | None = None,
        limit: float | None = None) -> Outcome:
    """Run `command` to completion (or until `limit` seconds) and measure it.

    The child runs in its own session so that, at the limit, the whole group it started is
    stopped. stdout is discarded; stderr is kept for error reports.
    """
    log = _stderr_file()
    start = time.perf_counter()
    process = subprocess.Popen(
        list(command), cwd=cwd, env=dict(env) if env is not None else None,
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
        start_new_session=True)
    sampler = _Sampler(process.pid)
    sampler.start()
    timer = None
    stopped = threading.Event()
    if limit is not None:
        timer = threading.Timer(limit, _stop_group, (process.pid, stopped))
        timer.start()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if timer is not None:
        timer.cancel()
    sampler.done.set()
    sampler.join()
    if stopped.is_set():
        _stop_group(process.pid, stopped)  # anything the child left behind
        seconds = limit or seconds
    peak = max(sampler.peak, usage.ru_maxrss * 1024)
    return Outcome(
        seconds=seconds, cpu_seconds=usage.ru_utime + usage.ru_stime, peak_rss=peak,
        returncode=None if stopped.is_set() else process.returncode,
        stderr=_tail(log))


def checked(outcome: Outcome, what: str) -> Outcome:
    """`outcome` when the command succeeded or hit its limit; raises CommandFailed otherwise."""
    if outcome.returncode not in (0, None):
        raise CommandFailed(f"{what} exited with {outcome.returncode}:\n{outcome.stderr}")
    return outcome


def stop(process: subprocess.Popen[Any], grace: float = 10) -> int:
    """Stop a server the bench started: SIGTERM, as a service manager would, then SIGKILL
    after `grace` seconds. Returns its exit status."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return process.returncode


def _stop_group(pid: int, stopped: threading.Event) -> None:
    stopped.set()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def _stderr_file():
    return tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")


def _tail(log, limit: int = 4000) -> str:
    log.seek(0)
    text = log.read()
    log.close()
    return text[-limit:]
