"""`site-builder sources update`: fetch every `repo:` source again and say what changed."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from site_builder.archive.records import FILE_NAME
from site_builder.config.site import SiteConfig, SourceSpec
from site_builder.sources import checkouts, git
from site_builder.sources.resolve import failure_message


@dataclass(frozen=True, slots=True)
class SourceUpdate:
    """What updating one `repo:` source did.

    `before`/`after` are the commits the cache held before and holds now (None: never
    fetched). `total` counts the record files the source's folder holds now; `added`,
    `removed` and `changed` are record ids (`project/type/NNNN-slug`) below that folder.
    `error` is set when the fetch failed; the cache then still holds `before`.
    """

    spec: SourceSpec
    before: str | None
    after: str | None
    total: int = 0
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    error: str | None = None


def update_sources(config: SiteConfig) -> list[SourceUpdate]:
    """Fetch every `repo:` source of `config` again, in site.yml order.

    Returns one SourceUpdate per repo source. Never raises for a source that cannot be
    fetched: its update carries the error and its cache is left as it was.
    """
    specs = [spec for spec in config.sources if spec.repo is not None]
    before = {spec: _state(config, spec) for spec in specs}
    # Sources that share a checkout (same repo and ref, other dirs) are fetched once.
    fetched: dict[Path, checkouts.Checkout | git.GitError] = {}
    for spec in specs:
        folder = checkouts.checkout_folder(config, spec)
        if folder not in fetched:
            try:
                fetched[folder] = checkouts.fetch(config, spec)
            except git.GitError as exc:
                fetched[folder] = exc
    updates = []
    for spec in specs:
        old_commit, old_records = before[spec]
        outcome = fetched[checkouts.checkout_folder(config, spec)]
        if isinstance(outcome, git.GitError):
            updates.append(SourceUpdate(spec, old_commit, old_commit,
                                        error=failure_message(spec, outcome)))
            continue
        new_records = _records(_folder(outcome, spec))
        updates.append(SourceUpdate(
            spec, old_commit, outcome.commit, total=len(new_records),
            added=tuple(sorted(new_records.keys() - old_records.keys())),
            removed=tuple(sorted(old_records.keys() - new_records.keys())),
            changed=tuple(sorted(i for i in new_records.keys() & old_records.keys()
                                 if new_records[i] != old_records[i]))))
    return updates


def _state(config: SiteConfig, spec: SourceSpec) -> tuple[str | None, dict[str, str]]:
    checkout = checkouts.cached(config, spec)
    if checkout is None:
        return None, {}
    return checkout.commit, _records(_folder(checkout, spec))


def _folder(checkout: checkouts.Checkout, spec: SourceSpec) -> Path:
    return checkout.folder / spec.dir if spec.dir else checkout.folder


def _records(folder: Path) -> dict[str, str]:
    """Record id → digest of the file, for every `<project>/<type>/NNNN-slug.md` below `folder`."""
    found: dict[str, str] = {}
    if not folder.is_dir():
        return found
    for project in sorted(os.scandir(folder), key=lambda e: e.name):
        if not project.is_dir() or project.name.startswith("."):
            continue
        for kind in os.scandir(project.path):
            if not kind.is_dir() or kind.name.startswith("."):
                continue
            for entry in os.scandir(kind.path):
                if entry.is_file() and FILE_NAME.match(entry.name):
                    digest = hashlib.sha1(Path(entry.path).read_bytes()).hexdigest()
                    found[f"{project.name}/{kind.name}/{entry.name[:-3]}"] = digest
    return found
