"""Readers for records kept in another tool's format, read in place.

- `nygard.py`     adr-tools records: `# N. Title`, `Date:`, a `Status` section
- `madr.py`       MADR: 2.x list items under the H1, 3.x/4.x YAML front matter
- `log4brains.py` Log4brains: `YYYYMMDD-slug.md`, MADR 2 items, relations under `## Links`
- `auto.py`       `format: auto`: each file read by the reader its layout asks for
- `front.py`      front matter in another tool's format → Fields
- `text.py`       line-level reading the readers share: H1, items, sections, relations
- `fields.py`     Fields: what a reader found in one file, each with its line
- `settle.py`     Fields → the same Record a native file gives
"""

from __future__ import annotations

from site_builder.archive.formats import auto, log4brains, madr, nygard
from site_builder.archive.formats.auto import Reader

READERS: dict[str, Reader] = {
    "nygard": nygard.read, "madr": madr.read, "log4brains": log4brains.read, "auto": auto.read,
}
# Files of such a folder that are not records, besides names starting `_` or `.`.
NOT_RECORDS = frozenset({"readme.md", "index.md", "template.md", "adr-template.md"})


def is_record_name(name: str) -> bool:
    """True for a file name a folder in another tool's format holds a record under.

    Besides the names the reading rules list, MADR's template variants (`adr-template-minimal.md`,
    `adr-template-bare.md`) sit beside the records: no `template…` file is a record.
    """
    lowered = name.lower()
    return (lowered.endswith(".md") and not name.startswith(("_", "."))
            and lowered not in NOT_RECORDS
            and not lowered.startswith(("adr-template", "template")))
