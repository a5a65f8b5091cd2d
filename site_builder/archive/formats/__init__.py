"""Readers for records kept in another tool's format, read in place.

- `nygard.py`     adr-tools records: `# N. Title`, `Date:`, a `Status` section
- `madr.py`       MADR: 2.x list items under the H1, 3.x/4.x YAML front matter
- `log4brains.py` Log4brains: `YYYYMMDD-slug.md`, MADR 2 items, relations under `## Links`
- `declared.py`   what a reader declares about itself (`FORMAT`): its name, how it
                  recognises a file, where its tool keeps records
- `registry.py`   the declared formats collected once: `format:` values, `auto`, `init --from`
- `auto.py`       `format: auto`: each file read by the reader its layout asks for
- `front.py`      front matter in another tool's format → Fields
- `text.py`       line-level reading the readers share: H1, items, sections, relations
- `fields.py`     Fields: what a reader found in one file, each with its line
- `files.py`      which files are records, and why the others are not
- `status.py`     statuses (with their notes and successors) and titles
- `dates.py`      dates as written: ISO, day first with `/` or `.`, month names
- `placeholders.py` template leftovers: unfilled dates, statuses and titles
- `settle.py`     Fields → the same Record a native file gives
"""

from __future__ import annotations

from site_builder.archive.formats.files import Skipped, is_record_name

__all__ = ["Skipped", "is_record_name"]
