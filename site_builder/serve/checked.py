"""An archive's problems, checked again after an edit only where the edit can change them.

`check` finds the same problems as `Archive.findings`, but keeps the cross-record ones by
record. When an edit leaves the set of records as it was (ids, projects and config), the
problems a record has with what it points at cannot change unless its own text did, so
`recheck` checks again only the edited records, plus the supersede graph as a whole, which
any of them may have changed. On a large archive that is the difference between checking one
record and checking ten thousand on every save.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from site_builder.archive.archive import Archive
from site_builder.archive.bulk import paused_gc
from site_builder.archive.checks import checks_by_record, lineage_checks
from site_builder.base.findings import Finding


@dataclass(frozen=True, slots=True)
class Checked:
    """An archive with its problems: those found loading it, each record's own cross-record
    problems (by id) and those of the supersede graph."""

    archive: Archive
    by_record: dict[str, tuple[Finding, ...]]
    lineage: tuple[Finding, ...]

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Every problem, as `Archive.findings` gives them."""
        cross = [f for found in self.by_record.values() for f in found]
        return tuple(sorted([*self.archive.load_findings, *cross, *self.lineage],
                            key=lambda f: (str(f.path), f.line, f.message)))

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.level == "error")


def check(archive: Archive) -> Checked:
    """Every problem of `archive`, checked record by record."""
    with paused_gc():
        by_record = {record_id: tuple(found) for record_id, found
                     in checks_by_record(archive, archive.records).items()}
        return Checked(archive, by_record, tuple(lineage_checks(archive)))


def recheck(before: Checked, after: Archive, edited: Iterable[str]) -> Checked:
    """The problems of `after`, which holds the same records as `before.archive` with those
    in `edited` (ids) changed: only they, and the supersede graph, are checked again."""
    by_record = dict(before.by_record)
    with paused_gc():
        found = checks_by_record(after, [after.by_id[record_id] for record_id in edited])
        by_record.update((record_id, tuple(problems)) for record_id, problems in found.items())
        return Checked(after, by_record, tuple(lineage_checks(after)))
