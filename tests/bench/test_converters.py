"""The bench's Hugo and MkDocs sites: the same five records, in a structure each tool accepts."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from bench import hugo_site, measure, mkdocs_site
from bench.corpus import Corpus, edit_record, pristine, working_copy


@pytest.fixture(scope="module")
def five(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return pristine(tmp_path_factory.mktemp("work"), 5)


def _front_matter(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n"), path
    block = text[4:text.index("\n---\n", 4)]
    return yaml.safe_load(block)


def test_the_corpus_is_written_once_and_reused(five: Corpus, tmp_path: Path):
    assert len(five.record_files()) == 5
    again = pristine(five.root.parent, 5)
    assert again.root == five.root
    copy = working_copy(five, tmp_path / "copy")
    edited = copy.record_files()[0]
    edit_record(edited, "marker-1")
    assert "Benchmark edit marker-1." in edited.read_text(encoding="utf-8")
    assert "marker-1" not in (five.root / edited.relative_to(copy.root)).read_text()


def test_hugo_site_has_config_layouts_sections_and_every_record(five: Corpus, tmp_path: Path):
    site = hugo_site.write_site(five, tmp_path / "hugo")
    config = tomllib.loads((site / "config.toml").read_text(encoding="utf-8"))
    assert config["title"] == five.site_title()
    assert config["taxonomies"] == {"tag": "tags"}
    for layout in ("_default/baseof.html", "_default/single.html", "_default/list.html",
                   "index.html"):
        assert (site / "layouts" / layout).is_file()
    for record in five.record_files():
        page = site / "content" / record.relative_to(five.content)
        meta = _front_matter(page)
        assert meta["title"] and meta["date"]
        assert (page.parent / "_index.md").is_file()  # the type section
        assert (page.parent.parent / "_index.md").is_file()  # the project section
    project_index = _front_matter(site / "content" / "payments" / "_index.md")
    assert project_index["title"] == "Payments"
    assert not list((site / "content").rglob("_project.yml"))


def test_hugo_command_builds_into_the_given_folder(tmp_path: Path):
    command = hugo_site.build_command("hugo", tmp_path / "site", tmp_path / "out")
    assert command[:2] == ["hugo", "--quiet"]
    assert command[command.index("--destination") + 1] == str(tmp_path / "out")


def test_mkdocs_site_has_a_config_with_auto_nav_and_every_record(five: Corpus, tmp_path: Path):
    site = mkdocs_site.write_site(five, tmp_path / "mkdocs")
    config = yaml.safe_load((site / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config == {"site_name": five.site_title(), "theme": {"name": "mkdocs"},
                      "docs_dir": "docs"}
    docs = site / "docs"
    assert (docs / "index.md").read_text(encoding="utf-8").startswith("# ")
    for record in five.record_files():
        copy = docs / record.relative_to(five.content)
        assert copy.read_bytes() == record.read_bytes()
    for project, meta in five.projects():
        assert (docs / project / "index.md").read_text().startswith(f"# {meta['name']}")


def test_measure_charges_a_build_for_every_process_it_starts():
    # The child starts two grandchildren holding ~60 MB each: the tree's peak counts both.
    script = (
        "import subprocess, sys\n"
        "hold = 'x = bytearray(60_000_000); x[::4096] = b\"1\" * len(x[::4096]); "
        "import time; time.sleep(1.0)'\n"
        "kids = [subprocess.Popen([sys.executable, '-c', hold]) for _ in range(2)]\n"
        "[k.wait() for k in kids]\n")
    outcome = measure.run([sys.executable, "-c", script])
    assert outcome.ok
    assert outcome.peak_rss > 120_000_000


def test_measure_stops_a_command_at_its_limit():
    outcome = measure.run([sys.executable, "-c", "import time; time.sleep(60)"], limit=0.5)
    assert outcome.timed_out
    assert outcome.seconds == 0.5
    with pytest.raises(measure.CommandFailed, match="exited with 3"):
        measure.checked(measure.run([sys.executable, "-c", "raise SystemExit(3)"]), "x")
