"""The optional scipy accelerator of :meth:`hxref.geometry.paths.MoveGraph.search`.

``scipy.sparse.csgraph.dijkstra`` finds the same cheapest costs as the pure
heapq search many times faster on a large map; this module gives it the same
graph and makes its answer *identical* to the pure search's:

* **the graph**: a stop hex is entered but never left, so its outgoing steps
  are left out -- except for the start hex, which never stops the unit;
* **the limit**: the pure search keeps a hex whose cost is at most
  ``max_cost``; scipy is run a hair above the limit and anything over it is
  dropped, so a hex exactly at the limit is kept on both sides;
* **the paths**: scipy's predecessors break ties its own way.  The pure search
  settles hexes in ``(cost, index)`` order (its heap holds ``(cost, index)``
  pairs) and keeps the first settled hex that reaches a neighbour at its
  cheapest cost; with every step cost positive that rule depends on the
  costs alone, so the parents are recomputed from the costs with it.  A graph
  with a zero-cost step settles equal-cost hexes in push order instead, and
  is left to the pure search (:attr:`CsGraph.usable` is false);
* **the numbers**: a graph whose step costs are all ``int`` gives ``int``
  costs, as the pure search does (sums of integers are exact in a double up
  to 2**53); the start hex costs ``0``.

scipy is imported only when the accelerator is used; :func:`available` says
whether it can be.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .paths import MoveGraph

INF = float("inf")
_AVAILABLE: bool | None = None


def available() -> bool:
    """True when ``scipy.sparse.csgraph`` can be imported (checked once)."""
    global _AVAILABLE
    if _AVAILABLE is None:
        try:
            import scipy.sparse.csgraph  # noqa: F401
        except ImportError:
            _AVAILABLE = False
        else:
            _AVAILABLE = True
    return _AVAILABLE


class CsGraph:
    """One :class:`~hxref.geometry.paths.MoveGraph` as scipy CSR arrays, built once per graph.

    For the parent pass the steps are also laid out by the hex entered: ``in_src[k, v]`` is the
    hex the ``k``-th step into ``v`` leaves (a hex is entered from at most six neighbours), padded
    with ``n``, a hex that is never reached.
    """

    def __init__(self, graph: "MoveGraph") -> None:
        import numpy as np

        adj = graph.adj
        n = len(adj)
        counts = np.fromiter((len(row) for row in adj), np.int32, count=n)
        edges = int(counts.sum())
        self.n = n
        self.counts = counts
        self.dst = np.fromiter((v for row in adj for v, _ in row), np.int32, count=edges)
        self.w = np.fromiter((w for row in adj for _, w in row), np.float64, count=edges)
        self.src = np.repeat(np.arange(n, dtype=np.intp), counts)
        self.stop = np.fromiter(graph.stop, bool, count=n)
        kinds = {int: 0, float: 1}
        kind = np.fromiter((kinds.get(type(w), 2) for row in adj for _, w in row), np.int8, count=edges)
        self.int_costs = bool((kind == 0).all())
        self.float_costs = bool((kind == 1).all())
        self.mixed = not (self.int_costs or self.float_costs)
        # another number type (a Fraction) would not add up alike in a double
        self.usable = edges == 0 or bool(self.w.min() > 0 and kind.max() < 2)
        into = np.bincount(self.dst, minlength=n)
        slots = max(int(into.max()), 1) if edges else 1
        by_dst = np.argsort(self.dst, kind="stable")
        first = np.zeros(n, np.int64)
        np.cumsum(into[:-1], out=first[1:])
        dst = self.dst[by_dst]
        slot = np.arange(edges) - first[dst]
        self.in_src = np.full((slots, n), n, np.intp)
        self.in_src[slot, dst] = self.src[by_dst]
        self.in_w = np.full((slots, n), INF)
        self.in_w[slot, dst] = self.w[by_dst]
        # a step's key is the hex it leaves; with mixed int and float steps, doubled, the low bit
        # telling whether the step costs a float (the pure search's sum is then a float)
        self.none = 2 * n if self.mixed else n
        self.in_key = np.full((slots, n), self.none, np.int64)
        self.in_key[slot, dst] = 2 * self.src[by_dst] + (kind[by_dst] != 0) if self.mixed else self.src[by_dst]
        self.in_leaves = np.append(~self.stop, False)[self.in_src]
        # a stop hex is never left: its row is empty (the start's row is put back per search)
        self._moving = self._matrix(~self.stop)

    def _matrix(self, leaves: Any) -> Any:
        import numpy as np
        from scipy.sparse import csr_matrix

        keep = leaves[self.src]
        indptr = np.zeros(self.n + 1, np.int32)
        np.cumsum(np.where(leaves, self.counts, 0), out=indptr[1:])
        return csr_matrix((self.w[keep], self.dst[keep], indptr), shape=(self.n, self.n))

    def search(self, s: int, limit: float) -> tuple[list, list[int]]:
        """Costs and parents from hex index ``s``, as the pure search gives them."""
        import numpy as np
        from scipy.sparse.csgraph import dijkstra

        n = self.n
        in_leaves = self.in_leaves
        if self.stop[s]:
            leaves = ~self.stop
            leaves[s] = True
            matrix = self._matrix(leaves)
            in_leaves = in_leaves | (self.in_src == s)
        else:
            matrix = self._moving
        above = INF if limit == INF else float(np.nextafter(limit, INF))
        dist = dijkstra(matrix, directed=True, indices=s, limit=above, min_only=True)
        if limit != INF:
            dist[dist > limit] = np.inf
        reached = np.isfinite(dist)
        # the pure search settles hexes in (cost, index) order, and a hex's parent is the first
        # settled hex that is left and reaches it at its cost: the cheapest such hex, and of those
        # the lowest index -- one minimum over the slots, then another
        cand = np.append(dist, INF)[self.in_src]
        best = np.equal(cand + self.in_w, dist)
        best &= in_leaves
        np.putmask(cand, ~best, INF)
        best &= np.equal(cand, cand.min(axis=0))
        key = self.in_key.copy()
        np.putmask(key, ~best, self.none)
        low = key.min(axis=0)
        low[~reached] = self.none
        low[s] = self.none
        if self.mixed:
            floated = (low & 1).astype(bool)
            low >>= 1
        parent = np.where(low == n, -1, low)
        if self.int_costs:
            costs: list = np.where(reached, dist, 0).astype(np.int64).tolist()
            for i in np.flatnonzero(~reached).tolist():
                costs[i] = INF
        else:
            costs = dist.tolist()
            if self.mixed:
                # the pure search's sum is an int as long as every step on the way to the hex is one
                up = np.where(parent >= 0, parent, np.arange(n))
                while True:             # pointer jumping: log2(path length) rounds
                    floated |= floated[up]
                    higher = up[up]
                    if np.array_equal(higher, up):
                        break
                    up = higher
                for i in np.flatnonzero(reached & ~floated).tolist():
                    costs[i] = int(costs[i])
        costs[s] = 0
        return costs, parent.tolist()
