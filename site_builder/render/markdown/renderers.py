"""The Markdown renderers a site can choose (`markdown:` in site.yml): text → raw HTML.

`gfm` (the default) is cmark-gfm, exactly GitHub's Markdown, linear on any input.
`python-markdown` is for archives first written for MkDocs (admonitions, attribute lists,
definition lists). Python-Markdown is not linear on hostile text: a body it cannot render in
bounded time is refused, up front by `refusal` (which `check` reports at the file) and, for
what that misses, by a time limit while rendering.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import Any

from site_builder.archive.body_limits import python_markdown_refusal as refusal
from site_builder.config.site import MARKDOWN_RENDERERS
from site_builder.errors import InputError
from site_builder.text import gfm

DEFAULT = MARKDOWN_RENDERERS[0]
# Python-Markdown gets this long for one body (where a timer can interrupt it).
TIME_LIMIT = 3.0


class RenderRefused(InputError):
    """A body the renderer will not render; the message says why, in one line."""


def renderer(name: str) -> Callable[[str], str]:
    """The renderer called `name`: a function from a body to its raw HTML, which raises
    RenderRefused for a body it will not render."""
    if name == "python-markdown":
        return _PythonMarkdown()
    return gfm.to_html


# ---- Python-Markdown ---------------------------------------------------------------------------

class _PythonMarkdown:
    """One reused Python-Markdown instance (building the extension set costs more than
    converting a typical body); not thread-safe, like every renderer here."""

    def __init__(self) -> None:
        import markdown  # only archives that choose it pay for importing it

        from site_builder.render.markdown.table_alignment import TableAlignmentExtension
        self._md = markdown.Markdown(
            extensions=["tables", "fenced_code", "footnotes", "sane_lists", "admonition",
                        "attr_list", "def_list", "pymdownx.tasklist", "pymdownx.tilde",
                        TableAlignmentExtension()],
            extension_configs={"pymdownx.tasklist": {"custom_checkbox": False},
                               # `~5 ms` is prose, not a subscript: only `~~struck~~` is markup.
                               "pymdownx.tilde": {"subscript": False}},
            output_format="html")

    def __call__(self, body: str) -> str:
        problem = refusal(body)
        if problem:
            raise RenderRefused(f"Python-Markdown cannot render {problem} in bounded time "
                                "(markdown: gfm can)")
        self._md.reset()
        try:
            with _time_limit(TIME_LIMIT):
                return str(self._md.convert(body))
        except RecursionError:
            raise RenderRefused("Python-Markdown ran out of stack on this body's nesting "
                                "(markdown: gfm can render it)") from None


class _TimeUp(Exception):
    pass


class _time_limit:
    """Interrupts the block after `seconds` with RenderRefused, where a timer can: in the
    main thread of a process (the build and its workers); elsewhere the block just runs."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.armed = threading.current_thread() is threading.main_thread()
        self.previous: Any = None

    def __enter__(self) -> None:
        if self.armed:
            self.previous = signal.signal(signal.SIGALRM, _time_up)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        if kind is _TimeUp:
            raise RenderRefused(f"Python-Markdown took longer than {self.seconds:g} s on this "
                                "body (markdown: gfm renders it in linear time)") from None


def _time_up(signum: int, frame: object) -> None:
    raise _TimeUp()
