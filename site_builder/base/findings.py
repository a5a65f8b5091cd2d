"""Finding: one problem `check` reports, with the file and line it comes from."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from site_builder.base.kept import rebuilt_by_init

Level = Literal["error", "warning"]


@rebuilt_by_init
@dataclass(frozen=True, order=True, slots=True)
class Finding:
    """A problem in the archive.

    `path` is the absolute path of the file at fault and `line` its 1-based line
    (a problem with no line of its own is reported at line 1 of its file).
    """

    path: Path
    line: int
    level: Level
    message: str

    def display_path(self, cwd: Path | None = None) -> str:
        """The path as a person types it: relative to `cwd` when below it, else absolute."""
        return display_path(self.path, cwd)

    def format(self, cwd: Path | None = None) -> str:
        """`path:line: level: message`, the line `check` prints."""
        return f"{self.display_path(cwd)}:{self.line}: {self.level}: {self.message}"

    def escalated(self) -> Finding:
        """The same finding as an error (what `--strict` does to warnings)."""
        return Finding(self.path, self.line, "error", self.message)


def display_path(path: Path, cwd: Path | None = None) -> str:
    """`path` as a person types it: relative to `cwd` (default: here) when below it, else
    absolute; always with `/`."""
    base = cwd or Path.cwd()
    try:
        rel = os.path.relpath(path, base)
    except ValueError:  # another drive on Windows
        return Path(path).as_posix()
    return Path(path).as_posix() if rel.startswith("..") else Path(rel).as_posix()


def has_errors(findings: list[Finding] | tuple[Finding, ...]) -> bool:
    """True when any finding is an error."""
    return any(f.level == "error" for f in findings)


def github_annotation(finding: Finding, cwd: Path | None = None) -> str:
    """The finding as a GitHub Actions workflow command (`::error file=…,line=…::message`)."""
    message = finding.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    path = finding.display_path(cwd).replace("%", "%25").replace(",", "%2C").replace(":", "%3A")
    return f"::{finding.level} file={path},line={finding.line}::{message}"


def as_json(finding: Finding, cwd: Path | None = None) -> dict[str, object]:
    """The finding as one item of `check --format json`."""
    return {"path": finding.display_path(cwd), "line": finding.line,
            "level": finding.level, "message": finding.message}


# GitLab's code-quality severities for ours: an error fails the merge request, a warning not.
_GITLAB_SEVERITY = {"error": "major", "warning": "minor"}


def gitlab_quality(finding: Finding, repository: Path) -> dict[str, object]:
    """The finding as one entry of GitLab's code-quality report (`check --format gitlab`):
    the path relative to `repository` (the checkout's top folder) and a fingerprint that
    stays the same while path, line and message do."""
    path = display_path(finding.path, repository)
    key = f"{path}\0{finding.line}\0{finding.message}".encode()
    return {"description": finding.message, "check_name": f"site-builder-{finding.level}",
            "fingerprint": hashlib.sha256(key).hexdigest(),
            "severity": _GITLAB_SEVERITY[finding.level],
            "location": {"path": path, "lines": {"begin": finding.line}}}
