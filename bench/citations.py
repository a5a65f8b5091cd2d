"""How long finding the records a repository's code cites takes, cold and unchanged.

    python bench/citations.py                 # a 10,000-file repository (2-8 KB per file)
    python bench/citations.py --files 2000 --runs 3

Writes a git repository under bench/work/citations-<N>/ holding an archive of 50 records and
N tracked code files, one in twenty citing a record (by ref, short ref or page link), then
times in this process, `--runs` times each:
- cold: no citations cache (`.site-builder/cache/citations.json` deleted), so every blob is
  listed, read through `git cat-file --batch` and searched;
- unchanged: the cache of the run before, so nothing is read but the two git listings;
- matched: the citations of the loaded archive worked out from an unchanged scan.
Targets (issue 28): cold ≤ 2 s, unchanged ≤ 0.2 s at 10,000 files.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
if __name__ == "__main__":  # run as a script: import site_builder from this checkout
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
    sys.path.insert(0, str(HERE.parent))

from site_builder.archive import codescan  # noqa: E402
from site_builder.archive.citations import cite  # noqa: E402
from site_builder.sources.load import load_archive  # noqa: E402

RECORDS = 50
COLD_LIMIT, UNCHANGED_LIMIT = 2.0, 0.2
_WORDS = ("def", "return", "self", "value", "path", "record", "archive", "config", "import",
          "None", "True", "for", "in", "if", "else", "cache", "build", "page", "line", "=")


def _code(rng: random.Random, index: int) -> str:
    """One file of plausible code, 2-8 KB; one in twenty cites a record."""
    lines: list[str] = []
    size, written = rng.randint(2_000, 8_000), 0
    while written < size:
        lines.append("    " * rng.randint(0, 3) + " ".join(rng.choices(_WORDS, k=10)))
        written += len(lines[-1]) + 1
    if index % 20 == 0:
        number = index // 20 % RECORDS + 1
        lines.insert(rng.randint(0, len(lines)), rng.choice((
            f"# CORE-ADR-{number:04d}: why this is so",
            f"# see ADR-{number:04d}",
            f"# https://decisions.example/core/adr/{number:04d}-decision-{number}/")))
    return "\n".join(lines) + "\n"


def make_repository(folder: Path, files: int) -> Path:
    """The repository (written once per size); returns the archive's root."""
    root = folder / "decisions"
    if (folder / ".git").is_dir():
        return root
    rng = random.Random(files)
    records = root / "content" / "core" / "adr"
    records.mkdir(parents=True)
    (root / "site.yml").write_text("title: Bench\nurl: https://decisions.example/\n")
    for number in range(1, RECORDS + 1):
        (records / f"{number:04d}-decision-{number}.md").write_text(
            f"---\ntitle: Decision {number}\nstatus: accepted\ndate: 2026-01-01\n"
            f"description: Decision {number}.\n---\n\nText.\n")
    for index in range(files):
        path = folder / "src" / f"pkg{index // 100:03d}" / f"module{index:05d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_code(rng, index))
    env = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.org", "PATH": os.defpath,
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.org"}
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "bench"]):
        subprocess.run(["git", *args], cwd=folder, env=env, check=True)
    return root


def _timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def measure(root: Path, runs: int) -> dict[str, float]:
    """Median seconds of a cold scan, an unchanged scan and matching against the archive."""
    archive = load_archive(root)
    cache = root / ".site-builder" / "cache" / codescan.CACHE_FILE
    cold, unchanged, matched = [], [], []
    for _ in range(runs):
        cache.unlink(missing_ok=True)
        cold.append(_timed(lambda: codescan.scan_for(archive.config)))
        unchanged.append(_timed(lambda: codescan.scan_for(archive.config)))
        scan = codescan.scan_for(archive.config)
        assert scan is not None and scan.read == 0, "an unchanged scan read blobs"
        matched.append(_timed(partial(cite, archive, scan)))
    return {"cold": statistics.median(cold), "unchanged": statistics.median(unchanged),
            "matched": statistics.median(matched)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000, help="tracked code files")
    parser.add_argument("--runs", type=int, default=5, help="runs of each measurement")
    args = parser.parse_args(argv)
    root = make_repository(HERE / "work" / f"citations-{args.files}", args.files)
    found = measure(root, args.runs)
    cited = load_archive(root).citations
    places = sum(len(cited.of(record.id)) for record in load_archive(root).records)
    print(f"{args.files:,} tracked files, {places} citations found "
          f"(median of {args.runs} runs)")
    met = True
    for name, limit in (("cold", COLD_LIMIT), ("unchanged", UNCHANGED_LIMIT),
                        ("matched", None)):
        verdict = "" if limit is None else (" ok" if found[name] <= limit else " MISSED")
        met = met and (limit is None or found[name] <= limit)
        bound = "" if limit is None else f" (target ≤ {limit:g} s)"
        print(f"  {name:10} {found[name]:.3f} s{bound}{verdict}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
