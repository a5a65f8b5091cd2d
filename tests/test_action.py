"""The GitHub Action at the repository root installs site-builder, checks and builds.

Its steps are run in order from action.yml (tests/action_steps.py) in a fresh venv, with the
action's own checkout (this repository) as `github.action_path`, against a copy of a fixture
archive: the site is built and `site-path` is set; a broken record fails the check step with
an annotation naming the record's file and line.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.action_steps import action, run_action

FIXTURE = Path(__file__).parent / "fixtures" / "serve-site"
RECORD = Path("content/demo/adr/0002-keep-records-short.md")


@pytest.fixture(scope="module")
def venv_bin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv, standing in for actions/setup-python; yields its scripts folder."""
    folder = tmp_path_factory.mktemp("venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    yield folder / "bin"


def _workspace(tmp_path: Path) -> Path:
    """A checkout holding the fixture archive under docs/decisions."""
    workspace = tmp_path / "workspace"
    shutil.copytree(FIXTURE, workspace / "docs" / "decisions")
    return workspace


def test_the_action_declares_its_inputs_and_output() -> None:
    spec = action()
    assert spec["runs"]["using"] == "composite"
    assert {name: row["default"] for name, row in spec["inputs"].items()} == {
        "root": ".", "output": "_site", "strict": "false", "version": ""}
    assert set(spec["outputs"]) == {"site-path"}


def test_the_action_installs_checks_and_builds(tmp_path: Path, venv_bin: Path) -> None:
    workspace = _workspace(tmp_path)
    run = run_action({"root": "docs/decisions", "output": "public"}, workspace, venv_bin)
    assert run.failed is None, [(name, done.stderr) for name, done in run.steps]
    assert (venv_bin / "site-builder").is_file()  # installed from the action's checkout
    assert run.outputs == {"site-path": "public"}
    assert (workspace / "public" / "index.html").is_file()
    assert (workspace / "public" / "decisions.json").is_file()


def test_a_broken_record_fails_the_check_with_an_annotation(tmp_path: Path,
                                                             venv_bin: Path) -> None:
    workspace = _workspace(tmp_path)
    record = workspace / "docs" / "decisions" / RECORD
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace("status: proposed", "status: bogus", 1), encoding="utf-8")
    line = text.splitlines().index("status: proposed") + 1
    run = run_action({"root": "docs/decisions", "strict": "true"}, workspace, venv_bin)
    assert run.failed == "Check the records"
    out = run.steps[-1][1].stdout
    # Relative to the workspace, as GitHub needs to place the annotation on the diff.
    assert f"::error file={record.relative_to(workspace)},line={line}::" in out, out
    assert not (workspace / "_site").exists()


def test_strict_makes_a_warning_fail(tmp_path: Path, venv_bin: Path) -> None:
    workspace = _workspace(tmp_path)
    record = workspace / "docs" / "decisions" / RECORD
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace("tags: [docs, style]", "tags: [docs, style]\nowner: x", 1),
                      encoding="utf-8")
    lenient = run_action({"root": "docs/decisions"}, workspace, venv_bin)
    assert lenient.failed is None, [(name, done.stderr) for name, done in lenient.steps]
    assert "::warning" in lenient.steps[1][1].stdout
    strict = run_action({"root": "docs/decisions", "strict": "true"}, workspace, venv_bin)
    assert strict.failed == "Check the records"
