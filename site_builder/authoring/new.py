"""`site-builder new`: the next-numbered record, written from the MADR-style template."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import subprocess
import unicodedata
from pathlib import Path

from site_builder.archive.records import FILE_NAME
from site_builder.archive.template import DESCRIPTION, RECORD_TEMPLATE
from site_builder.config.site import SiteConfig
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


def new_record(config: SiteConfig, project: str, type_name: str, title: str,
               create_project: bool = False, today: dt.date | None = None,
               author: str | None = None) -> Path:
    """Write the next-numbered record of `project/type_name` and return its path.

    Raises NewRecordError for an unknown project (without `create_project`), a bad folder
    name, an empty title or a file that already exists.
    """
    for label, name in (("project", project), ("type", type_name)):
        if not _NAME.match(name):
            raise NewRecordError(f"{label} '{name}' must be lowercase letters, digits, "
                                 "'.', '_' or '-'")
    if not title.strip():
        raise NewRecordError("the title must not be empty")
    project_dir = config.content_dir / project
    if not project_dir.is_dir() and not create_project:
        known = sorted(p.name for p in config.content_dir.iterdir() if p.is_dir()) \
            if config.content_dir.is_dir() else []
        hint = f" (projects: {', '.join(known)})" if known else ""
        raise NewRecordError(f"unknown project '{project}'{hint}; "
                             "pass --create-project to start it")
    folder = project_dir / type_name
    folder.mkdir(parents=True, exist_ok=True)
    number = next_number(folder)
    path = folder / f"{number:04d}-{slugify(title)}.md"
    status = next((s.name for s in config.statuses if s.open), config.statuses[0].name)
    author = author if author is not None else git_author(config.root)
    text = RECORD_TEMPLATE.format(
        title=json.dumps(title.strip(), ensure_ascii=False),
        status=status,
        date=(today or dt.date.today()).isoformat(),
        description=json.dumps(DESCRIPTION, ensure_ascii=False),
        authors=json.dumps([author] if author else [], ensure_ascii=False),
    )
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise NewRecordError(f"{path} already exists; nothing was written") from None
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    return path
