"""The server on small focused archives, through the official MCP SDK client.

mcp-lineage has a supersede chain (0001 ← 0002 ← 0003), duplicate numbers (two records
0004 in core/adr), one slug in two projects, custom statuses (`adopted` is in force,
`discussing` is open), reviewers and affects patterns. Review dates are written at test
time, relative to today.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from pathlib import Path

from tests.mcp.client import mcp_client


def ids(records: list[dict]) -> list[str]:
    return [r["id"] for r in records]


def test_ambiguous_and_missing_ids(fixture_archive: Callable[[str], Path]):
    root = fixture_archive("mcp-lineage")
    with mcp_client("--root", str(root)) as client:
        assert client.error("get_record", id="core/adr/4") == (
            '"core/adr/4" is ambiguous: core/adr/0004-cache-in-process, '
            "core/adr/0004-cache-with-redis.")
        assert client.error("get_record", id="CORE-ADR-0004").startswith(
            '"CORE-ADR-0004" is ambiguous')
        assert client.error("get_record", id="0001-api-versioning") == (
            '"0001-api-versioning" is ambiguous: core/rfc/0001-api-versioning, '
            "ops/adr/0001-api-versioning.")
        assert client.error("get_record", id="core/adr/9") == (
            'No record matches "core/adr/9". Use search_records to find ids.')
        full = client.answer("get_record", id="core/adr/0004-cache-with-redis")
        assert full["title"] == "Cache with Redis"
        # The server answers from every record it can read and says what is wrong, once.
        logged = client.stderr
        assert "site-builder mcp: " in logged and "number 0004 is used by 2 records" in logged
        assert logged.count("number 0004 is used by 2 records in core/adr") == 2


def test_supersede_chain_and_custom_statuses(fixture_archive: Callable[[str], Path]):
    root = fixture_archive("mcp-lineage")
    with mcp_client("--root", str(root)) as client:
        first = client.answer("get_record", id="core/adr/1")
        assert first["current"] is False
        assert first["supersededBy"] == {
            "id": "core/adr/0002-move-to-postgres-16", "ref": "CORE-ADR-0002",
            "title": "Move to PostgreSQL 16", "status": "replaced"}
        assert first["currentRecord"]["id"] == "core/adr/0003-run-postgres-as-a-managed-service"
        last = client.answer("get_record", id="core/adr/3")
        assert last["current"] is True and last["currentRecord"] is None
        assert last["supersedes"][0]["id"] == "core/adr/0002-move-to-postgres-16"

        superseded = client.answer("list_superseded")
        chains = {r["id"]: ids(r["chain"]) for r in superseded["records"]}
        assert chains == {
            "core/adr/0002-move-to-postgres-16": [
                "core/adr/0003-run-postgres-as-a-managed-service"],
            "core/adr/0001-use-postgres": [
                "core/adr/0002-move-to-postgres-16",
                "core/adr/0003-run-postgres-as-a-managed-service"],
        }
        assert superseded["total"] == 2

        # `adopted` is this archive's status in force; superseded records are not current.
        in_force = client.answer("search_records", current_only=True)
        assert set(ids(in_force["records"])) == {
            "core/adr/0003-run-postgres-as-a-managed-service",
            "core/adr/0004-cache-with-redis",
            "ops/adr/0001-api-versioning"}
        assert client.answer("search_records", status="ADOPTED")["total"] == 3
        assert client.answer("search_records", field="oncall=TEAM-A")["records"][0]["id"] == (
            "ops/adr/0001-api-versioning")


def test_records_for_paths_with_affects_patterns(fixture_archive: Callable[[str], Path]):
    root = fixture_archive("mcp-lineage")
    with mcp_client("--root", str(root)) as client:
        db = client.answer("records_for_paths", paths=["db/schema.sql", "./db/migrations/1.sql"])
        assert ids(db["current"]) == ["core/adr/0003-run-postgres-as-a-managed-service"]
        assert ids(db["historical"]) == ["core/adr/0002-move-to-postgres-16",
                                         "core/adr/0001-use-postgres"]
        legacy = client.answer("records_for_paths", paths=["db/legacy/old.sql"])
        assert ids(legacy["current"]) == []  # excluded by "!db/legacy/**"
        assert len(legacy["historical"]) == 2
        # `*.tf` matches at any depth; `deploy/` matches everything below the folder.
        tf = client.answer("records_for_paths", paths=["infra/modules/net/main.tf"])
        assert ids(tf["current"]) == ["ops/adr/0001-api-versioning"]
        deploy = client.answer("records_for_paths", paths=["deploy/prod/values.yaml"])
        assert deploy["total"] == 1
        # An open proposal governs nothing yet: it is historical.
        api = client.answer("records_for_paths", paths=["api/v2/users.py"])
        assert ids(api["historical"]) == ["core/rfc/0001-api-versioning"]
        assert api["current"] == []
        paged = client.answer("records_for_paths", paths=["db/x"], limit=1, offset=1)
        assert paged["total"] == 3 and ids(paged["historical"]) == [
            "core/adr/0002-move-to-postgres-16"]


def test_rfc_reviews_and_reviewers(fixture_archive: Callable[[str], Path]):
    root = fixture_archive("mcp-lineage")
    with mcp_client("--root", str(root)) as client:
        reviews = {r["id"]: r for r in client.answer("rfc_reviews")["records"]}
        versioning = reviews["core/rfc/0001-api-versioning"]
        assert versioning["reviewers"] == {"ana": "approved", "bo": "pending",
                                           "cy": "changes-requested"}
        assert versioning["rfcReview"] == {"status": "changes-requested", "approved": 1,
                                           "required": 3, "waitingOn": ["bo"]}
        cron = reviews["ops/rfc/0001-retire-cron"]
        assert cron["rfcReview"] == {"status": "approved", "approved": 1, "required": 1,
                                     "waitingOn": ["bo"]}
        assert set(ids(client.answer("rfc_reviews", reviewer="@BO")["records"])) == set(reviews)
        assert client.answer("rfc_reviews", reviewer="ana")["records"] == []


def test_due_reviews_relative_to_today(reviews_archive: tuple[Path, dt.date]):
    root, today = reviews_archive
    with mcp_client("--root", str(root)) as client:
        due = client.answer("due_reviews")
        assert ids(due["records"]) == ["ops/adr/0002-rotate-keys", "ops/adr/0003-patch-monthly"]
        overdue, soon = due["records"]
        assert overdue["overdue"] is True and overdue["daysLeft"] < 0
        assert overdue["review"]["every"] == "6 months"
        assert soon["overdue"] is False and soon["daysLeft"] == 10
        assert soon["review"]["due"] == (today + dt.timedelta(days=10)).isoformat()
        assert ids(client.answer("due_reviews", within=5)["records"]) == [
            "ops/adr/0002-rotate-keys"]
        # all: every scheduled decided record; the open one is never listed.
        scheduled = ids(client.answer("due_reviews", all=True)["records"])
        assert scheduled == ["ops/adr/0002-rotate-keys", "ops/adr/0003-patch-monthly",
                             "ops/adr/0004-yearly-dr-drill"]
        assert "within must be from 0 to 36500" in client.error("due_reviews", within=-1)


def test_an_edit_on_disk_is_seen_by_the_next_call(fixture_archive: Callable[[str], Path]):
    root = fixture_archive("mcp-lineage")
    record = root / "content" / "core" / "adr" / "0003-run-postgres-as-a-managed-service.md"
    with mcp_client("--root", str(root)) as client:
        assert client.answer("get_record", id="core/adr/3")["status"] == "adopted"
        text = record.read_text(encoding="utf-8")
        record.write_text(text.replace("status: adopted", "status: dropped"), encoding="utf-8")
        assert client.answer("get_record", id="core/adr/3")["status"] == "dropped"
        assert client.answer("search_records", query="zebra")["total"] == 1

        added = root / "content" / "core" / "adr" / "0005-new-decision.md"
        added.write_text("---\ntitle: Brand new\nstatus: adopted\ndate: 2026-05-05\n"
                         "description: Just written.\n---\n\nA zebra again.\n",
                         encoding="utf-8")
        assert client.answer("search_records", query="zebra")["total"] == 2
        project = root / "content" / "newproject" / "adr"
        project.mkdir(parents=True)
        (project / "0001-first.md").write_text(
            "---\ntitle: First of its kind\nstatus: adopted\ndate: 2026-06-06\n"
            "description: In a folder made after the server started.\n---\n\nzebra\n",
            encoding="utf-8")
        assert client.answer("search_records", query="zebra")["total"] == 3
        os.remove(added)
        assert client.answer("search_records", query="zebra")["total"] == 2
        assert client.error("get_record", id="core/adr/5").startswith("No record matches")


def test_drafts_are_never_served(fixture_archive: Callable[[str], Path]):
    root = fixture_archive("mcp-lineage")
    draft = root / "content" / "core" / "adr" / "0006-secret-plan.md"
    draft.write_text("---\ntitle: Secret plan\nstatus: adopted\ndate: 2026-01-01\n"
                     "description: Not yet.\ndraft: true\n---\n\nhidden\n", encoding="utf-8")
    with mcp_client("--root", str(root)) as client:
        assert client.error("get_record", id="core/adr/6").startswith("No record matches")
        assert client.answer("search_records", query="secret")["total"] == 0
        assert all("secret" not in str(r.uri) for r in client.list_resources().resources)
