"""The results as Markdown: the machine, a side-by-side table with ratios, the targets.

The same text is printed and written to RESULTS.md, so what a person sees in the terminal is
what the repository keeps.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
from collections.abc import Sequence

from bench.large import is_large
from bench.results import HUGO, LABELS, MKDOCS, SITE_BUILDER, Results
from bench.stats import Summary, format_bytes, format_ratio, format_summary, ratio
from bench.targets import Verdict, format_value

COMMAND = "make bench N={n}"


def machine() -> dict[str, str]:
    """Cores, memory, CPU model, OS and Python of this machine."""
    info = {"cores": str(os.cpu_count()), "python": platform.python_version(),
            "os": f"{platform.system()} {platform.release()}"}
    try:
        with open("/proc/meminfo", encoding="utf-8") as handle:
            kib = int(handle.readline().split()[1])
        info["memory"] = f"{kib / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        info["memory"] = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            models = [line.split(":", 1)[1].strip() for line in handle
                      if line.startswith("model name")]
        info["cpu"] = models[0] if models else platform.processor() or "unknown"
    except OSError:
        info["cpu"] = platform.processor() or "unknown"
    return info


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _cell(summary: Summary | None, unit: str = "s") -> str:
    return format_summary(summary, unit) if summary and summary.n else "–"


def _ratio_cell(ours: Summary | None, theirs: Summary | None) -> str:
    lower = bool(theirs and theirs.is_lower_bound)
    return format_ratio(ratio(ours, theirs), lower_bound=lower)


def side_by_side(results: Results) -> list[str]:
    """Builds, rebuilds and memory: site-builder, Hugo, MkDocs and the two ratios."""
    header = ("", "site-builder", "Hugo", "MkDocs", "site-builder ÷ Hugo",
              "site-builder ÷ MkDocs")
    rows = []
    for label, table, unit, key in (
        ("full build (cold), wall time", results.seconds, "s", "build"),
        ("full build, CPU time", results.cpu_seconds, "s", "build"),
        ("full build, peak memory", results.memory, "b", "build"),
    ):
        ours, hugo, mkdocs = (table.get(f"{key}.{tool}") for tool in (SITE_BUILDER, HUGO, MKDOCS))
        if unit == "s" and table is results.cpu_seconds and mkdocs and mkdocs.is_lower_bound:
            mkdocs = None  # CPU time of a run stopped at the limit means nothing
        rows.append((label, _cell(ours, unit), _cell(hugo, unit), _cell(mkdocs, unit),
                     _ratio_cell(ours, hugo), _ratio_cell(ours, mkdocs)))
    hugo_build = results.seconds.get(f"build.{HUGO}")
    mkdocs_build = results.seconds.get(f"build.{MKDOCS}")
    for key in ("rebuild.unchanged", "rebuild.one-edited", "rebuild.one-edited-again",
                "rebuild.one-edited-journal"):
        ours = results.seconds.get(key)
        if ours:
            rows.append((LABELS[key] + " (vs their full build)", _cell(ours), "–", "–",
                         _ratio_cell(ours, hugo_build), _ratio_cell(ours, mkdocs_build)))
    outputs = [results.outputs.get(tool) for tool in (SITE_BUILDER, HUGO, MKDOCS)]
    rows.append(("output: files / HTML pages / size",
                 *(f"{o.files} / {o.html_pages} / {format_bytes(o.size)}" if o else "–"
                   for o in outputs), "", ""))
    return _table(header, rows)


def _change(trimmed: float | None, normal: float | None) -> str:
    if trimmed is None or not normal:
        return "–"
    return f"{(trimmed / normal - 1) * 100:+.0f}%"


def every_size(results: Results) -> list[str]:
    """Cold full builds at each corpus size of the run, site-builder beside Hugo (and
    MkDocs where it ran), then the same builds right after fstrim with the caches dropped."""
    if len(results.by_size) < 2:
        return []
    header = ("records", "site-builder wall", "Hugo wall", "÷ Hugo", "site-builder CPU",
              "Hugo CPU", "÷ Hugo (CPU)", "site-builder peak memory", "MkDocs wall")
    rows = []
    for kind, label in (("build", ""), ("trimmed", ", after fstrim + dropped caches")):
        for size, at in sorted(results.by_size.items()):
            ours, hugo = (at.seconds.get(f"{kind}.{tool}") for tool in (SITE_BUILDER, HUGO))
            if ours is None:
                continue
            cpu, hugo_cpu = (at.cpu_seconds.get(f"{kind}.{tool}") for tool in (SITE_BUILDER, HUGO))
            mkdocs = at.seconds.get(f"{kind}.{MKDOCS}")
            hugo_cell = at.not_run.get(HUGO) or _cell(hugo)
            rows.append((f"{size:,}{label}", _cell(ours), hugo_cell, _ratio_cell(ours, hugo),
                         _cell(cpu), _cell(hugo_cpu), _ratio_cell(cpu, hugo_cpu),
                         _cell(at.memory.get(f"{kind}.{SITE_BUILDER}"), "b"), _cell(mkdocs)))
    lines = ["## Full builds at every size", "",
             f"{results.runs} interleaved round{'' if results.runs == 1 else 's'} at each size "
             "(site-builder, Hugo and MkDocs "
             "take turns going first); then one more build of each, each right after "
             "`fstrim /` and dropping the page cache, the state that made the ratio worst."
             + _large_note(results), "",
             *_table(header, rows), ""]
    changes = []
    for size, at in sorted(results.by_size.items()):
        normal = ratio(at.seconds.get(f"build.{SITE_BUILDER}"), at.seconds.get(f"build.{HUGO}"))
        trimmed = ratio(at.seconds.get(f"trimmed.{SITE_BUILDER}"),
                        at.seconds.get(f"trimmed.{HUGO}"))
        if trimmed is not None:
            changes.append(f"{size:,} records {_change(trimmed, normal)}")
    if changes:
        lines += ["By how much the trimmed state changes the wall-time ratio to Hugo: "
                  + ", ".join(changes) + ".", ""]
    return lines


def _large_note(results: Results) -> str:
    big = [size for size in sorted(results.by_size) if is_large(size)]
    if not big:
        return ""
    return (" At " + ", ".join(f"{size:,}" for size in big) + " records: one cold build of "
            "each tool, no fstrim pair, and Hugo only where its peak memory, estimated from "
            "the smaller sizes, fits in this machine's (bench/large.py).")


def latencies(results: Results) -> list[str]:
    """serve and MCP: p50, p95 and the number of samples of each measurement."""
    rows = []
    for key, label in LABELS.items():
        if not key.startswith(("serve.", "mcp.")):
            continue
        summary = results.seconds.get(key)
        if not summary or not summary.n:
            continue
        rows.append((label, format_summary(Summary.of([summary.p(50)])),
                     format_summary(Summary.of([summary.p(95)])), str(summary.n)))
    return _table(("site-builder", "p50", "p95", "samples"), rows) if rows else []


def larger_sizes(results: Results) -> list[str]:
    """MCP local mode at the sizes above the one the services were measured at."""
    lines = []
    for size in sorted(n for n in results.by_size if n > results.records):
        at = results.by_size[size]
        rows = [(label, format_summary(Summary.of([s.p(50)])),
                 format_summary(Summary.of([s.p(95)])), str(s.n))
                for key, label in LABELS.items()
                if key.startswith("mcp.local.") and (s := at.seconds.get(key)) and s.n]
        if rows:
            lines += [f"## MCP local mode at {size:,} records", "",
                      *_table(("site-builder", "p50", "p95", "samples"), rows), ""]
    return lines


def targets(verdicts: Sequence[Verdict]) -> list[str]:
    rows = [(v.target.text, format_value(v), v.describe()) for v in verdicts]
    return _table(("SPEC §8 target", "measured", "verdict"), rows)


def _share(hits: int, of: int) -> str:
    return f"{hits} ({100 * hits / of:.0f} %)"


def search_quality(results: Results) -> list[str]:
    """The question set's hit rates per path, and the size of the site's first query."""
    if not results.search and results.first_query is None:
        return []
    lines = ["## Search", ""]
    if results.search:
        lines += [
            "The question set (tests/fixtures/search-questions.json: questions as developers "
            "ask them over example-site and a conversion of alphagov/govuk-aws's ADRs, a third "
            "answered only in bodies), through each path (`bench/search_quality.py`):", ""]
        rows = [(path, str(n), _share(top1, n), _share(top3, n))
                for path, (n, top1, top3) in results.search.items()]
        lines += [*_table(("path", "questions", "top-1", "top-3"), rows), ""]
    if results.first_query is not None:
        text, size, requests = results.first_query
        lines += [f"The site's first query (\"{text}\") on the {results.records:,}-record corpus "
                  f"downloads {size / 1000:.0f} KB in {requests} requests (index files and the "
                  "records shown; the page and theme files not counted).", ""]
    return lines


def render(results: Results, verdicts: Sequence[Verdict]) -> str:
    """The whole report as Markdown."""
    info = machine()
    sizes = sorted(results.by_size) or [results.records]
    command = COMMAND.format(n=",".join(str(size) for size in sizes))
    lines = [
        "# Benchmark results", "",
        f"`{command}` on {dt.date.today().isoformat()}: "
        + ", ".join(f"{size:,}" for size in sizes)
        + f" records from `bench/make_corpus.py`, {results.runs} interleaved "
        "runs per build (median ±half the min–max range); the services below were measured "
        f"at {results.records:,}.", "",
        f"Machine: {info['cores']} cores ({info['cpu']}), {info['memory']} memory, "
        f"{info['os']}, Python {info['python']}.",
        "Tools: " + ", ".join(f"{v}" for v in results.versions.values()) + ".", "",
        *every_size(results),
        f"## Builds at {results.records:,} records", "",
        *side_by_side(results), "",
    ]
    if MKDOCS in results.limits:
        lines += [
            f"MkDocs is stopped after {results.limits[MKDOCS]:.0f} s (`--mkdocs-limit`, raised "
            "towards 10.5 site-builder builds, up to `--mkdocs-cap`, so the 10× target is "
            "decided); a build cut off there shows as \"> limit\" and the ratio against it "
            "as \"<\".", ""]
    table = latencies(results)
    if table:
        lines += ["## Live preview and MCP", "", *table, ""]
    lines += larger_sizes(results)
    if results.load:
        lines += ["## MCP over HTTP under load", ""]
        for text in results.load.values():
            lines += [*text, ""]
    lines += search_quality(results)
    lines += ["## Targets", "", *targets(verdicts), ""]
    if results.skipped:
        lines += ["## Not measured", ""]
        lines += [f"- {name}: {why}" for name, why in results.skipped.items()]
        lines.append("")
    if results.profiles:
        lines += ["## What the profiles of missed targets show", ""]
        for name, text in results.profiles.items():
            lines += [f"### {name}", "", "```", text.rstrip(), "```", ""]
    return "\n".join(lines)
