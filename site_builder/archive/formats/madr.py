"""MADR records: 2.x metadata as list items under the H1, 3.x/4.x as YAML front matter.

```
# Use Markdown Architectural Decision Records      (MADR 2)
* Status: accepted
* Deciders: Oliver Kopp, Olaf Zimmermann
* Date: 2017-12-17
```
MADR 3/4 front matter keys: `status`, `date`, `deciders` (4.x: `decision-makers`),
`consulted`, `informed`; the title is the H1. Every key is optional.
"""

from __future__ import annotations

from site_builder.archive.formats.declared import Format, front_matter_status, status_item
from site_builder.archive.formats.fields import Fields
from site_builder.archive.formats.front import read_front
from site_builder.archive.formats.nygard import read_layout


def read(text: str, custom: frozenset[str] = frozenset()) -> Fields:
    """The fields of one MADR record (`custom`: declared field names). Never raises."""
    fields = Fields("madr")
    body, first = read_front(text, fields, custom)
    read_layout(body, first, fields, links_section=True)
    return fields


def recognises(text: str) -> bool:
    """True for MADR 3/4 front matter with a status, or MADR 2 `* Status:` items."""
    return front_matter_status(text) or status_item(text)


FORMAT = Format("madr", read, recognises=recognises, rank=20,
                folders=("docs/decisions", "docs/adr"),
                layout="MADR 2 items or MADR 3/4 front matter")
