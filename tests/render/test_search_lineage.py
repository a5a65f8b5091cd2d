"""Search puts the record in force above the records it replaced, in the one search
semantics: textindex (CLI, MCP) and the site's own search in Chromium agree."""

# ruff: noqa: F811 -- the browser fixture of test_browser.py is imported and then taken

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from bench.http_site import StaticServer
from bench.search_quality import TOP, Question, site_answers
from site_builder.query import answers as query
from site_builder.render.site import build_site
from site_builder.sources.load import load_archive
from tests.render.test_browser import browser  # noqa: F401 (fixture)

RECORDS = {
    "0001-queue-with-rabbitmq": ("Queue messages with RabbitMQ", "superseded",
                                 "supersededBy: build/adr/3\n",
                                 "The queue is RabbitMQ. Every queue, each queue consumer."),
    "0002-cache-in-redis": ("Cache in Redis", "accepted", "", "A queue of cache writes."),
    "0003-stream-with-kafka": ("Stream events with Kafka", "superseded",
                               "supersededBy: build/adr/4\n", "Kafka replaces the queue."),
    "0004-stream-with-pulsar": ("Stream events with Pulsar", "accepted", "",
                                "Pulsar keeps the queue and the streams."),
}
ASKED = ["queue", "queue rabbitmq"]


def archive(root: Path) -> Path:
    adr = root / "content/build/adr"
    adr.mkdir(parents=True)
    (root / "site.yml").write_text("title: T\n")
    for slug, (title, status, extra, body) in RECORDS.items():
        (adr / f"{slug}.md").write_text(
            f"---\ntitle: {title}\nstatus: {status}\ndate: 2024-01-0{slug[3]}\n"
            f"description: {title}.\n{extra}---\n{body}\n")
    return root


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    root = archive(tmp_path_factory.mktemp("lineage-search"))
    server = StaticServer(build_site(root, jobs=1, cache=False).output)
    yield root, server.url
    server.close()


def ids(answer: dict) -> list[str]:
    return [r["id"].rsplit("/", 1)[-1] for r in answer["records"]]


def test_the_record_in_force_ranks_above_the_ones_it_replaced(tmp_path: Path) -> None:
    found = load_archive(archive(tmp_path))
    assert ids(query.search_records(found, query="queue")) == [
        "0004-stream-with-pulsar", "0003-stream-with-kafka", "0001-queue-with-rabbitmq",
        "0002-cache-in-redis"]
    # Without the chain, the old record's title would win: it still comes before records
    # of other chains that score below it.
    assert ids(query.search_records(found, query="rabbitmq")) == ["0001-queue-with-rabbitmq"]


def test_the_site_ranks_as_the_tools_do(published: tuple[Path, str], browser: Browser) -> None:
    root, url = published
    found = load_archive(root)
    page = browser.new_page()
    asked = [Question("lineage", "chain", text, "") for text in ASKED]
    shown = [[path.rsplit("/", 1)[-1] for path in paths]
             for paths in site_answers(page, url, asked)]
    assert shown == [ids(query.search_records(found, query=text))[:TOP] for text in ASKED]
    assert shown[0][0] == "0004-stream-with-pulsar"
