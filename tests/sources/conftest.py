"""Real git repositories for source tests, and archives that read them by `file://` URL."""

from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

import pytest

_GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.org",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.org",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def record_text(title: str, status: str = "accepted", date: str = "2026-03-01",
                extra: str = "") -> str:
    """A valid record file."""
    return (f"---\ntitle: {title}\nstatus: {status}\ndate: {date}\n"
            f"description: {title}.\n{extra}---\n\n## Decision\n\n{title}.\n")


class Origin:
    """A git repository made by a test; site-builder reaches it by its `file://` URL."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True)
        self.git("init", "--quiet", "--initial-branch", "main")

    @property
    def url(self) -> str:
        return self.folder.as_uri()

    def git(self, *args: str) -> str:
        result = subprocess.run(["git", *args], cwd=self.folder, env=_GIT_ENV, check=True,
                                capture_output=True, text=True)
        return result.stdout.strip()

    def write(self, rel: str, text: str) -> None:
        path = self.folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def remove(self, rel: str) -> None:
        (self.folder / rel).unlink()

    def commit(self, message: str = "change") -> str:
        """Commit everything and return the new commit."""
        self.git("add", "--all")
        self.git("commit", "--quiet", "--message", message)
        return self.git("rev-parse", "HEAD")


@pytest.fixture
def origin(tmp_path: Path) -> Origin:
    """A repository holding project `payments` under docs/decisions, one commit."""
    repo = Origin(tmp_path / "payments-origin")
    repo.write("README.md", "The payments service.\n")
    repo.write("docs/decisions/payments/_project.yml", "name: Payments\n")
    repo.write("docs/decisions/payments/adr/0001-use-stripe.md", record_text("Use Stripe"))
    repo.write("docs/decisions/payments/adr/0002-retry-webhooks.md",
               record_text("Retry webhooks", date="2026-03-05"))
    repo.commit("first decisions")
    return repo


def make_archive(folder: Path, sources: str = "", extra: str = "") -> Path:
    """An archive with one local project (`local`) and the given `sources:` block."""
    folder.mkdir(parents=True, exist_ok=True)
    text = "title: Test decisions\n" + extra
    if sources:
        text += "sources:\n" + textwrap.indent(textwrap.dedent(sources).strip("\n"), "  ") + "\n"
    (folder / "site.yml").write_text(text, encoding="utf-8")
    record = folder / "content" / "local" / "adr" / "0001-local-choice.md"
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(record_text("Local choice"), encoding="utf-8")
    return folder
