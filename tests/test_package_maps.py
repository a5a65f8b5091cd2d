"""Every package's `__init__` docstring maps its modules, and the map matches the files.

A map names each module as `name.py` and each subpackage as `name/`, in backticks; a module
that is added, moved or removed without the map following fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.conftest import REPO

PACKAGE = REPO / "site_builder"
PACKAGES = sorted(p.parent for p in PACKAGE.rglob("__init__.py"))
NAMED = re.compile(r"`([A-Za-z_]\w*)(\.py|/)`")


def _named(package: Path) -> set[str]:
    docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text("utf-8"))) or ""
    return {name + kind for name, kind in NAMED.findall(docstring)}


def _present(package: Path) -> set[str]:
    modules = {p.name for p in package.glob("*.py") if p.name != "__init__.py"}
    subpackages = {p.parent.name + "/" for p in package.glob("*/__init__.py")}
    return modules | subpackages


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_the_map_names_every_module_and_no_other(package: Path):
    named, present = _named(package), _present(package)
    assert present - named == set(), f"{package}/__init__.py does not map {sorted(present - named)}"
    assert named - present == set(), f"{package}/__init__.py maps missing {sorted(named - present)}"


def test_no_module_sits_loose_beside_the_packages():
    loose = sorted(p.name for p in PACKAGE.glob("*.py")
                   if p.name not in {"__init__.py", "__main__.py", "errors.py"})
    assert loose == []
