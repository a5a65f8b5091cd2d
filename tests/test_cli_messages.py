"""What the commands say to people: not found, nothing found, placeholders, counts, units."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.render.pages.views import unit_for
from tests.conftest import EXAMPLE_SITE, run_cli


def test_show_of_a_missing_record_exits_1_with_a_command_to_find_it():
    result = run_cli("show", "sre/adr/9", "--root", str(EXAMPLE_SITE))
    assert result.returncode == 1
    assert result.stderr == ('site-builder: No record matches "sre/adr/9". Find records with: '
                             "site-builder search WORDS (or --tag, --status, --project)\n")
    assert "search_records" not in result.stderr  # that is the MCP tool, not a command


def test_a_search_that_finds_nothing_says_so_and_how_to_widen_it():
    result = run_cli("search", "cahce", "--status", "proposed", "--root", str(EXAMPLE_SITE))
    assert result.returncode == 0
    assert result.stdout == ""
    assert result.stderr == ('No records match "cahce" and status=proposed; try fewer words '
                             "or filters, or list everything with: site-builder search\n")
    past = run_cli("search", "--offset", "5000", "--root", str(EXAMPLE_SITE))
    assert past.stdout == "" and "none from --offset 5000 on" in past.stderr


def test_unchanged_template_text_is_a_warning_and_refused_under_strict(tmp_path: Path):
    assert run_cli("init", str(tmp_path / "a")).returncode == 0
    root = tmp_path / "a"
    project = next(p.name for p in (root / "content").iterdir() if p.is_dir())
    made = run_cli("new", project, "adr", "Try it", "--root", str(root))
    assert made.returncode == 0, made.stderr
    relaxed = run_cli("check", cwd=root)
    assert relaxed.returncode == 0
    warnings = [line for line in relaxed.stderr.splitlines() if ": warning: " in line]
    assert [line.split(":")[1] for line in warnings] == ["5", "13", "23"]
    assert "template's placeholder" in warnings[0]
    assert relaxed.stderr.splitlines()[-1] == "0 errors, 3 warnings in 1 file (2 records read)"
    assert run_cli("check", "--strict", cwd=root).returncode == 1


@pytest.mark.parametrize(("value", "unit", "shown"), [
    (1, "days", "day"), (2, "days", "days"), (1.0, "weeks", "week"), (-1, "hours", "hour"),
    (0, "days", "days"), (1, "EUR", "EUR"), (1, "ms", "ms"), (1, "class", "class"),
    (True, "days", "days")])
def test_a_unit_is_singular_after_one(value, unit, shown):
    assert unit_for(value, unit) == shown


def test_example_site_pages_say_one_day(tmp_path: Path):
    out = tmp_path / "site"
    assert run_cli("build", "--root", str(EXAMPLE_SITE), "--output", str(out)).returncode == 0
    pages = [p.read_text() for p in out.glob("*/adr/*/index.html")]
    assert any(">1 day<" in page for page in pages)
    assert not any(">1 days<" in page for page in pages)
