"""Tabletop geometry: the ACW miniatures digest's cases D3, D4, D6, D7 and D8 (geometry parts)."""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import box

from hxref.geometry.table import (
    Area,
    Base,
    Crossing,
    Table,
    Watercourse,
    angle_off,
    base_distance,
    bearing,
    fire_range,
    in_fire_arc,
    in_range,
    overlap,
    swept_area,
)


def test_base_corners_follow_the_facing():
    b = Base(0, 0, 0, 6, 1)
    fl, fr, rr, rl = b.corners()
    assert fl == pytest.approx((-3, 0.5)) and fr == pytest.approx((3, 0.5)) and rl == pytest.approx((-3, -0.5))
    east = Base(0, 0, 90, 6, 1)  # facing east: front edge at x = 0.5, from y = 3 (left) to y = -3 (right)
    fl, fr = east.corners()[:2]
    assert fl == pytest.approx((0.5, 3)) and fr == pytest.approx((0.5, -3))
    assert east.advanced(2).centre == pytest.approx((2, 0))
    assert bearing((0, 0), (1, 1)) == pytest.approx(45) and angle_off(350, (0, 0), (0, 1)) == pytest.approx(10)


def test_m06_pivot_advance_pivot():
    b = Base(0, 0, 0, 6, 1).pivoted(90).advanced(6).pivoted(180)
    assert b.centre == pytest.approx((6, 0)) and b.facing == 180


# ---------------------------------------------------------------- D4 terrain

WOODS = Area("woods", box(10, 10, 20, 20))
TOWN = Area("town", box(-20, 10, -10, 20))
MARSH = Area("marsh", box(30, 0, 40, 10))
RIVER = Watercourse("river", ((-100, 30.5), (100, 30.5)), 1.0, (Crossing("bridge", (0, 30.5), 2), Crossing("ford", (41, 30.5), 2)))
TABLE = Table(200, 200, [WOODS, TOWN, MARSH], [RIVER])


def test_t01_t02_cavalry_and_the_woods_edge():
    cav = Base(15, 0, 0, 6, 1)
    assert WOODS in TABLE.overlapping(swept_area(cav, 12))  # T01: front edge reaches y = 12.5
    assert TABLE.overlapping(swept_area(cav, 9)) == []  # T02: front edge 9.5


def test_t04_t05_t06_ending_in_a_town():
    art = Base(-15, 4, 0, 2, 1)
    assert TOWN in TABLE.overlapping(art.advanced(6).polygon)  # T04
    cav = Base(-15, 2, 0, 6, 1).advanced(12)
    assert TABLE.terrain_at(cav.centre) == {"town"}  # T05: centre at y = 14
    moved = Area("town", box(-20, 3, -10, 8))  # T06: passes through, ends clear
    start = Base(-15, 0, 0, 6, 1)
    assert moved.overlaps(swept_area(start, 12)) and not moved.overlaps(start.advanced(12).polygon)


def test_t07_marsh():
    assert MARSH in TABLE.overlapping(swept_area(Base(35, -6, 0, 6, 1), 6))


@pytest.mark.parametrize("x, ok, crossing", [(0, True, "bridge"), (10, False, None), (41, True, "ford")])
def test_t08_t09_t10_river_crossings(x, ok, crossing):
    start = Base(x, 26, 0, 6, 1)
    path = [start.centre, start.advanced(6).centre]
    assert TABLE.river_crossings_ok(path) is ok
    assert [c.terrain for c in RIVER.crossings_on(path)] == ([crossing] if crossing else [])


def test_crossing_edges_are_inclusive():
    assert RIVER.crossing_ok([(1.0, 26), (1.0, 32)])  # the bridge's edge x = 1
    assert not RIVER.crossing_ok([(1.01, 26), (1.01, 32)])
    assert RIVER.crossing_ok([(5, 26), (5, 29.5)])  # stops short of the water
    assert not RIVER.crossing_ok([(5, 26), (5, 30.2)])  # ends in it


def test_t11_t12_cover_by_centre_point():
    assert "woods" in TABLE.terrain_at((15, 15))
    edge = Base(15, 9.8, 0, 6, 1)
    assert TABLE.terrain_at(edge.centre) == set() and WOODS.overlaps(edge.polygon)


# ---------------------------------------------------------------- D3 roads

ROAD = Watercourse("road", ((0, -24), (0, 24)), 1.0)


def test_road_cases():
    inf = Base(0, 0, 0, 6, 1)
    assert ROAD.follows([inf.centre, inf.advanced(9).centre])  # R01
    east = inf.pivoted(90)
    assert not ROAD.follows([east.centre, east.advanced(7).centre])  # R06
    off = Base(3, 0, 0, 6, 1)
    assert not ROAD.follows([off.centre, off.advanced(7).centre])  # R07
    assert ROAD.follows([(0.5, 0), (0.5, 6)])  # the corridor's edge counts
    assert not Table(50, 50, roads=[ROAD]).on_road([(0, 20), (0, 30)])  # runs off the end of the road


# ---------------------------------------------------------------- D6 bases

def test_interpenetration_sweeps_and_touching():
    a, b = Base(0, 0, 0, 6, 1), Base(0, 4, 0, 6, 1)
    assert overlap(swept_area(a, 6), b.polygon)  # I01
    assert not overlap(swept_area(a, 2.5), b.polygon)  # I02
    assert not overlap(swept_area(a, 3.0), b.polygon)  # I03: touching
    assert overlap(swept_area(a, 3.1), b.polygon)  # I04
    assert base_distance(a, b) == pytest.approx(3.0)
    assert base_distance(a.advanced(3), b) == 0


def test_i06_pivots_are_checked_at_their_end_position():
    a = Base(0, 0, 0, 6, 1)
    art = Base(2.5, 2.4, 0, 2, 1)
    assert not overlap(a.pivoted(270).polygon, art.polygon)
    assert overlap(a.pivoted(315).polygon, art.polygon)  # half-way round: the sweep alternative says no


def test_on_table():
    t = Table(36, 36)
    assert t.on_table(Base(3, 0.5, 0, 6, 1).polygon)
    assert not t.on_table(Base(2.9, 0.5, 0, 6, 1).polygon)


# ---------------------------------------------------------------- D7 range, D8 field of fire

@pytest.mark.parametrize("edge, rng, ok", [(12.4, 11.9, True), (12.5, 12.0, True), (12.6, 12.1, False)])
def test_g01_g03_infantry_range(edge, rng, ok):
    shooter = Base(0, 0, 0, 6, 1)
    target = Base(0, edge + 0.5, 0, 6, 1)
    r = fire_range(shooter, target)
    assert r == pytest.approx(rng) and in_range(r, 12) is ok


@pytest.mark.parametrize("edge, ok", [(48.5, True), (48.6, False)])
def test_g04_g05_artillery_range(edge, ok):
    r = fire_range(Base(0, 0, 0, 2, 1), Base(0, edge + 0.5, 0, 6, 1))
    assert in_range(r, 48) is ok


def artillery_with_upper_left_corner_at(px, py):
    return Base(px + 1, py - 0.5, 0, 2, 1)


@pytest.mark.parametrize("p, ok", [((10, 7.749), True), ((10, 7.5), True), ((10, 7.26), False)])
def test_f01_f03_the_45_degree_boundary_is_inclusive(p, ok):
    shooter = Base(0, 0, 0, 6, 1)
    assert in_fire_arc(shooter, artillery_with_upper_left_corner_at(*p)) is ok


def test_f02_range_is_to_the_part_inside_the_arc():
    shooter = Base(0, 0, 0, 6, 1)
    # the target's corner exactly on the 45-degree flare is 7 * sqrt(2) from the right front corner
    assert fire_range(shooter, artillery_with_upper_left_corner_at(10, 7.5)) == pytest.approx(7 * math.sqrt(2))
    assert fire_range(shooter, artillery_with_upper_left_corner_at(10, 7.26)) is None


def test_f04_the_dead_zone_decides_the_reading():
    shooter = Base(0, 0, 0, 6, 1)
    target = Base(3.5, 2.0, 0, 2, 1)  # x 2.5-4.5, y 1.5-2.5
    assert in_fire_arc(shooter, target)  # recommended: from the whole front edge
    assert not in_fire_arc(shooter, target, apex="centre")  # 51.3 degrees off from (0, 0.5)
    assert angle_off(0, (0, 0.5), (2.5, 2.5)) == pytest.approx(51.34, abs=0.01)


def test_f05_f06_behind_and_all_round():
    shooter = Base(0, 0, 0, 6, 1)
    behind = Base(0, -10.5, 0, 6, 1)
    assert not in_fire_arc(shooter, behind)
    assert in_fire_arc(shooter, behind, all_round=True)
    assert fire_range(shooter, behind, all_round=True) == pytest.approx(9.5)


@given(st.floats(0, 359.9), st.floats(-30, 30), st.floats(-30, 30))
def test_arc_is_rotation_invariant(facing, x, y):
    """The same situation turned to any facing gives the same answer (away from the boundary)."""
    from hxref.geometry.table import fire_zone

    shooter, target = Base(0, 0, 0, 6, 1), Base(x, y, 0, 2, 1)
    if target.polygon.distance(fire_zone(shooter, 100).exterior) < 1e-6:
        return  # on the boundary: float noise may decide either way in the turned copy
    rad = math.radians(facing)
    turned = Base(x * math.cos(rad) + y * math.sin(rad), -x * math.sin(rad) + y * math.cos(rad), facing, 2, 1)
    assert in_fire_arc(shooter, target) == in_fire_arc(Base(0, 0, facing, 6, 1), turned)
