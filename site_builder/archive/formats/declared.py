"""What a format reader declares about itself, and the markers it recognises files by.

Each reader module (`nygard`, `madr`, `log4brains`, `auto`, and any new one) holds one
`FORMAT = Format(...)`; `registry.py` collects them. Nothing else lists the formats: the
`format:` values site.yml allows, `format: auto`'s choice per file and `init --from`'s guess
of a folder's format all come from these declarations.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from site_builder.archive.formats.fields import Fields
from site_builder.archive.formats.front import front_of

# A reader: a file's text and the declared field names → the fields it holds. Never raises.
Reader = Callable[[str, frozenset[str]], Fields]


@dataclass(frozen=True, slots=True)
class Format:
    """One foreign format, as its reader module declares it."""

    name: str
    """The `format:` value of a site.yml source, and `import --format`'s."""
    read: Reader
    recognises: Callable[[str], bool] | None = None
    """True for a file's text laid out this way; None for a reader never chosen by the
    text of one file (`auto` itself)."""
    rank: int = 50
    """`format: auto` asks the formats that recognise files in rank order, lowest first."""
    file_names: re.Pattern[str] | None = None
    """The names this format gives its records, when that tells it apart from a format
    whose files look alike (Log4brains names files by date); None: any record name."""
    folders: tuple[str, ...] = ()
    """Where the tool keeps records by default: `init --from` looks there first."""
    layout: str = ""
    """Its files in a few words, for the reasons `init --from` prints."""
    fallback: bool = False
    """The reader of a file no format recognises (the one whose layout asks least)."""


_FRONT_STATUS = re.compile(r"^status[ \t]*:", re.MULTILINE)
_ITEM_STATUS = re.compile(r"^[ \t]*[-*+][ \t]+(?:\*\*)?status(?:\*\*)?\s*:",
                          re.IGNORECASE | re.MULTILINE)
_STATUS_SECTION = re.compile(r"^ {0,3}#{1,6}[ \t]+status[ \t#]*$", re.IGNORECASE | re.MULTILINE)
_DATE_LINE = re.compile(r"^date[ \t]*:", re.IGNORECASE | re.MULTILINE)


def front_matter_status(text: str) -> bool:
    """True when the text opens (perhaps after comments) with front matter holding a `status`
    key (MADR 3/4)."""
    front = front_of(text)[0]
    return front is not None and _FRONT_STATUS.search(front) is not None


def status_item(text: str) -> bool:
    """True when the text has a `- Status:` / `* Status:` list item (Log4brains, MADR 2)."""
    return _ITEM_STATUS.search(text) is not None


def status_section_or_date(text: str) -> bool:
    """True when the text has a section headed `Status` or a `Date:` line (adr-tools)."""
    return _STATUS_SECTION.search(text) is not None or _DATE_LINE.search(text) is not None
