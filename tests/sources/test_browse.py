"""A checkout's web address: its origin as https, and the branch origin names as default."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from site_builder.sources.browse import blob_url, default_branch, https_url
from tests.archive.test_formats_loading import git


@pytest.mark.parametrize(("remote", "url"), [
    ("git@github.com:acme/tools.git", "https://github.com/acme/tools"),
    ("ssh://git@gitlab.example:2222/group/sub/tools.git", "https://gitlab.example/group/sub/tools"),
    ("https://github.com/acme/tools.git", "https://github.com/acme/tools"),
    ("https://token@github.com/acme/tools/", "https://github.com/acme/tools"),
    ("/srv/git/tools.git", None),
    ("file:///srv/git/tools.git", None),
    ("../tools", None),
])
def test_remotes_become_https_addresses(remote: str, url: str | None) -> None:
    assert https_url(remote) == url


def test_the_default_branch_is_the_one_origin_names(tmp_path: Path) -> None:
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    git(upstream, "init", "-q", "-b", "develop")
    git(upstream, "commit", "-q", "--allow-empty", "-m", "x")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(upstream), str(clone)], check=True)
    git(clone, "checkout", "-q", "-b", "feature")
    git(clone, "remote", "set-url", "origin", "git@github.com:acme/tools.git")
    assert default_branch(clone) == "develop"
    assert blob_url(clone) == "https://github.com/acme/tools/blob/develop/"


def test_no_web_remote_has_no_address(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    assert blob_url(tmp_path) is None
    git(tmp_path, "remote", "add", "origin", str(tmp_path / "elsewhere"))
    assert blob_url(tmp_path) is None
