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
heapq Dijkstra over them.  On a large map (:data:`ACCELERATE_FROM` hexes and
more) a search without a goal uses ``scipy.sparse.csgraph.dijkstra`` when
scipy is installed (the ``fast`` extra); :mod:`.paths_scipy` makes its costs
and paths identical to the pure search's.  A move order given hex by hex is
walked by :func:`hxref.kit.walk.walk`.

Building the graph calls the callbacks for every step of the map, which costs
several searches.  :func:`movement_graph` keeps the graphs of the last few
situations, keyed by :attr:`MoveRules.key` (what the costs depend on) and the
hexes; :func:`reachable` and :func:`cheapest_path` use it when the rules carry
a key, and build afresh when they do not.

Costs may be any non-negative numbers; halves and quarters (1.5 MF, 0.5 MP)
add up exactly in floating point.

>>> from hxref.geometry.hex import Hex, hex_range
>>> rules = MoveRules(step_cost=lambda a, b: 1)
>>> reach = MoveGraph(hex_range(Hex(0, 0), 3), rules).search(Hex(0, 0), max_cost=2)
>>> len(reach.costs()), reach.cost(Hex(2, 0))
(19, 2)
"""
from __future__ import annotations

import copy
from collections import OrderedDict
from dataclasses import dataclass
from heapq import heappop, heappush
from typing import Any, Callable, Hashable, Iterable, Union

from . import paths_scipy
from .hex import _VECTORS, Hex


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

    ``key`` names everything the three callbacks depend on -- the map's
    terrain, the unit type, the weather, the hexes that block or exert ZOC --
    as a hashable value: two rules with equal keys must give equal costs on
    the same hexes.  With a key, :func:`movement_graph` (and so
    :func:`reachable` and :func:`cheapest_path`) reuses the graph built for an
    equal key, so a new position must come with a new key.  Without one (the
    default) every call builds its own graph.
    """

    step_cost: StepCost
    stops: Callable[[Hex], Union[bool, str]] | None = None
    zoc: Callable[[Hex], bool] | None = None
    zoc_reason: str = "no ZOC-to-ZOC movement"
    key: Hashable | None = None

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
ACCELERATE_FROM = 10_000    # hexes: below this the pure search wins (importing scipy alone costs 0.2-0.5 s)
METHODS = ("auto", "python", "scipy")


class MoveGraph:
    """The hexes of a map with the step costs of one :class:`MoveRules`, compiled.

    Build once per unit type and situation; search as often as needed.
    """

    def __init__(self, hexes: Iterable[Hex], rules: MoveRules) -> None:
        self.hexes: list[Hex] = list(dict.fromkeys(hexes))
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        self.rules = rules
        index = self.index
        # without ZOC the step cost is the whole cost: call it directly (this loop makes every step)
        cost = rules.step_cost if rules.zoc is None else rules.cost
        make = tuple.__new__        # Hex(q, r) without the NamedTuple constructor's call
        adj: list[tuple[tuple[int, float], ...]] = []
        for h in self.hexes:
            row = []
            q, r = h
            for dq, dr in _VECTORS:
                n = make(Hex, (q + dq, r + dr))
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
        self._cs: Any = None

    def __len__(self) -> int:
        return len(self.hexes)

    def without_steps_from(self, hexes: Iterable[Hex]) -> "MoveGraph":
        """This graph with no step out of ``hexes``: a search reaches them and goes no further.

        For a situation whose costs are this graph's except that every step out of ``hexes`` is
        prohibited (enemy units cutting a line), without calling the costs again; the steps are
        shared with this graph, and :attr:`rules` stays this graph's.

        >>> from hxref.geometry.hex import hex_range
        >>> graph = MoveGraph(hex_range(Hex(0, 0), 2), MoveRules(step_cost=lambda a, b: 1))
        >>> closed = graph.without_steps_from([Hex(0, 0)])
        >>> closed.search(Hex(1, 0)).cost(Hex(0, 0)), closed.search(Hex(0, 0)).costs()
        (1, {Hex(0, 0): 0})
        >>> len(graph.search(Hex(0, 0)).costs())
        19
        """
        closed = {self.index[h] for h in hexes if h in self.index}
        out = copy.copy(self)
        out.adj = [() if i in closed else row for i, row in enumerate(self.adj)]
        out._cs = None
        return out

    def search(self, start: Hex, max_cost: float | None = None, goal: Hex | None = None,
               method: str = "auto") -> "Reach":
        """Cheapest paths from ``start`` (Dijkstra).

        ``max_cost`` leaves out hexes that cost more; ``goal`` stops the search
        as soon as the cheapest path to it is known (the costs of the hexes
        not yet settled then are provisional).  ``method`` is ``"python"``
        (the heapq search), ``"scipy"`` (the accelerator; ValueError when it
        cannot give the same answer) or ``"auto"``: scipy for a search
        without a goal on a graph of :data:`ACCELERATE_FROM` hexes or more,
        when scipy is installed and every step costs more than zero.
        """
        if method not in METHODS:
            raise ValueError(f"unknown search method {method!r}: one of {', '.join(METHODS)}")
        try:
            s = self.index[start]
        except KeyError:
            raise ValueError(f"start hex {start!r} is not on the map") from None
        g = -1 if goal is None else self.index.get(goal, -1)
        limit = INF if max_cost is None else max_cost
        if method == "scipy" or (method == "auto" and len(self.hexes) >= ACCELERATE_FROM):
            why = self._no_accelerator(goal, limit)
            if why is None:
                dist, parent = self._cs.search(s, limit)
                return Reach(self, start, dist, parent)
            if method == "scipy":
                raise ValueError(f"the scipy search cannot be used here: {why}")
        return self._search_python(s, start, g, limit)

    def _no_accelerator(self, goal: Hex | None, limit: float) -> str | None:
        """Why the scipy search would not give the pure search's answer, or None."""
        if goal is not None:
            return "a search with a goal stops early"
        if limit < 0:
            return "a negative limit"
        if not paths_scipy.available():
            return "scipy is not installed"
        if self._cs is None:
            self._cs = paths_scipy.CsGraph(self)
        if not self._cs.usable:
            return "a step costs zero (or is neither an int nor a float)"
        return None

    def _search_python(self, s: int, start: Hex, g: int, limit: float) -> "Reach":
        """The heapq search: hexes settle in (cost, index) order, the first to reach a hex is its parent."""
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


GRAPHS_KEPT = 8        # the graphs of the last situations seen (a 200 x 200 map's is about 30 MB)
_GRAPHS: "OrderedDict[tuple[Hashable, tuple[Hex, ...]], MoveGraph]" = OrderedDict()


def movement_graph(hexes: Iterable[Hex], rules: MoveRules) -> MoveGraph:
    """The graph of ``rules`` on ``hexes``: built once per :attr:`MoveRules.key` and hexes.

    Rules without a key get a new graph every time.
    """
    if rules.key is None:
        return MoveGraph(hexes, rules)
    hexes = tuple(dict.fromkeys(hexes))
    # the hexes are part of the key: the same rules on another map (or part of one) is another graph
    key = (rules.key, hexes)
    graph = _GRAPHS.get(key)
    if graph is None:
        graph = MoveGraph(hexes, rules)
        _GRAPHS[key] = graph
        if len(_GRAPHS) > GRAPHS_KEPT:
            _GRAPHS.popitem(last=False)
    else:
        _GRAPHS.move_to_end(key)
    return graph


def clear_graph_cache() -> None:
    """Forget every graph kept by :func:`movement_graph`."""
    _GRAPHS.clear()


def cheapest_path(rules: MoveRules, hexes: Iterable[Hex], start: Hex, goal: Hex) -> tuple[list[Hex], float] | None:
    """The cheapest legal path from ``start`` to ``goal`` and its cost, or None."""
    reach = movement_graph(hexes, rules).search(start, goal=goal)
    path = reach.path_to(goal)
    return None if path is None else (path, reach.dist[reach.graph.index[goal]])


def reachable(rules: MoveRules, hexes: Iterable[Hex], start: Hex, mp: float) -> dict[Hex, float]:
    """Every hex a unit at ``start`` can reach with ``mp`` movement points, with its cost."""
    return movement_graph(hexes, rules).search(start, max_cost=mp).costs()
