"""Movement: cheapest paths, reachable hexes, move-order checks, and the case book."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hexart import cost_from, parse_art
from hypothesis import given, settings
from hypothesis import strategies as st

from hxref.geometry.hex import FourDigit, Hex, HexGrid, HexSide
from hxref.geometry.paths import MoveGraph, MoveRules, cheapest_path, is_prohibited, reachable
from hxref.kit.walk import WalkRules, walk
from hxref.geometry.mapfile import load_map

ROOT = Path(__file__).resolve().parents[2]
CASES = yaml.safe_load((Path(__file__).parent / "movement_cases.yaml").read_text(encoding="utf-8"))["cases"]
REACH = [c for c in CASES if "reach" in c]


# --------------------------------------------------------------------------
# the case book


def _setup(case):
    if "art" in case:
        grid, cells = parse_art(case["art"])
        step = cost_from(cells, case["costs"])
        hexes = list(grid.hexes())
        return grid.label, grid.parse, hexes, step
    m = load_map(ROOT / case["map"])
    step = m.step_cost(case.get("unit"), case.get("lines"))
    return m.label, m.parse, m.hexes(), step


@pytest.mark.parametrize("case", REACH, ids=[c["id"].split()[0] for c in REACH])
def test_movement_case_book(case):
    label, parse, hexes, step = _setup(case)
    zoc_hexes = {parse(x) for x in case.get("zoc", [])}
    rules = MoveRules(step, stops=(lambda h: "enemy ZOC" if h in zoc_hexes else False), zoc=zoc_hexes.__contains__)
    got = reachable(rules, hexes, parse(case["start"]), case["mp"])
    want = {parse(k): v for k, v in case["reach"].items()}
    named = {label(h): c for h, c in got.items()}
    for h, c in want.items():
        assert got.get(h) == c, f"{case['id']}: {label(h)} costs {got.get(h)}, expected {c}; reached {named}"
    if case.get("exact"):
        assert set(got) == set(want), f"{case['id']}: reached {sorted(named)}"


# the "order" cases (a move given hex by hex) are walked by kit.walk: tests/kit/test_kit_walk.py


# --------------------------------------------------------------------------
# properties on random small maps


@st.composite
def small_maps(draw):
    cols = draw(st.integers(2, 7))
    rows = draw(st.integers(2, 7))
    grid = HexGrid(FourDigit(parity=draw(st.sampled_from(["even", "odd"]))), (1, cols), (1, rows))
    hexes = list(grid.hexes())
    # costs in halves, some prohibited; hexside costs too
    hex_cost = {h: draw(st.sampled_from([0.5, 1, 1, 1.5, 2, 3, None])) for h in hexes}
    sides = {HexSide(a, b) for a in hexes for b in grid.neighbours(a)}
    side_cost = {s: draw(st.sampled_from([0, 0, 0, 0.5, 1, None])) for s in sorted(sides)}
    stop = {h for h in hexes if draw(st.integers(0, 9)) == 0}
    start = draw(st.sampled_from(hexes))

    def step(a, b):
        c, s = hex_cost.get(b), side_cost.get(HexSide(a, b))
        if b not in grid or c is None or s is None:
            return None
        return c + s

    return grid, hexes, MoveRules(step, stops=stop.__contains__), start


def _brute_force(rules, hexes, start):
    """Bellman-Ford with the same stop rule: repeat relaxing until nothing changes."""
    INF = float("inf")
    dist = {h: INF for h in hexes}
    dist[start] = 0
    changed = True
    while changed:
        changed = False
        for a in hexes:
            if dist[a] == INF or (a != start and rules.stop_reason(a)):
                continue
            for b in a.neighbours():
                if b not in dist:
                    continue
                c = rules.cost(a, b)
                if is_prohibited(c):
                    continue
                if dist[a] + c < dist[b]:
                    dist[b] = dist[a] + c
                    changed = True
    return {h: d for h, d in dist.items() if d != INF}


@settings(max_examples=150, deadline=None)
@given(small_maps())
def test_path_cost_is_the_sum_of_its_steps(m):
    grid, hexes, rules, start = m
    reach = MoveGraph(hexes, rules).search(start)
    for h, cost in reach.costs().items():
        path = reach.path_to(h)
        assert path[0] == start and path[-1] == h
        steps = [rules.cost(a, b) for a, b in zip(path, path[1:])]
        assert not any(is_prohibited(c) for c in steps)
        assert sum(steps) == cost
        # only the last hex may be a stop hex
        assert not any(rules.stop_reason(x) for x in path[1:-1])
        assert walk(path[1:], rules.cost, start=start, rules=WalkRules(move="M"), hex_of=lambda x: x,
                    stops=rules.stop_reason).legal


@settings(max_examples=150, deadline=None)
@given(small_maps())
def test_dijkstra_matches_brute_force(m):
    grid, hexes, rules, start = m
    assert MoveGraph(hexes, rules).search(start).costs() == _brute_force(rules, hexes, start)


@settings(max_examples=150, deadline=None)
@given(small_maps(), st.sampled_from([0, 0.5, 1, 2, 3.5, 6]))
def test_reachable_set_is_cheapest_cost_within_mp(m, mp):
    grid, hexes, rules, start = m
    full = MoveGraph(hexes, rules).search(start).costs()
    assert reachable(rules, hexes, start, mp) == {h: c for h, c in full.items() if c <= mp}


# --------------------------------------------------------------------------
# API details


def test_cheapest_path_and_goal():
    grid, cells = parse_art(
        """
        . w w .
        . w . .
        . . . .
        """
    )
    rules = MoveRules(cost_from(cells, {".": 1, "w": 3}))
    path, cost = cheapest_path(rules, grid.hexes(), grid.parse("0101"), grid.parse("0401"))
    # through one wood (3) beats the long way round the south (6): 0101 0201 0302 0401
    assert cost == 5
    assert [grid.label(h) for h in path] == ["0101", "0201", "0302", "0401"]
    assert cheapest_path(MoveRules(lambda a, b: None), grid.hexes(), grid.parse("0101"), grid.parse("0401")) is None


# the move-order checks (prohibited reasons, off the map, a stop hex at the start) are in
# tests/kit/test_kit_walk.py


def test_negative_costs_are_refused():
    with pytest.raises(ValueError, match="negative step cost"):
        MoveGraph([Hex(0, 0), Hex(1, 0)], MoveRules(lambda a, b: -1))


def test_start_off_the_graph():
    with pytest.raises(ValueError, match="not on the map"):
        MoveGraph([Hex(0, 0)], MoveRules(lambda a, b: 1)).search(Hex(5, 5))


def test_reach_api():
    g = MoveGraph([Hex(0, 0), Hex(1, 0), Hex(3, 0)], MoveRules(lambda a, b: 1.5))
    r = g.search(Hex(0, 0))
    assert r.cost(Hex(1, 0)) == 1.5 and Hex(1, 0) in r and Hex(3, 0) not in r
    assert r.path_to(Hex(3, 0)) is None and r.cost(Hex(9, 9)) is None
    assert r.within(1) == {Hex(0, 0): 0}
