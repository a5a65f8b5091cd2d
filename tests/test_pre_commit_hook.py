"""The pre-commit hook of .pre-commit-hooks.yaml, run by `pre-commit` itself.

`pre-commit try-repo` installs this checkout (its committed state plus the working tree's
changes) into an environment of its own, as a team's `.pre-commit-config.yaml` would, and
runs the hook in a git repository made by the test, its archive at the top. A good archive
passes; a record whose date is no real date stops the commit with the file and line; a
commit that touches no record, site.yml or _project.yml does not run the hook at all.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.citing import git
from tests.conftest import FIXTURES, REPO

HOOKS = REPO / ".pre-commit-hooks.yaml"
RECORD = "content/demo/adr/0002-keep-records-short.md"


def pre_commit(repo: Path, home: Path, *files: str) -> subprocess.CompletedProcess[str]:
    """`pre-commit try-repo` of this checkout's site-builder-check hook in `repo`, on
    `files` as if they were the commit's."""
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": os.devnull, "PRE_COMMIT_COLOR": "never"}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "site-builder-check",
         "--verbose", "--files", *files], cwd=repo, env=env, capture_output=True, text=True,
        timeout=900, check=False)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One PRE_COMMIT_HOME for the module: the hook's environment is installed once."""
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository holding a good archive at its top and some code, all committed."""
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "serve-site", repo)
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("print('hello')\n")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "start")
    return repo


def break_record(repo: Path) -> None:
    """Give the record a date no calendar has (line 4 of its file)."""
    record = repo / RECORD
    record.write_text(record.read_text().replace("date: 2026-02-01", "date: 2026-13-45"))


def test_the_hook_is_declared_as_pre_commit_reads_it() -> None:
    (hook,) = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    assert hook["id"] == "site-builder-check"
    assert hook["entry"] == "site-builder check" and hook["pass_filenames"] is False


def test_a_good_archive_passes_and_a_broken_record_stops_the_commit(repo: Path,
                                                                     home: Path) -> None:
    passed = pre_commit(repo, home, RECORD)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "site-builder check" in passed.stdout and "Passed" in passed.stdout

    break_record(repo)
    failed = pre_commit(repo, home, RECORD)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "Failed" in failed.stdout
    assert f"{RECORD}:4: error: 'date' is not a real date: 2026-13-45" in failed.stdout


def test_site_yml_and_project_files_run_it_and_code_alone_does_not(repo: Path,
                                                                   home: Path) -> None:
    break_record(repo)
    for changed in ("site.yml", "content/demo/_project.yml"):
        assert pre_commit(repo, home, changed).returncode == 1, changed
    skipped = pre_commit(repo, home, "src/app.py")
    assert skipped.returncode == 0, skipped.stdout + skipped.stderr
    assert "no files to check" in skipped.stdout and "Skipped" in skipped.stdout
