"""Bodies left in their files: a one-off load holds no body text, and reads each body again
exactly as it was loaded, or says that its file changed."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.archive.body_files import RecordChanged
from site_builder.archive.loader import LoaderCache
from site_builder.archive.records import split_front_matter
from site_builder.errors import InputError
from site_builder.sources.load import load_archive

LINKED = """---
title: Linking
status: accepted
date: 2024-05-01
description: Links to the first record.
---

# Linking

See [the first](0001-first.md).
"""


def test_a_load_without_a_cache_leaves_every_body_in_its_file(
        fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive("lineage")
    kept = load_archive(root, cache=LoaderCache())
    left = load_archive(root)
    assert all(r.body_file is not None and r.body_file.text is not None for r in kept.records)
    assert all(r.body_file is not None and r.body_file.text is None and r.body_text == ""
               for r in left.records)
    for record in left.records:
        assert left.body(record) == kept.body(kept.by_id[record.id])
        assert record.links == kept.by_id[record.id].links
    assert dict(left.all_bodies()) == dict(kept.all_bodies())


def test_a_body_read_again_is_the_one_loaded_line_ends_and_links_included(
        fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive("lineage")
    path = root / "content" / "p" / "adr" / "0010-linking.md"
    path.write_bytes(LINKED.replace("\n", "\r\n").encode())
    record = load_archive(root).by_id["p/adr/0010-linking"]
    expected = split_front_matter(LINKED)[1]
    assert record.body == expected
    assert [link.target for link in record.links] == ["0001-first.md"]


def test_a_file_changed_after_the_load_is_never_read_as_its_body(
        fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive("lineage")
    archive = load_archive(root)
    record = archive.records[0]
    stat = record.path.stat()
    record.path.write_text(record.path.read_text(encoding="utf-8") + "More.\n",
                           encoding="utf-8")
    os.utime(record.path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    with pytest.raises(RecordChanged, match="changed after it was loaded") as raised:
        archive.body(record)
    assert isinstance(raised.value, InputError)
    record.path.unlink()
    with pytest.raises(RecordChanged, match="cannot be read any more"):
        archive.all_bodies()[record.id]
