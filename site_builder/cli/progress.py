"""Progress of a long build (`build`, and the first build of `serve`) for the person waiting.

A build reports `(stage, done, total)` now and then (build/site.py's `Progress`). On a
terminal that becomes one line redrawn in place: the phase's number and name, a counter with
its total and a bar, erased when the build ends so the summary stands alone. Anywhere else (a
CI log, a pipe) control characters would be litter, so the same news comes as plain lines:
one when a phase starts, and a counter line at most every `PLAIN_EVERY` seconds. Builds
shorter than the delay (a second on a terminal, five in a log) show nothing at all.
"""

from __future__ import annotations

import os
import time
from typing import TextIO

# The phases of a build, in order (build/site.py reports these names).
PHASES = ("loading records", "writing pages", "finishing")
REDRAW_EVERY = 0.1  # seconds between two redraws of the terminal line
PLAIN_EVERY = 10.0  # seconds between two counter lines in a log
BAR = 20  # characters


def _default_delay(terminal: bool) -> float:
    """Seconds before progress shows: 1 on a terminal, 5 in a log (where a line cannot be
    taken back), or `SITE_BUILDER_PROGRESS_AFTER` for both."""
    default = 1.0 if terminal else 5.0
    try:
        return max(0.0, float(os.environ.get("SITE_BUILDER_PROGRESS_AFTER", default)))
    except ValueError:
        return default


class ProgressLine:
    """A build's progress on `stream`; call it as a `Progress`, then `clear()` at the end."""

    def __init__(self, stream: TextIO, delay: float | None = None) -> None:
        self.stream = stream
        self.terminal = stream.isatty()
        self.started = time.monotonic()
        self.delay = _default_delay(self.terminal) if delay is None else delay
        self.shown = False
        self._stage = ""
        self._last = 0.0

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.started < self.delay:
            return
        new_stage = stage != self._stage
        self._stage = stage
        if self.terminal:
            if new_stage or now - self._last >= REDRAW_EVERY or (total and done == total):
                self.stream.write(f"\r\033[K{line(stage, done, total, bar=True)}")
                self.stream.flush()
                self.shown, self._last = True, now
        elif new_stage or now - self._last >= PLAIN_EVERY:
            self.stream.write(line(stage, done, total, bar=False) + "\n")
            self.stream.flush()
            self._last = now

    def clear(self) -> None:
        """Erase the terminal line, so that what follows starts on a clean line."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False


def line(stage: str, done: int, total: int, bar: bool) -> str:
    """`[2/3] writing pages 1200/3000 ▕██████░░░░░░▏ 40%` (`bar`), or without the bar."""
    step = f"[{PHASES.index(stage) + 1}/{len(PHASES)}] " if stage in PHASES else ""
    if not total:
        return f"{step}{stage}" + (f" {done}" if done else "") + "…"
    text = f"{step}{stage} {done}/{total}"
    if not bar:
        return text
    filled = BAR * min(done, total) // total
    return f"{text} ▕{'█' * filled}{'░' * (BAR - filled)}▏ {100 * min(done, total) // total}%"
