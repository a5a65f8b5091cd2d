"""Source records are served like local ones: queries, `check` paths and edit links."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from site_builder.query import answers as query
from site_builder.query import copies
from site_builder.sources.load import load_archive
from tests.conftest import run_cli
from tests.sources.conftest import make_archive, record_text


def test_search_and_get_record_answer_from_source_records(tmp_path, origin):
    head = origin.git("rev-parse", "HEAD")
    root = make_archive(tmp_path / "site", f"- {{repo: {origin.url}, ref: main, "
                                           f"dir: docs/decisions}}")
    archive = load_archive(root)

    found = query.search_records(archive, query="stripe")
    detail = query.get_record(archive, "PAYMENTS-ADR-0001")

    assert [r["id"] for r in found["records"]] == ["payments/adr/0001-use-stripe"]
    assert detail["source"] == {"location": origin.url, "ref": "main", "commit": head}
    assert query.get_record(archive, "local/adr/1")["source"] is None
    copy = copies.markdown_copy(archive, archive.get("payments/adr/1"))
    assert f'"location": "{origin.url}"' in copy.split("---")[1]


def test_the_search_command_sees_source_records(tmp_path, origin):
    root = make_archive(tmp_path / "site", f"- {{repo: {origin.url}, dir: docs/decisions}}")

    result = run_cli("search", "--project", "payments", "--json", "--root", str(root))

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["total"] == 2


def test_check_reports_source_problems_at_the_files_that_hold_them(tmp_path, origin):
    origin.write("docs/decisions/payments/adr/0002-retry-webhooks.md",
                 record_text("Retry webhooks", status="acepted"))
    origin.commit()
    root = make_archive(tmp_path / "site", f"""
        - path: shared
        - {{repo: {origin.url}, dir: docs/decisions, name: payments}}
        """)
    shared = root / "shared" / "platform" / "adr" / "0001-python.md"
    shared.parent.mkdir(parents=True)
    shared.write_text(record_text("Python").replace("description: Python.\n", ""), "utf-8")

    result = run_cli("check", "--root", str(root), cwd=root)

    assert result.returncode == 1
    assert result.stderr.splitlines() == [  # findings go to stderr
        ".site-builder/sources/payments/docs/decisions/payments/adr/0002-retry-webhooks.md:3: "
        "error: unknown status 'acepted' (one of accepted, deprecated, implemented, proposed, "
        "rejected, superseded)",
        "shared/platform/adr/0001-python.md:1: warning: missing 'description': add a one-line "
        "summary",
        "1 error, 1 warning in 2 files (4 records read)",
    ]


def test_links_between_source_records_are_checked_like_local_ones(tmp_path, origin):
    origin.write("docs/decisions/payments/adr/0003-links.md", record_text(
        "Links", extra="related: [payments/adr/0009]\n")
        + "\nSee [stripe](0001-use-stripe.md) and [gone](0007-gone.md).\n")
    origin.commit()
    root = make_archive(tmp_path / "site", f"- {{repo: {origin.url}, dir: docs/decisions}}")

    messages = [(f.level, f.message) for f in load_archive(root).findings]

    assert ("error", "'related' refers to a missing record: payments/adr/0009") in messages
    assert ("error", "link to a missing record: 0007-gone.md") in messages
    assert not [m for m in messages if "0001-use-stripe" in m[1]]


def test_edit_links_point_at_the_repository_that_holds_the_file(tmp_path, origin):
    root = make_archive(tmp_path / "site", f"""
        - repo: {origin.url}
          dir: docs/decisions
          edit_url: https://git.example.org/payments/edit/main/docs/decisions/{{path}}
        - path: shared
        - path: ../outside
        """, extra="edit_url: https://git.example.org/site/edit/main/{path}\n")
    for folder, project in ((root / "shared", "platform"), (tmp_path / "outside", "ops")):
        record = folder / project / "adr" / "0001-a-rule.md"
        record.parent.mkdir(parents=True)
        record.write_text(record_text("A rule"), encoding="utf-8")
    archive = load_archive(root)
    site = archive.config.edit_url

    assert archive.get("payments/adr/1").edit_url(site) == (
        "https://git.example.org/payments/edit/main/docs/decisions/"
        "payments/adr/0001-use-stripe.md")
    assert archive.get("platform/adr/1").edit_url(site) == (
        "https://git.example.org/site/edit/main/shared/platform/adr/0001-a-rule.md")
    assert archive.get("ops/adr/1").edit_url(site) is None  # outside this repository
    assert archive.get("local/adr/1").edit_url(site) == (
        "https://git.example.org/site/edit/main/content/local/adr/0001-local-choice.md")


def test_a_repo_source_without_its_own_edit_url_gets_no_edit_link(tmp_path, origin):
    root = make_archive(tmp_path / "site", f"- {{repo: {origin.url}, dir: docs/decisions}}",
                        extra="edit_url: https://git.example.org/site/edit/main/{path}\n")
    archive = load_archive(root)

    assert archive.get("payments/adr/1").edit_url(archive.config.edit_url) is None


def _edit_link(page: Path) -> str | None:
    """The href of a built page's "Edit this page" link, or None without one."""
    found = re.search(r'<a href="([^"]*)" rel="nofollow">Edit this page</a>', page.read_text())
    return html.unescape(found.group(1)) if found else None


def test_record_pages_link_to_the_file_in_the_repository_that_holds_it(tmp_path, origin):
    root = make_archive(tmp_path / "site", f"""
        - repo: {origin.url}
          dir: docs/decisions
        - path: shared
          edit_url: https://git.example.org/site/edit/main/shared/{{path}}
        - path: inside
        """, extra="edit_url: https://git.example.org/site/edit/main/{path}\n")
    for folder, project in ((root / "shared", "platform"), (root / "inside", "ops")):
        record = folder / project / "adr" / "0001-a-rule.md"
        record.parent.mkdir(parents=True)
        record.write_text(record_text("A rule"), encoding="utf-8")

    built = run_cli("build", cwd=root)
    assert built.returncode == 0, built.stderr
    site = root / "_site"

    # The source's own template names the file below the source folder, once.
    assert _edit_link(site / "platform/adr/0001-a-rule/index.html") == (
        "https://git.example.org/site/edit/main/shared/platform/adr/0001-a-rule.md")
    # A path: source inside the archive's repository is edited through site.yml's template.
    assert _edit_link(site / "ops/adr/0001-a-rule/index.html") == (
        "https://git.example.org/site/edit/main/inside/ops/adr/0001-a-rule.md")
    # A repo: source without a template of its own has no edit link: never the cache folder.
    assert _edit_link(site / "payments/adr/0001-use-stripe/index.html") is None
    assert _edit_link(site / "local/adr/0001-local-choice/index.html") == (
        "https://git.example.org/site/edit/main/content/local/adr/0001-local-choice.md")
