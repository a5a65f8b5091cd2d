"""Which files of the site an edit touches: the smallest rebuild that is still right.

Two archives are compared, the last one built and the one just loaded. When they hold the
same records in the same projects under the same config, the edit changed only what some
records say, and the files to write again are: those records' pages and `.md` copies; the
pages and copies of records that show them (a reference, a supersede chain); the listings
they appear in (home, their project, tags old and new, timeline); and the agent files and
the search index, which cover every record. Anything else (a record added, removed or renamed, a
project changed, site.yml) asks for a full rebuild, which the build's caches keep cheap.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.render import search
from site_builder.render.lineage import Lineage
from site_builder.render.urls import Urls
from site_builder.site_paths import AGENTS, DECISIONS, FEED, LLMS, LLMS_FULL, SITEMAP

# The agent files, which describe every record.
AGENT_FILES = (DECISIONS, LLMS, LLMS_FULL, AGENTS, FEED, SITEMAP)
# The search index is rebuilt whole (its manifest stands for all its files), at about 0.7 ms
# of CPU per record. Up to this many records it follows every edit; beyond, an edit would
# hold the rebuild loop for seconds, so only full rebuilds refresh it.
SEARCH_FOLLOWS_EDITS_UP_TO = 2000


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
    """Site paths of every file that may change when the records `changed` are edited,
    their own files included; `before` and `after` hold the same records."""
    paths: set[str] = set()
    for archive in (before, after):
        for record_id in changed:
            record = archive.by_id[record_id]
            paths.update(own_files(record))
            paths.update(listings(record))
        for record in _showing(archive, changed):
            paths.update(own_files(record))
        paths.update(_pictured(archive, changed))
    if _lineage(before, changed) != _lineage(after, changed):
        for record in _chains_differ(before, after):
            paths.update(own_files(record))
    paths.update(AGENT_FILES)
    if len(after.records) <= SEARCH_FOLLOWS_EDITS_UP_TO:
        paths.add(search.MANIFEST)
    return paths


def listings(record: Record) -> list[str]:
    """The pages that list `record`."""
    return [Urls.HOME_PAGE, Urls.project_page(record.project), Urls.TIMELINE_PAGE,
            Urls.TAGS_PAGE, *(Urls.tag_page(tag) for tag in record.tags)]


def mentions(archive: Archive, record: Record) -> set[str]:
    """Ids of the records `record`'s page and copy show: references, and its supersede
    chain."""
    if not (record.related or record.supersedes or record.superseded_by
            or record.id in archive.superseded_by):
        return set()  # most records: nothing to resolve
    out = {r.id for r in archive.chain(record)}
    for reference in (*record.related, *record.supersedes, record.superseded_by):
        if reference:
            found = archive.resolve(reference)
            if found is not None:
                out.add(found.id)
    return out


def _showing(archive: Archive, changed: Collection[str]) -> Iterable[Record]:
    """Records that show one of `changed`, or that one of `changed` shows."""
    wanted = set(changed)
    for record in archive.records:
        if record.id in wanted:
            yield from (archive.by_id[i] for i in mentions(archive, record))
        elif not wanted.isdisjoint(mentions(archive, record)):
            yield record


def _pictured(archive: Archive, changed: Collection[str]) -> set[str]:
    """The pages whose lineage picture draws one of `changed`: every record page of its
    chain, and the project page of each project with a record in it."""
    lineage = Lineage(archive)
    chains = {lineage.chain_of[i] for i in changed if i in lineage.chain_of}
    out: set[str] = set()
    for index in chains:
        for record_id in lineage.chains[index]:
            record = archive.by_id[record_id]
            out.add(Urls.record_page(record))
            out.add(Urls.project_page(record.project))
    return out


def _lineage(archive: Archive, changed: Collection[str]) -> list[tuple[object, ...]]:
    """What of `changed` decides supersede chains."""
    out = []
    for record_id in changed:
        record = archive.by_id[record_id]
        out.append((record.supersedes, record.superseded_by, record.date))
    return out


def _chains_differ(before: Archive, after: Archive) -> Iterable[Record]:
    """Records whose supersede chain or standing differs between the two archives."""
    for record in after.records:
        old = before.by_id[record.id]
        if ([r.id for r in before.chain(old)] != [r.id for r in after.chain(record)]
                or before.is_current(old) != after.is_current(record)):
            yield record
