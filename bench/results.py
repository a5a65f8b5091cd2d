"""What one bench run measured: named summaries of seconds and bytes, and what was skipped.

Names are dotted, tool or mode first: `build.hugo`, `rebuild.unchanged`, `mcp.local.query`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bench.stats import Summary

SITE_BUILDER, HUGO, MKDOCS = "site-builder", "hugo", "mkdocs"

# Labels for people, in the order the tables list them.
LABELS = {
    "build": "full build (cold)",
    "rebuild.unchanged": "rebuild, nothing changed",
    "rebuild.one-edited": "rebuild, one record edited (first after a cold build)",
    "rebuild.one-edited-again": "rebuild, one record edited",
    "rebuild.one-edited-journal": "rebuild, one record edited, committed by the journal",
    "serve.start": "serve: start → first page",
    "serve.first-build": "serve: start → first build done (behind)",
    "serve.edit-visible": "serve: save → new page served",
    "mcp.local.start": "MCP local: start → initialize answer",
    "mcp.local.first-tool": "MCP local: start → first tool answer",
    "mcp.local.first-query": "MCP local: start → first text query answered",
    "mcp.local.filters": "MCP local: search_records, filters",
    "mcp.local.query": "MCP local: search_records, query",
    "mcp.local.get": "MCP local: get_record",
    "mcp.local.due": "MCP local: due_reviews",
    "mcp.remote.start": "MCP remote: start → initialize answer",
    "mcp.remote.first-tool": "MCP remote: first call (fetches decisions.json)",
    "mcp.remote.first-query": "MCP remote: start → first text query answered",
    "mcp.remote.cached": "MCP remote: cached calls (all tools)",
    "mcp.remote.filters": "MCP remote: search_records, filters (cached)",
    "mcp.remote.query": "MCP remote: search_records, query (cached)",
    "mcp.remote.get": "MCP remote: get_record (cached)",
    "mcp.remote.due": "MCP remote: due_reviews (cached)",
}


@dataclass(frozen=True, slots=True)
class Output:
    """What a build wrote: a sanity check that the tools did comparable work."""

    files: int
    html_pages: int
    size: int


@dataclass(slots=True)
class Results:
    """Everything one bench run measured."""

    records: int
    runs: int
    seconds: dict[str, Summary] = field(default_factory=dict)
    """Wall times: `build.<tool>`, `rebuild.*`, `serve.*`, `mcp.*`."""
    cpu_seconds: dict[str, Summary] = field(default_factory=dict)
    """CPU times (user + system, children included) of `build.<tool>`."""
    memory: dict[str, Summary] = field(default_factory=dict)
    """Peak resident bytes of `build.<tool>` and `rebuild.*`."""
    outputs: dict[str, Output] = field(default_factory=dict)
    """What each tool's full build wrote, keyed by tool."""
    skipped: dict[str, str] = field(default_factory=dict)
    """Measurement (or tool) → why it was not measured."""
    limits: dict[str, float] = field(default_factory=dict)
    """Tool → the time limit its builds ran under (the last one used)."""
    versions: dict[str, str] = field(default_factory=dict)
    """Tool → version string."""
    profiles: dict[str, str] = field(default_factory=dict)
    search: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    """Search quality per path (`MCP local`, `site`…): (questions, top-1 hits, top-3 hits)."""
    first_query: tuple[str, int, int] | None = None
    """The site's first query on the corpus: (query, bytes downloaded, requests)."""
    """Missed target → what its profile shows (hottest functions)."""
    load: dict[str, list[str]] = field(default_factory=dict)
    """Archive → the Markdown lines of one HTTP load run on it (bench/http_load.py)."""
    not_run: dict[str, str] = field(default_factory=dict)
    """Tool → what its cells show where it was not started (`not run: ~24 GB est.`)."""
    by_size: dict[int, Results] = field(default_factory=dict)
    """Corpus size → the builds measured at that size (`build.<tool>`, `trimmed.<tool>`);
    the run's own figures are those of its largest size, which is also in here."""

    def time(self, name: str) -> Summary | None:
        return self.seconds.get(name)
