"""`site-builder init --from DIR`: adopt a repository's decision folders without moving a file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.archive.test_formats_loading import git
from tests.conftest import FIXTURES, run_cli


def repository(tmp_path: Path, name: str) -> Path:
    """A copy of a format fixture as a repository without site.yml."""
    repo = tmp_path / name
    shutil.copytree(FIXTURES / "formats" / name, repo)
    (repo / "site.yml").unlink()
    return repo


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in folder.rglob("*") if p.is_file() and ".git" not in p.parts}


def test_log4brains_packages_become_projects_and_existing_agent_files_are_merged(
        tmp_path: Path) -> None:
    repo = repository(tmp_path, "log4brains")
    (repo / "AGENTS.md").write_text("# Agents\n\nRun the tests first.\n")
    (repo / ".mcp.json").write_text('{"mcpServers": {"tests": {"command": "pytest"}}}\n')
    records_before = {k: v for k, v in snapshot(repo).items() if k.endswith(".md")
                      and k != "AGENTS.md"}
    result = run_cli("init", "--from", str(repo))
    assert result.returncode == 0, result.stderr
    assert "found packages/backend/adr: format log4brains, project backend" in result.stdout
    assert "guessed packages/web/adr/20201030-use-react.md: title 'Use react' made from the " \
           "file name" in result.stdout
    assert "check passes: 5 records" in result.stderr
    servers = json.loads((repo / ".mcp.json").read_text())["mcpServers"]
    assert servers == {"tests": {"command": "pytest"}, "decisions": {
        "command": "site-builder", "args": ["mcp", "--root", "."]}}
    agents = (repo / "AGENTS.md").read_text()
    assert agents.startswith("# Agents\n\nRun the tests first.\n")
    assert "`packages/backend/adr/`" in agents
    assert (repo / ".github/workflows/decisions.yml").is_file()
    after = snapshot(repo)
    assert {k: after[k] for k in records_before} == records_before
    check = run_cli("check", "--root", str(repo))
    assert check.returncode == 0, check.stderr
    build = run_cli("build", "--root", str(repo))
    assert build.returncode == 0, build.stderr
    assert (repo / "_site/backend/adr/20201029-use-graphql/index.html").is_file()


def test_adr_dir_and_git_remote_give_the_folder_and_the_repository_links(tmp_path: Path) -> None:
    repo = repository(tmp_path, "nygard")
    (repo / ".adr-dir").write_text("doc/adr\n")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "remote", "add", "origin", "git@github.com:acme/adr-tools.git")
    result = run_cli("init", "--from", str(repo))
    assert result.returncode == 0, result.stderr
    assert "found doc/adr: format nygard, project nygard (.adr-dir names it" in result.stdout
    assert "guessed edit_url https://github.com/acme/adr-tools/edit/main/{path}" in result.stdout
    build = run_cli("build", "--root", str(repo))
    assert build.returncode == 0, build.stderr
    page = (repo / "_site/nygard/adr/0002-implement-as-shell-scripts/index.html").read_text()
    assert 'href="https://github.com/acme/adr-tools/blob/main/src/adr-new"' in page
    assert 'href="https://github.com/acme/adr-tools/blob/main/doc/design.md"' in page
    assert page.count("<h1") == 1  # the page's own title: the body does not repeat it
    assert "Superceded by" not in page and "Date: 12/02/2016" not in page


def test_records_that_need_a_status_map_are_named(tmp_path: Path) -> None:
    repo = repository(tmp_path, "madr")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "records", date="2022-02-02T12:00:00+00:00")
    result = run_cli("init", "--from", str(repo))
    assert result.returncode == 0, result.stderr
    assert "found docs/decisions: format madr, project madr" in result.stdout
    assert "guessed docs/decisions/0002-use-htmx.md: date 2022-02-02 from git" in result.stdout
    assert "guessed docs/decisions/0002-use-htmx.md: status 'on hold' read as proposed" \
           in result.stdout
    assert ": error: " not in result.stderr  # read, not judged: published as `unknown`
    warnings = [line for line in result.stderr.splitlines() if ": warning: " in line]
    assert len(warnings) == 1
    assert "0004-split-the-monolith.md:2: warning: unknown status 'Obsolete'" \
        in warnings[0]
    assert "status_map" in warnings[0]
    assert "check passes: 5 records; 1 needs a status_map entry" in result.stderr


def test_an_existing_site_yml_or_no_decision_folder_writes_nothing(tmp_path: Path) -> None:
    repo = repository(tmp_path, "nygard")
    # A vendored copy of somebody else's records is not the repository's own.
    (repo / "node_modules/adr-tools").mkdir(parents=True)
    (repo / "doc/adr").rename(repo / "node_modules/adr-tools/adr")
    before = snapshot(repo)
    result = run_cli("init", "--from", str(repo))
    assert result.returncode == 2
    assert "no decision folder found" in result.stderr
    assert "--folder PATH" in result.stderr
    assert snapshot(repo) == before
    (repo / "site.yml").write_text("title: x\n")
    assert run_cli("init", "--from", str(repo)).returncode == 2


def test_adopted_records_get_the_sites_edit_link(tmp_path: Path) -> None:
    repo = repository(tmp_path, "nygard")
    git(repo, "init", "-q", "-b", "trunk")
    git(repo, "remote", "add", "origin", "https://github.com/acme/tools.git")
    assert run_cli("init", "--from", str(repo)).returncode == 0
    assert run_cli("build", "--root", str(repo)).returncode == 0
    page = (repo / "_site/nygard/adr/0004-rewrite-in-go/index.html").read_text()
    assert 'href="https://github.com/acme/tools/edit/trunk/doc/adr/0004-rewrite-in-go.md"' in page


def test_new_refuses_a_project_read_in_place(tmp_path: Path) -> None:
    repo = repository(tmp_path, "nygard")
    assert run_cli("init", "--from", str(repo)).returncode == 0
    result = run_cli("new", "nygard", "adr", "Another", "--root", str(repo))
    assert result.returncode == 2
    assert "read from doc/adr in nygard format" in result.stderr
    assert sorted(p.name for p in (repo / "doc/adr").iterdir())[-1] == "README.md"


def test_a_folder_of_one_record_is_counted_in_the_singular(tmp_path: Path) -> None:
    repo = tmp_path / "one"
    (repo / "doc/adr").mkdir(parents=True)
    (repo / "doc/adr/0001-use-go.md").write_text(
        "# 1. Use Go\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n")
    result = run_cli("init", "--from", str(repo))
    assert result.returncode == 0, result.stderr
    assert "check passes: 1 record\n" in result.stderr
