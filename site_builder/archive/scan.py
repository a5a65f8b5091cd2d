"""Which files a content root holds: project folders, type folders and record files.

Scanning is where the archive meets the file system, so it is where links out of the archive
are caught: an entry that is a symlink leading outside its content root is an error at the
entry and is never read. An entry that is no link, found by walking down from the root, is
inside it, so the usual archive pays nothing for the check.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from site_builder.archive.origins import ContentRoot
from site_builder.base.confined import inside
from site_builder.base.findings import Finding

__all__ = ["flat_record_files", "list_folder", "misplaced", "project_folders", "record_files"]


def _escapes(entry: os.DirEntry[str], root: Path) -> Finding | None:
    """The error for an entry that is a symlink leading out of the content root, else None.

    Only links can leave: an entry that is no link, found by scanning down from the root,
    is inside it, so the usual file costs nothing here.
    """
    if not entry.is_symlink() or inside(entry.path, root):
        return None
    return Finding(Path(entry.path), 1, "error", (
        f"'{entry.name}' is a symlink to {os.path.realpath(entry.path)}, outside the content "
        f"folder {root}; nothing outside the archive is read (replace the link with the file)"))


def list_folder(folder: str | Path) -> tuple[list[os.DirEntry[str]], Finding | None]:
    """The entries of `folder` sorted by name, or none and the error that listing gave."""
    try:
        with os.scandir(folder) as listing:
            return sorted(listing, key=lambda e: e.name), None
    except OSError as exc:
        reason = ("does not exist" if isinstance(exc, FileNotFoundError)
                  else f"cannot be read ({(exc.strerror or str(exc)).lower()})")
        return [], Finding(Path(folder), 1, "error", f"folder {folder} {reason}")


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:  # a link loop: listed as a file, refused when read
        return False


def project_folders(root: ContentRoot) -> tuple[list[tuple[str, Path]], list[Finding]]:
    """The project folders of a content root, and misplaced `.md` files found on the way."""
    projects: list[tuple[str, Path]] = []
    findings: list[Finding] = []
    if not root.path.exists():
        return [], [Finding(root.path, 1, "error", f"content folder {root.label} does not exist")]
    entries, problem = list_folder(root.path)
    if problem is not None:
        return [], [problem]
    for entry in entries:
        if entry.name.startswith("."):
            continue
        escape = _escapes(entry, root.path)
        if escape is not None:
            findings.append(escape)
        elif _is_dir(entry):
            projects.append((entry.name, Path(entry.path)))
        elif entry.name.endswith(".md"):
            findings.append(misplaced(Path(entry.path)))
    return projects, findings


def misplaced(path: Path) -> Finding:
    return Finding(path, 1, "error", "a record must live at <project>/<type>/NNNN-slug.md "
                                     "under the content folder; this file is not built")


def record_files(folder: Path, root: Path,
                  ) -> tuple[list[tuple[str, list[os.DirEntry[str]]]], list[Finding]]:
    """The type folders of one project with their entries, and misplaced `.md` files.

    Entries that are symlinks out of `root` (the content root) are errors, never read.
    """
    types: list[tuple[str, list[os.DirEntry[str]]]] = []
    findings: list[Finding] = []
    entries, problem = list_folder(folder)
    findings.extend([problem] if problem else [])
    for entry in entries:
        if entry.name.startswith("."):
            continue
        escape = _escapes(entry, root)
        if escape is not None:
            if entry.name.endswith(".md") or _is_dir(entry):
                findings.append(escape)
        elif _is_dir(entry):
            files = []
            inner_entries, problem = list_folder(entry.path)
            findings.extend([problem] if problem else [])
            for inner in inner_entries:
                escape = _escapes(inner, root)
                if escape is not None:
                    if inner.name.endswith(".md") or _is_dir(inner):
                        findings.append(escape)
                elif _is_dir(inner) and not inner.name.startswith("."):
                    findings.extend(misplaced(Path(p)) for p in _markdown_below(inner.path))
                elif inner.name.endswith(".md"):
                    files.append(inner)
            types.append((entry.name, files))
        elif entry.name.endswith(".md"):
            findings.append(misplaced(Path(entry.path)))
    return types, findings


def flat_record_files(root: Path, is_record: Callable[[str], bool],
                      ) -> tuple[list[os.DirEntry[str]], list[Finding]]:
    """The record files directly in a flat folder kept in another tool's format,
    `is_record` saying which names are records; symlinks leading out of it are errors."""
    if not root.exists():
        return [], [Finding(root, 1, "error", f"folder {root} does not exist")]
    entries, problem = list_folder(root)
    if problem is not None:
        return [], [problem]
    files, findings = [], []
    for entry in entries:
        if not is_record(entry.name):
            continue
        escape = _escapes(entry, root)
        if escape is not None:
            findings.append(escape)
        elif not _is_dir(entry):
            files.append(entry)
    return files, findings


def _markdown_below(folder: str) -> list[str]:
    return sorted(os.path.join(d, f) for d, _, names in os.walk(folder)
                  for f in names if f.endswith(".md"))
