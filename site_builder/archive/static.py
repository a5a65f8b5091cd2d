"""`static/`: files copied to the output root as they are.

A `CNAME`, a `.nojekyll` or a host's verification file must survive every build, yet a build
removes whatever it did not write. Static files are therefore written by the build itself,
through the same writer as every page, so they are part of each build's plan and are kept
by incremental builds. A static file whose path a generated file also takes would silently
lose to it or replace it, so `check` reports it as an error (and `build` refuses).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable
from pathlib import Path

from site_builder.base.confined import inside
from site_builder.base.findings import Finding
from site_builder.base.site_paths import GENERATED_FOLDERS, ROOT_FILES
from site_builder.config.site import SiteConfig


def static_files(config: SiteConfig) -> list[tuple[str, Path]]:
    """Every regular file under the static folder, as (path relative to the site root, file),
    sorted. Links that lead outside the archive, FIFOs and devices are left out, like any
    file the archive would not publish; an absent folder holds nothing."""
    folder = config.static_dir
    if not folder.is_dir() or not inside(folder, config.root):
        return []
    found = []
    for current, folders, files in os.walk(folder):
        folders.sort()
        for name in files:
            path = Path(current) / name
            if path.is_file() and inside(path, config.root):
                found.append((path.relative_to(folder).as_posix(), path))
    return sorted(found)


def generated(rel: str, project_ids: Collection[str], record_ids: Collection[str]) -> bool:
    """True when a build writes the site path `rel` itself (for these projects and records)."""
    if rel in ROOT_FILES or rel.split("/", 1)[0] in GENERATED_FOLDERS:
        return True
    if rel.endswith("/index.html"):
        folder = rel[: -len("/index.html")]
        return folder in project_ids or folder in record_ids
    return rel.endswith(".md") and rel[:-3] in record_ids


def static_clashes(config: SiteConfig, project_ids: Iterable[str],
                   record_ids: Iterable[str]) -> list[Finding]:
    """An error for every static file whose path a generated file also takes, or one
    error when the static folder and the output folder overlap (a build would copy its own
    output, or remove static files)."""
    static, output = config.static_dir.resolve(), config.output_dir.resolve()
    if static.is_dir() and (static.is_relative_to(output) or output.is_relative_to(static)):
        return [Finding(config.path, 1, "error", f"'static: {config.static}' and 'output: "
                        f"{config.output}' overlap; keep static files in a folder of their own")]
    projects, records = set(project_ids), set(record_ids)
    return [Finding(path, 1, "error", f"static file '{rel}' has the path of a file the build "
                                      "writes itself; rename or remove it")
            for rel, path in static_files(config) if generated(rel, projects, records)]
