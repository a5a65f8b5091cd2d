"""Which Markdown files of a folder in another tool's format are no records, and why.

Records are named by a number or a date (`0007-use-go.md`, `adr-007-x.md`,
`20201028-use-rest.md`). Beside them sit templates — named so (`template.md`,
`adr-template-minimal.md`, `0000-TEMPLATE.md`) or still holding the template's placeholders
(`Date: <!-- Today's date -->`, `- Date: [YYYY-MM-DD]`, `{{ STATUS }}`) — and pages for the
team's docs site (`README.md`, `index.md`, `install.md`). `init --from` lists each one it
leaves out with the reason given here.
"""

from __future__ import annotations

import re
from pathlib import Path

from site_builder.archive.formats import is_record_name
from site_builder.confined import MAX_RECORD_BYTES, Refused, read_regular

__all__ = ["NUMBERED", "placeholder", "skip_reason", "skipped_files"]

# A record's name: a number or a date first, perhaps after a short prefix (`adr-007-…`).
NUMBERED = re.compile(r"^(?:[A-Za-z]{1,5}[-_])?\d{1,8}(?=[-_.])")
# Placeholders templates leave for the author to fill in.
_PLACEHOLDERS = re.compile(
    r"<!--\s*today'?s date\s*-->|\[\s*YYYY-MM-DD\b|\{\{\s*[A-Za-z_ ]+\s*\}\}"
    r"|\[\s*(?:proposed|accepted|rejected|deprecated)\s*\|", re.IGNORECASE)
# Templates put their placeholders in the metadata, at the top; a record quoting a template
# further down is still a record.
_HEAD_CHARS = 4096


def placeholder(text: str) -> str | None:
    """The first unfilled template placeholder in the head of `text`, or None."""
    match = _PLACEHOLDERS.search(text[:_HEAD_CHARS])
    return match.group(0) if match else None


def skip_reason(name: str, text: str) -> str | None:
    """Why the Markdown file `name` holding `text` is no record, or None when it is one."""
    if name.startswith(("_", ".")):
        return "its name starts with '_' or '.'"
    if "template" in name.lower():
        return "a template (its name says so)"
    if not is_record_name(name):
        return "a page, not a record"
    if not NUMBERED.match(name):
        return "a page, not a record (no number or date in its name)"
    found = placeholder(text)
    if found is not None:
        return f"a template (unfilled placeholder '{found}')"
    return None


def skipped_files(folder: Path) -> list[tuple[Path, str]]:
    """The Markdown files directly in `folder` that are no records, each with why, by name.
    A file that cannot be read (or leads out of the folder) is judged by its name alone."""
    out = []
    try:
        paths = sorted(folder.iterdir())
    except OSError:  # a folder that cannot be listed has no record to skip either
        return []
    for path in paths:
        if not path.name.lower().endswith(".md") or not path.is_file():
            continue
        try:
            text = read_regular(path, MAX_RECORD_BYTES, root=folder).decode(
                "utf-8", errors="replace")
        except Refused:
            text = ""
        reason = skip_reason(path.name, text)
        if reason is not None:
            out.append((path, reason))
    return out
