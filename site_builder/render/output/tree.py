"""One walk of a folder tree for the writer, the spare site and the up-to-date check.

A site of 10,000 records holds 10,000 folders and 21,000 files, and an incremental build walks
it four times: the output's fingerprint before and after, its stale files, the spare's
leftovers. `os.walk` joins and re-splits every path and `os.path.relpath` costs more than the
listing itself; walking with `os.scandir` and building each relative path once took a walk of
that site from 0.33-0.46 s to 0.18-0.24 s here (bench/RESULTS.md).

Like `os.walk`, a link to a folder is listed but never followed. Used by the writer process
too, so this module imports nothing outside the standard library.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Folder:
    """One folder of a walk: `rel` its POSIX path from the root ("" for the root itself),
    `path` its path on disk, its subfolders and links to folders by name, and its other
    entries (files, links to files, broken links), each list sorted by name."""

    rel: str
    path: str
    folders: list[str]
    links: list[str]
    files: list[os.DirEntry[str]]

    def inside(self, name: str) -> str:
        """The POSIX path from the root of the entry `name` in this folder."""
        return f"{self.rel}/{name}" if self.rel else name


def walk(root: str, bottom_up: bool = False, skip: Collection[str] = ()) -> Iterator[Folder]:
    """Every folder under `root`, `root` included: each before its subfolders, or with
    `bottom_up` after them. Folders named in `skip` are not entered, at any depth. Raises
    OSError when a folder cannot be listed."""
    yield from _walk(root, "", bottom_up, skip)


def _walk(path: str, rel: str, bottom_up: bool, skip: Collection[str]) -> Iterator[Folder]:
    folders: list[str] = []
    links: list[str] = []
    files: list[os.DirEntry[str]] = []
    with os.scandir(path) as entries:
        for entry in entries:
            if not entry.is_dir():
                files.append(entry)
            elif entry.is_symlink():
                links.append(entry.name)
            elif entry.name not in skip:
                folders.append(entry.name)
    folders.sort()
    links.sort()
    files.sort(key=_name)
    here = Folder(rel, path, folders, links, files)
    if not bottom_up:
        yield here
    for name in folders:
        yield from _walk(f"{path}/{name}", here.inside(name), bottom_up, skip)
    if bottom_up:
        yield here


def listing(rel: str, files: Iterable[os.DirEntry[str]]) -> str:
    """What a fingerprint of a tree takes of the folder `rel`: its path, and each of its
    `files` by name, size and mtime (a broken link as such)."""
    parts = [f"d:{rel or '.'}\0"]
    for entry in files:
        try:
            status = entry.stat()
        except OSError:  # a broken link: there, but nothing to read
            parts.append(f"{entry.name}\0broken\0")
            continue
        parts.append(f"{entry.name}\0{status.st_size}\0{status.st_mtime_ns}\0")
    return "".join(parts)


def in_walk_order(listings: dict[str, str]) -> list[str]:
    """`listings` by folder (as `listing` gave them, in any order) in the order a walk from
    the root yields the folders: sorted by their path's parts, each before what it holds."""
    return [listings[rel] for rel in sorted(listings, key=_parts)]


def _parts(rel: str) -> list[str]:
    return rel.split("/") if rel else []


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name
