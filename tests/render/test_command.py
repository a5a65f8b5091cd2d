"""Progress on long work: a counter with totals and phase names on a terminal (a real
pseudo-terminal here), plain lines without control characters anywhere else."""

from __future__ import annotations

import io
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

from site_builder.cli.progress import ProgressLine
from tests.conftest import run_cli

IMMEDIATE = {"SITE_BUILDER_PROGRESS_AFTER": "0"}  # show progress even for a short build
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # anything but \t and \n


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_short_build_shows_no_progress() -> None:
    stream = Terminal()
    progress = ProgressLine(stream, delay=60)
    progress("writing pages", 64, 100)
    progress.clear()
    assert stream.getvalue() == ""


def test_the_terminal_line_names_the_phase_and_counts_to_the_total() -> None:
    stream = Terminal()
    progress = ProgressLine(stream, delay=0)
    progress("writing pages", 50, 100)
    progress.clear()
    assert stream.getvalue() == (
        "\r\033[K[2/3] writing pages 50/100 ▕██████████░░░░░░░░░░▏ 50%\r\033[K")


def test_a_log_gets_plain_lines() -> None:
    stream = io.StringIO()
    progress = ProgressLine(stream, delay=0)
    progress("loading records", 0, 0)
    progress("writing pages", 1, 300)
    progress("writing pages", 2, 300)  # the same phase within 10 s: no new line
    progress("finishing", 0, 0)
    progress.clear()
    assert stream.getvalue() == ("[1/3] loading records…\n[2/3] writing pages 1/300\n"
                                 "[3/3] finishing…\n")


def _on_a_terminal(args: list[str], until: str, timeout: float = 120) -> str:
    """Run site-builder with stderr on a new pseudo-terminal; return what it wrote there,
    read until `until` appears (or the process ends)."""
    main, secondary = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "site_builder", *args],
                               stdout=subprocess.PIPE, stderr=secondary,
                               env={**os.environ, **IMMEDIATE})
    os.close(secondary)
    seen = b""
    end = time.monotonic() + timeout
    try:
        while until.encode() not in seen and time.monotonic() < end:
            ready, _, _ = select.select([main], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the process closed its end
                    break
                if not chunk:
                    break
                seen += chunk
            elif process.poll() is not None:
                break
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(timeout=30)
        os.close(main)
    return seen.decode("utf-8", errors="replace")


def _pages(text: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in re.findall(r"\[2/3\] writing pages (\d+)/(\d+)", text)]


def test_build_on_a_terminal_shows_phases_and_totals(site_root: Path) -> None:
    text = _on_a_terminal(["build", "--root", str(site_root)], until="Built ")
    assert "[1/3] loading records" in text
    counts = _pages(text)
    assert counts and counts[-1][0] == counts[-1][1] > 1  # counted up to its total
    assert "[3/3] finishing" in text
    assert "\r\033[K" in text
    # The summary stands alone on its line, after the progress line is erased.
    assert "\r\033[KBuilt " in text


def test_a_cold_serve_on_a_terminal_shows_phases_and_totals(site_root: Path) -> None:
    text = _on_a_terminal(["serve", "--root", str(site_root), "--port", "0"],
                          until="site-builder serve: built ")
    # serve answers before its first build, which reports when it is in.
    assert re.search(r"site-builder serve: built \d+ files in \d+\.\d s", text), text
    assert "[1/3] loading records" in text
    assert _pages(text) and _pages(text)[-1][0] == _pages(text)[-1][1]


def test_without_a_terminal_progress_is_plain_lines(site_root: Path) -> None:
    result = run_cli("build", "--root", str(site_root), env=IMMEDIATE)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == "[1/3] loading records…"
    assert re.fullmatch(r"\[2/3\] writing pages 1/\d+", lines[1])
    assert "[3/3] finishing…" in lines
    assert lines[-1].startswith("Built ")
    assert not CONTROL.search(result.stderr)


def test_before_the_delay_a_build_prints_only_its_summary(site_root: Path) -> None:
    result = run_cli("build", "--root", str(site_root),
                     env={"SITE_BUILDER_PROGRESS_AFTER": "600"})
    assert result.returncode == 0
    assert result.stderr.startswith("Built ") and result.stderr.count("\n") == 1
