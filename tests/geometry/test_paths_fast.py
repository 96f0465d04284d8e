"""The scipy accelerator gives the pure search's answer exactly; the graph cache never serves a stale graph."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hxref.geometry import paths
from hxref.geometry.hex import FourDigit, Hex, HexGrid, HexSide
from hxref.geometry.paths import MoveGraph, MoveRules, cheapest_path, movement_graph, reachable

# --------------------------------------------------------------------------
# scipy against the pure search, on random maps and costs

COSTS = {
    # few distinct values: many equal-cost paths, so the tie-breaking of the parents shows
    "integers": [1, 1, 1, 2, 3, None],
    "halves": [0.5, 1, 1.5, 2, None],
    # values with no exact binary form: sums round, and both sides must round alike
    "decimals": [0.1, 0.2, 0.3, 0.7, 1 / 3, None],
}


@st.composite
def random_maps(draw):
    kind = draw(st.sampled_from(sorted(COSTS)))
    values = COSTS[kind]
    rng = random.Random(draw(st.integers(0, 2**32)))
    cols, rows = draw(st.integers(1, 14)), draw(st.integers(1, 14))
    grid = HexGrid(FourDigit(parity=draw(st.sampled_from(["even", "odd"]))), (1, cols), (1, rows))
    hexes = list(grid.hexes())
    rng.shuffle(hexes)          # the index order is what breaks ties: vary it
    hex_cost = {h: rng.choice(values) for h in hexes}
    side_extra = [v for v in values if v is not None][:2] + [None]
    side_cost = {HexSide(a, b): rng.choice(side_extra) for a in hexes for b in grid.neighbours(a) if rng.random() < 0.2}
    stop_rate, zoc_rate = draw(st.sampled_from([0, 0.1, 0.3])), draw(st.sampled_from([0, 0.2]))
    stop = {h for h in hexes if rng.random() < stop_rate}
    zoc = {h for h in hexes if rng.random() < zoc_rate}

    def step(a, b):
        c = hex_cost.get(b)
        s = side_cost.get(HexSide(a, b), 0)
        if c is None or s is None:
            return None
        return c + s if s else c

    rules = MoveRules(step, stops=stop.__contains__, zoc=zoc.__contains__)
    start = rng.choice(hexes)
    limit = draw(st.sampled_from([None, 0, 1, 2.5, 3, 0.6, 5]))
    return hexes, rules, start, limit


@settings(max_examples=300, deadline=None)
@given(random_maps())
def test_scipy_gives_the_pure_search_costs_and_paths(m):
    pytest.importorskip("scipy")
    hexes, rules, start, limit = m
    graph = MoveGraph(hexes, rules)
    pure = graph.search(start, max_cost=limit, method="python")
    fast = graph.search(start, max_cost=limit, method="scipy")
    assert fast.dist == pure.dist
    assert [type(d) for d in fast.dist] == [type(d) for d in pure.dist]
    assert fast.parent == pure.parent
    for h in hexes:
        assert fast.path_to(h) == pure.path_to(h)


def _grid_rules(values, seed, size=12):
    rng = random.Random(seed)
    grid = HexGrid(FourDigit("even"), (1, size), (1, size))
    hexes = list(grid.hexes())
    cost = {h: rng.choice(values) for h in hexes}
    return hexes, MoveRules(lambda a, b: cost[b])


def test_a_start_that_is_a_stop_hex_is_left_on_both_sides():
    pytest.importorskip("scipy")
    hexes, rules = _grid_rules([1, 2], 3)
    rules = MoveRules(rules.step_cost, stops=lambda h: True)     # every hex stops the unit
    graph = MoveGraph(hexes, rules)
    fast = graph.search(hexes[40], method="scipy")
    assert fast.dist == graph.search(hexes[40], method="python").dist
    assert len(fast.costs()) == 1 + len(set(hexes[40].neighbours()) & set(hexes))


def test_zero_cost_steps_stay_with_the_pure_search():
    pytest.importorskip("scipy")
    hexes, rules = _grid_rules([0, 1], 5)
    graph = MoveGraph(hexes, rules)
    with pytest.raises(ValueError, match="a step costs zero"):
        graph.search(hexes[0], method="scipy")
    paths_big = paths.ACCELERATE_FROM
    try:
        paths.ACCELERATE_FROM = 1
        assert graph.search(hexes[0]).dist == graph.search(hexes[0], method="python").dist
    finally:
        paths.ACCELERATE_FROM = paths_big


def test_auto_uses_scipy_on_large_maps_only(monkeypatch):
    pytest.importorskip("scipy")
    hexes, rules = _grid_rules([1, 2, 3], 7)
    graph = MoveGraph(hexes, rules)
    graph.search(hexes[0])
    assert graph._cs is None                       # 144 hexes: the pure search
    monkeypatch.setattr(paths, "ACCELERATE_FROM", 100)
    assert graph.search(hexes[0]).dist == graph.search(hexes[0], method="python").dist
    assert graph._cs is not None
    # a search with a goal stops early: always the pure search
    with pytest.raises(ValueError, match="goal"):
        graph.search(hexes[0], goal=hexes[5], method="scipy")


def test_without_scipy_auto_falls_back(monkeypatch):
    monkeypatch.setattr(paths.paths_scipy, "_AVAILABLE", False)
    monkeypatch.setattr(paths, "ACCELERATE_FROM", 1)
    hexes, rules = _grid_rules([1, 2], 9)
    graph = MoveGraph(hexes, rules)
    assert graph.search(hexes[3]).dist == graph.search(hexes[3], method="python").dist
    with pytest.raises(ValueError, match="scipy is not installed"):
        graph.search(hexes[3], method="scipy")
    with pytest.raises(ValueError, match="unknown search method"):
        graph.search(hexes[3], method="fortran")


# --------------------------------------------------------------------------
# the graph cache


class Position:
    """A unit's movement among enemy units: each enemy hex is prohibited; the step costs are counted."""

    def __init__(self, grid: HexGrid, enemies: set[Hex]) -> None:
        self.grid, self.enemies, self.calls = grid, set(enemies), 0

    def rules(self, keyed: bool = True) -> MoveRules:
        def step(a, b):
            self.calls += 1
            return None if b in self.enemies else 1

        return MoveRules(step, key=("infantry", frozenset(self.enemies)) if keyed else None)


@pytest.fixture()
def grid():
    paths.clear_graph_cache()
    yield HexGrid(FourDigit("even"), (1, 6), (1, 6))
    paths.clear_graph_cache()


def test_the_same_position_builds_the_graph_once(grid):
    pos = Position(grid, {grid.parse("0303")})
    start, goal = grid.parse("0101"), grid.parse("0505")
    first = reachable(pos.rules(), grid.hexes(), start, 3)
    built = pos.calls
    assert built > 0
    # a new rules object, generator of hexes and call, all for the same position: no rebuild
    assert reachable(pos.rules(), grid.hexes(), start, 3) == first
    assert cheapest_path(pos.rules(), grid.hexes(), start, goal) is not None
    assert movement_graph(grid.hexes(), pos.rules()) is movement_graph(list(grid.hexes()), pos.rules())
    assert pos.calls == built


def test_a_changed_position_is_never_served_a_stale_graph(grid):
    pos = Position(grid, set())
    start, x = grid.parse("0101"), grid.parse("0201")
    assert reachable(pos.rules(), grid.hexes(), start, 1)[x] == 1
    pos.enemies.add(x)              # an enemy moves in next to the unit: the key changes with it
    assert x not in reachable(pos.rules(), grid.hexes(), start, 1)
    path, cost = cheapest_path(pos.rules(), grid.hexes(), start, grid.parse("0301"))
    assert x not in path and cost == 4        # round the enemy hex, not 2 through it
    assert (path, cost) == cheapest_path(pos.rules(keyed=False), grid.hexes(), start, grid.parse("0301"))
    pos.enemies.discard(x)          # and moves away again: back to the first graph, which is still right
    assert reachable(pos.rules(), grid.hexes(), start, 1)[x] == 1


def test_another_map_is_another_graph(grid):
    pos = Position(grid, set())
    small = [h for h in grid.hexes() if grid.label(h)[:2] in ("01", "02")]
    assert len(reachable(pos.rules(), grid.hexes(), grid.parse("0101"), 9)) == 36
    assert len(reachable(pos.rules(), small, grid.parse("0101"), 9)) == len(small)


def test_rules_without_a_key_are_not_cached(grid):
    pos = Position(grid, set())
    reachable(pos.rules(keyed=False), grid.hexes(), grid.parse("0101"), 2)
    once = pos.calls
    pos.enemies.add(grid.parse("0201"))
    assert grid.parse("0201") not in reachable(pos.rules(keyed=False), grid.hexes(), grid.parse("0101"), 2)
    assert pos.calls == 2 * once
    assert movement_graph(grid.hexes(), pos.rules(keyed=False)) is not movement_graph(grid.hexes(), pos.rules(keyed=False))


def test_the_cache_keeps_the_last_few_situations(grid, monkeypatch):
    monkeypatch.setattr(paths, "GRAPHS_KEPT", 2)
    graphs = [movement_graph(grid.hexes(), MoveRules(lambda a, b: 1, key=k)) for k in "abc"]
    assert movement_graph(grid.hexes(), MoveRules(lambda a, b: 1, key="c")) is graphs[2]
    assert movement_graph(grid.hexes(), MoveRules(lambda a, b: 1, key="a")) is not graphs[0]
