"""Local mode sees every edit on the next answer, through the official SDK client.

The server runs as a real subprocess (`site-builder mcp --root`, stdio) on a copy of a
fixture archive; the test edits, adds, removes and renames record files and asks again.
The kernel queues a change notice during the write itself, so the very next call must see
it: no waiting, and edits closer together than any watcher's debounce are seen too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from site_builder.access.source import LocalSource
from site_builder.config.site import load_config
from tests.mcp.client import Session, mcp_client

ADR = Path("content") / "core" / "adr"
RECORD = ADR / "0001-use-postgres.md"


@pytest.fixture
def served(fixture_archive: Callable[[str], Path]) -> Iterator[tuple[Path, Session]]:
    root = fixture_archive("mcp-lineage")
    with mcp_client("--root", str(root)) as session:
        yield root, session


def title(session: Session, reference: str) -> str | None:
    result = session.call("get_record", id=reference)
    return None if result.is_error else str(result.structured_content["title"])


def retitle(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert f"title: {old}" in text
    path.write_text(text.replace(f"title: {old}", f"title: {new}"), encoding="utf-8")


def test_an_edit_is_seen_by_the_next_answer(served: tuple[Path, Session]):
    root, session = served
    before = title(session, "core/adr/1")
    assert before is not None
    retitle(root / RECORD, before, "Edited once")
    assert title(session, "core/adr/1") == "Edited once"


def test_edits_faster_than_any_debounce_are_all_seen(served: tuple[Path, Session]):
    root, session = served
    current = title(session, "core/adr/1")
    assert current is not None
    # Same length each time, written back to back: the file's size never changes and its
    # mtime may not either (the kernel's clock ticks coarser than these writes).
    for n in range(5):
        new = f"Edit number {n}"
        retitle(root / RECORD, current, new)
        current = new
        assert title(session, "core/adr/1") == new
    for n in range(5, 9):  # several edits, then one look
        new = f"Edit number {n}"
        retitle(root / RECORD, current, new)
        current = new
    assert title(session, "core/adr/1") == current


def test_added_removed_and_renamed_records(served: tuple[Path, Session]):
    root, session = served
    text = (root / RECORD).read_text(encoding="utf-8")
    old_title = title(session, "core/adr/1")
    assert old_title is not None and title(session, "core/adr/90") is None
    (root / ADR / "0090-a-new-one.md").write_text(
        text.replace(f"title: {old_title}", "title: A new one"), encoding="utf-8")
    assert title(session, "core/adr/90") == "A new one"
    (root / ADR / "0090-a-new-one.md").rename(root / ADR / "0091-renamed.md")
    assert title(session, "core/adr/90") is None
    assert title(session, "core/adr/91") == "A new one"
    found = session.answer("search_records", query="a new one")
    assert [r["id"] for r in found["records"]][:1] == ["core/adr/0091-renamed"]
    (root / ADR / "0091-renamed.md").unlink()
    assert title(session, "core/adr/91") is None


def test_a_folder_that_cannot_be_watched_is_read_on_every_call(
        fixture_archive: Callable[[str], Path]):
    root = fixture_archive("mcp-lineage")
    config, _ = load_config(root)
    logged: list[str] = []
    source = LocalSource(config, log=logged.append)
    source._changes.close()  # as where inotify is missing or out of watches
    first = source.archive().get("core/adr/1").title
    retitle(root / RECORD, first, "Seen without a watcher")
    assert source.archive().get("core/adr/1").title == "Seen without a watcher"
    source.archive()
    said = [line for line in logged if "cannot watch" in line]
    assert len(said) == 1 and str(config.content_dir) in said[0]
