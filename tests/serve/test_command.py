"""Starting and stopping `site-builder serve`: the address it prints, a port in use, Ctrl-C,
and an archive that is broken from the start."""

from __future__ import annotations

import os
import signal
import socket
from pathlib import Path

from tests.conftest import run_cli
from tests.serve.conftest import Serving, save

RECORD = "content/demo/adr/0001-write-records-in-markdown.md"
PAGE = "/demo/adr/0001-write-records-in-markdown/"


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*")}


def test_port_0_picks_a_free_port_and_says_which(serving: Serving) -> None:
    assert serving.port > 0
    assert serving.address == f"http://127.0.0.1:{serving.port}/"
    assert serving.get("/").status == 200


def test_a_port_in_use_is_one_clear_line_and_exit_2(site: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_cli("serve", "--root", str(site), "--port", str(port))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"site-builder: cannot serve on 127.0.0.1:{port}: port {port} is in use; choose "
        "another with --port (--port 0 picks a free one)"]


def test_ctrl_c_stops_cleanly_and_leaves_no_files_behind(site: Path, tmp_path: Path) -> None:
    before = _files(tmp_path)
    server = Serving(site)
    assert server.get(PAGE).status == 200
    path = site / RECORD
    save(path, path.read_text().replace("Write every record in Markdown.", "Edited."))
    server.wait_for("the edit", lambda: "Edited." in server.get(PAGE).text)
    assert server.stop(signal.SIGINT) == 0
    assert "site-builder serve: stopped\n" in server.stderr
    # The body cache is the only thing serve may leave, and only under .site-builder/cache.
    left = _files(tmp_path) - before
    assert all(p.startswith("serve-site/.site-builder") for p in left)
    assert not [p for p in left if not p.startswith("serve-site/.site-builder/cache")
                and p != "serve-site/.site-builder"]
    assert not [p for p in left if p.endswith(".tmp")]


def test_sigterm_stops_it_too(serving: Serving) -> None:
    assert serving.stop(signal.SIGTERM) == 0


def test_an_archive_broken_from_the_start_is_served_once_fixed(site: Path) -> None:
    path = site / RECORD
    good = path.read_text()
    save(path, good.replace("date: 2026-01-10", "date: 2026-13-45"))
    server = Serving(site)
    try:
        assert server.get(PAGE).status == 404  # after the first check: no half site
        assert any(p["path"] == RECORD and p["line"] == 4 for p in server.problems())
        save(path, good)
        server.wait_for("the page once fixed", lambda: server.get(PAGE).status == 200)
        assert server.problems() == []
    finally:
        assert server.stop() == 0


def test_an_unusable_site_yml_stops_it_before_serving(site: Path) -> None:
    (site / "site.yml").write_text("title: [unclosed\n")
    result = run_cli("serve", "--root", str(site), "--port", "0", timeout=60)
    assert result.returncode == 1
    assert "site.yml:" in result.stderr and ": error: invalid YAML" in result.stderr
    assert result.stdout == ""


def test_no_temporary_folders_are_made_anywhere(site: Path) -> None:
    server = Serving(site)
    try:
        children = {p.name for p in (site / ".site-builder").iterdir()} if (
            site / ".site-builder").is_dir() else set()
        assert children <= {"cache"}
        assert not [p for p in site.parent.iterdir() if str(server.process.pid) in p.name]
        assert os.path.isdir(site / "content")
    finally:
        assert server.stop() == 0
