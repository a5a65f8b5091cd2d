"""AGENTS.md: what a coding agent should know before it uses the published archive.

Every value from the archive (site title and description, project ids, names and
descriptions, status names, the example record) goes through `agent_text`, so that content
cannot add headings, list items or links of its own to the instructions agents follow.
"""

from __future__ import annotations

from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.render.agents.agent_menu import SITE_PLACEHOLDER, connect_command, mcp_json
from site_builder.render.agents.agent_text import code, inline, line_start, link_text
from site_builder.render.pages.urls import Urls


def _names(items: list[str]) -> str:
    return ", ".join(code(name) for name in items) if items else "none"


def _project_line(project_id: str, name: str, description: str) -> str:
    """One list item of `## Projects`: the id as code, the name and description inline."""
    about = f" ({inline(description)})" if description.strip() else ""
    return f"- {code(project_id)}: {inline(name)}{about}"


def agents_md(archive: Archive, urls: Urls) -> str:
    """The AGENTS.md published at the site root, ending with its `## MCP` section."""
    config = archive.config
    projects = "\n".join(_project_line(p.id, p.name, p.description)
                         for p in archive.projects.values())
    example = archive.records[0] if archive.records else None
    lines = [
        f"# {inline(config.title)}: instructions for coding agents",
        "",
        *([line_start(config.description), ""] if config.description.strip() else []),
        f"This site publishes the decision records (ADRs, RFCs) of this organisation: "
        f"{len(archive.records)} records in {len(archive.projects)} project(s). A record states "
        "a decision, why it was taken and what it governs. Check the records before changing "
        "code they govern, and cite them by ref (for example "
        f"{code(example.ref if example else 'PROJECT-ADR-0001')}).",
        "",
        *_in_force_section(archive),
        "## Projects",
        "",
        projects or "(none)",
        "",
        *_query_section(example, urls),
        *_mcp_section(urls),
    ]
    return "\n".join(lines) + "\n"


def _in_force_section(archive: Archive) -> list[str]:
    """The lines saying which statuses are in force, open or decided, and how to follow them."""
    statuses = archive.config.statuses
    current = [s.name for s in statuses if s.current]
    open_ = [s.name for s in statuses if s.open]
    decided = [s.name for s in statuses if not s.current and not s.open]
    return [
        "## Which records are in force",
        "",
        f"- In force: status {_names(current)}, unless a newer record supersedes it. In "
        "`decisions.json` and in each record's YAML block this is `current: true`.",
        f"- Under discussion, not yet binding: {_names(open_)}.",
        f"- Decided but not in force: {_names(decided)}. A superseded record names its "
        "replacement in `supersededBy` and the record in force at the end of the chain in "
        "`currentRecord`: follow those, never the old text.",
        "- `affects` lists glob patterns of the repository paths a record governs "
        "(`.gitignore` rules).",
        "",
    ]


def _query_section(example: Record | None, urls: Urls) -> list[str]:
    """The table of published files and the recipe for "which decisions apply to this file?"."""
    example_md = urls.for_agents(urls.record_markdown(example)) if example else "<id>.md"
    return [
        "## How to query this archive",
        "",
        "| file | what it holds |",
        "|---|---|",
        f"| [decisions.json]({urls.for_agents('decisions.json')}) | every record's metadata "
        "(no bodies): `site`, `statuses`, `fields`, `projects`, `records`; each record has "
        "`path` (HTML page) and `md` (Markdown copy), relative to the site root |",
        f"| [decisions.schema.json]({urls.for_agents('decisions.schema.json')}) | the JSON "
        "Schema of decisions.json |",
        f"| `<id>.md`, e.g. [{link_text(example.id) if example else '&lt;id&gt;'}.md]"
        f"({example_md}) | one "
        "record: a YAML block (id, ref, title, status, date, …) then the body as written |",
        f"| [llms.txt]({urls.for_agents('llms.txt')}) | an index of the copies: records in force "
        "per project, everything else under Optional |",
        f"| [llms-full.txt]({urls.for_agents('llms-full.txt')}) | every copy in one file, records "
        "in force first |",
        "",
        "To answer \"which decisions apply to this file?\", read decisions.json, keep the "
        "records with `current: true` whose `affects` patterns match the path, then read their "
        "`.md` copies. Records are addressed by id (`project/type/NNNN-slug`), short id "
        "(`project/type/N`) or ref (`PROJECT-TYPE-NNNN`).",
        "",
    ]


def _mcp_section(urls: Urls) -> list[str]:
    site = urls.absolute("index.html")
    lines = [
        "## MCP",
        "",
        "The same questions can be asked through a read-only MCP server (stdio), which reads "
        "the files above:",
        "",
        "```sh",
        f"site-builder mcp --url {site or SITE_PLACEHOLDER}",
        "```",
        "",
        "Claude Code adds it with:",
        "",
        "```sh",
        connect_command(site),
        "```",
        "",
        "Other clients read it from `.mcp.json`:",
        "",
        "```json",
        mcp_json(site),
        "```",
        "",
    ]
    if site is None:
        lines += [
            f"Replace `{SITE_PLACEHOLDER}` with the address this site is published at: its "
            "`site.yml` sets no `url`, so the build cannot know it.",
            "",
        ]
    lines += [
        "Inside a checkout of the archive, `site-builder mcp --root <folder>` answers from the "
        "content folder instead. Start with `list_projects` or `search_records`, use "
        "`records_for_paths` before editing files, and trust only records in force.",
    ]
    return lines
