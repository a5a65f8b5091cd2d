"""An Archive's records grouped by the values `search_records` and `due_reviews` filter on.

`Facets` groups an Archive's records by the folded (lower-cased) value of each metadata
filter of `search_records` (status, project, type, tag, author), and lists the decided
records with a review schedule per project for `due_reviews`: a filtered call then reads
a few short lists instead of comparing every record of the archive (AGENTS-ADR-0008).
"""

from __future__ import annotations

import datetime as dt
import weakref
from collections.abc import Iterable
from functools import cached_property

from site_builder.archive.archive import Archive, Review
from site_builder.archive.records import Record
from site_builder.query.memo import memoised
from site_builder.query.textindex import fold


def _facet_values(record: Record) -> tuple[tuple[str, Iterable[str]], ...]:
    return (("status", (record.status,)), ("project", (record.project,)),
            ("type", (record.type,)), ("tag", record.tags), ("author", record.authors))


FACETS = ("status", "project", "type", "tag", "author")

Scheduled = tuple[tuple[dt.date, ...], tuple[tuple[Review, Record], ...]]


class Facets:
    """An Archive's records grouped by the folded values of their filterable metadata.

    `records(name, value)` holds exactly the records whose `name` (status, project or type)
    folds to `fold(value)`, or whose tags or authors hold such a value, in archive order
    (newest first). Built once per Archive; nothing in it changes afterwards.
    """

    def __init__(self, archive: Archive) -> None:
        # Weakly: the memo below holds Facets for as long as their Archive lives, which a
        # strong reference back would make forever.
        self._archive = weakref.ref(archive)
        groups: dict[str, dict[str, list[Record]]] = {name: {} for name in FACETS}
        folded: dict[str, str] = {}  # a handful of statuses, projects and tags, many times
        for record in archive.records:
            for name, values in _facet_values(record):
                group = groups[name]
                keys = []
                for value in values:
                    key = folded.get(value)
                    if key is None:
                        key = folded[value] = fold(value)
                    # A record that writes one tag twice (or in two cases) is listed once.
                    if key not in keys:
                        keys.append(key)
                        group.setdefault(key, []).append(record)
        self._records = {name: {key: tuple(found) for key, found in group.items()}
                         for name, group in groups.items()}
        self._ids: dict[tuple[str, str], frozenset[str]] = {}  # made when first asked

    def records(self, name: str, value: str) -> tuple[Record, ...]:
        """The records whose `name` (one of FACETS) matches `value` case-insensitively."""
        return self._records[name].get(fold(value), ())

    def ids(self, name: str, value: str) -> frozenset[str]:
        """The ids of `records(name, value)`."""
        key = (name, fold(value))
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = frozenset(r.id for r in self._records[name].get(key[1], ()))
        return found

    @cached_property
    def _scheduled(self) -> dict[str | None, Scheduled]:
        decided: dict[str | None, list[tuple[Review, Record]]] = {None: []}
        archive = self._archive()
        if archive is None:
            raise ReferenceError("the archive of these facets is gone")
        open_statuses = archive.config.open_statuses
        for pair in archive.scheduled:
            if pair[1].status in open_statuses:
                continue
            decided[None].append(pair)
            decided.setdefault(fold(pair[1].project), []).append(pair)
        return {key: (tuple(review.due for review, _ in pairs), tuple(pairs))
                for key, pairs in decided.items()}

    def scheduled(self, project: str | None) -> Scheduled:
        """(due dates, (review, record) pairs) of the decided records with a review schedule,
        in one project (case-insensitive) or in all when `project` is None; soonest due
        first, as `Archive.scheduled`."""
        key = fold(project) if project is not None else None
        return self._scheduled.get(key, ((), ()))


_FACETS: weakref.WeakKeyDictionary[Archive, Facets] = weakref.WeakKeyDictionary()


def facets_for(archive: Archive) -> Facets:
    """The Facets of `archive`, built on first use and dropped with the Archive."""
    return memoised(_FACETS, archive, Facets)
