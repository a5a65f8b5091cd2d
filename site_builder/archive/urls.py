"""Addresses of repositories: which repository a URL is in, and which file of it it names.

A record in another tool's format may name its successor by an absolute URL into its own
repository (`https://github.com/ORG/REPO/blob/main/docs/adr/0016-x.md`); such a URL is a
link to a record of the archive when its repository is the archive's own.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

# `git@github.com:org/repo.git`, scp-like addresses git remotes use.
_SCP = re.compile(r"^[\w.-]+@(?P<host>[\w.-]+):(?P<path>[^\s]+)$")
# What forges put between the repository and the file's path: `blob/<ref>/`, `-/blob/<ref>/`.
_VIEWS = frozenset({"blob", "tree", "raw", "edit", "src"})


def _parts(url: str) -> tuple[str, list[str]] | None:
    """(host, path segments) of an http(s), ssh or scp-like address, or None."""
    scp = _SCP.match(url.strip())
    if scp:
        return scp.group("host").lower(), [p for p in scp.group("path").split("/") if p]
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https", "ssh", "git") or not parts.hostname:
        return None
    return parts.hostname.lower(), [unquote(p) for p in parts.path.split("/") if p]


def repository_key(url: str) -> str | None:
    """`host/owner/name` (lowercased, without `.git`) of a repository address or of any
    URL into it; None when it names none."""
    found = _parts(url) if url else None
    if found is None or len(found[1]) < 2:
        return None
    host, segments = found
    return f"{host}/{segments[0]}/{segments[1].removesuffix('.git')}".lower()


def path_in_repository(url: str, repositories: frozenset[str]) -> str | None:
    """The path of the file `url` shows (`docs/adr/0016-x.md`) when it is a URL into one of
    `repositories` (as `repository_key` gives them), else None."""
    key = repository_key(url)
    if key is None or key not in repositories:
        return None
    found = _parts(url.split("#", 1)[0].split("?", 1)[0])
    assert found is not None  # repository_key read it
    rest = found[1][2:]
    if rest[:1] == ["-"]:
        rest = rest[1:]
    if len(rest) < 3 or rest[0] not in _VIEWS:
        return None
    return "/".join(rest[2:])
