"""`become_helper`: a helper process (the writer, a render worker) that ends with the build
that started it and leaves Ctrl-C to it.

A build killed midway (kill -9, out of memory) must not leave its writer or its render workers
behind: they would go on creating files in a staging folder the next build removes, or hold
the build lock the next build waits for. And Ctrl-C reaches every process of the terminal's
group: a helper that took it would stop with a traceback of its own, while the build stops
its helpers and says one line.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager

_PR_SET_PDEATHSIG = 1  # prctl(2), Linux


@contextmanager
def starting_helpers() -> Iterator[None]:
    """Hold Ctrl-C back from this thread while it starts helper processes: each starts with
    it held back too, until `become_helper` has it ignored, so none is interrupted before it
    can ignore it. A Ctrl-C pressed meanwhile reaches this process once they are started."""
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def become_helper(parent: int) -> None:
    """Ignore Ctrl-C (see `starting_helpers`), and have this process killed when `parent`
    (the process that started it) ends, on Linux; exit now if it already has. Elsewhere,
    the pipes the parent held tell the child."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (ImportError, OSError, AttributeError):  # not Linux
        return
    if os.getppid() != parent:  # the parent died before the call took effect
        os._exit(1)
