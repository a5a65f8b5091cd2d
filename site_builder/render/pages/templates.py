"""The HTML site for people: every page kind rendered from its Jinja2 template.

`SitePages` decides which pages exist, what each one shows (from `views`) and which records it
reads, and renders each with the archive's theme (`theme.Theme`); `rendering.render_pages`
hands them to a writer.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cached_property, partial
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.base.site_paths import AGENTS, DECISIONS, FEED, LLMS, NOT_FOUND_PAGE, SEARCH_PAGE
from site_builder.query import answers as query
from site_builder.render.agents.agent_menu import agent_menu
from site_builder.render.markdown.diagrams import has_mermaid
from site_builder.render.pages import views
from site_builder.render.pages.csp import CONTENT_SECURITY_POLICY, DIAGRAM_CONTENT_SECURITY_POLICY
from site_builder.render.pages.mermaid_release import release as mermaid_release
from site_builder.render.pages.page_parts import ListedRows, PageLinks, encoded
from site_builder.render.pages.theme import Theme
from site_builder.render.pages.urls import Urls
from site_builder.render.pictures.lineage import Lineage
from site_builder.render.pictures.lineage_svg import lineage_markup
from site_builder.render.planned import EVERY, Planned, nothing

if TYPE_CHECKING:
    from site_builder.render.markdown.to_html import RenderedBody

# Not "search/": a project folder may be called that (the benchmark archive has one), and a
# root file name with an extension can never meet a project id.
RECENT = 12
# Characters of a streamed page gathered into each chunk handed to the writer.
STREAM_CHUNK = 1 << 16


class SitePages:
    """The pages of one site, rendered lazily, one at a time, in a fixed order."""

    def __init__(self, archive: Archive, bodies: Mapping[str, RenderedBody], urls: Urls,
                 theme: Theme) -> None:
        self.archive = archive
        self.bodies = bodies
        self.urls = urls
        self.theme = theme
        self.config = archive.config
        self._nav_cache: dict[tuple[int, str, bool], dict[str, str]] = {}
        self._listed = ListedRows(theme)
        self._stream = False
        self.draws_diagrams = False
        """True once a record page with a Mermaid diagram has been rendered."""
        self.drawn: set[str] = set()
        """Ids of the records whose pages draw a diagram, as far as is known."""

    @cached_property
    def _environment(self) -> Any:
        """The theme's Jinja2 environment with the site-wide globals set, on first render:
        planning pages needs no template."""
        env = self.theme.environment
        env.globals.update(
            site=self.config,
            urls=self.urls,
            assets=self.theme.published,
            csp=CONTENT_SECURITY_POLICY,
            draw_lineage=lineage_markup,
        )
        return env

    @cached_property
    def site_wide(self) -> dict[str, str]:
        """Every page links to these; their links are worked out before rendering rather
        than by one template call each."""
        published = self.theme.published
        return {
            "home": Urls.HOME_PAGE, "timeline": Urls.TIMELINE_PAGE, "tags": Urls.TAGS_PAGE,
            "search": SEARCH_PAGE, "feed": FEED, "llms": LLMS,
            "decisions": DECISIONS, "agents": AGENTS,
            "css": published["site.css"], "js": published["site.js"],
            "search_js": published["search.js"], "search_ui": published["search-ui.js"],
            "favicon": published["favicon.svg"],
        }

    def theme_files(self) -> Iterator[tuple[str, bytes]]:
        """(site path, bytes) of every theme file."""
        for name, path in self.theme.published.items():
            yield path, self.theme.theme_file(name)

    @cached_property
    def statuses(self) -> dict[str, views.StatusView]:
        """`views.status_views` of the config, which every record page needs."""
        return views.status_views(self.config)

    @cached_property
    def lineage(self) -> Lineage:
        """The archive's supersede chains, worked out when a page first draws one."""
        return Lineage(self.archive)

    @cached_property
    def rows(self) -> dict[str, views.Row]:
        """A listing row for every record, worked out when a listing first needs them."""
        return views.rows(self.archive)

    def row(self, record_id: str) -> views.Row:
        """One record's row, without working out every row for a lone record page."""
        if "rows" in self.__dict__:
            return self.rows[record_id]
        return views.row(self.archive, self.archive.by_id[record_id], self.statuses)

    def planned(self) -> Iterator[Planned]:
        """Every page, in a fixed order, with what it reads: every path is known before
        anything is rendered. Record pages, the only ones that need a rendered body, come
        last, in archive order."""
        # Pages of one kind list rows alike, and the next kind lists them otherwise: the rows'
        # HTML (ten megabytes per kind at 10,000 records) is let go between kinds, once the
        # pages asked for before have been rendered.
        # The listings are streamed to the writer (`_streamed`), never held whole: the
        # timeline alone is 48 MB of HTML at 100,000 records. A record is listed on one
        # project page (and the home page before it, for a single project), so the rows of
        # each project are let go once its page is written.
        # The listings show rows and what rows add up to (counts, filters, tags), and a
        # project's page its supersede chains too.
        yield Planned(Urls.HOME_PAGE, partial(self._streamed, self.home), nothing, EVERY)
        for project_id in self.archive.projects:
            yield Planned(Urls.project_page(project_id),
                          partial(self._streamed, self.project, project_id),
                          partial(self.lineage.drawn_in, project_id),
                          partial(self._project_lists, project_id))
            self._listed.forget()
        yield Planned(Urls.TAGS_PAGE, lambda: self.tags_index()[1], nothing, EVERY)
        for tag in self._tags:
            yield Planned(tag.page, partial(self._streamed, self.tag, tag.slug), nothing,
                          partial(self._tag_lists, tag.slug))
        self._listed.forget()
        yield Planned(Urls.TIMELINE_PAGE, partial(self._streamed, self.timeline), nothing,
                      EVERY)
        yield Planned(SEARCH_PAGE, lambda: self.search()[1], nothing, EVERY)
        yield Planned(NOT_FOUND_PAGE, lambda: self.not_found()[1], nothing)
        for record in self.archive.records:
            yield Planned(Urls.record_page(record), partial(_html, self.record, record.id),
                          partial(self._record_reads, record))

    # ---- what pages read ----------------------------------------------------------------------

    def _rows_of(self, records: Iterable[Record]) -> set[str]:
        """The records whose rows a listing of `records` shows something of: each row's
        own, and those that say they replace it (`views.row_reads`)."""
        return {i for record in records for i in views.row_reads(self.archive, record)}

    def _project_lists(self, project_id: str) -> set[str]:
        return self._rows_of(r for r in self.archive.records if r.project == project_id)

    def _record_reads(self, record: Record) -> set[str]:
        return {*query.shown_by(self.archive, record), *self.lineage.drawn_around(record)}

    def _tag_lists(self, slug: str) -> set[str]:
        return self._rows_of(self._by_tag.get(slug, ()))

    @cached_property
    def _by_tag(self) -> dict[str, list[Record]]:
        """Tag slug → the records tagged so, however they write the tag."""
        slugs = {name: views.tag(name).slug for record in self.archive.records
                 for name in record.tags}
        out: dict[str, list[Record]] = {}
        for record in self.archive.records:
            for slug in dict.fromkeys(slugs[name] for name in record.tags):
                out.setdefault(slug, []).append(record)
        return out

    # ---- page kinds ---------------------------------------------------------------------------

    def _streamed(self, page: Callable[..., tuple[str, Any]], *key: str) -> Iterator[bytes]:
        """The UTF-8 bytes of the page `page(*key)` renders, in chunks of about STREAM_CHUNK
        as its template yields them (`_render` with `stream`): the same bytes as the whole
        page, with no more than a chunk of it held at a time."""
        self._stream = True
        try:
            _, chunks = page(*key)
        finally:
            self._stream = False
        pending: list[str] = []
        size = 0
        for chunk in chunks:
            pending.append(chunk)
            size += len(chunk)
            if size >= STREAM_CHUNK:
                yield "".join(pending).encode("utf-8")
                pending, size = [], 0
        if pending:
            yield "".join(pending).encode("utf-8")

    def _render(self, template: str, here: str, section: str, **context: Any) -> tuple[str, Any]:
        """(`here`, the page's HTML): a str, or while `_streamed` asks, the template's
        iterator of str chunks (jinja2's `generate`), which renders as it is read."""
        server_paths = context.setdefault("server_paths", False)
        link = PageLinks(here, self.urls, server_paths)
        # Attributes rather than a dict: base.html reads a dozen of them on every page, and
        # Jinja looks `nav.home` up as an attribute first.
        nav = SimpleNamespace(
            **self._site_wide_links(here, server_paths),
            markdown=self._one_link(here, context.pop("markdown_copy", LLMS),
                                    server_paths))
        canonical = self.urls.absolute(encoded(here))
        # The timeline is the only page listing its rows: none is kept for another page.
        listed = self._listed.once if template == "timeline.html" else self._listed.html
        compiled = self._environment.get_template(template)
        render = compiled.generate if self._stream else compiled.render
        html = render(
            here=here, section=section, canonical=canonical, nav=nav, link=link,
            single_project=len(self.archive.projects) == 1,
            listed_row=partial(listed, link), **context)
        return here, html

    def _one_link(self, here: str, target: str, server_paths: bool) -> str:
        if server_paths:
            return self.urls.site_path(encoded(target))
        return Urls.relative(encoded(here), encoded(target))

    def _site_wide_links(self, here: str, server_paths: bool) -> dict[str, str]:
        """The links every page has (navigation, assets, agent files) for the page `here`.

        They depend only on how deep the page is and on its first folder (the only one it
        can share with a site-wide target), so one computation serves thousands of pages.
        """
        parts = here.split("/")
        key = (len(parts), parts[0] if len(parts) > 1 else "", server_paths)
        found = self._nav_cache.get(key)
        if found is None:
            found = self._nav_cache[key] = {
                name: self._one_link(here, path, server_paths)
                for name, path in self.site_wide.items()}
        return found

    def home(self) -> tuple[str, str]:
        records = self.archive.records
        counts = _project_counts(self.rows.values())
        projects: list[dict[str, Any]] = [{"project": p, "page": Urls.project_page(p.id),
                     **counts.get(p.id, _NO_RECORDS)} for p in self.archive.projects.values()]
        totals = {
            "records": len(records),
            "current": sum(1 for r in self.rows.values() if r.current),
            "open": sum(1 for r in self.rows.values() if r.status.kind == "open"),
        }
        recent = [self.rows[r.id] for r in records[:RECENT]]
        if len(projects) == 1:
            # One project: a grid with a single card is a click in the way; the home page
            # lists the project's records, as its own page does.
            return self._render("home.html", Urls.HOME_PAGE, "home", projects=projects,
                                totals=totals, recent=recent, listing=True,
                                **self._project_listing(projects[0]["project"].id))
        return self._render("home.html", Urls.HOME_PAGE, "home", projects=projects,
                            totals=totals, recent=recent)

    def _project_listing(self, project_id: str) -> dict[str, Any]:
        """A project's records grouped by type, with their counts and filters."""
        listed = [row for row in self.rows.values() if row.summary["project"] == project_id]
        by_type = itertools.groupby(sorted(listed, key=lambda r: r.summary["type"]),
                                    key=lambda r: r.summary["type"])
        return {"groups": [(views.type_label(kind), list(group)) for kind, group in by_type],
                "total": len(listed),
                "counts": _project_counts(listed).get(project_id, _NO_RECORDS),
                "filters": views.filters(listed, self.config, ("status", "tag"))}

    def project(self, project_id: str) -> tuple[str, str]:
        return self._render(
            "project.html", Urls.project_page(project_id), project_id,
            project=self.archive.projects[project_id], listing=True,
            picture=self.lineage.project(project_id), **self._project_listing(project_id))

    def record(self, record_id: str) -> tuple[str, str]:
        record = self.archive.by_id[record_id]
        row = self.row(record_id)
        view = views.record_view(self.archive, record, row, self.statuses)
        project = self.archive.projects.get(record.project)
        body = self.bodies[record_id]
        diagrams = has_mermaid(body.html)
        self.draws_diagrams |= diagrams
        if diagrams:
            self.drawn.add(record_id)
        else:
            self.drawn.discard(record_id)
        return self._render(
            "record.html", row.page, record.project, r=row.summary, row=row, view=view,
            body=body, project=project, diagrams=diagrams,
            mermaid=mermaid_release().entry if diagrams else "",
            csp=DIAGRAM_CONTENT_SECURITY_POLICY if diagrams else CONTENT_SECURITY_POLICY,
            project_page=Urls.project_page(record.project), markdown_copy=view.markdown,
            picture=self.lineage.around(record), menu=agent_menu(self.urls, record))

    @cached_property
    def _tags(self) -> list[views.Tag]:
        """Every tag, sorted by name; from the records alone, without their rows. A slug
        written several ways is shown as the newest record writes it."""
        names = dict.fromkeys(name for record in self.archive.records for name in record.tags)
        by_slug: dict[str, views.Tag] = {}
        for name in names:
            tag = views.tag(name)
            by_slug.setdefault(tag.slug, tag)
        return sorted(by_slug.values(), key=lambda t: (t.name.casefold(), t.slug))

    @cached_property
    def _tagged(self) -> dict[str, list[views.Row]]:
        """Tag slug → the rows of its records, newest first."""
        by_tag: dict[str, list[views.Row]] = {}
        for row in self.rows.values():
            for tag in row.tags:
                by_tag.setdefault(tag.slug, []).append(row)
        return by_tag

    def tags_index(self) -> tuple[str, str]:
        index = [(tag, len(self._tagged[tag.slug])) for tag in self._tags]
        return self._render("tags.html", Urls.TAGS_PAGE, "tags", tags=index)

    def tag(self, slug: str) -> tuple[str, str]:
        tag = next(t for t in self._tags if t.slug == slug)
        listed = self._tagged[slug]
        return self._render("tag.html", tag.page, "tags", tag=tag, rows=listed, listing=True,
                            filters=views.filters(listed, self.config, ("project", "status")))

    def timeline(self) -> tuple[str, str]:
        listed = list(self.rows.values())
        years = [(year, list(group)) for year, group in
                 itertools.groupby(listed, key=lambda r: r.summary["date"][:4])]
        return self._render(
            "timeline.html", Urls.TIMELINE_PAGE, "timeline", years=years, total=len(listed),
            listing=True,
            filters=views.filters(listed, self.config, ("project", "status", "tag")))

    def search(self) -> tuple[str, str]:
        listed = list(self.rows.values())
        return self._render(
            "search.html", SEARCH_PAGE, "search",
            filters=views.filters(listed, self.config, ("project", "status", "tag")))

    def not_found(self) -> tuple[str, str]:
        # 404.html is served in place of any missing URL, where relative links would resolve
        # against that URL: it links from the server root (`base`) instead.
        return self._render("404.html", NOT_FOUND_PAGE, "404", server_paths=True)


_NO_RECORDS = {"records": 0, "current": 0, "open": 0}


def _html(page: Callable[[str], tuple[str, str]], key: str) -> str:
    """The HTML of the page `page(key)` renders."""
    return page(key)[1]


def _project_counts(listed: Sequence[views.Row] | Any) -> dict[str, dict[str, int]]:
    """Per project: `records`, `current` (in force) and `open` (under discussion) counts."""
    counts: dict[str, dict[str, int]] = {}
    for row in listed:
        entry = counts.setdefault(row.summary["project"], {"records": 0, "current": 0, "open": 0})
        entry["records"] += 1
        entry["current"] += row.current
        entry["open"] += row.status.kind == "open"
    return counts
