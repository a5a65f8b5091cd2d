"""`site-builder import SRC --project P`: a folder of records in another tool's format →
native files under `content/P/T/`.

The folder is read exactly as a `format` source reads it in place, so the native
result has the same titles, statuses, dates and lineage. Files named by date (Log4brains) or
whose number is taken get the next numbers in date order; links between the imported files
are rewritten to their new names, other relative links to the same files from the new folder.
Nothing is written until every file is known to be writable.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from site_builder.archive.archive import Archive
from site_builder.archive.foreign import KEPT_FIELDS, link_references, read_source
from site_builder.archive.links import is_local, local_path, split_target
from site_builder.archive.origins import ContentRoot, Foreign
from site_builder.archive.records import FILE_NAME, Record
from site_builder.authoring.new import slugify
from site_builder.base.findings import Finding
from site_builder.config.site import SiteConfig


@dataclass(slots=True)
class Plan:
    """The files an import writes (path → text), the problems that stop it, and its report."""

    files: dict[Path, str] = field(default_factory=dict)
    problems: list[Finding] = field(default_factory=list)
    report: list[str] = field(default_factory=list)


_PREFIX = re.compile(r"^\d+[-_]")
# A link's target: inline `](target` (groups 1, 2) or a definition `[x]: target` (3, 4).
_LINK_TARGET = re.compile(r"(\]\(\s*<?)([^)\s>]+)"
                          r"|(^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*<?)(\S+?)(?=>?(?:\s|$))", re.MULTILINE)


def _numbers(folder: Path) -> set[int]:
    if not folder.is_dir():
        return set()
    return {int(m.group(1)) for p in folder.iterdir() if (m := FILE_NAME.match(p.name))}


def _names(records: list[Record], folder: Path) -> dict[str, str]:
    """Old id → new file name: numbered files keep a free number, the others (date-named,
    or whose number is taken) get the next numbers in date order."""
    taken = _numbers(folder)
    keep = {r.id: int(r.number) for r in records
            if r.number.isdigit() and len(r.number) <= 4 and int(r.number) not in taken}
    if len(set(keep.values())) != len(keep):
        keep = {}
    used = taken | set(keep.values())
    following = max(used, default=0) + 1
    names: dict[str, str] = {}
    for record in sorted(records, key=lambda r: (r.date, r.slug)):
        if record.id in keep:
            number = keep[record.id]
        else:
            number, following = following, following + 1
        slug = slugify(_PREFIX.sub("", record.slug) or record.title)
        names[record.id] = f"{number:04d}-{slug}.md"
    return names


def _front(record: Record, archive: Archive, new_ids: dict[str, str], kept: set[str],
           report: list[str]) -> dict[str, Any]:
    """The native front matter of `record`. A relation to a record that is not imported
    with it cannot be written as a reference: it is reported, and its link stays in the
    body when it was one."""
    def ref(reference: str) -> str | None:
        found = archive.resolve(reference)
        if found is None:
            report.append(f"  not a reference: {reference} is not among the imported records")
            return None
        return new_ids[found.id]

    data: dict[str, Any] = {"title": record.title, "status": record.status,
                            "date": record.date, "description": record.description}
    for key, values in (("authors", record.authors), ("deciders", record.deciders),
                        ("tags", record.tags)):
        if values:
            data[key] = list(values)
    for key, references in (("supersedes", record.supersedes), ("related", record.related)):
        resolved = [found for r in references if (found := ref(r)) is not None]
        if resolved:
            data[key] = resolved
    successor = ref(record.superseded_by) if record.superseded_by else None
    if successor:
        data["supersededBy"] = successor
    for name, value in record.fields:
        if name in kept:
            data[name] = value
    return data


def _body(record: Record, new_paths: dict[str, Path], target: Path) -> str:
    """The body with every relative link pointing at the same file from `target`'s folder:
    links to imported records at their new names."""
    def rewrite(match: re.Match[str]) -> str:
        lead, written = (match.group(1), match.group(2)) if match.group(1) else (
            match.group(3), match.group(4))
        if not is_local(written):
            return match.group(0)
        path = local_path(record.path, written)
        _, suffix = split_target(written)
        moved = new_paths.get(str(path))
        new = os.path.relpath(moved if moved is not None else path, target.parent)
        return lead + Path(new).as_posix() + suffix

    return _LINK_TARGET.sub(rewrite, record.body)


def plan_import(config: SiteConfig, src: Path, project: str, type_name: str,
                fmt: str) -> Plan:
    """What importing `src` into `content/<project>/<type_name>/` writes and reports."""
    plan = Plan()
    content = ContentRoot(src.resolve(), f"import {src}",
                          foreign=Foreign(fmt, project, type_name))
    settled = read_source(config, content)
    for item in settled:
        plan.problems.extend(f for f in item.findings if f.level == "error")
    records = link_references([item.record for item in settled if item.record is not None])
    if not records:
        plan.problems.append(Finding(src, 1, "error", f"{src} holds no record to import"))
    if plan.problems:
        return plan
    folder = config.content_dir / project / type_name
    names = _names(records, folder)
    new_ids = {old: f"{project}/{type_name}/{name[:-3]}" for old, name in names.items()}
    new_paths = {str(r.path): folder / names[r.id] for r in records}
    project_file = config.content_dir / project / "_project.yml"
    kept = {f.name for f in config.fields}
    used = {name for r in records for name, _ in r.fields}
    extra = [f for f in KEPT_FIELDS if f.name in used and f.name not in kept]
    if extra and not project_file.exists():
        plan.files[project_file] = yaml.safe_dump({"name": project, "fields": [
            {"name": f.name, "type": f.type, "label": f.label} for f in extra]},
            sort_keys=False)
        kept |= {f.name for f in extra}
    elif extra:
        plan.report.append(f"not kept: {', '.join(f.name for f in extra)} (declare them as "
                           f"list fields in {project_file} to keep them)")
    archive = Archive(config, {}, records)
    guesses = {str(item.record.path): item.guesses for item in settled if item.record}
    for record in sorted(records, key=lambda r: names[r.id]):
        target = folder / names[record.id]
        plan.report.append(f"{record.path.name} → {target.relative_to(config.root).as_posix()}")
        front = yaml.safe_dump(_front(record, archive, new_ids, kept, plan.report),
                               sort_keys=False, allow_unicode=True, width=1000)
        plan.files[target] = f"---\n{front}---\n\n{_body(record, new_paths, target)}"
        plan.report.extend(f"  guessed {g}" for g in guesses.get(str(record.path), ()))
    clashes = [p for p in plan.files if p.exists() and p != project_file]
    if clashes:
        plan.problems.append(Finding(clashes[0], 1, "error",
                                     f"{clashes[0]} already exists; nothing was written"))
    return plan


def write_plan(plan: Plan) -> list[Path]:
    """Write the planned files (none exists yet) and return them."""
    written = []
    for path, text in plan.files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        written.append(path)
    return written
