"""`repo:` sources: cloned on first load, then read from the cache without the network."""

from __future__ import annotations

import shutil
from pathlib import Path

from site_builder.archive.loader import LoaderCache
from site_builder.authoring.scaffold import init_archive
from site_builder.sources.checkouts import checkout_folder
from site_builder.sources.load import load_archive
from tests.sources.conftest import Origin, make_archive, record_text


def _errors(archive) -> list[str]:
    return [f"{f.path.name}:{f.line}: {f.message}" for f in archive.findings if f.level == "error"]


def test_first_load_clones_the_repo_and_records_carry_their_source(tmp_path, origin):
    head = origin.git("rev-parse", "HEAD")
    root = make_archive(tmp_path / "site", f"""
        - repo: {origin.url}
          ref: main
          dir: docs/decisions
        """)

    archive = load_archive(root)

    assert _errors(archive) == []
    assert sorted(archive.by_id) == ["local/adr/0001-local-choice",
                                     "payments/adr/0001-use-stripe",
                                     "payments/adr/0002-retry-webhooks"]
    assert archive.projects["payments"].name == "Payments"
    record = archive.get("PAYMENTS-ADR-0001")
    assert record.source is not None
    assert record.source.to_json() == {"location": origin.url, "ref": "main", "commit": head}
    assert record.path.is_relative_to(root / ".site-builder" / "sources")
    assert archive.get("local/adr/1").source is None


def test_cached_source_loads_silently_when_the_origin_is_gone(tmp_path, origin):
    root = make_archive(tmp_path / "site", f"- {{repo: {origin.url}, dir: docs/decisions}}")
    first = load_archive(root)
    commit = first.get("payments/adr/1").source.commit
    shutil.rmtree(origin.folder)  # no network, no origin: only the cache is left

    again = load_archive(root)

    assert _errors(again) == []
    assert not [f for f in again.findings if "source" in f.message]
    assert again.get("payments/adr/1").source.commit == commit
    assert len(again.records) == 3


def test_a_cached_source_is_not_refetched_by_a_plain_load(tmp_path, origin):
    root = make_archive(tmp_path / "site", f"- {{repo: {origin.url}, dir: docs/decisions}}")
    load_archive(root)
    origin.write("docs/decisions/payments/adr/0003-new.md", record_text("New"))
    origin.commit()

    assert "payments/adr/0003-new" not in load_archive(root).by_id


def test_a_bad_ref_is_an_error_naming_the_ref(tmp_path, origin):
    root = make_archive(tmp_path / "site", f"""
        - repo: {origin.url}
          ref: no-such-branch
          dir: docs/decisions
        """)

    archive = load_archive(root)

    [problem] = [f for f in archive.findings if f.level == "error"]
    assert problem.path == root / "site.yml" and problem.line == 3
    assert "ref 'no-such-branch' does not exist" in problem.message
    assert origin.url in problem.message
    assert "couldn't find remote ref no-such-branch" in problem.message  # git's own words
    assert sorted(archive.by_id) == ["local/adr/0001-local-choice"]


def test_a_never_fetched_unreachable_repo_is_an_error_with_gits_message(tmp_path):
    missing = (tmp_path / "gone").as_uri()
    root = make_archive(tmp_path / "site", f"- repo: {missing}")

    archive = load_archive(root)

    [problem] = [f for f in archive.findings if f.level == "error"]
    assert problem.line == 3
    assert problem.message.startswith(f"cannot fetch source {missing}: git: ")
    assert "does not appear to be a git repository" in problem.message
    assert not (root / ".site-builder" / "sources").exists() or not any(
        p for p in (root / ".site-builder" / "sources").iterdir())  # no half clone left
    assert [r.id for r in archive.records] == ["local/adr/0001-local-choice"]


def test_credentials_in_a_repo_url_never_reach_messages(tmp_path):
    # Port 9 on loopback refuses at once: a quick, local fetch failure.
    root = make_archive(tmp_path / "site", "- repo: http://deploy:s3cret@127.0.0.1:9/x.git")

    [problem] = [f for f in load_archive(root).findings if f.level == "error"]

    assert "s3cret" not in problem.message
    assert "http://127.0.0.1:9/x.git" in problem.message


def test_a_long_lived_process_does_not_retry_a_failed_clone(tmp_path):
    later = tmp_path / "later-origin"
    root = make_archive(tmp_path / "site", f"- repo: {later.as_uri()}")
    cache = LoaderCache()
    assert _errors(load_archive(root, cache))

    repo = Origin(later)  # the repository appears after the first attempt
    repo.write("ops/adr/0001-on-call.md", record_text("On call"))
    repo.commit()

    assert _errors(load_archive(root, cache)), "the same process remembers the failure"
    fresh = load_archive(root)  # a new process (or `sources update`) tries again
    assert _errors(fresh) == [] and "ops/adr/0001-on-call" in fresh.by_id


def test_a_dir_the_repo_lacks_is_an_error_naming_it(tmp_path, origin):
    root = make_archive(tmp_path / "site", f"- {{repo: {origin.url}, dir: decisions}}")

    [problem] = [f for f in load_archive(root).findings if f.level == "error"]

    assert "has no folder 'decisions'" in problem.message
    assert origin.url in problem.message


def test_tags_and_commits_work_as_refs(tmp_path, origin):
    first = origin.git("rev-parse", "HEAD")
    origin.git("tag", "v1")
    origin.write("docs/decisions/payments/adr/0003-later.md", record_text("Later"))
    origin.commit()
    root = make_archive(tmp_path / "site", f"""
        - {{repo: {origin.url}, ref: v1, dir: docs/decisions}}
        """)

    by_tag = load_archive(root)
    assert by_tag.get("payments/adr/1").source.commit == first
    assert "payments/adr/0003-later" not in by_tag.by_id

    make_archive(root, f"- {{repo: {origin.url}, ref: {first}, dir: docs/decisions}}")
    assert load_archive(root).get("payments/adr/1").source.commit == first


def test_changing_the_ref_fetches_again_into_the_named_folder(tmp_path, origin):
    first = origin.git("rev-parse", "HEAD")
    origin.git("tag", "v1")
    origin.write("docs/decisions/payments/adr/0003-later.md", record_text("Later"))
    second = origin.commit()
    spec = "- {{repo: {url}, ref: {ref}, dir: docs/decisions, name: payments}}"
    root = make_archive(tmp_path / "site", spec.format(url=origin.url, ref="v1"))
    assert load_archive(root).get("payments/adr/1").source.commit == first

    make_archive(root, spec.format(url=origin.url, ref="main"))
    archive = load_archive(root)

    assert archive.get("payments/adr/1").source.commit == second
    assert "payments/adr/0003-later" in archive.by_id
    folder = checkout_folder(archive.config, archive.config.sources[0])
    assert folder == root / ".site-builder" / "sources" / "payments"


def test_deleting_the_cache_gives_a_fresh_clone(tmp_path, origin):
    root = make_archive(tmp_path / "site", f"- {{repo: {origin.url}, dir: docs/decisions}}")
    load_archive(root)
    shutil.rmtree(root / ".site-builder")

    archive = load_archive(root)

    assert _errors(archive) == [] and len(archive.records) == 3


def test_a_relative_repo_path_is_taken_from_the_archive_root(tmp_path, origin):
    root = make_archive(tmp_path / "site", "- {repo: ../payments-origin, dir: docs/decisions}")

    archive = load_archive(root)

    assert _errors(archive) == []
    assert archive.get("payments/adr/1").source.location == "../payments-origin"
    assert Path(root / "../payments-origin").resolve() == origin.folder.resolve()


def test_a_new_archive_keeps_the_source_cache_out_of_git(tmp_path):
    init_archive(tmp_path / "new")

    assert ".site-builder/" in (tmp_path / "new" / ".gitignore").read_text().splitlines()
