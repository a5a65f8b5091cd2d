"""Which files of the site an edit touches: the smallest rebuild that is still right.

Two archives are compared, the last one built and the one just loaded. When they hold the
same records in the same projects under the same config, the edit changed only what some
records say, and the files to write again are those that read an edited record, in the old
archive (a tag it no longer has, the chain it left) or in the new one. Which records a file
reads is the build's own plan to say (`Planned.reads`, beside the code that makes each page
and agent file), so this module restates none of it. Anything else (a record added, removed
or renamed, a project changed, site.yml) asks for a full rebuild, which the build's caches
keep cheap.
"""

from __future__ import annotations

from collections.abc import Collection

from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.render.increment import plan
from site_builder.render.pages.urls import Urls
from site_builder.render.planned import reads_any


def same_records(before: Archive, after: Archive) -> bool:
    """True when `after` holds the records of `before` (same ids, projects and config),
    whatever they now say."""
    return (before.config == after.config and before.projects == after.projects
            and before.by_id.keys() == after.by_id.keys())


def edited(before: Archive, after: Archive) -> list[str]:
    """Ids of the records of `after` that differ from the same record in `before`, in
    `after`'s order. Unchanged files keep their Record object (the loader's cache), so most
    records are compared by identity alone."""
    out = []
    for record in after.records:
        old = before.by_id.get(record.id)
        if old is not record and old != record:
            out.append(record.id)
    return out


def own_files(record: Record) -> list[str]:
    """The record's page and its `.md` copy: what an edit must show first."""
    return [Urls.record_page(record), Urls.record_markdown(record)]


def touched(before: Archive, after: Archive, changed: Collection[str]) -> set[str]:
    """Site paths of every file that reads one of the records `changed`, before the edit or
    after it, their own files included; `before` and `after` hold the same records."""
    wanted = frozenset(changed)
    return {item.path for archive in (before, after) for item in plan(archive)
            if reads_any(item, wanted)}
