"""Nothing outside the archive is read or published: real symlinks, FIFOs and sources.

Every test here builds or checks through the real command in a subprocess with a timeout, so
a hang (a FIFO opened for reading, /dev/zero read to the end) fails the test instead of
freezing the suite.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from site_builder.sources.load import load_archive
from tests.conftest import run_cli
from tests.sources.conftest import make_archive, record_text

SECRET = "root:x:0:0:the build machine's own file\n"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside every archive, standing in for /etc/passwd."""
    path = tmp_path / "outside" / "passwd"
    path.parent.mkdir()
    path.write_text(SECRET)
    return path


def _record(root: Path, name: str = "0001-local-choice.md") -> Path:
    return root / "content" / "local" / "adr" / name


def test_a_linked_file_that_is_a_symlink_out_is_a_check_error_and_never_published(
        tmp_path, secret):
    root = make_archive(tmp_path / "site")
    (_record(root).parent / "passwd.txt").symlink_to(secret)
    (_record(root).parent / "inner.txt").write_text("a file of the archive\n")
    (_record(root).parent / "alias.txt").symlink_to("inner.txt")  # a link that stays inside
    _record(root).write_text(record_text(
        "Local choice", extra="") + "\n[p](passwd.txt) and [i](alias.txt)\n")

    checked = run_cli("check", cwd=root, timeout=60)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    errors = [line for line in checked.stderr.splitlines() if ": error:" in line]
    assert len(errors) == 1, errors
    assert errors[0].startswith(f"{_record(root).relative_to(root)}:12: error: link to "
                                "passwd.txt, a symlink to ")
    assert "Traceback" not in checked.stderr

    built = run_cli("build", cwd=root, timeout=60)
    assert built.returncode == 1
    assert not (root / "_site").exists()

    # Even when the build runs on the archive as the loader sees it, no page links the copy.
    archive = load_archive(root)
    from site_builder.render.markdown.links import Origin, SourceLinks

    links = SourceLinks.of(archive)
    origin = Origin.of(archive.get("local/adr/1"))
    assert links(origin, "passwd.txt") is None
    assert links(origin, "alias.txt").asset


def test_record_files_that_are_links_out_fifos_devices_or_dangling_are_errors(
        tmp_path, secret):
    root = make_archive(tmp_path / "site")
    folder = _record(root).parent
    (folder / "0002-zero.md").symlink_to("/dev/zero")
    (folder / "0003-secret.md").symlink_to(secret)
    os.mkfifo(folder / "0004-fifo.md")
    (folder / "0005-dangling.md").symlink_to(folder / "nothing-here.md")
    (folder / "0006-loop.md").symlink_to(folder / "0006-loop.md")

    checked = run_cli("check", cwd=root, timeout=30)

    assert checked.returncode == 1
    assert "Traceback" not in checked.stderr
    lines = {line.split(":", 1)[0]: line for line in checked.stderr.splitlines()
             if ": error:" in line}
    rel = f"{folder.relative_to(root)}/"
    assert sorted(lines) == [f"{rel}0002-zero.md", f"{rel}0003-secret.md", f"{rel}0004-fifo.md",
                             f"{rel}0005-dangling.md", f"{rel}0006-loop.md"]
    assert "outside the content folder" in lines[f"{rel}0002-zero.md"]
    assert "outside the content folder" in lines[f"{rel}0003-secret.md"]
    assert "is a FIFO, not a record file" in lines[f"{rel}0004-fifo.md"]
    assert SECRET.strip() not in checked.stdout + checked.stderr

    archive = load_archive(root)  # the loader answers the MCP server the same way
    assert [r.id for r in archive.records] == ["local/adr/0001-local-choice"]


def test_folders_that_link_out_are_errors_and_not_read(tmp_path, secret):
    elsewhere = make_archive(tmp_path / "elsewhere")
    root = make_archive(tmp_path / "site")
    (root / "content" / "stolen").symlink_to(elsewhere / "content" / "local")
    (root / "content" / "local" / "rfc").symlink_to(secret.parent)

    archive = load_archive(root)

    errors = sorted(f"{f.path.name}: {f.message}" for f in archive.findings
                    if f.level == "error")
    assert len(errors) == 2 and all("outside the content folder" in e for e in errors), errors
    assert sorted(archive.projects) == ["local"]


def test_an_oversized_record_is_refused_at_its_file(tmp_path, monkeypatch):
    root = make_archive(tmp_path / "site")
    big = _record(root, "0002-big.md")
    big.write_text(record_text("Big") + "x" * (16 * 1024 * 1024 + 1))

    archive = load_archive(root)

    [finding] = [f for f in archive.findings if f.path == big]
    assert finding.line == 1 and "more than the 16,777,216 a record may hold" in finding.message


@pytest.mark.parametrize("path", ["/", "/proc", "/etc", "/usr/share"])
def test_sources_in_system_folders_are_one_line_each(tmp_path, path):
    root = make_archive(tmp_path / "site", f"- path: {path}\n")

    checked = run_cli("check", cwd=root, timeout=30)

    assert checked.returncode == 1
    assert "Traceback" not in checked.stderr
    errors = [line for line in checked.stderr.splitlines() if ": error:" in line]
    assert errors == [line for line in errors if line.startswith("site.yml:")]
    assert len(errors) == 1 and "is a folder of the machine" in errors[0]
