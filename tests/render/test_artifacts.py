"""The agent-facing files: decisions.json and its schema, .md copies, llms.txt, llms-full.txt,
AGENTS.md, feed, sitemap and robots.txt."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
import yaml
from llms_txt import parse_llms_file

from site_builder.archive.records import split_front_matter
from site_builder.query import answers as query
from site_builder.render.agents.artifacts import decisions, decisions_json
from site_builder.render.pages.urls import Urls
from site_builder.render.site import BuildResult, build_site
from site_builder.sources.load import load_archive
from tests.conftest import EXAMPLE_SITE

ATOM = "{http://www.w3.org/2005/Atom}"


def read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def set_site_keys(root: Path, **keys: str) -> None:
    config = root / "site.yml"
    config.write_text(config.read_text() + "".join(f"{k}: {v}\n" for k, v in keys.items()))


def test_decisions_json_validates_against_its_schema(built: tuple[Path, BuildResult]) -> None:
    site, _ = built
    data = read_json(site / "decisions.json")
    schema = read_json(site / "decisions.schema.json")
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER).validate(data)
    assert list(data) == ["site", "statuses", "fields", "projects", "records"]


def test_the_schema_rejects_what_decisions_json_must_not_hold(
        built: tuple[Path, BuildResult]) -> None:
    site, _ = built
    data = read_json(site / "decisions.json")
    validator = jsonschema.Draft202012Validator(read_json(site / "decisions.schema.json"))
    data["records"][0]["body"] = "bodies are not published in the index"
    data["records"][1]["status"] = "not-a-status"
    data["records"][2]["fields"]["risk"] = "catastrophic"
    assert len(list(validator.iter_errors(data))) == 3


def test_records_in_decisions_json_are_get_record_without_body(
        built: tuple[Path, BuildResult], site_root: Path) -> None:
    site, _ = built
    data = read_json(site / "decisions.json")
    archive = load_archive(site_root)
    assert [r["id"] for r in data["records"]] == [r.id for r in archive.records]
    for item in data["records"]:
        expected = query.get_record(archive, item["id"])
        del expected["body"]
        assert item == {**expected, "path": f"{item['id']}/index.html", "md": f"{item['id']}.md"}
        assert (site / item["path"]).is_file() and (site / item["md"]).is_file()
    newest = data["records"][0]
    assert newest["id"] == "platform/rfc/0001-shared-cache"
    assert newest["rfcReview"] == {"status": "pending", "approved": 1, "required": 2,
                                   "waitingOn": ["linus"]}
    old = next(r for r in data["records"] if r["id"] == "platform/adr/0001-use-postgres")
    assert old["supersededBy"]["id"] == "platform/adr/0003-move-to-cockroachdb"
    assert old["current"] is False


def test_decisions_json_lists_site_statuses_fields_and_projects(
        built: tuple[Path, BuildResult]) -> None:
    data = read_json(built[0] / "decisions.json")
    assert data["site"]["title"] == "Acme [decisions]"
    assert data["site"]["url"] is None
    assert [s["name"] for s in data["statuses"]][:2] == ["proposed", "accepted"]
    assert data["statuses"][1] == {"name": "accepted", "open": False, "current": True,
                                   "label": "Accepted", "description": ""}
    assert data["fields"][1] == {"name": "cost", "label": "Monthly cost", "type": "number",
                                 "values": [], "unit": "EUR", "description": "",
                                 "required": False}
    platform = data["projects"][0]
    assert (platform["id"], platform["records"], platform["owners"]) == (
        "platform", 4, ["ada", "linus"])
    assert platform["fields"][0]["name"] == "tier"


def test_drafts_are_published_nowhere(built: tuple[Path, BuildResult]) -> None:
    site, _ = built
    assert not (site / "web/adr/0002-unfinished.md").exists()
    for name in ("decisions.json", "llms.txt", "llms-full.txt", "feed.xml"):
        assert "unfinished" not in (site / name).read_text(encoding="utf-8").lower()


def test_a_markdown_copy_is_the_yaml_block_then_the_body_as_written(
        built: tuple[Path, BuildResult], site_root: Path) -> None:
    site, _ = built
    source = site_root / "content/platform/adr/0003-move-to-cockroachdb.md"
    copy = (site / "platform/adr/0003-move-to-cockroachdb.md").read_text(encoding="utf-8")
    front, body, _ = split_front_matter(copy)
    assert body == split_front_matter(source.read_text(encoding="utf-8"))[1]
    meta = yaml.safe_load(front)
    assert meta["id"] == "platform/adr/0003-move-to-cockroachdb"
    assert meta["ref"] == "PLATFORM-ADR-0003"
    assert meta["current"] is True
    assert "](0001-use-postgres.md)" in body  # links stay as written in copies


def test_llms_txt_parses_completely(built: tuple[Path, BuildResult], site_root: Path) -> None:
    site, _ = built
    text = (site / "llms.txt").read_text(encoding="utf-8")
    parsed = parse_llms_file(text)
    # Brackets that close no link read as written; in link text they are references.
    assert parsed.title == "Acme [decisions]"
    assert parsed.summary == "How Acme builds things"
    assert "decisions.json" in parsed.info
    assert list(parsed.sections) == ["Platform", "Web (front end)", "Optional"]
    archive = load_archive(site_root)
    links = {link["url"]: link for links in parsed.sections.values() for link in links}
    assert sorted(links) == sorted(f"{r.id}.md" for r in archive.records)
    tricky = links["platform/adr/0002-brackets-and-parens.md"]
    assert tricky["title"] == ("PLATFORM-ADR-0002: Keep &#91;brackets&#93; and (parens) in "
                               '"titles" – ünïcode ✓')
    assert tricky["desc"] == "A title with [, ], ( and ) must survive llms.txt: yes (really)."
    optional = [link["url"] for link in parsed.sections["Optional"]]
    assert optional == ["platform/rfc/0001-shared-cache.md", "platform/adr/0001-use-postgres.md"]
    assert parsed.sections["Optional"][1]["desc"].startswith("superseded by PLATFORM-ADR-0003.")
    for lines in text.split("\n## ")[1:]:
        assert all(line.startswith("- [") for line in lines.splitlines()[1:] if line)


def test_llms_txt_encodes_parentheses_in_urls_and_keeps_unicode(site_root: Path) -> None:
    weird = site_root / "content/web/adr/0003-odd-(name)-ünï.md"
    weird.write_text("---\ntitle: \"]Odd [x](y)\"\nstatus: accepted\ndate: 2024-06-01\n"
                     "description: odd\n---\nBody.\n", encoding="utf-8")
    build_site(site_root, jobs=1)
    parsed = parse_llms_file((site_root / "_site/llms.txt").read_text(encoding="utf-8"))
    link = parsed.sections["Web (front end)"][0]
    assert link["url"] == "web/adr/0003-odd-%28name%29-%C3%BCn%C3%AF.md"
    assert link["title"] == "WEB-ADR-0003: &#93;Odd &#91;x&#93;(y)"
    assert (site_root / "_site/web/adr/0003-odd-(name)-ünï.md").is_file()


def test_agent_files_hold_a_title_with_code_as_written(site_root: Path) -> None:
    record = site_root / "content/web/adr/0003-code-in-the-title.md"
    record.write_text("---\ntitle: \"Use `--input` for files\"\nstatus: accepted\n"
                      "date: 2024-06-01\ndescription: Escape <script> in titles, `a < b`\n"
                      "---\nBody.\n", encoding="utf-8")
    build_site(site_root, jobs=1)
    site = site_root / "_site"
    parsed = parse_llms_file((site / "llms.txt").read_text(encoding="utf-8"))
    link = next(link for link in parsed.sections["Web (front end)"]
                if link["url"] == "web/adr/0003-code-in-the-title.md")
    assert link["title"] == "WEB-ADR-0003: Use `--input` for files"
    # A `<` that could open HTML is a reference; inside a code span it is as written.
    assert link["desc"] == "Escape &#60;script> in titles, `a < b`"
    assert "Use `--input` for files" in (site / "llms-full.txt").read_text(encoding="utf-8")


def test_project_sections_stay_unique(site_root: Path) -> None:
    (site_root / "content/web/_project.yml").write_text("name: Platform\n")
    build_site(site_root, jobs=1)
    parsed = parse_llms_file((site_root / "_site/llms.txt").read_text(encoding="utf-8"))
    assert list(parsed.sections) == ["Platform (platform)", "Platform (web)", "Optional"]


def test_llms_full_is_the_header_then_every_copy_current_first(
        built: tuple[Path, BuildResult], site_root: Path) -> None:
    site, _ = built
    llms = (site / "llms.txt").read_text(encoding="utf-8")
    header = llms[:llms.index("\n## ")]
    archive = load_archive(site_root)
    order = ([r for r in archive.records if archive.is_current(r)]
             + [r for r in archive.records if not archive.is_current(r)])
    copies = [(site / f"{r.id}.md").read_text(encoding="utf-8") for r in order]
    expected = header + "".join("\n" + c + ("" if c.endswith("\n") else "\n") for c in copies)
    assert (site / "llms-full.txt").read_text(encoding="utf-8") == expected
    assert [r.id for r in order][-2:] == ["platform/rfc/0001-shared-cache",
                                          "platform/adr/0001-use-postgres"]


def test_agents_md_without_url_names_a_placeholder(built: tuple[Path, BuildResult]) -> None:
    text = (built[0] / "AGENTS.md").read_text(encoding="utf-8")
    mcp = text[text.index("\n## MCP\n"):]
    assert text.rstrip().endswith(mcp.rstrip())  # the closing section
    assert "site-builder mcp --url <site url>" in mcp
    assert "sets no `url`" in mcp
    assert "`accepted`, `implemented`" in text
    assert "[decisions.json](decisions.json)" in text


def test_with_url_and_base_every_link_for_machines_is_absolute(site_root: Path) -> None:
    set_site_keys(site_root, url="https://acme.example/", base="/decisions/")
    build_site(site_root, jobs=1)
    site = site_root / "_site"
    home = "https://acme.example/decisions/"
    agents = (site / "AGENTS.md").read_text(encoding="utf-8")
    assert f"site-builder mcp --url {home}\n" in agents
    assert "<site url>" not in agents
    parsed = parse_llms_file((site / "llms.txt").read_text(encoding="utf-8"))
    urls = [link["url"] for links in parsed.sections.values() for link in links]
    assert urls and all(u.startswith(home) and u.endswith(".md") for u in urls)
    feed = ET.parse(site / "feed.xml").getroot()
    hrefs = [link.get("href") for link in feed.iter(f"{ATOM}link")]
    assert hrefs[0] == f"{home}feed.xml"
    assert all(h.startswith(home) for h in hrefs)
    assert feed.find(f"{ATOM}entry/{ATOM}id").text.startswith(home)
    locs = [e.text for e in ET.parse(site / "sitemap.xml").getroot().iter()
            if e.tag.endswith("loc")]
    assert f"{home}platform/adr/0003-move-to-cockroachdb/" in locs
    assert home in locs and all(loc.startswith(home) for loc in locs)
    assert (site / "robots.txt").read_text() == (
        f"User-agent: *\nAllow: /\n\nSitemap: {home}sitemap.xml\n")
    # the index itself keeps site-relative paths
    record = read_json(site / "decisions.json")["records"][0]
    assert record["md"] == "platform/rfc/0001-shared-cache.md"


def test_without_url_there_is_no_sitemap(built: tuple[Path, BuildResult]) -> None:
    site, _ = built
    assert not (site / "sitemap.xml").exists()
    assert (site / "robots.txt").read_text() == "User-agent: *\nAllow: /\n"


def test_the_feed_holds_the_newest_records_dated_from_the_records(
        built: tuple[Path, BuildResult]) -> None:
    feed = ET.parse(built[0] / "feed.xml").getroot()
    assert feed.find(f"{ATOM}updated").text == "2024-06-01T00:00:00Z"  # a review date
    entries = feed.findall(f"{ATOM}entry")
    assert entries[0].find(f"{ATOM}title").text == (
        "PLATFORM-RFC-0001: A shared cache for every service")
    assert len(entries) == 5
    assert all(e.find(f"{ATOM}id").text.startswith("urn:uuid:") for e in entries)


@pytest.mark.parametrize("count", [60])
def test_the_feed_stops_at_fifty_entries(site_root: Path, count: int) -> None:
    folder = site_root / "content/web/adr"
    for number in range(10, 10 + count):
        (folder / f"{number:04d}-bulk.md").write_text(
            f"---\ntitle: Bulk {number}\nstatus: accepted\ndate: 2023-01-01\n"
            "description: bulk\n---\nBody.\n", encoding="utf-8")
    build_site(site_root, jobs=1)
    feed = ET.parse(site_root / "_site/feed.xml").getroot()
    assert len(feed.findall(f"{ATOM}entry")) == 50


def _xml_char(point: int) -> bool:
    """XML 1.0's Char production (§2.2)."""
    return (point in (0x9, 0xA, 0xD) or 0x20 <= point <= 0xD7FF or 0xE000 <= point <= 0xFFFD
            or 0x10000 <= point <= 0x10FFFF)


def test_the_feed_drops_exactly_what_xml_cannot_hold() -> None:
    from site_builder.render.pages import feeds

    differ = [hex(point) for point in range(0x110000)
              if bool(feeds._NOT_XML.match(chr(point))) == _xml_char(point)]
    assert differ == []


def test_decisions_json_in_chunks_is_the_index_dumped_whole() -> None:
    archive = load_archive(EXAMPLE_SITE)
    urls = Urls(archive.config)
    chunks = list(decisions_json(archive, urls))
    assert len(chunks) == len(archive.records) + 2  # never the whole text in one piece
    whole = json.dumps(decisions(archive, urls), ensure_ascii=False, separators=(",", ":"))
    assert b"".join(chunks) == (whole + "\n").encode("utf-8")
