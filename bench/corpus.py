"""The benchmark archive: written once per size by make_corpus.py, copied fresh for each run.

The pristine corpus is kept under the work folder and reused while make_corpus.py, N and the
seed are unchanged (a stamp file says which ones wrote it). Each bench run works on a copy,
because it edits records to time rebuilds and live preview.
"""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path

import yaml

from bench import make_corpus

STAMP = ".bench-corpus"
DEFAULT_SEED = 20240601


@dataclass(frozen=True, slots=True)
class Corpus:
    """A copy of the benchmark archive (the folder holding site.yml)."""

    root: Path

    @property
    def content(self) -> Path:
        return self.root / "content"

    def record_files(self) -> list[Path]:
        """Every record file, in a stable order (project, type, number)."""
        return sorted(self.content.glob("*/*/*.md"))

    def record_id(self, path: Path) -> str:
        """The record's id: its path under content/ without `.md` (`payments/adr/0001-x`)."""
        return path.relative_to(self.content).with_suffix("").as_posix()

    def site_title(self) -> str:
        config = yaml.safe_load((self.root / "site.yml").read_text(encoding="utf-8"))
        return str(config["title"])

    def projects(self) -> list[tuple[str, dict]]:
        """(folder name, _project.yml contents) for every project, sorted by folder."""
        out = []
        for folder in sorted(p for p in self.content.iterdir() if p.is_dir()):
            meta_file = folder / "_project.yml"
            meta = yaml.safe_load(meta_file.read_text(encoding="utf-8")) if meta_file.exists() \
                else {}
            out.append((folder.name, meta or {}))
        return out


def _fingerprint(n: int, seed: int) -> str:
    generator = Path(make_corpus.__file__).read_bytes()
    return f"{hashlib.sha256(generator).hexdigest()} n={n} seed={seed}\n"


def pristine(work: Path, n: int, seed: int = DEFAULT_SEED) -> Corpus:
    """The untouched corpus of `n` records under `work`, written by make_corpus when missing."""
    root = work / f"corpus-{n}"
    stamp = root / STAMP
    expected = _fingerprint(n, seed)
    if stamp.exists() and stamp.read_text(encoding="utf-8") == expected:
        return Corpus(root)
    if root.exists():
        shutil.rmtree(root)
    make_corpus.generate(str(root), n, seed)
    stamp.write_text(expected, encoding="utf-8")
    return Corpus(root)


def working_copy(source: Corpus, target: Path) -> Corpus:
    """A fresh copy of `source` at `target` (replacing what was there), without the stamp."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source.root, target, ignore=shutil.ignore_patterns(STAMP))
    return Corpus(target)


def edit_record(path: Path, marker: str) -> None:
    """Append a paragraph naming `marker` to a record's body: a real, visible edit."""
    with path.open("a", encoding="utf-8", newline="\n") as handle:
        handle.write(f"\nBenchmark edit {marker}.\n")
