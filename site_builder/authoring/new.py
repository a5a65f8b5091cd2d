"""`site-builder new`: the next-numbered record, written from the MADR-style template.

`draft()` fills the template in without writing anything; `new_record()` writes it, and the
MCP server's draft_record prompt shows it to an agent, so both say the same.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from site_builder.archive.records import FILE_NAME
from site_builder.archive.template import BODY, DESCRIPTION, FRONT_MATTER, SECTIONS
from site_builder.config.site import SiteConfig
from site_builder.config.values import FieldDef
from site_builder.errors import SiteBuilderError

_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


class NewRecordError(SiteBuilderError):
    """A record that `new` refuses to write; the message says why."""


def slugify(title: str, max_length: int = 60) -> str:
    """A file-name slug: lowercase words joined by `-`.

    Accents are dropped from Latin letters (`Café` → `cafe`); letters of other scripts are
    kept as they are (`日本語` stays), since transliterating them would lose the title.
    """
    kept: list[str] = []
    for char in unicodedata.normalize("NFKD", title):
        mark = unicodedata.category(char).startswith("M")
        if mark and kept and kept[-1].isascii():
            continue  # the accent of a Latin letter
        # Letters, digits, and the vowel signs and marks that other scripts' words need.
        kept.append(char if char.isalnum() or (mark and kept and kept[-1] != "-") else "-")
    text = unicodedata.normalize("NFC", "".join(kept)).casefold()
    slug = re.sub(r"-{2,}", "-", text).strip("-")
    slug = slug[:max_length].rstrip("-")
    return slug or "record"


def next_number(folder: Path) -> int:
    """One more than the highest number used in `folder` (gaps are never refilled)."""
    numbers = [int(m.group(1)) for p in folder.glob("*.md") if (m := FILE_NAME.match(p.name))]
    return max(numbers, default=0) + 1


def git_author(cwd: Path) -> str | None:
    """`git config user.name`, when git and a name are there."""
    try:
        result = subprocess.run(["git", "config", "user.name"], cwd=cwd, capture_output=True,
                                text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    name = result.stdout.strip()
    return name or None


@dataclass(frozen=True, slots=True)
class Draft:
    """A record not written yet: where it goes, what it will be called, and its text.

    `path` is relative to the content folder (`<project>/<type>/NNNN-slug.md`).
    """

    path: PurePosixPath
    id: str
    ref: str
    text: str


def check_names(project: str, type_name: str, title: str) -> None:
    """Raises NewRecordError for a project or type that cannot be a folder name, or an
    empty title."""
    for label, name in (("project", project), ("type", type_name)):
        if not _NAME.match(name):
            raise NewRecordError(f"{label} '{name}' must be lowercase letters, digits, "
                                 "'.', '_' or '-'")
    if not title.strip():
        raise NewRecordError("the title must not be empty")


def check_native(config: SiteConfig, project: str) -> None:
    """Raises NewRecordError when `project` is read from a folder kept in another tool's
    format: a native file there would make the project claimed twice, and the folder's own
    tool (adr new, log4brains adr new) keeps its numbering and template."""
    foreign = next((s for s in config.sources if s.format and s.project == project), None)
    if foreign is not None:
        raise NewRecordError(
            f"project '{project}' is read from {foreign.label} in {foreign.format} format: "
            "add the record there with that folder's own tool, or run 'site-builder import' "
            "to move it to content/")


def draft(config: SiteConfig, project: str, type_name: str, title: str, number: int,
          today: dt.date, author: str | None = None, *, status: str | None = None,
          tags: tuple[str, ...] = (), fields: tuple[FieldDef, ...] = (),
          sections: tuple[str, ...] = SECTIONS) -> Draft:
    """Record `number` of `project/type_name` as `new` writes it: the template filled in.

    `status` defaults to the site's first open status. `fields` adds a line to fill in per
    declared field, `sections` other body sections than the template's (each with a line
    to replace); `new` itself writes neither.
    """
    slug = f"{number:04d}-{slugify(title)}"
    front = FRONT_MATTER.format(
        title=json.dumps(title.strip(), ensure_ascii=False),
        status=status or next((s.name for s in config.statuses if s.open),
                              config.statuses[0].name),
        date=today.isoformat(),
        description=json.dumps(DESCRIPTION, ensure_ascii=False),
        authors=json.dumps([author] if author else [], ensure_ascii=False),
        tags=json.dumps(list(tags), ensure_ascii=False),
        fields="".join(f"{field_line(f)}\n" for f in fields),
    )
    body = BODY if sections == SECTIONS else "".join(
        f"\n## {section}\n\n…\n" for section in sections)
    return Draft(PurePosixPath(project, type_name, f"{slug}.md"),
                 f"{project}/{type_name}/{slug}", f"{project}-{type_name}-{number:04d}".upper(),
                 front + body)


def field_line(declared: FieldDef) -> str:
    """A front-matter line for a declared field, its value left for the author: a comment
    says what the field takes."""
    takes = ", ".join(declared.values) if declared.type == "enum" else declared.type
    about = f" {declared.description}" if declared.description else ""
    unit = f" in {declared.unit}" if declared.unit else ""
    return f"{declared.name}:  # {takes}{unit}.{about}"


def new_record(config: SiteConfig, project: str, type_name: str, title: str,
               create_project: bool = False, today: dt.date | None = None,
               author: str | None = None) -> Path:
    """Write the next-numbered record of `project/type_name` and return its path.

    Raises NewRecordError for an unknown project (without `create_project`), a bad folder
    name, an empty title or a file that already exists.
    """
    check_names(project, type_name, title)
    project_dir = config.content_dir / project
    if not project_dir.is_dir() and not create_project:
        known = sorted(p.name for p in config.content_dir.iterdir() if p.is_dir()) \
            if config.content_dir.is_dir() else []
        hint = f" (projects: {', '.join(known)})" if known else ""
        raise NewRecordError(f"unknown project '{project}'{hint}; "
                             "pass --create-project to start it")
    folder = project_dir / type_name
    folder.mkdir(parents=True, exist_ok=True)
    author = author if author is not None else git_author(config.root)
    written = draft(config, project, type_name, title, next_number(folder),
                    today or dt.date.today(), author)
    path = config.content_dir / written.path
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise NewRecordError(f"{path} already exists; nothing was written") from None
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(written.text)
    return path
