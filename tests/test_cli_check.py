"""`site-builder check`: the output formats, --strict and the exit codes."""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.conftest import EXAMPLE_SITE, REPO, run_cli

LINKS = "content/p/adr/0002-links.md"


def test_example_site_is_clean() -> None:
    result = run_cli("check", "--root", str(EXAMPLE_SITE))
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    result = run_cli("check", "--strict", "--root", "example-site", cwd=REPO)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_text_lines_name_file_line_and_level(fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive("broken/body-links")
    result = run_cli("check", cwd=root)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{LINKS}:8: error: link to a missing record: ../rfc/0001-missing.md",
        f"{LINKS}:10: warning: link to a file that does not exist: diagram.png",
        "1 error, 1 warning in 1 file (2 records read)",
    ]


def test_paths_are_relative_to_where_check_runs(fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive("broken/body-links")
    result = run_cli("check", "--root", root.name, cwd=root.parent)
    assert result.stderr.splitlines()[0].startswith(f"{root.name}/{LINKS}:8: error: ")
    # From inside the archive, it is found by walking up to site.yml.
    result = run_cli("check", cwd=root / "content/p")
    assert result.stderr.splitlines()[0].startswith("adr/0002-links.md:8: error: ")
    # Files outside the current folder are named by their absolute path.
    empty = fixture_archive("broken/no-records")
    result = run_cli("check", "--root", str(empty), cwd=empty / "content")
    assert result.stderr.splitlines()[0] == (
        f"{(empty / 'site.yml').resolve()}:1: error: the archive has no records")


def test_json_is_one_array_of_path_line_level_message(
        fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive("broken/body-links")
    result = run_cli("check", "--format", "json", cwd=root)
    assert result.returncode == 1
    assert json.loads(result.stdout) == [
        {"path": LINKS, "line": 8, "level": "error",
         "message": "link to a missing record: ../rfc/0001-missing.md"},
        {"path": LINKS, "line": 10, "level": "warning",
         "message": "link to a file that does not exist: diagram.png"},
    ]
    clean = run_cli("check", "--format", "json", "--root", str(EXAMPLE_SITE))
    assert (clean.returncode, json.loads(clean.stdout)) == (0, [])


def test_github_annotations(fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive("broken/body-links")
    result = run_cli("check", "--format", "github", cwd=root)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"::error file={LINKS},line=8::link to a missing record: ../rfc/0001-missing.md",
        f"::warning file={LINKS},line=10::link to a file that does not exist: diagram.png",
    ]


def test_gitlab_code_quality_report(fixture_archive: Callable[[str], Path]) -> None:
    # The archive sits in a folder of its git repository: GitLab matches paths from the top.
    root = fixture_archive("broken/body-links")
    top = root.parent.parent
    subprocess.run(["git", "init", "-q", str(top)], check=True)
    result = run_cli("check", "--format", "gitlab", "--root", str(root), cwd=root / "content")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    path = (root / LINKS).relative_to(top).as_posix()
    expected = [(8, "major", "link to a missing record: ../rfc/0001-missing.md"),
                (10, "minor", "link to a file that does not exist: diagram.png")]
    assert [(e["location"]["lines"]["begin"], e["severity"], e["description"])
            for e in report] == expected
    for entry in report:
        assert entry["location"]["path"] == path and not path.startswith(("/", ".."))
        assert set(entry) == {"description", "check_name", "fingerprint", "severity",
                              "location"}
        assert entry["check_name"].startswith("site-builder")
    assert len({e["fingerprint"] for e in report}) == 2
    again = run_cli("check", "--format", "gitlab", "--root", str(root), cwd=top)
    assert json.loads(again.stdout) == report  # the fingerprint is stable, wherever run
    sha = hashlib.sha256(f"{path}\0{8}\0{expected[0][2]}".encode()).hexdigest()
    assert report[0]["fingerprint"] == sha
    clean = run_cli("check", "--format", "gitlab", "--root", str(EXAMPLE_SITE))
    assert (clean.returncode, json.loads(clean.stdout)) == (0, [])


def test_warnings_alone_pass_unless_strict(fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive("broken/warnings")
    relaxed = run_cli("check", cwd=root)
    assert relaxed.returncode == 0
    assert [line.split(": ")[1] for line in relaxed.stderr.splitlines()[:-1]] == ["warning"] * 5
    strict = run_cli("check", "--strict", cwd=root)
    assert strict.returncode == 1
    assert [line.split(": ")[1] for line in strict.stderr.splitlines()[:-1]] == ["error"] * 5
    assert strict.stderr.splitlines()[-1] == "5 errors, 0 warnings in 2 files (2 records read)"
    github = run_cli("check", "--strict", "--format", "github", cwd=root)
    assert github.returncode == 1
    assert all(line.startswith("::error ") for line in github.stdout.splitlines())


def test_a_broken_site_yml_is_an_archive_error(fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive("broken/unparseable-site-yml")
    result = run_cli("check", cwd=root)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        "site.yml:3: error: invalid YAML: did not find expected ',' or '}' "
        "(while parsing a flow mapping)")


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    result = run_cli("check", "--root", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr == (f"site-builder: no site.yml in {tmp_path} "
                             f"(run 'site-builder init {tmp_path}')\n")
    assert run_cli("check", "--format", "xml", "--root", str(EXAMPLE_SITE)).returncode == 2
    assert run_cli("check", "--no-such-option").returncode == 2


def test_check_changes_nothing(fixture_archive: Callable[[str], Path]) -> None:
    root = fixture_archive("broken/body-links")
    before = sorted((p, p.stat().st_mtime_ns) for p in root.rglob("*"))
    run_cli("check", "--strict", cwd=root)
    assert sorted((p, p.stat().st_mtime_ns) for p in root.rglob("*")) == before
