"""The workflow `init` writes installs the site-builder that wrote it, and builds the site.

The end-to-end test makes a git repository of this checkout whose `origin` is served over HTTP
on loopback, installs site-builder from the local checkout into a fresh venv (so pip records
a local git origin, as it does for a team's install from a clone), runs that copy's `init`,
then runs the workflow's own `pip install` line (which must name the served remote, never
the local checkout), `check` and `build` steps in a second fresh venv.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import yaml

from site_builder.authoring.origin import HOME, install_for
from site_builder.authoring.scaffold import workflow

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
    steps = yaml.safe_load((archive / ".github/workflows/decisions.yml").read_text())[
        "jobs"]["build"]["steps"]
    runs = [step["run"] for step in steps if "run" in step]
    install = next(run for run in runs if run.startswith("pip install"))
    assert install == f'pip install "site-builder @ git+{remote}@{commit}"'
    assert str(tmp_path) not in (archive / ".github/workflows/decisions.yml").read_text()
    ci = _fresh_venv(tmp_path / "ci-venv")
    env = {**os.environ, "PATH": f"{ci}{os.pathsep}{os.environ['PATH']}"}
    for run in runs:
        done = subprocess.run(run, shell=True, cwd=archive, env=env, capture_output=True,
                              text=True, check=False)
        assert done.returncode == 0, (run, done.stdout, done.stderr)
    assert (ci / "site-builder").is_file()
    assert (archive / "_site" / "index.html").is_file()
    assert "Acme decisions" in (archive / "_site" / "index.html").read_text(encoding="utf-8")
