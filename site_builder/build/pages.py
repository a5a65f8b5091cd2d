"""The HTML site for people: every page kind rendered from its Jinja2 template.

`render_pages` is the one entry point the build calls. It decides which pages exist and what
each one shows (from `views`), renders them with the archive's theme (`theme.Theme`) and hands
every file to `write`, so it never touches the disk itself.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import jinja2

from site_builder.archive.archive import Archive
from site_builder.build import views
from site_builder.build.search import SearchIndex
from site_builder.build.theme import Theme
from site_builder.build.urls import Urls, encode_path

if TYPE_CHECKING:
    from site_builder.build.markdown import RenderedBody

# Not "search/": a project folder may be called that (the benchmark archive has one), and a
# root file name with an extension can never meet a project id.
SEARCH_PAGE = "search.html"
NOT_FOUND_PAGE = "404.html"
RECENT = 12

# Every page satisfies this policy: no inline script or style anywhere, and search fetches
# only the site's own files. Images from https: are allowed because record bodies may embed
# diagrams hosted elsewhere.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
])


def render_pages(archive: Archive, bodies: Mapping[str, RenderedBody], urls: Urls,
                 write: Callable[[str, str | bytes], None]) -> int:
    """Write every HTML page (home, projects, records, tags, timeline, search, 404) and the
    theme files through `write(rel_path, data)`; return the number of pages written."""
    site = SitePages(archive, bodies, urls, Theme(archive.config.root))
    for path, data in site.theme_files():
        write(path, data)
    count = 0
    for path, html in site.pages():
        write(path, html)
        count += 1
    for path, data in SearchIndex(archive).files():
        write(path, data)
    return count


@jinja2.pass_context
def _link(context: jinja2.runtime.Context, target: str) -> str:
    """A link from the page being rendered to site path `target`."""
    if context["server_paths"]:
        return encode_path(context["urls"].site_path(target))
    return encode_path(Urls.relative(context["here"], target))


class SitePages:
    """The pages of one site, rendered lazily, one at a time, in a fixed order."""

    def __init__(self, archive: Archive, bodies: Mapping[str, RenderedBody], urls: Urls,
                 theme: Theme) -> None:
        self.archive = archive
        self.bodies = bodies
        self.urls = urls
        self.theme = theme
        self.config = archive.config
        self.rows = views.rows(archive)
        env = theme.environment
        env.globals.update(
            link=_link,
            site=self.config,
            urls=urls,
            assets=theme.published,
            csp=CONTENT_SECURITY_POLICY,
        )
        published = theme.published
        # Every page links to these; their links are worked out before rendering rather
        # than by one template call each.
        self.site_wide = {
            "home": Urls.HOME_PAGE, "timeline": Urls.TIMELINE_PAGE, "tags": Urls.TAGS_PAGE,
            "search": SEARCH_PAGE, "feed": "feed.xml", "llms": "llms.txt",
            "decisions": "decisions.json", "agents": "AGENTS.md",
            "css": published["site.css"], "js": published["site.js"],
            "favicon": published["favicon.svg"],
        }

    def theme_files(self) -> Iterator[tuple[str, bytes]]:
        """(site path, bytes) of every theme file."""
        for name, path in self.theme.published.items():
            yield path, self.theme.theme_file(name)

    def pages(self) -> Iterator[tuple[str, str]]:
        """(site path, HTML) of every page."""
        yield self.home()
        for project_id in self.archive.projects:
            yield self.project(project_id)
        for record in self.archive.records:
            yield self.record(record.id)
        yield from self.tags()
        yield self.timeline()
        yield self.search()
        yield self.not_found()

    # ---- page kinds ---------------------------------------------------------------------------

    def _render(self, template: str, here: str, section: str, **context: Any) -> tuple[str, str]:
        context.setdefault("server_paths", False)
        markdown_copy = context.pop("markdown_copy", "llms.txt")
        links = {**self.site_wide, "markdown": markdown_copy}
        if context["server_paths"]:
            nav = {key: encode_path(self.urls.site_path(path)) for key, path in links.items()}
        else:
            nav = {key: encode_path(Urls.relative(here, path)) for key, path in links.items()}
        canonical = self.urls.absolute(encode_path(here))
        html = self.theme.template(template).render(
            here=here, section=section, canonical=canonical, nav=nav, **context)
        return here, html

    def home(self) -> tuple[str, str]:
        records = self.archive.records
        counts = _project_counts(self.rows.values())
        projects = [{"project": p, "page": Urls.project_page(p.id),
                     **counts.get(p.id, _NO_RECORDS)}
                    for p in self.archive.projects.values()]
        totals = {
            "records": len(records),
            "current": sum(1 for r in self.rows.values() if r.current),
            "open": sum(1 for r in self.rows.values() if r.status.kind == "open"),
        }
        recent = [self.rows[r.id] for r in records[:RECENT]]
        return self._render("home.html", Urls.HOME_PAGE, "home", projects=projects,
                            totals=totals, recent=recent)

    def project(self, project_id: str) -> tuple[str, str]:
        project = self.archive.projects[project_id]
        listed = [row for row in self.rows.values() if row.summary["project"] == project_id]
        by_type = itertools.groupby(sorted(listed, key=lambda r: r.summary["type"]),
                                    key=lambda r: r.summary["type"])
        groups = [(views.type_label(kind), list(group)) for kind, group in by_type]
        return self._render(
            "project.html", Urls.project_page(project_id), project_id, project=project,
            groups=groups, total=len(listed),
            counts=_project_counts(listed).get(project_id, _NO_RECORDS),
            filters=views.filters(listed, self.config, ("status", "tag")))

    def record(self, record_id: str) -> tuple[str, str]:
        record = self.archive.by_id[record_id]
        row = self.rows[record_id]
        view = views.record_view(self.archive, record, row)
        project = self.archive.projects.get(record.project)
        return self._render(
            "record.html", row.page, record.project, r=row.summary, row=row, view=view,
            body=self.bodies[record_id], project=project,
            project_page=Urls.project_page(record.project), markdown_copy=view.markdown)

    def tags(self) -> Iterator[tuple[str, str]]:
        by_tag: dict[str, list[views.Row]] = {}
        names: dict[str, str] = {}
        for row in self.rows.values():
            for tag in row.tags:
                by_tag.setdefault(tag.slug, []).append(row)
                names.setdefault(tag.slug, tag.name)
        index = sorted(((views.tag(names[s]), len(listed)) for s, listed in by_tag.items()),
                       key=lambda item: (item[0].name.casefold(), item[0].slug))
        yield self._render("tags.html", Urls.TAGS_PAGE, "tags", tags=index)
        for tag, _ in index:
            listed = by_tag[tag.slug]
            yield self._render("tag.html", tag.page, "tags", tag=tag, rows=listed,
                               filters=views.filters(listed, self.config, ("project", "status")))

    def timeline(self) -> tuple[str, str]:
        listed = list(self.rows.values())
        years = [(year, list(group)) for year, group in
                 itertools.groupby(listed, key=lambda r: r.summary["date"][:4])]
        return self._render(
            "timeline.html", Urls.TIMELINE_PAGE, "timeline", years=years, total=len(listed),
            filters=views.filters(listed, self.config, ("project", "status", "tag")))

    def search(self) -> tuple[str, str]:
        projects = [(p.id, p.name) for p in self.archive.projects.values()]
        statuses = list(views.status_views(self.config).values())
        return self._render("search.html", SEARCH_PAGE, "search", projects=projects,
                            statuses=statuses)

    def not_found(self) -> tuple[str, str]:
        # 404.html is served in place of any missing URL, where relative links would resolve
        # against that URL: it links from the server root (`base`) instead.
        return self._render("404.html", NOT_FOUND_PAGE, "404", server_paths=True)


_NO_RECORDS = {"records": 0, "current": 0, "open": 0}


def _project_counts(listed: Sequence[views.Row] | Any) -> dict[str, dict[str, int]]:
    """Per project: `records`, `current` (in force) and `open` (under discussion) counts."""
    counts: dict[str, dict[str, int]] = {}
    for row in listed:
        entry = counts.setdefault(row.summary["project"], {"records": 0, "current": 0, "open": 0})
        entry["records"] += 1
        entry["current"] += row.current
        entry["open"] += row.status.kind == "open"
    return counts
