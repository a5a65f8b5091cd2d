"""A git repository whose code cites the records of the archive it holds, made by the test.

    repo/                       the repository (`git init`, everything committed)
      decisions/                the archive: pay/adr/0001 superseded by 0002, 0003 rejected,
                                ops/adr/0002 (so `ADR-0002` is ambiguous), ops/rfc/0001 open
      src/billing.py            cites by ref and by short ref
      src/links.py              cites by a page URL and by a source file path
      assets/logo.png           a binary file holding a ref (skipped)
      big.txt                   a file over 1 MB holding a ref (skipped)
      vendor/lib.py             a ref in an excluded glob
      notes.py                  untracked: never read

`CITES` says which line of which file cites what.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO_URL = "https://git.example/acme/shop/blob/main/decisions/"
SITE_URL = "https://decisions.example/"

_RECORD = """---
title: {title}
status: {status}
date: 2026-0{month}-01
description: {title}.
{extra}---

{title}.
"""

RECORDS = {
    "pay/adr/0001-old-gateway": ("Use the old gateway", "superseded", ""),
    "pay/adr/0002-use-stripe": ("Use Stripe", "accepted",
                                "supersedes: [pay/adr/0001]\naffects: [\"src/billing.py\"]\n"),
    "pay/adr/0003-use-bitcoin": ("Use bitcoin", "rejected", ""),
    "ops/adr/0002-page-on-call": ("Page the on-call", "accepted", ""),
    "ops/rfc/0001-shared-runbooks": ("Shared runbooks", "proposed", ""),
}

BILLING = """\
# PAY-ADR-0002: card payments go through Stripe.
def charge():  # see ADR-0003 for why not bitcoin
    return legacy()  # PAY-ADR-0001 (the old gateway)
# PAY-ADR-0009 was never written; ADR-0002 names two records; UTF-8 and SHA-256 are no refs.
# ADR-0099 names none either.
"""

LINKS = """\
# https://decisions.example/pay/adr/0002-use-stripe/
# ../decisions/content/pay/adr/0001-old-gateway.md
# https://decisions.example/pay/adr/0042-nothing/, RFC-1, not content/pay/adr/0004-a.svg
"""

# (path, line, the record cited there), by ref, short ref, page URL and file path.
CITED = [
    ("decisions/README.md", 1, "pay/adr/0001-old-gateway"),
    ("src/billing.py", 1, "pay/adr/0002-use-stripe"),
    ("src/billing.py", 2, "pay/adr/0003-use-bitcoin"),
    ("src/billing.py", 3, "pay/adr/0001-old-gateway"),
    ("src/links.py", 1, "pay/adr/0002-use-stripe"),
    ("src/links.py", 2, "pay/adr/0001-old-gateway"),
    ("src/links.py", 3, "ops/rfc/0001-shared-runbooks"),
]
# (path, line, as written) of what looks like this archive's record but names none.
MISSING = [
    ("src/billing.py", 4, "PAY-ADR-0009"),
    ("src/billing.py", 5, "ADR-0099"),
    ("src/links.py", 3, "decisions.example/pay/adr/0042-nothing"),
]


def git(repo: Path, *args: str) -> str:
    """Run git in `repo` as a fixed author, without the user's configuration."""
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True,
                          text=True).stdout


def make_repository(repo: Path, citations: str = "{exclude: [\"vendor/**\"]}") -> Path:
    """Write and commit the repository at `repo`; returns the archive's root."""
    root = repo / "decisions"
    (root / "content").mkdir(parents=True)
    (root / "site.yml").write_text(f"title: Shop\nurl: {SITE_URL}\nrepo_url: {REPO_URL}\n"
                                   f"citations: {citations}\n")
    for month, (record_id, (title, status, extra)) in enumerate(RECORDS.items(), start=1):
        path = root / "content" / f"{record_id}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_RECORD.format(title=title, status=status, month=month, extra=extra))
    files = {"src/billing.py": BILLING, "src/links.py": LINKS,
             "vendor/lib.py": "# PAY-ADR-0002\n", "decisions/README.md": "See PAY-ADR-0001.\n"}
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    (repo / "assets").mkdir()
    (repo / "assets" / "logo.png").write_bytes(b"\x89PNG\0\0PAY-ADR-0002\n")
    (repo / "big.txt").write_bytes(b"PAY-ADR-0002\n" + b"x" * 1_000_001)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "shop")
    (repo / "notes.py").write_text("# PAY-ADR-0002, untracked\n")
    return root
