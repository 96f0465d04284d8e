"""ACW miniatures rules on a measured table: every number of the rules, and every illegal move.

Case ids (M01, R06, T01, I06, G02, F03, H13, E04, S02, Q01 ...) are the digest's
(``rules/acw-miniatures.md`` section D).  The digest puts (0, 0) at its examples'
centre; the table's south-west corner is (0, 0) here, so its coordinates are moved by
``O`` = (50, 50) on a 120" x 120" table.
"""
from __future__ import annotations

import math
import textwrap

import pytest
from shapely.geometry import box

from hxref.geometry.table import Area, Crossing, Table, Watercourse
from hxref.geometry.mapfile import load_map
from hxref.systems.acw_minis.movement import (
    check_move,
    movement_step,
)
from hxref.systems.acw_minis.sequence import (
    eliminating_step,
    first_player,
    player_turns,
    start_player_turn,
)
from hxref.systems.acw_minis.shooting import (
    check_shot,
    cover_hits,
    hits,
    line_of_sight,
    shooting_step,
)
from hxref.systems.acw_minis.units import (
    ARTILLERY,
    CAVALRY,
    DEFAULT_DEPTH,
    ELIMINATION_HITS,
    FIRE_ARC,
    FRONTAGE,
    INFANTRY,
    MODIFIER,
    MOVE_ALLOWANCE,
    RANGE,
    ROAD_BONUS,
    STEPS,
    TOLERANCE,
    UNIT_TYPES,
    ZOUAVES,
    Options,
    Unit,
    apply_hits,
    check_setup,
    eliminated,
    terrain_rules,
    unit_problems,
    unit_shape,
)

OX, OY = 50.0, 50.0


def P(x: float, y: float) -> tuple[float, float]:
    """A digest coordinate on the test table."""
    return (x + OX, y + OY)


def U(uid: str, kind: str, x: float, y: float, facing: float = 0.0, frontage: float | None = None,
      side: str = "blue", **kw) -> Unit:
    """A unit at digest coordinates (x, y); frontage 6" (artillery 2"), depth 1"."""
    if frontage is None:
        frontage = 2.0 if kind == ARTILLERY else 6.0
    px, py = P(x, y)
    return Unit(id=uid, type=kind, side=side, x=px, y=py, facing=facing, frontage=frontage, **kw)


def units(*us: Unit) -> dict[str, Unit]:
    return {u.id: u for u in us}


def rect(x0, y0, x1, y1):
    return box(x0 + OX, y0 + OY, x1 + OX, y1 + OY)


OPEN = Table(120, 120)

# D3 road: along x = 0 from y = -24 to +24, 1" wide
ROAD = Watercourse("road", (P(0, -24), P(0, 24)), 1.0)
ROADS = Table(120, 120, roads=[ROAD])

# D4 terrain
WOODS = Area("woods", rect(10, 10, 20, 20), "the woods")
TOWN = Area("town", rect(-20, 10, -10, 20), "the town")
MARSH = Area("marsh", rect(30, 0, 40, 10), "the marsh")
LAKE = Area("lake", rect(-40, -30, -30, -20), "the lake")
RIVER = Watercourse("river", (P(-50, 30.5), P(70, 30.5)), 1.0,
                    (Crossing("bridge", P(0, 30.5), 2.0), Crossing("ford", P(41, 30.5), 2.0)), "the river")
TERRAIN = Table(120, 120, [WOODS, TOWN, MARSH, LAKE], [RIVER])

ALL = [INFANTRY, ZOUAVES, CAVALRY, ARTILLERY]


def move(table, us, uid, order, **kw):
    return check_move(table, us, uid, order, **kw)


def rules_of(res) -> str:
    return " | ".join(p.rule for p in res.problems)


# =========================================================================== A1 units


def test_the_numbers_of_the_rules():
    assert UNIT_TYPES == (INFANTRY, ZOUAVES, CAVALRY, ARTILLERY)
    assert MOVE_ALLOWANCE == {INFANTRY: 6, ARTILLERY: 6, ZOUAVES: 9, CAVALRY: 12}
    assert ROAD_BONUS == 3
    assert RANGE == {INFANTRY: 12, ZOUAVES: 12, CAVALRY: 12, ARTILLERY: 48}
    assert MODIFIER == {INFANTRY: 0, ZOUAVES: 2, CAVALRY: -2, ARTILLERY: -2}
    assert FIRE_ARC == 45
    assert ELIMINATION_HITS == 15
    assert FRONTAGE == {INFANTRY: (4, 6), ZOUAVES: (4, 6), CAVALRY: (4, 6), ARTILLERY: (2, 3)}
    assert DEFAULT_DEPTH == 1.0  # C14
    assert TOLERANCE == 0.001  # C7
    assert STEPS == ("movement", "shooting", "eliminating units")


@pytest.mark.parametrize("kind, frontage, ok", [
    (INFANTRY, 4, True), (INFANTRY, 6, True), (INFANTRY, 3.9, False), (INFANTRY, 6.1, False),
    (ZOUAVES, 5, True), (CAVALRY, 4, True), (CAVALRY, 6.5, False),
    (ARTILLERY, 2, True), (ARTILLERY, 3, True), (ARTILLERY, 1.9, False), (ARTILLERY, 3.1, False), (ARTILLERY, 4, False),
])
def test_a1_frontages(kind, frontage, ok):
    probs = unit_problems(Unit("u", kind, 10, 10, frontage=frontage))
    assert (probs == []) is ok
    if not ok:
        assert "A1" in probs[0].rule


def test_a1_unit_record_and_figures_have_no_effect():
    u = Unit("u", INFANTRY, 10, 10, facing=450, frontage=5, figures=24)
    assert u.facing == 90  # facings are kept in [0, 360)
    assert u.depth == DEFAULT_DEPTH and u.hits == 0 and not u.moved
    assert unit_problems(u) == []
    assert unit_problems(Unit("u", "dragoons", 10, 10, frontage=5))[0].rule.startswith("A1")
    assert unit_problems(Unit("u", INFANTRY, 10, 10, frontage=5, depth=0))  # a base needs a depth
    assert unit_problems(Unit("u", INFANTRY, 10, 10, frontage=5, figures=0))
    assert unit_problems(Unit("u", INFANTRY, 10, 10, frontage=5, hits=-1))
    # the player sets the figure count; it changes nothing
    a = Unit("a", INFANTRY, 50, 50, frontage=6, figures=12)
    b = Unit("a", INFANTRY, 50, 50, frontage=6, figures=40)
    assert check_move(OPEN, units(a), "a", {"advance": 6}).ok == check_move(OPEN, units(b), "a", {"advance": 6}).ok
    assert Unit.from_dict(u.to_dict()) == u


def test_unit_default_frontage_and_dict_round_trip():
    assert Unit("a", ARTILLERY, 1, 1).frontage in (2, 3)
    assert FRONTAGE[INFANTRY][0] <= Unit("i", INFANTRY, 1, 1).frontage <= FRONTAGE[INFANTRY][1]
    d = {"id": "x", "type": "cavalry", "side": "red", "x": 3, "y": 4, "facing": 90, "frontage": 4, "hits": 2}
    assert Unit.from_dict(d).to_dict()["hits"] == 2


def test_unit_shape_is_the_turned_rectangle():
    shape = unit_shape(Unit("a", INFANTRY, 50, 50, facing=0, frontage=6))
    assert shape.area == pytest.approx(6.0)  # 6" x the default 1" depth
    assert shape.bounds == pytest.approx((47, 49.5, 53, 50.5))
    east = unit_shape(Unit("a", INFANTRY, 50, 50, facing=90, frontage=6))
    assert east.bounds == pytest.approx((49.5, 47, 50.5, 53))
    slant = unit_shape(Unit("a", INFANTRY, 50, 50, facing=45, frontage=4, depth=2))
    assert slant.area == pytest.approx(8.0) and slant.centroid.coords[0] == pytest.approx((50, 50))


# =========================================================================== D3 allowances


@pytest.mark.parametrize("kind", ALL)
def test_m01_m05_allowance_exactly_and_just_over(kind):
    allowance = MOVE_ALLOWANCE[kind]
    us = units(U("a", kind, 0, 0))
    ok = move(OPEN, us, "a", {"advance": allowance})
    assert ok.ok, ok.problems
    assert ok.end.y == pytest.approx(OY + allowance) and ok.allowance == allowance and not ok.on_road
    bad = move(OPEN, us, "a", {"advance": allowance + 0.1})
    assert not bad.ok and bad.end is None
    assert "A3 Movement allowances" in rules_of(bad)
    assert bad.at == pytest.approx(allowance)  # where the allowance runs out
    assert f'{allowance:g}"' in bad.problems[0].message


def test_m01_m02_infantry_six_inches():
    us = units(U("a", INFANTRY, 0, 0))
    assert move(OPEN, us, "a", {"advance": 6.0}).ok
    assert not move(OPEN, us, "a", {"advance": 6.1}).ok


def test_m06_pivot_advance_pivot():
    res = move(OPEN, units(U("a", INFANTRY, 0, 0)), "a", {"pivot_start": 90, "advance": 6, "pivot_end": 90})
    assert res.ok
    assert (res.end.x, res.end.y) == pytest.approx(P(6, 0)) and res.end.facing == pytest.approx(180)
    assert res.advance == pytest.approx(6) and res.moved and res.end.moved
    assert res.path[0] == pytest.approx(P(0, 0)) and res.path[-1] == pytest.approx(P(6, 0))
    assert res.why


def test_m06_pivots_cost_nothing_c9():
    # a full allowance after two large pivots
    res = move(OPEN, units(U("a", CAVALRY, 0, 0)), "a", {"pivot_start": -135, "advance": 12, "pivot_end": 170})
    assert res.ok and res.end.facing == pytest.approx((225 + 170) % 360)


def test_m07_a_multi_segment_path_is_refused():
    res = move(OPEN, units(U("a", INFANTRY, 0, 0)), "a", {"path": [list(P(0, 3)), list(P(2, 5))]})
    assert not res.ok
    assert "C8" in rules_of(res) and "A3 Turning" in rules_of(res)
    assert "segment" in res.problems[0].message


def test_m07_a_path_of_one_segment_is_a_destination():
    res = move(OPEN, units(U("a", INFANTRY, 0, 0)), "a", {"path": [list(P(0, 0)), list(P(0, 5))], "facing": 90})
    assert res.ok and (res.end.x, res.end.y) == pytest.approx(P(0, 5)) and res.end.facing == pytest.approx(90)


def test_destination_form_equals_pivot_form():
    us = units(U("a", INFANTRY, 0, 0))
    a = move(OPEN, us, "a", {"to": list(P(6, 0)), "facing": 180})
    b = move(OPEN, us, "a", {"pivot_start": 90, "advance": 6, "pivot_end": 90})
    assert a.ok and b.ok
    assert (a.end.x, a.end.y, a.end.facing) == pytest.approx((b.end.x, b.end.y, b.end.facing))
    # too far as a destination: the straight-line distance is the move
    far = move(OPEN, us, "a", {"to": list(P(5, 5))})
    assert not far.ok and "A3 Movement allowances" in rules_of(far)
    # facing is kept when not given
    keep = move(OPEN, us, "a", {"to": list(P(0, -4))})
    assert keep.ok and keep.end.facing == pytest.approx(180)


def test_m08_zero_move_is_not_a_move_c18():
    res = move(OPEN, units(U("a", INFANTRY, 0, 0)), "a", {"advance": 0})
    assert res.ok and not res.moved and not res.end.moved
    res = move(OPEN, units(U("a", INFANTRY, 0, 0)), "a", {})
    assert res.ok and not res.moved


def test_s02_a_pivot_alone_is_a_move_c10():
    res = move(OPEN, units(U("a", INFANTRY, 0, 0)), "a", {"pivot_start": 30})
    assert res.ok and res.moved and res.end.moved and res.end.facing == pytest.approx(30)


# --------------------------------------------------------------------------- roads


@pytest.mark.parametrize("kind", ALL)
def test_r01_r05_road_bonus_exactly_and_just_over(kind):
    road_allowance = MOVE_ALLOWANCE[kind] + ROAD_BONUS
    us = units(U("a", kind, 0, -10))
    ok = move(ROADS, us, "a", {"advance": road_allowance})
    assert ok.ok, ok.problems
    assert ok.on_road and ok.allowance == road_allowance
    bad = move(ROADS, us, "a", {"advance": road_allowance + 0.1})
    assert not bad.ok and "A3 Movement allowances" in rules_of(bad)


def test_r06_leaving_the_road_loses_the_whole_bonus():
    res = move(ROADS, units(U("a", INFANTRY, 0, 0)), "a", {"pivot_start": 90, "advance": 7})
    assert not res.ok and not res.on_road and res.allowance == 6
    assert "A3 Movement allowances" in rules_of(res) and "road" in res.problems[0].message
    assert move(ROADS, units(U("a", INFANTRY, 0, 0)), "a", {"pivot_start": 90, "advance": 6}).ok


def test_r07_starting_off_the_road_gives_no_bonus():
    res = move(ROADS, units(U("a", INFANTRY, 3, 0)), "a", {"advance": 7})
    assert not res.ok and res.allowance == 6


def test_r08_six_inches_on_the_road():
    res = move(ROADS, units(U("a", INFANTRY, 0, 0)), "a", {"advance": 6})
    assert res.ok and res.on_road


def test_road_bonus_not_when_part_of_the_move_is_off_the_road():
    # the road ends at y = +24: an advance from y = 18 of 9" runs 3" past its end
    res = move(ROADS, units(U("a", INFANTRY, 0, 18)), "a", {"advance": 9})
    assert not res.ok and not res.on_road and res.allowance == 6
    # on the road for 6" then off it for 1": still no bonus, no partial bonus
    res = move(ROADS, units(U("a", INFANTRY, 0, 17)), "a", {"advance": 8})
    assert not res.ok and res.allowance == 6
    # a diagonal that starts and ends on the road but leaves it in between: no bonus
    diag = move(ROADS, units(U("a", INFANTRY, -0.5, 0)), "a", {"to": list(P(0.5, 8.9))})
    assert diag.on_road  # inside the 1" corridor the whole way (C11: centre in the corridor)


def test_road_pivots_at_either_end_keep_the_bonus():
    res = move(ROADS, units(U("a", INFANTRY, 0, 0, facing=90)), "a", {"pivot_start": -90, "advance": 9, "pivot_end": 90})
    assert res.ok and res.on_road and res.end.facing == pytest.approx(90)


BENT = Watercourse("road", (P(0, -24), P(0, 0), P(20, 0)), 1.0)
BENT_ROADS = Table(120, 120, roads=[BENT])


def test_road_following_is_a_scenario_option_c8():
    us = units(U("a", INFANTRY, 0, -6))
    order = {"path": [list(P(0, 0)), list(P(3, 0))], "facing": 90}
    assert "C8" in rules_of(move(BENT_ROADS, us, "a", order))  # off by default
    opt = Options(road_following=True)
    res = move(BENT_ROADS, us, "a", order, options=opt)
    assert res.ok, res.problems
    assert res.on_road and res.allowance == 9 and res.advance == pytest.approx(9)
    assert (res.end.x, res.end.y, res.end.facing) == pytest.approx((*P(3, 0), 90))
    too_far = move(BENT_ROADS, us, "a", {"path": [list(P(0, 0)), list(P(3.1, 0))]}, options=opt)
    assert not too_far.ok and "A3 Movement allowances" in rules_of(too_far)
    off = move(BENT_ROADS, us, "a", {"path": [list(P(0, 0)), list(P(3, 2))]}, options=opt)
    assert not off.ok and "C8" in rules_of(off)


# =========================================================================== D4 terrain


def test_t01_cavalry_may_not_enter_woods():
    res = move(TERRAIN, units(U("c", CAVALRY, 15, 0)), "c", {"advance": 12})
    assert not res.ok and "A3 Terrain: Woods" in rules_of(res) and "C5" in rules_of(res)
    assert res.at == pytest.approx(9.5, abs=0.01)  # its front edge reaches y = 10
    assert res.where == pytest.approx(P(15, 9.5), abs=0.01)
    assert "9.5" in res.problems[0].message and "the woods" in res.problems[0].message


def test_t02_cavalry_short_of_the_woods():
    assert move(TERRAIN, units(U("c", CAVALRY, 15, 0)), "c", {"advance": 9}).ok


def test_t01_artillery_may_not_enter_woods_either():
    res = move(TERRAIN, units(U("g", ARTILLERY, 15, 4)), "g", {"advance": 6})
    assert not res.ok and "A3 Terrain: Woods" in rules_of(res)


@pytest.mark.parametrize("kind", [INFANTRY, ZOUAVES])
def test_t03_infantry_and_zouaves_enter_woods(kind):
    res = move(TERRAIN, units(U("z", kind, 15, 2)), "z", {"advance": MOVE_ALLOWANCE[kind]})
    assert res.ok, res.problems


def test_a_pivot_into_woods_is_entering_them():
    # cavalry facing east just south of the woods: its base is 1" deep, 6" long north-south when facing east
    start = move(TERRAIN, units(U("c", CAVALRY, 15, 6.2, facing=90)), "c", {"pivot_start": -90})
    assert start.ok  # facing north: base y 5.7-6.7, x 12-18: clear of the woods (y >= 10)
    c = U("c", CAVALRY, 15, 9.0)  # base y 8.5-9.5
    res = move(TERRAIN, units(c), "c", {"pivot_start": 90})  # facing east: base y 6-12 overlaps
    assert not res.ok and "A3 Terrain: Woods" in rules_of(res) and "start pivot" in res.problems[0].message
    assert res.at == 0
    end = move(TERRAIN, units(c), "c", {"advance": 0.3, "pivot_end": 90})
    assert not end.ok and "end pivot" in end.problems[0].message and end.at == pytest.approx(0.3)


def test_t04_artillery_may_not_end_in_a_town():
    res = move(TERRAIN, units(U("g", ARTILLERY, -15, 4)), "g", {"advance": 6})
    assert not res.ok and "A3 Terrain: Towns" in rules_of(res)
    assert res.at == pytest.approx(6)  # at the end of the move


def test_t05_cavalry_may_not_end_in_a_town():
    res = move(TERRAIN, units(U("c", CAVALRY, -15, 2)), "c", {"advance": 12})
    assert not res.ok and "A3 Terrain: Towns" in rules_of(res)


def test_t05_even_a_corner_in_the_town_at_the_end_is_refused_c5():
    # front edge ends at y = 10.2: 0.2" inside the town, centre well outside
    res = move(TERRAIN, units(U("c", CAVALRY, -15, 0)), "c", {"advance": 9.7})
    assert not res.ok and "A3 Terrain: Towns" in rules_of(res)
    assert move(TERRAIN, units(U("c", CAVALRY, -15, 0)), "c", {"advance": 9.5}).ok  # touching the edge


def test_t06_cavalry_passes_through_a_town():
    town = Area("town", rect(-20, 3, -10, 8))
    res = move(Table(120, 120, [town]), units(U("c", CAVALRY, -15, 0)), "c", {"advance": 12})
    assert res.ok, res.problems


@pytest.mark.parametrize("kind", [INFANTRY, ZOUAVES])
def test_infantry_and_zouaves_may_end_in_a_town(kind):
    res = move(TERRAIN, units(U("i", kind, -15, 9)), "i", {"advance": 6})
    assert res.ok and TERRAIN.terrain_at((res.end.x, res.end.y)) == {"town"}


@pytest.mark.parametrize("kind", ALL)
def test_t07_marsh_is_impassable_to_everyone(kind):
    res = move(TERRAIN, units(U("m", kind, 35, -6)), "m", {"advance": 6})
    assert not res.ok and "A3 Terrain: Marshland and Lakes" in rules_of(res)
    assert res.at == pytest.approx(5.5, abs=0.01)  # the front edge reaches y = 0
    assert "the marsh" in res.problems[0].message


@pytest.mark.parametrize("kind", ALL)
def test_lakes_are_impassable_to_everyone(kind):
    res = move(TERRAIN, units(U("m", kind, -35, -34)), "m", {"advance": 6})
    assert not res.ok and "A3 Terrain: Marshland and Lakes" in rules_of(res)
    assert res.at == pytest.approx(3.5, abs=0.01)


def test_t08_over_the_bridge():
    res = move(TERRAIN, units(U("i", INFANTRY, 0, 26)), "i", {"advance": 6})
    assert res.ok and res.crossings == ("bridge",)  # the base overhangs the water (C13)


def test_t09_no_crossing_away_from_a_bridge_or_ford():
    res = move(TERRAIN, units(U("i", INFANTRY, 10, 26)), "i", {"advance": 6})
    assert not res.ok and "A3 Terrain: Rivers" in rules_of(res) and "C13" in rules_of(res)
    # the front edge reaches the water at y = 30: no part of a base over open water (C13)
    assert res.at == pytest.approx(3.5, abs=0.01)
    assert res.where == pytest.approx(P(10, 29.5), abs=0.01)


def test_t10_at_the_ford():
    res = move(TERRAIN, units(U("i", INFANTRY, 41, 26)), "i", {"advance": 6})
    assert res.ok and res.crossings == ("ford",)


def test_ending_with_the_centre_in_the_river_is_refused_c13():
    res = move(TERRAIN, units(U("i", INFANTRY, 10, 26)), "i", {"advance": 4.3})
    assert not res.ok and "A3 Terrain: Rivers" in rules_of(res)


def test_no_part_of_a_base_over_open_water_c13():
    # away from a crossing the base may touch the bank (front edge at y = 30) but not overhang the water
    assert move(TERRAIN, units(U("i", INFANTRY, 10, 26)), "i", {"advance": 3.5}).ok
    res = move(TERRAIN, units(U("i", INFANTRY, 10, 26)), "i", {"advance": 3.6})
    assert not res.ok and "A3 Terrain: Rivers; C13" in rules_of(res) and "away from a bridge" in res.problems[0].message
    # at the bridge (x -1..1) a 6" line overhangs the water on both sides: within its reach (3.04") of it
    assert move(TERRAIN, units(U("i", INFANTRY, 0, 26)), "i", {"advance": 6}).ok
    # ... but not 5" off it: the base's flank (x 2..8) reaches beyond 1 + 3.04
    assert not move(TERRAIN, units(U("i", INFANTRY, 5, 26)), "i", {"advance": 3.6}).ok


def test_b7_other_terrain_has_no_effect():
    hill = Area("hill", rect(-5, 2, 5, 8), "a hill")
    assert move(Table(120, 120, [hill]), units(U("c", CAVALRY, 0, 0)), "c", {"advance": 12}).ok


# =========================================================================== D6 interpenetration


def i_set(b_side="blue"):
    return units(U("A", INFANTRY, 0, 0), U("B", INFANTRY, 0, 4, side=b_side))


def test_i01_no_passing_through_a_friend():
    res = move(OPEN, i_set(), "A", {"advance": 6})
    assert not res.ok and "A3 Interpenetration" in rules_of(res) and "C12" in rules_of(res)
    assert res.at == pytest.approx(3.0, abs=0.01) and "B" in res.problems[0].message


def test_i02_i03_short_of_and_touching():
    assert move(OPEN, i_set(), "A", {"advance": 2.5}).ok
    assert move(OPEN, i_set(), "A", {"advance": 3.0}).ok  # touching is allowed


def test_i04_overlapping():
    assert "A3 Interpenetration" in rules_of(move(OPEN, i_set(), "A", {"advance": 3.1}))


def test_i05_no_passing_through_an_enemy():
    res = move(OPEN, i_set("red"), "A", {"advance": 6})
    assert not res.ok and "A3 Interpenetration" in rules_of(res)


def test_i06_pivots_are_checked_along_their_sweep():
    # the digest's I06: neither the start nor the end base overlaps the artillery, the sweep does
    us = units(U("A", INFANTRY, 0, 0), Unit("G", ARTILLERY, *P(2.5, 2.4), facing=0, frontage=2, side="blue"))
    res = move(OPEN, us, "A", {"pivot_start": -90})
    assert not res.ok and "A3 Interpenetration; C12" in rules_of(res)
    assert "sweep through G" in res.problems[0].message and "anticlockwise" in res.problems[0].message
    assert move(OPEN, us, "A", {"pivot_start": 90}).ok       # clockwise it does not touch it (I06)


def test_a_pivot_ending_on_another_unit_is_refused():
    us = units(U("A", INFANTRY, 0, 0), Unit("G", ARTILLERY, *P(0, 2.2), facing=0, frontage=2, side="red"))
    res = move(OPEN, us, "A", {"pivot_start": 90})
    assert not res.ok and "A3 Interpenetration" in rules_of(res)


def test_moving_away_from_a_touching_unit_is_allowed():
    us = units(U("A", INFANTRY, 0, 0), U("B", INFANTRY, 0, 1))  # touching front to rear
    assert move(OPEN, us, "B", {"advance": 6}).ok
    # but A may not about-face: its front corners (3.04" from its centre) swing through B (C12)
    res = move(OPEN, us, "A", {"pivot_start": 180, "advance": 6})
    assert not res.ok and "A3 Interpenetration; C12" in rules_of(res) and "start pivot" in res.problems[0].message


# =========================================================================== B6 table edge


def test_b6_advancing_off_the_table():
    us = units(Unit("a", INFANTRY, 50, 117, frontage=6))  # the table is 120" deep
    res = move(OPEN, us, "a", {"advance": 3})
    assert not res.ok and "B6" in rules_of(res)
    assert res.at == pytest.approx(2.5, abs=0.01)
    assert move(OPEN, us, "a", {"advance": 2.5}).ok


def test_b6_pivoting_off_the_table():
    us = units(Unit("a", INFANTRY, 1, 10, facing=90, frontage=6))
    res = move(OPEN, us, "a", {"pivot_start": -90})
    assert not res.ok and "B6" in rules_of(res)


# =========================================================================== order form and sequence


@pytest.mark.parametrize("order, word", [
    ({"advance": -2}, "straight ahead"),
    ({"advance": "far"}, "number"),
    ({"advance": float("nan")}, "number"),
    ({"pivot_start": 400}, "pivot"),
    ({"march": 3}, "march"),
    ({"advance": 3, "to": [50, 53]}, "either"),
    ({"to": [50]}, "[x, y]"),
    ({"path": []}, "path"),
    ("advance 6", "mapping"),
])
def test_malformed_orders(order, word):
    res = move(OPEN, units(U("a", INFANTRY, 0, 0)), "a", order)
    assert not res.ok and word in res.problems[0].message


def test_unknown_unit():
    res = move(OPEN, units(U("a", INFANTRY, 0, 0)), "zz", {"advance": 1})
    assert not res.ok and "zz" in res.problems[0].message


def test_a_unit_moves_once_per_player_turn():
    res = move(OPEN, units(U("a", INFANTRY, 0, 0, moved=True)), "a", {"advance": 1})
    assert not res.ok and "A2" in rules_of(res)


def test_only_the_phasing_side_moves_a2():
    us = units(U("a", INFANTRY, 0, 0, side="blue"))
    assert move(OPEN, us, "a", {"advance": 1}, phasing="blue").ok
    res = move(OPEN, us, "a", {"advance": 1}, phasing="red")
    assert not res.ok and "A2" in rules_of(res)


def test_the_first_broken_rule_is_the_one_reported():
    # cavalry 13": the woods at 9.5" come before the allowance at 12"
    res = move(TERRAIN, units(U("c", CAVALRY, 15, 0)), "c", {"advance": 13})
    assert len(res.problems) == 1 and "Woods" in res.problems[0].rule
    # cavalry 13" in the open: the allowance at 12"
    res = move(OPEN, units(U("c", CAVALRY, 0, 0)), "c", {"advance": 13})
    assert len(res.problems) == 1 and "allowances" in res.problems[0].rule


def test_movement_step_applies_moves_in_order():
    us = units(U("A", INFANTRY, 0, 0), U("B", INFANTRY, 0, 4))
    # B moves away first, then A may advance where B was
    step = movement_step(OPEN, us, {"B": {"advance": 6}, "A": {"advance": 6}}, phasing="blue")
    assert step.ok and step.units["A"].y == pytest.approx(OY + 6) and step.units["A"].moved
    # the other way round A runs into B: the whole file is refused, nothing moves
    step = movement_step(OPEN, us, {"A": {"advance": 6}, "B": {"advance": 6}}, phasing="blue")
    assert not step.ok and step.units == us
    assert step.problems[0].path[0] == "A"


# =========================================================================== D7 range


def range_set(kind, edge, target_kind=INFANTRY):
    shooter = U("s", kind, 0, 0)
    target = U("t", target_kind, 0, edge + 0.5, side="red")
    return units(shooter, target)


@pytest.mark.parametrize("kind", [INFANTRY, ZOUAVES, CAVALRY])
@pytest.mark.parametrize("distance, ok", [(11.9, True), (12.0, True), (12.1, False), (12.0009, True), (12.002, False)])
def test_g01_g03_g06_twelve_inch_range(kind, distance, ok):
    shot = check_shot(OPEN, range_set(kind, 0.5 + distance), "s", "t")
    assert shot.range == pytest.approx(distance)
    assert shot.ok is ok and shot.max_range == 12
    if not ok:
        assert "A4 Range" in rules_of(shot) and "C7" in rules_of(shot)


@pytest.mark.parametrize("distance, ok", [(47.9, True), (48.0, True), (48.1, False)])
def test_g04_g05_artillery_range(distance, ok):
    shot = check_shot(Table(120, 120), range_set(ARTILLERY, 0.5 + distance), "s", "t")
    assert shot.range == pytest.approx(distance) and shot.ok is ok and shot.max_range == 48


def test_range_is_from_the_front_edge_to_the_nearest_part_in_the_arc():
    shot = check_shot(OPEN, range_set(INFANTRY, 8.5), "s", "t")
    assert shot.range == pytest.approx(8.0)  # front edge y = 0.5, target's near edge y = 8.5
    assert "8.0" in shot.why


# =========================================================================== D8 field of fire


def arc_target(px, py, facing=0.0):
    """The D8 Artillery target (2" x 1") with its upper-left corner at digest P, turned with the shooter."""
    cx, cy = px + 1, py - 0.5
    if facing == 0:
        return Unit("t", ARTILLERY, *P(cx, cy), facing=0, frontage=2, side="red")
    # the whole picture turned 90 degrees clockwise: (x, y) -> (y, -x)
    return Unit("t", ARTILLERY, *P(cy, -cx), facing=90, frontage=2, side="red")


@pytest.mark.parametrize("facing", [0.0, 90.0])
@pytest.mark.parametrize("p, degrees, ok", [((10, 7.749), 44, True), ((10, 7.5), 45, True), ((10, 7.26), 46, False)])
def test_f01_f03_arc_at_44_45_46_degrees(facing, p, degrees, ok):
    shooter = U("s", INFANTRY, 0, 0, facing=facing)
    target = arc_target(*p, facing=facing)
    shot = check_shot(OPEN, units(shooter, target), "s", "t")
    assert shot.in_arc is ok and shot.ok is ok
    if ok:
        # to the nearest part of the target inside the arc: on the 45-degree flare, 7 * sqrt(2) away
        assert shot.range == pytest.approx(7 * math.sqrt(2), abs=0.01)
    else:
        assert "A4 Field of fire" in rules_of(shot) and "C6" in rules_of(shot)


def test_f04_the_dead_zone_in_front_of_a_flank():
    us = units(U("s", INFANTRY, 0, 0), Unit("t", ARTILLERY, *P(3.5, 2.0), frontage=2, side="red"))
    assert check_shot(OPEN, us, "s", "t").ok
    alt = check_shot(OPEN, us, "s", "t", options=Options(fire_apex="centre"))
    assert not alt.ok and not alt.in_arc


def test_f05_behind_is_out_of_the_arc():
    us = units(U("s", INFANTRY, 0, 0), U("t", INFANTRY, 0, -10.5, side="red"))
    shot = check_shot(OPEN, us, "s", "t")
    assert not shot.ok and not shot.in_arc and not shot.all_round


def test_f06_a_unit_in_a_town_fires_all_round():
    town = Area("town", rect(-4, -2, 4, 2))
    us = units(U("s", INFANTRY, 0, 0), U("t", INFANTRY, 0, -10.5, side="red"))
    shot = check_shot(Table(120, 120, [town]), us, "s", "t")
    assert shot.ok and shot.all_round and shot.in_arc
    assert shot.range == pytest.approx(9.5)  # from any point of its base (C7)


def test_f06_a_base_only_touching_a_town_is_not_in_it_c5():
    town = Area("town", rect(-4, 0.2, 4, 4))  # overlaps the base, the centre is outside
    us = units(U("s", INFANTRY, 0, 0), U("t", INFANTRY, 0, -10.5, side="red"))
    assert not check_shot(Table(120, 120, [town]), us, "s", "t").ok


def test_f07_one_target_per_shooter_c15():
    us = units(U("s", INFANTRY, 0, 0), U("t", INFANTRY, 0, 6, side="red"), U("u", INFANTRY, 7, 6, side="red"))
    step = shooting_step(OPEN, us, [{"shooter": "s", "target": "t"}, {"shooter": "s", "target": "u"}],
                         {"s": 4}, phasing="blue")
    assert not step.ok and "C15" in " ".join(p.rule for p in step.problems)
    assert step.units == us


# =========================================================================== D5 moving and shooting


def test_s01_s02_a_unit_that_moved_may_not_shoot():
    us = units(U("s", INFANTRY, 0, 0, moved=True), U("t", INFANTRY, 0, 6, side="red"))
    shot = check_shot(OPEN, us, "s", "t")
    assert not shot.ok and "A3 Moving and Shooting" in rules_of(shot) and "C10" in rules_of(shot)


def test_s01_after_a_move_in_the_movement_step():
    us = units(U("s", INFANTRY, 0, 0), U("t", INFANTRY, 0, 8, side="red"))
    after = movement_step(OPEN, us, {"s": {"advance": 0.5}}, phasing="blue").units
    assert not check_shot(OPEN, after, "s", "t").ok
    after = movement_step(OPEN, us, {"s": {"pivot_start": 30}}, phasing="blue").units  # S02
    assert not check_shot(OPEN, after, "s", "t").ok
    after = movement_step(OPEN, us, {"s": {}}, phasing="blue").units  # S03
    assert check_shot(OPEN, after, "s", "t").ok


def test_s03_a_unit_that_stayed_may_shoot():
    assert check_shot(OPEN, units(U("s", INFANTRY, 0, 0), U("t", INFANTRY, 0, 6, side="red")), "s", "t").ok


def test_s04_only_the_phasing_side_shoots_c17():
    us = units(U("s", INFANTRY, 0, 0), U("t", INFANTRY, 0, 6, side="red"))
    assert check_shot(OPEN, us, "s", "t", phasing="blue").ok
    shot = check_shot(OPEN, us, "s", "t", phasing="red")
    assert not shot.ok and "C17" in rules_of(shot)


def test_a_target_is_an_enemy_unit():
    us = units(U("s", INFANTRY, 0, 0), U("t", INFANTRY, 0, 6))
    assert not check_shot(OPEN, us, "s", "t").ok
    assert not check_shot(OPEN, us, "s", "s").ok
    assert not check_shot(OPEN, us, "s", "nobody").ok


# =========================================================================== D1 hits


@pytest.mark.parametrize("hid, kind, die, where, expect", [
    ("H01", INFANTRY, 4, "open", 4), ("H02", INFANTRY, 1, "open", 1), ("H03", INFANTRY, 6, "open", 6),
    ("H04", ZOUAVES, 5, "open", 7), ("H05", ZOUAVES, 6, "open", 8), ("H06", ZOUAVES, 1, "open", 3),
    ("H07", CAVALRY, 6, "open", 4), ("H08", CAVALRY, 2, "open", 0), ("H09", CAVALRY, 1, "open", 0),
    ("H10", ARTILLERY, 1, "open", 0), ("H11", ARTILLERY, 3, "open", 1), ("H12", ARTILLERY, 6, "open", 4),
    ("H13", INFANTRY, 1, "woods", 1), ("H14", INFANTRY, 4, "town", 2), ("H15", INFANTRY, 5, "woods", 3),
    ("H16", ZOUAVES, 5, "woods", 4), ("H17", ZOUAVES, 6, "town", 4), ("H18", CAVALRY, 3, "woods", 1),
    ("H19", ARTILLERY, 2, "town", 0), ("H20", ARTILLERY, 5, "woods", 2),
])
def test_h01_h20_hits(hid, kind, die, where, expect):
    roll = hits(kind, where != "open", die)
    assert roll.ok and roll.hits == expect, hid
    assert roll.modifier == MODIFIER[kind] and roll.final == max(0, die + MODIFIER[kind])
    assert roll.why and "A4" in roll.rule


A6 = {  # type: (open 1..6, cover 1..6)
    INFANTRY: ([1, 2, 3, 4, 5, 6], [1, 1, 2, 2, 3, 3]),
    ZOUAVES: ([3, 4, 5, 6, 7, 8], [2, 2, 3, 3, 4, 4]),
    CAVALRY: ([0, 0, 1, 2, 3, 4], [0, 0, 1, 1, 2, 2]),
    ARTILLERY: ([0, 0, 1, 2, 3, 4], [0, 0, 1, 1, 2, 2]),
}


def test_h22_all_48_combinations_match_the_a6_table():
    for kind, (open_row, cover_row) in A6.items():
        assert [hits(kind, False, d).hits for d in range(1, 7)] == open_row
        assert [hits(kind, True, d).hits for d in range(1, 7)] == cover_row


def test_h21_c4_cover_halves_rounding_up():
    assert [cover_hits(n) for n in (0, 1, 2, 3, 4, 5, 6, 7, 8)] == [0, 1, 1, 2, 2, 3, 3, 4, 4]


def test_hits_take_a_unit_or_its_type():
    assert hits(U("z", ZOUAVES, 0, 0), False, 5).hits == 7


@pytest.mark.parametrize("die", [0, 7, 3.5, True, None])
def test_the_die_is_a_d6_c1(die):
    roll = hits(INFANTRY, False, die)
    assert not roll.ok and roll.hits == 0 and "C1" in roll.problems[0].rule


def test_d10_mean_hits_per_shot():
    means_open = {k: sum(hits(k, False, d).hits for d in range(1, 7)) / 6 for k in ALL}
    means_cover = {k: sum(hits(k, True, d).hits for d in range(1, 7)) / 6 for k in ALL}
    assert means_open == pytest.approx({INFANTRY: 3.5, ZOUAVES: 5.5, CAVALRY: 10 / 6, ARTILLERY: 10 / 6})
    assert means_cover == pytest.approx({INFANTRY: 2.0, ZOUAVES: 3.0, CAVALRY: 1.0, ARTILLERY: 1.0})


def test_a6_fewest_shots_to_eliminate():
    best = {(k, c): math.ceil(ELIMINATION_HITS / hits(k, c, 6).hits) for k in ALL for c in (False, True)}
    assert best == {(INFANTRY, False): 3, (INFANTRY, True): 5, (ZOUAVES, False): 2, (ZOUAVES, True): 4,
                    (CAVALRY, False): 4, (CAVALRY, True): 8, (ARTILLERY, False): 4, (ARTILLERY, True): 8}


def test_t11_t12_cover_by_half_the_base():
    shooter = U("s", INFANTRY, 15, 4)
    inside = U("t", INFANTRY, 15, 15, side="red")
    shot = check_shot(TERRAIN, units(shooter, inside), "s", "t")
    assert shot.ok and shot.target_in_cover
    assert hits(INFANTRY, shot.target_in_cover, 6).hits == 3  # T11
    edge = U("t", INFANTRY, 15, 9.8, side="red")  # base 30% in the woods, centre outside (C5: half needed)
    shot = check_shot(TERRAIN, units(shooter, edge), "s", "t")
    assert shot.ok and not shot.target_in_cover
    assert hits(INFANTRY, shot.target_in_cover, 6).hits == 6  # T12


def test_town_cover():
    shot = check_shot(TERRAIN, units(U("s", INFANTRY, -15, 4), U("t", INFANTRY, -15, 12, side="red")), "s", "t")
    assert shot.ok and shot.target_in_cover


# =========================================================================== D2 elimination


def test_e01_e05_fifteen_hits():
    assert not eliminated(U("a", INFANTRY, 0, 0, hits=14))  # E01
    assert eliminated(U("a", INFANTRY, 0, 0, hits=15))  # E05
    assert eliminated(U("a", INFANTRY, 0, 0, hits=17))
    assert apply_hits(U("a", INFANTRY, 0, 0, hits=12), 3).hits == 15
    with pytest.raises(ValueError):
        apply_hits(U("a", INFANTRY, 0, 0), -1)  # hits are never removed


def test_e01_fourteen_hits_stay_and_act_as_fresh():
    us = units(U("s", INFANTRY, 0, 0, hits=14), U("t", INFANTRY, 0, 6, side="red"))
    step = eliminating_step(us)
    assert step.removed == () and step.units == us
    assert move(OPEN, us, "s", {"pivot_start": 180, "advance": 6}).ok and check_shot(OPEN, us, "s", "t").ok


def test_e02_removed_in_this_player_turns_eliminating_step():
    us = units(U("s", INFANTRY, 0, 0), U("t", INFANTRY, 0, 6, side="red", hits=12))
    step = shooting_step(OPEN, us, {"s": "t"}, {"s": 3}, phasing="blue")
    assert step.ok and step.units["t"].hits == 15 and "t" in step.units  # still there after shooting
    gone = eliminating_step(step.units, phasing="blue")
    assert gone.removed == ("t",) and "t" not in gone.units and "A5" in gone.rule


def test_e03_two_shooters():
    us = units(U("s", INFANTRY, 0, 0), U("r", INFANTRY, 8, 0), U("t", INFANTRY, 4, 6, side="red", hits=10))
    step = shooting_step(OPEN, us, {"s": "t", "r": "t"}, {"s": 3, "r": 4}, phasing="blue")
    assert step.ok and step.units["t"].hits == 17
    assert [s.roll.hits for s in step.shots] == [3, 4]
    assert eliminating_step(step.units).removed == ("t",)


def test_e04_overkill_is_allowed_with_a_warning_c16():
    us = units(U("s", INFANTRY, 0, 0), U("t", INFANTRY, 0, 6, side="red", hits=15))
    shot = check_shot(OPEN, us, "s", "t")
    assert shot.ok and any("already" in w and "15" in w for w in shot.warnings)
    step = shooting_step(OPEN, us, {"s": "t"}, {"s": 2}, phasing="blue")
    assert step.ok and step.warnings and step.units["t"].hits == 17
    assert eliminating_step(step.units).removed == ("t",)


def test_shooting_step_needs_one_d6_per_shooter():
    us = units(U("s", INFANTRY, 0, 0), U("t", INFANTRY, 0, 6, side="red"))
    assert not shooting_step(OPEN, us, {"s": "t"}, {}, phasing="blue").ok
    assert not shooting_step(OPEN, us, {"s": "t"}, {"s": 9}, phasing="blue").ok


def test_shooting_step_applies_cover():
    us = units(U("s", ZOUAVES, 15, 4), U("t", INFANTRY, 15, 15, side="red"))
    step = shooting_step(TERRAIN, us, {"s": "t"}, {"s": 5}, phasing="blue")
    assert step.ok and step.units["t"].hits == 4  # H16: 7 halved, rounded up


# =========================================================================== D9 sequence, B1


def test_q01_two_player_turns_a_turn_same_order_each_turn():
    t1 = player_turns(1, ("A", "B"))
    assert [(p.turn, p.side, p.steps) for p in t1] == [(1, "A", STEPS), (1, "B", STEPS)]
    assert [p.side for p in player_turns(2, ("A", "B"))] == ["A", "B"]


def test_start_player_turn_clears_the_moved_flags_of_its_side():
    us = units(U("a", INFANTRY, 0, 0, moved=True), U("b", INFANTRY, 10, 0, moved=True, side="red"))
    after = start_player_turn(us, "blue")
    assert not after["a"].moved and after["b"].moved


def test_b1_first_player():
    assert first_player(scenario="A").side == "A"
    roll = first_player({"A": 5, "B": 3})
    assert roll.chooser == "A" and roll.ok
    tie = first_player({"A": 4, "B": 4})
    assert tie.chooser is None and tie.reroll
    assert not first_player({"A": 0, "B": 3}).ok


# =========================================================================== B4 line of sight


def test_b4_no_line_of_sight_rule():
    woods = Area("woods", rect(-3, 3, 3, 5))
    table = Table(120, 120, [woods])
    us = units(U("s", INFANTRY, 0, 0), U("x", INFANTRY, 0, 7, frontage=4), U("t", INFANTRY, 0, 10, side="red"))
    los = line_of_sight(table, us, "s", "t")
    assert not los.blocked and "B4" in los.rule
    assert check_shot(table, us, "s", "t").ok
    house = Options(line_of_sight=True)
    assert line_of_sight(table, us, "s", "t", options=house).blocked
    assert not check_shot(table, us, "s", "t", options=house).ok


# =========================================================================== set-up, maps


def test_check_setup():
    good = units(U("a", INFANTRY, 0, 0), U("b", CAVALRY, 0, 10))
    assert check_setup(TERRAIN, good) == []
    bad = units(U("a", INFANTRY, 0, 0), U("b", INFANTRY, 0, 0.5), U("c", CAVALRY, 15, 15),
                U("d", INFANTRY, 35, 5), Unit("e", INFANTRY, 1, 1, frontage=6), U("f", CAVALRY, -15, 15),
                U("g", INFANTRY, 10, 30.5))
    rules = " ".join(p.rule for p in check_setup(TERRAIN, bad))
    for r in ("A3 Interpenetration", "A3 Terrain: Woods", "A3 Terrain: Marshland and Lakes", "B6",
              "A3 Terrain: Towns", "A3 Terrain: Rivers"):
        assert r in rules


def test_terrain_rules_come_from_the_map_types():
    m = load_map("games/acw_minis/maps/sample-table.yaml")
    rules = terrain_rules(m)
    assert rules["woods"]["may_enter"] == [INFANTRY, ZOUAVES]
    assert rules["marsh"]["impassable"] and rules["lake"]["impassable"]
    assert terrain_rules(OPEN)["town"]["may_end_in"] == [INFANTRY, ZOUAVES]


def test_the_sample_table():
    m = load_map("games/acw_minis/maps/sample-table.yaml")
    cav = {"c": Unit("c", CAVALRY, 18, 5, frontage=4, side="blue")}
    res = check_move(m, cav, "c", {"advance": 15})  # Plank Road: 12 + 3
    assert res.ok and res.on_road, res.problems
    assert not check_move(m, cav, "c", {"advance": 15.1}).ok
    over = check_move(m, {"c": Unit("c", CAVALRY, 18, 18, frontage=4)}, "c", {"advance": 10})
    assert over.ok and over.crossings == ("bridge",)  # over Deep Run by the bridge
    oak = {"c": Unit("c", CAVALRY, 9, 5, frontage=4)}
    assert "A3 Terrain: Towns" in rules_of(check_move(m, oak, "c", {"advance": 6}))  # Oak Hill
    inf = {"i": Unit("i", INFANTRY, 9, 5, frontage=4)}
    assert check_move(m, inf, "i", {"advance": 6}).ok
    assert not check_move(m, inf, "i", {"advance": 9}).ok  # 9" is over 6": off the road


def test_a_table_written_as_yaml(tmp_path):
    (tmp_path / "t.yaml").write_text(textwrap.dedent("""\
        map: t
        kind: table
        table: {width: 24, height: 24}
        terrain:
          areas: {woods: {colour: "#6f9a52"}, lake: {colour: "#5b8fd0"}}
          rivers: {river: {colour: "#4a86c8"}}
          roads: {road: {colour: "#b89a6a"}}
          crossings: {ford: {colour: "#a9cdea"}}
        areas:
          - {terrain: woods, name: Copse, rect: [2, 14, 8, 20]}
          - {terrain: lake, name: Mill Pond, rect: [16, 14, 22, 20]}
        rivers:
          - {terrain: river, name: Run, width: 1, points: [[0, 10], [24, 10]],
             crossings: [{terrain: ford, at: [12, 10], width: 2}]}
        """))
    m = load_map(tmp_path / "t.yaml")
    us = {"c": Unit("c", CAVALRY, 5, 4, frontage=4), "z": Unit("z", ZOUAVES, 12, 4, frontage=4),
          "g": Unit("g", ARTILLERY, 19, 4, frontage=2), "k": Unit("k", CAVALRY, 5, 11.5, frontage=4)}
    assert "Rivers" in rules_of(check_move(m, us, "c", {"advance": 12}))  # the river comes before the copse
    assert "Rivers" in rules_of(check_move(m, us, "c", {"advance": 7}))
    assert "Woods" in rules_of(check_move(m, us, "k", {"advance": 3}))
    assert check_move(m, us, "z", {"advance": 9}).crossings == ("ford",)
    res = check_move(m, us, "g", {"pivot_start": -90, "advance": 3.5, "pivot_end": 90})
    assert res.ok and "Rivers" in rules_of(check_move(m, us, "g", {"advance": 6}))
    # 0.5" further west the end pivot swings its corners (1.12" out) into the Zouaves' flank (C12)
    close = check_move(m, us, "g", {"pivot_start": -90, "advance": 4, "pivot_end": 90})
    assert "A3 Interpenetration" in rules_of(close) and "end pivot" in close.problems[0].message
    west = check_move(m, us, "g", {"pivot_start": -90, "advance": 6})  # into the Zouaves at x 10-14
    assert "A3 Interpenetration" in rules_of(west) and west.at == pytest.approx(4.5, abs=0.01)
    assert "Mill Pond" in check_move(m, {"g": Unit("g", ARTILLERY, 19, 12, frontage=2)}, "g", {"advance": 3}).problems[0].message


def test_an_illegal_unit_record_is_refused_before_measuring():
    res = check_move(OPEN, {"a": Unit("a", INFANTRY, 50, 50, frontage=8)}, "a", {"advance": 1})
    assert not res.ok and "A1" in rules_of(res)
    us = {"s": Unit("s", "dragoons", 50, 50, frontage=5), "t": U("t", INFANTRY, 0, 6, side="red")}
    assert "A1" in rules_of(check_shot(OPEN, us, "s", "t"))
