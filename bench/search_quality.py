"""Search quality: the question set answered through MCP (local and remote) and the site.

The questions (tests/fixtures/search-questions.json) are asked as developers ask them, over
example-site and over tests/fixtures/govuk-aws (a conversion of alphagov/govuk-aws's ADRs).
Each archive is built, served on 127.0.0.1, and every question goes to `site-builder mcp
--root`, to `site-builder mcp --url` and to the site's search page in headless Chromium; a
hit is the answering record first (top-1) or among the first three (top-3).

`first_query_bytes` measures what the site's first query downloads (the index files and the
records it shows), which on the 10,000-record corpus must stay below the old 570 KB id list.

    python bench/search_quality.py                 # the question set alone, printed
    python bench/search_quality.py --site FOLDER   # and the first query on a built site
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import urllib.parse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != REPO / "bench"]
    sys.path.insert(0, str(REPO))

from bench import site_builder_target as sb  # noqa: E402
from bench.http_site import StaticServer  # noqa: E402
from bench.mcp_client import McpClient  # noqa: E402

QUESTIONS = REPO / "tests" / "fixtures" / "search-questions.json"
ARCHIVES = {"example-site": REPO / "example-site",
            "govuk-aws": REPO / "tests" / "fixtures" / "govuk-aws"}
TOP = 3
# A question an agent or a person might type on the benchmark corpus.
FIRST_QUERY = "how do we handle kafka retry policies"
# Run in the page: the first ids of the search page's results once they are shown.
_READ_RESULTS = """() => {
  const status = document.querySelector("[data-search-status]").textContent;
  const links = [...document.querySelectorAll("[data-search-results] a.row__title")];
  if (!status || (!links.length && !status.startsWith("No records"))) return null;
  return links.map((a) => new URL(a.href).pathname);
}"""


@dataclass(frozen=True, slots=True)
class Question:
    archive: str
    kind: str
    text: str
    answer: str


def questions() -> list[Question]:
    """The question set, in file order."""
    data = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    return [Question(q["archive"], q["kind"], q["q"], q["a"]) for q in data["questions"]]


@dataclass(frozen=True, slots=True)
class Rates:
    questions: int
    top1: int
    top3: int

    def text(self) -> str:
        return (f"top-1 {self.top1}/{self.questions} ({100 * self.top1 / self.questions:.0f} %), "
                f"top-3 {self.top3}/{self.questions} ({100 * self.top3 / self.questions:.0f} %)")


def rates(asked: Sequence[Question], answers: Sequence[Sequence[str]]) -> Rates:
    """How many answers hold the right record first, and among the first three."""
    top1 = sum(1 for q, ids in zip(asked, answers, strict=True) if ids[:1] == [q.answer])
    top3 = sum(1 for q, ids in zip(asked, answers, strict=True) if q.answer in ids[:TOP])
    return Rates(len(asked), top1, top3)


def mcp_answers(command: Sequence[str], asked: Sequence[Question]) -> list[list[str]]:
    """The first record ids `search_records` gives for each question."""
    client = McpClient(list(command), env=sb.environment())
    try:
        client.initialize()
        out = []
        for question in asked:
            result = client.call_tool("search_records", {"query": question.text, "limit": TOP})
            answer = json.loads(result["content"][0]["text"])
            out.append([r["id"] for r in answer["records"]])
        return out
    finally:
        client.close()


def site_answers(page: Any, url: str, asked: Sequence[Question]) -> list[list[str]]:
    """The first record ids the search page lists for each question (`url`: the site)."""
    base = urllib.parse.urlparse(url).path
    out = []
    for question in asked:
        page.goto(f"{url}search.html?q={urllib.parse.quote(question.text)}")
        paths = page.wait_for_function(_READ_RESULTS).json_value()
        out.append([p[len(base):].strip("/") for p in paths[:TOP]])
    return out


@contextmanager
def chromium_page() -> Iterator[Any]:
    """A headless Chromium page (the one on PATH, else Playwright's), driven by Playwright."""
    from playwright.sync_api import sync_playwright

    from bench.browser import launch

    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser.new_page()
        finally:
            browser.close()


def first_query_bytes(page: Any, url: str, text: str) -> tuple[int, int]:
    """(bytes, requests) the search page fetches for its first query: the index files and
    the records it shows, not the page and theme files (read from Resource Timing once the
    results are shown and the network is idle)."""
    page.goto(f"{url}search.html")
    page.wait_for_load_state("networkidle")
    start = page.evaluate("performance.now()")
    page.locator("[data-search-page] [data-search-input]").fill(text)
    page.wait_for_function(_READ_RESULTS)
    page.wait_for_load_state("networkidle")
    entries = page.evaluate("""(start) => performance.getEntriesByType("resource")
        .filter((e) => e.startTime >= start).map((e) => e.encodedBodySize)""", start)
    return sum(entries), len(entries)


def _build(source: Path, work: Path) -> Path:
    from site_builder.render.site import build_site

    root = work / source.name
    shutil.copytree(source, root, ignore=shutil.ignore_patterns("_site", ".site-builder"))
    return build_site(root, jobs=1, cache=False).output


def measure(work: Path) -> dict[str, Rates]:
    """Rates per path (`mcp-local`, `mcp-remote`, `site`), all archives together; raises
    AssertionError when the paths disagree on any question's first record."""
    asked = questions()
    answers: dict[str, list[list[str]]] = {"mcp-local": [], "mcp-remote": [], "site": []}
    order: list[Question] = []
    with chromium_page() as page:
        for name, source in ARCHIVES.items():
            mine = [q for q in asked if q.archive == name]
            output = _build(source, work)
            server = StaticServer(output)
            try:
                answers["mcp-local"] += mcp_answers(
                    sb.command("mcp", "--root", str(output.parent)), mine)
                answers["mcp-remote"] += mcp_answers(sb.command("mcp", "--url", server.url),
                                                     mine)
                answers["site"] += site_answers(page, server.url, mine)
            finally:
                server.close()
            order += mine
    return {path: rates(order, found) for path, found in answers.items()}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    with tempfile.TemporaryDirectory() as work:
        for path, found in measure(Path(work)).items():
            print(f"{path}: {found.text()}")
    if args[:1] == ["--site"] and len(args) == 2:
        server = StaticServer(Path(args[1]))
        try:
            with chromium_page() as page:
                size, requests = first_query_bytes(page, server.url, FIRST_QUERY)
        finally:
            server.close()
        print(f"first query \"{FIRST_QUERY}\": {size} bytes in {requests} requests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
