"""`die_with_parent`: a helper process that ends when the build that started it ends.

A build killed midway (kill -9, out of memory) must not leave its writer or its render workers
behind: they would go on creating files in a staging folder the next build removes, or hold
the build lock the next build waits for.
"""

from __future__ import annotations

import os
import signal

_PR_SET_PDEATHSIG = 1  # prctl(2), Linux


def die_with_parent(parent: int) -> None:
    """Have this process killed when `parent` (the process that started it) ends, on Linux;
    exit now if it already has. Elsewhere, the pipes the parent held tell the child."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (ImportError, OSError, AttributeError):  # not Linux
        return
    if os.getppid() != parent:  # the parent died before the call took effect
        os._exit(1)
