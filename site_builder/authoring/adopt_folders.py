"""Where `init --from` finds a repository's decision folders, and the format of each.

A folder is named by the user (`--folder`), by another tool's configuration (`.log4brains.yml`
and its packages, `.adr-dir`), or found by its files: anywhere in the repository, a folder
holding at least two numbered or dated Markdown records that a format recognises (a
`Status` or `Date` marker) is one, and so is a folder named for decisions (`adr`,
`decisions`…) holding one record. Vendored, build and test-data folders (`tests`,
`fixtures`, `integration-tests`) are never searched. Each
folder's format is guessed from its files by the formats' own declarations.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.archive.formats import registry
from site_builder.archive.formats.fields import Fields
from site_builder.archive.formats.files import file_reason
from site_builder.archive.formats.placeholders import is_numbered
from site_builder.base.confined import MAX_RECORD_BYTES, Refused, read_regular
from site_builder.config.site import CONFIG_FILE, read_yaml_mapping

# Folders that hold other people's code or generated files: their records are not the
# repository's own. Hidden folders (`.git`, `.venv`, `.tox`) are skipped as well.
SKIPPED_FOLDERS = frozenset({
    "node_modules", "bower_components", "vendor", "third_party", "third-party", "dist",
    "build", "_build", "_site", "target", "site-packages", "venv", "__pycache__", "htmlcov",
})
# Folders of test data: the made-up records a tool's own tests read (Log4brains'
# `packages/core/integration-tests/ro-project/docs/adr`), not the repository's decisions.
_TEST_FOLDER = re.compile(r"^(?:__)?(?:tests?|testdata|test[-_]data|fixtures|"
                          r"[a-z0-9]+[-_]tests?)(?:__)?$")
MIN_RECORDS = 2
# A folder named for its decisions is one with a single record (NASA-IMPACT/nasa-apt `adr/`).
DECISION_FOLDER_NAMES = frozenset({"adr", "adrs", "decisions", "decision-records",
                                   "architecture-decisions", "architecture-decision-records"})
# Path segments that say what a folder holds rather than whose it is.
_GENERIC = frozenset({"adr", "adrs", "decisions", "decision-records", "docs", "doc",
                      "architecture", "records", "rfcs", "packages", "services", "apps",
                      "libs", "modules", "src", "reference"})


@dataclass(frozen=True, slots=True)
class Folder:
    """A decision folder found in the repository: its path (POSIX, relative to the repo),
    the format and project guessed for it, and why."""

    path: str
    format: str
    project: str
    why: str


@dataclass(slots=True)
class Found:
    """The folders found, and one line for each folder a configuration names in vain."""

    folders: list[Folder] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def name_of(text: str) -> str:
    """A project name from any text: lowercase letters, digits and dashes."""
    name = re.sub(r"[^a-z0-9._-]+", "-", text.strip().lower()).strip("-._")
    return name or "decisions"


def _text(path: Path) -> str | None:
    """The text of a regular file that stays in its folder (a symlink out of it, a FIFO or
    a device is never read: the repository is somebody else's), or None."""
    try:
        return read_regular(path, MAX_RECORD_BYTES, root=path.parent).decode(
            "utf-8", errors="replace")
    except Refused:
        return None


def _read(text: str) -> Fields:
    """The fields of one file, read by the format its text is in."""
    return registry.recognising(text).read(text, frozenset())


def records(folder: Path) -> list[tuple[Path, str]]:
    """The record files directly in `folder` (by name), each with its text; none when the
    folder cannot be listed."""
    out = []
    try:
        paths = sorted(folder.iterdir())
    except OSError:
        return []
    for path in paths:
        if path.name.lower().endswith(".md") and path.is_file():
            text = _text(path)
            if text is not None and file_reason(path.name, text, _read) is None:
                out.append((path, text))
    return out


def guess_format(folder: Path) -> tuple[str, str]:
    """(format, why) for a folder, from what its record files look like: the format every
    file is in, else `auto`."""
    files = records(folder)
    if not files:
        return "auto", "no records yet"
    seen = Counter(registry.recognising(text, path.name).name for path, text in files)
    if len(seen) > 1:
        return "auto", f"{len(files)} files in several layouts ({', '.join(sorted(seen))})"
    declared = registry.named(next(iter(seen)))
    return declared.name, f"{len(files)} files: {declared.layout}"


def is_decision_folder(folder: Path) -> bool:
    """True when `folder` holds at least MIN_RECORDS records (numbered or dated, `records`
    says) with the markers of a format."""
    marked = sum(1 for _, text in records(folder) if registry.has_markers(text))
    return marked >= MIN_RECORDS


def walk(repo: Path) -> list[str]:
    """The decision folders anywhere under `repo` (POSIX paths relative to it), sorted;
    vendored, build, test-data and hidden folders, and archives of site-builder's own (a
    folder with a site.yml), are not searched."""
    found = []
    for top, dirs, files in os.walk(repo):
        here = Path(top)
        if CONFIG_FILE in files and here != repo:
            dirs[:] = []  # a site-builder archive of its own: its records are native
            continue
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                         and d.lower() not in SKIPPED_FOLDERS and not _TEST_FOLDER.match(d.lower()))
        numbered = sum(1 for f in files if is_numbered(f) and f.lower().endswith(".md"))
        named = here != repo and here.name.lower() in DECISION_FOLDER_NAMES
        if (numbered >= MIN_RECORDS and is_decision_folder(here)) or (
                named and numbered and records(here)):
            found.append(here.relative_to(repo).as_posix())
    return found


def relative(repo: Path, written: str) -> str:
    """`written` (a path from a configuration file or the command line) as a POSIX path
    relative to `repo` (`.` for the repository itself). Raises ValueError when it leads out."""
    path = Path(written)
    path = path if path.is_absolute() else repo / path
    return Path(os.path.normpath(path)).relative_to(repo).as_posix()


def _log4brains(repo: Path, found: dict[str, Folder], notes: list[str]) -> None:
    # Read as every YAML file is (regular file, size cap, no alias bombs): the repository
    # is somebody else's. Anything unusable reads as {}.
    data, _ = read_yaml_mapping(repo / ".log4brains.yml")
    project = data.get("project")
    if not isinstance(project, dict):
        return
    entries = [(project.get("name") or repo.name, project.get("adrFolder"))]
    for package in project.get("packages") or []:
        if isinstance(package, dict):
            entries.append((package.get("name"), package.get("adrFolder")))
    for name, folder in entries:
        if not isinstance(folder, str) or not isinstance(name, str):
            continue
        try:
            rel = relative(repo, folder)
        except ValueError:
            notes.append(f".log4brains.yml names {folder} for '{name}', outside {repo}")
            continue
        if not (repo / rel).is_dir():
            notes.append(f".log4brains.yml names {folder} for '{name}', which does not exist")
        elif rel not in found:
            found[rel] = Folder(rel, "log4brains", name_of(name),
                                f".log4brains.yml names it for '{name}'")


def _adr_dir(repo: Path, found: dict[str, Folder], notes: list[str]) -> None:
    written = (_text(repo / ".adr-dir") or "").strip()
    try:
        rel = relative(repo, written) if written else None
    except ValueError:
        rel = None
    if rel is None or not (repo / rel).is_dir():
        notes.append(f".adr-dir names {written or 'nothing'}, which is no folder of {repo}")
    elif rel not in found:
        fmt, why = guess_format(repo / rel)
        found[rel] = Folder(rel, fmt, name_of(repo.name), f".adr-dir names it; {why}")


def _projects(repo: Path, folders: list[Folder]) -> list[Folder]:
    """The folders with a project each: the repository's name for a lone folder, else the
    last path segment that names something (`services/billing/docs/adr` → billing)."""
    counts = Counter(f.project for f in folders)
    out = []
    for folder in folders:
        if counts[folder.project] > 1 and not folder.why.startswith(".log4brains.yml"):
            words = [s for s in folder.path.split("/") if s.lower() not in _GENERIC]
            name = name_of(words[-1] if words else folder.path.replace("/", "-"))
            folder = Folder(folder.path, folder.format, name, folder.why)
        out.append(folder)
    again = Counter(f.project for f in out)
    return [f if again[f.project] == 1 or f.why.startswith(".log4brains.yml") else
            Folder(f.path, f.format, name_of(f"{repo.name}-{f.path}"), f.why) for f in out]


def find_folders(repo: Path, named: tuple[str, ...] = ()) -> Found:
    """The decision folders of the repository at `repo` (resolved), in the order found:
    only the `named` ones (paths relative to `repo`) when any is given.

    Raises ValueError naming a `named` path that is not a folder inside `repo`.
    """
    out = Found()
    found: dict[str, Folder] = {}
    if named:
        for written in named:
            try:
                rel = relative(repo, written)
            except ValueError:
                raise ValueError(f"{written} is outside {repo}") from None
            if not (repo / rel).is_dir():
                raise ValueError(f"{written} is not a folder of {repo}")
            fmt, why = guess_format(repo / rel)
            found.setdefault(rel, Folder(rel, fmt, name_of(repo.name), f"named; {why}"))
        out.folders = _projects(repo, list(found.values()))
        return out
    if (repo / ".log4brains.yml").is_file():
        _log4brains(repo, found, out.notes)
    if (repo / ".adr-dir").is_file():
        _adr_dir(repo, found, out.notes)
    hints = [rel for rel in registry.folder_hints()
             if (repo / rel).is_dir() and records(repo / rel)]
    for rel in dict.fromkeys([*hints, *walk(repo)]):
        if rel not in found:
            fmt, why = guess_format(repo / rel)
            found[rel] = Folder(rel, fmt, name_of(repo.name), why)
    out.folders = _projects(repo, list(found.values()))
    return out
