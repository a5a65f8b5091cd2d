"""The preview is served as a static host serves the site, and no more: only the site's own
files, under `base`, with the right content types, and nothing outside it."""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from site_builder.serve.server import content_type
from tests.conftest import run_cli
from tests.serve.conftest import FIXTURES, Serving

PAGE = "/demo/adr/0001-write-records-in-markdown/"
SCRIPT = '<script src="/__site-builder__/reload.js?build='


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serving]:
    """One server for every request of this module (nothing here edits the archive)."""
    root = tmp_path_factory.mktemp("http") / "serve-site"
    shutil.copytree(FIXTURES / "serve-site", root)
    running = Serving(root)
    yield running
    assert running.stop() == 0


@pytest.mark.parametrize(("path", "kind"), [
    (PAGE, "text/html; charset=utf-8"),
    ("/", "text/html; charset=utf-8"),
    ("/demo/adr/0001-write-records-in-markdown.md", "text/markdown; charset=utf-8"),
    ("/decisions.json", "application/json"),
    ("/llms.txt", "text/plain; charset=utf-8"),
    ("/AGENTS.md", "text/markdown; charset=utf-8"),
    ("/feed.xml", "application/xml; charset=utf-8"),
    ("/demo/adr/diagram.svg", "image/svg+xml"),
    ("/demo/adr/checks.csv", "text/csv; charset=utf-8"),
    ("/__site-builder__/reload.js", "text/javascript; charset=utf-8"),
])
def test_files_are_served_with_their_content_type(server: Serving, path: str, kind: str) -> None:
    answer = server.get(path)
    assert answer.status == 200
    assert answer.headers["content-type"] == kind
    assert answer.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", [
    "/../site.yml",
    "/../../../../etc/passwd",
    "/%2e%2e/site.yml",
    "/%2E%2E/%2E%2E/etc/passwd",
    "/demo/%2e%2e/%2e%2e/site.yml",
    "/..%2fsite.yml",
    "/demo/adr/0001-write-records-in-markdown/..%2f..%2f..%2f..%2fsite.yml",
    "/%2fetc/passwd",
    "//etc/passwd",
    "/./decisions.json",
    "/.site-builder/",
    "/content/demo/adr/0001-write-records-in-markdown.md",
    "/site.yml",
    "/demo\\..\\..\\site.yml",
    "/decisions.json%00.html",
])
def test_nothing_outside_the_site_can_be_read(server: Serving, path: str) -> None:
    answer = server.get(path)
    assert answer.status in (403, 404)
    assert answer.body == server.get("/no/such/page/").body


@pytest.mark.parametrize(("name", "kind"), [
    ("site.css", "text/css; charset=utf-8"),
    ("site.js", "text/javascript; charset=utf-8"),
    ("search.mjs", "text/javascript; charset=utf-8"),
    ("core.wasm", "application/wasm"),
    ("logo.SVG", "image/svg+xml"),
    ("record.md", "text/markdown; charset=utf-8"),
    ("photo.jpeg", "image/jpeg"),
    ("font.woff2", "font/woff2"),
    ("index.pf_fragment", "application/octet-stream"),
])
def test_content_types_by_file_name(name: str, kind: str) -> None:
    assert content_type(name) == kind


def test_a_symlink_to_outside_the_site_leads_nowhere(server: Serving, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("a secret")
    link = server.root / "content/demo/adr/leak"
    link.symlink_to(outside)
    try:
        for path in ("/demo/adr/leak/secret.txt", "/content/demo/adr/leak/secret.txt"):
            answer = server.get(path)
            assert answer.status == 404 and b"a secret" not in answer.body
    finally:  # the server is shared by this module's tests; the link is a `check` finding
        link.unlink()
    server.wait_for("the link's finding gone", lambda: server.problems() == [])


def test_a_folder_is_never_listed(server: Serving) -> None:
    answer = server.get("/demo/adr/")
    assert answer.status == 404
    assert b"0001-write-records-in-markdown" not in answer.body


def test_a_folder_named_without_its_slash_is_redirected(server: Serving) -> None:
    answer = server.get(PAGE.rstrip("/") + "?x=1")
    assert answer.status == 301
    assert answer.headers["location"] == PAGE + "?x=1"


def test_a_miss_gets_the_not_found_page_with_live_reload(server: Serving) -> None:
    answer = server.get("/no/such/page/")
    assert answer.status == 404
    assert answer.headers["content-type"] == "text/html; charset=utf-8"
    assert SCRIPT in answer.text


def test_pages_get_the_reload_script_and_other_files_do_not(server: Serving) -> None:
    assert server.get(PAGE).text.count(SCRIPT) == 1
    assert b"__site-builder__" not in server.get("/decisions.json").body


def test_head_answers_without_a_body(server: Serving) -> None:
    answer = server.get(PAGE, method="HEAD")
    assert answer.status == 200 and answer.body == b""
    assert int(answer.headers["content-length"]) == len(server.get(PAGE).body)


def test_text_goes_compressed_to_clients_that_accept_gzip(server: Serving) -> None:
    plain = server.get("/llms.txt")
    packed = server.get("/llms.txt", headers={"Accept-Encoding": "gzip, deflate"})
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert gzip.decompress(packed.body) == plain.body


def test_problems_are_published_for_the_overlay(server: Serving) -> None:
    assert server.problems() == []


def test_a_built_site_never_holds_the_reload_script(tmp_path: Path) -> None:
    root = tmp_path / "serve-site"
    shutil.copytree(FIXTURES / "serve-site", root)
    assert run_cli("build", "--root", str(root)).returncode == 0
    built = [p for p in (root / "_site").rglob("*") if p.is_file()]
    assert built
    assert not any(b"__site-builder__" in p.read_bytes() for p in built)


def test_the_site_is_served_under_its_base(tmp_path: Path) -> None:
    root = tmp_path / "serve-site"
    shutil.copytree(FIXTURES / "serve-site", root)
    config = root / "site.yml"
    config.write_text(config.read_text().replace("base: /", "base: /decisions/"))
    server = Serving(root)
    try:
        assert server.address == f"http://127.0.0.1:{server.port}/decisions/"
        for outside in ("/", "/decisions"):
            answer = server.get(outside)
            assert answer.status == 301 and answer.headers["location"] == "/decisions/"
        assert server.get("/demo/adr/0001-write-records-in-markdown/").status == 404
        page = server.get("/decisions/demo/adr/0001-write-records-in-markdown/")
        assert page.status == 200
        assert '<script src="/decisions/__site-builder__/reload.js?build=' in page.text
        assert server.get("/decisions/__site-builder__/problems.json").status == 200
    finally:
        assert server.stop() == 0


def test_static_files_are_served_and_a_change_to_them_is_picked_up(tmp_path: Path) -> None:
    root = tmp_path / "serve-site"
    shutil.copytree(FIXTURES / "serve-site", root)
    (root / "static" / ".well-known").mkdir(parents=True)
    (root / "static" / "CNAME").write_text("decisions.acme.dev\n")
    (root / "static" / ".well-known" / "security.txt").write_text("Contact: x\n")
    running = Serving(root)
    try:
        base = running.base
        assert running.get(f"{base}CNAME").body == b"decisions.acme.dev\n"
        assert running.get(f"{base}.well-known/security.txt").body == b"Contact: x\n"
        assert running.get(f"{base}.git/config").status == 404  # other hidden paths stay hidden
        (root / "static" / "CNAME").write_text("other.acme.dev\n")
        running.wait_for("the new CNAME",
                         lambda: running.get(f"{base}CNAME").body == b"other.acme.dev\n")
    finally:
        assert running.stop() == 0
