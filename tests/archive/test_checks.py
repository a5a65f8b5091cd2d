"""Every problem check reports, each in a small broken archive, with its exact file, line and text.

Each fixture under tests/fixtures/broken/ holds one kind of problem; the expected findings are
the complete list `check` reports for it (nothing missing, nothing extra), as
(path relative to the archive, line, level, message).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.sources.load import load_archive

Row = tuple[str, int, str, str]

P_ADR = "content/p/adr"
NOT_BUILT = ("a record must live at <project>/<type>/NNNN-slug.md under the content folder; "
             "this file is not built")
BAD_NAME = "is not named NNNN-slug.md, so it is not built (rename it, e.g. 0001-my-decision.md)"
STATUSES = "accepted, deprecated, implemented, proposed, rejected, superseded"

EXPECTED: dict[str, list[Row]] = {
    # ---- errors -------------------------------------------------------------------------------
    "bad-site-yml": [
        ("site.yml", 3, "error", "unknown key 'colour' in site.yml"),
        ("site.yml", 4, "error", "'base' must be a string, not 12"),
        ("site.yml", 7, "error", "every entry of 'statuses' needs a 'name'"),
        ("site.yml", 8, "error", "'current' must be true or false, not 'yes please'"),
        ("site.yml", 9, "error", "status 'proposed' is listed twice"),
        ("site.yml", 11, "error", "enum field 'risk' needs a list of 'values'"),
        ("site.yml", 12, "error", "field 'cost' has unknown type 'money' "
                                  "(one of string, number, boolean, date, enum, list)"),
        ("site.yml", 13, "error", "field 'status' has the name of a built-in front-matter key"),
        ("site.yml", 14, "error", "'review.required_approvals' must be a whole number"),
    ],
    "unparseable-site-yml": [
        ("site.yml", 3, "error",
         "invalid YAML: did not find expected ',' or '}' (while parsing a flow mapping)"),
    ],
    "bad-project-yml": [
        ("content/p/_project.yml", 2, "error",
         "unknown key 'owner' in _project.yml (did you mean 'owners'?)"),
        ("content/p/_project.yml", 3, "error", "'order' must be a whole number"),
        ("content/p/_project.yml", 5, "error", "field 'risk' is declared twice"),
        ("content/p/_project.yml", 6, "error", "enum field 'team' needs a list of 'values'"),
        ("content/p/_project.yml", 7, "error", "'owners' must be a list of strings"),
        ("content/q/_project.yml", 1, "error",
         "invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence)"),
    ],
    "unparseable-yaml": [
        (f"{P_ADR}/0002-broken.md", 4, "error",
         "invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence)"),
        (f"{P_ADR}/0003-no-front-matter.md", 1, "error",
         "no front matter: a record starts with a '---' line, its YAML keys, "
         "and another '---' line"),
    ],
    "missing-keys": [
        (f"{P_ADR}/0002-empty.md", 1, "error", "missing required key 'date'"),
        (f"{P_ADR}/0002-empty.md", 1, "error", "missing required key 'status'"),
        (f"{P_ADR}/0002-empty.md", 1, "error", "missing required key 'title'"),
        (f"{P_ADR}/0003-blank-title.md", 2, "error", "missing required key 'title'"),
    ],
    "unknown-status": [
        (f"{P_ADR}/0002-unknown.md", 3, "error", f"unknown status 'approved' (one of {STATUSES})"),
    ],
    "bad-dates": [
        (f"{P_ADR}/0002-month-13.md", 5, "error", "'date' is not a real date: 2026-13-45"),
        (f"{P_ADR}/0003-words.md", 4, "error",
         "'date' must be a date as YYYY-MM-DD, not 'last tuesday'"),
        (f"{P_ADR}/0004-bad-review.md", 8, "error",
         "'review.reviewed' is not a real date: 2026-02-30"),
    ],
    "custom-fields": [
        (f"{P_ADR}/0002-wrong.md", 6, "error",
         "field 'risk' must be one of low, medium, high, not 'extreme'"),
        (f"{P_ADR}/0002-wrong.md", 7, "error", "field 'cost' must be a number, not 'a lot'"),
        (f"{P_ADR}/0002-wrong.md", 8, "error",
         "field 'reversible' must be true or false, not 'maybe'"),
        (f"{P_ADR}/0002-wrong.md", 9, "error", "field 'deadline' is not a real date: 2026-02-31"),
        (f"{P_ADR}/0002-wrong.md", 10, "error",
         "field 'team' must be one of core, infra, not 'sales'"),
        # `team` is a field of project p only.
        ("content/q/adr/0001-no-team-here.md", 6, "warning", "unknown key 'team'"),
    ],
    "duplicate-numbers": [
        (f"{P_ADR}/0001-first.md", 1, "error",
         "number 0001 is used by 2 records in p/adr: 0001-first.md, 0001-second.md"),
        (f"{P_ADR}/0001-second.md", 1, "error",
         "number 0001 is used by 2 records in p/adr: 0001-first.md, 0001-second.md"),
    ],
    "missing-references": [
        (f"{P_ADR}/0001-ok.md", 3, "warning",
         "status 'accepted' says this record is in force, but p/adr/0002-refs supersedes it "
         "(set status: superseded)"),
        (f"{P_ADR}/0002-refs.md", 8, "error",
         "'supersedes' refers to a missing record: p/adr/0009"),
        (f"{P_ADR}/0002-refs.md", 9, "error",
         "'supersededBy' refers to a missing record: P-ADR-0042"),
        (f"{P_ADR}/0002-refs.md", 10, "error",
         "'related' refers to a missing record: no-such-slug"),
    ],
    "body-links": [
        (f"{P_ADR}/0002-links.md", 8, "error", "link to a missing record: ../rfc/0001-missing.md"),
        (f"{P_ADR}/0002-links.md", 10, "warning",
         "link to a file that does not exist: diagram.png"),
    ],
    "supersede-cycle": [
        (f"{P_ADR}/0001-a.md", 6, "error",
         "supersede cycle: p/adr/0001-a → p/adr/0002-b → p/adr/0003-c → p/adr/0001-a"),
        (f"{P_ADR}/0004-d.md", 6, "error",
         "supersede cycle: p/adr/0004-d → p/adr/0005-e → p/adr/0004-d"),
    ],
    "misplaced-files": [
        ("content/README.md", 1, "error", NOT_BUILT),
        (f"{P_ADR}/1-short.md", 1, "error", f"'1-short.md' {BAD_NAME}"),
        (f"{P_ADR}/draft-idea.md", 1, "error", f"'draft-idea.md' {BAD_NAME}"),
        (f"{P_ADR}/old/0002-nested.md", 1, "error", NOT_BUILT),
        ("content/p/notes.md", 1, "error", NOT_BUILT),
    ],
    "reserved-project": [
        ("content/tags", 1, "error",
         "project folder 'tags' has the name of the site's own tags/ pages; rename the folder"),
    ],
    # A record that cannot be read is reported once, at its own line: references and links to
    # it from other records are not reported again as missing.
    "no-cascade": [
        (f"{P_ADR}/0002-broken-date.md", 4, "error", "'date' is not a real date: 2026-13-45"),
    ],
    "no-records": [
        ("site.yml", 1, "error", "the archive has no records"),
    ],
    # ---- warnings -----------------------------------------------------------------------------
    "warnings": [
        (f"{P_ADR}/0001-old.md", 1, "warning", "missing 'description': add a one-line summary"),
        (f"{P_ADR}/0001-old.md", 3, "warning",
         "status 'accepted' says this record is in force, but p/adr/0002-new supersedes it "
         "(set status: superseded)"),
        (f"{P_ADR}/0002-new.md", 7, "warning", "unknown key 'owner'"),
        (f"{P_ADR}/0002-new.md", 8, "warning", "unknown key 'statsu' (did you mean 'status'?)"),
        (f"{P_ADR}/0002-new.md", 11, "warning",
         "link to a file that does not exist: ../../../docs/missing.txt"),
    ],
}


def findings_of(root: Path) -> list[Row]:
    """What `check` finds in the archive at `root`, with paths relative to it."""
    archive = load_archive(root)
    return [(f.path.relative_to(root.resolve()).as_posix(), f.line, f.level, f.message)
            for f in archive.findings]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_problem_is_reported_with_its_file_line_and_message(
        name: str, fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive(f"broken/{name}")
    assert findings_of(root) == EXPECTED[name]


def test_every_broken_fixture_has_its_expectations() -> None:
    folders = {p.name for p in (Path(__file__).parent.parent / "fixtures/broken").iterdir()}
    assert folders == set(EXPECTED)


def test_lines_point_at_the_offending_text(fixture_archive: Callable[[str], Path]) -> None:
    """A reader opening the file at the reported line sees the problem there."""
    root = fixture_archive("broken/bad-dates")
    lines = (root / P_ADR / "0002-month-13.md").read_text(encoding="utf-8").splitlines()
    assert lines[5 - 1] == "date: 2026-13-45"
    root = fixture_archive("broken/custom-fields")
    lines = (root / P_ADR / "0002-wrong.md").read_text(encoding="utf-8").splitlines()
    assert [lines[n - 1].split(":")[0] for n in (6, 7, 8, 9, 10)] == [
        "risk", "cost", "reversible", "deadline", "team"]


def test_records_with_some_errors_are_still_readable(
        fixture_archive: Callable[[str], Path]) -> None:
    """The MCP server answers from every record it can read, so load keeps them."""
    archive = load_archive(fixture_archive("broken/unknown-status"))
    assert archive.get("p/adr/2").status == "approved"
    archive = load_archive(fixture_archive("broken/duplicate-numbers"))
    with pytest.raises(LookupError) as failed:
        archive.get("p/adr/1")
    assert str(failed.value) == '"p/adr/1" is ambiguous: p/adr/0001-first, p/adr/0001-second.'


def test_all_problems_of_an_archive_are_reported_at_once(tmp_path: Path) -> None:
    """Problems in different files and of different kinds come out of one load together."""
    root = tmp_path / "many"
    fixtures = Path(__file__).parent.parent / "fixtures/broken"
    for name in ("custom-fields", "bad-dates", "body-links"):
        for path in (fixtures / name).rglob("*"):
            target = root / path.relative_to(fixtures / name)
            if path.is_file() and not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(path.read_bytes())
    messages = {message for *_, message in findings_of(root)}
    assert "'date' is not a real date: 2026-13-45" in messages
    assert "field 'cost' must be a number, not 'a lot'" in messages
    assert "link to a missing record: ../rfc/0001-missing.md" in messages
