"""Shared fixtures: the example site, fixture archives copied to a temporary folder, the CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest

from bench.site_builder_target import WITHOUT_EXCHANGE
from site_builder.archive import record_file

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXAMPLE_SITE = REPO / "example-site"
TEST_OUTPUT = REPO / "tests" / "output"

# The machine-wide cache (compiled built-in templates, render/theme.machine_cache) goes to a
# folder of this test process, and every command the tests start inherits it: the tests
# neither read what a build on this machine left nor leave anything in the user's home.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="site-builder-test-cache-")


@pytest.fixture
def example_root(tmp_path: Path) -> Path:
    """A private copy of example-site/ (tests may build or edit it)."""
    target = tmp_path / "example-site"
    shutil.copytree(EXAMPLE_SITE, target, ignore=shutil.ignore_patterns("_site", ".site-builder"))
    return target


@pytest.fixture
def fixture_archive(tmp_path: Path) -> Callable[[str], Path]:
    """Copy `tests/fixtures/<name>` to a temporary folder and return the copy."""

    def copy(name: str) -> Path:
        target = tmp_path / name
        # A fixture read in place inside this repository keeps a citations cache there.
        shutil.copytree(FIXTURES / name, target, ignore=shutil.ignore_patterns(".site-builder"))
        return target

    return copy


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path]]:
    """The record files the loader parses from here on."""
    seen: list[Path] = []
    real = record_file.parse_file

    def counted(path: Path, ctx: object) -> object:
        seen.append(path)
        return real(path, ctx)  # type: ignore[arg-type]

    monkeypatch.setattr(record_file, "parse_file", counted)
    yield seen


def run_cli(*args: str, cwd: Path | None = None, timeout: float = 120,
            input: str | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run `python -m site_builder ARGS` in a real subprocess and capture its output.

    `env` adds to (or overrides) this process's environment.
    """
    return subprocess.run([sys.executable, "-m", "site_builder", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, input=input,
                          check=False, env={**os.environ, **env} if env else None)


def run_cli_without_exchange(*args: str,
                             timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`run_cli` on a system without renameat2 (WITHOUT_EXCHANGE)."""
    return subprocess.run([sys.executable, "-c", WITHOUT_EXCHANGE, *args], capture_output=True,
                          text=True, timeout=timeout, check=False)


def edit_text(path: Path, old: str, new: str) -> None:
    """Replace `old` by `new` in a file, failing the test when `old` is not there."""
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def process_alive(pid: int) -> bool:
    """True while the process `pid` runs (Linux); one that ended but was not yet reaped by
    its parent (a zombie) has ended."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def wait_until_gone(pids: list[int], seconds: float = 10) -> None:
    """Wait up to `seconds` for every process of `pids` to end."""
    deadline = time.monotonic() + seconds
    while any(process_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.02)


class MemorySite:
    """A SiteWriter that keeps every file's bytes, in the order they were written."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.written: set[str] = set()

    def write(self, rel: str, data: str | bytes | Iterable[bytes]) -> None:
        if isinstance(data, str):
            data = data.encode("utf-8")
        elif not isinstance(data, bytes):
            data = b"".join(data)
        self.files[rel] = data
        self.written.add(rel)

    def copy(self, rel: str, source: Path) -> None:
        self.write(rel, source.read_bytes())

    def exists(self, rel: str) -> bool:
        return rel in self.files
