"""What a request may cost the server: values and depth parsed, memory, a batch's answer.

The server is a real subprocess; its memory is read from /proc/<pid>/status (VmRSS) while
hostile bodies are in flight.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from site_builder.mcp.protocol import MAX_DEPTH, MAX_VALUES
from site_builder.mcp.refusals import Refusals
from site_builder.mcp.server import MAX_BATCH, MAX_BATCH_ANSWER_BYTES
from tests.conftest import EXAMPLE_SITE
from tests.mcp.httpserver import HttpServer
from tests.mcp.test_http import modern, post

MB = 1024 * 1024


@pytest.fixture(scope="module")
def server() -> Iterator[HttpServer]:
    with HttpServer("--root", str(EXAMPLE_SITE)) as running:
        yield running


def resident(pid: int) -> int:
    """The resident memory of process `pid`, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def many_objects(size: int) -> bytes:
    """A ping of about `size` bytes whose params hold one empty object per 3 bytes."""
    head, tail = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":[', b"{}]}}"
    return head + b"{}," * ((size - len(head) - len(tail)) // 3) + tail


def test_values_and_depth_are_bounded_before_parsing(server: HttpServer):
    flood = post(server.url, many_objects(3 * MB))
    assert flood.status_code == 400
    assert flood.json()["error"]["code"] == -32700
    assert f"more than {MAX_VALUES} values" in flood.json()["error"]["message"]
    deep = post(server.url, b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":'
                + b"[" * MAX_DEPTH + b"]" * MAX_DEPTH + b"}}")
    assert deep.json()["error"]["message"].startswith("Parse error: the message nests")
    # Within the bounds, however odd: answered. Commas inside strings are not values.
    fits = modern(1, "tools/call", name="list_tags",
                  arguments={"limit": 1}, padding=[0] * (MAX_VALUES // 2),
                  text="," * (MAX_VALUES * 2), nested=json.loads("[" * 30 + "]" * 30))
    assert post(server.url, fits).status_code == 200


def test_many_large_bodies_at_once_keep_memory_bounded_and_pings_answered(server: HttpServer):
    pid = server.process.pid
    post(server.url, modern(0, "tools/list"))
    before = resident(pid)
    body = many_objects(4 * MB - 100)
    peak, answers, pings = [before], [], []
    done = threading.Event()

    def flood() -> None:
        answers.append(post(server.url, body).status_code)

    def ping() -> None:
        while not done.is_set() and len(pings) < 200:
            pings.append(post(server.url, {"jsonrpc": "2.0", "id": 9, "method": "ping"})
                         .status_code)

    threads = [threading.Thread(target=flood) for _ in range(18)] + [
        threading.Thread(target=ping)]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads[:-1]):
        peak.append(resident(pid))
        threads[0].join(0.01)
    done.set()
    for thread in threads:
        thread.join(60)
    assert answers == [400] * 18
    assert pings and set(pings) == {200}
    # 18 raw bodies in flight are 72 MB; parsed they grew past 1 GB before the bounds.
    assert max(peak) - before < 300 * MB, (before, max(peak))


def test_a_batch_answer_is_capped_in_bytes(server: HttpServer):
    batch = [{"jsonrpc": "2.0", "id": i, "method": "tools/call",
              "params": {"name": "search_records", "arguments": {"limit": 200}}}
             for i in range(MAX_BATCH)]
    answer = post(server.url, batch)
    assert answer.status_code == 200
    assert len(answer.content) <= MAX_BATCH_ANSWER_BYTES
    answers = answer.json()
    assert [a["id"] for a in answers] == list(range(MAX_BATCH))
    kept = [a for a in answers if "result" in a]
    refused = answers[len(kept):]
    assert kept and refused, "the batch should pass the cap: see MAX_BATCH_ANSWER_BYTES"
    assert all("error" in a for a in refused)
    assert refused[0]["error"]["message"].startswith("Batch answer too large")
    assert refused[0]["error"]["data"] == {"limit": MAX_BATCH_ANSWER_BYTES}
    alone = post(server.url, batch[-1])
    assert "result" in alone.json()


def test_refusals_are_logged_once_per_kind_and_minute():
    lines: list[str] = []
    now = [0.0]
    refusals = Refusals(lines.append, every=60, clock=lambda: now[0])
    for second in range(130):
        now[0] = float(second)
        refusals.note("slow requests")
        refusals.note("odd requests")
    assert lines == ["refused slow requests (logged again at most once a minute)",
                     "refused odd requests (logged again at most once a minute)",
                     "refused slow requests: 60 in the last 60s",
                     "refused odd requests: 60 in the last 60s",
                     "refused slow requests: 60 in the last 60s",
                     "refused odd requests: 60 in the last 60s"]
