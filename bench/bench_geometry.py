"""Benchmark: all-destinations cheapest paths and LOS checks on a 200 x 200 hex map.

Run:  python bench/bench_geometry.py [--size 200] [--seed 1] [--repeat 7]

Builds a generated map with mixed terrain (clear, woods, rough, swamp,
prohibited mountain) and hexside costs (streams, impassable rivers), then
times, in the same run, searches from the centre hex to every hex that give
the same output -- the cheapest cost of every hex and one predecessor per hex:

* hxref's :meth:`MoveGraph.search`, the pure heapq search (``method="python"``);
* hxref's :meth:`MoveGraph.search` with the scipy accelerator (``method="scipy"``),
  when scipy is installed;
* networkx ``dijkstra_predecessor_and_distance`` (costs and every predecessor)
  and ``single_source_dijkstra_path_length`` (costs only, less work);
* scipy ``csgraph.dijkstra`` with ``return_predecessors=True``, when installed.

Every side searches the same graph: the networkx DiGraph and the scipy CSR
matrix are built from ``MoveGraph.adj``.  Graph building is timed apart (it is
not part of a search), and so is a repeated :func:`reachable` call, which
reuses the graph of the same position.  Every search is repeated the same
number of times, round-robin (one of each in turn, in a rotating order), and
the median is the figure; all must give the same costs.  Then LOS checks per
second on the same map with random elevations and woods.  This is not a test:
nothing asserts a timing.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hxref.geometry.hex import FourDigit, Hex, HexGrid, HexSide, distance  # noqa: E402
from hxref.geometry.los import SightTerrain, line_of_sight  # noqa: E402
from hxref.geometry import paths, paths_scipy  # noqa: E402
from hxref.geometry.paths import MoveGraph, MoveRules, reachable  # noqa: E402

TERRAIN = [("clear", 1.0, 0.55), ("woods", 2.0, 0.2), ("rough", 3.0, 0.12), ("swamp", 4.0, 0.08), ("mountain", None, 0.05)]


def generate(size: int, seed: int):
    rng = random.Random(seed)
    grid = HexGrid(FourDigit("even", col_digits=3, row_digits=3), (1, size), (1, size))
    hexes = list(grid.hexes())
    names, costs, weights = zip(*TERRAIN)
    terrain = {h: rng.choices(range(len(names)), weights)[0] for h in hexes}
    side_cost: dict[HexSide, float | None] = {}
    for h in hexes:
        for n in h.neighbours()[:3]:
            if n in grid:
                x = rng.random()
                if x < 0.08:
                    side_cost[HexSide(h, n)] = 1.0  # stream
                elif x < 0.10:
                    side_cost[HexSide(h, n)] = None  # river, no bridge
    # LOS terrain: a few round hills and the woods
    elevation = {h: 0 for h in hexes}
    for _ in range(size * size // 400):
        c = rng.choice(hexes)
        r = rng.randint(2, 6)
        for h in _disc(c, r, grid):
            elevation[h] = max(elevation[h], r - distance(c, h) // 2)
    return grid, hexes, terrain, side_cost, elevation


def _disc(c: Hex, r: int, grid: HexGrid):
    for dq in range(-r, r + 1):
        for dr in range(max(-r, -dq - r), min(r, -dq + r) + 1):
            h = Hex(c.q + dq, c.r + dr)
            if h in grid:
                yield h


def interleaved(contenders: dict[str, Callable[[], object]], repeat: int):
    """Run each contender ``repeat`` times round-robin, the order rotating each round.

    Returns the wall and CPU times of every run and each contender's last output.
    """
    names = list(contenders)
    wall: dict[str, list[float]] = {k: [] for k in names}
    cpu: dict[str, list[float]] = {k: [] for k in names}
    outs: dict[str, object] = {}
    for r in range(repeat):
        for k in names[r % len(names):] + names[:r % len(names)]:
            c0, t0 = time.process_time(), time.perf_counter()
            outs[k] = contenders[k]()
            wall[k].append(time.perf_counter() - t0)
            cpu[k].append(time.process_time() - c0)
    return wall, cpu, outs


PURE, FAST, SCIPY = ("hxref MoveGraph.search, pure Python", "hxref MoveGraph.search, scipy accelerator",
                     "scipy csgraph.dijkstra (costs + predecessors)")
NX_PRED, NX_LEN = ("networkx dijkstra_predecessor_and_distance", "networkx single_source_dijkstra_path_length (costs only)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=7, help="runs of every search, interleaved (default 7)")
    args = ap.parse_args()

    grid, hexes, terrain, side_cost, elevation = generate(args.size, args.seed)
    start = grid.labels.to_hex(args.size // 2, args.size // 2)
    terrain[start] = 0          # the unit stands on passable ground
    cost_of = [c for _, c, _ in TERRAIN]

    def step_cost(a: Hex, b: Hex):
        t = cost_of[terrain[b]]
        if t is None:
            return None
        s = side_cost.get(HexSide(a, b), 0.0)
        if s is None:
            return None
        return t + s

    rules = MoveRules(step_cost, key=("bench map", args.size, args.seed))
    t0 = time.perf_counter()
    graph = MoveGraph(hexes, rules)
    build_hx = time.perf_counter() - t0

    import networkx as nx

    t0 = time.perf_counter()
    G = nx.DiGraph()
    G.add_nodes_from(range(len(graph.hexes)))
    G.add_weighted_edges_from((u, v, w) for u, row in enumerate(graph.adj) for v, w in row)
    build_nx = time.perf_counter() - t0
    s = graph.index[start]
    edges = G.number_of_edges()

    contenders: dict[str, Callable[[], object]] = {PURE: lambda: graph.search(start, method="python")}
    builds = [f"hxref MoveGraph {build_hx:.3f} s", f"networkx DiGraph {build_nx:.3f} s"]
    if paths_scipy.available():
        import numpy as np
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import dijkstra

        t0 = time.perf_counter()
        graph.search(start, method="scipy")     # builds the accelerator's arrays, once per graph
        builds.append(f"hxref accelerator arrays + first search {time.perf_counter() - t0:.3f} s")
        t0 = time.perf_counter()
        rows = [u for u, row in enumerate(graph.adj) for _ in row]
        cols = [v for row in graph.adj for v, _ in row]
        weights = [w for row in graph.adj for _, w in row]
        M = csr_matrix((np.array(weights, float), (np.array(rows), np.array(cols))), shape=(len(graph), len(graph)))
        builds.append(f"scipy CSR matrix {time.perf_counter() - t0:.3f} s")
        contenders[FAST] = lambda: graph.search(start, method="scipy")
        contenders[SCIPY] = lambda: dijkstra(M, directed=True, indices=s, return_predecessors=True)
    contenders[NX_PRED] = lambda: nx.dijkstra_predecessor_and_distance(G, s, weight="weight")
    contenders[NX_LEN] = lambda: nx.single_source_dijkstra_path_length(G, s, weight="weight")
    wall, cpu, outs = interleaved(contenders, args.repeat)

    reach = outs[PURE]
    hx = {i: d for i, d in enumerate(reach.dist) if d != float("inf")}
    _pred, nx_dist = outs[NX_PRED]
    assert hx == dict(nx_dist) == dict(outs[NX_LEN]), "hxref and networkx disagree"
    if SCIPY in outs:
        fast = outs[FAST]
        assert fast.dist == reach.dist and fast.parent == reach.parent, "the accelerator differs from the pure search"
        sp_dist, _ = outs[SCIPY]
        assert {i: d for i, d in enumerate(sp_dist.tolist()) if d != float("inf")} == hx, "hxref and scipy disagree"
    # a path from hxref really costs what it says
    far = max(hx, key=hx.__getitem__)
    path = reach.path_to(graph.hexes[far])
    assert abs(sum(step_cost(a, b) for a, b in zip(path, path[1:])) - hx[far]) < 1e-9

    # the graph cache: the first reachable() of a position builds the graph, the next ones reuse it
    paths.clear_graph_cache()
    t0 = time.perf_counter()
    first = reachable(rules, hexes, start, 12)
    t_first = time.perf_counter() - t0
    t0 = time.perf_counter()
    again = reachable(rules, hexes, start, 12)
    t_again = time.perf_counter() - t0
    assert first == again

    print(f"map: {args.size} x {args.size} = {len(hexes):,} hexes, {edges:,} passable directed steps, seed {args.seed}")
    print(f"compared: one search from {grid.label(start)} to every hex ({len(hx):,} reached); the same graph and "
          f"costs on every side; each search run {args.repeat} times round-robin in a rotating order, one process, "
          f"one thread; medians of wall and CPU time in ms, ratios of the CPU medians; every side's costs "
          f"checked equal, the accelerator's parents too")
    print("graph build (not part of any search): " + ", ".join(builds))
    med = {k: statistics.median(v) for k, v in wall.items()}
    cmed = {k: statistics.median(v) for k, v in cpu.items()}
    base, ref = cmed[PURE], cmed.get(SCIPY)
    print(f"  {'search':<58} {'wall':>8} {'CPU':>8}   {'x pure hxref':>12}" + (f"   {'x scipy':>8}" if ref else ""))
    for k in wall:
        line = f"  {k:<58} {med[k] * 1000:8.1f} {cmed[k] * 1000:8.1f}   {cmed[k] / base:12.2f}"
        if ref is not None:
            line += f"   {cmed[k] / ref:8.2f}"
        print(line)
    if ref is None:
        print("  (scipy is not installed: no accelerator, no scipy column; pip install 'hxref[fast]')")
    print(f"reachable(rules with a key, 12 MP): first call {t_first:.3f} s (builds the graph), "
          f"the same position again {t_again * 1000:.1f} ms (graph reused)")

    # LOS
    woods = {h for h in hexes if terrain[h] == 1}
    sight = SightTerrain(ground=elevation.__getitem__, obstacle=lambda h: 1.0 if h in woods else 0.0)
    rng = random.Random(args.seed + 1)
    for label, max_range in (("random pairs anywhere on the map", None), ("pairs within 20 hexes", 20)):
        pairs = []
        while len(pairs) < 2000:
            a = rng.choice(hexes)
            if max_range is None:
                b = rng.choice(hexes)
            else:
                b = Hex(a.q + rng.randint(-max_range, max_range), a.r + rng.randint(-max_range, max_range))
                if b not in grid or distance(a, b) > max_range:
                    continue
            pairs.append((a, b))
        t0 = time.perf_counter()
        visible = sum(1 for a, b in pairs if line_of_sight(sight, a, b, 0.5, 0.5).visible)
        dt = time.perf_counter() - t0
        mean = statistics.mean(distance(a, b) for a, b in pairs)
        print(f"LOS, {label} (mean range {mean:.0f} hexes): {len(pairs) / dt:,.0f} checks/s ({visible} of {len(pairs)} visible)")


if __name__ == "__main__":
    main()
