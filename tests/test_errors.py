"""One exception tree: every exception class site-builder defines descends from
SiteBuilderError, and errors.py's drawing names each of them."""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys

import pytest

from site_builder import errors
from tests.conftest import REPO

PACKAGE = REPO / "site_builder"


def _module_names() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(REPO).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _defined_exceptions() -> list[type[BaseException]]:
    found = []
    for name in _module_names():
        module = importlib.import_module(name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if (issubclass(value, BaseException) and value.__module__ == name
                    and not value.__name__.startswith("_")):
                found.append(value)
    return found


EXCEPTIONS = _defined_exceptions()


def test_the_tree_has_its_branches():
    assert len(EXCEPTIONS) >= 25


@pytest.mark.parametrize("exception", EXCEPTIONS, ids=lambda e: f"{e.__module__}.{e.__name__}")
def test_every_exception_descends_from_the_base(exception: type[BaseException]):
    assert issubclass(exception, errors.SiteBuilderError)


@pytest.mark.parametrize("exception", EXCEPTIONS, ids=lambda e: f"{e.__module__}.{e.__name__}")
def test_the_drawing_names_it(exception: type[BaseException]):
    drawing = ast.get_docstring(ast.parse((PACKAGE / "errors.py").read_text("utf-8"))) or ""
    assert exception.__name__ in drawing


def test_usage_errors_exit_2_and_the_rest_1():
    from site_builder.contract.records import ArgumentError
    from site_builder.render.output.journal import JournalError

    assert ArgumentError("x").exit_code == 2
    assert JournalError("x").exit_code == 1
    assert errors.SiteBuilderError("first line\nsecond").message == "first line"


def test_a_named_failure_is_one_line_and_its_exit_code(tmp_path):
    # A published site that cannot be reached is a SourceError: one line, exit 1.
    done = subprocess.run([sys.executable, "-m", "site_builder", "search", "--url",
                           "http://127.0.0.1:9/", "x"], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("site-builder: ")
