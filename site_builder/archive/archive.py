"""Archive: the records of one site with their derived lineage, reviews and sign-offs.

Everything derived from more than one record is computed once, when the Archive is built;
the query layer, the site build and the MCP server only read it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from site_builder.archive.bulk import paused_gc
from site_builder.archive.cited import NO_CITATIONS, Citations
from site_builder.archive.formats.files import Skipped
from site_builder.archive.records import Record
from site_builder.archive.schedule import add_interval, parse_every
from site_builder.base.findings import Finding
from site_builder.config.site import FieldDef, SiteConfig
from site_builder.errors import InputError


@dataclass(frozen=True, slots=True)
class Project:
    """A top-level folder of `content`, described by its optional `_project.yml`."""

    id: str
    name: str
    description: str = ""
    owners: tuple[str, ...] = ()
    order: int | None = None
    fields: tuple[FieldDef, ...] = ()
    path: Path | None = None


@dataclass(frozen=True, slots=True)
class Review:
    """A record's periodic review: next `due` date, last `reviewed` date, `every` as written."""

    due: dt.date
    reviewed: dt.date | None
    every: str


@dataclass(frozen=True, slots=True)
class SignOff:
    """RFC-style sign-off state of a record with `reviewers`."""

    status: str
    approved: int
    required: int
    waiting_on: tuple[str, ...]


class LookupFailed(InputError, LookupError):
    """An id, short id, ref or slug that names no record, or more than one.

    `missing` is true when it names none. The message ends with the hint an agent needs
    (`Use search_records to find ids.`); `without_hint` is the message for front ends that
    give their own.
    """

    HINT = "Use search_records to find ids."

    def __init__(self, message: str, missing: bool = False) -> None:
        super().__init__(f"{message} {self.HINT}" if missing else message)
        self.without_hint = message
        self.missing = missing


def lookup_keys(project: str, kind: str, number: str, slug: str) -> set[str]:
    """Every lowercased form that names the record `<project>/<kind>/<slug>` numbered
    `number` (as written, `0002`; a stem such as `use-rds` is its own number): id, short ids,
    padded and unpadded refs, slug, and `<project>/<slug>`.

    The one list of a record's names: lookup uses it, and so does `check` for records that
    exist but cannot be read, so a reference to one is never reported twice.
    """
    folder = f"{project}/{kind}/".lower()
    prefix = f"{project}-{kind}-".lower()
    number, slug = number.lower(), slug.lower()
    # `<project>/<slug>` names a record too (records kept in another tool's format are named
    # so; remote mode cannot tell those apart, so every record has it).
    keys = {folder + slug, folder + number, prefix + number, slug, f"{project}/{slug}".lower()}
    if number.isdigit():
        unpadded = str(int(number))
        keys.update((folder + unpadded, prefix + unpadded))
    return keys


def lookup_key(reference: str) -> str:
    """The form of a written reference that `lookup_keys` are compared with."""
    return reference.strip().lower().removesuffix(".md").strip("/")


def _project_sort_key(project: Project) -> tuple[int, int, str]:
    return (0 if project.order is not None else 1, project.order or 0, project.name.lower())


class Archive:
    """The records of one archive (drafts never included), newest first, and what they imply.

    `bodies`, when given, supplies record bodies lazily (remote mode reads them from the
    published site); otherwise a record's own `body` is used. `all_bodies`, when given,
    supplies every body at once, keyed by id (remote mode: one read of llms-full.txt rather
    than one request per record), for text search. `keys_from`, an archive read from the
    same record files (some of them edited), lends its lookup table instead of building one.
    `checks` finds the problems across records (`checks.cross_check`) when `findings` is read.
    `skipped` are the files of the records folders left out (drafts, templates, pages).
    `citations` finds where the repository's code cites records (`citations.cite_code`, or
    the published `citedBy`) when `citations` is first read.
    """

    def __init__(
        self,
        config: SiteConfig,
        projects: dict[str, Project],
        records: Iterable[Record],
        findings: Iterable[Finding] = (),
        bodies: Callable[[Record], str] | None = None,
        all_bodies: Callable[[], Mapping[str, str]] | None = None,
        keys_from: Archive | None = None,
        checks: Callable[[Archive], Iterable[Finding]] | None = None,
        skipped: Iterable[Skipped] = (),
        citations: Callable[[Archive], Citations] | None = None,
    ) -> None:
        self.config = config
        self.skipped: tuple[Skipped, ...] = tuple(skipped)
        self._checks = checks
        self.cite = citations
        self.records: tuple[Record, ...] = tuple(
            sorted(records, key=lambda r: (-r.date.toordinal(), r.id)))
        self.projects: dict[str, Project] = dict(
            sorted(projects.items(), key=lambda item: _project_sort_key(item[1])))
        self._load_findings: tuple[Finding, ...] = tuple(findings)
        self._bodies = bodies
        self._all_bodies = all_bodies
        self.by_id: dict[str, Record] = {r.id: r for r in self.records}
        # Lookup key → the id it names, or the ids when it names several: a list for
        # each of the seven keys of every record was 5 % of a large archive's memory.
        self._keys: dict[str, str | list[str]] = {}
        if keys_from is not None:
            # The same files, so the same ids, refs and slugs: `loader.reload_records`.
            self._keys = keys_from._keys
        else:
            keys = self._keys
            for record in self.records:
                for key in lookup_keys(record.project, record.type, record.number,
                                       record.slug):
                    found = keys.setdefault(key, record.id)
                    if isinstance(found, list):
                        found.append(record.id)
                    elif found is not record.id:
                        keys[key] = [found, record.id]
        self._replaces: dict[str, list[str]] = {}
        self._successors: dict[str, tuple[str, ...]] = {}
        self.superseded_by: dict[str, str] = self._derive_superseded_by()

    @cached_property
    def findings(self) -> tuple[Finding, ...]:
        """Every problem: those found while loading and those across records, sorted by place.

        Computed on first use, so the MCP server, which only logs load problems, never pays
        for the cross-record checks. The checks are the loader's to hand in (`checks.py`
        reads an Archive, so this module cannot import it); without them there are none.
        """
        with paused_gc():
            found = list(self._checks(self)) if self._checks is not None else []
        return tuple(sorted([*self._load_findings, *found],
                            key=lambda f: (str(f.path), f.line, f.message)))

    @cached_property
    def citations(self) -> Citations:
        """Where the code cites each record; found on first use, so only what shows or checks
        citations pays for reading the repository."""
        return self.cite(self) if self.cite is not None else NO_CITATIONS

    @property
    def load_findings(self) -> tuple[Finding, ...]:
        """The problems found while reading files, without the cross-record checks."""
        return self._load_findings

    # ---- lookup -------------------------------------------------------------------------

    def candidates(self, reference: str) -> list[str]:
        """Every record id that `reference` (full id, short id, ref or slug) could name."""
        key = lookup_key(reference)
        if not key or key.isdigit():
            return []
        found = self._keys.get(key, ())
        return [found] if isinstance(found, str) else sorted(found)

    def get(self, reference: str) -> Record:
        """The one record `reference` names.

        Raises LookupFailed with the message an agent or a person should read.
        """
        found = self.candidates(reference)
        if len(found) == 1:
            return self.by_id[found[0]]
        if found:
            raise LookupFailed(f'"{reference}" is ambiguous: {", ".join(found)}.')
        raise LookupFailed(f'No record matches "{reference}".', missing=True)

    def resolve(self, reference: str) -> Record | None:
        """The record `reference` names, or None when it names none or several."""
        found = self.candidates(reference)
        return self.by_id[found[0]] if len(found) == 1 else None

    def body(self, record: Record) -> str:
        """The Markdown body of `record` (fetched lazily in remote mode, read from its file
        when the loader left it there)."""
        return self._bodies(record) if self._bodies is not None else record.body

    @property
    def own_bodies(self) -> bool:
        """Whether every body is its record's own (`Record.body`), not a supplier's: two
        archives holding the same Record then hold the same body."""
        return self._bodies is None and self._all_bodies is None

    def all_bodies(self) -> Mapping[str, str]:
        """Every record's body keyed by id, read at once.

        The same mapping object comes back until the bodies change, so callers may memoise
        what they derive from it. Raises whatever the `all_bodies` supplier raises.
        """
        if self._all_bodies is not None:
            return self._all_bodies()
        return self._own_bodies

    @cached_property
    def _own_bodies(self) -> Mapping[str, str]:
        if any(record.body_file is not None for record in self.records):
            return _BodiesOnDisk(self.by_id)  # read one at a time: never all held at once
        return {record.id: self.body(record) for record in self.records}

    # ---- lineage -------------------------------------------------------------------------

    def _derive_superseded_by(self) -> dict[str, str]:
        newer: dict[str, list[Record]] = {}
        for record in self.records:
            for reference in record.supersedes:
                older = self.resolve(reference)
                if older is not None and older.id != record.id:
                    newer.setdefault(older.id, []).append(record)
            if record.superseded_by:
                replacement = self.resolve(record.superseded_by)
                if replacement is not None and replacement.id != record.id:
                    newer.setdefault(record.id, []).append(replacement)
                    # Said on the older side only: the newer record supersedes it too.
                    self._replaces.setdefault(replacement.id, []).append(record.id)
        self._successors = {old: tuple(r.id for r in candidates)
                            for old, candidates in newer.items()}
        # The newest successor wins; records are already newest first.
        return {old: min(candidates, key=lambda r: (-r.date.toordinal(), r.id)).id
                for old, candidates in newer.items()}

    def successors_of(self, record: Record) -> tuple[str, ...]:
        """Ids of every record that says it replaces `record` (on either side), the one
        `superseded_by` chose among them included; empty when none does."""
        return self._successors.get(record.id, ())

    def supersedes_of(self, record: Record) -> tuple[str, ...]:
        """What `record` supersedes, declared on either side: its own
        `supersedes` references as written, then the ids of records that name it in their
        `supersededBy` and that it does not already list, by id."""
        derived = self._replaces.get(record.id)
        if not derived:
            return record.supersedes
        listed = {found.id for reference in record.supersedes
                  if (found := self.resolve(reference)) is not None}
        extra = sorted({i for i in derived if i not in listed})
        return (*record.supersedes, *extra)

    def chain(self, record: Record) -> list[Record]:
        """The replacements of `record`, from the direct one to the end of the chain."""
        out: list[Record] = []
        seen = {record.id}
        current = self.superseded_by.get(record.id)
        while current is not None and current not in seen:
            seen.add(current)
            out.append(self.by_id[current])
            current = self.superseded_by.get(current)
        return out

    def current_record(self, record: Record) -> Record | None:
        """The end of the record's supersededBy chain; None when nothing supersedes it."""
        chain = self.chain(record)
        return chain[-1] if chain else None

    @cached_property
    def current_ids(self) -> frozenset[str]:
        """Ids of records in force: a current status and nothing supersedes them."""
        statuses = self.config.current_statuses
        return frozenset(r.id for r in self.records
                         if r.status in statuses and r.id not in self.superseded_by)

    def is_current(self, record: Record) -> bool:
        return record.id in self.current_ids

    def is_open(self, record: Record) -> bool:
        return record.status in self.config.open_statuses

    # ---- reviews and sign-off ---------------------------------------------------------------

    def review(self, record: Record) -> Review | None:
        """The record's review schedule with its next due date, or None when it has none."""
        if not record.review_every:
            return None
        parsed = parse_every(record.review_every)
        if parsed is None:
            return None
        start = record.reviewed or record.date
        return Review(add_interval(start, *parsed), record.reviewed, record.review_every)

    @cached_property
    def scheduled(self) -> tuple[tuple[Review, Record], ...]:
        """Every record with a review schedule and its review, soonest due first (then by id).

        Computed once per archive, so `due_reviews` reads a sorted list instead of working out
        every record's due date on each call.
        """
        pairs = [(review, r) for r in self.records if (review := self.review(r)) is not None]
        return tuple(sorted(pairs, key=lambda pair: (pair[0].due, pair[1].id)))

    def signoff(self, record: Record) -> SignOff | None:
        """The RFC sign-off of a record with reviewers, or None without reviewers."""
        if not record.reviewers:
            return None
        states = [state for _, state in record.reviewers]
        approved = states.count("approved")
        required = record.approvals
        if required is None:
            required = self.config.required_approvals
        if required is None:
            required = len(states)
        if "changes-requested" in states:
            status = "changes-requested"
        elif approved >= required:
            status = "approved"
        else:
            status = "pending"
        waiting = tuple(sorted(h for h, state in record.reviewers if state == "pending"))
        return SignOff(status, approved, required, waiting)

    # ---- fields ------------------------------------------------------------------------------

    def fields_for(self, record: Record) -> tuple[FieldDef, ...]:
        """The custom fields a record may set: the site's, then its project's own."""
        project = self.projects.get(record.project)
        return self.config.fields + (project.fields if project else ())

    @cached_property
    def _by_path(self) -> dict[Path, Record]:
        return {r.path: r for r in self.records}

    def record_at(self, path: Path) -> Record | None:
        """The record whose source file is `path`, if any."""
        return self._by_path.get(path)


class _BodiesOnDisk(Mapping[str, str]):
    """Record id → body, each read from its file when asked for (`Record.body`)."""

    def __init__(self, by_id: Mapping[str, Record]) -> None:
        self._by_id = by_id

    def __getitem__(self, record_id: str) -> str:
        return self._by_id[record_id].body

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)
