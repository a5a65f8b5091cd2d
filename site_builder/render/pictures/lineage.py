"""The lineage of decisions as pictures: which record replaced which, laid out to be drawn.

A *chain* is a set of records joined by supersede links (declared on either side, as the
Archive derives them), so a record replaced twice, or two records merged into one, make one
chain. A project's picture holds every chain with a record of the project; chains that
`related` links join are drawn next to each other, the link between them lighter. A record's
own picture holds its chain alone, the record marked.

`Lineage` works the chains out once per archive; `lineage_svg` draws a `Picture` as SVG or
Graphviz DOT. Nothing here writes HTML.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.render.pages import views
from site_builder.render.pages.urls import Urls
from site_builder.render.pictures.layered import Spacing, layout

__all__ = ["SPACING", "Chain", "Edge", "Lineage", "Node", "Picture", "Step"]

SPACING = Spacing(node_width=204, node_height=60, layer_gap=48, node_gap=14)
CHAIN_GAP = 26
"""Vertical space between two chains drawn one above the other."""
GROUP_GAP = 40
"""Horizontal space between two groups of chains on one shelf."""
MAX_WIDTH = 1100
"""A shelf of chains is filled up to this width (about a wide page's text column); a
single chain wider than this gets a shelf of its own and the page scrolls it sideways."""


@dataclass(frozen=True, slots=True)
class Node:
    """One record in a picture: what it shows, and its box's top-left corner."""

    id: str
    ref: str
    title: str
    status: views.StatusView
    tone: str
    """The colour family: `current`, `implemented`, `open`, `closed` or `rejected`."""
    shape: str
    """The status's mark beside its label, so status never rests on colour alone:
    `circle`, `diamond`, `square`, `cross` or `bar` (see `shape`)."""
    page: str
    x: int
    y: int
    marked: bool = False


@dataclass(frozen=True, slots=True)
class Edge:
    """`supersedes` (from the older record to its replacement) or `related` (undirected)."""

    kind: str
    source: str
    target: str
    points: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Step:
    """One record of a chain as the text alternative tells it, with its replacements."""

    node: Node
    replaced_by: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Chain:
    """The records of one chain, oldest layer first; `linear` when it is a plain sequence."""

    steps: tuple[Step, ...]
    linear: bool


@dataclass(frozen=True, slots=True)
class Picture:
    """A laid-out lineage: nodes, edges, the chains in reading order, and the size."""

    label: str
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    chains: tuple[Chain, ...]
    related: tuple[tuple[Node, Node], ...]
    """Pairs of records in different chains that a `related` link joins."""
    width: int
    height: int
    marked: str | None = None


def tone(status: views.StatusView) -> str:
    """The colour family of a status (the badges' own: implemented and rejected stand out)."""
    return status.name if status.name in ("implemented", "rejected") else status.kind


def shape(status: views.StatusView) -> str:
    """The mark drawn for a status: a circle in force, a diamond under discussion; of the
    rest a square for superseded, a cross for rejected, a bar for the others (deprecated)."""
    if status.kind == "current":
        return "circle"
    if status.kind == "open":
        return "diamond"
    return {"superseded": "square", "rejected": "cross"}.get(status.name, "bar")


@dataclass(frozen=True, slots=True)
class _Block:
    """One chain laid out on its own: node tops relative to the block, and its edges."""

    ids: tuple[str, ...]
    positions: dict[str, tuple[int, int]]
    routes: dict[tuple[str, str], tuple[tuple[int, int], ...]]
    layers: dict[str, int]
    width: int
    height: int
    newest: tuple[int, str]


class Lineage:
    """The supersede chains of one archive and their `related` links, computed once."""

    def __init__(self, archive: Archive) -> None:
        self.archive = archive
        self.statuses = views.status_views(archive.config)
        edges: dict[tuple[str, str], None] = {}
        for record in archive.records:
            for reference in record.supersedes:
                older = archive.resolve(reference)
                if older is not None and older.id != record.id:
                    edges[(older.id, record.id)] = None
            if record.superseded_by:
                newer = archive.resolve(record.superseded_by)
                if newer is not None and newer.id != record.id:
                    edges[(record.id, newer.id)] = None
        self.supersedes = sorted(edges, key=self._edge_key)
        self.chain_of: dict[str, int] = {}
        self.chains: list[tuple[str, ...]] = self._components()
        related: dict[tuple[str, str], None] = {}
        for record in archive.records:
            for reference in record.related:
                other = archive.resolve(reference)
                if other is None or other.id == record.id:
                    continue
                a, b = self.chain_of.get(record.id), self.chain_of.get(other.id)
                if a is not None and b is not None and a != b:
                    related[tuple(sorted((record.id, other.id)))] = None  # type: ignore[index]
        self.related = sorted(related, key=self._edge_key)
        self._blocks: dict[int, _Block] = {}

    def _edge_key(self, edge: tuple[str, str]) -> tuple[tuple[int, str], tuple[int, str]]:
        return (self._age(edge[0]), self._age(edge[1]))

    def _age(self, record_id: str) -> tuple[int, str]:
        """Oldest first: date, then id."""
        return (self.archive.by_id[record_id].date.toordinal(), record_id)

    def _components(self) -> list[tuple[str, ...]]:
        """Every chain's record ids, oldest first; chains in order of their oldest record."""
        parent: dict[str, str] = {}

        def root(node: str) -> str:
            while parent.setdefault(node, node) != node:
                parent[node] = parent[parent[node]]
                node = parent[node]
            return node

        for older, newer in self.supersedes:
            parent[root(older)] = root(newer)
        members: dict[str, list[str]] = {}
        for node in parent:
            members.setdefault(root(node), []).append(node)
        chains = sorted((tuple(sorted(ids, key=self._age)) for ids in members.values()),
                        key=lambda ids: self._age(ids[0]))
        for index, ids in enumerate(chains):
            for record_id in ids:
                self.chain_of[record_id] = index
        return chains

    # ---- pictures ---------------------------------------------------------------------------

    def around(self, record: Record) -> Picture | None:
        """The chain of `record`, the record marked; None when no chain holds it."""
        index = self.chain_of.get(record.id)
        if index is None:
            return None
        return self._picture(f"Lineage of {record.ref}", [[index]], (), marked=record.id)

    def project(self, project_id: str) -> Picture | None:
        """Every chain holding a record of the project; None when there is none."""
        project = self.archive.projects.get(project_id)
        name = project.name if project else project_id
        return self._grouped(f"Lineage of {name} decisions", self._of_project(project_id))

    def drawn_around(self, record: Record) -> tuple[str, ...]:
        """Ids of the records `around(record)` draws: its chain (none when it is in none)."""
        index = self.chain_of.get(record.id)
        return () if index is None else self.chains[index]

    def drawn_in(self, project_id: str) -> list[str]:
        """Ids of the records `project(project_id)` draws: every record of its chains."""
        return [i for index in self._of_project(project_id) for i in self.chains[index]]

    def _of_project(self, project_id: str) -> list[int]:
        """The chains holding a record of the project, in order."""
        return sorted({index for record_id, index in self.chain_of.items()
                       if self.archive.by_id[record_id].project == project_id})

    def everything(self) -> Picture | None:
        """Every chain of the archive; None when no record supersedes another."""
        return self._grouped(f"Lineage of {self.archive.config.title}",
                             list(range(len(self.chains))))

    def _grouped(self, label: str, wanted: list[int]) -> Picture | None:
        if not wanted:
            return None
        chosen = set(wanted)
        pairs = [(a, b) for a, b in self.related
                 if self.chain_of[a] in chosen and self.chain_of[b] in chosen]
        return self._picture(label, _groups(wanted, pairs, self.chain_of, self._block),
                             pairs, marked=None)

    def _block(self, index: int) -> _Block:
        found = self._blocks.get(index)
        if found is None:
            ids = self.chains[index]
            members = set(ids)
            edges = [e for e in self.supersedes if e[0] in members]
            laid = layout(ids, edges, SPACING)
            newest = max(self._age(i) for i in ids)
            found = self._blocks[index] = _Block(ids, laid.positions, laid.routes, laid.layers,
                                                 laid.width, laid.height,
                                                 (-newest[0], newest[1]))
        return found

    def _picture(self, label: str, groups: list[list[int]],
                 related: Iterable[tuple[str, str]], marked: str | None) -> Picture:
        """The groups (each a list of chains drawn one above the other) packed on shelves."""
        nodes: dict[str, Node] = {}
        edges: list[Edge] = []
        chains: list[Chain] = []
        width = shelf_top = shelf_height = x = 0
        for group in groups:
            blocks = [self._block(i) for i in group]
            group_width = max(b.width for b in blocks)
            group_height = sum(b.height for b in blocks) + CHAIN_GAP * (len(blocks) - 1)
            if x and x + group_width > MAX_WIDTH:
                shelf_top += shelf_height + CHAIN_GAP
                x = shelf_height = 0
            top = shelf_top
            for block in blocks:
                self._place(block, x, top, marked, nodes, edges)
                chains.append(_chain(block, nodes, self.supersedes))
                top += block.height + CHAIN_GAP
            width = max(width, x + group_width)
            shelf_height = max(shelf_height, group_height)
            x += group_width + GROUP_GAP
        pairs = tuple((nodes[a], nodes[b]) for a, b in related)
        edges.extend(Edge("related", a.id, b.id) for a, b in pairs)
        return Picture(label, tuple(nodes.values()), tuple(edges), tuple(chains), pairs,
                       width, shelf_top + shelf_height, marked)

    def _place(self, block: _Block, dx: int, dy: int, marked: str | None,
               nodes: dict[str, Node], edges: list[Edge]) -> None:
        for record_id in block.ids:
            record = self.archive.by_id[record_id]
            status = views.status_view(self.statuses, record.status)
            x, y = block.positions[record_id]
            nodes[record_id] = Node(record_id, record.ref, record.title, status, tone(status),
                                    shape(status), Urls.record_page(record), x + dx, y + dy,
                                    record_id == marked)
        for (source, target), points in block.routes.items():
            edges.append(Edge("supersedes", source, target,
                              tuple((px + dx, py + dy) for px, py in points)))


def _groups(wanted: list[int], pairs: list[tuple[str, str]], chain_of: dict[str, int],
            block: Callable[[int], _Block]) -> list[list[int]]:
    """The chains split into groups joined by `related` pairs, newest group first; inside a
    group, chains in breadth-first order from its newest, so joined chains sit together."""
    around: dict[int, list[int]] = {i: [] for i in wanted}
    for a, b in pairs:
        around[chain_of[a]].append(chain_of[b])
        around[chain_of[b]].append(chain_of[a])
    newest = sorted(wanted, key=lambda i: block(i).newest)
    seen: set[int] = set()
    groups: list[list[int]] = []
    for start in newest:
        if start in seen:
            continue
        seen.add(start)
        group = [start]
        for index in group:  # grows while it is read: breadth-first
            for other in sorted(set(around[index]), key=lambda i: block(i).newest):
                if other not in seen:
                    seen.add(other)
                    group.append(other)
        groups.append(group)
    return groups


def _chain(block: _Block, nodes: dict[str, Node], supersedes: list[tuple[str, str]]) -> Chain:
    """The text alternative's view of one placed chain: records by layer, then top to bottom."""
    members = set(block.ids)
    successors: dict[str, list[str]] = {i: [] for i in block.ids}
    predecessors: dict[str, int] = dict.fromkeys(block.ids, 0)
    for older, newer in supersedes:
        if older in members:
            successors[older].append(newer)
            predecessors[newer] += 1
    ordered = sorted(block.ids, key=lambda i: (block.layers[i], nodes[i].y, i))
    steps = tuple(Step(nodes[i], tuple(nodes[s] for s in successors[i])) for i in ordered)
    linear = all(len(successors[i]) <= 1 and predecessors[i] <= 1 for i in block.ids)
    return Chain(steps, linear)
