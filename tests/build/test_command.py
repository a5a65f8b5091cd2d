"""The `build` command's progress line: only on a terminal, only for builds over a second."""

from __future__ import annotations

import io

from site_builder.build.command import ProgressLine


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_short_build_shows_no_progress() -> None:
    stream = Terminal()
    progress = ProgressLine(stream, delay=60)
    progress("rendering bodies", 64, 100)
    progress.clear()
    assert stream.getvalue() == ""


def test_a_long_build_shows_one_line_and_erases_it() -> None:
    stream = Terminal()
    progress = ProgressLine(stream, delay=0)
    progress("rendering bodies", 64, 100)
    progress.clear()
    assert stream.getvalue() == "\r\033[Krendering bodies 64/100…\r\033[K"


def test_no_progress_when_stderr_is_not_a_terminal() -> None:
    stream = io.StringIO()
    progress = ProgressLine(stream, delay=0)
    progress("writing", 256, 0)
    assert stream.getvalue() == ""
