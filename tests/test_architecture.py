"""docs/ARCHITECTURE.md's layer picture is the one the imports draw (tests/architecture.py)."""

from __future__ import annotations

from tests import architecture


def test_the_picture_is_what_the_imports_draw():
    current = architecture.PAGE.read_text(encoding="utf-8")
    assert architecture.BEGIN in current and architecture.END in current
    assert architecture.page(current) == current, (
        "docs/ARCHITECTURE.md is out of date: run `.venv/bin/python -m tests.architecture "
        "--write`")


def test_the_picture_names_every_package_and_only_arrows_between_them():
    picture = architecture.picture()
    for package in ("archive", "render", "mcp", "cli", "query", "config", "access"):
        assert f"    {package}\n" in picture
    assert "  render --> query" in picture
    # No arrow climbs: every importer sits in a layer at or above what it imports.
    assert "  archive --> render" not in picture and "  query --> mcp" not in picture


def test_every_package_of_the_table_is_named_in_the_page():
    current = architecture.PAGE.read_text(encoding="utf-8")
    for package in {architecture.package_of(m) for m in architecture.GRAPH} - {"site_builder"}:
        assert f"`{package}`" in current, package
