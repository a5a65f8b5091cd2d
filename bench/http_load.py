"""`site-builder mcp --http` under load: many concurrent clients for a fixed time.

    python bench/http_load.py --root example-site            # one archive, printed
    python bench/http_load.py --root ARCHIVE --site ARCHIVE/_site   # remote mode too
    (make bench runs it on the corpus and puts the figures in the report)

The server runs as a real subprocess on 127.0.0.1 in local mode (`--root`), or in remote
mode (`--url`) on the built site served by a static server there; `clients`
asyncio tasks, each with its own keep-alive connection (HTTP/1.1 written by hand, so the
load generator takes little of the cores it shares with the server), send 2026-07-28
requests (stateless, as a hosted client does) back to back for `seconds`. The mix is mostly
search_records with filters, the call SPEC §8's HTTP target names, with every other tool
between.
Latency is measured per request from send to parsed answer; an error is anything but HTTP 200
with a result that is not isError. The server's resident memory is sampled every second, so
a leak shows as growth between the first and the last sample. The load generator shares the
machine's cores with the server, so the figures are a floor for what the server can do.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

if __name__ == "__main__":  # run as a script: import bench and site_builder from this checkout
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx

from bench.http_site import StaticServer
from bench.mcp_http import HttpServer
from bench.mcp_timing import PROJECTS, QUERIES, STATUSES
from bench.stats import percentile

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}
HEADERS = {"content-type": "application/json", "accept": "application/json",
           "mcp-protocol-version": "2026-07-28"}


@dataclass(slots=True)
class Load:
    """What one load run saw: per-kind latencies (seconds), errors, memory samples (bytes)."""

    clients: int
    seconds: float
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    memory: list[int] = field(default_factory=list)
    elapsed: float = 0.0

    @property
    def requests(self) -> int:
        return sum(len(v) for v in self.latencies.values()) + sum(self.errors.values())

    def rate(self) -> float:
        return self.requests / self.elapsed if self.elapsed else 0.0

    def lines(self, title: str) -> list[str]:
        """The figures as Markdown: one table row per kind, then memory."""
        out = [f"**{title}**: {self.clients} concurrent clients for {self.elapsed:.0f} s, "
               f"{self.requests:,} requests, {self.rate():,.0f} req/s, "
               f"{sum(self.errors.values())} errors", "",
               "| call | requests | p50 | p99 | errors |", "|---|---:|---:|---:|---:|"]
        for kind, values in self.latencies.items():
            if values:
                out.append(f"| {kind} | {len(values):,} | {percentile(values, 50) * 1e3:.1f} ms"
                           f" | {percentile(values, 99) * 1e3:.1f} ms | "
                           f"{self.errors.get(kind, 0)} |")
        if self.memory:
            mb = [m / 2**20 for m in self.memory]
            out += ["", f"Server memory (RSS, sampled each second): {mb[0]:.0f} MB at the "
                        f"start, {max(mb):.0f} MB at most, {mb[-1]:.0f} MB at the end."]
        return out


def mix(ids: Sequence[str]) -> list[tuple[str, str, Any]]:
    """(kind, tool, arguments of the i-th call) of one round of the workload, over the
    projects the ids name (the corpus's, or example-site's): search_records with filters
    most of all, every other tool between."""
    projects = sorted({i.split("/")[0] for i in ids}) or list(PROJECTS)
    calls: list[tuple[str, str, Any]] = []
    others: list[tuple[str, Any]] = [
        ("list_projects", {}), ("list_fields", {}), ("list_authors", {"limit": 20}),
        ("rfc_reviews", {}), ("list_superseded", {}),
        ("records_for_paths", {"paths": ["src/payments/api.py", "docs"]})]
    for i in range(20):
        project = projects[i % len(projects)]
        calls.append(("search_records, filters", "search_records",
                      {"project": project, "status": STATUSES[i % len(STATUSES)]}))
        if i % 4 == 0:
            calls.append(("search_records, query", "search_records",
                          {"query": QUERIES[i % len(QUERIES)]}))
        if i % 4 == 1:
            calls.append(("get_record", "get_record", {"id": ids[(i * 131) % len(ids)]}))
        if i % 4 == 2:
            calls.append(("list_tags", "list_tags", {"limit": 20}))
        if i % 4 == 3:
            calls.append(("due_reviews", "due_reviews", {"project": project}))
        if i % 3 == 0:
            tool, arguments = others[(i // 3) % len(others)]
            calls.append((tool, tool, arguments))
    return calls


def _body(number: int, tool: str, arguments: Any) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": number, "method": "tools/call",
                       "params": {"_meta": META, "name": tool,
                                  "arguments": arguments}}).encode()


class _Connection:
    """One keep-alive HTTP/1.1 connection, spoken by hand.

    httpx spent about 0.9 ms of CPU per request here, three times what the server spent
    answering it, on the same two cores: the load generator, not the server, set the pace
    and most of the latency. This writes a request and reads the status line, the headers and
    `Content-Length` bytes of body, which is all the server ever sends.
    """

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.head = (f"POST {parts.path} HTTP/1.1\r\nhost: {parts.netloc}\r\n" + "".join(
            f"{name}: {value}\r\n" for name, value in HEADERS.items())).encode()
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def post(self, body: bytes) -> tuple[int, bytes]:
        """(status, body) of one POST; reconnects when the server closed the connection."""
        if self.streams is None:
            self.streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self.streams
        writer.write(self.head + b"content-length: %d\r\n\r\n" % len(body) + body)
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        fields = dict(line.lower().split(b": ", 1) for line in lines[1:] if b": " in line)
        data = await reader.readexactly(int(fields.get(b"content-length", b"0")))
        if fields.get(b"connection") == b"close":
            await self.close()
        return int(lines[0].split(b" ", 2)[1]), data

    async def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


async def _client(http: _Connection, number: int, calls: list[tuple[str, str, Any]],
                  until: float, load: Load) -> None:
    i = number * 7
    while time.perf_counter() < until:
        kind, tool, arguments = calls[i % len(calls)]
        i += 1
        started = time.perf_counter()
        try:
            status, data = await http.post(_body(i, tool, arguments))
            result = json.loads(data).get("result") if status == 200 else None
            ok = isinstance(result, dict) and result.get("isError") is False
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            ok = False
            await http.close()
        if ok:
            load.latencies.setdefault(kind, []).append(time.perf_counter() - started)
        else:
            load.errors[kind] = load.errors.get(kind, 0) + 1


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run(url: str, pid: int, ids: Sequence[str], clients: int, seconds: float) -> Load:
    """`clients` clients against `url` for `seconds`; the server's memory sampled by pid."""
    load = Load(clients, seconds)
    calls = mix(ids)
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(1.0):
            load.memory.append(_rss(pid))

    sampler = threading.Thread(target=sample, daemon=True)

    async def main() -> float:
        # Every client is connected and has had one answer before the clock starts.
        https = [_Connection(url) for _ in range(clients)]
        try:
            await asyncio.gather(*(h.post(_body(0, "list_fields", {})) for h in https))
            load.memory.append(_rss(pid))
            sampler.start()
            started = time.perf_counter()
            until = started + seconds
            await asyncio.gather(*(_client(h, n, calls, until, load)
                                   for n, h in enumerate(https)))
            return time.perf_counter() - started
        finally:
            for h in https:
                await h.close()

    load.elapsed = asyncio.run(main())
    stop.set()
    sampler.join()
    load.memory.append(_rss(pid))
    return load


def measure(root: Path, ids: Sequence[str], clients: int = 50, seconds: float = 60,
            env: dict[str, str] | None = None) -> Load:
    """The load run on the archive at `root` (local mode), after one warm-up round of every
    call."""
    return _measure(["--root", str(root)], ids, clients, seconds, env)


def measure_remote(site: Path, ids: Sequence[str], clients: int = 50,
                   seconds: float = 60) -> Load:
    """The load run in remote mode (`--url`) on the built site in `site`, served by a static
    server on 127.0.0.1, after one warm-up round of every call."""
    with StaticServer(site) as static:
        return _measure(["--url", static.url], ids, clients, seconds)


def _measure(args: list[str], ids: Sequence[str], clients: int, seconds: float,
             env: dict[str, str] | None = None) -> Load:
    with HttpServer(*args, env=env) as server, \
            httpx.Client(headers=HEADERS, timeout=120) as http:
        for number, (_, tool, arguments) in enumerate(mix(ids)):
            http.post(server.url, content=_body(number, tool, arguments)).raise_for_status()
        return run(server.url, server.process.pid, ids, clients, seconds)


def record_ids(root: Path) -> list[str]:
    """Every record id of the archive (its path under content/ without .md)."""
    content = root / "content"
    return sorted(p.relative_to(content).with_suffix("").as_posix()
                  for p in content.glob("*/*/*.md"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True, help="the archive to serve")
    parser.add_argument("--site", type=Path,
                        help="its built site, to load remote mode (--url) as well")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args(argv)
    root = args.root.resolve()
    ids = record_ids(root)
    for clients in dict.fromkeys((1, args.clients)):
        load = measure(root, ids, clients, args.seconds)
        print("\n".join(load.lines(f"MCP over HTTP on {root.name} ({len(ids):,} records)")))
        print()
    if args.site is not None:
        load = measure_remote(args.site.resolve(), ids, args.clients, args.seconds)
        print("\n".join(load.lines(f"MCP over HTTP, remote mode, on {root.name} "
                                   f"({len(ids):,} records)")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
