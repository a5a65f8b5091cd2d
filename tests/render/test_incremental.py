"""An incremental build gives every byte a cold build of the same archive gives.

For each kind of edit, a copy of example-site is built, edited and built again with its
`.site-builder` cache (incrementally, where the edit allows it); a second copy of the edited
archive, with no cache and no output, is built cold. The two output folders must hold the
same files with the same bytes. Edits to records must really have been incremental (the
build says so under `--verbose`, in `BuildResult.method`), and edits to what every page is
made with must have made every file again.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.archive.loader import load_archive
from site_builder.query.textindex import TextIndex
from site_builder.render.increment import MEMORY_FILE, plan
from site_builder.render.output.stamp import output_fingerprint, read_stamp
from site_builder.render.pages.theme import builtin_folder
from site_builder.render.planned import Every
from site_builder.render.search import index as search
from site_builder.render.site import build_site
from tests.conftest import edit_text

ADR = "content/build/adr"
CHAIN = f"{ADR}/0015-stage-only-changed-files.md"  # superseded, supersedes 0008
PLAIN = f"{ADR}/0041-keep-the-search-analysis-between-runs.md"  # nothing links to it
DIAGRAM = f"{ADR}/0024-draw-lineage-at-build-time-and-mermaid-in-the-browser.md"
FOREIGN = "adr-tools-decisions/0001-read-other-tools-records-in-place.md"


def tree(site: Path) -> dict[str, str]:
    """Every file under `site` by path, as a SHA-256 of its bytes."""
    out = {}
    for folder, _, files in os.walk(site):
        for name in files:
            path = Path(folder, name)
            out[path.relative_to(site).as_posix()] = hashlib.sha256(
                path.read_bytes()).hexdigest()
    return out


def front(root: Path, rel: str, key: str, line: str) -> None:
    """Replace the front-matter line starting with `key:` of a record by `line`."""
    path = root / rel
    lines = path.read_text().splitlines(keepends=True)
    found = [n for n, text in enumerate(lines) if text.startswith(f"{key}:")]
    assert found, f"{rel} has no {key}: line"
    lines[found[0]] = line + "\n"
    path.write_text("".join(lines))


def add_front(root: Path, rel: str, line: str) -> None:
    """Add a front-matter line after a record's title."""
    path = root / rel
    text = path.read_text()
    head, title, rest = text.partition("\ntitle:")
    first, newline, after = rest.partition("\n")
    path.write_text(head + title + first + newline + line + "\n" + after)


def new_record(root: Path) -> None:
    (root / ADR / "0099-an-added-record.md").write_text(
        "---\ntitle: An added record\nstatus: proposed\ndate: 2026-12-02\n"
        "tags: [brand-new-tag]\nsupersedes: [build/adr/0039]\n---\n\nAdded by a test.\n")


def override(root: Path, kind: str, name: str, old: str, new: str) -> None:
    """Copy a built-in template or theme file into the archive's own folder, edited."""
    source = builtin_folder(kind) / name
    target = root / kind / name
    target.parent.mkdir(parents=True, exist_ok=True)
    text = source.read_text()
    assert old in text
    target.write_text(text.replace(old, new, 1))


def remove_diagrams(root: Path) -> None:
    path = root / DIAGRAM
    text = path.read_text()
    assert "```mermaid" in text
    path.write_text(text.replace("```mermaid", "```text"))


Edit = Callable[[Path], None]
RECORD_EDITS: dict[str, Edit] = {
    "title": lambda r: front(r, CHAIN, "title", "title: A title edited by a test"),
    "body": lambda r: (r / PLAIN).write_text((r / PLAIN).read_text() + "\nOne more line.\n"),
    "status": lambda r: front(r, PLAIN, "status", "status: deprecated"),
    "description": lambda r: front(r, PLAIN, "description", "description: Edited by a test"),
    "authors": lambda r: front(r, PLAIN, "authors", "authors: [someone-else]"),
    "tags": lambda r: front(r, PLAIN, "tags", "tags: [build, a-tag-of-its-own]"),
    "supersedes added": lambda r: add_front(r, PLAIN, "supersedes: [build/adr/0036]"),
    "supersedes dropped": lambda r: front(r, CHAIN, "supersedes", "supersedes: []"),
    "record added": new_record,
    "record removed": lambda r: (r / PLAIN).unlink(),
    "diagrams removed": remove_diagrams,
    "foreign record": lambda r: edit_text(r / FOREIGN, "Accepted", "Deprecated"),
    "link to an image": lambda r: (
        shutil.copyfile(builtin_folder("theme") / "favicon.svg", r / ADR / "mark.svg"),
        (r / PLAIN).write_text((r / PLAIN).read_text() + "\n![mark](mark.svg)\n")),
}
WHOLE_EDITS: dict[str, Edit] = {
    "template": lambda r: override(r, "templates", "record.html", "</article>",
                                   "<!-- edited --></article>"),
    "theme": lambda r: override(r, "theme", "site.css", "\n", "\n/* edited */\n"),
    "site.yml": lambda r: edit_text(r / "site.yml", "title: site-builder decisions",
                                    "title: site-builder decisions, edited"),
}


@pytest.fixture(autouse=True)
def _fixed_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764633600")


def built_after(edit: Edit, example_root: Path, tmp_path: Path,
                built: bool = False) -> tuple[list[str], int, int]:
    """Build example_root (unless `built`), edit it, build again; compare with a cold build
    of the edited copy. Returns the second build's `method` lines, its files written and in
    all."""
    if not built:
        build_site(example_root, jobs=1)
    assert (example_root / ".site-builder/cache" / MEMORY_FILE).is_file()
    edit(example_root)
    again = build_site(example_root, jobs=1)
    cold_root = tmp_path / "cold"
    shutil.copytree(example_root, cold_root,
                    ignore=shutil.ignore_patterns("_site", ".site-builder"))
    cold = build_site(cold_root, jobs=1)
    assert not cold.up_to_date and cold.changed == cold.files
    incremental, whole = tree(example_root / "_site"), tree(cold_root / "_site")
    assert sorted(incremental) == sorted(whole), "the two builds wrote other files"
    differ = [path for path in whole if incremental[path] != whole[path]]
    assert differ == [], f"bytes differ from a cold build in {differ[:5]}"
    return list(again.method), again.changed, again.files


@pytest.mark.parametrize("name", list(RECORD_EDITS))
def test_an_edited_record_rebuilds_incrementally_to_a_cold_builds_bytes(
        name: str, example_root: Path, tmp_path: Path) -> None:
    method, changed, files = built_after(RECORD_EDITS[name], example_root, tmp_path)
    assert method[0].startswith("  incremental:"), method
    assert 0 < changed < files / 2


@pytest.mark.parametrize("name", list(WHOLE_EDITS))
def test_an_edit_every_page_is_made_with_makes_every_file_again(
        name: str, example_root: Path, tmp_path: Path) -> None:
    method, changed, _ = built_after(WHOLE_EDITS[name], example_root, tmp_path)
    assert method[0].startswith("  made every file again"), method
    assert changed > 0


def test_nothing_changed_in_the_records_keeps_every_file_and_writes_nothing(
        example_root: Path) -> None:
    build_site(example_root, jobs=1)
    before = {p: p.stat() for p in (example_root / "_site").rglob("*") if p.is_file()}
    record = example_root / PLAIN
    os.utime(record, ns=(record.stat().st_atime_ns, record.stat().st_mtime_ns + 10**9))
    again = build_site(example_root, jobs=1)
    assert not again.up_to_date  # an input moved: the build ran
    assert again.changed == 0 and again.removed == 0 and again.rendered == 0
    assert "committed: nothing" in again.method[-1]
    after = {p: p.stat() for p in (example_root / "_site").rglob("*") if p.is_file()}
    assert {p: (s.st_ino, s.st_mtime_ns) for p, s in before.items()} == {
        p: (s.st_ino, s.st_mtime_ns) for p, s in after.items()}


def test_a_changed_output_folder_makes_every_file_again(example_root: Path,
                                                       tmp_path: Path) -> None:
    build_site(example_root, jobs=1)
    page = next((example_root / "_site").rglob("index.html"))
    page.write_text("edited by hand")
    RECORD_EDITS["body"](example_root)
    again = build_site(example_root, jobs=1)
    assert again.method[0] == "  made every file again: the output folder changed since " \
                              "the last build"
    assert page.read_text() != "edited by hand"


def test_force_makes_every_file_again(example_root: Path) -> None:
    build_site(example_root, jobs=1)
    again = build_site(example_root, jobs=1, force=True)
    assert again.method[0] == "  made every file again: --force"
    assert again.changed == 0  # the same bytes: nothing rewritten


@pytest.mark.parametrize("name", ["body", "authors"])
def test_an_edit_no_row_shows_remakes_only_what_reads_the_record(
        name: str, example_root: Path, tmp_path: Path) -> None:
    """A listing shows rows (`views.Row`): an edit of what no row shows remakes the files
    that read the record whole (its page, its copy, the agent files of every record), and
    no listing."""
    method, _, _ = built_after(RECORD_EDITS[name], example_root, tmp_path)
    archive = load_archive(example_root)
    record_id = PLAIN.removeprefix("content/").removesuffix(".md")
    reading = [item.path for item in plan(archive) if item.path != search.MANIFEST
               and (isinstance(item.reads, Every) or record_id in item.reads())]
    listings = [item.path for item in plan(archive) if item.lists is not None]
    assert method[0].startswith("  incremental:"), method
    assert int(re.findall(r"\d+", method[0])[0]) == len(reading), (method, reading)
    assert set(reading).isdisjoint(listings) and len(listings) > 5


def test_the_output_fingerprint_taken_in_the_commit_is_the_walked_one(
        example_root: Path, tmp_path: Path) -> None:
    """The spare's prune lists every folder of the new site as it goes, and the build
    digests that instead of walking the site again: both must give the same fingerprint,
    or the next build would make every file again."""
    method, _, _ = built_after(RECORD_EDITS["tags"], example_root, tmp_path)
    assert "the old one kept as the next build's spare" in method[-1], method
    stamp = read_stamp(example_root / ".site-builder/cache")
    assert stamp is not None
    assert stamp.output == output_fingerprint(example_root / "_site")
    RECORD_EDITS["body"](example_root)
    again = build_site(example_root, jobs=1)
    assert again.method[0].startswith("  incremental:"), again.method


def test_a_fresh_checkout_with_its_cache_restored_rebuilds_the_edited_record_alone(
        example_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        parses: list[Path]) -> None:
    """CI (issue 27, point 5): the workflow restores `.site-builder` and the output into a
    fresh checkout, where every file has a new mtime. The records are known again by their
    bytes, so only the edited one is parsed, analysed for search and made again."""
    build_site(example_root, jobs=1)
    later = time.time() + 3600
    for folder, folders, files in os.walk(example_root):
        folders[:] = [f for f in folders if f not in ("_site", ".site-builder")]
        for name in files:
            os.utime(Path(folder, name), (later, later))
    parses.clear()  # the first build parsed them all
    analysed: list[int] = []
    keep = TextIndex.keep

    def kept(index: TextIndex) -> bool:
        analysed.append(index.analysed)
        return keep(index)

    monkeypatch.setattr(TextIndex, "keep", kept)
    method, changed, files = built_after(lambda r: RECORD_EDITS["body"](r), example_root,
                                         tmp_path, built=True)
    assert parses[:1] == [example_root / PLAIN]
    assert analysed[:1] == [1]
    assert method[0].startswith("  incremental:"), method
    made, planned = (int(n) for n in re.findall(r"\d+", method[0])[:2])
    assert made < planned / 4, method  # the record's page and the pages that list it
    assert 0 < changed < files / 2
