"""The HTML pages of a built site: what each page kind shows, escaping, links and `base`.

The fixture archive `site-pages` is served from `/decisions/`, has a supersede chain of three
records, an RFC with reviewers, custom fields with units, and `<script>` in a title, a tag, an
author and a custom field value.
"""

from __future__ import annotations

import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from site_builder.render.site import build_site

SCRIPT = re.compile(r"<script>alert", re.IGNORECASE)


class Page(HTMLParser):
    """The parts of one HTML page the tests look at."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []  # (tag, URL) of href/src attributes
        self.heads: dict[str, list[dict[str, str]]] = {}
        self.scripts: list[dict[str, str]] = []
        self.inline_styles = 0
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        for name in ("href", "src", "action"):
            if name in values:
                self.links.append((tag, values[name]))
        if tag in ("link", "meta"):
            self.heads.setdefault(tag, []).append(values)
        if tag == "script":
            self.scripts.append(values)
        if "style" in values or tag == "style":
            self.inline_styles += 1

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def link(self, rel: str) -> dict[str, str] | None:
        return next((a for a in self.heads.get("link", []) if a.get("rel") == rel), None)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `site-pages` fixture archive, built once for this module."""
    import shutil

    from tests.conftest import FIXTURES

    root = tmp_path_factory.mktemp("pages") / "site-pages"
    shutil.copytree(FIXTURES / "site-pages", root)
    build_site(root, jobs=1)
    return root / "_site"


def read(site: Path, path: str) -> Page:
    return Page((site / path).read_text(encoding="utf-8"))


def html_files(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def test_every_page_kind_is_written(site: Path) -> None:
    pages = html_files(site)
    for expected in ["index.html", "404.html", "core/index.html", "web/index.html",
                     "core/adr/0003-store-events-in-object-storage/index.html",
                     "tags/index.html", "tags/storage/index.html", "timeline/index.html",
                     "search.html"]:
        assert expected in pages
    assert any(p.startswith("assets/site.") and p.endswith(".css")
               for p in (q.relative_to(site).as_posix() for q in site.rglob("*")))
    assert (site / "favicon.svg").is_file()


def test_no_unescaped_script_anywhere(site: Path) -> None:
    # Titles, tags, authors, field labels and values and the site title all carry a
    # <script>; every one of them must come out as text.
    for path in html_files(site):
        text = (site / path).read_text(encoding="utf-8")
        assert not SCRIPT.search(text), path
    record = (site / "core/adr/0004-escape-everything/index.html").read_text(encoding="utf-8")
    assert "Escape &lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt; everywhere" in record
    assert "&lt;script&gt;alert(&#39;tag&#39;)&lt;/script&gt;</a>" in record
    assert "&lt;script&gt;alert(&#39;field&#39;)&lt;/script&gt;" in record
    assert "&lt;script&gt;alert(&#39;author&#39;)&lt;/script&gt;" in record
    assert "Risk &lt;b&gt;level&lt;/b&gt;" in record


def test_pages_have_no_inline_script_or_style(site: Path) -> None:
    # The Content-Security-Policy forbids them; one slip would break the page silently.
    for path in html_files(site):
        page = read(site, path)
        assert page.inline_styles == 0, path
        assert all(script.get("src") for script in page.scripts), path
        policy = next(m for m in page.heads["meta"] if m.get("http-equiv")
                      == "Content-Security-Policy")["content"]
        assert "default-src 'self'" in policy and "'unsafe-inline'" not in policy


def test_internal_links_resolve_to_written_files(site: Path) -> None:
    for path in html_files(site):
        if path == "404.html":
            continue
        for tag, url in read(site, path).links:
            parts = urlsplit(url)
            if parts.scheme or url.startswith("#"):
                continue
            assert not url.startswith("/"), f"{path}: {url} is not relative"
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path),
                                                       unquote(parts.path)))
            if url.endswith("/") or parts.path in ("", "."):
                target = posixpath.join(target, "index.html")
            assert (site / target).is_file(), f"{path}: <{tag}> {url} → {target} is missing"


def test_links_to_unusual_file_names_are_percent_encoded(site: Path) -> None:
    home = (site / "index.html").read_text("utf-8")
    assert 'href="web/adr/0002-%C3%BCberall-lesbar/"' in home
    assert (site / "web/adr/0002-überall-lesbar/index.html").is_file()
    record = read(site, "web/adr/0002-überall-lesbar/index.html")
    assert record.link("alternate")["href"] == "../0002-%C3%BCberall-lesbar.md"
    assert ("tag", "../../../tags/zug%C3%A4nglichkeit/") in [
        ("tag", url) for _, url in record.links if "tags/zug" in url]


def test_404_links_from_the_base_path(site: Path) -> None:
    page = read(site, "404.html")
    internal = [url for _, url in page.links if not urlsplit(url).scheme and url[0] != "#"]
    assert internal and all(url.startswith("/decisions/") for url in internal), internal
    assert page.link("canonical") is None


def test_every_page_points_to_its_markdown_twin(site: Path) -> None:
    record = read(site, "core/adr/0003-store-events-in-object-storage/index.html")
    alternate = record.link("alternate")
    assert alternate == {"rel": "alternate", "type": "text/markdown",
                         "href": "../0003-store-events-in-object-storage.md"}
    assert (site / "core/adr/0003-store-events-in-object-storage.md").is_file()
    for path in ("index.html", "core/index.html", "tags/storage/index.html"):
        href = read(site, path).link("alternate")["href"]
        assert href.endswith("llms.txt")
        assert (site / posixpath.normpath(posixpath.join(posixpath.dirname(path), href))).is_file()


def test_canonical_urls_use_url_and_base(site: Path) -> None:
    home = read(site, "index.html")
    assert home.link("canonical")["href"] == "https://decisions.example.org/decisions/"
    record = read(site, "core/rfc/0001-sign-off-for-retention/index.html")
    assert record.link("canonical")["href"] == (
        "https://decisions.example.org/decisions/core/rfc/0001-sign-off-for-retention/")


def test_superseded_record_links_the_current_one_at_the_end_of_the_chain(site: Path) -> None:
    text = (site / "core/adr/0001-store-events-in-postgres/index.html").read_text("utf-8")
    banner = text[text.index('class="callout callout--superseded"'):]
    banner = banner[:banner.index("</div>")]
    assert 'href="../0002-store-events-in-kafka/"' in banner  # the direct replacement
    assert 'href="../0003-store-events-in-object-storage/"' in banner  # in force today
    assert "The current record is" in banner
    middle = (site / "core/adr/0002-store-events-in-kafka/index.html").read_text("utf-8")
    assert "callout--superseded" in middle
    assert "callout--superseded" not in (
        site / "core/adr/0003-store-events-in-object-storage/index.html").read_text("utf-8")


def test_record_page_metadata(site: Path) -> None:
    text = (site / "core/adr/0003-store-events-in-object-storage/index.html").read_text("utf-8")
    for expected in ["CORE-ADR-0003", "15 Mar 2025", "ana, ben", "cleo",
                     "<dt>Monthly cost</dt><dd>80 EUR</dd>", "<dt>Reversible</dt><dd>Yes</dd>",
                     "<dt>Risk &lt;b&gt;level&lt;/b&gt;</dt><dd>low</dd>",
                     "Review due", "30 Mar 2026", "every 6 months",
                     'href="../../rfc/0001-sign-off-for-retention/"',  # related
                     'href="../0002-store-events-in-kafka/"',  # supersedes
                     'class="highlight"',  # highlighted code
                     'href="#rollout"',  # table of contents
                     "https://git.example.org/acme/edit/main/content/core/adr/"
                     "0003-store-events-in-object-storage.md"]:
        assert expected in text, expected
    assert 'class="badge badge--current" data-status="accepted">Accepted<' in text


def test_rfc_sign_off_shows_each_reviewer(site: Path) -> None:
    text = (site / "core/rfc/0001-sign-off-for-retention/index.html").read_text("utf-8")
    assert "signoff--changes-requested" in text
    assert "1 of 2 required approvals; waiting on dan." in text
    for handle, state in [("ana", "approved"), ("ben", "changes-requested"), ("dan", "pending")]:
        assert (f'<li class="reviewer reviewer--{state}"><span class="reviewer__handle">'
                f"{handle}</span>") in text


def test_listing_rows_carry_filter_data(site: Path) -> None:
    text = (site / "timeline/index.html").read_text("utf-8")
    assert text.count('<li class="row') == 7
    assert ('data-project="core" data-status="proposed" '
            'data-tags="script-alert-tag-script storage"') in text
    assert '<form class="filters" data-filters hidden' in text  # shown by site.js only
    project = (site / "core/index.html").read_text("utf-8")
    assert "<h2 id=\"type-1\">ADRs" in project and "RFCs" in project
    assert "Owners: <span class=\"person\">ana</span>, <span class=\"person\">ben</span>" in project


def test_projects_without_a_project_file_are_named_after_their_folder(site: Path) -> None:
    home = (site / "index.html").read_text("utf-8")
    assert '<a href="web/">web</a>' in home
    assert '<a href="core/">Core</a>' in home


def test_a_project_without_records_still_gets_a_card_and_a_page(site: Path) -> None:
    home = (site / "index.html").read_text("utf-8")
    assert '<a href="empty/">Empty</a>' in home
    page = (site / "empty/index.html").read_text("utf-8")
    assert "No records in this project yet." in page
    assert "<strong>0</strong> records" in page


def test_tag_pages_list_their_records(site: Path) -> None:
    index = (site / "tags/index.html").read_text("utf-8")
    assert '<a class="tag tag--large" href="storage/">storage <span class="count">4</span>' in index
    tag = (site / "tags/storage/index.html").read_text("utf-8")
    assert tag.count('<li class="row') == 4


def test_archive_templates_and_theme_override_the_built_in_ones(
        fixture_archive, tmp_path: Path) -> None:
    root = fixture_archive("site-pages")
    (root / "templates").mkdir()
    (root / "templates" / "tags.html").write_text(
        '{% extends "base.html" %}{% block main %}<p>Our own tag page</p>{% endblock %}',
        encoding="utf-8")
    (root / "theme").mkdir()
    (root / "theme" / "site.css").write_text("body { color: rebeccapurple }\n", "utf-8")
    build_site(root, jobs=1)
    out = root / "_site"
    assert "<p>Our own tag page</p>" in (out / "tags/index.html").read_text("utf-8")
    css = [p for p in (out / "assets").iterdir() if p.suffix == ".css"]
    assert [p.read_text("utf-8") for p in css] == ["body { color: rebeccapurple }\n"]
    home = (out / "index.html").read_text("utf-8")
    assert f'href="assets/{css[0].name}"' in home
    # Untouched templates still come from the package.
    assert 'class="hero"' in home


def listed_row(site: Path, page: str, record_page: str) -> str:
    """The HTML of the row linking to `record_page` on the listing page `page`."""
    text = (site / page).read_text("utf-8")
    return next(row for row in re.findall(r'<li class="row.*?</li>', text, re.DOTALL)
                if f'{record_page}"' in row)


def test_a_record_listed_on_several_pages_links_from_each_of_them(site: Path) -> None:
    # A row's HTML is rendered once and reused on every page listing the record; its links
    # must still start from the page it is on.
    record = "core/adr/0004-escape-everything/"
    storage = listed_row(site, "tags/storage/index.html", record)
    assert f'href="../../{record}"' in storage
    assert 'href="./">storage</a>' in storage
    assert 'href="../script-alert-tag-script/"' in storage
    other = listed_row(site, "tags/script-alert-tag-script/index.html", record)
    assert 'href="../storage/">storage</a>' in other
    assert 'href="./">&lt;script&gt;' in other
    project = listed_row(site, "core/index.html", "adr/0004-escape-everything/")
    assert 'href="../tags/storage/">storage</a>' in project
    home = listed_row(site, "index.html", record)
    assert 'href="tags/storage/">storage</a>' in home


OWN_ROW = ('<li class="own-row"><a href="{{ link(row.page) }}">{{ row.summary.ref }}</a>'
           '</li>')
OWN_LISTINGS = {
    # Rows through listed_row and a record_row of its own, as the built-in listing.html does.
    "record_row": (
        '{% macro record_list(rows, id, show_project=true, compact=false) -%}\n'
        '<ol id="{{ id }}">{% for row in rows %}{{ listed_row(row, show_project, compact) }}'
        '{% endfor %}</ol>\n{%- endmacro %}\n'
        '{% macro record_row(row, show_project, compact) -%}\n' + OWN_ROW + '\n'
        '{%- endmacro %}\n'),
    # Rows written in the loop itself, as listing.html did before listed_row existed.
    "inline": (
        '{% macro record_list(rows, id, show_project=true, compact=false) -%}\n'
        '<ol id="{{ id }}">{% for row in rows %}' + OWN_ROW + '{% endfor %}</ol>\n'
        '{%- endmacro %}\n'),
}


@pytest.mark.parametrize("kind", sorted(OWN_LISTINGS))
def test_an_archive_listing_template_shapes_every_row(fixture_archive, kind: str) -> None:
    root = fixture_archive("site-pages")
    (root / "templates").mkdir()
    (root / "templates" / "listing.html").write_text(
        OWN_LISTINGS[kind] + '{% macro filter_bar(filters, total) %}{% endmacro %}\n',
        encoding="utf-8")
    build_site(root, jobs=1)
    out = root / "_site"
    record = "core/adr/0004-escape-everything/"
    for page, link in (("tags/storage/index.html", f"../../{record}"),
                       ("timeline/index.html", f"../{record}"),
                       ("core/index.html", "adr/0004-escape-everything/"),
                       ("index.html", record)):
        assert f'<li class="own-row"><a href="{link}">CORE-ADR-0004</a></li>' in \
            (out / page).read_text("utf-8"), page
