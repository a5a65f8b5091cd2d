"""`init --ci gitlab` and `init --from` on a GitLab repository: the `.gitlab-ci.yml` they write.

The end-to-end test runs the written file's `before_script:` and `script:` lines in order with
bash, in a fresh venv, as GitLab's runner would. Its install line names the repository the
running copy came from (never a path of this machine); the test points it at this checkout
through the environment only, with variables the file does not name: PIP_FIND_LINKS to a
wheel built from here for a version pin, git's `url.<base>.insteadOf` (GIT_CONFIG_COUNT) for
a git pin.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from site_builder.authoring.gitlab import gitlab_ci, is_gitlab
from site_builder.authoring.origin import install_for, running_install
from tests.conftest import FIXTURES, REPO, run_cli


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True)


def _pipeline(folder: Path) -> dict[str, Any]:
    data = yaml.safe_load((folder / ".gitlab-ci.yml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_init_ci_gitlab_writes_pages_and_a_merge_request_check(tmp_path: Path) -> None:
    folder = tmp_path / "decisions"
    result = run_cli("init", "--ci", "gitlab", str(folder))
    assert result.returncode == 0, result.stderr
    assert (folder / ".gitlab-ci.yml").is_file() and not (folder / ".github").exists()
    text = (folder / ".gitlab-ci.yml").read_text(encoding="utf-8")
    assert str(tmp_path) not in text and "file:" not in text
    ci = _pipeline(folder)
    assert ci["variables"]["GIT_DEPTH"] == 0
    assert ci["default"]["before_script"] == [running_install().pip_line()]
    pages = ci["pages"]
    assert pages["artifacts"]["paths"] == ["public"]
    assert pages["rules"] == [{"if": "$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH"}]
    assert pages["script"] == ["site-builder build --output public"]
    # The cache and the last output between pipelines: an incremental build needs both.
    assert pages["cache"]["paths"] == [".site-builder/", "public/"]
    check = ci["decisions-check"]
    assert check["rules"] == [{"if": '$CI_PIPELINE_SOURCE == "merge_request_event"'}]
    report = check["artifacts"]["reports"]["codequality"]
    assert check["script"] == [f"site-builder check --format gitlab > {report}"]
    assert check["artifacts"]["when"] == "always"  # the report of a failing check is kept
    assert run_cli("check", "--strict", "--root", str(folder)).returncode == 0
    again = run_cli("init", "--ci", "gitlab", str(folder))
    assert again.returncode == 2


def _repository(tmp_path: Path, remote: str) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "formats" / "nygard", repo)
    (repo / "site.yml").unlink()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "remote", "add", "origin", remote)
    return repo


def test_init_from_a_gitlab_remote_writes_gitlab_ci(tmp_path: Path) -> None:
    repo = _repository(tmp_path, "git@gitlab.com:acme/adr-tools.git")
    result = run_cli("init", "--from", str(repo))
    assert result.returncode == 0, result.stderr
    assert "guessed GitLab CI" in result.stdout
    assert "pages" in _pipeline(repo) and not (repo / ".github").exists()


def test_init_from_ci_github_overrides_a_gitlab_remote(tmp_path: Path) -> None:
    repo = _repository(tmp_path, "https://gitlab.acme.org/acme/adr-tools.git")
    result = run_cli("init", "--from", str(repo), "--ci", "github")
    assert result.returncode == 0, result.stderr
    assert "GitLab" not in result.stdout
    assert (repo / ".github/workflows/decisions.yml").is_file()
    assert not (repo / ".gitlab-ci.yml").exists()


def test_init_from_keeps_an_existing_gitlab_ci(tmp_path: Path) -> None:
    repo = _repository(tmp_path, "https://github.com/acme/adr-tools.git")
    (repo / ".gitlab-ci.yml").write_text("test:\n  script: [make]\n", encoding="utf-8")
    result = run_cli("init", "--from", str(repo))
    assert result.returncode == 0, result.stderr
    assert "guessed .gitlab-ci.yml exists: left as it is" in result.stdout
    assert _pipeline(repo) == {"test": {"script": ["make"]}}
    assert not (repo / ".github").exists()


def test_init_from_a_github_remote_still_writes_the_workflow(tmp_path: Path) -> None:
    repo = _repository(tmp_path, "https://github.com/acme/adr-tools.git")
    assert run_cli("init", "--from", str(repo)).returncode == 0
    assert (repo / ".github/workflows/decisions.yml").is_file()
    assert not (repo / ".gitlab-ci.yml").exists()


def _checkout_override(install_line: str, wheels: Path) -> dict[str, str]:
    """Environment making the install line take site-builder from this checkout: a version
    pin finds a wheel built from it (PIP_FIND_LINKS); a git pin has git fetch the repository
    it names from here (its commit is this checkout's HEAD)."""
    if re.fullmatch(r'pip install "site-builder==[^"]+"', install_line):
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                        "--wheel-dir", str(wheels), str(REPO)], check=True, capture_output=True)
        return {"PIP_FIND_LINKS": str(wheels)}
    match = re.fullmatch(r'pip install "site-builder @ git\+(\S+?)@[0-9a-f]{40}"', install_line)
    assert match, install_line
    return {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": f"url.{REPO.as_uri()}.insteadOf",
            "GIT_CONFIG_VALUE_0": match.group(1)}


def test_the_gitlab_jobs_run_in_a_fresh_venv(tmp_path: Path) -> None:
    folder = tmp_path / "acme" / "decisions"
    assert run_cli("init", "--ci", "gitlab", str(folder)).returncode == 0
    ci = _pipeline(folder)
    venv = tmp_path / "ci-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin/python"), "-m", "pip", "install", "--quiet", "--upgrade",
                    "pip"], check=True, capture_output=True)
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
           **_checkout_override(ci["default"]["before_script"][0], tmp_path / "wheels")}
    lines = [*ci["default"]["before_script"], *ci["decisions-check"]["script"],
             *ci["pages"]["script"]]
    for line in lines:
        done = subprocess.run(["bash", "-ec", line], cwd=folder, env=env, capture_output=True,
                              text=True, timeout=600, check=False)
        assert done.returncode == 0, (line, done.stdout, done.stderr)
    assert (venv / "bin" / "site-builder").is_file()
    report = folder / ci["decisions-check"]["artifacts"]["reports"]["codequality"]
    assert yaml.safe_load(report.read_text(encoding="utf-8")) == []
    assert "Acme decisions" in (folder / "public" / "index.html").read_text(encoding="utf-8")


def test_gitlab_hosts() -> None:
    assert is_gitlab("https://gitlab.com/acme/tools")
    assert is_gitlab("https://gitlab.acme.org/acme/tools")
    assert not is_gitlab("https://github.com/acme/tools")
    assert not is_gitlab("https://notgitlab.example/acme/tools")
    assert not is_gitlab(None)


def test_a_folder_install_names_no_local_path(tmp_path: Path) -> None:
    # As for the GitHub workflow: CI cannot reach a folder of the machine that ran init.
    install = install_for({"url": tmp_path.as_uri(), "dir_info": {}}, "0.1.0", None)
    text = gitlab_ci(install)
    assert str(tmp_path) not in text and "file:" not in text
    assert yaml.safe_load(text)["default"]["before_script"] == [install.pip_line()]
