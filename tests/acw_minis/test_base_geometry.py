"""ACW miniatures: the area a pivoting base sweeps (C12), how much of a base is in woods or a town
(C5), the water no part of a base may be over (C13), and the field-of-fire reading as a scenario
option (C6).  The case book (games/acw_minis/cases/pivots.yaml, base_in_terrain.yaml,
fire_arc.yaml) plays the same rules through the game's check and resolve; these pin the geometry.
"""
from __future__ import annotations

import math
from typing import Any, cast

import pytest
from shapely import ops
from shapely.geometry import box

from hxref.geometry.table import Area, Base, Crossing, Table, Watercourse
from hxref.systems.acw_minis import info, system
from hxref.systems.acw_minis.movement import check_move, pivot_swept_area
from hxref.systems.acw_minis.units import (
    ARTILLERY,
    CAVALRY,
    INFANTRY,
    IN_AREA_SHARE,
    Unit,
    area_share,
    check_setup,
    fires_all_round,
    in_cover,
    open_water,
    reach,
)


def rules_of(res) -> str:
    return " | ".join(p.rule for p in res.problems)


@pytest.mark.parametrize("delta", [17.0, -45.0, 90.0, -90.0, 180.0, 270.0, -359.0])
@pytest.mark.parametrize("frontage, depth, facing", [(6.0, 1.0, 0.0), (2.0, 1.0, 33.0), (4.0, 2.0, 200.0)])
def test_a_pivot_sweeps_every_position_of_the_base_on_the_way_round(delta, frontage, depth, facing):
    b = Base(50.0, 50.0, facing, frontage, depth)
    swept = pivot_swept_area(b, delta)
    n = 1440
    sampled = ops.unary_union([b.pivoted(facing + delta * k / n).polygon for k in range(n + 1)])
    # every sampled position lies inside the swept area (to the chords of its arcs, under 0.0001")
    assert sampled.difference(swept.buffer(1e-4)).area < 1e-9
    # and the swept area holds nothing more: each of its points is in the base at some angle, so within
    # half a sample's turn of the base at a sampled angle (a point of the base moves at most reach x angle)
    step = math.radians(abs(delta) / n)
    slack = math.hypot(frontage / 2, depth / 2) * step / 2 + 1e-6
    assert swept.difference(sampled.buffer(slack)).area < 1e-9


def test_the_sweep_reaches_the_corners_distance_only_where_a_corner_passes():
    b = Base(0.0, 0.0, 0.0, 6.0, 1.0)
    r = math.hypot(3.0, 0.5)
    swept = pivot_swept_area(b, 90.0)        # clockwise: the front-left corner passes due north
    assert swept.buffer(1e-6).contains(box(-0.01, r - 0.01, 0.01, r - 0.001))
    # due north-west (bearing 315) no corner passes: the start base alone reaches there
    assert not swept.contains(box(-2.2, 2.0, -2.1, 2.1))


def test_a_pivot_of_nothing_sweeps_the_base():
    b = Base(10.0, 10.0, 45.0, 6.0, 1.0)
    assert pivot_swept_area(b, 0.0).equals(b.polygon)


def test_a_pivot_swinging_off_the_table_is_refused_b6():
    # 6" x 2" facing north, 0.1" from the west edge: turning about, its rear-left corner (3.16" from the
    # centre) passes due west of the centre, 0.06" beyond the edge
    us = {"a": Unit("a", INFANTRY, 3.1, 60, frontage=6, depth=2)}
    assert check_move(Table(120, 120), us, "a", {}).ok
    res = check_move(Table(120, 120), us, "a", {"pivot_start": 180})
    assert not res.ok and "B6" in rules_of(res) and "swing off the table" in res.problems[0].message


def test_a_pivot_sweeping_into_marsh_is_refused_for_every_type():
    marsh = Area("marsh", box(40, 62.8, 60, 70), "the marsh")     # 2.3" ahead of the front edge
    for kind in (INFANTRY, CAVALRY):
        us = {"a": Unit("a", kind, 50, 60, frontage=6)}
        res = check_move(Table(120, 120, [marsh]), us, "a", {"pivot_end": 90})
        assert not res.ok and "Marshland and Lakes" in rules_of(res)


def test_a_pivot_sweeping_over_open_water_is_refused_c13():
    river = Watercourse("river", ((0, 63), (120, 63)), 1.0, (), "the river")   # its bank at y 62.5
    us = {"a": Unit("a", INFANTRY, 50, 60, frontage=6)}
    assert check_move(Table(120, 120, rivers=[river]), us, "a", {"advance": 2.0}).ok      # front edge touches
    res = check_move(Table(120, 120, rivers=[river]), us, "a", {"pivot_start": 90})
    assert not res.ok and "A3 Terrain: Rivers; C13" in rules_of(res)


# --------------------------------------------------------------------------- C5 in woods, in a town


WOOD = Area("woods", box(10, 10, 20, 20), "the wood")
TOWN = Area("town", box(30, 10, 40, 20), "the town")
TABLE = Table(60, 60, [WOOD, TOWN])


@pytest.mark.parametrize("y, share", [(9.5, 0.0), (9.9, 0.4), (10.0, 0.5), (10.1, 0.6), (12.0, 1.0)])
def test_the_share_of_a_base_in_woods(y, share):
    u = Unit("t", INFANTRY, 15, y, frontage=6)                 # 6" x 1", straddling the wood's south edge
    assert area_share([WOOD], u) == pytest.approx(share)
    assert bool(in_cover(TABLE, u)) is (share >= IN_AREA_SHARE)


def test_a_centre_in_the_corner_of_a_wood_is_not_enough():
    u = Unit("t", INFANTRY, 10.2, 10.4, frontage=6)          # centre inside; 3.2" x 0.9" of 6 sq in inside
    assert WOOD.contains_point(u.centre)
    assert area_share([WOOD], u) == pytest.approx(3.2 * 0.9 / 6)
    assert in_cover(TABLE, u) == []


def test_two_woods_side_by_side_count_together():
    west, east = Area("woods", box(0, 0, 15, 10), "west"), Area("woods", box(15, 0, 30, 10), "east")
    u = Unit("t", INFANTRY, 15, 9.9, frontage=6)              # 0.6 of the base in, split between the two
    assert {a.name for a in in_cover(Table(60, 60, [west, east]), u)} == {"west", "east"}


def test_all_round_fire_needs_half_the_base_in_the_town():
    assert fires_all_round(TABLE, Unit("s", INFANTRY, 35, 10.0, frontage=6))          # exactly half: in
    assert not fires_all_round(TABLE, Unit("s", INFANTRY, 35, 9.99, frontage=6))
    assert not fires_all_round(TABLE, Unit("s", INFANTRY, 15, 15, frontage=6))        # woods give no 360


# --------------------------------------------------------------------------- C13 open water


RIVER = Watercourse("river", ((0, 30), (60, 30)), 2.0, (Crossing("bridge", (20, 30), 2.0),), "the creek")


def test_open_water_is_the_river_beyond_the_bases_reach_of_a_crossing():
    line = Unit("a", INFANTRY, 20, 27, frontage=6)
    gun = Unit("g", ARTILLERY, 20, 27, frontage=2)
    assert reach(line) == pytest.approx(math.hypot(3, 0.5)) and reach(gun) == pytest.approx(math.hypot(1, 0.5))
    (water, rule, _), = open_water(Table(60, 60, rivers=[RIVER]), line)
    assert "C13" in rule
    # the bridge covers x 19-21; a 6" line may be over the water out to 3.04" either side of it
    assert water.bounds[0] == pytest.approx(0) and not water.intersects(box(16.0, 29.5, 24.0, 30.5))
    assert water.intersects(box(15.9, 29.5, 15.95, 30.5))
    (gun_water, _, _), = open_water(Table(60, 60, rivers=[RIVER]), gun)
    assert gun_water.intersects(box(17.5, 29.5, 17.8, 30.5))             # a gun's reach is 1.12"


def test_a_deployment_over_open_water_is_refused():
    us = {"a": Unit("a", INFANTRY, 45, 28.8, frontage=6)}               # front edge 0.3" into the creek
    probs = check_setup(Table(60, 60, rivers=[RIVER]), us)
    assert probs and "C13" in probs[0].rule


def test_crossing_the_bridge_with_a_line_wider_than_it():
    us = {"a": Unit("a", INFANTRY, 20, 27, frontage=6)}
    res = check_move(Table(60, 60, rivers=[RIVER]), us, "a", {"advance": 6})
    assert res.ok and res.crossings == ("bridge",)
    # at the bridge's east end the centre still crosses on it, and the flank (x 17.9-23.9) stays within
    # 3.04" of it
    us = {"a": Unit("a", INFANTRY, 20.9, 27, frontage=6)}
    assert check_move(Table(60, 60, rivers=[RIVER]), us, "a", {"advance": 6}).ok
    # 4" east of the bridge: the front edge meets open water before the centre does
    us = {"a": Unit("a", INFANTRY, 25, 27, frontage=6)}
    res = check_move(Table(60, 60, rivers=[RIVER]), us, "a", {"advance": 6})
    assert not res.ok and "C13" in rules_of(res) and res.at == pytest.approx(1.5, abs=0.01)


# --------------------------------------------------------------------------- C6 the scenario option


def test_the_field_of_fire_reading_is_a_declared_scenario_option():
    assert "fire_arc_centre" in info.INFO.optional_rules
    assert info.INFO.optional_rules["fire_arc_centre"].startswith("C6:")
    state: Any = {"options": {"fire_arc_centre": True, "road_following": False}}
    assert system._options(state).fire_apex == "centre"
    assert system._options(cast(Any, {"options": {}})).fire_apex == "edge"


def test_hxref_new_switches_the_option_on(cli):
    from hxref.referee.engine import Engine

    cli("new", "g.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "solo",
        "--option", "fire_arc_centre")
    assert Engine.load("g.yaml").state["options"] == {"road_following": False, "fire_arc_centre": True}
    cli("new", "h.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "solo")
    assert Engine.load("h.yaml").state["options"]["fire_arc_centre"] is False
