"""`format` sources in site.yml: their keys, and the folder's confinement."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from site_builder.config.site import load_config
from site_builder.sources.load import load_archive

RECORD = "# 1. Use Go\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n"


def archive_with(tmp_path: Path, source: str) -> Path:
    (tmp_path / "doc" / "adr").mkdir(parents=True)
    (tmp_path / "doc/adr/0001-use-go.md").write_text(RECORD)
    (tmp_path / "site.yml").write_text(f"title: T\nsources:\n  - path: doc/adr\n{source}")
    return tmp_path


def test_a_format_source_is_read(tmp_path: Path) -> None:
    root = archive_with(tmp_path, "    format: nygard\n    project: tools\n    type: decision\n")
    config, findings = load_config(root)
    assert findings == []
    [spec] = config.sources
    assert (spec.format, spec.project, spec.type, spec.default_status) == (
        "nygard", "tools", "decision", "accepted")
    assert [r.id for r in load_archive(root).records] == ["tools/decision/0001-use-go"]


@pytest.mark.parametrize(("source", "message"), [
    ("    format: adr-tools\n    project: tools\n", "'format' must be one of nygard, madr"),
    ("    format: nygard\n", "needs 'project'"),
    ("    format: nygard\n    project: tools\n    default_status: done\n",
     "'done' is not a status"),
    ("    format: nygard\n    project: tools\n    status_map: {wip: ongoing}\n",
     "'ongoing' is not a status"),
])
def test_bad_format_sources_are_errors_at_their_line(tmp_path: Path, source: str,
                                                     message: str) -> None:
    root = archive_with(tmp_path, source)
    _, findings = load_config(root)
    assert [(f.line, f.level) for f in findings] == [(3, "error")]
    assert message in findings[0].message


def test_repo_url_is_derived_from_edit_url(tmp_path: Path) -> None:
    root = archive_with(tmp_path, "    format: nygard\n    project: tools\n")
    config, _ = load_config(root)
    assert config.repository_url is None
    text = (root / "site.yml").read_text()
    (root / "site.yml").write_text(
        text + "edit_url: https://github.com/a/b/edit/main/{path}\n")
    assert load_config(root)[0].repository_url == "https://github.com/a/b/blob/main/"
    (root / "site.yml").write_text(text + "repo_url: https://git.example/a/b/src\n")
    assert load_config(root)[0].repository_url == "https://git.example/a/b/src/"


def test_a_symlink_out_of_the_folder_is_refused_and_the_rest_is_read(tmp_path: Path) -> None:
    root = archive_with(tmp_path / "repo", "    format: nygard\n    project: tools\n")
    secret = tmp_path / "secret.md"
    secret.write_text(RECORD)
    os.symlink(secret, root / "doc/adr/0002-secret.md")
    os.mkfifo(root / "doc/adr/0003-fifo.md")
    archive = load_archive(root)
    assert [r.slug for r in archive.records] == ["0001-use-go"]
    assert sorted((Path(f.path).name, f.level) for f in archive.findings) == [
        ("0002-secret.md", "error"), ("0003-fifo.md", "error")]
    assert "outside the content folder" in next(
        f.message for f in archive.findings if f.path.name == "0002-secret.md")


def test_non_record_files_of_the_folder_are_not_read(tmp_path: Path) -> None:
    root = archive_with(tmp_path, "    format: auto\n    project: tools\n")
    for name in ("README.md", "index.md", "template.md", "adr-template.md", "_draft.md",
                 "adr-template-minimal.md", "Template-bare.md",
                 ".hidden.md"):
        (root / "doc/adr" / name).write_text("no record here\n")
    archive = load_archive(root)
    assert [r.slug for r in archive.records] == ["0001-use-go"]
    assert archive.findings == ()


def test_a_project_yml_in_the_folder_describes_its_project(tmp_path: Path) -> None:
    root = archive_with(tmp_path, "    format: nygard\n    project: tools\n")
    archive = load_archive(root)
    assert archive.projects["tools"].name == "tools"  # without one: the project's id
    (root / "doc/adr/_project.yml").write_text(
        "name: Tooling\ndescription: What we build with.\nowners: [ana]\norder: 2\n"
        "fields:\n  - {name: cost, type: number}\n")
    archive = load_archive(root)
    project = archive.projects["tools"]
    assert (project.name, project.description, project.owners, project.order) == (
        "Tooling", "What we build with.", ("ana",), 2)
    names = [f.name for f in project.fields]
    assert names[0] == "cost" and "consulted" in names  # the format's kept fields stay
    assert not [f for f in archive.findings if f.level == "error"]
    assert [r.id for r in archive.records] == ["tools/adr/0001-use-go"]  # not a record


def test_a_bad_project_yml_in_the_folder_is_an_error_at_its_line(tmp_path: Path) -> None:
    root = archive_with(tmp_path, "    format: nygard\n    project: tools\n")
    (root / "doc/adr/_project.yml").write_text("name: Tooling\nowner: [ana]\n")
    findings = [f for f in load_archive(root).findings if f.level == "error"]
    assert [(f.path.name, f.line) for f in findings] == [("_project.yml", 2)]
    assert "owner" in findings[0].message


def test_a_second_folder_of_the_project_is_not_read_for_its_description(
        tmp_path: Path) -> None:
    root = archive_with(tmp_path, "    format: nygard\n    project: tools\n"
                                  "  - path: doc/rfc\n    format: nygard\n    project: tools\n"
                                  "    type: rfc\n")
    (root / "doc/rfc").mkdir()
    (root / "doc/rfc/0001-use-go.md").write_text(RECORD)
    (root / "doc/adr/_project.yml").write_text("name: Tooling\n")
    (root / "doc/rfc/_project.yml").write_text("name: Other\n")
    archive = load_archive(root)
    assert archive.projects["tools"].name == "Tooling"
    [warning] = [f for f in archive.findings if f.level == "warning"
                 and f.path.name == "_project.yml"]
    assert warning.path == root / "doc/rfc/_project.yml" and "not read" in warning.message


def test_a_number_after_the_kind_of_record_is_the_records_number(tmp_path: Path) -> None:
    # dasch-swiss/dsp-api names its files `ADR-0007-zio-fication-of-responders.md`, and its
    # records cite each other as `ADR-0007`.
    root = archive_with(tmp_path, "    format: nygard\n    project: dsp\n")
    (root / "doc/adr/0001-use-go.md").rename(root / "doc/adr/ADR-0001-use-go.md")
    (root / "doc/adr/ADR-0002-use-rust.md").write_text(
        "# ADR-0002 Use Rust\n\nDate: 2024-02-02\n\n## Status\n\nAccepted\n\n"
        "Supersedes ADR-0001\n")
    archive = load_archive(root)
    go = archive.get("dsp/adr/ADR-0001-use-go")
    assert go.ref == "DSP-ADR-0001" and archive.get("DSP-ADR-0001") is go
    assert archive.superseded_by[go.id] == "dsp/adr/ADR-0002-use-rust"
    assert archive.get("dsp/adr/ADR-0002-use-rust").title == "Use Rust"
