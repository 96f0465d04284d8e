"""Movement on a hex map: cheapest paths and reachable hexes.

The rules module supplies the terrain as callables (nothing here knows a
terrain chart):

* ``step_cost(a, b)`` -- movement points to step from ``a`` into the adjacent
  hex ``b``: the cost of the hex entered plus any hexside cost (river, slope,
  barbed wire, fence), or the road/rail rate when the step follows a road.
  ``None`` (or a :class:`Prohibited` giving the reason) means the step is
  not allowed: prohibited terrain or hexside, off the map.
* ``stops(h)`` -- true (or a reason string) when a unit entering ``h`` must
  stop there, like entering an enemy zone of control.
* ``zoc(h)`` -- true when ``h`` is in enemy ZOC; a step from one such hex
  straight into another is then prohibited ("no ZOC to ZOC").

:class:`MoveGraph` compiles those callables once for a set of hexes into
integer neighbour and cost arrays, and :meth:`MoveGraph.search` is a plain
heapq Dijkstra over them.  A move order given hex by hex is walked by
:func:`hxref.kit.walk.walk`.

Costs may be any non-negative numbers; halves and quarters (1.5 MF, 0.5 MP)
add up exactly in floating point.

>>> from hxref.geometry.hex import Hex, hex_range
>>> rules = MoveRules(step_cost=lambda a, b: 1)
>>> reach = MoveGraph(hex_range(Hex(0, 0), 3), rules).search(Hex(0, 0), max_cost=2)
>>> len(reach.costs()), reach.cost(Hex(2, 0))
(19, 2)
"""
from __future__ import annotations

from dataclasses import dataclass
from heapq import heappop, heappush
from typing import Callable, Iterable, Union

from .hex import Hex


@dataclass(frozen=True)
class Prohibited:
    """A step that is not allowed, with the reason (\"major river, no bridge\")."""

    reason: str


Cost = Union[int, float, None, Prohibited]
StepCost = Callable[[Hex, Hex], Cost]


def is_prohibited(cost: Cost) -> bool:
    """True for ``None`` and :class:`Prohibited`."""
    return cost is None or isinstance(cost, Prohibited)


@dataclass(frozen=True)
class MoveRules:
    """The movement rules of one unit for one move, as callbacks.

    ``stops`` and ``zoc`` are optional.  A unit never has to stop in the hex
    it starts in, and may leave a ZOC hex it starts in (but not straight into
    another ZOC hex).
    """

    step_cost: StepCost
    stops: Callable[[Hex], Union[bool, str]] | None = None
    zoc: Callable[[Hex], bool] | None = None
    zoc_reason: str = "no ZOC-to-ZOC movement"

    def cost(self, a: Hex, b: Hex) -> Cost:
        """The cost of the step ``a`` -> ``b``, ZOC-to-ZOC included."""
        if self.zoc is not None and self.zoc(a) and self.zoc(b):
            return Prohibited(self.zoc_reason)
        return self.step_cost(a, b)

    def stop_reason(self, h: Hex) -> str | None:
        """Why a unit entering ``h`` must stop, or None."""
        if self.stops is None:
            return None
        why = self.stops(h)
        if not why:
            return None
        return why if isinstance(why, str) else "must stop on entering this hex"


INF = float("inf")


class MoveGraph:
    """The hexes of a map with the step costs of one :class:`MoveRules`, compiled.

    Build once per unit type and situation; search as often as needed.
    """

    def __init__(self, hexes: Iterable[Hex], rules: MoveRules) -> None:
        self.hexes: list[Hex] = list(dict.fromkeys(hexes))
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        self.rules = rules
        index = self.index
        cost = rules.cost
        adj: list[tuple[tuple[int, float], ...]] = []
        for h in self.hexes:
            row = []
            for n in h.neighbours():
                j = index.get(n)
                if j is None:
                    continue
                c = cost(h, n)
                if c is None or isinstance(c, Prohibited):
                    continue
                if c < 0:
                    raise ValueError(f"negative step cost {c} from {h!r} to {n!r}")
                row.append((j, c))
            adj.append(tuple(row))
        self.adj = adj
        if rules.stops is None:
            self.stop = [False] * len(self.hexes)
        else:
            self.stop = [bool(rules.stops(h)) for h in self.hexes]

    def __len__(self) -> int:
        return len(self.hexes)

    def search(self, start: Hex, max_cost: float | None = None, goal: Hex | None = None) -> "Reach":
        """Cheapest paths from ``start`` (Dijkstra).

        ``max_cost`` leaves out hexes that cost more; ``goal`` stops the search
        as soon as the cheapest path to it is known.
        """
        try:
            s = self.index[start]
        except KeyError:
            raise ValueError(f"start hex {start!r} is not on the map") from None
        g = -1 if goal is None else self.index.get(goal, -1)
        limit = INF if max_cost is None else max_cost
        n = len(self.hexes)
        dist = [INF] * n
        parent = [-1] * n
        adj = self.adj
        stop = self.stop
        dist[s] = 0
        heap: list[tuple[float, int]] = [(0, s)]
        pop, push = heappop, heappush
        # the start hex never stops the unit; a goal ends the search when it is settled
        stop = list(stop)
        stop[s] = False
        if g >= 0:
            stop[g] = True
        while heap:
            d, u = pop(heap)
            if d > dist[u]:
                continue
            if stop[u]:
                if u == g:
                    break
                continue
            for v, w in adj[u]:
                nd = d + w
                if nd < dist[v] and nd <= limit:
                    dist[v] = nd
                    parent[v] = u
                    push(heap, (nd, v))
        return Reach(self, start, dist, parent)


@dataclass
class Reach:
    """The result of one search: cost and cheapest path to every reached hex."""

    graph: MoveGraph
    start: Hex
    dist: list[float]
    parent: list[int]

    def cost(self, h: Hex) -> float | None:
        """Cheapest cost to ``h``, or None if it cannot be reached (within the limit)."""
        i = self.graph.index.get(h)
        if i is None or self.dist[i] == INF:
            return None
        return self.dist[i]

    def __contains__(self, h: Hex) -> bool:
        return self.cost(h) is not None

    def path_to(self, h: Hex) -> list[Hex] | None:
        """The cheapest path from the start to ``h`` (both included), or None."""
        i = self.graph.index.get(h)
        if i is None or self.dist[i] == INF:
            return None
        out = []
        hexes, parent = self.graph.hexes, self.parent
        while i != -1:
            out.append(hexes[i])
            i = parent[i]
        out.reverse()
        return out

    def costs(self) -> dict[Hex, float]:
        """Every reached hex and its cheapest cost."""
        hexes = self.graph.hexes
        return {hexes[i]: d for i, d in enumerate(self.dist) if d != INF}

    def within(self, mp: float) -> dict[Hex, float]:
        """The reached hexes costing at most ``mp``."""
        hexes = self.graph.hexes
        return {hexes[i]: d for i, d in enumerate(self.dist) if d <= mp}


def cheapest_path(rules: MoveRules, hexes: Iterable[Hex], start: Hex, goal: Hex) -> tuple[list[Hex], float] | None:
    """The cheapest legal path from ``start`` to ``goal`` and its cost, or None."""
    reach = MoveGraph(hexes, rules).search(start, goal=goal)
    path = reach.path_to(goal)
    return None if path is None else (path, reach.dist[reach.graph.index[goal]])


def reachable(rules: MoveRules, hexes: Iterable[Hex], start: Hex, mp: float) -> dict[Hex, float]:
    """Every hex a unit at ``start`` can reach with ``mp`` movement points, with its cost."""
    return MoveGraph(hexes, rules).search(start, max_cost=mp).costs()
