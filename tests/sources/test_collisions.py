"""A project folder provided twice (by content and a source, or by two sources) is an error."""

from __future__ import annotations

from site_builder.sources.load import load_archive
from tests.conftest import run_cli
from tests.sources.conftest import make_archive, record_text


def _shared(root, folder: str, project: str, title: str) -> None:
    record = root / folder / project / "adr" / "0001-shared.md"
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(record_text(title), encoding="utf-8")


def test_a_source_providing_a_content_project_is_an_error_naming_both(tmp_path):
    root = make_archive(tmp_path / "site", "- path: shared")
    _shared(root, "shared", "local", "From the source")

    archive = load_archive(root)

    [problem] = [f for f in archive.findings if f.level == "error"]
    assert (problem.path, problem.line) == (root / "site.yml", 3)
    assert problem.message == (
        "project 'local' is provided twice: by content in content/local, and by source shared "
        "in shared/local; rename or remove one of them (only the first is read)")
    assert archive.get("local/adr/1").title == "Local choice"  # content comes first


def test_two_sources_providing_one_project_is_an_error_naming_both(tmp_path, origin):
    root = make_archive(tmp_path / "site", f"""
        - path: ../elsewhere
        - {{repo: {origin.url}, dir: docs/decisions, name: payments}}
        """)
    _shared(tmp_path, "elsewhere", "payments", "Payments, the local copy")

    archive = load_archive(root)

    [problem] = [f for f in archive.findings if f.level == "error"]
    assert (problem.path, problem.line) == (root / "site.yml", 4)
    assert problem.message.startswith(
        "project 'payments' is provided twice: by source ../elsewhere in ../elsewhere/payments, "
        f"and by source 'payments' ({origin.url}) in "
        ".site-builder/sources/payments/docs/decisions/payments; rename or remove one of them")
    assert [r.title for r in archive.records if r.project == "payments"] == [
        "Payments, the local copy"]


def test_check_reports_the_collision_and_fails(tmp_path):
    root = make_archive(tmp_path / "site", "- path: shared")
    _shared(root, "shared", "local", "From the source")

    result = run_cli("check", "--root", str(root), cwd=root)

    assert result.returncode == 1
    # check prints its findings on stderr(errors go to stderr).
    assert result.stderr.startswith("site.yml:3: error: project 'local' is provided twice")


def test_distinct_projects_from_several_places_load_together(tmp_path, origin):
    root = make_archive(tmp_path / "site", f"""
        - path: shared
        - {{repo: {origin.url}, dir: docs/decisions}}
        """)
    _shared(root, "shared", "platform", "Platform rule")

    archive = load_archive(root)

    assert not [f for f in archive.findings if f.level == "error"]
    assert list(archive.projects) == ["local", "payments", "platform"]


def test_a_path_source_that_is_missing_is_an_error_at_its_line(tmp_path):
    root = make_archive(tmp_path / "site", "- path: content\n- path: ../nowhere")

    archive = load_archive(root)

    assert [(f.line, f.message) for f in archive.findings if f.level == "error"] == [
        (3, "project 'local' is provided twice: by content in content/local, and by source "
            "content in content/local; rename or remove one of them (only the first is read)"),
        (4, f"source ../nowhere: {tmp_path / 'nowhere'} does not exist"),
    ]
