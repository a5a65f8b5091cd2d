"""`site-builder init [DIR]`: a new archive that `check` accepts, for people and for agents."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import yaml

from site_builder.authoring.scaffold import ScaffoldError, init_archive
from tests.conftest import run_cli

FILES = [
    ".github/workflows/decisions.yml", ".gitignore", ".mcp.json", "AGENTS.md",
    "content/architecture/_project.yml",
    "content/architecture/adr/0001-record-architecture-decisions.md", "site.yml",
]


def files_in(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_init_writes_an_archive_that_check_accepts(tmp_path: Path) -> None:
    folder = tmp_path / "decisions"
    result = run_cli("init", str(folder))
    assert result.returncode == 0
    assert sorted(Path(line).relative_to(folder).as_posix()
                  for line in result.stdout.splitlines()) == FILES
    assert files_in(folder) == FILES
    check = run_cli("check", "--strict", "--root", str(folder))
    assert (check.returncode, check.stdout, check.stderr) == (0, "", "")


def test_the_first_record(tmp_path: Path) -> None:
    init_archive(tmp_path, today=dt.date(2026, 7, 1))
    show = run_cli("show", "ARCHITECTURE-ADR-0001", "--json", "--root", str(tmp_path))
    record = json.loads(show.stdout)
    assert (record["title"], record["status"], record["date"]) == (
        "Record architecture decisions", "accepted", "2026-07-01")
    assert record["current"] is True


def test_agents_are_told_to_ask_the_mcp_server_first(tmp_path: Path) -> None:
    init_archive(tmp_path)
    agents = (tmp_path / "AGENTS.md").read_text(encoding="utf-8")
    assert "`site-builder mcp --root .`" in agents
    assert agents.index("MCP server first") < agents.index("site-builder new")
    mcp = json.loads((tmp_path / ".mcp.json").read_text(encoding="utf-8"))
    assert mcp == {"mcpServers": {"decisions": {"command": "site-builder",
                                                "args": ["mcp", "--root", "."]}}}


def test_the_workflow_checks_builds_and_publishes_to_pages(tmp_path: Path) -> None:
    init_archive(tmp_path)
    workflow = yaml.safe_load((tmp_path / ".github/workflows/decisions.yml").read_text())
    steps = workflow["jobs"]["build"]["steps"]
    # The action (action.yml, tested in test_action.py) checks and builds.
    action = next(step for step in steps if step["uses"].split("@")[0].endswith("/site-builder"))
    assert steps[-1]["uses"].startswith("actions/upload-pages-artifact@")
    assert steps[-1]["with"]["path"] == f"${{{{ steps.{action['id']}.outputs.site-path }}}}"
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["steps"][0]["uses"].startswith("actions/deploy-pages@")
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}


def test_an_existing_archive_is_never_overwritten(tmp_path: Path) -> None:
    init_archive(tmp_path)
    (tmp_path / "site.yml").write_text("title: Mine\n")
    before = {name: (tmp_path / name).read_bytes() for name in files_in(tmp_path)}
    result = run_cli("init", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr == (f"site-builder: {tmp_path / 'site.yml'} already exists: "
                             f"{tmp_path} is an archive already; nothing was written\n")
    assert {name: (tmp_path / name).read_bytes() for name in files_in(tmp_path)} == before


def test_any_clashing_file_stops_init_before_it_writes(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("# Our own agent notes\n")
    try:
        init_archive(tmp_path)
    except ScaffoldError as exc:
        assert str(exc) == f"{tmp_path / 'AGENTS.md'} already exists; nothing was written"
    else:
        raise AssertionError("init overwrote AGENTS.md")
    assert files_in(tmp_path) == ["AGENTS.md"]


def test_an_existing_gitignore_is_extended_not_replaced(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("node_modules/\n_site/\n")
    init_archive(tmp_path)
    assert (tmp_path / ".gitignore").read_text() == "node_modules/\n_site/\n.site-builder/\n"


def test_init_defaults_to_root_then_the_current_folder(tmp_path: Path) -> None:
    here = tmp_path / "here"
    here.mkdir()
    assert run_cli("init", cwd=here).returncode == 0
    assert (here / "site.yml").is_file()
    there = tmp_path / "there"
    assert run_cli("init", "--root", str(there), cwd=here).returncode == 0
    assert (there / "site.yml").is_file()


def test_the_archive_is_ready_for_new_records(tmp_path: Path) -> None:
    init_archive(tmp_path)
    result = run_cli("new", "architecture", "adr", "Use Python", cwd=tmp_path)
    assert result.stdout == "content/architecture/adr/0002-use-python.md\n"
    assert run_cli("check", cwd=tmp_path).returncode == 0


def test_init_refuses_a_file(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("a file\n")
    result = run_cli("init", str(tmp_path / "notes"))
    assert result.returncode == 2
    assert result.stderr == (f"site-builder: {tmp_path / 'notes'} is a file, not a folder; "
                             "nothing was written\n")


def test_the_archive_is_named_after_its_folder_or_the_one_above(tmp_path: Path) -> None:
    from site_builder.authoring.scaffold import archive_name
    assert archive_name(tmp_path / "acme" / "decisions") == "Acme"
    assert archive_name(tmp_path / "payments-team") == "Payments team"
    result = run_cli("init", str(tmp_path / "acme" / "decisions"))
    site = yaml.safe_load((tmp_path / "acme" / "decisions" / "site.yml").read_text())
    assert (site["title"], site["description"]) == ("Acme decisions",
                                                    "Architecture decisions of Acme")
    assert result.returncode == 0


def test_init_dot_names_the_real_folder(tmp_path: Path) -> None:
    folder = tmp_path / "acme"
    folder.mkdir()
    result = run_cli("init", ".", cwd=folder)
    assert result.returncode == 0, result.stderr
    assert result.stderr == (f"Created an archive in {folder}. "
                             f"Next: site-builder check --root {folder}\n")
    assert all(Path(line).is_absolute() for line in result.stdout.splitlines())
    assert yaml.safe_load((folder / "site.yml").read_text())["title"] == "Acme decisions"
