"""Lighthouse scores a record page of the built example site 100 in every category.

`make test` installs Lighthouse from npm into .venv/lighthouse (the Makefile's $(LIGHTHOUSE)
step); this test runs it as a real Node process, driving the Chromium the browser tests use,
against example-site built and served on 127.0.0.1. The desktop preset with throttling
`provided` scores what the page costs here, and the scores are read, not the timings: the
record page's first paint is about 0.2 s even on a loaded two-core machine, far inside the
desktop budget, so performance holds 100 like the other three.

The test starts Chromium itself and hands Lighthouse its DevTools port: Lighthouse's own
launcher gives up after about 25 s ("Unable to connect to Chrome"), which a loaded two-core
machine can exceed, while here the wait is on the port file Chromium writes, however long.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bench.browser import CHROMIUM_ARGS, chromium_path
from site_builder.render.site import build_site
from tests import browsers
from tests.conftest import EXAMPLE_SITE, REPO

LIGHTHOUSE = REPO / ".venv" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# A record with a table of contents, tags, related records and the agent menu; its body has
# no Mermaid diagram (a diagram in the first screen costs Lighthouse performance, see README).
RECORD = "build/adr/0013-search-with-a-sharded-json-index/"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    assert LIGHTHOUSE.is_file(), (f"{LIGHTHOUSE} is missing: `make test` installs it "
                                  "(npm install lighthouse)")
    root = tmp_path_factory.mktemp("lighthouse") / "example-site"
    shutil.copytree(EXAMPLE_SITE, root, ignore=shutil.ignore_patterns("_site", ".site-builder"))
    build_site(root, jobs=1)
    assert (root / "_site" / RECORD / "index.html").is_file()
    with browsers.serving(root / "_site") as url:
        yield url


@contextmanager
def devtools_port(work: Path) -> Iterator[int]:
    """A headless Chromium started for one Lighthouse run; yields its DevTools port.

    Raises AssertionError when Chromium is missing or exits before it opens the port.
    """
    chromium = chromium_path()
    assert chromium is not None, "no Chromium on PATH: `make system-deps` installs it"
    profile = work / "chromium-profile"
    browser = subprocess.Popen(
        [chromium, "--headless=new", *CHROMIUM_ARGS, "--remote-debugging-port=0",
         f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 180
        while not port_file.is_file() or not port_file.read_text(encoding="utf-8").strip():
            assert browser.poll() is None, f"Chromium exited with {browser.returncode}"
            assert time.monotonic() < deadline, "Chromium opened no DevTools port in 180 s"
            time.sleep(0.1)
        yield int(port_file.read_text(encoding="utf-8").split()[0])
    finally:
        browser.kill()
        browser.wait()


def lighthouse(url: str, work: Path) -> dict[str, object]:
    """Lighthouse's JSON report for the page at `url` (desktop preset, four categories)."""
    report = work / "report.json"
    with devtools_port(work) as port:
        done = subprocess.run(
            [str(LIGHTHOUSE), url, "--preset=desktop", "--throttling-method=provided",
             f"--only-categories={','.join(CATEGORIES)}", "--output=json",
             f"--output-path={report}", "--quiet", f"--port={port}"],
            capture_output=True, text=True, timeout=300, check=False,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(work),
                 "TMPDIR": str(work)})
    assert done.returncode == 0, done.stderr[-4000:]
    result: dict[str, object] = json.loads(report.read_text(encoding="utf-8"))
    return result


def failing_audits(report: dict[str, object], category: str) -> list[str]:
    """The audits of `category` that did not pass, as `id: score (value)`, for the message."""
    audits: dict[str, dict[str, object]] = report["audits"]  # type: ignore[assignment]
    refs = report["categories"][category]["auditRefs"]  # type: ignore[index]
    out = []
    for ref in refs:
        audit = audits[ref["id"]]
        if ref["weight"] and audit.get("score") not in (None, 1):
            out.append(f"{ref['id']}: {audit['score']} ({audit.get('displayValue', '')})")
    return out


def test_a_record_page_scores_100_in_every_category(site: str, tmp_path: Path) -> None:
    report = lighthouse(site + RECORD, tmp_path)
    assert report["finalDisplayedUrl"] == site + RECORD
    categories: dict[str, dict[str, object]] = report["categories"]  # type: ignore[assignment]
    scores = {name: categories[name]["score"] for name in CATEGORIES}
    problems = {name: failing_audits(report, name) for name in CATEGORIES if scores[name] != 1}
    assert scores == dict.fromkeys(CATEGORIES, 1), problems


def test_lighthouse_does_mark_a_page_down(tmp_path: Path) -> None:
    # Guards the test above against a run that scores everything 100: a page without a
    # language, a title or a description loses accessibility and SEO points.
    (tmp_path / "www").mkdir()
    (tmp_path / "www" / "index.html").write_text(
        "<!doctype html><p>An image <img src=data:image/gif;base64,R0lGODlhAQABAAAAACw=></p>",
        encoding="utf-8")
    with browsers.serving(tmp_path / "www") as url:
        report = lighthouse(url, tmp_path)
    categories: dict[str, dict[str, object]] = report["categories"]  # type: ignore[assignment]
    assert categories["accessibility"]["score"] < 1  # type: ignore[operator]
    assert categories["seo"]["score"] < 1  # type: ignore[operator]
