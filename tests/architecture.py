"""The layer picture in docs/ARCHITECTURE.md, drawn from the package's own imports.

`tests/test_architecture.py` checks the page's picture against a fresh one; after moving a
module or adding an import between packages, draw it again with

    .venv/bin/python -m tests.architecture --write
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tests.test_imports import GRAPH, LAYERS, layer

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "ARCHITECTURE.md"
BEGIN = "<!-- layers: drawn by `python -m tests.architecture --write` from the imports -->"
END = "<!-- end of layers -->"


def package_of(module: str) -> str:
    """The package a module belongs to, as the picture shows it: the first level below
    site_builder (`render` for all of render/), `site_builder` for the root's own modules."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] == "errors":
        return "site_builder"
    return parts[1]


def reduced_arrows() -> list[tuple[str, str]]:
    """(importer, imported) between packages, without an arrow another path already implies
    (the transitive reduction: the package graph has no cycle), sorted."""
    edges = {(package_of(a), package_of(b)) for a, targets in GRAPH.items() for b in targets}
    out: dict[str, set[str]] = {}
    for a, b in edges:
        if a != b:
            out.setdefault(a, set()).add(b)

    def reaches(start: str, goal: str, skip: tuple[str, str]) -> bool:
        stack, seen = [start], set()
        while stack:
            node = stack.pop()
            for nxt in out.get(node, ()):
                if (node, nxt) == skip or nxt in seen:
                    continue
                if nxt == goal:
                    return True
                seen.add(nxt)
                stack.append(nxt)
        return False

    return sorted((a, b) for a, targets in out.items() for b in targets
                  if not reaches(a, b, (a, b)))


def picture() -> str:
    """A Mermaid flowchart: one row per layer (the top layer first), an arrow per package
    that imports another."""
    rows: dict[int, set[str]] = {}
    for module in GRAPH:
        rows.setdefault(layer(module), set()).add(package_of(module))
    assert len(rows) == len(LAYERS), "a layer of tests/test_imports.py holds no module"
    lines = ["```mermaid", "flowchart TB"]
    for index in sorted(rows, reverse=True):
        lines.append(f"  subgraph L{index}[\"layer {index}\"]")
        lines += [f"    {name}" for name in sorted(rows[index])]
        lines.append("  end")
    lines += [f"  {a} --> {b}" for a, b in reduced_arrows()]
    lines.append("```")
    return "\n".join(lines)


def page(current: str) -> str:
    """`current` with the picture between its markers drawn again."""
    head, _, rest = current.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{picture()}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite docs/ARCHITECTURE.md")
    args = parser.parse_args(argv)
    text = page(PAGE.read_text(encoding="utf-8"))
    if args.write:
        PAGE.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
