"""The archive's own templates, theme files, site.yml and _project.yml are read only as
regular files inside the archive: real symlinks out and real FIFOs, through the real command
in a subprocess with a timeout (a FIFO opened for reading would hang it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.sources.conftest import make_archive

SECRET = "root:x:0:0:the build machine's own file"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "outside" / "secret.txt"
    path.parent.mkdir()
    path.write_text(SECRET + "\n")
    return path


def _errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ": error:" in line]


def _published(site: Path) -> str:
    return "".join(p.read_text(errors="replace") for p in site.rglob("*") if p.is_file())


@pytest.mark.parametrize("place", ["templates/base.html", "templates/partials/row.html",
                                   "theme/site.css", "theme/extra.css"])
def test_an_override_that_links_out_is_one_error_and_never_read(
        tmp_path: Path, secret: Path, place: str) -> None:
    root = make_archive(tmp_path / "site")
    link = root / place
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(secret)
    for command in ("check", "build"):
        result = run_cli(command, cwd=root, timeout=60)
        assert result.returncode == 1, result.stdout + result.stderr
        errors = _errors(result.stderr)
        assert len(errors) == 1, errors
        assert errors[0].startswith(f"{place}:1: error: is a symlink to {secret}, outside "
                                    "the archive"), errors[0]
    assert not (root / "_site").exists()


def test_an_override_folder_that_is_a_symlink_out_is_an_error(tmp_path: Path,
                                                              secret: Path) -> None:
    root = make_archive(tmp_path / "site")
    (root / "templates").symlink_to(secret.parent)
    result = run_cli("check", cwd=root, timeout=60)
    assert result.returncode == 1
    assert [e.split(": error: ")[0] for e in _errors(result.stderr)] == ["templates:1"]


@pytest.mark.parametrize("place", ["templates/base.html", "theme/site.css"])
def test_a_fifo_override_is_an_error_and_nothing_hangs(tmp_path: Path, place: str) -> None:
    root = make_archive(tmp_path / "site")
    (root / place).parent.mkdir(parents=True)
    os.mkfifo(root / place)
    result = run_cli("build", cwd=root, timeout=60)
    assert result.returncode == 1
    errors = _errors(result.stderr)
    assert errors == [f"{place}:1: error: is a FIFO, not a file; templates and theme files "
                      "must be regular files"]


def test_overrides_that_stay_inside_are_used(tmp_path: Path) -> None:
    root = make_archive(tmp_path / "site")
    (root / "shared").mkdir()
    (root / "shared" / "extra.css").write_text("/* the archive's own */\n")
    (root / "theme").mkdir()
    (root / "theme" / "extra.css").symlink_to(root / "shared" / "extra.css")
    built = run_cli("build", cwd=root, timeout=120)
    assert built.returncode == 0, built.stderr
    assert "/* the archive's own */" in _published(root / "_site")


def test_a_site_yml_that_links_out_is_one_error(tmp_path: Path, secret: Path) -> None:
    root = make_archive(tmp_path / "site")
    (root / "site.yml").unlink()
    (root / "site.yml").symlink_to(secret)
    for command in ("check", "build"):
        result = run_cli(command, cwd=root, timeout=60)
        assert result.returncode == 1
        assert SECRET not in result.stdout + result.stderr
        errors = _errors(result.stderr)
        assert len(errors) == 1 and errors[0].startswith(
            f"site.yml:1: error: site.yml is a symlink to {secret}, outside "), errors


@pytest.mark.parametrize("make", ["symlink", "fifo", "device"])
def test_a_project_yml_that_is_no_regular_file_inside_is_one_error(
        tmp_path: Path, secret: Path, make: str) -> None:
    root = make_archive(tmp_path / "site")
    path = root / "content" / "local" / "_project.yml"
    if make == "symlink":
        path.symlink_to(secret)
    elif make == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    result = run_cli("check", cwd=root, timeout=60)
    assert result.returncode == 1, result.stderr
    errors = _errors(result.stderr)
    assert len(errors) == 1, errors
    assert errors[0].startswith("content/local/_project.yml:1: error: _project.yml is "), errors
    assert SECRET not in result.stderr
