"""Which files of a folder in another tool's format are records, and why the others are not.

Files whose name starts with a number or a `YYYYMMDD` date are records, except templates (a
name holding `template`, a number not yet given, unfilled placeholders); `README.md`,
`index.md` and other pages are not records, unless a page states a status (Log4brains
names records by slug alone). `exclude:` globs on the source leave files out. Every file
left out is a `Skipped`, which `build --verbose`, `check` and `init --from` report.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from site_builder.archive.formats.fields import Fields
from site_builder.archive.formats.placeholders import is_numbered, template_reason

# Pages such folders hold beside their records (besides names starting `_` or `.`).
NOT_RECORDS = frozenset({"readme.md", "index.md"})
DRAFT = "a draft: not published"


@dataclass(frozen=True, slots=True)
class Skipped:
    """A Markdown file of a records folder that is not published as a record: its path, its
    path relative to the archive root (POSIX), and why (`a template (its name says so)`)."""

    path: Path
    rel_path: str
    reason: str

    @property
    def draft(self) -> bool:
        """True for a draft: a record, not yet published (a link to it is to a record)."""
        return self.reason == DRAFT

    def line(self) -> str:
        """`path: why`, as `build --verbose` and `init --from` print it."""
        return f"{self.rel_path}: {self.reason}"


def is_candidate(name: str) -> bool:
    """True for a file name that may hold a record: Markdown not hidden (`_`, `.`)."""
    return name.lower().endswith(".md") and not name.startswith(("_", "."))


def name_reason(name: str, exclude: tuple[str, ...] = ()) -> str | None:
    """Why the file `name` is no record, by its name alone; None when it may be one."""
    lowered = name.lower()
    if lowered in NOT_RECORDS:
        return "a page of the folder, not a record"
    glob = next((g for g in exclude if fnmatch.fnmatchcase(name, g)), None)
    if glob is not None:
        return f"excluded by '{glob}' (exclude in site.yml)"
    if _template_name(lowered.removesuffix(".md")):
        return "a template (its name says so)"
    return None


def _template_name(stem: str) -> bool:
    """True for `template.md`, `adr-template-minimal`, `0000-TEMPLATE`, `xxxx-template`,
    `NNNN-title-template`; not for a record about templates (`0010-template-engine`), nor
    for a numbered name ending in `template`, whose text decides (`template_reason`:
    `0002-use-adr-tools-with-custom-template` is a record, DFE-Digital)."""
    parts = re.split(r"[-_. ]+", stem)
    if "template" not in parts:
        return False
    return not is_numbered(stem) or stem.strip("0")[:1] in "-_."


def content_reason(name: str, fields: Fields) -> str | None:
    """Why the file `name`, read as `fields`, is no record; None when it is one."""
    reason = template_reason(name, fields)
    if reason is not None:
        return reason
    if not is_numbered(name) and "status" not in fields.values:
        return "a page, not a record (no number or date in its name, and no status)"
    return None


def file_reason(name: str, text: str, read: Callable[[str], Fields],
                exclude: tuple[str, ...] = ()) -> str | None:
    """Why the file `name` holding `text` is no record, by its name and then by its fields
    as `read` finds them; None when it is one. (A folder that is read caches the fields, so
    it asks `name_reason` and `content_reason` itself, the same two questions.)"""
    if not is_candidate(name):
        return "not a Markdown file of its own ('_' or '.' first)"
    return name_reason(name, exclude) or content_reason(name, read(text))


def is_record_name(name: str) -> bool:
    """True for a file name a folder in another tool's format may hold a record under (its
    text may still show it is a template or a page)."""
    return is_candidate(name) and name_reason(name) is None
