"""`site-builder serve`: how long from saving a record to its new page being served.

The clock starts just before the edited file is written and stops when a GET of the record's
page returns HTML containing the edit; the page is polled every 5 ms over HTTP, as a browser
reloading would see it.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from typing import IO

from bench import http_site, measure
from bench import site_builder_target as sb
from bench.corpus import Corpus, edit_record
from bench.results import Results
from bench.stats import Summary

START_TIMEOUT = 900.0  # seconds: generous; serve answers before its first build is done
EDIT_TIMEOUT = 30.0
SETTLE = 0.5  # seconds between edits, so one rebuild is not folded into the next


def measure_serve(corpus: Corpus, edits: int, results: Results) -> None:
    """Start serve, time `edits` edits of different records, and store the figures."""
    port = http_site.free_port()
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as log:
        start = time.perf_counter()
        process = subprocess.Popen(sb.serve_command(corpus.root, port), env=sb.environment(),
                                   stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        try:
            _time_edits(corpus, f"http://127.0.0.1:{port}/", start, edits, results, log)
        finally:
            measure.stop(process)


def _time_edits(corpus: Corpus, base: str, start: float, edits: int, results: Results,
                log: IO[str]) -> None:
    files = corpus.record_files()
    if http_site.wait_for(base + corpus.record_id(files[0]) + "/", START_TIMEOUT) is None:
        log.seek(0)
        results.skipped["serve"] = "serve did not answer: " + log.read()[-300:]
        return
    results.seconds["serve.start"] = Summary.of([time.perf_counter() - start])
    # The edits are timed once the first build (which runs behind the first page) is in.
    if not _wait_built(log, START_TIMEOUT):
        results.skipped["serve"] = "serve did not finish its first build"
        return
    results.seconds["serve.first-build"] = Summary.of([time.perf_counter() - start])
    times = []
    for k in range(edits):
        path = files[(k * 389 + 11) % len(files)]
        marker = f"serve-{k}-{time.monotonic_ns()}"
        page = base + corpus.record_id(path) + "/"
        time.sleep(SETTLE)
        began = time.perf_counter()
        edit_record(path, marker)
        if http_site.wait_for(page, EDIT_TIMEOUT, contains=marker) is None:
            results.skipped["serve.edit-visible"] = (
                f"an edit did not show within {EDIT_TIMEOUT:.0f}s")
            return
        times.append(time.perf_counter() - began)
    results.seconds["serve.edit-visible"] = Summary.of(times)
    print(f"bench: serve: edit visible after {Summary.of(times).median * 1e3:.0f} ms "
          "(median)", flush=True)


def _wait_built(log: IO[str], timeout: float) -> bool:
    """True once serve's log says its first build is done, False after `timeout`."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        # pread, never seek: serve writes to the same open file, at the offset they share.
        size = os.fstat(log.fileno()).st_size
        if b"site-builder serve: built " in os.pread(log.fileno(), size, 0):
            return True
        time.sleep(0.05)
    return False
