"""docs/site-yml.md is made from the one declaration the parser uses (tests/site_yml.py)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import yaml

from site_builder.authoring.scaffold import scaffold_files
from site_builder.config import keys as config_keys
from site_builder.config import site as site_config
from site_builder.config.site import load_config
from site_builder.sources.load import load_archive
from tests import site_yml

README = site_yml.REPO / "README.md"


def test_the_reference_is_what_the_declaration_says():
    assert site_yml.PAGE.read_text(encoding="utf-8") == site_yml.page(), (
        "docs/site-yml.md is out of date: run `.venv/bin/python -m tests.site_yml --write`")


def test_the_check_fails_when_a_key_is_added_without_regenerating():
    extra = config_keys.Key("theme", "string", "plain", "A new key.", "dark")
    table = config_keys.Table("site.yml", "the root", (*site_config.SITE.keys, extra))
    assert "| `theme` |" in site_yml.table(table)
    assert "| `theme` |" not in site_yml.PAGE.read_text(encoding="utf-8")


def test_every_key_the_parser_accepts_is_documented(tmp_path: Path):
    page = site_yml.PAGE.read_text(encoding="utf-8")
    for section in site_config.TABLES:
        for key in section.keys:
            assert f"| `{key.name}` |" in page
    # A key the declaration does not hold is refused, and the message names the near one.
    (tmp_path / "site.yml").write_text("title: T\nstatic_dir: files\n")
    _, findings = load_config(tmp_path)
    assert [f.message for f in findings] == [
        "unknown key 'static_dir' in site.yml (did you mean 'static'?)"]


def test_defaults_come_from_the_declaration(tmp_path: Path):
    (tmp_path / "site.yml").write_text("title: T\n")
    config, findings = load_config(tmp_path)
    assert findings == []
    for name in ("description", "base", "content", "output", "static"):
        assert getattr(config, name) == site_config.SITE.default(name)


def test_every_example_is_accepted_by_the_parser(tmp_path: Path):
    """Each example value, put in a site.yml (or an entry of its list), checks clean."""
    (tmp_path / "content" / "p" / "adr").mkdir(parents=True)
    (tmp_path / "shared").mkdir()
    values = {key.name: yaml.safe_load(key.example) for key in site_config.SITE.keys
              if key.name not in ("content", "sources", "static", "markdown")}
    values["statuses"] = [{k.name: yaml.safe_load(k.example) for k in config_keys.STATUS.keys}]
    values["fields"] = [{k.name: yaml.safe_load(k.example) for k in config_keys.FIELD.keys}]
    values["review"] = {k.name: yaml.safe_load(k.example) for k in config_keys.REVIEW.keys}
    values["sources"] = [{"path": "shared", "edit_url": "https://x.test/{path}"}]
    (tmp_path / "site.yml").write_text(yaml.safe_dump(values))
    config, findings = load_config(tmp_path)
    assert findings == [], findings
    assert config is not None and config.url == "https://decisions.acme.dev"
    (tmp_path / "content" / "p" / "_project.yml").write_text(yaml.safe_dump(
        {k.name: yaml.safe_load(k.example) for k in config_keys.PROJECT.keys}))
    archive = load_archive(tmp_path)
    assert [f.message for f in archive.findings if "_project" in str(f.path)] == []


def test_the_readme_and_the_scaffold_link_to_the_reference():
    assert re.search(r"\]\(docs/site-yml\.md\)", README.read_text(encoding="utf-8"))
    site = scaffold_files("d", dt.date(2026, 1, 1))["site.yml"]
    assert "docs/site-yml.md" in site.splitlines()[0]


def test_loading_reads_every_key_of_the_table_through_its_own_parser(tmp_path: Path):
    # A key added to the table with a parser reaches SiteConfig with no other change to
    # the loader: loading is a loop over the table.
    seen = []

    def spy(data, checker, key):
        seen.append(key.name)
        return data.get(key.name, key.default)

    spied = tuple(site_config.Key(**{**{f: getattr(k, f) for f in k.__slots__}, "parse": spy})
                  if k.name == "description" else k for k in site_config.SITE.keys)
    original = site_config.SITE
    try:
        site_config.SITE = site_config.Table(original.title, original.where, spied)
        (tmp_path / "site.yml").write_text("title: T\ndescription: D\n")
        config, findings = load_config(tmp_path)
    finally:
        site_config.SITE = original
    assert findings == [] and seen == ["description"] and config.description == "D"
