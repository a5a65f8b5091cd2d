"""output/pieces.py: a file made of pieces copies the unchanged ones from the last output."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.render.output import pieces
from site_builder.render.output.pieces import Layout, Piece, Pieces
from site_builder.render.output.writer import Output


class Maker:
    """Pieces from a dict of key → text, counting which it was asked to make; each piece
    the record of its key's, but "head", which is of none."""

    def __init__(self) -> None:
        self.made: list[str] = []

    def file(self, texts: dict[str, str]) -> Pieces:
        return Pieces([Piece(key, None if key == "head" else key, self._make(key, text))
                       for key, text in texts.items()])

    def _make(self, key: str, text: str) -> Callable[[], bytes]:
        def make() -> bytes:
            self.made.append(key)
            return text.encode("utf-8")
        return make


def build(site: Path, file: Pieces, before: dict[str, Layout] | None = None,
          unchanged: Callable[[str], bool] = lambda key: False) -> Output:
    with Output(site) as out:
        if before is not None:
            out.splice_from(before, unchanged)
        out.write("all.txt", file)
        out.commit()
    return out


FIRST = {"head": "HEAD\n", "a": "alpha\n", "b": "beta\n", "c": "gamma\n"}


def test_the_first_build_lays_out_every_piece_and_writes_the_whole(tmp_path: Path) -> None:
    maker = Maker()
    out = build(tmp_path / "_site", maker.file(FIRST))
    assert (tmp_path / "_site/all.txt").read_text() == "".join(FIRST.values())
    assert out.layouts["all.txt"] == {"head": (0, 5), "a": (5, 6), "b": (11, 5), "c": (16, 6)}
    assert maker.made == list(FIRST)


def test_unchanged_pieces_are_copied_unmade_and_the_rest_made(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    first = build(site, Maker().file(FIRST))
    maker = Maker()
    texts = {"head": "HEAD\n", "c": "gamma\n", "a": "ALPHA, longer\n", "d": "delta\n"}
    out = build(site, maker.file(texts), first.layouts, unchanged=lambda key: key in "bc")
    assert (site / "all.txt").read_text() == "HEAD\ngamma\nALPHA, longer\ndelta\n"
    assert sorted(maker.made) == ["a", "d", "head"]  # c was copied; b is gone
    assert out.layouts["all.txt"] == {"head": (0, 5), "c": (5, 6), "a": (11, 14),
                                      "d": (25, 6)}
    assert out.changed == 1


def test_pieces_made_again_the_same_leave_the_old_file_untouched(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    first = build(site, Maker().file(FIRST))
    os.utime(site / "all.txt", ns=(1_000_000_000, 1_000_000_000))
    maker = Maker()
    out = build(site, maker.file(FIRST), first.layouts)  # every record "changed"
    assert maker.made == list(FIRST)
    assert (out.changed, out.unchanged) == (0, 1)
    assert (site / "all.txt").stat().st_mtime_ns == 1_000_000_000


def test_a_reordered_file_is_written_though_every_piece_is_copied(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    first = build(site, Maker().file(FIRST))
    maker = Maker()
    texts = {"head": "HEAD\n", "c": "gamma\n", "b": "beta\n", "a": "alpha\n"}
    out = build(site, maker.file(texts), first.layouts, unchanged=lambda key: True)
    assert (site / "all.txt").read_text() == "HEAD\ngamma\nbeta\nalpha\n"
    assert maker.made == ["head"]  # a piece of no record is made every time
    assert out.changed == 1


def test_a_shorter_file_of_the_same_pieces_is_not_taken_for_the_old(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    first = build(site, Maker().file(FIRST))
    texts = {key: FIRST[key] for key in ("head", "a", "b")}
    out = build(site, Maker().file(texts), first.layouts, unchanged=lambda key: True)
    assert (site / "all.txt").read_text() == "HEAD\nalpha\nbeta\n"
    assert out.changed == 1


def test_a_writer_that_knows_no_pieces_reads_them_as_chunks() -> None:
    assert b"".join(Maker().file(FIRST)) == "".join(FIRST.values()).encode()


def test_where_the_kernel_will_not_copy_the_bytes_are_copied_by_hand(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> int:
        raise OSError(errno.EXDEV, "cross-device")

    site = tmp_path / "_site"
    first = build(site, Maker().file(FIRST))
    monkeypatch.setattr(pieces, "_COPY_FILE_RANGE", refuse)
    texts = {"head": "HEAD\n", "a": "alpha\n", "c": "gamma\n", "b": "BETA\n"}
    build(site, Maker().file(texts), first.layouts, unchanged=lambda key: key != "b")
    assert (site / "all.txt").read_text() == "HEAD\nalpha\ngamma\nBETA\n"


def test_a_layout_that_is_not_the_old_files_copies_nothing(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    first = build(site, Maker().file(FIRST))
    lying = {"all.txt": {key: (start + 1000, length)
                         for key, (start, length) in first.layouts["all.txt"].items()}}
    maker = Maker()
    build(site, maker.file(FIRST), lying, unchanged=lambda key: True)
    assert (site / "all.txt").read_text() == "".join(FIRST.values())
    assert maker.made == list(FIRST)
