"""A `repo:` source is somebody else's commit: its symlinks never point at this machine."""

from __future__ import annotations

from tests.conftest import run_cli
from tests.sources.conftest import make_archive, record_text

SECRET = "root:x:0:0:the build machine's own file\n"


def test_a_symlink_in_a_repo_source_is_checked_out_as_text(tmp_path, origin):
    secret = tmp_path / "passwd"
    secret.write_text(SECRET)
    folder = origin.folder / "docs" / "decisions" / "payments" / "adr"
    (folder / "passwd.txt").symlink_to(secret)
    (folder / "0003-link.md").write_text(record_text("Link") + "\n[p](passwd.txt)\n")
    origin.commit("a link out")
    root = make_archive(tmp_path / "site", f"- {{repo: {origin.url}, dir: docs/decisions}}")

    built = run_cli("build", cwd=root, timeout=120)

    assert built.returncode == 0, built.stdout + built.stderr
    site = root / "_site"
    assert [p for p in site.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()] == []
    copy = root / "_site" / "payments" / "adr" / "passwd.txt"
    assert copy.read_text() == str(secret)  # git's text of the link, not what it points at
