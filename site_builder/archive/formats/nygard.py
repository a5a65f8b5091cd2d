"""adr-tools records (Michael Nygard's template): `# N. Title`, `Date:`, a `Status` section.

```
# 2. Implement as shell scripts

Date: 2016-02-12

## Status

Accepted

Superceded by [5. Use Go](0005-use-go.md)
```
The status section's first line is the status; its other lines are relations (both
spellings of supersede, `Amends`, any `<Verb> [N. Title](file)` of `adr link`).
"""

from __future__ import annotations

from site_builder.archive.formats import text as lines_of
from site_builder.archive.formats.declared import Format, status_section_or_date
from site_builder.archive.formats.fields import Fields
from site_builder.archive.formats.front import read_front


def read(text: str, custom: frozenset[str] = frozenset()) -> Fields:
    """The fields of one adr-tools record (`custom`: declared field names). Never raises."""
    fields = Fields("nygard")
    body, first = read_front(text, fields, custom)
    read_layout(body, first, fields, links_section=False)
    return fields


FORMAT = Format("nygard", read, recognises=status_section_or_date, rank=30,
                folders=("doc/adr", "docs/adr", "docs/architecture/decisions"),
                layout="a Status section (adr-tools)", fallback=True)


def read_layout(body: str, first: int, fields: Fields, links_section: bool) -> None:
    """Read the H1, the metadata lines before the first section, a `Status` section and
    (with `links_section`) a Log4brains `Links` section from `body`, which starts at file
    line `first`; set `fields.body` to what is left."""
    lines = body.split("\n")
    code = lines_of.code_lines(lines)
    found = lines_of.headings(lines, code)
    lines_of.take_title(lines, found, fields, first)
    # Metadata lines sit between the H1 and the first section other than `Status` (or one
    # headed `Metadata`, as V-Sekai/manuals writes its Log4brains items).
    head_end = next((index for index, level, text in found
                     if (level > 1 or lines_of.is_section(text))
                     and text.strip().rstrip(":").lower() not in ("status", "metadata")),
                    len(lines))
    lines_of.take_items(lines, 0, head_end, code, fields, first)
    status = lines_of.section(found, "status", len(lines))
    if status is not None:
        lines_of.take_section(lines, status, fields, first, status=True)
    elif "status" not in fields.values:
        named = lines_of.status_named_section(found, len(lines))
        if named is not None:
            lines_of.take_status_items(lines, named, code, fields, first)
    if links_section:
        links = lines_of.section(found, "links", len(lines))
        if links is not None:
            lines_of.take_section(lines, links, fields, first, status=False)
    lines_of.finish_body(lines, fields, first)
