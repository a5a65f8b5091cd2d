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
