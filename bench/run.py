"""`make bench`: site-builder's speed and memory side by side with Hugo and MkDocs.

    python bench/run.py --sizes 100,1000,10000   # what `make bench` runs
    python bench/run.py --sizes 1000             # a quick look (`make bench N=1000`)
    python bench/run.py --sizes 100,1000,10000,100000   # and the build at 100,000 (slow)

Steps: install the competitors when missing (Hugo from Debian's package, MkDocs with pip),
then at each size: write the corpus with make_corpus.py, convert it into a Hugo site and a
MkDocs site (MkDocs up to --mkdocs-up-to records: its build grows quadratically), time the
builds (interleaved) and site-builder's rebuilds, and one more build of each right after
`fstrim /` with the caches dropped. A size above 10,000 records times the cold builds alone,
once, and Hugo only where it fits in memory (bench/large.py). At the largest size up to
10,000: `serve` and the MCP server in both modes; judge SPEC §8's targets, ask the search
question set through MCP and the site (bench/search_quality.py), profile what missed, print
the report and write it to RESULTS.md (when the services ran at the default 10,000 records;
otherwise to bench/work/RESULTS-<largest N>.md).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Run as a script: import the bench package and site_builder from this checkout, and keep
# bench/ itself off the path so its module names never shadow installed packages.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

from bench import (  # noqa: E402
    builds,
    corpus,
    http_load,
    hugo_site,
    large,
    live,
    mcp_timing,
    mcp_workers,
    mkdocs_site,
    profiling,
    search_quality,
)
from bench import report as reporting  # noqa: E402
from bench import site_builder_target as sb  # noqa: E402
from bench.results import HUGO, MKDOCS, SITE_BUILDER, Results  # noqa: E402
from bench.stats import Summary  # noqa: E402
from bench.targets import judge  # noqa: E402

DEFAULT_SIZES = (100, 1_000, 10_000)
DEFAULT_RECORDS = DEFAULT_SIZES[-1]
MKDOCS_UP_TO = DEFAULT_RECORDS


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(sorted({int(part.replace("_", "")) for part in text.split(",") if part}))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of record counts: {text}") from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError("record counts must be 1 or more")
    return sizes


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=_sizes, default=DEFAULT_SIZES, metavar="N,N,…",
                        help="corpus sizes, timed in one run (default 100,1000,10000: "
                        "SPEC §8's); the services are measured at the largest")
    parser.add_argument("--records", type=int, help="one corpus size (as --sizes N)")
    parser.add_argument("--mkdocs-up-to", type=int, default=MKDOCS_UP_TO, metavar="N",
                        help="time MkDocs at sizes up to N records (default 10,000, where "
                        "one build is stopped at --mkdocs-limit: enough to decide the 10× "
                        "target; 1,000 saves those minutes)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each build (default 3)")
    parser.add_argument("--calls", type=int, default=50,
                        help="timed MCP calls of each kind (default 50)")
    parser.add_argument("--edits", type=int, default=10,
                        help="records edited while serve runs (default 10)")
    parser.add_argument("--mkdocs-limit", type=float, default=300.0, metavar="SECONDS",
                        help="stop MkDocs' build after this long (default 300; raised "
                        "to 10.5 site-builder builds when that is longer)")
    parser.add_argument("--mkdocs-cap", type=float, default=builds.RAISED_CAP,
                        metavar="SECONDS",
                        help="never raise MkDocs' limit beyond this (default 900)")
    parser.add_argument("--http-clients", type=int, default=50,
                        help="concurrent clients of the MCP HTTP load run (default 50)")
    parser.add_argument("--http-seconds", type=float, default=60.0,
                        help="length of each MCP HTTP load run (default 60)")
    parser.add_argument("--work", type=Path, default=HERE / "work",
                        help="where corpora and sites go (default bench/work)")
    parser.add_argument("--results", type=Path,
                        help="report file (default bench/RESULTS.md for 10,000 records)")
    parser.add_argument("--no-hugo", action="store_true", help="leave Hugo out")
    parser.add_argument("--no-mkdocs", action="store_true", help="leave MkDocs out")
    parser.add_argument("--no-profile", action="store_true",
                        help="do not profile missed targets")
    parser.add_argument("--builds-only", action="store_true",
                        help="time the builds alone: no serve, MCP or search measurements")
    return parser.parse_args(argv)


def say(text: str) -> None:
    print(f"bench: {text}", flush=True)


def competitors(args: argparse.Namespace, archive: corpus.Corpus, folder: Path,
                results: Results, mkdocs: bool = True,
                smaller: dict[int, Results] | None = None) -> list[builds.Tool]:
    """The tools whose builds are timed: site-builder (when `build` exists), Hugo (where it
    fits in memory, judged from the `smaller` sizes' runs), MkDocs."""
    tools = []
    if sb.has("build"):
        tools.append(builds.site_builder_tool(archive))
        results.versions[SITE_BUILDER] = sb.version()
    else:
        results.skipped["site-builder build"] = "this checkout has no `build` command yet"
    too_big = large.why_not_hugo(smaller or {}, results.records, large.machine_memory())
    if too_big is not None and not args.no_hugo:
        results.skipped[f"Hugo at {results.records:,} records"], results.not_run[HUGO] = too_big
    elif not args.no_hugo:
        hugo, why = hugo_site.ensure_installed()
        if hugo:
            site = hugo_site.write_site(archive, folder / "hugo")
            tools.append(builds.hugo_tool(hugo, site))
            results.versions[HUGO] = hugo_site.version(hugo)
        else:
            results.skipped["Hugo"] = why
    if mkdocs and not args.no_mkdocs:
        ok, why = mkdocs_site.ensure_installed(sys.executable)
        if ok:
            site = mkdocs_site.write_site(archive, folder / "mkdocs")
            tools.append(builds.mkdocs_tool(site, args.mkdocs_limit, args.mkdocs_cap))
            results.versions[MKDOCS] = mkdocs_site.version(sys.executable)
        else:
            results.skipped["MkDocs"] = why
    return tools


def measure_site_builder_services(args: argparse.Namespace, archive: corpus.Corpus,
                                  results: Results) -> None:
    """serve and the MCP server, when this checkout has them."""
    ids = [archive.record_id(p) for p in archive.record_files()]
    if sb.has("serve"):
        say("timing serve")
        live.measure_serve(archive, args.edits, results)
    else:
        results.skipped["serve"] = "this checkout has no `serve` command yet"
    if not sb.has("mcp"):
        results.skipped["MCP"] = "this checkout has no `mcp` command yet"
        return
    say("timing the MCP server, local mode")
    mcp_timing.measure_local(archive.root, ids, 3, args.calls, results)
    measure_http_load(args, archive.root, ids, results)
    site = sb.output_dir(archive.root)
    if not (site / "decisions.json").exists():
        results.skipped["MCP remote"] = "no built site with decisions.json to serve"
        return
    say("timing the MCP server, remote mode")
    mcp_timing.measure_remote(site, ids, 3, args.calls, results)


def measure_http_load(args: argparse.Namespace, root: Path, ids: list[str],
                      results: Results) -> None:
    """The MCP HTTP server under load, on example-site and on the corpus (local mode, then
    remote mode on the corpus's built site), and the ASGI factory with 1 and 2 workers."""
    example = HERE.parent / "example-site"
    for name, folder, folder_ids in (("example-site", example, http_load.record_ids(example)),
                                     (f"the {len(ids):,}-record corpus", root, ids)):
        say(f"loading the MCP HTTP server on {name}: {args.http_clients} clients for "
            f"{args.http_seconds:.0f} s")
        load = http_load.measure(folder, folder_ids, args.http_clients, args.http_seconds)
        results.load[name] = load.lines(f"MCP over HTTP on {name}, local mode")
    _store_load(results, "mcp.http", load)
    site = sb.output_dir(root)
    if (site / "decisions.json").exists():
        say(f"loading the MCP HTTP server in remote mode on the {len(ids):,}-record site")
        load = http_load.measure_remote(site, ids, args.http_clients, args.http_seconds)
        results.load["remote"] = load.lines(
            f"MCP over HTTP on the {len(ids):,}-record corpus's site, remote mode (--url)")
        _store_load(results, "mcp.http.remote", load)
    for workers in (1, 2):
        say(f"loading uvicorn with {workers} worker(s) on the corpus")
        load = mcp_workers.measure_workers(root, ids, workers, args.http_clients,
                                           args.http_seconds)
        results.load[f"uvicorn-{workers}"] = load.lines(
            f"MCP over HTTP on the {len(ids):,}-record corpus, local mode, the ASGI factory "
            f"under uvicorn --workers {workers} (memory: the parent process only)")


def _store_load(results: Results, name: str, load: http_load.Load) -> None:
    """The latencies of search_records with filters, and of the call whose p99 was worst."""
    filters = load.latencies.get("search_records, filters", [])
    if filters:
        results.seconds[f"{name}.filters"] = Summary.of(filters)
    kinds = [Summary.of(values) for values in load.latencies.values() if values]
    if kinds:
        results.seconds[f"{name}.slowest"] = max(kinds, key=lambda s: s.p(99))


def measure_search(archive: corpus.Corpus, folder: Path, results: Results) -> None:
    """The question set through MCP and the site, and the site's first query on the corpus."""
    say("asking the search question set through MCP and the site")
    shutil.rmtree(folder, ignore_errors=True)  # the copies an earlier run left there
    folder.mkdir(parents=True, exist_ok=True)
    try:
        for path, found in search_quality.measure(folder).items():
            results.search[path] = (found.questions, found.top1, found.top3)
            say(f"search, {path}: {found.text()}")
    except Exception as exc:  # a failed step must not lose the other measurements
        results.skipped["search question set"] = f"failed: {exc}"
    site = sb.output_dir(archive.root)
    if not (site / "search.html").exists():
        results.skipped["search first query"] = "no built site to search"
        return
    server = search_quality.StaticServer(site)
    try:
        with search_quality.chromium_page() as page:
            size, requests = search_quality.first_query_bytes(page, server.url,
                                                              search_quality.FIRST_QUERY)
        results.first_query = (search_quality.FIRST_QUERY, size, requests)
        say(f"search, first query: {size / 1000:.0f} KB in {requests} requests")
    except Exception as exc:
        results.skipped["search first query"] = f"failed: {exc}"
    finally:
        server.close()


def profile_misses(archive: corpus.Corpus, folder: Path, results: Results) -> None:
    """Profile every missed target once per profile kind and keep the summaries."""
    folder.mkdir(parents=True, exist_ok=True)
    ids = [archive.record_id(p) for p in archive.record_files()]
    run = profiling.profilers(archive, folder, ids, sb.output_dir(archive.root))
    done: dict[str, str] = {}
    for verdict in judge(results):
        kind = verdict.target.profile
        if verdict.met is not False or kind is None:
            continue
        if kind not in done:
            say(f"profiling '{kind}' (missed: {verdict.target.text})")
            try:
                done[kind] = run[kind]()
            except Exception as exc:  # a failed profile must not lose the measurements
                done[kind] = f"profiling failed: {exc}"
    for kind, text in done.items():
        missed = [v.target.text for v in judge(results)
                  if v.target.profile == kind and v.met is False]
        results.profiles[f"profile '{kind}' ({'; '.join(missed)})"] = text


def measure_size(args: argparse.Namespace, work: Path, records: int,
                 smaller: dict[int, Results]) -> tuple[corpus.Corpus, Path, Results]:
    """The builds at one corpus size: interleaved rounds, rebuilds, then the trimmed pair;
    above 10,000 records one round of cold builds alone (bench/large.py)."""
    folder = work / f"run-{records}"
    folder.mkdir(parents=True, exist_ok=True)
    say(f"writing the {records:,}-record corpus (reused when unchanged)")
    pristine = corpus.pristine(work, records)
    archive = corpus.working_copy(pristine, folder / "archive")
    big = large.is_large(records)
    results = Results(records=records, runs=1 if big else args.runs)
    tools = competitors(args, archive, folder, results, mkdocs=records <= args.mkdocs_up_to,
                        smaller=smaller)
    if records > args.mkdocs_up_to and not args.no_mkdocs:
        results.skipped["MkDocs"] = (f"timed up to {args.mkdocs_up_to:,} records only "
                                     "(--mkdocs-up-to): its build grows quadratically")
    say(f"timing builds of {records:,} records: " + ", ".join(t.name for t in tools))
    builds.measure_builds(tools, archive, results.runs, results, rebuilds=not big)
    if not big:
        say(f"timing builds of {records:,} records right after fstrim and dropped caches")
        builds.measure_trimmed([t for t in tools if t.name != MKDOCS], results)
    return archive, folder, results


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    sizes = (args.records,) if args.records else args.sizes
    work = args.work.resolve()
    say(sb.prepare())
    by_size: dict[int, Results] = {}
    archives: dict[int, tuple[corpus.Corpus, Path]] = {}
    for records in sizes:
        *archives[records], by_size[records] = measure_size(args, work, records, by_size)
    # The services are measured at 10,000 records (or the largest size below it): a larger
    # size is there for its build and adds MCP local mode's start and calls (SPEC §8's
    # 100,000-record row).
    main_size = max([s for s in sizes if not large.is_large(s)] or sizes)
    archive, folder = archives[main_size]
    results = by_size[main_size]
    results.by_size = by_size
    for measured_at in by_size.values():
        for name, why in measured_at.skipped.items():
            results.skipped.setdefault(name, why)
    if not args.builds_only:
        measure_site_builder_services(args, archive, results)
        for records in (n for n in sizes if n > main_size):
            big = archives[records][0]
            say(f"timing the MCP server, local mode, at {records:,} records")
            mcp_timing.measure_local(big.root, [big.record_id(p) for p in big.record_files()],
                                     1, args.calls, by_size[records])
        measure_search(archive, folder / "search", results)
    if not args.no_profile:
        profile_misses(archive, folder / "profiles", results)
    text = reporting.render(results, judge(results))
    print(text)
    full = main_size == DEFAULT_RECORDS and not args.builds_only
    target = args.results or (HERE / "RESULTS.md" if full else work / f"RESULTS-{sizes[-1]}.md")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    say(f"report written to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
