"""`format: auto`: each file read by the reader its own layout asks for.

Front matter with `status` → MADR 3/4; `- Status:` / `* Status:` items → Log4brains or
MADR 2 (read alike, `## Links` included); a `Status` section → Nygard. A file with none of
them is read as Nygard, whose layout asks least.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from site_builder.archive.formats import log4brains, madr, nygard
from site_builder.archive.formats.fields import Fields
from site_builder.archive.formats.front import front_of

_FRONT_STATUS = re.compile(r"^status[ \t]*:", re.MULTILINE)
_ITEM_STATUS = re.compile(r"^[ \t]*[-*+][ \t]+(?:\*\*)?status(?:\*\*)?\s*:",
                          re.IGNORECASE | re.MULTILINE)

Reader = Callable[[str, frozenset[str]], Fields]


def reader_for(text: str) -> Reader:
    """The reader for one file's text."""
    front = front_of(text)[0]
    if front is not None and _FRONT_STATUS.search(front):
        return madr.read
    if _ITEM_STATUS.search(text):
        return log4brains.read
    return nygard.read


def read(text: str, custom: frozenset[str] = frozenset()) -> Fields:
    """The fields of one record in whichever format its text shows. Never raises."""
    return reader_for(text)(text, custom)
