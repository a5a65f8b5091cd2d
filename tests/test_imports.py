"""Data flows one way: no import cycle in site_builder, and no import from a lower layer up.

Every import statement counts, those inside functions (lazy ones) too, read from the source
with `ast`. `from package import module` is an arrow to that module; the parent package's
own `__init__` runs first either way, so it is not an arrow of its own.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO

PACKAGE = REPO / "site_builder"

# Layers from the bottom: a module may import its own layer and those below it, never above.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("site_builder", "site_builder.confined", "site_builder.validate", "site_builder.site_paths",
     "site_builder.yaml_subset", "site_builder.yamlfile", "site_builder.config_keys",
     "site_builder.source_formats", "site_builder.config", "site_builder.config_values",
     "site_builder.config_citations",
     "site_builder.progress",
     "site_builder.findings", "site_builder.words",
     "site_builder.gfm"),
    ("site_builder.archive",),
    ("site_builder.contract", "site_builder.index_contract", "site_builder.sources"),
    ("site_builder.textindex", "site_builder.facets", "site_builder.query",
     "site_builder.authoring", "site_builder.origin"),
    ("site_builder.render", "site_builder.access", "site_builder.scaffold",
     "site_builder.adopt", "site_builder.adopt_report", "site_builder.importing"),
    ("site_builder.mcp", "site_builder.serve"),
    ("site_builder.cli", "site_builder.__main__"),
)


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(REPO).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> Iterator[str]:
    """The site_builder modules `name` imports, anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name in MODULES)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            for alias in node.names:
                inner = f"{base}.{alias.name}"
                if inner in MODULES:
                    yield inner
                elif base in MODULES:
                    yield base


GRAPH = {name: sorted(set(_imports(name, path)) - {name}) for name, path in MODULES.items()}


def layer(name: str) -> int:
    """The layer of module `name`: that of the longest prefix the table names."""
    best, found = -1, None
    for index, names in enumerate(LAYERS):
        for prefix in names:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), index
    assert found is not None, f"{name} is in no layer of tests/test_imports.py"
    return found


def test_every_module_has_a_layer():
    for name in MODULES:
        layer(name)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_imports_a_higher_layer(name: str):
    upward = [target for target in GRAPH[name] if layer(target) > layer(name)]
    assert upward == [], f"{name} (layer {layer(name)}) imports {upward}"


def test_no_import_cycle():
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan; the module graph is small
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in GRAPH[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for name in sorted(GRAPH):
        if name not in index:
            visit(name)
    assert cycles == []


def test_the_check_sees_a_lazy_import():
    # A cycle hidden in a function body is still a cycle: the walk reads every statement.
    assert "site_builder.sources.load" in GRAPH["site_builder.access.source"] or any(
        "site_builder.sources" in target for target in GRAPH["site_builder.render.site"])


def test_no_module_is_over_four_hundred_lines():
    long = {name: n for name, path in MODULES.items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 420}
    assert long == {}
