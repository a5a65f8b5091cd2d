"""`serve` follows edits on disk: pages change, open pages are told to reload, and a broken
record holds the preview at the last good build while the overlay says what is wrong."""

from __future__ import annotations

from pathlib import Path

from site_builder.render.pages.mermaid_release import release
from tests.serve.conftest import Serving, save

RECORD = "content/demo/adr/0001-write-records-in-markdown.md"
PAGE = "/demo/adr/0001-write-records-in-markdown/"
COPY = "/demo/adr/0001-write-records-in-markdown.md"
OTHER_COPY = "/demo/adr/0002-keep-records-short.md"


def test_an_edit_shows_on_the_page_and_the_page_is_told_to_reload(serving: Serving,
                                                                   site: Path) -> None:
    events = serving.events()
    events.next("hello")
    assert "Write every record in Markdown." in serving.get(PAGE).text
    path = site / RECORD
    save(path, path.read_text().replace("Write every record in Markdown.",
                                        "Write every record in CommonMark."))
    serving.wait_for("the edit on the record page",
                     lambda: "in CommonMark." in serving.get(PAGE).text)
    reload = events.next("reload", lambda data: PAGE in data.get("paths", []))
    assert COPY in reload["paths"]
    assert "in CommonMark." in serving.get(COPY).text


def test_a_new_title_reaches_listings_agent_files_and_records_that_show_it(
        serving: Serving, site: Path) -> None:
    path = site / RECORD
    save(path, path.read_text().replace("title: Write records in Markdown",
                                        "title: Write records in CommonMark"), atomic=True)
    for where in ("/", "/decisions.json", "/llms.txt", OTHER_COPY):
        serving.wait_for(f"the new title in {where}",
                         lambda where=where: "Write records in CommonMark" in
                         serving.get(where).text)


def test_a_broken_record_keeps_the_last_good_page_and_says_where(serving: Serving,
                                                                site: Path) -> None:
    events = serving.events()
    events.next("hello")
    path = site / RECORD
    good = path.read_text()
    save(path, good.replace("date: 2026-01-10", "date: 2026-13-45"))

    problems = events.next("problems", lambda data: bool(data["problems"]))["problems"]
    assert {"path": RECORD, "line": 4, "level": "error",
            "message": "'date' is not a real date: 2026-13-45"} in problems
    assert serving.problems() == problems
    page = serving.get(PAGE)
    assert page.status == 200 and "Write every record in Markdown." in page.text
    serving.wait_for("the error in the terminal",
                     lambda: any(f"{RECORD}:4: error:" in line for line in serving.stderr))

    save(path, good.replace("Write every record in Markdown.", "Fixed."))
    events.next("problems", lambda data: data["problems"] == [])
    serving.wait_for("the fix on the page", lambda: "Fixed." in serving.get(PAGE).text)
    assert serving.problems() == []


def test_a_reference_to_a_missing_record_is_an_error_too(serving: Serving, site: Path) -> None:
    path = site / RECORD
    good = path.read_text()
    save(path, good.replace("tags: [docs]", "tags: [docs]\nrelated: [demo/adr/0009]")
         .replace("Write every record in Markdown.", "Not shown."))
    serving.wait_for("the problem", lambda: serving.problems() != [])
    assert serving.problems() == [{
        "path": RECORD, "line": 8, "level": "error",
        "message": "'related' refers to a missing record: demo/adr/0009"}]
    assert "Not shown." not in serving.get(PAGE).text

    save(path, good)
    serving.wait_for("the problem cleared", lambda: serving.problems() == [])


def test_a_first_diagram_brings_the_mermaid_release_with_it(serving: Serving,
                                                             site: Path) -> None:
    # The demo site has no diagram, so the preview holds no Mermaid file until a record
    # gains one; then the page names the entry module and every module is served as script.
    entry = "/" + release().entry
    assert serving.get(entry).status == 404
    path = site / RECORD
    save(path, path.read_text() + "\n```mermaid\nflowchart LR\n  a --> b\n```\n")
    serving.wait_for("the diagram page", lambda: "data-mermaid" in serving.get(PAGE).text)
    assert f'data-mermaid="../../..{entry}"' in serving.get(PAGE).text
    chunk = next(rel for rel in release().listed if rel.startswith("chunks/"))
    for where in (entry, f"/{release().site_folder}/{chunk}"):
        answer = serving.get(where)
        assert answer.status == 200, where
        assert answer.headers["content-type"] == "text/javascript; charset=utf-8"


def test_pictures_an_edit_links_to_are_published_as_the_build_publishes_them(
        site: Path) -> None:
    # The pictures are there before serve starts, so only the edit can publish them.
    folder = (site / RECORD).parent
    (folder / "flow.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><script>'
                                     'alert(1)</script><rect width="4" height="2"/></svg>')
    (folder / "shot.png").write_bytes(b"\x89PNG\r\n\x1a\n picture bytes")
    serving = Serving(site)
    try:
        assert serving.get("/demo/adr/shot.png").status == 404  # linked by no record yet
        path = site / RECORD
        save(path, path.read_text() + "\n![flow](flow.svg) ![shot](shot.png)\n")
        serving.wait_for("the pictures on the page",
                         lambda: "shot.png" in serving.get(PAGE).text)
        svg = serving.get("/demo/adr/flow.svg")
        assert svg.status == 200 and "<rect" in svg.text and "script" not in svg.text
        png = serving.get("/demo/adr/shot.png")
        assert png.status == 200 and png.body == b"\x89PNG\r\n\x1a\n picture bytes"
    finally:
        serving.stop()


def test_a_new_record_gets_a_page_and_a_removed_one_loses_it(serving: Serving,
                                                             site: Path) -> None:
    new = site / "content/demo/adr/0003-review-records-yearly.md"
    page = "/demo/adr/0003-review-records-yearly/"
    assert serving.get(page).status == 404
    save(new, "---\ntitle: Review records yearly\nstatus: proposed\ndate: 2026-03-01\n"
              "description: Every record is read again once a year.\n---\n\nOnce a year.\n")
    serving.wait_for("the new page", lambda: serving.get(page).status == 200)
    assert "Review records yearly" in serving.get("/").text

    new.unlink()
    serving.wait_for("the page gone", lambda: serving.get(page).status == 404)


def test_records_from_a_path_source_follow_edits_too(site: Path) -> None:
    shared = site.parent / "shared-decisions" / "platform" / "adr"
    shared.mkdir(parents=True)
    record = shared / "0001-pin-python.md"
    record.write_text("---\ntitle: Pin Python\nstatus: accepted\ndate: 2026-04-01\n"
                      "description: One Python version everywhere.\n---\n\nPython 3.11.\n")
    config = site / "site.yml"
    config.write_text(config.read_text() + "sources:\n  - path: ../shared-decisions\n")
    server = Serving(site)
    try:
        page = "/platform/adr/0001-pin-python/"
        assert "Python 3.11." in server.get(page).text
        save(record, record.read_text().replace("Python 3.11.", "Python 3.12."))
        server.wait_for("the source's edit", lambda: "Python 3.12." in server.get(page).text)
    finally:
        assert server.stop() == 0


def test_site_yml_and_templates_rebuild_everything(serving: Serving, site: Path) -> None:
    config = site / "site.yml"
    save(config, config.read_text().replace("title: Serve fixture", "title: Renamed fixture"))
    serving.wait_for("the new title", lambda: "Renamed fixture" in serving.get("/").text)

    override = site / "templates" / "record.html"
    override.parent.mkdir()
    save(override, "<!doctype html><title>{{ r.title }}</title><p>First override</p>\n")
    serving.wait_for("the archive's own record template",
                     lambda: "First override" in serving.get(PAGE).text)
    save(override, "<!doctype html><title>{{ r.title }}</title><p>Second override</p>\n")
    serving.wait_for("the template edited", lambda: "Second override" in serving.get(PAGE).text)
