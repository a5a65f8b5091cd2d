"""Numbers from repeated measurements: median, spread, percentiles, ratios.

Everything here is pure arithmetic on lists of seconds or bytes, so the tests can check it
exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0–100) by linear interpolation between closest ranks.

    This is NumPy's default ("linear") method: percentile([1, 2, 3, 4], 50) == 2.5.
    Raises ValueError for an empty sequence or q outside 0–100.
    """
    if not values:
        raise ValueError("percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError(f"percentile {q} is outside 0–100")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = math.ceil(position)
    fraction = position - low
    return ordered[low] + (ordered[high] - ordered[low]) * fraction


def median(values: Sequence[float]) -> float:
    """The 50th percentile; raises ValueError for an empty sequence."""
    return percentile(values, 50)


@dataclass(frozen=True, slots=True)
class Summary:
    """Several measurements of one thing.

    `censored` counts runs stopped at a time limit: their value is the limit, so the true
    figure is *above* what the summary shows and the summary prints as "> limit".
    """

    values: tuple[float, ...]
    censored: int = 0

    @classmethod
    def of(cls, values: Sequence[float], censored: int = 0) -> Summary:
        return cls(tuple(values), censored)

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def median(self) -> float:
        return median(self.values)

    @property
    def low(self) -> float:
        return min(self.values)

    @property
    def high(self) -> float:
        return max(self.values)

    @property
    def spread(self) -> float:
        """Half the min–max range, relative to the median (0.05 = ±5 %); 0 for one run."""
        centre = self.median
        return (self.high - self.low) / 2 / centre if centre else 0.0

    def p(self, q: float) -> float:
        return percentile(self.values, q)

    @property
    def is_lower_bound(self) -> bool:
        """True when the median run hit the time limit: the real value is larger."""
        return self.censored * 2 >= self.n > 0


def ratio(numerator: Summary | None, denominator: Summary | None) -> float | None:
    """median ÷ median, or None when either side is missing or the denominator is zero."""
    if numerator is None or denominator is None or not numerator.n or not denominator.n:
        return None
    bottom = denominator.median
    return numerator.median / bottom if bottom else None


def format_seconds(seconds: float) -> str:
    """A duration in the unit that reads best: `850 µs`, `12.3 ms`, `4.21 s`, `312 s`."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms" if seconds < 0.1 else f"{seconds * 1e3:.0f} ms"
    if seconds < 100:
        return f"{seconds:.3g} s"
    return f"{seconds:.0f} s"


def format_bytes(size: float) -> str:
    """A size in KB (10³ bytes), MB or GB: `236 KB`, `312 MB`, `2.41 GB`."""
    if size >= 1e9:
        return f"{size / 1e9:.2f} GB"
    if size < 1e6:
        return f"{size / 1e3:.0f} KB"
    return f"{size / 1e6:.0f} MB"


def format_summary(summary: Summary, unit: str = "s") -> str:
    """Median with its spread: `4.21 s ±3%`, `> 300 s` when runs hit the limit."""
    show = format_seconds if unit == "s" else format_bytes
    if summary.is_lower_bound:
        return f"> {show(summary.median)}"
    text = show(summary.median)
    if summary.n > 1:
        text += f" ±{summary.spread * 100:.0f}%"
    return text


def format_ratio(value: float | None, lower_bound: bool = False) -> str:
    """`0.82×`, `< 0.07×` when the denominator was cut off at a limit, `–` when unknown."""
    if value is None:
        return "–"
    text = f"{value:.2f}×" if value < 10 else f"{value:.0f}×"
    return f"< {text}" if lower_bound else text
