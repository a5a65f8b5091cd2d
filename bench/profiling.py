"""Profiles of missed targets: where the time (or memory) goes, in a few lines each.

Time is sampled with pyinstrument running the real command (`python -m pyinstrument -m
site_builder …`), saved as pstats and summarised as the functions with the most own time and
the site_builder functions with the most total time. Memory is traced with tracemalloc,
snapshotted when the traced size reaches a new high.
"""

from __future__ import annotations

import pstats
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from bench import site_builder_target as sb
from bench.corpus import Corpus, edit_record
from bench.http_site import StaticServer
from bench.mcp_client import McpClient
from bench.mcp_timing import workload

TOP = 12

MEMORY_SCRIPT = """
import os, sys, threading, tracemalloc
from site_builder.cli import main
tracemalloc.start(1)
# Render workers are forked: tracing them too would slow the build tenfold, and the
# question is what the parent holds.
os.register_at_fork(after_in_child=tracemalloc.stop)
best = {"peak": 0, "snapshot": None}
done = threading.Event()
def watch():
    while not done.wait(0.2):
        current, _ = tracemalloc.get_traced_memory()
        if current > best["peak"] * 1.1:
            best["peak"], best["snapshot"] = current, tracemalloc.take_snapshot()
threading.Thread(target=watch, daemon=True).start()
code = main(sys.argv[1:])
done.set()
print(f"peak traced: {tracemalloc.get_traced_memory()[1] / 1e6:.0f} MB; "
      f"largest allocation sites at the highest snapshot "
      f"({best['peak'] / 1e6:.0f} MB):")
for stat in best["snapshot"].statistics("lineno")[:TOP] if best["snapshot"] else []:
    frame = stat.traceback[0]
    name = frame.filename.split("site-packages/")[-1]
    name = "site_builder/" + name.split("/site_builder/")[-1] if "/site_builder/" in name else name
    print(f"{stat.size / 1e6:8.1f} MB  {name}:{frame.lineno}")
""".replace("TOP", str(TOP))


def _short(path: str) -> str:
    for marker in ("site-packages/", "site_builder/", "lib/python3"):
        if marker in path:
            return (marker if marker == "site_builder/" else "") + path.split(marker, 1)[1]
    return path


def summarise(stats_file: Path) -> str:
    """The hottest functions of a pstats file: own time, then site_builder's total time."""
    stats = pstats.Stats(str(stats_file))
    rows = [(tt, ct, f"{_short(file)}:{line} {name}")
            for (file, line, name), (_, _, tt, ct, _) in stats.stats.items()]  # type: ignore[attr-defined]
    total = max((ct for _, ct, _ in rows), default=0.0)
    lines = [f"sampled {total:.2f} s", "most own time:"]
    lines += [f"  {tt:7.2f} s  {where}" for tt, _, where in sorted(rows, reverse=True)[:TOP]]
    ours = sorted(((ct, where) for _, ct, where in rows if where.startswith("site_builder/")),
                  reverse=True)
    lines.append("site_builder functions by total time:")
    lines += [f"  {ct:7.2f} s  {where}" for ct, where in ours[:TOP]]
    return "\n".join(lines)


def _pyinstrument(output: Path, *args: str) -> list[str]:
    # A 5 ms interval keeps the profiler's own cost small on builds that run for minutes.
    return [sys.executable, "-m", "pyinstrument", "-i", "0.005", "-r", "pstats",
            "-o", str(output), "-m", "site_builder", *args]


def _run(command: Sequence[str]) -> None:
    done = subprocess.run(list(command), env=sb.environment(), capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(f"profiling run failed:\n{done.stderr[-2000:]}")


def profile_build(corpus: Corpus, folder: Path, cold: bool = True,
                  edit: bool = False) -> str:
    """A build under the profiler: cold, warm with nothing changed, or after one edit."""
    name = "build" if cold else ("rebuild-one" if edit else "rebuild")
    output = folder / f"{name}.pstats"
    if cold:
        sb.clean(corpus.root)
    elif edit:
        edit_record(corpus.record_files()[7], "profile")
    # One process: the profiler sees only its own process, not render workers.
    _run(_pyinstrument(output, "build", "--root", str(corpus.root), "--jobs", "1"))
    return "(--jobs 1, so the profile sees the rendering)\n" + summarise(output)


def profile_memory(corpus: Corpus) -> str:
    """A cold build under tracemalloc: the lines holding the most memory at the parent's
    peak (render workers are not traced)."""
    sb.clean(corpus.root)
    done = subprocess.run(
        [sys.executable, "-c", MEMORY_SCRIPT, "build", "--root", str(corpus.root)],
        env=sb.environment(), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"memory profiling failed:\n{done.stderr[-2000:]}")
    return done.stdout


def _drive(command: list[str], ids: Sequence[str], calls: int) -> None:
    with McpClient(command, env=sb.environment()) as client:
        client.initialize()
        kinds = workload(ids)
        for i in range(calls):
            for tool, arguments in kinds.values():
                client.call_tool(tool, arguments(i))


def profile_mcp(folder: Path, ids: Sequence[str], root: Path | None = None,
                site: Path | None = None, calls: int = 20) -> str:
    """The MCP server under the profiler, over `calls` rounds of the four timed calls.

    Local mode with `root`, remote mode with `site` (served on 127.0.0.1); calls=0 profiles
    start-up and the handshake alone.
    """
    mode = "local" if root is not None else "remote"
    output = folder / f"mcp-{mode}{'' if calls else '-start'}.pstats"
    if root is not None:
        _drive(_pyinstrument(output, "mcp", "--root", str(root)), ids, calls)
        return summarise(output)
    assert site is not None
    with StaticServer(site) as server:
        _drive(_pyinstrument(output, "mcp", "--url", server.url), ids[:5], calls)
    return summarise(output)


def profilers(corpus: Corpus, folder: Path, ids: Sequence[str],
              site: Path) -> dict[str, Callable[[], str]]:
    """Profile name (a Target's `profile`) → a function that runs it and summarises it."""
    return {
        "build": lambda: profile_build(corpus, folder),
        "rebuild": lambda: profile_build(corpus, folder, cold=False),
        "rebuild-one": lambda: profile_build(corpus, folder, cold=False, edit=True),
        "build-memory": lambda: profile_memory(corpus),
        "mcp-local": lambda: profile_mcp(folder, ids, root=corpus.root),
        "mcp-start": lambda: "local mode:\n" + profile_mcp(folder, ids, root=corpus.root, calls=0)
        + "\nremote mode:\n" + profile_mcp(folder, ids, site=site, calls=0),
        "mcp-remote": lambda: profile_mcp(folder, ids, site=site),
    }
