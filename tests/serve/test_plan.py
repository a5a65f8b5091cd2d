"""`serve` rewrites what the build's own plan says an edit reads, and that is enough.

Each edit below is made to a copy of example-site; the whole site is built in memory before
and after it, and every file whose bytes differ must be among `affected.touched`. A touched
set that names every file would pass that, so each edit must also leave record pages out.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from site_builder.archive.archive import Archive
from site_builder.archive.loader import LoaderCache
from site_builder.archive.records import Record
from site_builder.query import answers as query
from site_builder.render.search import index as search
from site_builder.render.writing import write_site
from site_builder.serve import affected
from site_builder.sources.load import load_archive
from tests.conftest import MemorySite


def _built(archive: Archive) -> dict[str, bytes]:
    memory = MemorySite()
    write_site(archive, memory, jobs=1)
    return memory.files


def _rewrite(record: Record, change: Callable[[dict[str, Any]], None]) -> None:
    """Change the record's front matter in its file, the body kept as written."""
    text = record.path.read_text(encoding="utf-8")
    _, block, body = text.split("---\n", 2)
    data = yaml.safe_load(block)
    change(data)
    record.path.write_text("---\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
                           + "---\n" + body, encoding="utf-8")


def _yaml_records(archive: Archive) -> list[Record]:
    """Records written with a YAML block (not those read from another tool's format)."""
    return [r for r in archive.records
            if r.path.read_text(encoding="utf-8").startswith("---\n")]


def _in_chain(archive: Archive) -> list[Record]:
    return [r for r in _yaml_records(archive)
            if archive.successors_of(r) or archive.supersedes_of(r)]


def _newest_replacing(archive: Archive) -> Record:
    """A record that says in its own YAML block that it supersedes another."""
    return next(r for r in _yaml_records(archive) if r.supersedes)


def _lone(archive: Archive) -> list[Record]:
    """Records in no supersede chain."""
    return [r for r in _yaml_records(archive)
            if not (archive.successors_of(r) or archive.supersedes_of(r))]


def _retitle(archive: Archive) -> Record:
    record = _in_chain(archive)[0]
    _rewrite(record, lambda d: d.update(title=d["title"] + " (renamed)"))
    return record


def _retag(archive: Archive) -> Record:
    record = _lone(archive)[0]
    _rewrite(record, lambda d: d.update(tags=["a-tag-nobody-had"]))
    return record


def _deprecate(archive: Archive) -> Record:
    record = next(r for r in _in_chain(archive) if archive.is_current(r))
    _rewrite(record, lambda d: d.update(status="deprecated"))
    return record


def _unlink(archive: Archive) -> Record:
    record = _newest_replacing(archive)
    _rewrite(record, lambda d: d.pop("supersedes"))
    return record


def _replace_lone(archive: Archive) -> Record:
    """A lone record now says it replaces another lone record of its project."""
    lone = _lone(archive)
    newer = lone[0]
    older = next(r for r in lone[1:] if r.project == newer.project)
    _rewrite(newer, lambda d: d.update(supersedes=[older.id]))
    return newer


def _redate(archive: Archive) -> Record:
    """A chain's record moves to long ago: orders, the timeline and the lineage change."""
    record = _in_chain(archive)[-1]
    _rewrite(record, lambda d: d.update(date="2001-02-03"))
    return record


def _relate_across(archive: Archive) -> Record:
    """A record of one chain now refers to a record of another: the project's picture joins
    them with a lighter line."""
    chained = _in_chain(archive)
    record = chained[0]
    other = next(r for r in chained if r.project == record.project
                 and r.id not in archive.successors_of(record) and r.id != record.id
                 and record.id not in archive.successors_of(r))
    _rewrite(record, lambda d: d.update(related=[*d.get("related", []), other.id]))
    return record


EDITS = {"title": _retitle, "tags": _retag, "status": _deprecate, "supersedes dropped": _unlink,
         "supersedes added": _replace_lone, "date": _redate, "related": _relate_across}


@pytest.mark.parametrize("name", list(EDITS))
def test_every_file_an_edit_changes_is_touched(example_root: Path, name: str) -> None:
    cache = LoaderCache()
    before = load_archive(example_root, cache=cache)
    old = _built(before)
    record = EDITS[name](before)
    after = load_archive(example_root, cache=cache)
    assert affected.same_records(before, after)
    changed = affected.edited(before, after)
    assert changed == [record.id]
    new = _built(after)
    differ = {p for p in old.keys() | new.keys() if old.get(p) != new.get(p)}
    touched = affected.touched(before, after, changed)
    if search.MANIFEST in touched:  # it stands for every file of the index, as in serve
        touched |= {p for p in old.keys() | new.keys() if p.startswith(search.OUTPUT_DIR + "/")}
    assert differ, "the edit changed no file"
    assert differ - touched == set()
    pages = {p for p in old if p.endswith("/index.html") and p.count("/") == 3}
    assert pages - touched, "every record page was touched"


def test_a_file_that_shows_nothing_of_an_edit_is_left_alone(example_root: Path) -> None:
    cache = LoaderCache()
    before = load_archive(example_root, cache=cache)
    record = _retag(before)
    after = load_archive(example_root, cache=cache)
    touched = affected.touched(before, after, [record.id])
    others = [r for r in _lone(before) if r.id != record.id
              and record.id not in query.shown_by(before, r)]
    assert others
    for other in others:
        assert affected.own_files(other)[0] not in touched
    assert "robots.txt" not in touched and "404.html" not in touched


def test_the_search_index_follows_an_edit_in_a_large_archive(tmp_path: Path) -> None:
    # Larger than the 2,000 records up to which the index used to follow edits.
    folder = tmp_path / "content" / "big" / "adr"
    folder.mkdir(parents=True)
    (tmp_path / "site.yml").write_text("title: Big\n")
    for number in range(1, 2101):
        (folder / f"{number:04d}-record-{number}.md").write_text(
            f"---\ntitle: Record {number}\nstatus: accepted\ndate: 2026-01-01\n---\nText.\n")
    cache = LoaderCache()
    before = load_archive(tmp_path, cache=cache)
    edited = folder / "0007-record-7.md"
    edited.write_text(edited.read_text().replace("Text.", "Text about zeppelins."))
    after = load_archive(tmp_path, cache=cache)
    changed = affected.edited(before, after)
    assert changed == ["big/adr/0007-record-7"]
    assert search.MANIFEST in affected.touched(before, after, changed)
