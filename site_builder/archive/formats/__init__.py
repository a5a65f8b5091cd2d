"""Readers for records kept in another tool's format, read in place.

One module per format, each a pure function from a file's text to `Fields`: `nygard`
(adr-tools), `madr` (2.x items, 3.x/4.x front matter), `log4brains`, and `auto`, which picks
one per file. Each declares itself (`FORMAT`, a `declared.Format`: its name, how it recognises
a file, where its tool keeps records); `registry` collects the declarations. `settle` turns
Fields into the same Record a native file gives; `skipped` says which files of a folder are
no records, and why.
"""

from __future__ import annotations

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
