"""Sizes beyond the default 10,000 records (`make bench N=…,100000`): builds only, once each.

At such a size the bench times site-builder's cold build in one round, without rebuilds or
the fstrim pair (each would be one more build of minutes), and runs Hugo only where it fits
in memory: Hugo holds the whole site in memory (2.4 GB at 10,000 records), so its peak is
estimated from the largest smaller size it ran at, in proportion to the records, and it is
not started where that estimate passes MEMORY_SHARE of this machine's memory: the report
says so instead of a time.
"""

from __future__ import annotations

from bench.results import HUGO, Results
from bench.stats import format_bytes

# Above this many records a size is "large" (SPEC §8's sizes end here).
LARGEST_DEFAULT = 10_000
# The share of the machine's memory a competitor's estimated peak may take.
MEMORY_SHARE = 0.8


def is_large(records: int) -> bool:
    return records > LARGEST_DEFAULT


def machine_memory() -> int | None:
    """This machine's memory in bytes (MemTotal), or None when it cannot be read."""
    try:
        with open("/proc/meminfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def estimated_peak(by_size: dict[int, Results], tool: str, records: int,
                   ) -> tuple[float, int] | None:
    """(`tool`'s peak memory at `records`, estimated in proportion from the largest smaller
    size it was measured at, that size), or None when it was measured at no smaller size."""
    measured = [size for size, at in by_size.items()
                if size < records and (summary := at.memory.get(f"build.{tool}")) and summary.n]
    if not measured:
        return None
    size = max(measured)
    return by_size[size].memory[f"build.{tool}"].high * records / size, size


def why_not_hugo(by_size: dict[int, Results], records: int,
                 memory: int | None) -> tuple[str, str] | None:
    """(why Hugo is not run at `records`, the short text its table cell shows) when its
    estimated peak would not fit in `memory` (MEMORY_SHARE of it); None when it fits."""
    if not is_large(records):
        return None
    estimate = estimated_peak(by_size, HUGO, records)
    if estimate is None:
        return ("not started: no smaller size of this run measured its memory, to tell "
                "whether it fits", "not run")
    peak, size = estimate
    if memory is not None and peak <= MEMORY_SHARE * memory:
        return None
    room = (f"more than {MEMORY_SHARE:.0%} of this machine's {format_bytes(memory)}"
            if memory is not None else "and this machine's memory cannot be read")
    return (f"not started: its peak memory, estimated from "
            f"{format_bytes(by_size[size].memory[f'build.{HUGO}'].high)} at {size:,} records "
            f"in proportion to the records, would be {format_bytes(peak)}, {room}",
            f"not run: ~{format_bytes(peak)} est.")
