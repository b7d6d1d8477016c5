"""Shortest paths over terrain, around impassable areas.

Method: A* on a lazily-evaluated **visibility graph**. Nodes are the start, the
end, every corner of the impassable areas (grown by the mover's clearance, so a
base never clips a building), every corner of the difficult and very difficult
areas, and points every ``edge_step`` inches along the edges of those areas.
An edge joins any two nodes whose straight segment stays out of impassable
terrain; its weight is its exact terrain cost (length × cost per inch, summed
over the terrains it crosses). The heuristic is the straight-line distance,
which never overestimates since every inch costs at least 1.

Guarantees: with only open and impassable terrain the result is the true
shortest path (shortest paths around polygons bend only at their corners).
With difficult terrain the true optimum may bend anywhere on an edge (like light
refracting), so the path is optimal among paths bending at the nodes — within a
small fraction of an inch for the default ``edge_step`` of 1 inch. The returned
``cost`` is always the exact cost of the returned path
(:func:`~kubik.table.movement.path_cost`). Rounded corners are polygons with
:data:`~kubik.table.movement.CLEARANCE_QUAD_SEGS` segments per quarter circle.

>>> from kubik.table.table import Table
>>> from kubik.table.terrain import TerrainFeature, TerrainKind
>>> rock = TerrainFeature.from_points("rock", [(4, 0), (6, 0), (6, 6), (4, 6)],
...                                   kind=TerrainKind.IMPASSABLE)
>>> table = Table(12, 12, (rock,))
>>> route = shortest_path(table, (2, 4), (8, 4))
>>> route.points
((2.0, 4.0), (4.0, 6.0), (6.0, 6.0), (8.0, 4.0))
>>> round(route.cost, 4)   # 2·√8 + 2
7.6569
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from kubik.table.errors import TableError
from kubik.table.geometry import EPS, Point
from kubik.table.movement import Regions, check_path, path_cost, regions
from kubik.table.table import Table


@dataclass(frozen=True)
class Route:
    """A path (start … end) and the movement allowance it costs."""

    points: tuple[Point, ...]
    cost: float

    @property
    def length(self) -> float:
        """Inches travelled, ignoring terrain."""
        return sum(math.dist(p, q) for p, q in itertools.pairwise(self.points))


def shortest_path(
    table: Table,
    start: Sequence[float],
    end: Sequence[float],
    mover_type: str | None = None,
    *,
    clearance: float = 0.0,
    edge_step: float = 1.0,
    limit: float = math.inf,
) -> Route | None:
    """The cheapest route from ``start`` to ``end`` for this mover, or ``None`` if
    impassable terrain (or the table edge) cuts them apart — or, with a ``limit``, when
    every route costs more than it (the search gives up there: a move that cannot reach
    is known without finding its way)."""
    if not (math.isfinite(edge_step) and edge_step >= 0):
        raise TableError("edge_step", f"must be a non-negative number of inches, got {edge_step}")
    a, b = check_path(table, [start, end], clearance)
    reg = regions(table, mover_type, clearance)
    if _blocked_points(reg, np.array([a, b])).any():
        return None
    if a == b:
        return Route((a,), 0.0)
    graph = _graph(table, reg, mover_type, clearance, edge_step)
    nodes = np.vstack([np.array([a, b], dtype=float), graph.nodes])
    found = _astar(_cost_index(table, reg, mover_type, clearance), nodes, graph, limit)
    if found is None:
        return None
    points = tuple((float(x), float(y)) for x, y in nodes[found])
    return Route(points, path_cost(table, mover_type, points, clearance=clearance))


def can_reach(
    table: Table,
    start: Sequence[float],
    end: Sequence[float],
    allowance: float,
    mover_type: str | None = None,
    *,
    clearance: float = 0.0,
) -> bool:
    """Whether a model at ``start`` can get to ``end`` with ``allowance`` inches of move."""
    if not (math.isfinite(allowance) and allowance >= 0):
        raise TableError("allowance", f"must be a non-negative number of inches, got {allowance}")
    route = shortest_path(table, start, end, mover_type, clearance=clearance)
    return route is not None and route.cost <= allowance + EPS


def _blocked_points(reg: Regions, pts: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    if reg.barrier_core.is_empty:
        return np.zeros(len(pts), dtype=bool)
    return np.asarray(shapely.contains_xy(reg.barrier_core, pts[:, 0], pts[:, 1]), dtype=bool)


def _ring_points(geom: Any, step: float) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for poly in getattr(geom, "geoms", [geom]):
        if poly.is_empty or poly.geom_type != "Polygon":
            continue
        for ring in (poly.exterior, *poly.interiors):
            coords = list(ring.coords)
            out += coords[:-1]
            if step <= 0:
                continue
            for p, q in itertools.pairwise(coords):
                n = int(math.dist(p, q) // step)
                out += [
                    (p[0] + (q[0] - p[0]) * i / (n + 1), p[1] + (q[1] - p[1]) * i / (n + 1))
                    for i in range(1, n + 1)
                ]
    return out


def _fixed_nodes(table: Table, reg: Regions, clearance: float, step: float) -> np.ndarray[Any, Any]:
    """The graph's nodes every search shares: corners and edge points of the terrain."""
    pts = [*_ring_points(reg.barrier, 0.0), *_ring_points(reg.slow, step)]
    pts += _ring_points(reg.slower, step)
    arr = np.unique(np.array(pts, dtype=float).reshape(-1, 2), axis=0)
    c = clearance - EPS
    keep = (
        (arr[:, 0] >= c)
        & (arr[:, 0] <= table.width - c)
        & (arr[:, 1] >= c)
        & (arr[:, 1] <= table.height - c)
    )
    arr = arr[keep]
    return np.asarray(arr[~_blocked_points(reg, arr)], dtype=float)


#: Most searches' starts (and ends) whose edges a graph keeps (a memory bound, not a rule).
ENDS_KEPT = 256


@dataclass
class _Graph:
    """The terrain's nodes for one mover, clearance and edge step, and the costs of the
    edges between them as searches need them (each row computed once per table: the
    terrain never changes, so every later search reuses it). The edges from a search's
    start to every node, and from a node to a search's end, are kept too, by the point
    (a model's moves measure several ways from where it stands, and toward the same
    enemy); at most :data:`ENDS_KEPT` points each."""

    nodes: np.ndarray[Any, Any]
    rows: dict[int, np.ndarray[Any, Any]]
    starts: dict[Point, np.ndarray[Any, Any]] = field(default_factory=dict)
    ends: dict[Point, dict[int, float]] = field(default_factory=dict)

    def from_start(self, index: _CostIndex, start: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """The costs of the edges from ``start`` to every node."""
        key = (float(start[0]), float(start[1]))
        row = self.starts.get(key)
        if row is None:
            row = _edge_costs(index, start, self.nodes)
            if len(self.starts) >= ENDS_KEPT:
                self.starts.clear()
            self.starts[key] = row
        return row

    def to_end(self, index: _CostIndex, node: int, end: np.ndarray[Any, Any]) -> float:
        """The cost of the edge from node ``node`` (of :attr:`nodes`) to ``end``."""
        key = (float(end[0]), float(end[1]))
        costs = self.ends.get(key)
        if costs is None:
            if len(self.ends) >= ENDS_KEPT:
                self.ends.clear()
            costs = self.ends[key] = {}
        cost = costs.get(node)
        if cost is None:
            cost = costs[node] = float(_edge_costs(index, self.nodes[node], end[None, :])[0])
        return cost


def _graph(
    table: Table, reg: Regions, mover_type: str | None, clearance: float, step: float
) -> _Graph:
    return table.cached(
        ("nav-graph", mover_type, clearance, step),
        lambda: _Graph(_fixed_nodes(table, reg, clearance, step), {}),
    )


@dataclass(frozen=True)
class _CostIndex:
    """The parts of the slowed areas in search trees, for fast batched segment costs."""

    barrier: Any
    parts: tuple[tuple[Any, Any], ...]  # (array of polygons, STRtree) for slow, slower


def _cost_index(table: Table, reg: Regions, mover_type: str | None, clearance: float) -> _CostIndex:
    def build() -> _CostIndex:
        parts = []
        for region in (reg.slow_core, reg.slower_core):
            polys = np.array(shapely.get_parts(region), dtype=object)
            if len(polys):
                parts.append((polys, shapely.STRtree(polys)))
        return _CostIndex(None if reg.barrier_core.is_empty else reg.barrier_core, tuple(parts))

    return table.cached(("cost-index", mover_type, clearance), build)


def _edge_costs(
    index: _CostIndex, origin: np.ndarray[Any, Any], targets: np.ndarray[Any, Any]
) -> np.ndarray[Any, Any]:
    """Cost of each segment origin → target (∞ where it enters impassable terrain)."""
    n = len(targets)
    coords = np.empty((n, 2, 2))
    coords[:, 0, :] = origin
    coords[:, 1, :] = targets
    segs = shapely.linestrings(coords)
    cost = np.hypot(targets[:, 0] - origin[0], targets[:, 1] - origin[1])
    if index.barrier is not None:  # the prepared barrier goes first, so GEOS uses it
        cost[shapely.intersects(index.barrier, segs)] = np.inf
    ok = np.nonzero(np.isfinite(cost))[0]
    for polys, tree in index.parts:
        seg_i, part_i = tree.query(segs[ok], predicate="intersects")
        if len(seg_i):
            inside = shapely.length(shapely.intersection(segs[ok][seg_i], polys[part_i]))
            np.add.at(cost, ok[seg_i], inside)
    return np.asarray(cost, dtype=float)


def _costs(
    index: _CostIndex,
    nodes: np.ndarray[Any, Any],
    graph: _Graph | None,
    u: int,
    todo: np.ndarray[Any, Any],
) -> np.ndarray[Any, Any]:
    """Costs of the edges from node ``u`` to nodes ``todo``: between two of the graph's
    nodes from its kept rows (computed once), from the start to them and from them to
    the end as the graph keeps them, between the start and the end afresh."""
    if graph is None:
        return _edge_costs(index, nodes[u], nodes[todo])
    fixed = todo >= 2
    out = np.empty(len(todo))
    if u == 0:
        out[fixed] = graph.from_start(index, nodes[0])[todo[fixed] - 2]
        if not fixed.all():
            out[~fixed] = _edge_costs(index, nodes[0], nodes[todo[~fixed]])
        return out
    row = graph.rows.get(u - 2)
    if row is None:
        row = _edge_costs(index, nodes[u], graph.nodes)
        graph.rows[u - 2] = row
    out[fixed] = row[todo[fixed] - 2]
    for at in np.nonzero(~fixed)[0]:
        v = int(todo[at])
        out[at] = (
            graph.to_end(index, u - 2, nodes[1])
            if v == 1
            else float(_edge_costs(index, nodes[u], nodes[[v]])[0])
        )
    return out


def _astar(
    index: _CostIndex,
    nodes: np.ndarray[Any, Any],
    graph: _Graph | None = None,
    limit: float = math.inf,
) -> list[int] | None:
    """Indices of the cheapest node path from node 0 to node 1, or None (nodes 2… are
    ``graph``'s, whose edge costs it keeps); None too once every path left costs more
    than ``limit`` (the straight-line estimate never overestimates)."""
    n = len(nodes)
    goal = nodes[1]
    h = np.hypot(nodes[:, 0] - goal[0], nodes[:, 1] - goal[1])
    g = np.full(n, np.inf)
    g[0] = 0.0
    parent = np.full(n, -1)
    closed = np.zeros(n, dtype=bool)
    heap: list[tuple[float, int]] = [(float(h[0]), 0)]
    while heap:
        f, u = heapq.heappop(heap)
        if f > limit:
            return None
        if closed[u]:
            continue
        closed[u] = True
        if u == 1:
            path = [1]
            while path[-1] != 0:
                path.append(int(parent[path[-1]]))
            return path[::-1]
        todo = np.nonzero(~closed)[0]
        # every inch costs at least 1: skip nodes already reached more cheaply than that
        reach = g[u] + np.hypot(nodes[todo, 0] - nodes[u, 0], nodes[todo, 1] - nodes[u, 1])
        todo = todo[reach < g[todo] - 1e-12]
        if not len(todo):
            continue
        new = g[u] + _costs(index, nodes, graph, u, todo)
        better = new < g[todo] - 1e-12
        for v, cost in zip(todo[better], new[better], strict=True):
            g[v] = cost
            parent[v] = u
            heapq.heappush(heap, (float(cost + h[v]), int(v)))
    return None
