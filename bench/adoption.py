"""Adopt real public archives as a user would: `init --from` then `build`, nothing edited by hand.

    python -m bench.adoption bench/adoption-repos.txt --clones /tmp/corpus/clones \
        --out bench/ADOPTION.md --details /tmp/corpus/details.json

Each line of the list is `owner/name commit folder[,folder…]` (the decision folders as read by
hand). The clone at CLONES/<owner>+<name> is copied to a scratch folder, so the clone itself is
never touched; the copy is adopted with the installed `site-builder` and what happened is put in
one table row: the formats `init` chose, the record files counted here (independently of
site-builder: numbered or dated `.md` files that are not templates), the records in the built
decisions.json, warnings, errors, exit codes, seconds, and whether a file of the repository
changed. `--details` keeps every message and the files that gave no record, for reading.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

RECORD_NAME = re.compile(r"^(?:adr[-_ ]?)?\d{2,}[^/]*\.md$", re.IGNORECASE)
"""A numbered (`0001-x.md`, `001-x.md`, `ADR-0001-x.md`, `adr-001-x.md`) or dated
(`20201029-x.md`) Markdown file: what a person calls a record file in these folders."""
TEMPLATE_STEM = re.compile(r"^(?:adr[-_ ]?)?\d*[-_ ]?(?:[a-z]+[-_])?template$", re.IGNORECASE)
"""`0000-TEMPLATE`, `0000-ladr-template`, `adr-template`: a template, whereas
`0039-use-apache-velocity-as-template-engine` (JabRef) is a record."""
SCAFFOLD = frozenset({".gitignore", "AGENTS.md", ".mcp.json", ".github/workflows/decisions.yml"})
"""Files `init --from` writes or appends to by design: not counted as changed sources."""
TIME_LIMIT = 600.0


@dataclass(frozen=True, slots=True)
class Repo:
    """One line of the list: a public repository, the commit read, its decision folders."""

    name: str
    commit: str
    folders: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """One command's exit code, wall time and output."""

    returncode: int | None
    seconds: float
    output: str


@dataclass(slots=True)
class Row:
    """What adopting one repository gave."""

    repo: str
    commit: str
    formats: list[str] = field(default_factory=list)
    folders_found: list[str] = field(default_factory=list)
    folders_missed: list[str] = field(default_factory=list)
    record_files: int = 0
    records_built: int = 0
    drafts: list[str] = field(default_factory=list)
    """Record files whose status says draft, which `init` or `build` said it left out."""
    files_without_record: list[str] = field(default_factory=list)
    records_without_file: list[str] = field(default_factory=list)
    warnings: int = 0
    errors: int = 0
    init_rc: int | None = None
    build_rc: int | None = None
    seconds: float = 0.0
    changed: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)


def read_list(path: Path) -> list[Repo]:
    """Return the repositories of a list file; `#` starts a comment line."""
    repos = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, commit, folders = line.split()
            repos.append(Repo(name, commit, tuple(folders.split(","))))
    return repos


def record_files(root: Path, folder: str) -> list[str]:
    """Return the repository paths of the record files directly in `folder`, sorted."""
    base = root / folder
    names = sorted(p.name for p in base.iterdir() if p.is_file()) if base.is_dir() else []
    return [(Path(folder) / n).as_posix() for n in names
            if RECORD_NAME.match(n) and not TEMPLATE_STEM.match(n[:-3])]


def tracked_hashes(root: Path) -> dict[str, str]:
    """Return the SHA-256 of every file git tracks in `root` that is present on disk."""
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True,
                             check=True).stdout.decode("utf-8", "surrogateescape")
    hashes = {}
    for name in filter(None, listing.split("\0")):
        path = root / name
        if path.is_file() and not path.is_symlink():
            hashes[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return hashes


def run(command: list[str], cwd: Path) -> Step:
    """Run one command, returning its exit code (None past the time limit) and output."""
    start = time.perf_counter()
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                              timeout=TIME_LIMIT, errors="replace")
    except subprocess.TimeoutExpired as stopped:
        out = (stopped.stdout or b"").decode(errors="replace") if isinstance(
            stopped.stdout, bytes) else (stopped.stdout or "")
        return Step(None, time.perf_counter() - start, out + "\n(stopped at the time limit)")
    return Step(done.returncode, time.perf_counter() - start, done.stdout + done.stderr)


def sources_of(site_yml: Path) -> list[dict[str, Any]]:
    """Return the `sources` entries `init --from` wrote, or none when it wrote no site.yml."""
    import yaml  # a dependency of site-builder itself

    if not site_yml.is_file():
        return []
    loaded = yaml.safe_load(site_yml.read_text(encoding="utf-8")) or {}
    return [s for s in loaded.get("sources") or [] if isinstance(s, dict)]


def built_records(site: Path) -> list[dict[str, Any]]:
    """Return the records of the built decisions.json, or none when the build wrote none."""
    path = site / "decisions.json"
    if not path.is_file():
        return []
    records: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["records"]
    return records


def record_key(record: dict[str, Any]) -> str:
    """Return `folder/stem.md` for a record read in place: its source folder and file stem."""
    location = (record.get("source") or {}).get("location") or "."
    stem = str(record["id"]).rsplit("/", 1)[-1]
    return (Path(location) / f"{stem}.md").as_posix()


DRAFT_SAID = re.compile(r"^skipped (.+\.md): a draft: not published$")
"""How `init --from` and `build --verbose` say a draft was left out."""


def drafts_said(messages: list[str]) -> list[str]:
    """Return the paths of the drafts the messages say were left out."""
    return [m.group(1) for m in map(DRAFT_SAID.match, messages) if m]


def compare(row: Row, repo: Repo, work: Path) -> None:
    """Fill in the formats, folders, counts and the files that gave no record."""
    sources = sources_of(work / "site.yml")
    row.formats = sorted({str(s.get("format", "native")) for s in sources})
    row.folders_found = [Path(str(s.get("path", ""))).as_posix() for s in sources]
    row.folders_missed = [f for f in repo.folders if Path(f).as_posix() not in row.folders_found]
    files = [p for f in repo.folders for p in record_files(work, f)]
    records = built_records(work / "_site")
    keys = {record_key(r) for r in records}
    row.record_files, row.records_built = len(files), len(records)
    said = set(drafts_said(row.messages))
    row.drafts = [p for p in files if p in said and p not in keys]
    row.files_without_record = [p for p in files if p not in keys and p not in said]
    row.records_without_file = sorted(keys - set(files))


def adopt(repo: Repo, clone: Path, scratch: Path, site_builder: str) -> Row:
    """Copy a clone, adopt the copy, build it, and return what happened."""
    work = scratch / repo.name
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(clone, work, symlinks=True)
    row = Row(repo.name, repo.commit)
    before = tracked_hashes(work)
    init = run([site_builder, "init", "--from", "."], work)
    build = run([site_builder, "build"], work) if init.returncode == 0 else Step(None, 0.0, "")
    after = tracked_hashes(work)
    row.init_rc, row.build_rc = init.returncode, build.returncode
    row.seconds = round(init.seconds + build.seconds, 2)
    row.changed = sorted(n for n in before if after.get(n) != before[n] and n not in SCAFFOLD)
    row.messages = [line for line in (init.output + build.output).splitlines() if line.strip()]
    row.warnings = sum(": warning:" in line for line in row.messages)
    row.errors = sum(": error:" in line for line in row.messages)
    compare(row, repo, work)
    return row


def verdict(row: Row) -> str:
    """Return `ok` when every record file became one record (or a draft said to be left out)
    with a clean build, else why not."""
    problems = []
    if row.init_rc != 0:
        problems.append(f"init exit {row.init_rc}")
    elif row.build_rc != 0:
        problems.append(f"build exit {row.build_rc}")
    if row.folders_missed:
        problems.append("folder not found: " + ", ".join(row.folders_missed))
    if row.files_without_record:
        problems.append(f"{len(row.files_without_record)} files without a record")
    if row.records_without_file:
        problems.append(f"{len(row.records_without_file)} records from non-record files")
    if row.changed:
        problems.append(f"{len(row.changed)} source files changed")
    return "; ".join(problems) or "ok"


def table(rows: list[Row]) -> str:
    """Return the Markdown table of all rows."""
    lines = ["| repository | format | record files | records | drafts | warnings | errors | "
             "init | build | seconds | verdict |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| [{r.repo}](https://github.com/{r.repo}/tree/{r.commit[:12]}) | "
                     f"{', '.join(r.formats) or '—'} | {r.record_files} | {r.records_built} | "
                     f"{len(r.drafts)} | "
                     f"{r.warnings} | {r.errors} | {r.init_rc} | {r.build_rc} | {r.seconds} | "
                     f"{verdict(r)} |")
    return "\n".join(lines) + "\n"


def arguments(argv: list[str] | None) -> argparse.Namespace:
    """Return the parsed command line."""
    default_exe = Path(sys.executable).with_name("site-builder")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repos", type=Path, help="the list file (bench/adoption-repos.txt)")
    parser.add_argument("--clones", type=Path, required=True, help="holds <owner>+<name>/")
    parser.add_argument("--scratch", type=Path, default=Path("/tmp/corpus/scratch"))
    parser.add_argument("--out", type=Path, help="write the table here (else print it)")
    parser.add_argument("--details", type=Path, help="write every row, messages too, as JSON")
    parser.add_argument("--only", action="append", default=[], help="owner/name to run")
    parser.add_argument("--site-builder", default=str(default_exe))
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Adopt every listed repository; return 0 (the table says what failed)."""
    args = arguments(argv)
    rows = []
    for repo in read_list(args.repos):
        if args.only and repo.name not in args.only:
            continue
        clone = args.clones / repo.name.replace("/", "+")
        rows.append(adopt(repo, clone, args.scratch, args.site_builder))
        print(f"{repo.name}: {verdict(rows[-1])} ({rows[-1].seconds} s)", file=sys.stderr)
    text = table(rows)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    if args.details:
        args.details.write_text(json.dumps([asdict(r) for r in rows], indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
