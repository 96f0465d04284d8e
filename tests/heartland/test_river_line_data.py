"""The river-line data: an original map with a river line, and a scenario using rail, gunboats and engineers.

Modelled on test_demo_data.py.  The organisation checks are written from the
rules' own numbers (digest rules/heartland.md), not through the rules code:

* 3.22a  leaders with the same number of stars may not stack unless an army
         commander (Army HQ) is in the hex;
* 3.23   a leader leads at most stars + 1 infantry divisions; Confederate
         4 infantry brigades = 1 division; cavalry and Union engineer
         brigades do not count;
* 3.31   only 3- or 4-star leaders may hold an Army HQ;
* 3.52a  a unit whose ML is above its leader's ML is broken (none at setup);
* 7.11   supply sources: a rail line's map-edge hex, or a major city on a
         rail line that runs to the map edge;
* 7.12a  depots only in a major city or town;
* 8.24a  a Confederate ferry: a major-river hexside with a town or major
         city on both banks;
* 8.71   stations: towns and major cities on a rail line; 8.72 trains
         start in stations (a friendly major city);
* 8.91a  gunboats stand on major-river hexsides; 10.82 a battery's arrow
         points at a river hexside of its own hex.

A last group asks the rules modules (forces, rail, naval) the same questions
of the set-up state, so the data and the code agree.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import pytest

from hxref.geometry.mapfile import check_map, load_map
from hxref.base.yamlio import load_data, to_plain
from tests.heartland.mapchecks import (
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
MAP = GAME / "maps" / "river-line.yaml"
SCENARIO = GAME / "scenarios" / "river-line.yaml"
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


@pytest.fixture()
def state(sc):
    """The game state after setup, with the scenario's naval, trains and pontoons records added.

    ``setup`` copies only the keys it knows; the rules modules read these three
    from the state, so they are put there as a game would.
    """
    from hxref.systems import get

    system = get("heartland")
    st = system.setup(system.load_scenario("river-line"))
    for key in ("naval", "trains", "pontoons"):
        st.setdefault(key, to_plain(load_data(SCENARIO))[key])
    return st


def corner(m, col, row):
    return m.grid.labels.to_hex(col, row)


def north_bank(m):
    (c0, _), (r0, _) = m.grid.columns, m.grid.rows
    return bank(m, corner(m, c0, r0))


def side_of(m, label):
    return m.grid.labels.parse_hexside(label)


# --------------------------------------------------------------------------
# the map


def test_map_checks_clean_and_is_an_original_stand_in(m):
    assert [p.render() for p in check_map(MAP)] == []
    assert m.system == "heartland" and m.stand_in and "original" in m.note.lower()
    cols, rows = m.grid.columns, m.grid.rows
    assert 24 <= cols[1] - cols[0] + 1 <= 28 and 16 <= rows[1] - rows[0] + 1 <= 20


def test_the_major_river_is_a_line_across_the_map(m):
    major = sides_with(m, "major_river")
    assert len(major) >= 26
    assert len(components(major, share_corner)) == 1, "one continuous chain"
    cols = {col_row(m, h)[0] for s in major for h in s.hexes}
    assert m.grid.columns[0] in cols and m.grid.columns[1] in cols, "it runs from the west edge to the east edge"
    # it splits the map in two: the north edge cannot reach the south edge without crossing it
    (c0, c1), (r0, r1) = m.grid.columns, m.grid.rows
    north = north_bank(m)
    for c in (c0, c1):
        assert corner(m, c, r0) in north and corner(m, c, r1) not in north
    south = bank(m, corner(m, c0, r1))
    assert len(north) + len(south) == len(m.hexes())
    # the headwater is on the river (the scenario's naval.headwaters)
    sc = to_plain(load_data(SCENARIO))
    for lab in sc["naval"]["headwaters"]:
        assert side_of(m, lab) in major


def test_the_crossings_one_railroad_bridge_one_road_bridge_one_ford_two_ferries(m):
    major = sides_with(m, "major_river")
    bridges = major & sides_with(m, "bridge")
    fords = major & sides_with(m, "ford")
    ferries = major & sides_with(m, "ferry")
    assert len(bridges) == 2 and len(fords) == 1 and len(ferries) == 2
    assert not (bridges | fords) & ferries
    roads, rails = set(line_steps(m, "road")), set(line_steps(m, "rail"))
    rail_bridges = bridges & rails
    road_bridges = bridges & roads
    assert len(rail_bridges) == 1 and len(road_bridges) == 1 and not rail_bridges & road_bridges
    assert fords <= roads
    # a road or the railroad crosses the major river only at a bridge or the ford (8.24)
    for kind in ("road", "rail"):
        for s in line_steps(m, kind):
            if s in major:
                assert s in bridges | fords, (kind, m.grid.side_label(s))
    # 8.24a: a town or major city on both banks of each ferry
    places = hexes_with(m, "town") | hexes_with(m, "major_city")
    for s in ferries:
        assert set(s.hexes) <= places, m.grid.side_label(s)
    # each crossing is a named place (the hex at one end)
    for s in bridges | fords | ferries:
        assert any(h in s.hexes for h in m.places.values()), m.grid.side_label(s)


def test_the_railroad_from_the_union_edge_over_the_river_to_the_confederate_rear(m):
    rails = [ln for ln in m.lines if ln.type == "rail"]
    assert len(rails) == 1
    rail = rails[0]
    assert all(a.distance(b) == 1 for a, b in zip(rail.hexes, rail.hexes[1:]))
    north = north_bank(m)
    first, last = rail.hexes[0], rail.hexes[-1]
    assert col_row(m, first)[1] == m.grid.rows[0], "it starts on the north (Union) edge"
    assert col_row(m, last)[1] == m.grid.rows[1], "it leaves by the south edge"
    assert first in north and last not in north
    cities = hexes_with(m, "major_city")
    assert len(cities) == 2 and cities <= set(rail.hexes)
    union_city = next(h for h in cities if h in north)
    rebel_city = next(h for h in cities if h not in north)
    # the Union city is on the river, at the north end of the railroad bridge
    (rail_bridge,) = set(line_steps(m, "rail")) & sides_with(m, "major_river")
    assert union_city in rail_bridge.hexes
    assert rail.hexes.index(union_city) < rail.hexes.index(rebel_city)
    # a station at a town on each bank, between the edge and the cities
    towns = hexes_with(m, "town") & set(rail.hexes)
    assert any(h in north for h in towns) and any(h not in north for h in towns)


def test_a_minor_river_flowing_into_the_major_river(m):
    minor = sides_with(m, "minor_river")
    major = sides_with(m, "major_river")
    creeks = components(minor, share_corner)
    assert len(creeks) == 1
    (creek,) = creeks
    assert len(creek) >= 8
    assert any(share_corner(s, t) for s in creek for t in major), "the creek meets the major river"
    assert not minor & major
    for kind in ("road", "rail"):
        for s in line_steps(m, kind):
            if s in minor:
                assert "bridge" in m.sides[s].features, m.grid.side_label(s)
    assert any(s in minor for s in line_steps(m, "road")), "a road crosses the creek"


def test_roads_link_every_town_and_city(m):
    roads = [ln for ln in m.lines if ln.type == "road"]
    assert len(roads) >= 4
    for ln in m.lines:
        assert all(a.distance(b) == 1 for a, b in zip(ln.hexes, ln.hexes[1:])), ln.name
    graph = defaultdict(set)
    for ln in roads:
        for a, b in zip(ln.hexes, ln.hexes[1:]):
            graph[a].add(b)
            graph[b].add(a)
    places = hexes_with(m, "town") | hexes_with(m, "major_city")
    named = {h for h in m.places.values()}
    assert places <= named, "every town and city is a named place"
    start = next(iter(places))
    seen, todo = {start}, [start]
    while todo:
        for n in graph[todo.pop()] - seen:
            seen.add(n)
            todo.append(n)
    assert places <= seen


def test_rough_ground_and_woods(m):
    for t in ("rough", "woods"):
        assert len(hexes_of(m, t)) >= 3, t
    towns = hexes_with(m, "town") | hexes_with(m, "major_city")
    assert all(m.terrain(h).name == "clear" for h in towns)


# --------------------------------------------------------------------------
# the scenario


def test_scenario_keys(sc):
    for key in ("name", "title", "sides", "maximum", "wep", "leaders", "calendar", "map", "fert_offset",
                "units", "logistics", "sources", "replacements", "victory", "options", "naval", "trains",
                "pontoons"):
        assert key in sc, key
    assert sc["name"] == "river-line" and sc["stand_in"] is True and "original" in sc["note"].lower()
    assert tuple(sc["sides"]) == SIDES
    assert sc["map"] == "river-line" and (GAME / "maps" / f"{sc['map']}.yaml").is_file()
    assert 3 <= sc["fert_offset"] <= 8                                  # 10.46
    assert all(1 <= sc["maximum"][s] <= 6 for s in SIDES)               # 5.1
    assert all(sc["wep"][s] > 0 for s in SIDES)
    assert all(sc["replacements"][s] >= 0 for s in SIDES)
    assert sc["options"] == {}
    cal = sc["calendar"]
    assert [t["turn"] for t in cal] == [1, 2, 3]
    assert all(t["year"] == 1863 for t in cal), "1863: 9.21's pre-combat retreat rules"
    assert all(t["month"] not in (6, 7, 8) for t in cal), "weather is rolled every turn (5.2)"


def test_the_scenario_loads_into_a_game(sc):
    from hxref.systems import get

    system = get("heartland")
    st = system.setup(system.load_scenario("river-line"))
    assert st["full"] is True and st["map"] == "river-line"
    assert len(st["units"]) == len(sc["units"]) and len(st["leaders"]) == len(sc["leaders"])
    assert st["replacements"] == sc["replacements"] and st["victory"] == sc["victory"]
    assert st["control_vp"] == sc["victory"]["initial_control"]


def test_every_hex_label_is_on_the_map(sc, m):
    labels = [ld["hex"] for ld in sc["leaders"].values() if ld["hex"] is not None]
    labels += [u["hex"] for u in sc["units"].values() if u["hex"] is not None]
    labels += [x["hex"] for x in sc["logistics"].values()]
    labels += [h for s in SIDES for h in sc["sources"][s]]
    labels += [t["hex"] for t in sc["trains"].values()]
    labels += [b["hex"] for b in sc["naval"]["batteries"].values()]
    labels += [p["hex"] for p in sc["pontoons"]]
    labels += list(sc["victory"]["places"]) + list(sc["victory"]["initial_control"])
    assert labels
    for lab in labels:
        assert isinstance(lab, str) and m.parse(lab) in m


def test_leaders(sc):
    leaders = sc["leaders"]
    per_side = Counter(ld["side"] for ld in leaders.values())
    assert per_side == {"union": 6, "confederate": 5}        # the Union's 6th: Dorsey, the railroad reserve
    assert leaders["dorsey"]["hex"] == "1204" and leaders["dorsey"]["superior"] is None
    check_leader_records(leaders)


def test_exactly_one_army_commander_a_side_with_three_stars(sc):
    for s in SIDES:
        hqs = [ld for ld in sc["leaders"].values() if ld["side"] == s and ld["hq"]]
        assert len(hqs) == 1, s
        assert hqs[0]["stars"] + hqs[0]["brevet"] == 3              # 3.31
        sls = [ld for ld in sc["leaders"].values() if ld["superior"] is not None and ld["side"] == s]
        assert sls, "some SLs are stacked with their army commander"


def test_units(sc):
    units, leaders = sc["units"], sc["leaders"]
    per_side = Counter(u["side"] for u in units.values())
    assert 9 <= per_side["union"] <= 11 and 10 <= per_side["confederate"] <= 12
    for s in SIDES:
        cav = [u for u in units.values() if u["side"] == s and u["arm"] == "cavalry"]
        assert 1 <= len(cav) <= 2, s
    engineers = [u for u in units.values() if u["arm"] == "engineer"]
    assert len(engineers) == 1 and engineers[0]["side"] == "union"   # 8.8: only the Union bridges
    for uid, u in units.items():
        assert u["arm"] in ("infantry", "cavalry", "engineer"), uid
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
    # every unit has a row in the Detachment Chart (8.51)
    chart = to_plain(load_data(CHART))
    assert {(u["arm"], u["size"]) for u in units.values()} <= {(r["arm"], r["size"]) for r in chart["yields"]}


def test_stacks_obey_3_22a(sc):
    check_stacks_3_22a(sc["leaders"])


def test_leaders_command_limits_3_23(sc):
    check_command_limits_3_23(sc)
    assert not [u for u in sc["units"].values() if u["leader"] is None], "no unled units at setup"


def test_logistics(sc, m):
    leaders = sc["leaders"]
    rail = {h for ln in m.lines if ln.type == "rail" for h in ln.hexes}
    for s in SIDES:
        mine = [x for x in sc["logistics"].values() if x["side"] == s]
        assert Counter(x["kind"] for x in mine) == {"wagon": 1, "depot": 1}, s
    for x in sc["logistics"].values():
        h = m.parse(x["hex"])
        assert x["capacity"] >= 1
        if x["kind"] == "depot":
            assert {"town", "major_city"} & set(m.features(h)), "depots only in a town or major city (7.12a)"
            assert h in rail, "a depot on the railroad (7.13, 8.71)"
            assert x["leader"] is None and x["cf"] == x["capacity"]    # 7.22
        else:
            assert x["cf"] == 0                                          # 7.21: unescorted
            ld = leaders[x["leader"]]
            assert ld["side"] == x["side"] and ld["hex"] == x["hex"] and ld["hq"]


def test_supply_sources(sc, m):
    rail = next(ln for ln in m.lines if ln.type == "rail")
    edge_rows = set(m.grid.rows)
    edges = [h for h in rail.hexes if col_row(m, h)[1] in edge_rows]
    cities = hexes_with(m, "major_city")
    for s in SIDES:
        srcs = [m.parse(x) for x in sc["sources"][s]]
        assert srcs
        for h in srcs:
            assert h in edges or (h in cities and h in rail.hexes), m.label(h)   # 7.11a / 7.11b
        assert any(h in edges for h in srcs) and any(h in cities for h in srcs)
    north = north_bank(m)
    assert all(m.parse(x) in north for x in sc["sources"]["union"])
    assert not any(m.parse(x) in north for x in sc["sources"]["confederate"])


def test_the_river_separates_the_armies(sc, m):
    leaders = sc["leaders"]
    north = north_bank(m)
    for ld in leaders.values():
        assert (m.parse(ld["hex"]) in north) == (ld["side"] == "union"), ld["name"]
    for x in sc["logistics"].values():
        assert (m.parse(x["hex"]) in north) == (x["side"] == "union"), x
    for t in sc["trains"].values():
        assert (m.parse(t["hex"]) in north) == (t["side"] == "union"), t
    # nobody starts in contact: no enemy leader within 2 hexes
    for a in leaders.values():
        for b in leaders.values():
            if a["side"] != b["side"]:
                assert m.parse(a["hex"]).distance(m.parse(b["hex"])) >= 3, (a["name"], b["name"])


def test_gunboats_stand_on_major_river_hexsides(sc, m):
    major = sides_with(m, "major_river")
    gunboats = sc["naval"]["gunboats"]
    assert len(gunboats) == 2
    for gid, gb in gunboats.items():
        assert gb["side"] == "union" and gb["box"] is None and not gb.get("cargo"), gid
        assert gb["steps"] == 2 and gb["naval"][0] > gb["naval"][1] > 0 and gb["support"][0] > gb["support"][1] >= 0
        s = side_of(m, gb["hexside"])
        assert s in major, gid
        assert "ford" not in m.sides[s].features, "a ford stops gunboats outside Thaw (5.25)"


def test_the_battery_covers_a_river_hexside_of_its_own_hex(sc, m):
    major = sides_with(m, "major_river")
    batteries = sc["naval"]["batteries"]
    assert len(batteries) == 1
    north = north_bank(m)
    for bid, bt in batteries.items():
        assert bt["side"] == "confederate" and bt["steps"] == 2 and bt["naval"][0] > bt["naval"][1] > 0
        s, h = side_of(m, bt["hexside"]), m.parse(bt["hex"])
        assert s in major and h in s.hexes, bid
        assert h not in north, "on the Confederate bank"
        # it is not in contact with a gunboat at the start: no shared corner, not the same hexside
        for gb in sc["naval"]["gunboats"].values():
            g = side_of(m, gb["hexside"])
            assert g != s and not share_corner(g, s)


def test_trains_at_stations(sc, m):
    rail = {h for ln in m.lines if ln.type == "rail" for h in ln.hexes}
    stations = (hexes_with(m, "town") | hexes_with(m, "major_city")) & rail          # 8.71
    cities = hexes_with(m, "major_city")
    trains = sc["trains"]
    assert Counter(t["side"] for t in trains.values()) == {"union": 1, "confederate": 1}
    for tid, t in trains.items():
        h = m.parse(t["hex"])
        assert h in stations and h in cities, tid                                     # 8.72: in a friendly major city
        assert t.get("extra", False) is False


def test_the_pontoon_is_with_the_engineers(sc):
    (p,) = sc["pontoons"]
    assert p["side"] == "union" and p["status"] == "unbridged" and p["hexside"] is None
    eng = next(u for u in sc["units"].values() if u["arm"] == "engineer")
    boss = sc["leaders"][eng["leader"]]
    top = sc["leaders"][boss["superior"]] if boss["superior"] else boss
    assert top["hex"] == p["hex"], "8.81a: engineer and pontoon stacked"


def test_victory_block(sc, m):
    v = sc["victory"]
    assert v["stand_in"] is True
    assert v["per_step"] > 0 and v["per_leader"] > 0 and v["decisive_margin"] > 0
    assert set(v["initial_control"]) == set(v["places"])
    north = north_bank(m)
    places = hexes_with(m, "town") | hexes_with(m, "major_city")
    for lab, side in v["initial_control"].items():
        h = m.parse(lab)
        assert h in places and v["places"][lab] > 0
        assert (h in north) == (side == "union"), lab
    assert {s for s in v["initial_control"].values()} == set(SIDES), "places on both banks"
    assert hexes_with(m, "major_city") <= {m.parse(x) for x in v["places"]}


# --------------------------------------------------------------------------
# the rules modules agree


def test_setup_stacks_are_legal_by_the_rules_code(state):
    from hxref.systems.heartland import forces as fc

    for side in SIDES:
        for h in {ld["hex"] for ld in state["leaders"].values() if ld["side"] == side}:
            assert fc.check_hex(state, h, side).problems == [], (side, h)
        for lid, ld in state["leaders"].items():
            if ld["side"] == side:
                assert fc.broken_units(state, lid).broken == [], lid


def test_rail_stations_and_the_route_across_the_bridge(state, m):
    from hxref.systems.heartland import rail

    for t in state["trains"].values():
        assert rail.is_station(m, t["hex"])
    for x in state["logistics"].values():
        if x["kind"] == "depot":
            assert rail.is_station(m, x["hex"])
    src = {s: [lab for lab in state["sources"][s] if col_row(m, m.parse(lab))[1] in m.grid.rows] for s in SIDES}
    path = rail.rail_path(m, src["union"][0], src["confederate"][0])
    assert path, "one railroad from edge to edge"
    assert all(rail.is_station(m, x) for s in SIDES for x in state["sources"][s] if m.parse(x) in hexes_with(m, "major_city"))


def test_naval_state_by_the_rules_code(state, m):
    from hxref.systems.heartland import naval as nv
    from hxref.systems.heartland.naval_control import _sl

    ferries = {_sl(m, s) for s in m.sides if nv.is_ferry_hexside(m, s)}
    assert len(ferries) == 2
    assert nv.contacts(state, m, "union") == [] and nv.contacts(state, m, "confederate") == []
    for gid in state["naval"]["gunboats"]:
        assert nv.gunboat_reach(state, m, gid), f"{gid} can move"
    (bt,) = state["naval"]["batteries"].values()
    assert nv.controlled_hexsides(state, m, "confederate") == {bt["hexside"]}
