"""Where folders cannot be exchanged, a build killed with SIGKILL at any moment leaves the
whole old or the whole new site once the journal is undone.

Archive A (300 bench-corpus records) is built; archive B renames every project (356 files
change, no body is rendered again), deletes a record (its page folder and Markdown copy go)
and edits another. A real
`site-builder build` of B is started on a copy of A's folder again and again and killed with
`kill -9`: half at moments spread over the whole build, half at moments spread over its
commit (the journal's life, watched from here). Between kills only the output is put back to
site A (as hard links: the output's files are only ever replaced, never written into). After
each kill the next build's first step (`journal.recover`, what `Output` does on entry) must
leave every byte of the output equal to site A or to site B; the next real build must then
give B.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench.site_builder_target import WITHOUT_EXCHANGE
from site_builder.render.output.journal import recover
from tests.conftest import REPO

RECORDS = 300
KILLS_SPREAD = 6
KILLS_IN_COMMIT = 14


def digest(site: Path) -> dict[str, str]:
    """Every file of a site folder by path, as a SHA-256 of its bytes (links and folders
    named, so that a stray one counts)."""
    found: dict[str, str] = {}
    for folder, folders, files in os.walk(site):
        for name in folders + files:
            path = Path(folder, name)
            rel = path.relative_to(site).as_posix()
            if path.is_symlink():
                found[rel] = "link"
            elif path.is_file():
                found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            elif not any(path.iterdir()):
                found[rel] = "empty folder"
    return found


def make_b(root: Path) -> None:
    """Turn a copy of archive A into archive B."""
    projects = sorted(root.glob("content/*/_project.yml"))
    assert len(projects) == 10
    for project in projects:
        lines = project.read_text().splitlines(keepends=True)
        assert lines[0].startswith("name: ")
        project.write_text(lines[0].rstrip("\n") + " B\n" + "".join(lines[1:]))
    records = sorted((root / "content/payments/adr").glob("*.md"))
    records[-1].unlink()  # the newest payments ADR: no other record names it
    with records[0].open("a") as stream:
        stream.write("\nEdited for archive B.\n")


# Builds on a system without renameat2 (WITHOUT_EXCHANGE): the commit goes through the
# journal. test_kill_exchange.py kills the exchange's commit.
def start_build(root: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", WITHOUT_EXCHANGE, "build", "--root",
                             str(root), "--jobs", "1"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def put_back(old: Path, site: Path) -> None:
    """Make `site` a copy of the built site `old` again (mtimes kept), nothing beside it."""
    for path in site.parent.glob(f"{site.name}*"):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    shutil.copytree(old, site, symlinks=True, copy_function=os.link)


def siblings(site: Path) -> list[str]:
    return sorted(p.name for p in site.parent.iterdir()
                  if p.name.startswith(site.name) and p != site)


def test_a_build_killed_at_any_moment_leaves_the_old_or_the_new_site(tmp_path: Path) -> None:
    pristine = tmp_path / "a"
    subprocess.run([sys.executable, str(REPO / "bench/make_corpus.py"), str(pristine),
                    str(RECORDS)], check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "site_builder", "build", "--root", str(pristine),
                    "--jobs", "1"], check=True, capture_output=True)
    site_a = digest(pristine / "_site")

    work = tmp_path / "work"
    shutil.copytree(pristine, work, symlinks=True)
    make_b(work)

    # One uninterrupted build of B over A: its site, how long it takes, when its commit runs.
    started = time.monotonic()
    build = start_build(work)
    journal = work / f"_site.journal-{build.pid}"
    commit_start = commit_end = None
    while build.poll() is None:
        now = time.monotonic()
        if journal.exists():
            commit_start = commit_start or now
        elif commit_start is not None and commit_end is None:
            commit_end = now
        time.sleep(0.001)
    assert build.returncode == 0
    whole = time.monotonic() - started
    site_b = digest(work / "_site")
    assert site_a != site_b and len(set(site_a) - set(site_b)) >= 2
    assert commit_start is not None, "the commit's journal was never seen"
    commit = (commit_end or time.monotonic()) - commit_start

    delays = [("spread", whole * (n + 0.5) / KILLS_SPREAD) for n in range(KILLS_SPREAD)]
    delays += [("commit", commit * n / KILLS_IN_COMMIT) for n in range(KILLS_IN_COMMIT)]
    outcomes: list[tuple[str, bool, bool, str]] = []
    for kind, delay in delays:
        put_back(pristine / "_site", work / "_site")
        build = start_build(work)
        journal = work / f"_site.journal-{build.pid}"
        if kind == "spread":
            time.sleep(delay)
        else:
            deadline = time.monotonic() + 60
            while not journal.exists() and build.poll() is None and time.monotonic() < deadline:
                time.sleep(0.001)
            time.sleep(delay)
        build.kill()
        build.wait()
        in_commit = journal.exists()
        before = digest(work / "_site")
        mixed = before not in (site_a, site_b)
        recover(work / "_site")
        after = digest(work / "_site")
        state = "A" if after == site_a else "B" if after == site_b else "mixed"
        outcomes.append((kind, in_commit, mixed, state))
        assert state != "mixed", f"{kind} kill after {delay:.3f} s left a mixed site"
        assert siblings(work / "_site") == [], "recovery left staging or journal behind"

    # The kills reached the commit, and there recovery had real work to do.
    assert sum(in_commit for _, in_commit, _, _ in outcomes) >= 3, outcomes
    assert any(mixed for _, _, mixed, _ in outcomes), outcomes

    # The next real build (of B) over a killed one gives B.
    put_back(pristine / "_site", work / "_site")
    build = start_build(work)
    while not list(work.glob("_site.journal-*")) and build.poll() is None:
        time.sleep(0.001)
    build.kill()
    build.wait()
    subprocess.run([sys.executable, "-c", WITHOUT_EXCHANGE, "build", "--root", str(work),
                    "--jobs", "1"], check=True, capture_output=True)
    assert digest(work / "_site") == site_b
    assert siblings(work / "_site") == []
