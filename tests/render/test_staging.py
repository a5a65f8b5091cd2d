"""The writer process that creates a build's staged files: order, refusals, its end."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from site_builder.render.output import staging
from site_builder.render.output.staging import Stager, StagingFailed
from tests.conftest import REPO, process_alive, wait_until_gone


def test_files_are_created_by_another_process_in_folders_made_first(tmp_path: Path) -> None:
    stager = Stager(tmp_path)
    assert stager._writer is not None and stager._writer.pid != os.getpid()
    pages = {f"project/adr/{n:04d}-x/index.html": f"page {n}".encode() * 500
             for n in range(300)}
    for rel, content in pages.items():
        stager.write(rel, content)
    stager.write("empty.txt", b"")
    stager.write("caf\u00e9/\udcff.md", b"odd names")  # not UTF-8 on disk: as handed over
    stager.flush()
    for rel, content in pages.items():
        assert (tmp_path / rel).read_bytes() == content
    assert (tmp_path / "empty.txt").read_bytes() == b""
    assert os.listdir(os.fsencode(tmp_path / "caf\u00e9")) == [b"\xff.md"]
    stager.close()
    assert stager._writer is None


def test_the_build_runs_ahead_of_a_writer_that_is_behind(tmp_path: Path) -> None:
    stager = Stager(tmp_path)
    writer = stager._writer
    assert writer is not None
    os.kill(writer.pid, signal.SIGSTOP)  # a writer stuck on a slow disk
    try:
        started = time.monotonic()
        for n in range(200):  # 4 MB: more than the pipe holds, less than the backlog
            stager.write(f"{n}/index.html", bytes([n % 256]) * 20_000)
        assert time.monotonic() - started < 5  # never waited for the writer
        assert not any(tmp_path.iterdir()) or len(list(tmp_path.iterdir())) < 200
    finally:
        os.kill(writer.pid, signal.SIGCONT)
    stager.flush()
    assert all((tmp_path / f"{n}/index.html").read_bytes() == bytes([n % 256]) * 20_000
               for n in range(200))
    stager.close()


def test_a_folder_for_this_thread_is_made_without_waiting_for_the_writer(
        tmp_path: Path) -> None:
    stager = Stager(tmp_path)
    writer = stager._writer
    assert writer is not None
    os.kill(writer.pid, signal.SIGSTOP)  # it holds every file handed over, none created yet
    resume = threading.Timer(3, os.kill, (writer.pid, signal.SIGCONT))  # a wait fails, not hangs
    resume.start()
    try:
        for n in range(50):
            stager.write(f"adr/{n:04d}.md", b"copy")
        stager.make_folder("")  # llms-full.txt, streamed by the build thread itself
        stager.make_folder("adr")  # a folder the writer is yet to make too
        (tmp_path / "adr" / "streamed.txt").write_bytes(b"here")
        assert not (tmp_path / "adr" / "0000.md").exists()  # nothing was waited for
    finally:
        resume.cancel()
        os.kill(writer.pid, signal.SIGCONT)
    stager.flush()
    assert sorted(p.name for p in (tmp_path / "adr").iterdir()) == sorted(
        [f"{n:04d}.md" for n in range(50)] + ["streamed.txt"])
    stager.close()


def test_a_refused_file_is_raised_with_its_path_and_nothing_after_it_is_created(
        tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("a file where a folder must go")
    stager = Stager(tmp_path)
    stager.write("first.html", b"1")
    stager.write("taken/page.html", b"2")
    with pytest.raises(StagingFailed) as raised:
        for n in range(200):  # the refusal reaches a later write, or the flush
            stager.write(f"after/{n}.html", b"3")
        stager.flush()
    assert raised.value.rel == "taken"
    assert raised.value.error.errno in (errno.EEXIST, errno.ENOTDIR)
    assert raised.value.error.filename == str(tmp_path / "taken")
    with pytest.raises(StagingFailed):
        stager.flush()  # said again, not forgotten
    stager.close()
    assert (tmp_path / "first.html").read_bytes() == b"1"
    assert not (tmp_path / "after").exists()


def test_a_writer_that_is_killed_is_one_error_not_a_hang(tmp_path: Path) -> None:
    stager = Stager(tmp_path)
    assert stager._writer is not None
    stager._writer.kill()
    stager._writer.wait()
    with pytest.raises(StagingFailed) as raised:
        for n in range(1000):
            stager.write(f"{n}.html", b"x" * 10_000)
        stager.flush()
    assert raised.value.error.errno == errno.EPIPE
    assert "writer process stopped" in str(raised.value.error)
    stager.close()


def test_without_a_writer_process_the_build_thread_creates_the_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(staging, "_start_writer", lambda root, reuse: None)
    stager = Stager(tmp_path)
    stager.write("a/b/c.html", b"here")
    assert (tmp_path / "a/b/c.html").read_bytes() == b"here"  # at once, in this process
    (tmp_path / "x").write_text("file")
    with pytest.raises(StagingFailed) as raised:
        stager.write("x/y.html", b"")
    assert raised.value.rel == "x"
    stager.close(drop=True)


def test_the_writer_dies_with_the_build(tmp_path: Path) -> None:
    """A build killed mid-way leaves no writer creating files in the folder the next
    build removes."""
    script = (f"import sys, time; sys.path.insert(0, {str(REPO)!r})\n"
              "from pathlib import Path\n"
              "from site_builder.render.output.staging import Stager\n"
              f"s = Stager(Path({str(tmp_path)!r}))\n"
              "s.write('a.html', b'x'); s.flush()\n"
              "print(s._writer.pid, flush=True)\n"
              "time.sleep(60)\n")
    build = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert build.stdout is not None
    writer = int(build.stdout.readline())
    assert (tmp_path / "a.html").exists()
    os.kill(build.pid, signal.SIGKILL)
    build.wait()
    wait_until_gone([writer])
    assert not process_alive(writer)

