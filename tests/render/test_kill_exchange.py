"""Where folders can be exchanged (renameat2), a killed build never leaves a mixed site, not
even for a moment: right after a `kill -9`, before any other command runs, the output folder
is exactly the old site or exactly the new one.

Archive A (2,000 bench-corpus records) is built; archive B renames every project (thousands
of files change), deletes a record and edits another. `site-builder build --force` of B is
started again and again over A's output and killed: at moments spread over the whole build,
and at targeted ones (while the new site is being staged, right after the exchange, while the
old site is being deleted). The output is looked at at once, with nothing run in between; the
next real build must then give B and leave nothing beside the output. Both on the ext4 file
system of the temporary folder (where the build stages in the spare site under
`.site-builder/`, mended in place) and on a tmpfs (/dev/shm, another file system than the
archive's: there it stages in a fresh sibling folder, deleted after the exchange).
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

from site_builder.config.site import load_config
from site_builder.render.site import spare_folder
from tests.conftest import REPO
from tests.render.test_kill import digest, make_b, put_back, siblings

RECORDS = 2000
SPREAD = 4
TMPFS = Path("/dev/shm")


def file_system(path: Path) -> str:
    """The type of the file system `path` is on, as /proc/mounts names it."""
    best, kind = "", "?"
    for line in Path("/proc/mounts").read_text().splitlines():
        _, point, fs_type, *_ = line.split()
        if (path.as_posix() + "/").startswith(point.rstrip("/") + "/") and len(point) > len(best):
            best, kind = point, fs_type
    return kind


@pytest.fixture
def archives(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """Archive A built, and archive B beside it."""
    base = tmp_path / "archives"
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


def staging(root: Path, site: Path, pid: int) -> Path:
    """Where a build of `root` into `site` by `pid` stages: the spare site under
    `.site-builder/` when it is on the output's file system, else a sibling of the output."""
    config, _ = load_config(root)
    assert config is not None
    spare = spare_folder(config, site)
    if spare.parent.is_dir() and spare.parent.stat().st_dev == site.parent.stat().st_dev:
        return spare
    return site.with_name(f"{site.name}.tmp-{pid}")


Moment = Callable[[], bool]


def looked(check: Moment) -> Moment:
    """`check`, False while the folders it looks at come and go under it."""
    def safely() -> bool:
        try:
            return check()
        except (FileNotFoundError, NotADirectoryError):
            return False
    return safely


def when_staged(stage: Path, site: Path, started: float) -> Moment:
    """True once this build has staged decisions.json (among its first files)."""
    return looked(lambda: (stage / "decisions.json").stat().st_mtime > started)


def when_exchanged(stage: Path, site: Path, started: float) -> Moment:
    """True once the output folder is another folder than A's."""
    old = site.stat().st_ino
    return looked(lambda: site.stat().st_ino != old)


def when_deleting(stage: Path, site: Path, started: float) -> Moment:
    """True once the old site, now under the staging name, is there to be deleted (or, in
    the spare, kept)."""
    exchanged = when_exchanged(stage, site, started)
    return looked(lambda: exchanged() and stage.is_dir())


TARGETS = {"staging": when_staged, "exchanged": when_exchanged, "deleting": when_deleting}


def test_a_killed_build_leaves_the_old_or_the_new_site_at_every_moment(
        archives: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = archives
    on_tmpfs = TMPFS / f"site-builder-test-{uuid.uuid4().hex}"
    on_tmpfs.mkdir()
    try:
        for where, base in (("ext4", tmp_path), ("tmpfs", on_tmpfs)):
            assert file_system(base) == where, f"{base} is not on {where}"
            run_kills(a, b, base)
    finally:
        shutil.rmtree(on_tmpfs, ignore_errors=True)


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
        started = time.time()
        process = build(b, site)
        if isinstance(when, float):
            time.sleep(when)
        else:
            reached = TARGETS[when](staging(b, site, process.pid), site, started)
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
    started = time.time()
    process = build(b, site)
    reached = when_staged(staging(b, site, process.pid), site, started)
    while not reached() and process.poll() is None:
        pass
    process.kill()
    process.wait()
    assert build(b, site).wait() == 0
    assert digest(site) == site_b
    assert siblings(site) == []
