"""The heartland-demo data: the original demo map, the scenario's armies, the stand-in Detachment Chart.

The organisation checks are written here from the rules' own numbers
(digest rules/heartland.md), not through the rules code:

* 3.22a  leaders with the same number of stars may not stack unless an army
         commander (Army HQ) is in the hex;
* 3.23   a leader leads at most stars + 1 infantry divisions; Confederate
         4 infantry brigades = 1 division; cavalry does not count;
* 3.23b  at most 1 division (4 Confederate brigades) of unled units a hex;
* 3.31   only 3- or 4-star leaders may hold an Army HQ;
* 3.52a  a unit whose ML is above its leader's ML is broken (none at setup);
* 7.11   supply sources: a rail line's map-edge hex, or a major city on a
         rail line that runs to the map edge;
* 7.12a  depots only in a major city or town.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

from hxref.geometry.mapfile import check_map, load_map
from hxref.base.yamlio import load_data, to_plain
from tests.heartland.mapchecks import (
    DIVISION,
    bank,
    check_command_limits_3_23,
    check_leader_records,
    check_stacks_3_22a,
    col_row,
    components,
    hexes_of,
    hexes_with,
    line_steps,
    share_corner,
    sides_with,
)

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "games" / "heartland"
MAP = GAME / "maps" / "demo.yaml"
SCENARIO = GAME / "scenarios" / "heartland-demo.yaml"
CHART = GAME / "charts" / "detachment.yaml"
SIDES = ("union", "confederate")


# --------------------------------------------------------------------------
# helpers


@pytest.fixture(scope="module")
def m():
    return load_map(MAP)


@pytest.fixture(scope="module")
def sc():
    return to_plain(load_data(SCENARIO))


# --------------------------------------------------------------------------
# the map


def test_map_checks_clean_and_is_an_original_stand_in(m):
    assert [p.render() for p in check_map(MAP)] == []
    assert m.system == "heartland" and m.stand_in and "original" in m.note.lower()
    cols, rows = m.grid.columns, m.grid.rows
    assert 28 <= cols[1] - cols[0] + 1 <= 32 and 18 <= rows[1] - rows[0] + 1 <= 22


def test_map_towns_and_cities(m):
    towns, cities = hexes_with(m, "town"), hexes_with(m, "major_city")
    assert 2 <= len(towns) <= 3
    assert len(cities) == 2
    rail = {h for ln in m.lines if ln.type == "rail" for h in ln.hexes}
    assert cities <= rail, "each major city is on the railroad"
    named = {h: n for n, h in m.places.items()}
    assert all(h in named for h in towns | cities), "every town and city is a named place"
    # one city in each rear: one west of the middle, one east
    xs = sorted(col_row(m, h)[0] for h in cities)
    mid = (m.grid.columns[0] + m.grid.columns[1]) / 2
    assert xs[0] < mid < xs[1]


def test_major_river_is_one_continuous_chain_across_the_map(m):
    major = sides_with(m, "major_river")
    assert len(major) >= 20
    assert len(components(major, share_corner)) == 1
    rows = {col_row(m, h)[1] for s in major for h in s.hexes}
    assert m.grid.rows[0] in rows and m.grid.rows[1] in rows, "it runs from the north edge to the south edge"
    # it splits the map in two: the west bank cannot reach the east bank without crossing it
    west = bank(m, m.parse("0101"))
    assert m.parse("3001") not in west and m.parse("3020") not in west


def test_major_river_has_two_bridges_and_one_ford_on_roads(m):
    major = sides_with(m, "major_river")
    bridges = major & sides_with(m, "bridge")
    fords = major & sides_with(m, "ford")
    assert len(bridges) == 2 and len(fords) == 1
    roads = set(line_steps(m, "road"))
    assert bridges <= roads and fords <= roads
    # a road or the railroad crosses the major river only at a bridge or the ford (8.24)
    for kind in ("road", "rail"):
        for s in line_steps(m, kind):
            if s in major:
                assert s in bridges | fords, (kind, m.grid.side_label(s))
    assert set(line_steps(m, "rail")) & major <= bridges, "the railroad crosses on a bridge"
    # each bridge and the ford is a named place (the hex at one end)
    for s in bridges | fords:
        assert any(h in s.hexes for h in m.places.values()), m.grid.side_label(s)


def test_two_minor_rivers_each_continuous_and_flowing_into_the_major_river(m):
    minor = sides_with(m, "minor_river")
    major = sides_with(m, "major_river")
    creeks = components(minor, share_corner)
    assert len(creeks) == 2
    for creek in creeks:
        assert len(creek) >= 6
        assert any(share_corner(s, t) for s in creek for t in major), "the creek meets the major river"
    # a road or railroad crossing a creek does so on a bridge
    for kind in ("road", "rail"):
        for s in line_steps(m, kind):
            if s in minor:
                assert "bridge" in m.sides[s].features, m.grid.side_label(s)


def test_roads_and_railroad(m):
    roads = [ln for ln in m.lines if ln.type == "road"]
    rails = [ln for ln in m.lines if ln.type == "rail"]
    assert len(roads) >= 3 and len(rails) == 1
    for ln in m.lines:
        assert all(a.distance(b) == 1 for a, b in zip(ln.hexes, ln.hexes[1:])), ln.name
    rail = rails[0]
    cols = [col_row(m, h)[0] for h in rail.hexes]
    assert m.grid.columns[0] in cols and m.grid.columns[1] in cols, "the railroad reaches both map edges"
    assert {cols[0], cols[-1]} == set(m.grid.columns), "it runs edge to edge"
    # the road network links every town and city
    graph = defaultdict(set)
    for ln in roads:
        for a, b in zip(ln.hexes, ln.hexes[1:]):
            graph[a].add(b)
            graph[b].add(a)
    places = hexes_with(m, "town") | hexes_with(m, "major_city")
    start = next(iter(places))
    seen, todo = {start}, [start]
    while todo:
        for n in graph[todo.pop()] - seen:
            seen.add(n)
            todo.append(n)
    assert places <= seen


def test_rough_ground_and_a_mountain_pass(m):
    for t in ("rough", "broken", "swamp", "woods"):
        assert hexes_of(m, t), t
    mountains = hexes_of(m, "mountain")
    assert len(mountains) >= 2
    road_hexes = {h for ln in m.lines if ln.type == "road" for h in ln.hexes}
    assert mountains & road_hexes, "a road passes through the mountains"
    assert any(h in mountains & road_hexes for h in m.places.values()), "the pass is named"
    assert not hexes_with(m, "town") & mountains


# --------------------------------------------------------------------------
# the scenario


def test_scenario_keys(sc):
    for key in ("name", "title", "sides", "maximum", "wep", "leaders", "calendar", "map",
                "fert_offset", "units", "logistics", "sources"):
        assert key in sc, key
    assert sc["name"] == "heartland-demo" and sc["stand_in"] is True
    assert tuple(sc["sides"]) == SIDES
    assert (GAME / "maps" / f"{sc['map']}.yaml").is_file()
    assert 3 <= sc["fert_offset"] <= 8                                  # 10.46
    assert all(1 <= sc["maximum"][s] <= 6 for s in SIDES)               # 5.1
    assert all(sc["wep"][s] > 0 for s in SIDES)
    cal = sc["calendar"]
    assert [t["turn"] for t in cal] == [1, 2, 3]
    assert all(t["month"] not in (6, 7, 8) for t in cal), "weather is rolled every turn (5.2)"


def test_every_hex_label_is_on_the_map(sc, m):
    labels = [ld["hex"] for ld in sc["leaders"].values() if ld["hex"] is not None]
    labels += [u["hex"] for u in sc["units"].values() if u["hex"] is not None]
    labels += [x["hex"] for x in sc["logistics"].values()]
    labels += [h for s in SIDES for h in sc["sources"][s]]
    assert labels
    for lab in labels:
        assert isinstance(lab, str) and m.parse(lab) in m


def test_leaders(sc):
    leaders = sc["leaders"]
    per_side = Counter(ld["side"] for ld in leaders.values())
    for s in SIDES:
        assert 4 <= per_side[s] <= 6, s
    check_leader_records(leaders)


def test_exactly_one_army_commander_a_side_with_three_or_more_stars(sc):
    for s in SIDES:
        hqs = [ld for ld in sc["leaders"].values() if ld["side"] == s and ld["hq"]]
        assert len(hqs) == 1, s
        assert hqs[0]["stars"] + hqs[0]["brevet"] in (3, 4)        # 3.31
        sls = [ld for ld in sc["leaders"].values() if ld["superior"] is not None and ld["side"] == s]
        assert sls, "some SLs are stacked with their army commander"


def test_units(sc):
    units, leaders = sc["units"], sc["leaders"]
    per_side = Counter(u["side"] for u in units.values())
    for s in SIDES:
        assert 8 <= per_side[s] <= 12, s
        cav = [u for u in units.values() if u["side"] == s and u["arm"] == "cavalry"]
        assert 1 <= len(cav) <= 2, s
    for uid, u in units.items():
        assert u["steps"] == 2 and len(u["cf"]) == 2 and len(u["ml"]) == 2
        assert u["cf"][0] > u["cf"][1] > 0, uid
        assert 0 <= u["ml"][0] <= u["ml"][1] <= 6, uid             # 3.52: 0 is best
        if u["arm"] == "infantry":
            assert u["size"] == ("division" if u["side"] == "union" else "brigade"), uid
        assert u["leader"] in leaders, uid
        ld = leaders[u["leader"]]
        assert ld["side"] == u["side"] and u["hex"] is None, uid
        assert u["ml"][0] <= ld["ml"], f"{uid} would start broken (3.52a)"
    led = {u["leader"] for u in units.values()}
    assert led == set(leaders), "every leader leads a unit (3.11d: otherwise he is in the pool)"


def test_stacks_obey_3_22a(sc):
    check_stacks_3_22a(sc["leaders"])


def test_leaders_command_limits_3_23(sc):
    check_command_limits_3_23(sc)
    unled = defaultdict(Fraction)
    for u in sc["units"].values():
        if u["leader"] is None and u["arm"] == "infantry":
            unled[(u["hex"], u["side"])] += DIVISION[u["side"]][u["size"]]
    assert all(v <= 1 for v in unled.values())        # 3.23b


def test_logistics(sc, m):
    leaders = sc["leaders"]
    for s in SIDES:
        mine = [x for x in sc["logistics"].values() if x["side"] == s]
        assert Counter(x["kind"] for x in mine) == {"wagon": 1, "depot": 1}, s
    for x in sc["logistics"].values():
        h = m.parse(x["hex"])
        assert x["capacity"] >= 1
        if x["kind"] == "depot":
            assert {"town", "major_city"} & set(m.features(h)), "depots only in a town or major city (7.12a)"
            assert x["leader"] is None and x["cf"] == x["capacity"]    # 7.22
        else:
            assert x["cf"] == 0                                          # 7.21: unescorted
            if x["leader"] is not None:
                ld = leaders[x["leader"]]
                assert ld["side"] == x["side"] and ld["hex"] == x["hex"]


def test_supply_sources(sc, m):
    rail = next(ln for ln in m.lines if ln.type == "rail")
    edge_cols = set(m.grid.columns)
    edges = [h for h in rail.hexes if col_row(m, h)[0] in edge_cols]
    cities = hexes_with(m, "major_city")
    for s in SIDES:
        srcs = [m.parse(x) for x in sc["sources"][s]]
        assert srcs
        for h in srcs:
            assert h in edges or (h in cities and h in rail.hexes), m.label(h)   # 7.11a / 7.11b
        assert any(h in edges for h in srcs) and any(h in cities for h in srcs)
    # each side's sources are on its own side of the map: behind its army commander
    hq = {ld["side"]: m.parse(ld["hex"]) for ld in sc["leaders"].values() if ld["hq"]}
    for s in SIDES:
        home = bank(m, hq[s])
        assert all(m.parse(x) in home for x in sc["sources"][s]), s


def test_the_armies_start_apart_with_the_river_between(sc, m):
    leaders = sc["leaders"]
    hq = {ld["side"]: m.parse(ld["hex"]) for ld in leaders.values() if ld["hq"]}
    assert 8 <= hq["union"].distance(hq["confederate"]) <= 12
    union_bank = bank(m, hq["union"])
    assert hq["confederate"] not in union_bank
    for ld in leaders.values():
        on_union_bank = m.parse(ld["hex"]) in union_bank
        assert on_union_bank == (ld["side"] == "union"), ld["name"]
    # nobody starts in contact: no enemy within 2 hexes
    for a in leaders.values():
        for b in leaders.values():
            if a["side"] != b["side"]:
                assert m.parse(a["hex"]).distance(m.parse(b["hex"])) >= 3, (a["name"], b["name"])


# --------------------------------------------------------------------------
# the stand-in Detachment Chart (8.51, 8.52)


def test_detachment_chart():
    chart = to_plain(load_data(CHART))
    assert chart["stand_in"] is True and chart["rule"] == "8.51" and chart["note"]
    assert chart["cost"]["ap"] == 1
    rows = {(r["arm"], r["size"]): r for r in chart["yields"]}
    assert len(rows) == len(chart["yields"])
    for key, r in rows.items():
        assert r["step_loss"] >= 0 and r["removal"] >= r["step_loss"], key
    # every unit in the demo scenario has a row
    sc = to_plain(load_data(SCENARIO))
    assert {(u["arm"], u["size"]) for u in sc["units"].values()} <= set(rows)
    assert rows[("infantry", "division")]["step_loss"] >= 1 and rows[("infantry", "brigade")]["step_loss"] >= 1
    assert rows[("detachment", "regiment")] == {"arm": "detachment", "size": "regiment", "step_loss": 0, "removal": 0}
    for s in SIDES:
        d = chart["detachment"][s]
        assert d["arm"] == "detachment" and d["steps"] == 1        # 8.52
        assert len(d["cf"]) == 1 and d["cf"][0] >= 1
        assert len(d["ml"]) == 1 and 0 <= d["ml"][0] <= 6
