"""What the three prompts say: the archive's facts written out as a ready task for an agent.

Each function takes an Archive and a prompt's checked arguments and returns the text of
the prompt's message; it raises PromptError for an argument the archive cannot use (an
unknown project, status or record). The facts come from the query layer and from
`authoring.draft`, the template `site-builder new` writes, so a prompt never says anything
a tool or the CLI would say differently.
"""

from __future__ import annotations

import datetime as dt
import re
import shlex
from collections import Counter
from typing import Any

from site_builder.archive.archive import Archive, LookupFailed
from site_builder.archive.records import Record
from site_builder.archive.template import SECTIONS
from site_builder.authoring.new import (
    NewRecordError,
    check_names,
    check_native,
    draft,
    next_number,
)
from site_builder.errors import UsageError
from site_builder.mcp import tools
from site_builder.query import answers as query
from site_builder.query import copies, governance

# As many paths as records_for_paths takes: a review costs paths × records matches.
MAX_PATHS = next(p.maximum or 0 for p in tools.BY_NAME["records_for_paths"].params
                 if p.name == "paths")
# Records whose headings decide a draft's sections: the newest of the project's type.
_SECTION_SAMPLE = 20
_SEPARATORS = re.compile(r"[\n,]+")


class PromptError(UsageError, ValueError):
    """An argument the archive cannot use; the message says what to pass instead."""


def split_list(value: str) -> list[str]:
    """The items of a list argument (prompt arguments are strings): split at commas and
    line breaks, stripped, empty ones dropped."""
    return [item.strip() for item in _SEPARATORS.split(value) if item.strip()]


def _line(item: dict[str, Any]) -> str:
    return f"{item['ref']} \"{item['title']}\" ({item['status']})"


# ---- draft_record --------------------------------------------------------------------------


def sections_used(archive: Archive, records: list[Record]) -> tuple[str, ...]:
    """The `## ` sections most of `records` (the newest few) have, in their usual order;
    the template's when they share none."""
    sample = records[:_SECTION_SAMPLE]
    if not sample:
        return SECTIONS
    bodies = archive.all_bodies()
    seen: Counter[str] = Counter()
    places: dict[str, float] = {}
    for record in sample:
        headings = [line[3:].strip() for line in bodies.get(record.id, "").splitlines()
                    if line.startswith("## ")]
        for place, heading in enumerate(dict.fromkeys(headings)):
            seen[heading] += 1
            places[heading] = places.get(heading, 0.0) + place / len(sample)
    shared = [h for h, count in seen.items() if count * 2 >= len(sample)]
    return tuple(sorted(shared, key=lambda h: places[h] / seen[h])) or SECTIONS


def _next_number(archive: Archive, project: str, type_name: str, local: bool) -> int:
    """What `site-builder new` would number the record: one more than the highest number
    of the folder (locally, drafts included, which the archive leaves out)."""
    numbers = [int(r.number) for r in archive.records
               if r.project == project and r.type == type_name and r.number.isdigit()]
    after = max(numbers, default=0) + 1
    if local:
        after = max(after, next_number(archive.config.content_dir / project / type_name))
    return after


def draft_text(archive: Archive, given: dict[str, str], local: bool) -> str:
    """The draft_record prompt: the template filled in, and how to save it."""
    project_id, type_name, title = given["project"], given["type"], given["title"]
    project = archive.projects.get(project_id)
    if project is None:
        raise PromptError(f'No project "{project_id}"; the projects are '
                          f"{', '.join(archive.projects) or 'none yet'}.")
    try:
        check_names(project_id, type_name, title)
        check_native(archive.config, project_id)
    except NewRecordError as exc:
        raise PromptError(f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None
    statuses = [s.name for s in archive.config.statuses]
    status = given.get("status")
    if status is not None and status not in statuses:
        raise PromptError(f'No status "{status}"; the statuses are {", ".join(statuses)}.')
    ours = [r for r in archive.records if r.project == project_id]
    typed = [r for r in ours if r.type == type_name]
    written = draft(archive.config, project_id, type_name, title,
                    _next_number(archive, project_id, type_name, local), dt.date.today(),
                    status=status, tags=tuple(split_list(given.get("tags", ""))),
                    fields=(*archive.config.fields, *project.fields),
                    sections=sections_used(archive, typed or ours))
    where = (str(archive.config.content_dir / written.path) if local
             else f"{archive.config.content}/{written.path} in the archive's repository")
    command = shlex.join(["site-builder", "new", project_id, type_name, title.strip()])
    return "\n".join([
        f"Write decision record {written.ref} for the {project.name} project: "
        f"\"{title.strip()}\".", "",
        f"Save it as {where}, or run `{command}` at the archive's root, which "
        "writes the template below at the next free number and prints the path, and "
        "replace that file's text with yours.", "",
        "Replace the description with one line saying what was decided and why, write each "
        "section, name the deciders and tags, and give each custom field a value or delete "
        "its line.", _statuses(archive), "",
        "```markdown", written.text.rstrip("\n"), "```", "",
        "Before writing, search the archive (search_records) for records this one relates "
        "to or supersedes, and name them in related or supersedes.",
    ])


def _statuses(archive: Archive) -> str:
    described = []
    for status in archive.config.statuses:
        note = " (under discussion)" if status.open else " (in force)" if status.current \
            else ""
        described.append(f"{status.name}{note}")
    return f"The statuses are: {', '.join(described)}."


# ---- review_change -------------------------------------------------------------------------


def _via(item: dict[str, Any]) -> str:
    """How a record came to govern the paths: records_for_paths' `via` when it says (code
    that cites the record, beside `affects`), else its affects patterns."""
    via = item.get("via")
    if via is None:
        return ""
    return f" [{', '.join(map(str, via)) if isinstance(via, list) else via}]"


def _superseded_line(archive: Archive, item: dict[str, Any]) -> str:
    record = archive.by_id[item["id"]]
    successor = archive.current_record(record)
    if successor is None:
        return f"- {_line(item)}{_via(item)}: not in force."
    return (f"- {_line(item)}{_via(item)}: superseded; follow {successor.ref} "
            f"\"{successor.title}\" ({successor.status}) instead.")


def review_text(archive: Archive, given: dict[str, str], local: bool) -> str:
    """The review_change prompt: the decisions governing the paths, as a review task."""
    paths = split_list(given["paths"])
    if not paths:
        raise PromptError("paths must name at least one repository-relative path "
                          "(several: separate them with commas or new lines).")
    if len(paths) > MAX_PATHS:
        raise PromptError(f"paths names {len(paths)} paths; a review takes at most "
                          f"{MAX_PATHS}: review the change in parts.")
    found = governance.records_for_paths(archive, paths, limit=200)
    lines = ["Review this change against the decisions that govern its files.", "",
             "Changed: " + ", ".join(f"`{p}`" for p in paths)]
    if given.get("summary"):
        lines.append(f"Summary: {given['summary'].strip()}")
    lines.append("")
    if not found["current"] and not found["historical"]:
        lines.append("No record governs these paths. If the change makes a decision worth "
                     "recording, write one (the draft_record prompt).")
        return "\n".join(lines)
    if found["current"]:
        lines.append("Decisions in force; say for each whether the change keeps to it:")
        for item in found["current"]:
            lines += [f"- {_line(item)}{_via(item)}", f"  {item['description']}"]
    if found["historical"]:
        lines += ["", "No longer in force (do not hold the change to them):"]
        lines += [_superseded_line(archive, item) for item in found["historical"]]
    shown = len(found["current"]) + len(found["historical"])
    if found["total"] > shown:
        lines.append(f"({found['total'] - shown} more: records_for_paths with offset "
                     f"{shown}.)")
    lines += ["", "Read a whole record with get_record (its ref). A change that departs "
              "from a decision in force needs a new record that supersedes it "
              "(draft_record); say which."]
    return "\n".join(lines)


# ---- explain_record ------------------------------------------------------------------------


def explain_text(archive: Archive, given: dict[str, str], local: bool) -> str:
    """The explain_record prompt: the record with its lineage, related records and review."""
    try:
        record = archive.get(given["id"])
    except LookupFailed as exc:
        raise PromptError(str(exc)) from None
    about = query.detail(archive, record, body=False)
    lines = [f"Explain decision {record.ref}, \"{record.title}\", to someone who has to work "
             "with it: what it decided and why, whether it is in force, what it replaced "
             "and what replaced it, and what is still to be done about it.", "",
             f"In force: {'yes' if about['current'] else 'no'} (status {record.status})."]
    lines += [f"Supersedes: {_line(r) if 'ref' in r else r['id']}" for r in about["supersedes"]]
    chain = archive.chain(record)
    if chain:
        lines.append("Superseded by: " + " → ".join(
            f"{r.ref} \"{r.title}\" ({r.status})" for r in chain))
    lines += [f"Related: {_line(r) if 'ref' in r else r['id'] + ' (missing)'}"
              for r in about["related"]]
    lines += _review_lines(about)
    lines += ["", copies.markdown_copy(archive, record).rstrip("\n")]
    return "\n".join(lines)


def _review_lines(about: dict[str, Any]) -> list[str]:
    out = []
    review = about["review"]
    if review is not None:
        due = dt.date.fromisoformat(review["due"])
        late = " (overdue)" if due < dt.date.today() else ""
        out.append(f"Review: every {review['every']}, last {review['reviewed'] or 'never'}, "
                   f"next due {review['due']}{late}.")
    signoff = about["rfcReview"]
    if signoff is not None:
        waiting = ", ".join(signoff["waitingOn"]) or "nobody"
        out.append(f"Sign-off: {signoff['status']}, {signoff['approved']} of "
                   f"{signoff['required']} approvals, waiting on {waiting}.")
    return out
