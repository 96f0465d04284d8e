"""The ACW miniatures scenario data: ``games/acw_minis/scenarios/mercers-mill.yaml``
and its table ``games/acw_minis/maps/mercers-mill.yaml``, checked against the rules digest.

What is checked against the rules (digest rules/acw-miniatures.md), with the
numbers copied from the digest, not read from the data:

* A1  four unit types; frontage 4-6", artillery 2-3";
* A3  woods only for infantry and zouaves; towns only infantry and zouaves
      may end a move in; marsh and lakes impassable; rivers crossed only at
      bridges or fords;
* A5  hits start at 0 (eliminated at 15);
* C14 a base is frontage x depth (the scenario gives depth; 1" by default).

What is checked against the scenario's brief: a 6' x 4' table (72" x 48") with woods, a
town, a river with a bridge and a ford, a road over the bridge and through
the town, a marsh; 6 units a side; victory by eliminations or by holding the
town at the end of turn 15, stated as the scenario's own rule.

Geometry: hxref/geometry/table.py -- x east, y north, inches from the
south-west corner; facing 0 = north, clockwise; a unit is the rectangle
``Base(x, y, facing, frontage, depth).polygon`` (shapely).
"""
from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from shapely.geometry import Polygon, box

from hxref.geometry.mapmodel import TableMap
from hxref.geometry.table import EPS, Base, heading, overlap
from hxref.geometry.mapfile import check_map, load_map
from hxref.base.yamlio import load_data, to_plain

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "games" / "acw_minis"
SCENARIO = GAME / "scenarios" / "mercers-mill.yaml"

SIDES = ("union", "confederate")
UNIT_TYPES = {"infantry", "zouaves", "cavalry", "artillery"}           # A1
FRONTAGE = {"infantry": (4, 6), "zouaves": (4, 6), "cavalry": (4, 6), "artillery": (2, 3)}  # A1
MAY_ENTER_WOODS = {"infantry", "zouaves"}                              # A3
MAY_END_IN_TOWN = {"infantry", "zouaves"}                              # A3
IMPASSABLE = {"marsh", "lake"}                                         # A3
UNIT_FIELDS = {"id", "side", "name", "type", "frontage", "depth", "figures", "x", "y", "facing", "hits"}


def load_scenario(path: Path = SCENARIO) -> dict:
    """The scenario file as plain Python data (the system package will have the real loader)."""
    return to_plain(load_data(path))


@pytest.fixture(scope="module")
def sc():
    return load_scenario()


@pytest.fixture(scope="module")
def m(sc):
    return load_map(GAME / "maps" / f"{sc['map']}.yaml")


def base_of(u: dict) -> Base:
    return Base(float(u["x"]), float(u["y"]), float(u["facing"]), float(u["frontage"]), float(u["depth"]))


def areas(m, terrain: str):
    return [a for a in m.table.areas if a.terrain == terrain]


def town(sc, m):
    [a] = [a for a in areas(m, "town") if a.name == sc["victory"]["town"]["area"]]
    return a


def units_of(sc) -> dict[str, dict]:
    """The units by id (the file lists them)."""
    return {u["id"]: u for u in sc["units"]}


def zone(sc, side: str) -> Polygon:
    return box(*sc["deployment"][side]["rect"])


# --------------------------------------------------------------------------
# the table


def test_the_map_checks_clean_and_is_an_original_table(sc, m):
    path = GAME / "maps" / f"{sc['map']}.yaml"
    assert [p.render() for p in check_map(path)] == []
    assert isinstance(m, TableMap) and m.system == "acw_minis" and m.id == sc["map"]
    assert m.stand_in and "original" in m.note and "not from the rules" in m.note


def test_the_table_is_six_by_four_feet(m):
    assert (m.width, m.height) == (72, 48)
    assert m.table.edge.bounds == (0, 0, 72, 48)


def test_the_table_holds_every_required_terrain_kind(m):
    t = m.table
    kinds = [a.terrain for a in t.areas]
    assert kinds.count("woods") == 2
    assert kinds.count("town") == 1
    assert kinds.count("marsh") >= 1
    assert kinds.count("lake") <= 1
    assert len(t.rivers) == 1 and t.rivers[0].terrain == "river"
    assert sorted(c.terrain for c in t.rivers[0].crossings) == ["bridge", "ford"]
    assert t.roads and {r.terrain for r in t.roads} == {"road"}
    # every named area, and the terrain types come from the system's terrain file
    assert all(a.name for a in t.areas)
    assert m.type_of("marsh").rules.get("impassable") and m.type_of("lake").rules.get("impassable")


def test_the_river_crosses_the_table(m):
    river = m.table.rivers[0]
    ends = [river.points[0], river.points[-1]]
    on_edge = [x in (0, 72) or y in (0, 48) for x, y in ends]
    assert on_edge == [True, True]
    # it cuts the table in two: no way round its ends
    parts = m.table.edge.difference(river.area)
    assert parts.geom_type == "MultiPolygon" and len(parts.geoms) == 2


def test_the_bridge_and_the_ford_lie_on_the_river(m):
    river = m.table.rivers[0]
    for c in river.crossings:
        assert river.line.distance(_pt(c.at)) <= river.width / 2 + EPS, c
        assert c.width >= river.width, c       # wide enough to matter for a centre-point path (C13)
    bridge, ford = _crossing(m, "bridge"), _crossing(m, "ford")
    assert ford.at != bridge.at
    assert river.crossing_area(ford).distance(river.crossing_area(bridge)) > 5


def test_a_road_crosses_the_bridge_and_no_road_fords_open_water(m):
    river = m.table.rivers[0]
    bridge = _crossing(m, "bridge")
    over = [r for r in m.table.roads if r.line.intersects(river.line)]
    assert over, "no road meets the river"
    for r in over:
        assert river.crossings_on(r.line) == [bridge], r.name
    for r in m.table.roads:
        assert river.crossing_ok(r.line), f"{r.name} crosses open water"
    # the road's corridor fits inside the bridge, so a whole road move over it is legal (C11, C13)
    pike = over[0]
    assert river.crossing_area(bridge).buffer(EPS).contains(pike.area.intersection(river.area))


def test_the_town_is_on_the_roads_and_reachable_by_road_from_both_zones(sc, m):
    t = town(sc, m)
    through = [r for r in m.table.roads if r.line.intersects(t.polygon)]
    assert len(through) >= 1
    # the road over the bridge runs on through the town
    river = m.table.rivers[0]
    assert any(river.crossings_on(r.line) == [_crossing(m, "bridge")] for r in through)
    # each side has a road from its zone into the town that crosses no open water
    for side in SIDES:
        assert any(r.line.intersects(zone(sc, side)) and river.crossing_ok(r.line) for r in through), side
    # no road runs through impassable terrain or woods
    for r in m.table.roads:
        for a in m.table.areas:
            if a.terrain in IMPASSABLE | {"woods"}:
                assert not overlap(r.area, a.polygon), (r.name, a.name)


def test_terrain_areas_keep_apart(m):
    t = m.table
    river = t.rivers[0]
    for a, b in combinations(t.areas, 2):
        assert not overlap(a.polygon, b.polygon), (a.name, b.name)
    for a in t.areas:
        assert not overlap(a.polygon, river.area), a.name


def test_the_town_lies_between_the_armies(sc, m):
    t = town(sc, m).polygon
    d = {side: t.distance(zone(sc, side)) for side in SIDES}
    assert d["union"] == pytest.approx(d["confederate"]) and d["union"] >= 10
    # beside the bridge, on the far side from the west bank
    assert t.distance(_pt(_crossing(m, "bridge").at)) < 6


# --------------------------------------------------------------------------
# the scenario


def test_the_scenario_header(sc):
    assert sc["system"] == "acw_minis" and sc["stand_in"] is True
    assert "original" in sc["note"].lower() and "not from the rules" in sc["note"]
    assert sc["title"]
    assert sc["turns"] == 15
    assert sc["sides"] == list(SIDES)
    assert set(sc["side_names"]) == set(SIDES)
    assert sc["first_player"] == "union"
    assert sc["player_turn_order"] == ["union", "confederate"]
    assert sc["options"] == {"road_following": False, "fire_arc_centre": False}


def test_the_deployment_zones_are_strips_along_opposite_long_edges(sc, m):
    assert set(sc["deployment"]) == set(SIDES)
    assert sc["deployment"]["union"]["edge"] == "south" and sc["deployment"]["confederate"]["edge"] == "north"
    u, c = zone(sc, "union"), zone(sc, "confederate")
    assert m.table.on_table(u) and m.table.on_table(c)
    assert u.bounds[1] == 0 and c.bounds[3] == 48                  # on their own edges
    assert u.bounds[0::2] == c.bounds[0::2] == (0, 72)             # the full width
    assert u.distance(c) >= 24


def test_six_units_a_side_with_legal_types_frontages_and_fresh(sc):
    units = units_of(sc)
    assert len(units) == len(sc["units"]) == 12        # ids are unique
    for side in SIDES:
        mine = [u for u in units.values() if u["side"] == side]
        assert len(mine) == 6, side
        assert {u["type"] for u in mine} == UNIT_TYPES, side   # a mix of all four
    assert len({u["name"] for u in units.values()}) == 12
    for uid, u in units.items():
        assert set(u) == UNIT_FIELDS, uid
        assert u["type"] in UNIT_TYPES, uid
        lo, hi = FRONTAGE[u["type"]]
        assert lo <= u["frontage"] <= hi, uid
        assert u["depth"] == 1, uid                     # C14 default
        assert isinstance(u["figures"], int) and u["figures"] > 0, uid
        assert u["hits"] == 0, uid
        assert 0 <= u["facing"] < 360, uid
        assert all(isinstance(u[k], (int, float)) for k in ("x", "y", "frontage", "depth", "facing")), uid


def test_units_face_the_enemy(sc):
    for uid, u in units_of(sc).items():
        dy = heading(u["facing"])[1]
        assert dy == pytest.approx(1 if u["side"] == "union" else -1), uid


def test_every_start_is_on_the_table_in_its_zone_and_on_legal_ground(sc, m):
    t = m.table
    river = t.rivers[0]
    for uid, u in units_of(sc).items():
        poly = base_of(u).polygon
        assert t.on_table(poly), uid
        assert zone(sc, u["side"]).buffer(EPS).contains(poly), uid
        assert not overlap(poly, river.area), uid                      # set-up: no part in the creek
        assert river.crossing_ok([(u["x"], u["y"])]), uid               # C13 centre point, a fortiori
        for a in t.overlapping(poly):
            assert a.terrain not in IMPASSABLE, (uid, a.name)
            if u["type"] not in MAY_ENTER_WOODS:
                assert a.terrain != "woods", (uid, a.name)
            if u["type"] not in MAY_END_IN_TOWN:
                assert a.terrain != "town", (uid, a.name)


def test_no_two_units_overlap(sc):
    bases = {uid: base_of(u).polygon for uid, u in units_of(sc).items()}
    for (a, pa), (b, pb) in combinations(bases.items(), 2):
        assert not overlap(pa, pb), (a, b)


def test_each_side_has_units_on_both_banks(sc, m):
    """The creek matters: two brigades a side start on the west bank and must cross."""
    river = m.table.rivers[0]
    west = Polygon([(0, 0), (0, 48), *river.points])
    assert west.is_valid
    t = town(sc, m)
    assert not west.contains(t.polygon.centroid)
    for side in SIDES:
        banks = [west.contains(_pt((u["x"], u["y"]))) for u in sc["units"] if u["side"] == side]
        assert banks.count(True) == 2, side


def test_victory_is_the_scenarios_own_rule(sc, m):
    v = sc["victory"]
    assert v["rule"] == "scenario" and v["stand_in"] is True
    assert v["elimination"]["enemy_units"] == 4
    assert 1 <= v["elimination"]["enemy_units"] <= 6
    assert "Eliminating Units" in v["elimination"]["checked"]
    assert town(sc, m).terrain == "town"
    assert v["town"]["at_end_of_turn"] == sc["turns"] == 15
    assert v["town"]["in_area"] == "centre_point"
    assert "only side" in v["town"]["holder"]
    assert v["otherwise"] == "draw"
    text = " ".join(v["text"].split())
    for phrase in ("eliminated 4 of the 6 enemy units", "end of turn 15", "Mercer's Mill", "draw"):
        assert phrase in text


def test_no_unit_starts_in_the_town(sc, m):
    t = town(sc, m)
    assert not any(t.contains_point((u["x"], u["y"])) for u in sc["units"])


# --------------------------------------------------------------------------


def _pt(xy):
    from shapely.geometry import Point

    return Point(float(xy[0]), float(xy[1]))


def _crossing(m, kind: str):
    [c] = [c for c in m.table.rivers[0].crossings if c.terrain == kind]
    return c
