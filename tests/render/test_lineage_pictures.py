"""Lineage pictures: the SVG on project and record pages, and `site-builder graph`.

The archive is written by each test: three chains (one straight, one that forks, one declared
from the older side with `supersededBy`), a `related` link joining two of them, one inside a
chain (not drawn), and records in no chain.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote, urljoin

import pytest

from site_builder.render.pages.theme import Theme
from site_builder.render.pictures import lineage_svg
from site_builder.render.pictures.lineage import MAX_WIDTH, SPACING, Lineage
from site_builder.render.pictures.lineage_svg import standalone_style
from site_builder.render.site import build_site
from site_builder.serve import affected
from site_builder.sources.load import load_archive
from tests.conftest import run_cli

SVG = "{http://www.w3.org/2000/svg}"

RECORDS = {
    # number: (status, extra front matter)
    1: ("superseded", ""),
    2: ("superseded", "supersedes: [p/adr/1]"),
    3: ("accepted", "supersedes: [p/adr/2]\nrelated: [p/adr/5]"),
    4: ("superseded", ""),
    5: ("accepted", "supersedes: [p/adr/4]"),
    6: ("proposed", "supersedes: [p/adr/4]\nrelated: [p/adr/4]"),
    7: ("superseded", "supersededBy: p/adr/8"),
    8: ("implemented", ""),
    9: ("accepted", ""),
    10: ("rejected", "related: [p/adr/1]"),
}
CHAINS = [{1, 2, 3}, {4, 5, 6}, {7, 8}]
IN_CHAINS = set().union(*CHAINS)


def write_archive(root: Path, records: dict[int, tuple[str, str]] = RECORDS,
                  title_of=lambda n: f"Decision number {n} about <things> & more") -> Path:
    folder = root / "content" / "p" / "adr"
    folder.mkdir(parents=True)
    (root / "site.yml").write_text("title: Pictures\ndescription: Lineage tests\n", "utf-8")
    (root / "content" / "p" / "_project.yml").write_text("name: Pictures project\n", "utf-8")
    for number, (status, extra) in records.items():
        day = 1 + number % 28
        month = 1 + number // 28 % 12
        year = 2020 + number // 336
        text = (f"---\ntitle: {title_of(number)!r}\nstatus: {status}\n"
                f"date: {year}-{month:02d}-{day:02d}\ndescription: Number {number}.\n"
                f"{extra}\n---\n\nBody {number}.\n")
        (folder / f"{number:04d}-n{number}.md").write_text(text.replace("\n\n---", "\n---"),
                                                          "utf-8")
    return root


def svg_of(html: str) -> ET.Element:
    """The page's one lineage SVG, parsed as XML (it must be well-formed on its own)."""
    found = re.findall(r"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"lineage\".*?</svg>",
                       html, re.DOTALL)
    assert len(found) == 1
    return ET.fromstring(found[0])


def text_alternative(html: str) -> str:
    match = re.search(r'<details class="lineage-figure__text">(.*?)</details>', html, re.DOTALL)
    assert match is not None
    return match.group(1)


def page_of(output: Path, number: int) -> Path:
    return output / "p" / "adr" / f"{number:04d}-n{number}" / "index.html"


@pytest.fixture
def built(tmp_path: Path) -> Path:
    root = write_archive(tmp_path / "archive")
    build_site(root, jobs=1)
    return root / "_site"


def test_project_page_links_every_chained_record_and_nothing_else(built: Path) -> None:
    html = (built / "p" / "index.html").read_text("utf-8")
    svg = svg_of(html)
    hrefs = [a.get("href") for a in svg.iter(f"{SVG}a")]
    base = "http://site/p/index.html"
    targets = {unquote(urljoin(base, href)).removeprefix("http://site/") for href in hrefs}
    assert targets == {f"p/adr/{n:04d}-n{n}/" for n in IN_CHAINS}
    for target in targets:
        assert (built / target / "index.html").is_file()
    # Every node names its record and says its status in words, not by colour alone.
    labels = [a.find(f"{SVG}title").text for a in svg.iter(f"{SVG}a")]
    assert "P-ADR-0006: Decision number 6 about <things> & more (Proposed)" in labels


def test_the_text_alternative_names_every_chain(built: Path) -> None:
    html = (built / "p" / "index.html").read_text("utf-8")
    alternative = text_alternative(html)
    items = re.findall(r"^      <li>(.*?)</li>$", alternative, re.MULTILINE)
    named = [set(int(n) for n in re.findall(r"P-ADR-(\d{4})</a>", item)) for item in items]
    assert sorted(map(sorted, named)) == sorted(map(sorted, CHAINS))
    assert "P-ADR-0003</a> and <a" in alternative or "P-ADR-0005</a> and <a" in alternative
    desc = svg_of(html).find(f"{SVG}desc").text
    for number, chain in enumerate(CHAINS, 1):
        assert f"Chain {number}:" in desc
        for n in chain:
            assert f"P-ADR-{n:04d}" in desc


def test_related_links_are_drawn_only_between_chains(built: Path) -> None:
    svg = svg_of((built / "p" / "index.html").read_text("utf-8"))
    edges = next(g for g in svg.iter(f"{SVG}g") if g.get("class") == "lineage__edges")
    paths = list(edges.iter(f"{SVG}path"))
    dashed = [p for p in paths if "lineage__edge--related" in p.get("class")]
    # 3 ~ 5 join two chains; 6 ~ 4 lie in one chain and 10 is in none: one link is drawn.
    assert len(dashed) == 1 and not dashed[0].get("marker-end")
    arrows = [p for p in paths if p.get("marker-end") == "url(#lineage-arrow)"]
    assert len(arrows) == 5  # 1→2, 2→3, 4→5, 4→6, 7→8


def test_no_script_no_event_handlers_no_style_attributes(built: Path) -> None:
    pages = [built / "p" / "index.html", *(page_of(built, n) for n in IN_CHAINS)]
    for page in pages:
        svg = svg_of(page.read_text("utf-8"))
        for element in svg.iter():
            assert element.tag not in (f"{SVG}script", f"{SVG}foreignObject", f"{SVG}style")
            for name, value in element.attrib.items():
                assert not name.lower().startswith("on"), (page, name)
                assert name != "style", page
                assert "javascript:" not in value.lower()


def test_a_record_page_draws_its_own_chain_with_the_record_marked(built: Path) -> None:
    html = page_of(built, 5).read_text("utf-8")
    svg = svg_of(html)
    links = list(svg.iter(f"{SVG}a"))
    assert {a.get("href") for a in links} == {"../0004-n4/", "./", "../0006-n6/"}
    marked = [a for a in links if a.get("aria-current") == "page"]
    assert [a.get("href") for a in marked] == ["./"]
    assert "lineage__node--here" in marked[0].get("class")
    assert "this record" in "".join(svg.itertext())
    assert "<strong><a href=\"./\" aria-current=\"page\">P-ADR-0005</a>" in html
    assert 'class="lineage' not in page_of(built, 9).read_text("utf-8")


def test_two_builds_give_the_same_bytes(tmp_path: Path) -> None:
    root = write_archive(tmp_path / "archive")
    pages = ["p/index.html", "p/adr/0004-n4/index.html"]
    build_site(root, output=tmp_path / "one", jobs=1)
    build_site(root, output=tmp_path / "two", jobs=1, force=True)
    for page in pages:
        assert (tmp_path / "one" / page).read_bytes() == (tmp_path / "two" / page).read_bytes()
    # Across processes with different hash seeds, too.
    outputs = {run_cli("graph", "--root", str(root), env={"PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2")}
    assert len(outputs) == 1 and outputs.pop().startswith("<svg")


def test_two_hundred_records_stay_readable(tmp_path: Path) -> None:
    """Mostly short chains, as real archives have: no two boxes overlap, text keeps its size
    (nothing is scaled down), and shelves keep the picture about a page wide."""
    records: dict[int, tuple[str, str]] = {}
    for n in range(1, 201):
        step = n % 5
        if step in (2, 3, 4):
            records[n] = ("accepted", f"supersedes: [p/adr/{n - 1}]")
        else:
            records[n] = ("accepted", "related: [p/adr/3]" if n % 50 == 0 else "")
    root = write_archive(tmp_path / "archive", records)
    picture = Lineage(load_archive(root)).project("p")
    assert picture is not None
    assert len(picture.chains) == 40 and len(picture.nodes) == 160
    boxes = [(n.x, n.y, n.x + SPACING.node_width, n.y + SPACING.node_height)
             for n in picture.nodes]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    assert picture.width <= MAX_WIDTH
    assert picture.height < 40 * (SPACING.node_height + 26)


def test_a_two_record_chain_is_one_straight_row(tmp_path: Path) -> None:
    root = write_archive(tmp_path / "archive",
                         {1: ("superseded", ""), 2: ("accepted", "supersedes: [p/adr/1]")})
    picture = Lineage(load_archive(root)).project("p")
    assert picture is not None
    first, second = sorted(picture.nodes, key=lambda n: n.id)
    assert first.y == second.y and first.x < second.x
    assert [chain.linear for chain in picture.chains] == [True]


def test_graph_prints_standalone_svg_and_dot(built: Path) -> None:
    root = built.parent
    result = run_cli("graph", "--root", str(root), "--project", "p")
    assert result.returncode == 0, result.stderr
    svg = ET.fromstring(result.stdout)
    style = svg.find(f"{SVG}style").text
    assert ".lineage__box" in style and "@media (prefers-color-scheme: dark)" in style
    assert {a.get("href") for a in svg.iter(f"{SVG}a")} == {
        f"p/adr/{n:04d}-n{n}/" for n in IN_CHAINS}
    dot = run_cli("graph", "--root", str(root), "--format", "dot").stdout
    assert dot.startswith("digraph lineage {")
    for older, newer in ((1, 2), (2, 3), (4, 5), (4, 6), (7, 8)):
        assert f'"p/adr/{older:04d}-n{older}" -> "p/adr/{newer:04d}-n{newer}";' in dot
    assert dot.count("subgraph cluster_") == 3
    assert '\\"' not in dot.replace('\\"', "") and "<things> & more" in dot
    marked = run_cli("graph", "--root", str(root), "--record", "P-ADR-0007").stdout
    assert 'aria-current="page"' in marked and "P-ADR-0001" not in marked


def test_graph_says_what_is_wrong(built: Path) -> None:
    root = built.parent
    unknown = run_cli("graph", "--root", str(root), "--project", "nope")
    assert unknown.returncode == 2
    assert unknown.stderr == "site-builder: no project 'nope' (projects: p)\n"
    alone = run_cli("graph", "--root", str(root), "--record", "p/adr/9")
    assert alone.returncode == 0 and alone.stdout == ""
    assert alone.stderr == "site-builder: P-ADR-0009 is in no supersede chain; nothing to draw\n"
    missing = run_cli("graph", "--root", str(root), "--record", "p/adr/99")
    assert missing.returncode == 2 and "No record matches" in missing.stderr


def test_the_standalone_colours_are_the_stylesheets_own(tmp_path: Path) -> None:
    css = Theme(tmp_path).theme_file("site.css").decode("utf-8")
    style = standalone_style(css)
    light, dark = style.split("@media (prefers-color-scheme: dark)")
    assert "--current-bg:#e2f4e7;" in light and "--current-bg:#12301d;" in dark
    for name in re.findall(r"var\((--[a-z0-9-]+)", style):
        assert f"{name}:" in light and f"{name}:" in dark, name
    with pytest.raises(ValueError, match="lineage pictures section"):
        standalone_style(":root { --text: #000; }")


def test_a_teams_own_stylesheet_may_set_its_dark_colours_in_a_media_block() -> None:
    css = (":root { --text: #111111; --surface: light-dark(#fefefe, #202020); }\n"
           "@media (prefers-color-scheme: dark) { :root { --text: #eeeeee; } }\n"
           "/* ---- lineage pictures */\n.lineage__box { fill: var(--surface); "
           "color: var(--text); }\n/* ---- end of lineage pictures */\n")
    light, dark = standalone_style(css).split("@media (prefers-color-scheme: dark)")
    assert "--text:#111111;" in light and "--surface:#fefefe;" in light
    assert "--text:#eeeeee;" in dark and "--surface:#202020;" in dark


def test_serve_redraws_every_page_that_pictures_an_edited_record(tmp_path: Path) -> None:
    root = write_archive(tmp_path / "archive")
    before = load_archive(root)
    fifth = root / "content" / "p" / "adr" / "0005-n5.md"
    fifth.write_text(fifth.read_text("utf-8").replace("Decision number 5 ", "Renamed "), "utf-8")
    after = load_archive(root)
    touched = affected.touched(before, after, affected.edited(before, after))
    # P-ADR-0006 replaced 4 beside 5: its page names 5 nowhere but in its picture.
    assert {"p/adr/0004-n4/index.html", "p/adr/0006-n6/index.html", "p/index.html"} <= touched
    assert "p/adr/0002-n2/index.html" not in touched


def test_long_refs_are_drawn_whole(fixture_archive) -> None:
    """Log4brains refs are the stem (`TOOLS-ADR-20240102-ONE-DATE-FORMAT-…`): never cut."""
    root = fixture_archive("adopting")
    archive = load_archive(root)
    picture = Lineage(archive).project("tools")
    assert picture is not None
    drawn = ET.fromstring(lineage_svg.svg(picture, lambda path: path))
    refs = {t.text: t.attrib for t in drawn.iter(f"{SVG}text")
            if "lineage__ref" in t.attrib.get("class", "")}
    long = "TOOLS-ADR-20240102-ONE-DATE-FORMAT-FOR-EVERY-RECORD"
    assert set(refs) == {long, "TOOLS-ADR-20221005-BRACKETED-DATE"}
    assert "lineage__ref--long" in refs[long]["class"]
    assert refs[long]["textLength"] == str(SPACING.node_width - 20)
