"""Benchmark: all-destinations cheapest paths and LOS checks on a 200 x 200 hex map.

Run:  python bench/bench_geometry.py [--size 200] [--seed 1]

Builds a generated map with mixed terrain (clear, woods, rough, swamp,
prohibited mountain) and hexside costs (streams, impassable rivers), then
times, in the same run:

* hxref's :meth:`MoveGraph.search` from the centre hex to every hex;
* networkx's ``single_source_dijkstra`` on the same weighted directed graph
  (and ``single_source_dijkstra_path_length``, which builds no paths);

graph building is excluded for both.  Both must give the same costs.  Then
LOS checks per second on the same map with random elevations and woods.
This is not a test: nothing asserts a timing.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hxref.geometry.hex import FourDigit, Hex, HexGrid, HexSide, distance  # noqa: E402
from hxref.geometry.los import SightTerrain, line_of_sight  # noqa: E402
from hxref.geometry.paths import MoveGraph, MoveRules  # noqa: E402

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


def best_of(fn, n: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(n):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    grid, hexes, terrain, side_cost, elevation = generate(args.size, args.seed)
    cost_of = [c for _, c, _ in TERRAIN]

    def step_cost(a: Hex, b: Hex):
        t = cost_of[terrain[b]]
        if t is None:
            return None
        s = side_cost.get(HexSide(a, b), 0.0)
        if s is None:
            return None
        return t + s

    rules = MoveRules(step_cost)
    t0 = time.perf_counter()
    graph = MoveGraph(hexes, rules)
    build_hx = time.perf_counter() - t0
    start = grid.labels.to_hex(args.size // 2, args.size // 2)
    if terrain[start] == 4:
        terrain[start] = 0
        graph = MoveGraph(hexes, rules)

    import networkx as nx

    t0 = time.perf_counter()
    G = nx.DiGraph()
    G.add_nodes_from(range(len(graph.hexes)))
    G.add_weighted_edges_from((u, v, w) for u, row in enumerate(graph.adj) for v, w in row)
    build_nx = time.perf_counter() - t0
    s = graph.index[start]
    edges = G.number_of_edges()

    t_hx, reach = best_of(lambda: graph.search(start), args.repeat)
    t_nx, (nx_dist, _paths) = best_of(lambda: nx.single_source_dijkstra(G, s, weight="weight"), max(2, args.repeat // 2))
    t_nx_len, nx_len = best_of(lambda: nx.single_source_dijkstra_path_length(G, s, weight="weight"), max(2, args.repeat // 2))

    hx = {i: d for i, d in enumerate(reach.dist) if d != float("inf")}
    assert hx == dict(nx_dist) == dict(nx_len), "hxref and networkx disagree"
    # a path from hxref really costs what it says
    far = max(hx, key=hx.get)
    path = reach.path_to(graph.hexes[far])
    assert abs(sum(step_cost(a, b) for a, b in zip(path, path[1:])) - hx[far]) < 1e-9

    print(f"map: {args.size} x {args.size} = {len(hexes):,} hexes, {edges:,} passable directed steps, seed {args.seed}")
    print(f"graph build (excluded): hxref MoveGraph {build_hx:.3f} s, networkx DiGraph {build_nx:.3f} s")
    print(f"all-destinations cheapest paths from {grid.label(start)} ({len(hx):,} hexes reached), best of runs:")
    print(f"  hxref MoveGraph.search                   {t_hx * 1000:8.1f} ms")
    print(f"  networkx single_source_dijkstra          {t_nx * 1000:8.1f} ms   ratio networkx/hxref = {t_nx / t_hx:.2f}x")
    print(f"  networkx single_source_dijkstra_path_length {t_nx_len * 1000:5.1f} ms   ratio networkx/hxref = {t_nx_len / t_hx:.2f}x")
    verdict = "hxref is at least as fast" if t_hx <= min(t_nx, t_nx_len) else "hxref is SLOWER than networkx"
    print(f"  -> {verdict}")

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
