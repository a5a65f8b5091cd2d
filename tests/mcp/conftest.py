"""Fixtures for the MCP server: built sites served over HTTP, archives with dated reviews."""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from site_builder.render.site import build_site
from tests.conftest import EXAMPLE_SITE, FIXTURES
from tests.mcp.httpsite import SiteServer


def built_copy(source: Path, target: Path) -> Path:
    """Copy an archive to `target`, build it with the real build, return its output folder."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("_site", ".site-builder"))
    return build_site(target, jobs=1, cache=False).output


@pytest.fixture(scope="module")
def example_published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[
        tuple[Path, SiteServer]]:
    """example-site built and served on 127.0.0.1: (the archive's root, the server)."""
    root = tmp_path_factory.mktemp("published") / "example-site"
    server = SiteServer(built_copy(EXAMPLE_SITE, root)).start()
    yield root, server
    server.stop()


@pytest.fixture
def serve_built(tmp_path: Path) -> Iterator[Callable[[str], tuple[Path, SiteServer]]]:
    """Build `tests/fixtures/<name>` and serve it: returns (the archive's root, the server)."""
    servers: list[SiteServer] = []

    def serve(name: str) -> tuple[Path, SiteServer]:
        root = tmp_path / name
        server = SiteServer(built_copy(FIXTURES / name, root)).start()
        servers.append(server)
        return root, server

    yield serve
    for server in servers:
        server.stop()


@pytest.fixture
def serve_folder(tmp_path: Path) -> Iterator[Callable[[Path], SiteServer]]:
    """Serve any folder (a hand-made site) on 127.0.0.1."""
    servers: list[SiteServer] = []

    def serve(folder: Path) -> SiteServer:
        server = SiteServer(folder).start()
        servers.append(server)
        return server

    yield serve
    for server in servers:
        server.stop()


def dated_record(title: str, status: str, date: dt.date, review: str = "") -> str:
    return (f"---\ntitle: {title}\nstatus: {status}\ndate: {date.isoformat()}\n"
            f"description: {title}.\nauthors: [dee]\n{review}---\n\n{title}.\n")


@pytest.fixture
def reviews_archive(fixture_archive: Callable[[str], Path]) -> tuple[Path, dt.date]:
    """mcp-lineage plus records whose reviews fall due relative to today.

    Returns the archive's root and the day the dates were computed from.
    """
    root = fixture_archive("mcp-lineage")
    today = dt.date.today()
    folder = root / "content" / "ops" / "adr"

    def every(text: str, reviewed: dt.date) -> str:
        return f"review: {{every: \"{text}\", reviewed: {reviewed.isoformat()}}}\n"

    (folder / "0002-rotate-keys.md").write_text(dated_record(
        "Rotate keys", "adopted", today - dt.timedelta(days=500),
        every("6 months", today - dt.timedelta(days=200))), encoding="utf-8")
    (folder / "0003-patch-monthly.md").write_text(dated_record(
        "Patch monthly", "adopted", today - dt.timedelta(days=90),
        every("30 days", today - dt.timedelta(days=20))), encoding="utf-8")
    (folder / "0004-yearly-dr-drill.md").write_text(dated_record(
        "Yearly disaster recovery drill", "adopted", today - dt.timedelta(days=400),
        every("1 year", today - dt.timedelta(days=100))), encoding="utf-8")
    (folder / "0005-open-question.md").write_text(dated_record(
        "An open question", "discussing", today - dt.timedelta(days=60),
        every("1 week", today - dt.timedelta(days=30))), encoding="utf-8")
    return root, today
