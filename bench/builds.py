"""Full builds of the three tools, interleaved, and site-builder's rebuilds.

Each round runs every tool's cold build once, in an order that rotates from round to round, so
drift on a shared machine (another job starting, the CPU throttling) hits every tool alike.
site-builder's rebuilds follow its cold build in the same round: one with nothing changed, one
after a record was edited.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench import hugo_site, measure, mkdocs_site
from bench import site_builder_target as sb
from bench.corpus import Corpus, edit_record
from bench.results import HUGO, MKDOCS, SITE_BUILDER, Output, Results
from bench.stats import Summary

# A competitor stopped at its limit only proves "≥ 10× slower" (SPEC §8) when the limit is at
# least ten times site-builder's build, so its limit is raised to this many site-builder builds,
# up to a cap (RAISED_CAP by default: one MkDocs run at 10,000 records would otherwise take an
# hour).
DECISIVE = 10.5
RAISED_CAP = 900.0


@dataclass(frozen=True, slots=True)
class Tool:
    """One competitor: how to empty its output and caches, and how to build."""

    name: str
    clean: Callable[[], None]
    command: list[str]
    output: Path
    env: dict[str, str] | None = None
    cwd: Path | None = None
    limit: float | None = None
    cap: float = 0.0
    """How far `limit` may be raised to decide the 10× target (0: never raised)."""


@dataclass(slots=True)
class _Samples:
    seconds: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    memory: dict[str, list[float]] = field(default_factory=dict)
    censored: dict[str, int] = field(default_factory=dict)

    def add(self, name: str, outcome: measure.Outcome) -> None:
        self.seconds.setdefault(name, []).append(outcome.seconds)
        self.cpu.setdefault(name, []).append(outcome.cpu_seconds)
        self.memory.setdefault(name, []).append(outcome.peak_rss)
        if outcome.timed_out:
            self.censored[name] = self.censored.get(name, 0) + 1

    def store(self, results: Results) -> None:
        for name, values in self.seconds.items():
            results.seconds[name] = Summary.of(values, self.censored.get(name, 0))
            results.cpu_seconds[name] = Summary.of(self.cpu[name])
            results.memory[name] = Summary.of(self.memory[name])


def site_builder_tool(corpus: Corpus) -> Tool:
    return Tool(SITE_BUILDER, lambda: sb.clean(corpus.root), sb.build_command(corpus.root),
                sb.output_dir(corpus.root), env=sb.environment())


def hugo_tool(hugo: str, site: Path) -> Tool:
    output = site / "public"
    return Tool(HUGO, lambda: hugo_site.clean(site, output),
                hugo_site.build_command(hugo, site, output), output, cwd=site)


def mkdocs_tool(site: Path, limit: float, cap: float = RAISED_CAP) -> Tool:
    output = site / "site"
    # MkDocs' own --clean empties the output; the bench removes it too so each build is cold.
    return Tool(MKDOCS, lambda: _remove(output),
                mkdocs_site.build_command(sys.executable, site, output), output, cwd=site,
                limit=limit, cap=cap)


def _remove(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)


def describe_output(folder: Path) -> Output:
    """How many files and HTML pages a build wrote, and their total size."""
    files = pages = size = 0
    for directory, _, names in os.walk(folder):
        for name in names:
            files += 1
            pages += name.endswith(".html")
            size += os.path.getsize(os.path.join(directory, name))
    return Output(files, pages, size)


def _log(text: str) -> None:
    print(f"bench: {text}", flush=True)


def _limit(tool: Tool, samples: _Samples) -> float | None:
    ours = samples.seconds.get(f"build.{SITE_BUILDER}")
    if tool.limit is None or not ours:
        return tool.limit
    return max(tool.limit, min(DECISIVE * Summary.of(ours).median, tool.cap))


def measure_builds(tools: list[Tool], corpus: Corpus, runs: int, results: Results,
                   rebuilds: bool = True) -> None:
    """Run `runs` interleaved rounds and store every figure in `results`; each round also
    times site-builder's rebuilds unless not `rebuilds`.

    A tool that hits its time limit is not run again: its later runs would only cost the same
    limit and say nothing new. A tool that fails stops the bench with its error.
    """
    samples = _Samples()
    edits = corpus.record_files()
    stopped: set[str] = set()
    has_site_builder = any(tool.name == SITE_BUILDER for tool in tools)
    for round_number in range(runs):
        shift = round_number % len(tools)
        for tool in tools[shift:] + tools[:shift]:
            if tool.name in stopped:
                continue
            tool.clean()
            limit = _limit(tool, samples)
            if limit is not None:
                results.limits[tool.name] = limit
            outcome = measure.checked(
                measure.run(tool.command, cwd=tool.cwd, env=tool.env, limit=limit),
                f"{tool.name} build")
            samples.add(f"build.{tool.name}", outcome)
            _log(f"round {round_number + 1}/{runs}: {tool.name} build "
                 f"{outcome.seconds:.2f} s, {outcome.peak_rss / 1e6:.0f} MB"
                 + (" (stopped at the time limit)" if outcome.timed_out else ""))
            if outcome.timed_out:
                stopped.add(tool.name)
            elif tool.name not in results.outputs:
                results.outputs[tool.name] = describe_output(tool.output)
        if has_site_builder and rebuilds:
            _rebuilds(corpus, edits[round_number * 97 % len(edits)], round_number, samples)
    samples.store(results)


def _rebuilds(corpus: Corpus, edited: Path, round_number: int, samples: _Samples) -> None:
    """The rebuilds that follow a cold site-builder build (its output and cache intact): one
    with nothing changed, then one record edited three times: the first rebuild after a cold
    build (which makes the spare site, build/adr/0037), one more as every later edit is, and
    one more committed through the journal (as where folders cannot be exchanged)."""
    command = sb.build_command(corpus.root)
    unchanged = measure.checked(measure.run(command, env=sb.environment()),
                                "site-builder rebuild")
    samples.add("rebuild.unchanged", unchanged)
    figures = []
    for key, run in (("rebuild.one-edited", command), ("rebuild.one-edited-again", command),
                     ("rebuild.one-edited-journal", sb.journal_build_command(corpus.root))):
        edit_record(edited, f"rebuild-{round_number}-{key}")
        outcome = measure.checked(measure.run(run, env=sb.environment()),
                                  "site-builder rebuild")
        samples.add(key, outcome)
        figures.append(f"{outcome.seconds:.2f} s")
    _log(f"rebuilds: nothing changed {unchanged.seconds:.2f} s, one record edited "
         f"{' / '.join(figures)} (first, again, through the journal)")


def trim_file_system() -> str:
    """Put the file system in the state that made site-builder's ratio to Hugo worst
    (RESULTS.md): unused blocks discarded (`fstrim /`) and the page, dentry and inode caches
    dropped. Returns "" when done, else why it could not be (not root, no fstrim)."""
    subprocess.run(["sync"], check=False)
    try:
        trimmed = subprocess.run(["fstrim", "/"], capture_output=True, text=True, check=False)
    except OSError as error:
        return f"fstrim cannot run: {error.strerror or error}"
    if trimmed.returncode != 0:
        return f"fstrim / failed: {trimmed.stderr.strip()[-200:]}"
    try:
        Path("/proc/sys/vm/drop_caches").write_text("3\n", encoding="ascii")
    except OSError as error:
        return f"cannot drop the page cache: {error.strerror or error}"
    return ""


def measure_trimmed(tools: list[Tool], results: Results) -> None:
    """One cold build of each tool, each right after `trim_file_system()`: stored as
    `trimmed.<tool>`, or as skipped when the file system cannot be trimmed here."""
    samples = _Samples()
    for tool in tools:
        tool.clean()
        why = trim_file_system()
        if why:
            results.skipped["builds after fstrim"] = why
            return
        outcome = measure.checked(
            measure.run(tool.command, cwd=tool.cwd, env=tool.env, limit=tool.limit),
            f"{tool.name} build")
        samples.add(f"trimmed.{tool.name}", outcome)
        _log(f"after fstrim and dropped caches: {tool.name} build {outcome.seconds:.2f} s")
    samples.store(results)
