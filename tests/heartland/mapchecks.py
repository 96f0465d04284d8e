"""Checks shared by the scenario data tests: maps (continuous rivers, roads, rails; banks) and orders of
battle (leader records 3.21-3.51, stacks 3.22a, command limits 3.23)."""
from collections import defaultdict
from fractions import Fraction

from hxref.geometry.hex import HexSide

SIDES = ("union", "confederate")
DIVISION = {"union": {"division": 1}, "confederate": {"division": 1, "brigade": Fraction(1, 4)}}  # 3.23


def col_row(m, h):
    return m.grid.labels.to_offset(h)


def sides_with(m, feature):
    return {s for s, info in m.sides.items() if feature in info.features}


def hexes_with(m, feature):
    return {h for h, info in m.cells.items() if feature in info.features}


def hexes_of(m, terrain):
    return {h for h in m.hexes() if m.terrain(h).name == terrain}


def share_corner(s, t):
    """Two hexsides meet at a corner: one hex in common, the other two adjacent."""
    common = set(s.hexes) & set(t.hexes)
    if len(common) != 1:
        return False
    (a,) = set(s.hexes) - common
    (b,) = set(t.hexes) - common
    return a.distance(b) == 1


def components(items, joined):
    items, out = list(items), []
    left = set(items)
    while left:
        seed = left.pop()
        comp, todo = {seed}, [seed]
        while todo:
            x = todo.pop()
            for y in [y for y in left if joined(x, y)]:
                left.discard(y)
                comp.add(y)
                todo.append(y)
        out.append(comp)
    return out


def line_steps(m, kind):
    return [HexSide(a, b) for ln in m.lines if ln.type == kind for a, b in zip(ln.hexes, ln.hexes[1:])]


def bank(m, start):
    """Every hex reachable from ``start`` without crossing a major-river hexside."""
    major = sides_with(m, "major_river")
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for n in h.neighbours():
            if n in m and n not in seen and HexSide(h, n) not in major:
                seen.add(n)
                todo.append(n)
    return seen


def check_leader_records(leaders: dict) -> None:
    """Every leader record of a scenario at setup."""
    for lid, ld in leaders.items():
        assert ld["side"] in SIDES
        assert 1 <= ld["stars"] <= 4 and ld["brevet"] == 0
        front, back = ld["ratings"]["active"], ld["ratings"]["inactive"]
        for k in ("ar", "br", "mr"):
            assert 0 <= back[k] <= front[k], (lid, k)              # 3.21: lower on the back
        assert ld["ap"] == front["ar"]                              # 4.4
        assert 0 <= ld["ml"] <= 9                                   # 3.51
        assert ld["active"] is True and ld["pool"] is False         # 8.1
        assert ld["artillery"] >= 0 and ld["asp"] >= 0
        assert ld["hex"] is not None
        if ld["superior"] is not None:
            boss = leaders[ld["superior"]]
            assert boss["side"] == ld["side"] and boss["hex"] == ld["hex"], lid
            assert boss["superior"] is None
            assert boss["hq"] or boss["stars"] > ld["stars"]       # 3.22
            assert not ld["hq"]                                     # 3.11c


def check_stacks_3_22a(leaders: dict) -> None:
    by_hex = defaultdict(list)
    for ld in leaders.values():
        by_hex[ld["hex"]].append(ld)
    for h, lds in by_hex.items():
        assert len({ld["side"] for ld in lds}) == 1, f"both sides in {h}"
        if any(ld["hq"] for ld in lds):
            continue
        ranks = [ld["stars"] + ld["brevet"] for ld in lds]
        assert len(ranks) == len(set(ranks)), f"same-rank leaders stacked without an army HQ in {h}"


def check_command_limits_3_23(sc: dict) -> None:
    led = defaultdict(Fraction)
    for u in sc["units"].values():
        if u["arm"] == "infantry":                   # cavalry, engineers, detachments, wagons ... not counted
            led[u["leader"]] += DIVISION[u["side"]][u["size"]]
    for lid, ld in sc["leaders"].items():
        assert led[lid] <= ld["stars"] + ld["brevet"] + 1, lid
