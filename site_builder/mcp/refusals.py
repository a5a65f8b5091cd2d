"""One log line per kind of refusal, at most once a minute, never a traceback.

A server on a network refuses things all day (a scanner's odd request, a client that
stalls, a flood of idle sockets). Logging each event would let any client fill the disk
and bury the lines that matter, so each kind is logged when first seen and then at most
once per `every` seconds, with how many happened meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from site_builder.access.source import Log, log_to_stderr

EVERY_SECONDS = 60.0


class Refusals:
    """Counts refusals by kind (a short description, such as "requests whose headers did
    not arrive in time") and logs each kind at most once per `every` seconds."""

    def __init__(self, log: Log = log_to_stderr, every: float = EVERY_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._log = log
        self._every = every
        self._clock = clock
        self._counts: dict[str, int] = {}
        self._logged: dict[str, float] = {}

    def note(self, kind: str) -> None:
        """Count one refusal of `kind`, and log the count when the kind is due."""
        count = self._counts.get(kind, 0) + 1
        now = self._clock()
        last = self._logged.get(kind)
        if last is not None and now - last < self._every:
            self._counts[kind] = count
            return
        if last is None:
            self._log(f"refused {kind} (logged again at most once a minute)")
        else:
            self._log(f"refused {kind}: {count} in the last {now - last:.0f}s")
        self._logged[kind] = now
        self._counts[kind] = 0


REFUSALS = Refusals()
"""The server's one counter: the connection guard and the app log through it."""
