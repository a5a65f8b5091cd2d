"""What one build did (`BuildResult`), as `build` prints it and the stamp keeps it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from site_builder.base.findings import Finding
from site_builder.base.words import plural


@dataclass(frozen=True, slots=True)
class BuildResult:
    """What one build did."""

    output: Path
    records: int
    pages: int
    files: int
    changed: int
    unchanged: int
    removed: int
    rendered: int
    cached: int
    seconds: float
    warnings: tuple[Finding, ...] = ()
    up_to_date: bool = False
    skipped: tuple[tuple[str, str, bool], ...] = ()
    """(path, why, is a draft) of each file of the records folders left out."""
    method: tuple[str, ...] = ()
    """How the build was made and committed, a line each (`build --verbose`)."""

    def left_out(self) -> list[str]:
        """Every file of the records folders the build left out, with why (templates, pages,
        excluded files, drafts), as `build --verbose` prints them."""
        return [f"  {path}: {why}" for path, why, _ in self.skipped]

    def summary(self) -> str:
        """One line for people: what was built, where, how long it took, and how many
        drafts were left out."""
        records, pages = plural(self.records, "record"), plural(self.pages, "page")
        drafts = sum(draft for _, _, draft in self.skipped)
        left = f"; {plural(drafts, 'draft')} left out (not published)" if drafts else ""
        if self.up_to_date:
            return (f"Up to date: nothing changed since the last build of {records}, "
                    f"{pages} in {self.output} ({self.seconds:.1f} s){left}")
        return (f"Built {records}, {pages} ({plural(self.files, 'file')}: "
                f"{self.changed} written, {self.removed} removed; "
                f"{plural(self.rendered, 'body', 'bodies')} "
                f"rendered, {self.cached} from cache) into {self.output} "
                f"in {self.seconds:.1f} s{left}")



def report_of(result: BuildResult) -> dict[str, object]:
    return {"records": result.records, "pages": result.pages, "files": result.files,
            "warnings": [[str(f.path), f.line, f.level, f.message] for f in result.warnings],
            "skipped": [list(item) for item in result.skipped]}
