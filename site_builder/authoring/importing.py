"""`site-builder import SRC --project P`: a folder of records in another tool's format →
native files under `content/P/T/`.

The folder is read exactly as a `format` source reads it in place, so the native
result has the same titles, statuses, dates and lineage; the status aliases and default
status are the ones of the source's entry in site.yml when it has one, and those given on the
command line. Files named by date (Log4brains) or whose number is taken get the next numbers
in date order; drafts are imported as drafts (`draft: true`). Links are rewritten by
`import_links` (records to their new names, attachments copied beside them, other files of the
repository to its web address). Nothing is written until every file is known to be writable.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from site_builder.archive.archive import Archive
from site_builder.archive.foreign import KEPT_FIELDS, link_references, read_source
from site_builder.archive.origins import ContentRoot, Foreign
from site_builder.archive.records import FILE_NAME, Record
from site_builder.authoring.import_links import relinker
from site_builder.authoring.new import slugify
from site_builder.base.findings import Finding
from site_builder.base.words import plural
from site_builder.config.site import SiteConfig
from site_builder.config.source_formats import status_key


@dataclass(slots=True)
class Plan:
    """The files an import writes (path → text), the attachments it copies (new path →
    file), the problems that stop it, and its report."""

    files: dict[Path, str] = field(default_factory=dict)
    copies: dict[Path, Path] = field(default_factory=dict)
    problems: list[Finding] = field(default_factory=list)
    report: list[str] = field(default_factory=list)


_PREFIX = re.compile(r"^\d+[-_]")
# Where an import's unknown statuses are mapped, as the error about one says.
_STATUS_HINT = "--status-map '{written}=STATUS'"


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


def import_foreign(config: SiteConfig, src: Path, project: str | None, type_name: str | None,
                   fmt: str | None, status_map: dict[str, str], default_status: str | None,
                   ) -> Foreign | None:
    """How importing `src` reads it: as the site.yml entry naming that folder says, if any
    (its format, project, type, default status and status aliases), with the command line's
    choices over it; drafts kept. None when no project is given or declared."""
    spec = next((s for s in config.sources if s.format and s.path
                 and (config.root / s.path).resolve() == src.resolve()), None)
    project = project or (spec.project if spec else None)
    if project is None:
        return None
    mapping = dict(spec.status_map) if spec else {}
    mapping |= {status_key(key): value.strip() for key, value in status_map.items()}
    return Foreign(fmt or (spec.format if spec else None) or "auto", project,
                   type_name or (spec.type if spec else "adr"),
                   default_status or (spec.default_status if spec else "accepted"),
                   tuple(sorted(mapping.items())), drafts=True, status_hint=_STATUS_HINT)


def plan_import(config: SiteConfig, src: Path, foreign: Foreign) -> Plan:
    """What importing `src` into `content/<project>/<type>/`, read as `foreign` says,
    writes and reports."""
    plan = Plan()
    content = ContentRoot(src.resolve(), f"import {src}", foreign=foreign)
    settled = read_source(config, content)
    for item in settled:
        plan.problems.extend(f for f in item.findings if f.level == "error")
    records = link_references([item.record for item in settled if item.record is not None])
    if not records:
        plan.problems.append(Finding(src, 1, "error", f"{src} holds no record to import"))
    if plan.problems:
        return plan
    project, type_name = foreign.project, foreign.type
    folder = config.content_dir / project / type_name
    names = _names(records, folder)
    new_ids = {old: f"{project}/{type_name}/{name[:-3]}" for old, name in names.items()}
    links = relinker(src.resolve(), folder, {str(r.path): folder / names[r.id] for r in records},
                     config.root.resolve(), config.repository_url)
    kept = _kept_fields(config, records, plan)
    archive = Archive(config, {}, records)
    by_path = {str(item.record.path): item for item in settled if item.record}
    for record in sorted(records, key=lambda r: names[r.id]):
        target = folder / names[record.id]
        plan.report.append(f"{record.path.name} → {target.relative_to(config.root).as_posix()}")
        data = _front(record, archive, new_ids, kept, plan.report)
        if by_path[str(record.path)].draft:
            data["draft"] = True
        front = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)
        plan.files[target] = f"---\n{front}---\n\n{links.body(record, target)}"
        plan.report.extend(f"  guessed {g}" for g in by_path[str(record.path)].guesses)
        plan.report.extend(links.report)  # what became of this record's links
        links.report.clear()
    plan.copies = links.copies
    drafts = sum(1 for item in by_path.values() if item.draft)
    if drafts:
        plan.report.append(f"{plural(drafts, 'draft')} imported as drafts (draft: true)")
    clashes = [p for p in [*plan.files, *plan.copies] if p.exists()
               and p != config.content_dir / project / "_project.yml"]
    if clashes:
        plan.problems.append(Finding(clashes[0], 1, "error",
                                     f"{clashes[0]} already exists; nothing was written"))
    return plan


def _kept_fields(config: SiteConfig, records: list[Record], plan: Plan) -> set[str]:
    """The custom fields the imported records keep: the site's, plus MADR's `consulted` and
    `informed` declared in a new `_project.yml` (planned here) when the project has none."""
    project_file = config.content_dir / records[0].project / "_project.yml"
    kept = {f.name for f in config.fields}
    used = {name for r in records for name, _ in r.fields}
    extra = [f for f in KEPT_FIELDS if f.name in used and f.name not in kept]
    if extra and not project_file.exists():
        plan.files[project_file] = yaml.safe_dump({"name": records[0].project, "fields": [
            {"name": f.name, "type": f.type, "label": f.label} for f in extra]},
            sort_keys=False)
        kept |= {f.name for f in extra}
    elif extra:
        plan.report.append(f"not kept: {', '.join(f.name for f in extra)} (declare them as "
                           f"list fields in {project_file} to keep them)")
    return kept


def write_plan(plan: Plan) -> list[Path]:
    """Write the planned files and copies (none exists yet) and return them."""
    written = []
    for path, text in plan.files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        written.append(path)
    for path, original in plan.copies.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(original, "rb") as source, open(path, "xb") as handle:
            shutil.copyfileobj(source, handle)
        written.append(path)
    return written
