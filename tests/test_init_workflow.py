"""The workflow `init` writes runs site-builder's action, pinned to the site-builder that
wrote it, keeps the build cache between runs, and builds the site.

The end-to-end test makes a git repository of this checkout whose `origin` is served over HTTP
on loopback, installs site-builder from the local checkout into a fresh venv (so pip records
a local git origin, as it does for a team's install from a clone), runs that copy's `init`,
then runs the action's steps (tests/action_steps.py) with the inputs the workflow gives it
(its `version` must name the served remote, never the local checkout) in a second fresh venv.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from site_builder.authoring.origin import HOME, install_for
from site_builder.authoring.scaffold import workflow
from tests.action_steps import run_action

REPO = Path(__file__).resolve().parent.parent


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def test_a_git_install_is_pinned_to_its_commit() -> None:
    origin = {"url": "https://github.com/acme/site-builder.git",
              "vcs_info": {"vcs": "git", "commit_id": "a" * 40, "requested_revision": "main"}}
    install = install_for(origin, "0.1.0", None)
    assert install.pip_line() == ('pip install "site-builder @ '
                                  f'git+https://github.com/acme/site-builder.git@{"a" * 40}"')
    assert "to upgrade" in " ".join(install.comment)


def test_an_index_install_is_pinned_to_its_version() -> None:
    install = install_for(None, "1.4.2", None)
    assert install.pip_line() == 'pip install "site-builder==1.4.2"'
    assert "change the version" in install.comment[0]


def test_a_checkout_with_a_remote_is_pinned_to_the_remote_and_its_commit(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
        "--allow-empty", "-m", "x")
    git(tmp_path, "remote", "add", "origin", "https://example.test/acme/site-builder.git")
    commit = git(tmp_path, "rev-parse", "HEAD")
    origin = {"url": tmp_path.as_uri(), "dir_info": {"editable": True}}
    install = install_for(origin, "0.1.0", None)
    assert install.requirement == (
        f"site-builder @ git+https://example.test/acme/site-builder.git@{commit}")
    assert "push it first" in " ".join(install.comment)


def test_a_plain_folder_names_the_projects_repository_not_the_folder(tmp_path: Path) -> None:
    install = install_for({"url": tmp_path.as_uri(), "dir_info": {}}, "0.1.0", None)
    assert install.requirement == f"site-builder @ git+{HOME}.git"
    text = workflow(install)
    assert str(tmp_path) not in text and "file:" not in text
    assert "replace it" in text
    assert yaml.safe_load(text)  # the comment lines keep the workflow valid YAML


def test_a_clone_of_a_local_clone_is_pinned_to_the_remote_on_the_web(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    git(first, "init", "-q")
    git(first, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
        "--allow-empty", "-m", "x")
    git(first, "remote", "add", "origin", "git@example.test:acme/site-builder.git")
    subprocess.run(["git", "clone", "-q", str(first), str(second)], check=True)
    commit = git(second, "rev-parse", "HEAD")
    origin = {"url": second.as_uri(), "vcs_info": {"vcs": "git", "commit_id": commit}}
    install = install_for(origin, "0.1.0", None)
    assert install.requirement == (
        f"site-builder @ git+https://example.test/acme/site-builder.git@{commit}")
    assert str(tmp_path) not in workflow(install)


def _steps(text: str) -> dict[str, dict[str, Any]]:
    """The build job's steps of a workflow, by what each uses."""
    steps = yaml.safe_load(text)["jobs"]["build"]["steps"]
    assert all("run" not in step for step in steps)  # every command is the action's
    return {step["uses"].split("@")[0]: step for step in steps}


def test_the_workflow_keeps_history_caches_the_build_and_publishes_the_action_output() -> None:
    steps = _steps(workflow(install_for(None, "1.4.2", None), "trunk"))
    assert steps["actions/checkout"]["with"]["fetch-depth"] == 0
    cache = steps["actions/cache"]["with"]
    assert cache["path"].split() == [".site-builder", "_site"]  # the output: incremental
    prefix = cache["restore-keys"]
    assert cache["key"].startswith(prefix) and "v1.4.2" in prefix
    assert cache["key"].removeprefix(prefix).startswith(
        "${{ hashFiles('**/site.yml', '**/_project.yml', '**/*.md'")
    action = steps["site-builder/site-builder"]
    assert action["uses"] == "site-builder/site-builder@v1.4.2" and "with" not in action
    assert steps["actions/upload-pages-artifact"]["with"]["path"] == (
        f"${{{{ steps.{action['id']}.outputs.site-path }}}}")
    assert list(steps).index("actions/cache") < list(steps).index("site-builder/site-builder")
    assert "refs/heads/trunk" in yaml.safe_load(workflow(install_for(None, "1.4.2", None),
                                                         "trunk"))["jobs"]["deploy"]["if"]


def test_a_github_pin_uses_that_repositorys_action_at_that_commit() -> None:
    origin = {"url": "https://github.com/acme/site-builder.git",
              "vcs_info": {"vcs": "git", "commit_id": "a" * 40}}
    steps = _steps(workflow(install_for(origin, "0.1.0", None)))
    assert steps["acme/site-builder"]["uses"] == f"acme/site-builder@{'a' * 40}"
    assert "with" not in steps["acme/site-builder"]  # the action installs its own checkout
    assert "a" * 40 in steps["actions/cache"]["with"]["restore-keys"]


def test_a_pin_elsewhere_is_given_to_the_projects_action_as_its_version() -> None:
    origin = {"url": "https://gitlab.example/acme/site-builder.git",
              "vcs_info": {"vcs": "git", "commit_id": "b" * 40}}
    install = install_for(origin, "0.3.0", None)
    action = _steps(workflow(install))["site-builder/site-builder"]
    assert action["uses"] == "site-builder/site-builder@v0.3.0"
    assert action["with"] == {"version": install.requirement}


def _fresh_venv(folder: Path) -> Path:
    """A new venv with a current pip, as actions/setup-python gives (the pip that ships
    with an older Python rejects `git+file:///` URLs)."""
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    subprocess.run([str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet",
                    "--upgrade", "pip"], check=True, capture_output=True)
    return folder / "bin"


def _repository_of_this_checkout(folder: Path) -> str:
    """A git repository holding this checkout's files as they are now; returns its commit."""
    files = subprocess.run(["git", "-C", str(REPO), "ls-files", "-co", "--exclude-standard"],
                           check=True, capture_output=True, text=True).stdout.splitlines()
    for rel in files:
        if (REPO / rel).is_file():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / rel, folder / rel)
    git(folder, "init", "-q")
    git(folder, "add", "-A")
    git(folder, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "snapshot")
    return git(folder, "rev-parse", "HEAD")


@contextlib.contextmanager
def _served(folder: Path) -> Iterator[str]:
    """`folder` served over HTTP on 127.0.0.1 (a free port), as git's dumb protocol reads
    it; yields the base URL."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_the_workflow_installs_and_builds_in_a_fresh_venv(tmp_path: Path) -> None:
    # The team installs from a local checkout whose `origin` is a repository on the web
    # (here: served on loopback); the workflow must name that, never the checkout.
    source = tmp_path / "site-builder"
    source.mkdir()
    commit = _repository_of_this_checkout(source)
    published = tmp_path / "web"
    subprocess.run(["git", "clone", "-q", "--bare", str(source),
                    str(published / "site-builder.git")], check=True)
    git(published / "site-builder.git", "update-server-info")
    with _served(published) as web:
        _install_init_and_run_the_workflow(tmp_path, source, commit,
                                           f"{web}/site-builder.git")


def _install_init_and_run_the_workflow(tmp_path: Path, source: Path, commit: str,
                                       remote: str) -> None:
    git(source, "remote", "add", "origin", remote)
    team = _fresh_venv(tmp_path / "team-venv")
    subprocess.run([str(team / "pip"), "install", "--quiet",
                    f"site-builder @ git+{source.as_uri()}@{commit}"], check=True)
    archive = tmp_path / "acme" / "decisions"
    subprocess.run([str(team / "site-builder"), "init", str(archive)], check=True,
                   capture_output=True)
    text = (archive / ".github/workflows/decisions.yml").read_text()
    assert str(tmp_path) not in text
    action = next(step for uses, step in _steps(text).items()
                  if uses.endswith("/site-builder"))
    assert action["with"] == {"version": f"site-builder @ git+{remote}@{commit}"}
    ci = _fresh_venv(tmp_path / "ci-venv")
    # The action's checkout is the served commit; its `version` input says what to install.
    run = run_action(action["with"], archive, ci, action_path=source)
    assert run.failed is None, [(name, done.stdout, done.stderr) for name, done in run.steps]
    assert (ci / "site-builder").is_file()
    assert (archive / run.outputs["site-path"] / "index.html").is_file()
    assert "Acme decisions" in (archive / "_site" / "index.html").read_text(encoding="utf-8")


def test_a_pin_to_a_subdirectory_uses_the_action_there() -> None:
    origin = {"url": "https://github.com/acme/tools", "subdirectory": "site-builder",
              "vcs_info": {"vcs": "git", "commit_id": "c" * 40}}
    steps = _steps(workflow(install_for(origin, "0.1.0", None)))
    assert steps["acme/tools/site-builder"]["uses"] == f"acme/tools/site-builder@{'c' * 40}"
