"""`_project.yml`: a project's name, description, owners, order and fields, read again only
when the file changes. A project folder of `content` may hold one, and so may the folder of a
`format` source (for the project its records belong to)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from site_builder.archive import foreign
from site_builder.archive.archive import Project
from site_builder.archive.origins import ContentRoot
from site_builder.base.findings import Finding
from site_builder.config.keys import PROJECT
from site_builder.config.site import SiteConfig, parse_fields, read_yaml_mapping

PROJECT_FILE = "_project.yml"
_PROJECT_KEYS = PROJECT.names
# path → ((size, mtime, what parsing depended on), project, findings): a LoaderCache's.
ProjectCache = dict[Path, tuple[Any, Project, list[Finding]]]


def _stamp(stat: os.stat_result) -> tuple[int, int]:
    return stat.st_size, stat.st_mtime_ns


def read_project(folder: Path, config: SiteConfig, cache: ProjectCache,
                 project_id: str | None = None) -> tuple[Project, list[Finding]]:
    """The project of `folder` (its name, unless `project_id`), from its `_project.yml` when
    there is one."""
    project_id = project_id or folder.name
    path = folder / PROJECT_FILE
    try:
        stamp = _stamp(path.stat())
    except FileNotFoundError:
        return Project(id=project_id, name=project_id, path=folder), []
    cached = cache.get(path)
    if cached and cached[0] == (stamp, config.fields, project_id):
        return cached[1], cached[2]
    data, checker = read_yaml_mapping(path)
    checker.unknown_keys(data, _PROJECT_KEYS, PROJECT_FILE)
    name = data.get("name", project_id)
    if not isinstance(name, str) or not name.strip():
        checker.error("'name' must be a non-empty string", "name")
        name = project_id
    owners = data.get("owners") or []
    if isinstance(owners, str):
        owners = [owners]
    if not isinstance(owners, list) or not all(isinstance(o, str) for o in owners):
        checker.error("'owners' must be a list of strings", "owners")
        owners = [o for o in owners if isinstance(o, str)] if isinstance(owners, list) else []
    order = data.get("order")
    if order is not None and (isinstance(order, bool) or not isinstance(order, int)):
        checker.error("'order' must be a whole number", "order")
        order = None
    description = data.get("description") or PROJECT.default("description")
    if not isinstance(description, str):
        checker.error("'description' must be a string", "description")
        description = ""
    project = Project(
        id=project_id, name=name, description=description,
        owners=tuple(str(o) for o in owners), order=order,
        fields=parse_fields(data.get("fields"), checker, inherited=config.fields), path=folder,
    )
    cache[path] = ((stamp, config.fields, project_id), project, checker.findings)
    return project, checker.findings


def foreign_project(config: SiteConfig, content: ContentRoot, cache: ProjectCache,
                    findings: list[Finding]) -> Project:
    """The project of a foreign folder: its name, description, owners, order and fields from
    a `_project.yml` in the folder when there is one (no record file is named so), with the
    list fields kept from the format. The first folder of a project describes it."""
    kept = foreign.project_of(config, content)
    described, problems = read_project(content.path, config, cache, project_id=kept.id)
    findings.extend(problems)
    own = {f.name for f in described.fields}
    return replace(described, path=None, fields=(
        *described.fields, *(f for f in kept.fields if f.name not in own)))
