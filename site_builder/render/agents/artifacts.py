"""The files for agents and machines: decisions.json (+ schema), `.md` copies, llms.txt,
llms-full.txt, AGENTS.md, and the feed, sitemap and robots.txt.

Formats, as published:
- `decisions.json`: `{site, statuses, fields, projects, records}`; each record is
  `query.detail(..., body=False)` plus `path` (its HTML page) and `md` (its copy), both relative
  to the site root. Records are newest first, like every listing.
- `<id>.md`: `query/copies.py` `markdown_copy`, the YAML block then the body as written.
- `llms-full.txt`: the llms.txt header (everything before its first `##`), then every copy,
  current records first, then the rest, each group in decisions.json order. Each copy starts
  on a line of its own with `---` followed by `id: "<id>"`, after exactly one blank line.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Container, Iterable, Iterator
from functools import partial
from typing import Any

from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.base.site_paths import (
    AGENTS,
    DECISIONS,
    FEED,
    LLMS,
    LLMS_FULL,
    ROBOTS,
    SCHEMA,
    SITEMAP,
)
from site_builder.query import answers as query
from site_builder.query.copies import front_matter, markdown_copy
from site_builder.render.agents.agent_text import inline, line_start, link_text, one_line
from site_builder.render.agents.guide import agents_md
from site_builder.render.agents.schema import decisions_schema
from site_builder.render.output.pieces import Piece, Pieces
from site_builder.render.pages.feeds import atom_feed, robots_txt, sitemap
from site_builder.render.pages.urls import Urls
from site_builder.render.planned import EVERY, Planned, nothing

Write = Callable[[str, "str | bytes | Iterable[bytes]"], None]



def write_artifacts(archive: Archive, urls: Urls, write: Write,
                    html_pages: Iterable[str] = (), only: Container[str] | None = None) -> int:
    """Write every agent-facing file through `write`; `html_pages` (paths of the HTML pages
    written) feed the sitemap. Returns the number of files written.

    With `only` (site paths), write just those files and compute nothing the others need:
    `serve` re-writes what an edit touched this way.
    """
    written = 0
    for item in planned(archive, urls, html_pages):
        if only is None or item.path in only:
            data = item.make()
            if data is not None:
                write(item.path, data)
                written += 1
    return written


def planned(archive: Archive, urls: Urls, html_pages: Iterable[str] = ()) -> Iterator[Planned]:
    """Every agent-facing file, in the order they are written, with what each reads: a
    record's copy what its YAML block shows (`query.shown_by`), the others every record
    (or none)."""
    copies = _Copies(archive)
    for record in archive.records:
        yield Planned(urls.record_markdown(record), partial(copies.copy, record),
                      partial(query.shown_by, archive, record))
    yield Planned(DECISIONS, partial(decisions_json, archive, urls), EVERY)
    yield Planned(SCHEMA, lambda: _json(decisions_schema(archive.config), compact=False),
                  nothing)
    header = functools.cache(partial(llms_header, archive, urls))
    yield Planned(LLMS, lambda: header() + llms_sections(archive, urls), EVERY)
    # Streamed, each copy made again: holding every copy at once would cost as much memory
    # as the whole archive.
    yield Planned(LLMS_FULL, lambda: llms_full(archive, header, copies.copy), EVERY)
    yield Planned(AGENTS, partial(agents_md, archive, urls), EVERY)
    yield Planned(FEED, partial(atom_feed, archive, urls), EVERY)
    yield Planned(SITEMAP, partial(sitemap, archive, urls, html_pages), EVERY)
    yield Planned(ROBOTS, partial(robots_txt, urls, has_sitemap=bool(archive.config.url)),
                  nothing)


def _json(value: Any, compact: bool) -> str:
    if compact:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


# ---- decisions.json ---------------------------------------------------------------------------


def decisions(archive: Archive, urls: Urls) -> dict[str, Any]:
    """The index of the archive: everything an agent needs except the bodies."""
    return {**_decisions_head(archive), "records": [
        _decisions_item(archive, urls, record) for record in archive.records]}


def decisions_json(archive: Archive, urls: Urls) -> Pieces:
    """decisions.json as compact JSON, in pieces of one record each: the same bytes as
    `decisions` dumped whole, without every record's dict and the whole text held at once
    (some 300 MB at 100,000 records), and each piece one the next build can copy."""

    def head() -> bytes:
        text = _json(_decisions_head(archive), compact=True)
        assert text.endswith("}\n")
        return (text[:-2] + ',"records":[').encode("utf-8")

    def item(record: Record, first: bool) -> bytes:
        text = _json(_decisions_item(archive, urls, record), compact=True)[:-1]
        return (text if first else "," + text).encode("utf-8")

    return Pieces([
        Piece("head", None, head),
        *(Piece(f"{record.id}\0first" if number == 0 else record.id, record.id,
                partial(item, record, number == 0))
          for number, record in enumerate(archive.records)),
        Piece("tail", None, lambda: b"]}\n")])


def _decisions_item(archive: Archive, urls: Urls, record: Record) -> dict[str, Any]:
    item = query.detail(archive, record, body=False)
    item["path"] = urls.record_page(record)
    item["md"] = urls.record_markdown(record)
    return item


def _decisions_head(archive: Archive) -> dict[str, Any]:
    """decisions.json without its records (which come last)."""
    config = archive.config
    return {
        "site": {
            "title": config.title,
            "description": config.description,
            "url": config.url,
            "base": config.base,
            "editUrl": config.edit_url,
            "requiredApprovals": config.required_approvals,
        },
        "statuses": [s.to_json() for s in config.statuses],
        "fields": [f.to_json() for f in config.fields],
        "projects": query.list_projects(archive)["projects"],
    }


# ---- llms.txt and llms-full.txt ---------------------------------------------------------------

def llms_header(archive: Archive, urls: Urls) -> str:
    """The H1, the `>` summary and the details paragraph of llms.txt; the title and the
    summary come from site.yml, so each is one line that opens nothing (agent_text)."""
    config = archive.config
    # After `> ` a `#` or `-` would still open a heading or a list inside the quote.
    summary = (line_start(config.description)
               or f"Decision records of {inline(config.title)}.")
    in_force = ", ".join(s.name for s in config.statuses if s.current) or "none"
    projects = len(archive.projects)
    details = (
        f"{len(archive.records)} decision records (ADRs, RFCs) in {projects} "
        f"project{'s' if projects != 1 else ''}. Each link below is the Markdown copy of one "
        "record: a YAML block (id, ref, title, status, date, supersededBy, currentRecord, ...) "
        f"then the body. Records in force (status {in_force}, not superseded) are listed per "
        "project; every other record (proposed, rejected, deprecated, superseded) is under "
        "Optional. Trust only records in force and follow `currentRecord` from a superseded "
        f"one. The machine-readable index of every record is [{DECISIONS}]"
        f"({urls.for_agents(DECISIONS)}) (schema: [{SCHEMA}]({urls.for_agents(SCHEMA)})); "
        f"every record in one file: [{LLMS_FULL}]({urls.for_agents(LLMS_FULL)}); instructions "
        f"for coding agents: [{AGENTS}]({urls.for_agents(AGENTS)}).")
    return f"# {inline(config.title)}\n\n> {summary}\n\n{details}\n"


def _section_names(archive: Archive) -> dict[str, str]:
    """A unique `##` heading per project (its name; its id added where names clash), each
    one line that opens no link (agent_text)."""
    names: dict[str, str] = {}
    taken = {"optional"}
    counts: dict[str, int] = {}
    for project in archive.projects.values():
        key = one_line(project.name).casefold()
        counts[key] = counts.get(key, 0) + 1
    for project in archive.projects.values():
        name = one_line(project.name) or project.id
        if counts.get(name.casefold(), 0) > 1 or name.casefold() in taken:
            name = f"{name} ({project.id})"
        taken.add(name.casefold())
        names[project.id] = inline(name)
    return names


def _link_line(archive: Archive, urls: Urls, record: Record, optional: bool) -> str:
    text = link_text(f"{record.ref}: {record.title}")
    description = inline(record.description)
    if optional:
        successor = archive.current_record(record)
        state = (f"superseded by {inline(successor.ref)}" if successor is not None
                 else inline(record.status))
        description = f"{state}. {description}" if description else state
    line = f"- [{text}]({urls.for_agents(urls.record_markdown(record))})"
    return f"{line}: {description}" if description else line


def llms_sections(archive: Archive, urls: Urls) -> str:
    """The `## <Project name>` sections (records in force) and `## Optional` (the rest)."""
    names = _section_names(archive)
    by_project: dict[str, list[str]] = {project_id: [] for project_id in archive.projects}
    optional: list[str] = []
    rest: dict[str, list[str]] = {project_id: [] for project_id in archive.projects}
    for record in archive.records:
        if archive.is_current(record):
            by_project[record.project].append(_link_line(archive, urls, record, False))
        else:
            rest[record.project].append(_link_line(archive, urls, record, True))
    for lines in rest.values():  # Optional lists projects in the same order as the sections
        optional.extend(lines)
    parts = []
    for project_id, lines in by_project.items():
        parts.append(f"\n## {names[project_id]}\n\n" + "".join(f"{line}\n" for line in lines))
    if optional:
        parts.append("\n## Optional\n\n" + "".join(f"{line}\n" for line in optional))
    return "".join(parts)


class _Copies:
    """`markdown_copy` of each record for one pass over `planned`, whose YAML block
    is made once: the copy and llms-full.txt both write it, and making it was most of their
    cost (0.1 ms a record). The bodies are not held: llms-full.txt reads each again."""

    def __init__(self, archive: Archive) -> None:
        self._archive = archive
        self._front: dict[str, str] = {}

    def copy(self, record: Record) -> str:
        front = self._front.get(record.id)
        if front is None:
            front = self._front[record.id] = front_matter(self._archive, record)
        return markdown_copy(self._archive, record, front)


def llms_full(archive: Archive, header: Callable[[], str],
              copy: Callable[[Record], str]) -> Pieces:
    """llms-full.txt in pieces: the llms.txt `header`, then every record's `copy` after one
    blank line, records in force first; each record's piece one the next build can copy."""

    def piece(record: Record) -> bytes:
        text = copy(record)
        return b"\n" + text.encode("utf-8") + (b"" if text.endswith("\n") else b"\n")

    ordered = [r for r in archive.records if archive.is_current(r)]
    ordered += [r for r in archive.records if not archive.is_current(r)]
    return Pieces([Piece("header", None, lambda: header().encode("utf-8")),
                   *(Piece(record.id, record.id, partial(piece, record)) for record in ordered)])
