"""example-site reads its platform decisions from a path: source, and stays clean."""

from __future__ import annotations

from site_builder.sources.load import load_archive
from tests.conftest import run_cli


def test_the_platform_project_comes_from_the_shared_decisions_folder(example_root):
    archive = load_archive(example_root)

    platform = [r for r in archive.records if r.project == "platform"]
    assert len(platform) == 2
    assert {r.source.to_json()["location"] for r in platform} == {"shared-decisions"}
    assert all(r.rel_path.startswith("shared-decisions/platform/adr/") for r in platform)
    assert archive.get("platform/adr/1").edit_url(archive.config.edit_url) == (
        "https://github.com/site-builder/site-builder/edit/main/example-site/shared-decisions/"
        "platform/adr/0001-require-python-3-11.md")


def test_example_site_checks_clean_with_its_source(example_root):
    result = run_cli("check", "--strict", "--root", str(example_root))
    assert result.returncode == 0, result.stdout + result.stderr
    assert (result.stdout, result.stderr) == ("", "")
