"""Where folders can be exchanged (renameat2), a killed build never leaves a mixed site, not
even for a moment: right after a `kill -9`, before any other command runs, the output folder
is exactly the old site or exactly the new one.

Archive A (2,000 bench-corpus records) is built; archive B renames every project (thousands
of files change), deletes a record and edits another. `site-builder build --force` of B is
started again and again over A's output and killed: at moments spread over the whole build,
and at targeted ones (while the new site is being staged, right after the exchange, while the
old site is being deleted). The output is looked at at once, with nothing run in between; the
next real build must then give B and leave nothing beside the output. Both on the ext4 file
system of the temporary folder and on a tmpfs (/dev/shm), where file systems differ most in
what they support.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.render.test_kill import digest, make_b, siblings

RECORDS = 2000
SPREAD = 5
TMPFS = Path("/dev/shm")


def file_system(path: Path) -> str:
    """The type of the file system `path` is on, as /proc/mounts names it."""
    best, kind = "", "?"
    for line in Path("/proc/mounts").read_text().splitlines():
        _, point, fs_type, *_ = line.split()
        if (path.as_posix() + "/").startswith(point.rstrip("/") + "/") and len(point) > len(best):
            best, kind = point, fs_type
    return kind


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """Archive A built (its site kept aside as `pristine`), and archive B beside it."""
    base = tmp_path_factory.mktemp("exchange")
    a = base / "a"
    subprocess.run([sys.executable, str(REPO / "bench/make_corpus.py"), str(a), str(RECORDS)],
                   check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "site_builder", "build", "--root", str(a)],
                   check=True, capture_output=True)
    b = base / "b"
    shutil.copytree(a, b, symlinks=True, ignore=shutil.ignore_patterns("_site"))
    make_b(b)
    yield a, b


def build(root: Path, output: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "site_builder", "build", "--root", str(root),
                             "--output", str(output), "--force", "--jobs", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def put_back(pristine: Path, site: Path) -> None:
    """Make `site` site A again (hard links to the pristine copy), nothing beside it."""
    for path in site.parent.glob(f"{site.name}*"):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    shutil.copytree(pristine, site, symlinks=True, copy_function=os.link)


def staging(site: Path, pid: int) -> Path:
    return site.with_name(f"{site.name}.tmp-{pid}")


def when_staged(site: Path, pid: int) -> Callable[[], bool]:
    """True once the staged site holds a few hundred entries."""
    stage = staging(site, pid)
    return lambda: stage.is_dir() and sum(1 for _ in stage.iterdir()) >= 3


def when_exchanged(site: Path, pid: int) -> Callable[[], bool]:
    """True once the output folder is another folder than A's."""
    old = site.stat().st_ino
    return lambda: site.stat().st_ino != old


def when_deleting(site: Path, pid: int) -> Callable[[], bool]:
    """True once the old site, now under the staging name, has begun to go."""
    exchanged = when_exchanged(site, pid)
    stage = staging(site, pid)
    return lambda: exchanged() and stage.is_dir() and not (stage / "index.html").exists()


TARGETS = {"staging": when_staged, "exchanged": when_exchanged, "deleting": when_deleting}


@pytest.mark.parametrize("where", ["ext4", "tmpfs"])
def test_a_killed_build_leaves_the_old_or_the_new_site_at_every_moment(
        where: str, archives: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = archives
    base = tmp_path if where == "ext4" else TMPFS / f"site-builder-test-{uuid.uuid4().hex}"
    base.mkdir(exist_ok=True)
    assert file_system(base) == where, f"{base} is not on {where}"
    try:
        run_kills(a, b, base)
    finally:
        if where == "tmpfs":
            shutil.rmtree(base, ignore_errors=True)


def run_kills(a: Path, b: Path, base: Path) -> None:
    pristine, site = base / "pristine", base / "_site"
    shutil.copytree(a / "_site", pristine, symlinks=True)
    site_a = digest(pristine)

    shutil.copytree(pristine, site, symlinks=True, copy_function=os.link)
    started = time.monotonic()
    whole = build(b, site)
    assert whole.wait() == 0
    seconds = time.monotonic() - started
    site_b = digest(site)
    assert site_a != site_b and len(set(site_a) - set(site_b)) >= 2

    kills: list[tuple[str, float | str]] = [("spread", seconds * (n + 0.5) / SPREAD)
                                           for n in range(SPREAD)]
    kills += [("target", name) for name in TARGETS]
    seen = []
    for kind, when in kills:
        put_back(pristine, site)
        process = build(b, site)
        if isinstance(when, float):
            time.sleep(when)
        else:
            reached = TARGETS[when](site, process.pid)
            deadline = time.monotonic() + 120
            while not reached() and process.poll() is None and time.monotonic() < deadline:
                pass  # spin: the moment may last a few milliseconds
        process.kill()
        process.wait()
        now = digest(site)  # at once: no command between the kill and this look
        state = "A" if now == site_a else "B" if now == site_b else "mixed"
        seen.append((kind, when, state))
        assert state != "mixed", f"a kill at {when} left a mixed site: {seen}"
    # Kills landed on both sides of the exchange.
    assert {state for _, _, state in seen} == {"A", "B"}, seen

    # The next real build over a killed one gives B, and cleans up what the kill left.
    put_back(pristine, site)
    process = build(b, site)
    reached = when_staged(site, process.pid)
    while not reached() and process.poll() is None:
        pass
    process.kill()
    process.wait()
    assert build(b, site).wait() == 0
    assert digest(site) == site_b
    assert siblings(site) == []
