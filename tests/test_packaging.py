"""The wheel holds every package: pyproject.toml lists them by hand."""

from __future__ import annotations

import tomllib

from tests.conftest import REPO


def test_every_package_of_the_source_tree_is_in_the_wheel():
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    found = {".".join(p.parent.relative_to(REPO).parts)
             for p in (REPO / "site_builder").rglob("__init__.py")}
    assert found <= listed, f"add to pyproject.toml's packages: {sorted(found - listed)}"


def test_the_wheel_ships_every_file_of_the_mermaid_release():
    # setuptools expands package-data as globs inside the package folder (theme/ here); a
    # Mermaid file they miss would be absent after `pip install .`, and its chunk a 404.
    patterns = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["site_builder.theme"]
    theme = REPO / "theme"
    shipped = {p for pattern in patterns for p in theme.glob(pattern) if p.is_file()}
    release = {p for p in (theme / "mermaid").rglob("*") if p.is_file()}
    assert len(release) > 100
    assert release <= shipped, sorted(str(p) for p in release - shipped)[:5]


def test_the_package_says_it_is_typed():
    # PEP 561: a project type-checking against site-builder reads its hints only with this.
    data = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["site_builder"]
    assert "py.typed" in data
    assert (REPO / "site_builder" / "py.typed").is_file()
