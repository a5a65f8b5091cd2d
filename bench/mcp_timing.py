"""`site-builder mcp`, local and remote: start-up and per-call round trips.

Local mode reads the content folder; remote mode reads the built site, served by a static
server on 127.0.0.1. The four timed calls are the ones SPEC §8 names: search_records with
filters, search_records with a query, get_record and due_reviews. Calls of the four kinds are
interleaved and their arguments vary, so no kind benefits from running alone or repeating
(the queries never repeat: the server caches each call's answer). Each start is timed to its
initialize answer, its first tool answer and its first text query's answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench import site_builder_target as sb
from bench.http_site import StaticServer
from bench.mcp_client import McpClient
from bench.results import Results
from bench.stats import Summary

PROJECTS = ("payments", "identity", "search", "storage", "billing",
            "frontend", "platform", "analytics", "messaging", "mobile")
STATUSES = ("accepted", "implemented", "proposed")
QUERIES = ("kafka retry", "postgresql schema migration", "rate limiter", "tenant isolation",
           "feature flags rollout", "audit log retention", "cache invalidation")
# A word added to each timed query, so that no two of the first 56 are the same call: the
# server caches answers per call, and a repeated query would time the cache.
EXTRA = ("service", "latency", "deploy", "client", "storage", "error", "review", "owner")
FIRST_QUERY = "why did we choose kafka for events"

Arguments = Callable[[int], dict[str, Any]]


def workload(ids: Sequence[str]) -> dict[str, tuple[str, Arguments]]:
    """Measurement kind → (tool name, arguments of the i-th call)."""
    return {
        "filters": ("search_records",
                    lambda i: {"project": PROJECTS[i % len(PROJECTS)],
                               "status": STATUSES[i % len(STATUSES)]}),
        "query": ("search_records", lambda i: {
            "query": f"{QUERIES[i % len(QUERIES)]} {EXTRA[i % len(EXTRA)]}"}),
        "get": ("get_record", lambda i: {"id": ids[(i * 131) % len(ids)]}),
        "due": ("due_reviews", lambda i: {"project": PROJECTS[i % len(PROJECTS)]}),
    }


def _start(command: list[str]) -> tuple[McpClient, tuple[float, float, float]]:
    """A started client, and the seconds from spawning it to its initialize answer, its
    first tool answer and its first text query's answer."""
    client = McpClient(command, env=sb.environment())
    try:
        client.initialize()
        initialized = time.perf_counter() - client.started
        client.call_tool("search_records", {"project": PROJECTS[0]})
        first = time.perf_counter() - client.started
        client.call_tool("search_records", {"query": FIRST_QUERY})
        query = time.perf_counter() - client.started
    except BaseException:
        client.close()
        raise
    return client, (initialized, first, query)


def _time_calls(client: McpClient, kinds: dict[str, tuple[str, Arguments]],
                calls: int) -> dict[str, list[float]]:
    for tool, arguments in kinds.values():  # one untimed call each: imports, first caches
        client.call_tool(tool, arguments(0))
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    for i in range(1, calls + 1):  # 0 was the untimed call
        for kind, (tool, arguments) in kinds.items():
            times[kind].append(client.timed_call(tool, arguments(i)))
    return times


def _store(results: Results, mode: str, starts: list[tuple[float, float, float]],
           times: dict[str, list[float]]) -> None:
    results.seconds[f"mcp.{mode}.start"] = Summary.of([s[0] for s in starts])
    results.seconds[f"mcp.{mode}.first-tool"] = Summary.of([s[1] for s in starts])
    results.seconds[f"mcp.{mode}.first-query"] = Summary.of([s[2] for s in starts])
    for kind, values in times.items():
        results.seconds[f"mcp.{mode}.{kind}"] = Summary.of(values)
    summary = {kind: f"{Summary.of(v).median * 1e3:.1f}" for kind, v in times.items()}
    print(f"bench: MCP {mode}: first answer {starts[-1][0] * 1e3:.0f} ms, "
          f"first tool {starts[-1][1] * 1e3:.0f} ms, first query {starts[-1][2] * 1e3:.0f} ms, "
          f"p50 ms {summary}", flush=True)


def measure_local(root: Path, ids: Sequence[str], starts: int, calls: int,
                  results: Results) -> None:
    """Local mode (`--root`): `starts` fresh servers, then `calls` rounds of the four calls."""
    client, started = _start_servers(sb.mcp_local_command(root), starts)
    with client:
        times = _time_calls(client, workload(ids), calls)
    _store(results, "local", started, times)


def _start_servers(command: list[str],
                   starts: int) -> tuple[McpClient, list[tuple[float, float, float]]]:
    """Start the server `starts` times, timing each start; the last one is kept running.

    Returns (the running client, [(seconds to initialize, to the first tool answer, to the
    first query's answer), …]).
    """
    started = []
    for _ in range(starts - 1):
        client, times = _start(command)
        client.close()
        started.append(times)
    client, times = _start(command)
    started.append(times)
    return client, started


def measure_remote(site: Path, ids: Sequence[str], starts: int, calls: int,
                   results: Results) -> None:
    """Remote mode (`--url`) against `site` served on 127.0.0.1.

    The first tool call fetches decisions.json; the timed calls after it are answered from the
    30-second cache (get_record cycles over a few ids that were fetched once before timing).
    """
    few = list(ids[:: max(1, len(ids) // 5)][:5])
    with StaticServer(site) as server:
        client, started = _start_servers(sb.mcp_remote_command(server.url), starts)
        with client:
            kinds = workload(few)
            for record_id in few:
                client.call_tool("get_record", {"id": record_id})
            times = _time_calls(client, kinds, calls)
    _store(results, "remote", started, times)
    results.seconds["mcp.remote.cached"] = Summary.of(
        [t for values in times.values() for t in values])
