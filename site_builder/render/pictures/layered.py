"""A layered (Sugiyama-style) layout of one small directed graph, left to right.

The steps are the classic ones, each kept simple enough to stay deterministic and fast on the
graphs a decision archive holds (chains of a few records, a few hundred at most):

1. edges that would close a cycle are set aside (a supersede cycle is a `check` error, but
   `graph` must still draw such an archive rather than loop);
2. every node gets a layer (column): sources first, then each node one after its latest
   predecessor, then pulled right next to its earliest successor so edges stay short;
3. an edge that spans several layers passes through one dummy point per layer between;
4. the order within each layer comes from barycentre sweeps, keeping the order with the fewest
   crossings;
5. vertical positions move each node towards the mean of its neighbours, never closer to the
   node above than the spacing allows.

Nothing here knows about records: nodes are strings, and sizes come from `Spacing`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["Layout", "Spacing", "layout"]


@dataclass(frozen=True, slots=True)
class Spacing:
    """Sizes of the layout, in pixels."""

    node_width: int
    node_height: int
    layer_gap: int
    """Horizontal space between two layers' boxes."""
    node_gap: int
    """Vertical space between two boxes of a layer."""
    dummy_height: int = 10
    """Vertical room an edge passing through a layer takes."""


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything goes: top-left corners of nodes, the points each edge passes through
    (from the source's right side to the target's left side, across each layer between at
    one height), and the overall size."""

    positions: dict[str, tuple[int, int]]
    routes: dict[tuple[str, str], tuple[tuple[int, int], ...]]
    layers: dict[str, int]
    width: int
    height: int


_SWEEPS = 12
_SETTLE = 8


def layout(nodes: Sequence[str], edges: Sequence[tuple[str, str]], spacing: Spacing) -> Layout:
    """Lay out `nodes` (in their preferred order, which breaks every tie) joined by `edges`.

    Returns a `Layout` whose routes cover every edge given, including those set aside to
    break a cycle (they are drawn straight). Raises KeyError for an edge naming no node.
    """
    kept, loose = _acyclic(nodes, edges)
    layers = _layers(nodes, kept)
    order, chains, succ = _ordered(nodes, kept, layers)
    ys = _vertical(order, succ, spacing)
    step = spacing.node_width + spacing.layer_gap
    positions = {n: (layers[n] * step, ys[n]) for n in nodes}
    routes: dict[tuple[str, str], tuple[tuple[int, int], ...]] = {}
    half = spacing.node_height // 2
    for edge in (*kept, *loose):
        source, target = edge
        sx, sy = positions[source]
        tx, ty = positions[target]
        points = [(sx + spacing.node_width, sy + half)]
        for dummy in chains.get(edge, ()):
            # Straight across the layer, in the gap kept free for it between two boxes.
            left, middle = layers[dummy] * step, ys[dummy] + spacing.dummy_height // 2
            points.extend(((left, middle), (left + spacing.node_width, middle)))
        points.append((tx, ty + half))
        routes[edge] = tuple(points)
    width = (max(layers.values(), default=0) + 1) * step - spacing.layer_gap
    height = max((ys[n] + spacing.node_height for n in nodes), default=0)
    return Layout(positions, routes, dict(layers), width if nodes else 0, height)


def _acyclic(nodes: Sequence[str], edges: Sequence[tuple[str, str]]
             ) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The edges split into those of a DAG and those that would close a cycle (depth-first
    from each node in order; an edge back to a node still on the stack closes one)."""
    out: dict[str, list[str]] = {n: [] for n in nodes}
    for source, target in dict.fromkeys(edges):
        if target not in out:
            raise KeyError(target)
        out[source].append(target)
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    back: set[tuple[str, str]] = set()
    for start in nodes:
        if start in state:
            continue
        stack = [(start, iter(out[start]))]
        state[start] = 1
        while stack:
            node, targets = stack[-1]
            step = next(targets, None)
            if step is None:
                state[node] = 2
                stack.pop()
            elif state.get(step) == 1:
                back.add((node, step))
            elif step not in state:
                state[step] = 1
                stack.append((step, iter(out[step])))
    kept = [e for e in dict.fromkeys(edges) if e not in back and e[0] != e[1]]
    loose = [e for e in dict.fromkeys(edges) if e in back and e[0] != e[1]]
    return kept, loose


def _layers(nodes: Sequence[str], edges: Sequence[tuple[str, str]]) -> dict[str, int]:
    """Longest path from the sources, then each node with successors moved right to just
    before its nearest one."""
    succ: dict[str, list[str]] = {n: [] for n in nodes}
    indegree = dict.fromkeys(nodes, 0)
    for source, target in edges:
        succ[source].append(target)
        indegree[target] += 1
    topo = [n for n in nodes if indegree[n] == 0]
    for node in topo:  # grows while it is read: Kahn's algorithm
        for target in succ[node]:
            indegree[target] -= 1
            if indegree[target] == 0:
                topo.append(target)
    layer = dict.fromkeys(nodes, 0)
    for node in topo:
        for target in succ[node]:
            layer[target] = max(layer[target], layer[node] + 1)
    for node in reversed(topo):
        if succ[node]:
            layer[node] = max(layer[node], min(layer[t] for t in succ[node]) - 1)
    return layer


def _ordered(nodes: Sequence[str], edges: Sequence[tuple[str, str]], layers: dict[str, int]
             ) -> tuple[list[list[str]], dict[tuple[str, str], list[str]], dict[str, list[str]]]:
    """Each layer's nodes (dummies included, named `\\0edge-index-layer`) top to bottom,
    the dummies each long edge passes through, and every node's successors (dummies
    included). `layers` gains the dummies' layers."""
    chains: dict[tuple[str, str], list[str]] = {}
    succ: dict[str, list[str]] = {n: [] for n in nodes}
    pred: dict[str, list[str]] = {n: [] for n in nodes}
    for index, (source, target) in enumerate(edges):
        previous = source
        for layer in range(layers[source] + 1, layers[target]):
            dummy = f"\0{index}-{layer}"
            layers[dummy] = layer
            succ[dummy], pred[dummy] = [], []
            chains.setdefault((source, target), []).append(dummy)
            succ[previous].append(dummy)
            pred[dummy].append(previous)
            previous = dummy
        succ[previous].append(target)
        pred[target].append(previous)
    count = max(layers.values(), default=-1) + 1
    order: list[list[str]] = [[] for _ in range(count)]
    for node in _depth_first(nodes, succ):
        order[layers[node]].append(node)
    best, best_crossings = [list(row) for row in order], _crossings(order, succ)
    for sweep in range(_SWEEPS):
        downward = sweep % 2 == 0
        rows = range(1, count) if downward else range(count - 2, -1, -1)
        for i in rows:
            fixed = order[i - 1] if downward else order[i + 1]
            neighbours = pred if downward else succ
            place = {n: k for k, n in enumerate(fixed)}
            order[i] = _by_barycentre(order[i], neighbours, place)
        crossings = _crossings(order, succ)
        if crossings < best_crossings:
            best, best_crossings = [list(row) for row in order], crossings
    return best, chains, succ


def _depth_first(nodes: Sequence[str], succ: dict[str, list[str]]) -> list[str]:
    """Every node (dummies included) in depth-first order from the sources, so that a chain's
    records start out next to each other."""
    has_pred = {t for targets in succ.values() for t in targets}
    seen: set[str] = set()
    out: list[str] = []
    for start in [n for n in nodes if n not in has_pred] + list(nodes):
        stack = [start]
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            out.append(node)
            stack.extend(reversed(succ[node]))
    return out


def _by_barycentre(row: list[str], neighbours: dict[str, list[str]],
                   place: dict[str, int]) -> list[str]:
    """`row` sorted by the mean place of each node's neighbours in the fixed layer; a node
    with none keeps its place."""
    keys = []
    for k, node in enumerate(row):
        around = [place[n] for n in neighbours[node] if n in place]
        keys.append((sum(around) / len(around) if around else float(k), k, node))
    return [node for _, _, node in sorted(keys)]


def _crossings(order: list[list[str]], succ: dict[str, list[str]]) -> int:
    """How many pairs of edges cross between adjacent layers."""
    total = 0
    for upper, lower in itertools.pairwise(order):
        place = {n: k for k, n in enumerate(lower)}
        pairs = [(k, place[t]) for k, n in enumerate(upper) for t in succ[n] if t in place]
        for i, (a1, b1) in enumerate(pairs):
            for a2, b2 in pairs[i + 1:]:
                if (a1 - a2) * (b1 - b2) < 0:
                    total += 1
    return total


def _vertical(order: list[list[str]], succ: dict[str, list[str]],
              spacing: Spacing) -> dict[str, int]:
    """The top of every node: each moved towards its neighbours' mean, in order, apart."""
    def height(node: str) -> int:
        return spacing.dummy_height if node.startswith("\0") else spacing.node_height

    neighbours: dict[str, list[str]] = {n: [] for row in order for n in row}
    for source, targets in succ.items():
        for target in targets:
            neighbours[source].append(target)
            neighbours[target].append(source)
    y: dict[str, float] = {}
    for row in order:
        top = 0.0
        for node in row:
            y[node] = top
            top += height(node) + spacing.node_gap
    for _ in range(_SETTLE):
        for row in order:
            wanted = []
            for node in row:
                around = neighbours[node]
                middle = (sum(y[n] + height(n) / 2 for n in around) / len(around)
                          if around else y[node] + height(node) / 2)
                wanted.append(middle - height(node) / 2)
            _place_apart(row, wanted, y, height, spacing.node_gap)
    low = min(y.values(), default=0.0)
    return {n: round(v - low) for n, v in y.items()}


def _place_apart(row: list[str], wanted: list[float], y: dict[str, float],
                 height: Callable[[str], int], gap: int) -> None:
    """Set each node of `row` as near its wanted top as keeping order and `gap` allows:
    pushed down after the one above, then the whole run shifted back up by the mean of how
    far it was pushed, so a row is not dragged down by its first node."""
    placed: list[float] = []
    for k in range(len(row)):
        top = wanted[k]
        if placed:
            above = row[k - 1]
            top = max(top, placed[-1] + height(above) + gap)
        placed.append(top)
    if placed:
        shift = sum(p - w for p, w in zip(placed, wanted, strict=True)) / len(placed)
        for node, top in zip(row, placed, strict=True):
            y[node] = top - shift
