"""The file system says no: each refusal is one line naming the path, exit 1, the old site.

Real refusals, made as root can make them: an immutable folder (`chattr +i`, EPERM: root
ignores mode bits), a read-only bind mount (EROFS), a full tmpfs (ENOSPC) and an output
folder that is itself a mount point (EXDEV). Also: a second build waits for the first, and
render workers that cannot start fail the build at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from site_builder.render.site import build_site
from tests.conftest import (
    edit_text,
    process_alive,
    run_cli,
    run_cli_without_exchange,
    wait_until_gone,
)
from tests.render.test_kill import digest, siblings


def retitle(root: Path) -> None:
    """Change the site title: every page and agent file changes."""
    edit_text(root / "site.yml", "title: Acme [decisions]", "title: Acme, retitled")


def one_line(stderr: str) -> str:
    """The build's only output line, checked to be one line and no traceback."""
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("site-builder: ")
    return lines[0]


@contextlib.contextmanager
def mounted(*commands: list[str], at: Path) -> Iterator[None]:
    for command in commands:
        subprocess.run(command, check=True, capture_output=True)
    try:
        yield
    finally:
        subprocess.run(["umount", str(at)], check=True, capture_output=True)


def test_an_immutable_subfolder_fails_the_commit_and_leaves_the_old_site(
        site_root: Path) -> None:
    site = site_root / "_site"
    build_site(site_root, jobs=1)
    before = digest(site)
    retitle(site_root)
    locked = site / "web"
    subprocess.run(["chattr", "+i", str(locked)], check=True)
    try:  # the journal's commit: an exchange swaps the whole folder, immutable parts too
        done = run_cli_without_exchange("build", "--root", str(site_root), "--jobs", "1")
    finally:
        subprocess.run(["chattr", "-i", str(locked)], check=True)
    line = one_line(done.stderr)
    assert done.returncode == 1
    assert str(locked) in line and "Operation not permitted" in line
    # The files renamed in before the refusal (index.html, AGENTS.md…) were put back.
    assert digest(site) == before
    assert siblings(site) == []
    assert run_cli("build", "--root", str(site_root), "--jobs", "1").returncode == 0
    assert digest(site) != before


def test_a_read_only_output_parent_is_one_line(site_root: Path, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    site = folder / "_site"
    build_site(site_root, output=site, jobs=1)
    before = digest(site)
    retitle(site_root)
    with mounted(["mount", "--bind", str(folder), str(folder)],
                 ["mount", "-o", "remount,ro,bind", str(folder)], at=folder):
        done = run_cli("build", "--root", str(site_root), "--jobs", "1",
                       "--output", str(site))
        line = one_line(done.stderr)
        assert done.returncode == 1
        assert str(folder) in line and "Read-only file system" in line
        assert digest(site) == before
        assert siblings(site) == []


def test_a_full_disk_is_one_line_and_the_old_site_stays(site_root: Path,
                                                        tmp_path: Path) -> None:
    folder = tmp_path / "small"
    folder.mkdir()
    site = folder / "_site"
    with mounted(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(folder)], at=folder):
        build_site(site_root, output=site, jobs=1)
        before = digest(site)
        retitle(site_root)
        space = os.statvfs(folder)
        with open(folder / "filler", "wb") as stream:  # leave a few KB: too few to stage
            left = space.f_bavail * space.f_frsize - 8192
            while left > 0:
                left -= stream.write(b"\0" * min(left, 1 << 20))
        done = run_cli("build", "--root", str(site_root), "--jobs", "1",
                       "--output", str(site))
        line = one_line(done.stderr)
        assert done.returncode == 1
        assert str(site) in line and "No space left on device" in line
        assert digest(site) == before
        assert siblings(site) == []


def test_an_output_on_another_filesystem_than_its_parent_is_one_line(
        site_root: Path, tmp_path: Path) -> None:
    site = tmp_path / "_site"
    site.mkdir()
    with mounted(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(site)], at=site):
        (site / "old.html").write_text("the old site")
        done = run_cli("build", "--root", str(site_root), "--jobs", "1",
                       "--output", str(site))
        line = one_line(done.stderr)
        assert done.returncode == 1
        assert str(site) in line and "cross-device" in line
        assert digest(site) == {"old.html": digest(site)["old.html"]}
        assert (site / "old.html").read_text() == "the old site"
        assert siblings(site) == []


def test_a_second_build_waits_for_the_first_and_says_so(site_root: Path) -> None:
    build_site(site_root, jobs=1)
    retitle(site_root)
    before = digest(site_root / "_site")
    lock = site_root / ".site-builder/build.lock"
    fd = os.open(lock, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)  # what a running build holds
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    try:
        second = subprocess.Popen([sys.executable, "-m", "site_builder", "build", "--root",
                                   str(site_root), "--jobs", "1"],
                                  stderr=subprocess.PIPE, text=True)
        assert second.stderr is not None
        ready, _, _ = select.select([second.stderr], [], [], 60)
        assert ready, "the second build said nothing for 60 s"
        line = second.stderr.readline()
        assert line.startswith(f"site-builder: another build (process {os.getpid()}) "
                               f"holds {lock}; waiting")
        time.sleep(0.3)
        assert second.poll() is None
        assert digest(site_root / "_site") == before
    finally:
        os.close(fd)
    assert second.wait(timeout=60) == 0
    assert "Built 5 records" in second.stderr.read()
    assert digest(site_root / "_site") != before


WRAPPER = """
import errno, multiprocessing, os, runpy, sys
from site_builder.render import parallel
parallel.PARALLEL_FROM = parallel.FORK_FROM = 2  # the fixture's five bodies go to workers,
parallel.PARALLEL_WEIGHT = parallel.FORK_WEIGHT = 0  # however little Markdown they hold,
parallel.start_method = lambda memory=0: {method!r}
multiprocessing.set_executable("/nonexistent/python3")  # which cannot be spawned

def no_fork():  # nor forked: the system's limit of processes is reached
    raise OSError(errno.EAGAIN, os.strerror(errno.EAGAIN))

os.fork = no_fork
sys.argv[0] = "site_builder"
runpy.run_module("site_builder", run_name="__main__", alter_sys=True)
"""


def _edited_build(site_root: Path, wrapper: Path,
                  script: str) -> tuple[dict[str, str], list[str]]:
    """Build once, edit a record, and write `script` (a wrapper of the CLI) to `wrapper`:
    the digest of the output before, and the command that builds the edit with two jobs."""
    build_site(site_root, jobs=1)
    before = digest(site_root / "_site")
    retitle(site_root)
    wrapper.write_text(script)
    return before, [sys.executable, str(wrapper), "build", "--root", str(site_root),
                    "--jobs", "2"]


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_workers_that_cannot_start_fail_the_build_at_once(site_root: Path, tmp_path: Path,
                                                          method: str) -> None:
    before, command = _edited_build(site_root, tmp_path / "broken_workers.py",
                                    WRAPPER.format(method=method))
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    ours = [line for line in done.stderr.splitlines() if line.startswith("site-builder")]
    assert len(ours) == 1, done.stderr
    assert ours[0].startswith("site-builder: render worker processes could not start")
    assert ours[0].endswith("; try again with --jobs 1 to render in this process")
    assert "Traceback" not in done.stderr
    assert digest(site_root / "_site") == before


INTERRUPTED = """
import runpy, sys, time
from site_builder.render import parallel
from site_builder.render.pages import rendering as pages
parallel.start_method = lambda memory=0: {method!r}
parallel.PARALLEL_FROM = parallel.FORK_FROM = 2  # the fixture's five bodies go to workers
parallel.PARALLEL_WEIGHT = parallel.FORK_WEIGHT = 0
parallel.FORK_WEIGHT_EACH = 1
render_pages = pages.render_pages

def slowly(*args, **kwargs):  # the writer and the workers are running by now
    print("writing pages", flush=True)
    time.sleep(60)
    return render_pages(*args, **kwargs)

pages.render_pages = slowly
sys.argv[0] = "site_builder"
runpy.run_module("site_builder", run_name="__main__", alter_sys=True)
"""


def _group(leader: int) -> list[int]:
    """The processes of the process group `leader` leads."""
    members = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with (contextlib.suppress(OSError, IndexError),
                  open(f"/proc/{entry}/stat", encoding="ascii") as stat):
                if int(stat.read().rsplit(") ", 1)[1].split()[2]) == leader:
                    members.append(int(entry))
    return members


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_ctrl_c_stops_the_build_and_its_helpers_without_a_traceback(
        site_root: Path, tmp_path: Path, method: str) -> None:
    """Ctrl-C reaches every process of the terminal's group: the writer and the workers leave
    it to the build, which stops them, changes nothing and exits 130."""
    before, command = _edited_build(site_root, tmp_path / "interrupted.py",
                                    INTERRUPTED.format(method=method))
    build = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
    assert build.stdout is not None
    assert build.stdout.readline() == "writing pages\n"
    helpers = [pid for pid in _group(build.pid) if pid != build.pid]
    assert len(helpers) >= 3  # the writer and two workers
    os.killpg(build.pid, signal.SIGINT)
    _, stderr = build.communicate(timeout=60)
    assert build.returncode == 130
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    wait_until_gone(helpers)
    assert not any(process_alive(pid) for pid in helpers)
    assert digest(site_root / "_site") == before


def test_an_output_that_is_a_file_is_refused_before_anything_is_built(
        site_root: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_text("not a site")
    done = run_cli("build", "--root", str(site_root), "--jobs", "1", "--output", str(target))
    assert done.returncode == 1
    assert str(target) in one_line(done.stderr)
    assert target.read_text() == "not a site"
    assert siblings(target) == []
