"""`completion/complete` latency on the benchmark archive (default 10,000 records).

Writes the corpus with make_corpus and loads it as the MCP server does. Then it times the
first completion of each kind of name, which sorts that kind once per archive load, and
many completions after those: prefixes of real names of every kind, from the empty one
(every name matches) to whole names, through the server's own dispatch, so the JSON-RPC
handling is counted too. Prints the first completions, then median, p95 and maximum.

    .venv/bin/python -m bench.completion [--records N]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from bench import make_corpus
from site_builder.access.source import LocalSource
from site_builder.config.site import load_config
from site_builder.mcp.protocol import Request
from site_builder.mcp.server import Server

ROUNDS = 2000


def _requests(server: Server, rng: random.Random) -> list[Request]:
    """Completion requests for prefixes of real names, of each kind, 0 to 12 characters."""
    archive = server.source.archive()
    samples = {
        ("ref/resource", "id"): [r.id for r in archive.records] + [r.ref for r in archive.records],
        ("draft_record", "project"): [r.project for r in archive.records],
        ("draft_record", "type"): [r.type for r in archive.records],
        ("draft_record", "tags"): [t for r in archive.records for t in r.tags] or ["x"],
        ("draft_record", "status"): [s.name for s in archive.config.statuses],
    }
    out = []
    for number in range(ROUNDS):
        (ref, name), names = rng.choice(list(samples.items()))
        prefix = rng.choice(names)[:rng.randint(0, 12)]
        ref_object = ({"type": "ref/resource", "uri": "decision://{id}"} if ref == "ref/resource"
                      else {"type": "ref/prompt", "name": ref})
        out.append(Request("completion/complete", {"ref": ref_object,
                                                   "argument": {"name": name, "value": prefix}},
                           number))
    return out


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="completion-bench-") as folder:
        make_corpus.generate(folder, args.records)
        config, _ = load_config(Path(folder))
        assert config is not None
        server = Server(LocalSource(config, log=lambda _: None), log=lambda _: None)
        requests = _requests(server, random.Random(7))
        firsts = {}
        for request in requests:  # the first request of each kind sorts its names
            kind = (request.params["ref"].get("name"), request.params["argument"]["name"])
            if kind not in firsts:
                started = time.perf_counter()
                server.handle(request)
                firsts[kind] = time.perf_counter() - started
        times = []
        for request in requests:
            started = time.perf_counter()
            answer = server.handle(request)
            times.append(time.perf_counter() - started)
            assert answer is not None and "result" in answer, answer
        times.sort()
        print(f"{args.records} records; first completion of each kind (sorts its names): "
              + ", ".join(f"{name} {_ms(took)}" for (_, name), took in firsts.items()))
        print(f"{len(times)} completions: median {_ms(times[len(times) // 2])}, "
              f"p95 {_ms(times[int(len(times) * 0.95)])}, max {_ms(times[-1])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
