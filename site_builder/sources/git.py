"""The system `git`, run without a terminal: the only code here that touches the network.

Every call captures git's output (the MCP server's stdout carries only protocol messages) and
turns a failure into a `GitError` holding git's own message.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from site_builder.errors import SiteBuilderError

# A fetch that hangs (a host that never answers) must end in an error, not a stuck build.
FETCH_TIMEOUT = 300


class GitError(SiteBuilderError):
    """A git command failed; `message` is what git said (its `fatal:`/`error:` lines)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    # Never wait for a password nobody will type; an anonymous failure is reported instead.
    env["GIT_TERMINAL_PROMPT"] = "0"
    env.setdefault("GIT_ASKPASS", "")
    env["LC_ALL"] = "C"  # git's messages are matched below, so keep them in English
    return env


def run_git(*args: str, cwd: Path | None = None, timeout: float = FETCH_TIMEOUT) -> str:
    """Run `git ARGS` and return its stdout, stripped.

    Raises GitError with git's message when git fails, is missing, or runs out of time.
    """
    try:
        result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                                stdin=subprocess.DEVNULL, env=_environment(), timeout=timeout,
                                check=False)
    except FileNotFoundError:
        raise GitError("git is not installed (it is needed to fetch repo: sources)") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {args[0]} gave no answer within {timeout:.0f}s") from None
    if result.returncode != 0:
        raise GitError(_last_message(result.stderr) or f"git {args[0]} failed "
                                                       f"(exit {result.returncode})")
    return result.stdout.strip()


def _last_message(stderr: str) -> str:
    """git's `fatal:`/`error:` lines joined (prefixes dropped), else its last line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    told = [line.split(":", 1)[1].strip() for line in lines
            if line.startswith(("fatal:", "error:"))]
    if told:
        return "; ".join(dict.fromkeys(told))
    return lines[-1] if lines else ""


def fetch_commit(repo: str, ref: str | None, work_tree: Path) -> str:
    """Fetch `ref` of `repo` (one commit deep) into the repository at `work_tree`, check it out.

    `work_tree` must already be a git repository (see `init`). Returns the commit now checked
    out. Raises GitError when the fetch or the checkout fails; the files already checked out
    are then left as they were.
    """
    run_git("fetch", "--quiet", "--depth", "1", "--no-tags", "--", repo, ref or "HEAD",
            cwd=work_tree)
    # A source's commit is somebody else's: a symlink in it (`x.png -> /etc/passwd`) is
    # checked out as a small file holding the link's text, so it can never point anywhere.
    run_git("-c", "core.symlinks=false", "checkout", "--quiet", "--force", "--detach",
            "FETCH_HEAD", cwd=work_tree, timeout=120)
    return run_git("rev-parse", "HEAD", cwd=work_tree, timeout=30)


def init(folder: Path) -> None:
    """Make `folder` an empty git repository. Raises GitError when git cannot."""
    run_git("init", "--quiet", str(folder), timeout=30)


def is_missing_ref(error: GitError) -> bool:
    """True when git failed because the remote has no such branch, tag or commit."""
    text = error.message.lower()
    return ("couldn't find remote ref" in text or "not our ref" in text
            or "unadvertised object" in text)
