"""site.yml: every key with its default, frozen values, problems at their line."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from site_builder.config.site import (
    DEFAULT_STATUSES,
    FieldDef,
    SiteConfig,
    SourceSpec,
    Status,
    load_config,
)
from site_builder.config.values import CitationsSpec


def config_of(tmp_path: Path, text: str) -> tuple[SiteConfig | None, list[tuple[int, str]]]:
    (tmp_path / "site.yml").write_text(text, encoding="utf-8")
    config, findings = load_config(tmp_path)
    assert all(f.path == tmp_path.resolve() / "site.yml" and f.level == "error"
               for f in findings)
    return config, [(f.line, f.message) for f in findings]


def test_defaults_of_every_key(tmp_path: Path) -> None:
    config, problems = config_of(tmp_path, "title: Acme decisions\n")
    assert problems == []
    assert config == SiteConfig(
        root=tmp_path.resolve(), title="Acme decisions", description="", url=None, base="/",
        content="content", output="_site", edit_url=None, statuses=DEFAULT_STATUSES,
        fields=(), required_approvals=None, sources=())
    assert [(s.name, s.open, s.current) for s in config.statuses] == [
        ("proposed", True, False), ("accepted", False, True), ("implemented", False, True),
        ("rejected", False, False), ("deprecated", False, False), ("superseded", False, False)]
    assert config.current_statuses == {"accepted", "implemented"}
    assert config.open_statuses == {"proposed"}
    assert config.content_dir == tmp_path.resolve() / "content"
    assert config.output_dir == tmp_path.resolve() / "_site"
    assert config.cache_dir == tmp_path.resolve() / ".site-builder"


SPEC_EXAMPLE = """\
title: Acme decisions                 # required
description: How Acme builds things   # one line
url: https://decisions.acme.dev/
base: decisions
content: records
output: public
edit_url: https://github.com/acme/decisions/edit/main/{path}
statuses:
  - {name: proposed, open: true}
  - {name: accepted, current: true, label: Accepted, description: In force}
  - rejected
fields:
  - {name: risk, label: Risk, type: enum, values: [low, medium, high], description: Blast radius}
  - {name: cost, label: Monthly cost, type: number, unit: EUR}
  - {name: since, type: date, required: true}
review: {required_approvals: 2}
sources:
  - path: ../platform/decisions
  - repo: https://github.com/acme/payments.git
    ref: main
    dir: docs/decisions
"""


def test_every_key_as_written(tmp_path: Path) -> None:
    config, problems = config_of(tmp_path, SPEC_EXAMPLE)
    assert problems == []
    assert (config.title, config.description, config.url, config.base) == (
        "Acme decisions", "How Acme builds things", "https://decisions.acme.dev", "/decisions/")
    assert (config.content, config.output) == ("records", "public")
    assert config.edit_url == "https://github.com/acme/decisions/edit/main/{path}"
    assert config.statuses == (
        Status("proposed", open=True),
        Status("accepted", current=True, label="Accepted", description="In force"),
        Status("rejected"))
    assert config.fields == (
        FieldDef("risk", "enum", "Risk", ("low", "medium", "high"), None, "Blast radius"),
        FieldDef("cost", "number", "Monthly cost", (), "EUR"),
        FieldDef("since", "date", required=True))
    assert config.required_approvals == 2
    assert config.sources == (
        SourceSpec(path="../platform/decisions", line=18),
        SourceSpec(repo="https://github.com/acme/payments.git", ref="main",
                   dir="docs/decisions", line=19))


def test_citations_are_on_unless_turned_off(tmp_path: Path) -> None:
    assert config_of(tmp_path, "title: T\n")[0].citations == CitationsSpec()
    assert config_of(tmp_path, "title: T\ncitations: false\n")[0].citations is None
    narrowed = config_of(tmp_path, "title: T\ncitations:\n  include: src/**\n")[0].citations
    assert narrowed == CitationsSpec(include=("src/**",), line=2)


def test_the_config_is_frozen(tmp_path: Path) -> None:
    config, _ = config_of(tmp_path, SPEC_EXAMPLE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.title = "Other"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.statuses[0].open = False  # type: ignore[misc]


def test_published_forms_fill_in_defaults() -> None:
    assert Status("under-review", open=True).to_json() == {
        "name": "under-review", "open": True, "current": False, "label": "Under-review",
        "description": ""}
    assert FieldDef("monthly_cost", type="number").to_json() == {
        "name": "monthly_cost", "label": "Monthly cost", "type": "number", "values": [],
        "unit": None, "description": "", "required": False}


@pytest.mark.parametrize(("base", "normalised"), [
    ("/", "/"), ("", "/"), ("decisions", "/decisions/"), ("/decisions", "/decisions/"),
    ("/a/b/", "/a/b/"),
])
def test_base_is_normalised(tmp_path: Path, base: str, normalised: str) -> None:
    config, _ = config_of(tmp_path, f"title: T\nbase: '{base}'\n")
    assert config.base == normalised


@pytest.mark.parametrize(("text", "problems"), [
    ("title: T\ntitel: typo\n", [(2, "unknown key 'titel' in site.yml (did you mean 'title'?)")]),
    ("description: no title\n", [(1, "'title' is required in site.yml")]),
    ("", [(1, "'title' is required in site.yml")]),
    ("title: [a]\n", [(1, "'title' must be a string, not ['a']")]),
    ("title: T\nurl: decisions.acme.dev\n", [(2, "'url' must start with http:// or https://")]),
    ("title: T\nstatuses: []\n", [(2, "'statuses' must be a non-empty list")]),
    ("title: T\nstatuses:\n  - {name: a, open: yes}\n  - {label: B}\n",
     [(4, "every entry of 'statuses' needs a 'name'")]),
    ("title: T\nstatuses:\n  - name: a\n    colour: red\n",
     [(4, "unknown key 'colour' in status 'a'")]),
    ("title: T\nstatuses:\n  - a\n  - b\n  - a\n", [(5, "status 'a' is listed twice")]),
    ("title: T\nfields:\n  - {name: risk, type: enum}\n",
     [(3, "enum field 'risk' needs a list of 'values'")]),
    ("title: T\nfields:\n  - {name: risk, type: enum, values: []}\n",
     [(3, "enum field 'risk' needs a list of 'values'")]),
    ("title: T\nfields:\n  - {name: a, type: text}\n",
     [(3, "field 'a' has unknown type 'text' (one of string, number, boolean, date, enum, "
           "list)")]),
    ("title: T\nfields:\n  - {name: a}\n  - {name: a, type: number}\n",
     [(4, "field 'a' is declared twice")]),
    ("title: T\nfields:\n  - {name: tags}\n",
     [(3, "field 'tags' has the name of a built-in front-matter key")]),
    ("title: T\nfields:\n  - {name: a, required: sometimes}\n",
     [(3, "'required' must be true or false, not 'sometimes'")]),
    ("title: T\nfields:\n  - name: a\n    unit: m\n    lable: A\n",
     [(5, "unknown key 'lable' in field 'a' (did you mean 'label'?)")]),
    ("title: T\nfields: {risk: enum}\n", [(2, "'fields' must be a list")]),
    ("title: T\nfields: []\n", []),
    ("title: T\nreview: 2\n", [(2, "'review' must be a mapping such as {required_approvals: 2}")]),
    ("title: T\nreview:\n  required_approvals: true\n",
     [(3, "'review.required_approvals' must be a whole number")]),
    ("title: T\nreview: {approvals: 2}\n",
     [(2, "unknown key 'approvals' in 'review' (did you mean 'required_approvals'?)")]),
    ("title: T\nsources:\n  - {path: a, repo: b}\n",
     [(3, "every source needs exactly one of 'path' or 'repo'")]),
    ("title: T\ncitations: 3\n", [(2, "'citations' must be true, false or a mapping such as "
                                    "{exclude: [\"tests/**\"]}")]),
    ("title: T\ncitations:\n  includ: [src]\n",
     [(3, "unknown key 'includ' in 'citations' (did you mean 'include'?)")]),
    ("title: T\ncitations: {exclude: 3}\n",
     [(2, "'citations.exclude' must be a list of globs such as [\"src/**\"]")]),
    ("title: T\ncitations: false\n", []),
    ("- a list\n", [(1, "site.yml must be a mapping of keys to values")]),
    ("title: T\n  bad: indent\n",
     [(2, "invalid YAML: mapping values are not allowed in this context")]),
])
def test_bad_config_is_a_finding_at_its_line(tmp_path: Path, text: str, problems) -> None:
    assert config_of(tmp_path, text)[1] == problems


def test_unusable_yaml_gives_no_config(tmp_path: Path) -> None:
    config, problems = config_of(tmp_path, "title: [unclosed\n")
    assert config is None
    assert problems == [
        (1, "invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence)")]


def test_a_config_with_errors_is_still_returned_so_check_can_go_on(tmp_path: Path) -> None:
    config, problems = config_of(tmp_path, "title: T\ncolour: red\n")
    assert config is not None and config.title == "T"
    assert problems == [(2, "unknown key 'colour' in site.yml")]


def test_no_site_yml(tmp_path: Path) -> None:
    config, findings = load_config(tmp_path)
    assert config is None
    assert [(f.path.name, f.line, f.message) for f in findings] == [
        ("site.yml", 1, f"no site.yml in {tmp_path.resolve()} "
                        "(run 'site-builder init' to create one)")]
