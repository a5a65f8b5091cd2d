"""`site-builder sources update`: fetch every repo: source again and say what changed."""

from __future__ import annotations

import shutil

from site_builder.archive.loader import LoaderCache
from site_builder.sources.load import load_archive
from tests.conftest import run_cli
from tests.sources.conftest import make_archive, record_text


def _update(root):
    return run_cli("sources", "update", "--root", str(root))


def test_update_picks_up_a_new_commit_and_lists_the_records_that_changed(tmp_path, origin):
    origin.write("docs/decisions/payments/adr/0004-stays.md", record_text("Stays"))
    old = origin.commit()
    root = make_archive(tmp_path / "site", f"""
        - repo: {origin.url}
          ref: main
          dir: docs/decisions
          name: payments
        """)
    cache = LoaderCache()  # as in a running `serve` or `mcp`
    assert load_archive(root, cache).get("payments/adr/2").source.commit == old
    origin.remove("docs/decisions/payments/adr/0001-use-stripe.md")
    origin.write("docs/decisions/payments/adr/0003-use-adyen.md", record_text("Use Adyen"))
    origin.write("docs/decisions/payments/adr/0002-retry-webhooks.md",
                 record_text("Retry webhooks twice", date="2026-03-05"))
    origin.write("README.md", "Not a record: not reported.\n")
    new = origin.commit("switch provider")

    result = _update(root)

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"source 'payments' ({origin.url}@main): {old[:12]} → {new[:12]}: "
        "1 record added, 1 removed, 1 changed",
        "  + payments/adr/0003-use-adyen",
        "  - payments/adr/0001-use-stripe",
        "  ~ payments/adr/0002-retry-webhooks",
    ]
    archive = load_archive(root, cache)
    assert sorted(r.id for r in archive.records if r.source) == [
        "payments/adr/0002-retry-webhooks", "payments/adr/0003-use-adyen",
        "payments/adr/0004-stays"]
    # Every record carries the new commit, the one whose file did not change too.
    assert {r.source.commit for r in archive.records if r.source} == {new}


def test_update_says_so_when_nothing_changed(tmp_path, origin):
    head = origin.git("rev-parse", "HEAD")
    root = make_archive(tmp_path / "site", f"- {{repo: {origin.url}, dir: docs/decisions}}")
    load_archive(root)

    result = _update(root)

    assert result.returncode == 0
    assert result.stdout == f"source {origin.url}: up to date at {head[:12]}, 2 records\n"


def test_a_first_update_fetches_sources_never_loaded(tmp_path, origin):
    root = make_archive(tmp_path / "site", f"- {{repo: {origin.url}, dir: docs/decisions}}")

    result = _update(root)

    assert result.returncode == 0
    assert "fetched" in result.stdout and "2 records" in result.stdout
    assert "  + payments/adr/0001-use-stripe" in result.stdout


def test_an_unreachable_cached_source_is_kept_with_a_warning(tmp_path, origin):
    head = origin.git("rev-parse", "HEAD")
    root = make_archive(tmp_path / "site", f"- {{repo: {origin.url}, dir: docs/decisions}}")
    load_archive(root)
    shutil.rmtree(origin.folder)

    result = _update(root)

    assert result.returncode == 1
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith(f"site-builder: warning: cannot fetch source {origin.url}: git: ")
    assert line.endswith(f"(still using the cached commit {head[:12]})")
    archive = load_archive(root)  # nothing was lost
    assert len([r for r in archive.records if r.source]) == 2
    assert not [f for f in archive.findings if f.level == "error"]


def test_an_unreachable_source_never_fetched_is_an_error(tmp_path):
    missing = (tmp_path / "nowhere").as_uri()
    root = make_archive(tmp_path / "site", f"- repo: {missing}")

    result = _update(root)

    assert result.returncode == 1
    assert result.stderr.startswith(f"site-builder: error: cannot fetch source {missing}: git: ")
    assert "does not appear to be a git repository" in result.stderr


def test_a_bad_ref_on_update_names_the_ref(tmp_path, origin):
    root = make_archive(tmp_path / "site", f"- {{repo: {origin.url}, ref: mian}}")

    result = _update(root)

    assert result.returncode == 1
    assert f"ref 'mian' does not exist in {origin.url}" in result.stderr


def test_update_without_repo_sources_has_nothing_to_do(tmp_path):
    root = make_archive(tmp_path / "site")

    result = _update(root)

    assert result.returncode == 0
    assert "nothing to fetch" in result.stderr


def test_sources_alone_is_a_usage_error(tmp_path):
    result = run_cli("sources", "--root", str(make_archive(tmp_path / "site")))
    assert result.returncode == 2
