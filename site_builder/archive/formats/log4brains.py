"""Log4brains records: `YYYYMMDD-slug.md`, MADR 2 list items, relations under `## Links`.

```
# Use Log4brains to manage the ADRs

- Status: superseded by [20201029-superseder](20201029-superseder.md)
- Deciders: John Doe, Foo Bar
- Date: 2020-01-01
- Tags: foo, bar

## Links

- Supersedes [20201028-old](20201028-old.md)
```
The file stem is the record's identity (several records share a date); `draft` means the
record is not published; no H1 means no title (the stem in words is used).
"""

from __future__ import annotations

import re

from site_builder.archive.formats.declared import Format, status_item
from site_builder.archive.formats.fields import Fields
from site_builder.archive.formats.front import read_front
from site_builder.archive.formats.nygard import read_layout


def read(text: str, custom: frozenset[str] = frozenset()) -> Fields:
    """The fields of one Log4brains record (`custom`: declared field names). Never raises."""
    fields = Fields("log4brains")
    body, first = read_front(text, fields, custom)
    read_layout(body, first, fields, links_section=True)
    return fields


# Log4brains names files by date; MADR 2 files have the same items but a number.
FORMAT = Format("log4brains", read, recognises=status_item, rank=10,
                file_names=re.compile(r"^\d{8}-"), folders=("docs/adr",),
                layout="date-named files with '- Status:' items")
