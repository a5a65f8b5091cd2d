"""`format: auto`: each file read by the reader its own layout asks for.

The declared formats are asked in rank order (`registry.recognising`): `- Status:` /
`* Status:` items → Log4brains or MADR 2 (read alike, `## Links` included); front matter
with `status` → MADR 3/4; a `Status` section → Nygard. A file none recognises is read by
the fallback format, Nygard, whose layout asks least.
"""

from __future__ import annotations

from site_builder.archive.formats import registry
from site_builder.archive.formats.declared import Format, Reader
from site_builder.archive.formats.fields import Fields

__all__ = ["FORMAT", "Reader", "read", "reader_for"]


def reader_for(text: str) -> Reader:
    """The reader for one file's text."""
    return registry.recognising(text).read


def read(text: str, custom: frozenset[str] = frozenset()) -> Fields:
    """The fields of one record in whichever format its text shows. Never raises."""
    return reader_for(text)(text, custom)


# Never chosen by one file's text: it is the choice.
FORMAT = Format("auto", read, rank=90, layout="files in several layouts")
