"""The ASGI factory under uvicorn with 1 and 2 worker processes, under the same load.

    python bench/mcp_workers.py --root CORPUS [--workers 1 2] [--seconds 20]

uvicorn is handed a socket this process bound to 127.0.0.1 port 0 (`--fd`), so no fixed
port is used and the workers share it as they would behind a load balancer; the app is
`site_builder.mcp.http:app`, configured by `SITE_BUILDER_ROOT`. The load is http_load's.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

if __name__ == "__main__":  # run as a script: import bench and site_builder from this checkout
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import http_load, measure
from bench import site_builder_target as sb

START_SECONDS = 120


def _uvicorn(root: Path, workers: int, listener: socket.socket) -> subprocess.Popen[bytes]:
    fd = listener.fileno()
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "site_builder.mcp.http:app",
         "--fd", str(fd), "--workers", str(workers), "--log-level", "warning"],
        pass_fds=(fd,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, env={**sb.environment(), "SITE_BUILDER_ROOT": str(root)})


def _warm(url: str, ids: Sequence[str], workers: int) -> None:
    """Every call of the mix answered, enough times for each worker to have read the archive;
    waits (up to START_SECONDS) for the workers to listen."""
    deadline = time.monotonic() + START_SECONDS
    with httpx.Client(headers=http_load.HEADERS, timeout=120) as http:
        while True:
            try:
                http.post(url, content=http_load._body(0, "list_fields", {})).raise_for_status()
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise RuntimeError("uvicorn did not answer") from None
                time.sleep(0.2)
        for round_ in range(4 * workers):
            for number, (_, tool, arguments) in enumerate(http_load.mix(ids)):
                http.post(url, content=http_load._body(number + round_, tool, arguments))


def measure_workers(root: Path, ids: Sequence[str], workers: int, clients: int = 50,
                    seconds: float = 20) -> http_load.Load:
    """The load run against `workers` uvicorn workers serving the archive at `root`."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1024)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/mcp"
        process = _uvicorn(root, workers, listener)
        try:
            _warm(url, ids, workers)
            return http_load.run(url, process.pid, ids, clients, seconds)
        finally:
            measure.stop(process, grace=20)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args(argv)
    root = args.root.resolve()
    ids = http_load.record_ids(root)
    for workers in args.workers:
        load = measure_workers(root, ids, workers, args.clients, args.seconds)
        print("\n".join(load.lines(f"uvicorn, {workers} worker(s), {len(ids):,} records")))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
