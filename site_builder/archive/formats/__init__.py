"""Readers for records kept in another tool's format, read in place.

One module per format, each a pure function from a file's text to `Fields`: `nygard`
(adr-tools), `madr` (2.x items, 3.x/4.x front matter), `log4brains`, and `auto`, which picks
one per file. `files` says which files are records (and why the others are not), `status`
reads statuses and titles, `placeholders` finds template leftovers, and `settle` turns
Fields into the same Record a native file gives.
"""

from __future__ import annotations

from site_builder.archive.formats import auto, log4brains, madr, nygard
from site_builder.archive.formats.auto import Reader
from site_builder.archive.formats.files import Skipped, is_record_name

__all__ = ["READERS", "Reader", "Skipped", "is_record_name"]

READERS: dict[str, Reader] = {
    "nygard": nygard.read, "madr": madr.read, "log4brains": log4brains.read, "auto": auto.read,
}
