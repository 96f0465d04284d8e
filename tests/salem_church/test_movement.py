"""Salem Church movement: the TEC step costs, ZOC, move checks, entry, the wagon train,
Union initiative, night, retreat paths (hxref/systems/salem_church/movement.py).

Every expected number is taken from the rules digest (rules/salem-church.md): 13.2/13.3
(entry), 16.0 (the wagon train), 17.1/17.2 (Union initiative), 18.0 (night), C (the TEC),
D2/E (the standard-rule summaries: ZOC of the 6 adjacent hexes, locking; unsafe retreat
paths), B6 (look-up examples).  The stand-ins the module names (stacking limit, disrupted
movement) are tested as stand-ins.  The map is the shipped stand-in map; the hexes used
are the named ones (2114, 0107, 0903, 1204, 1302, 0609) and road hexes next to them.

Map facts used below (games/salem_church/maps/salem-church.yaml):
  Plank Road  2114 2013 1913 1812 1712 1611 1511 1410 1310 1209 ... 0609 0509 0408 0308 0207 0107
  River Road  0903 1003 1103 1203 1204 1304 1404 ...;  Ford lane 1304 1303 1302
  1104 heavy woods (next to 1003 1103 1203 1204 1105 1004); 0608 light woods on a hill
  1511's neighbours 1510 1610 1611 1512 1411 1410; 1611's 1610 1711 1712 1612 1512 1511
"""
from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

import pytest

from hxref.geometry.mapmodel import MapLine
from hxref.geometry.paths import MoveGraph, MoveRules, Prohibited
from hxref.geometry.mapfile import load_map
from hxref.systems.salem_church import entry as en
from hxref.systems.salem_church import movement as mv
from hxref.systems.salem_church.path_walk import check_path
from hxref.systems.salem_church import retreat as rt
from hxref.systems.salem_church.counters import PathStatus
from hxref.base.yamlio import load_data, to_plain

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "games" / "salem_church"
MAP = GAME / "maps" / "salem-church.yaml"
SCENARIO = GAME / "scenarios" / "salem-church.yaml"


class Dice:
    """A scripted ``roll(purpose)``: hands out the faces in order and records every purpose."""

    def __init__(self, *faces: int):
        self.faces = list(faces)
        self.asked: list[str] = []

    def __call__(self, purpose: str) -> int:
        self.asked.append(purpose)
        assert self.faces, f"unexpected roll: {purpose}"
        return self.faces.pop(0)


@pytest.fixture(scope="module")
def m():
    return load_map(MAP)


@pytest.fixture(scope="module")
def sc():
    return to_plain(load_data(SCENARIO))


def make_state(sc, turn=3, initiative="full", **where):
    """A state with the scenario's units (all off the map) and ``uid=hex`` placements
    (ids with '-' written with '_': first_1="2114")."""
    units = {}
    for uid, u in sc["units"].items():
        units[uid] = {**copy.deepcopy(u), "hex": None, "disrupted": False}
    for key, label in where.items():
        units[key.replace("_", "-")]["hex"] = label
    return {"turn": turn, "initiative": initiative, "units": units}


def rules_of(problems):
    return [p.rule for p in problems]


# =====================================================================================
# the constants agree with the shipped scenario data (16.0, 17.1, 18.0)


def test_constants_match_the_scenario_file(sc):
    # 16.0 exits 0107/0903 for victory, 1204/1302 to escape, 1 MP
    exits = sc["wagon_train"]["exits"]
    assert {h for h, k in mv.WAGON_EXITS.items() if k == "victory"} == set(exits["victory"]) == {"0107", "0903"}
    assert {h for h, k in mv.WAGON_EXITS.items() if k == "escape"} == set(exits["escape"]) == {"1204", "1302"}
    assert mv.WAGON_EXIT_MP == sc["wagon_train"]["exit_cost_mp"] == 1
    # 17.1 from turn 7, 1-2 full, 3-6 low
    assert mv.INITIATIVE_FROM_TURN == sc["initiative"]["roll_from_turn"] == 7
    assert set(mv.INITIATIVE_FULL) == set(sc["initiative"]["results"]["full"]) == {1, 2}
    assert mv.INITIATIVE_NEAR_EZOC_DRM == sc["initiative"]["low"]["movement"]["check"]["modifier_adjacent_to_or_in_ezoc"] == -1
    # 18.0 turn 6
    assert set(mv.NIGHT_TURNS) == set(sc["night"]["turns"]) == {6}


def test_stacking_limit_is_a_named_stand_in():
    # D3: the stacking limit is in the missing standard rules; the module names its stand-in
    assert mv.STACK_LIMIT == 2
    assert "stand-in" in mv.__doc__ and "STACK_LIMIT" in mv.__doc__


# =====================================================================================
# TEC step costs


def test_tec_clear_costs_1(m):
    # TEC Clear: 1 MP to enter (2114 -> 2113, off the road)
    assert mv.step_cost(m, "infantry")(m.parse("2114"), m.parse("2113")) == 1


def test_tec_road_costs_1_along_the_road(m):
    # TEC Road: 1 MP along the road (2114 -> 2013 on the Plank Road)
    assert mv.step_cost(m, "artillery")(m.parse("2114"), m.parse("2013")) == 1


def test_tec_light_woods_costs_1_and_a_hill_adds_nothing(m):
    # TEC Light woods: 1 MP; TEC Hill: "same as clear/woods" (0608 light woods on a hill)
    assert mv.step_cost(m, "infantry")(m.parse("0609"), m.parse("0608")) == 1
    assert mv.step_cost(m, "infantry")(m.parse("0610"), m.parse("0609")) == 1   # 0609: hill, defensive position


def test_tec_costs_are_read_from_the_terrain_data_and_the_road_rate_replaces_them(m):
    # TEC (and 4.3 stand-in): the numbers come from terrain.yaml; along a road the road rate
    # replaces the hex's terrain.  Make light woods cost 3 and run a road into 0608.
    m2 = copy.deepcopy(m)
    lw = m2.types["hex"]["light_woods"]
    m2.types["hex"]["light_woods"] = replace(lw, move=3)
    m2.lines.append(MapLine("road", (m2.parse("0609"), m2.parse("0608")), "test lane"))
    m2.__post_init__()
    cost = mv.step_cost(m2, "infantry")
    assert cost(m2.parse("0609"), m2.parse("0608")) == 1          # along the road
    assert cost(m2.parse("0709"), m2.parse("0608")) == 3          # across country: the data's 3


def test_tec_heavy_woods_infantry_only(m):
    # TEC Heavy woods: infantry only (1104); the 1 MP is the terrain file's stand-in
    assert mv.step_cost(m, "infantry")(m.parse("1003"), m.parse("1104")) == 1
    for arm in ("artillery", "leader", "wagon_train"):
        c = mv.step_cost(m, arm, roads_only=False)(m.parse("1003"), m.parse("1104"))
        assert isinstance(c, Prohibited) and "infantry" in c.reason and "TEC" in c.reason


def test_tec_heavy_woods_stop_on_entry_read_from_data(m):
    # TEC Heavy woods: a unit must stop on entering
    assert "TEC" in mv.stop_on_entry(m, m.parse("1104"))
    assert mv.stop_on_entry(m, m.parse("1003")) is None


def test_off_the_map_is_prohibited(m):
    h = m.parse("0107")                                  # on the west edge
    off = [n for n in h.neighbours() if n not in m.grid]
    assert off
    c = mv.step_cost(m, "infantry")(h, off[0])
    assert isinstance(c, Prohibited) and "off the map" in c.reason


def test_step_cost_plugs_into_the_path_search(m):
    # hxref.geometry.paths: the train's roads (16.0) join 2114 to its exits; 2113 is off the road
    rules = MoveRules(mv.step_cost(m, "wagon_train"), stops=lambda h: mv.stop_on_entry(m, h))
    reach = MoveGraph(m.hexes(), rules).search(m.parse("2114"))
    assert all(reach.cost(m.parse(x)) is not None for x in mv.WAGON_EXITS)
    assert reach.cost(m.parse("2113")) is None
    # infantry stop in heavy woods 1104: reached, but nothing beyond through it
    inf = MoveGraph(m.hexes(), MoveRules(mv.step_cost(m, "infantry"), stops=lambda h: mv.stop_on_entry(m, h)))
    assert inf.search(m.parse("1003"), max_cost=1).cost(m.parse("1104")) == 1


def test_16_0_wagon_train_step_cost_roads_only(m):
    # 16.0 the train moves only along roads
    cost = mv.step_cost(m, "wagon_train")
    assert cost(m.parse("2114"), m.parse("2013")) == 1
    off = cost(m.parse("2114"), m.parse("2113"))
    assert isinstance(off, Prohibited) and "16.0" in off.reason


# =====================================================================================
# ZOC (D2/E stand-in: the 6 adjacent hexes; none into or out of heavy woods, TEC)


def test_zoc_is_the_six_adjacent_hexes(sc, m):
    st = make_state(sc, kershaw_m="1511")
    z = mv.zoc_hexes(st, m, "confederate")
    assert set(z) == {"1510", "1610", "1611", "1512", "1411", "1410"}
    assert z["1611"] == {"kershaw-m"}
    assert mv.zoc_hexes(st, m, "union") == {}


def test_zoc_leaders_and_the_wagon_train_exert_none(sc, m):
    # E stand-in: ZOC from combat units (leaders have CF 0; the train is never attacked, 16.0)
    st = make_state(sc, mclaws_m="1511", wagon_train="1913")
    assert mv.zoc_hexes(st, m, "confederate") == {}
    assert mv.zoc_hexes(st, m, "union") == {}


def test_tec_no_zoc_into_heavy_woods(sc, m):
    # TEC Heavy woods: no ZOC extends into it (Kershaw in 1003, next to heavy woods 1104)
    z = mv.zoc_hexes(make_state(sc, kershaw_m="1003"), m, "confederate")
    assert "1104" not in z and {"1103", "0903", "1004"} <= set(z)


def test_tec_no_zoc_out_of_heavy_woods(sc, m):
    # TEC Heavy woods: no ZOC extends out of it
    assert mv.zoc_hexes(make_state(sc, kershaw_m="1104"), m, "confederate") == {}


# =====================================================================================
# check_path: MP, ZOC, heavy woods, enemy-occupied hexes, stacking


def test_mp_allowance_legal_path_spends_5(sc, m):
    # MP: infantry 5 MP (stand-in counter value), 5 road hexes at 1 MP (TEC Road)
    st = make_state(sc, first_1="2114")
    mc = check_path(st, m, "first-1", ["2013", "1913", "1812", "1712", "1611"])
    assert mc.legal and mc.problems == []
    assert mc.spent == 5 and mc.mp == 5 and mc.end == "1611"
    assert "end of the ordered path" in mc.stopped
    assert "1611" in mc.why


def test_mp_allowance_exceeded_is_illegal(sc, m):
    st = make_state(sc, first_1="2114")
    mc = check_path(st, m, "first-1", ["2013", "1913", "1812", "1712", "1611", "1511"])
    assert not mc.legal
    assert mc.problems[0].path == ["path", 5] and "MP" in mc.problems[0].message


def test_path_must_go_hex_by_hex(sc, m):
    st = make_state(sc, first_1="2114")
    mc = check_path(st, m, "first-1", ["1913"])
    assert not mc.legal and "adjacent" in mc.problems[0].message
    mc = check_path(st, m, "first-1", ["2114", "2013"])
    assert not mc.legal and "start hex" in mc.problems[0].message
    assert not check_path(st, m, "first-1", ["9999"]).legal


def test_d2_stop_on_entering_enemy_zoc(sc, m):
    # D2: enemy ZOCs are locking -- a unit entering one stops there (Kershaw in 1511, ZOC 1611)
    st = make_state(sc, first_1="1913", kershaw_m="1511")
    mc = check_path(st, m, "first-1", ["1812", "1712", "1611"])
    assert mc.legal and mc.end == "1611" and mc.entered_ezoc
    assert mc.rule == "D2" and "ZOC" in mc.stopped


def test_d2_cannot_go_on_after_entering_enemy_zoc(sc, m):
    st = make_state(sc, first_1="1913", kershaw_m="1511")
    mc = check_path(st, m, "first-1", ["1812", "1712", "1611", "1610"])
    assert not mc.legal
    assert rules_of(mc.problems) == ["D2"] and mc.problems[0].path == ["path", 3]


def test_d2_a_unit_starting_in_enemy_zoc_may_leave(sc, m):
    # D2 reading: 18.0 lets a unit adjacent to the enemy leave its hex, so leaving an EZOC is allowed
    st = make_state(sc, first_1="1611", kershaw_m="1511")
    mc = check_path(st, m, "first-1", ["1712", "1812", "1913"])
    assert mc.legal and mc.end == "1913" and not mc.entered_ezoc


def test_no_entering_an_enemy_occupied_hex(sc, m):
    st = make_state(sc, first_1="1611", kershaw_m="1511")
    mc = check_path(st, m, "first-1", ["1511"])
    assert not mc.legal and "enemy" in mc.problems[0].message


def test_tec_heavy_woods_infantry_enters_and_stops(sc, m):
    # TEC Heavy woods: infantry may enter 1104 and must stop there
    st = make_state(sc, first_1="1003")
    mc = check_path(st, m, "first-1", ["1104"])
    assert mc.legal and mc.end == "1104" and mc.rule == "TEC" and "stop" in mc.stopped


def test_tec_heavy_woods_cannot_go_on_after_entering(sc, m):
    st = make_state(sc, first_1="1003")
    mc = check_path(st, m, "first-1", ["1104", "1204"])
    assert not mc.legal and rules_of(mc.problems) == ["TEC"]


def test_tec_heavy_woods_closed_to_artillery_and_leaders(sc, m):
    st = make_state(sc, art_1="1003", brooks_1="1003")
    for uid in ("art-1", "brooks-1"):
        mc = check_path(st, m, uid, ["1104"])
        assert not mc.legal and rules_of(mc.problems) == ["TEC"] and "infantry" in mc.problems[0].message


def test_tec_enemy_in_heavy_woods_exerts_no_zoc_so_no_stop(sc, m):
    # TEC: no ZOC out of heavy woods -- Kershaw in 1104 does not stop a Union unit passing 1204
    st = make_state(sc, first_1="1203", kershaw_m="1104")
    mc = check_path(st, m, "first-1", ["1204", "1304", "1404"])
    assert mc.legal and mc.end == "1404" and not mc.entered_ezoc


def test_stacking_within_the_stand_in_limit(sc, m):
    # D3 stand-in STACK_LIMIT = 2 combat units a hex, leaders free
    st = make_state(sc, first_1="1913", third_1="2114", brooks_1="2114")
    assert check_path(st, m, "third-1", ["2013", "1913"]).legal
    st = make_state(sc, first_1="1913", second_1="1913", brooks_1="2114")
    assert check_path(st, m, "brooks-1", ["2013", "1913"]).legal


def test_stacking_over_the_stand_in_limit_is_illegal_at_the_end_only(sc, m):
    st = make_state(sc, first_1="1913", second_1="1913", third_1="2114")
    mc = check_path(st, m, "third-1", ["2013", "1913"])
    assert not mc.legal and "stack" in mc.problems[0].message
    # passing through an over-full hex is allowed
    assert check_path(st, m, "third-1", ["2013", "1913", "1812"]).legal


def test_an_empty_path_stays_put(sc, m):
    st = make_state(sc, first_1="2114")
    mc = check_path(st, m, "first-1", [])
    assert mc.legal and mc.end == "2114" and mc.spent == 0


# =====================================================================================
# 18.0 night


def test_18_0_is_night():
    assert mv.is_night(6) and not mv.is_night(5) and not mv.is_night(7)


def test_18_0_day_turn_may_move_adjacent(sc, m):
    st = make_state(sc, turn=5, first_1="1812", kershaw_m="1511")
    assert check_path(st, m, "first-1", ["1712", "1611"]).legal


def test_18_0_night_no_moving_adjacent_to_an_enemy_unit(sc, m):
    # 18.0: turn 6, units may not move adjacent to an enemy unit (1611 is next to Kershaw in 1511)
    st = make_state(sc, turn=6, first_1="1812", kershaw_m="1511")
    mc = check_path(st, m, "first-1", ["1712", "1611"])
    assert not mc.legal and rules_of(mc.problems) == ["18.0"] and mc.problems[0].path == ["path", 1]
    # an enemy leader is an enemy unit too
    st = make_state(sc, turn=6, first_1="1812", mclaws_m="1511")
    assert rules_of(check_path(st, m, "first-1", ["1712", "1611"]).problems) == ["18.0"]


def test_18_0_night_a_unit_already_adjacent_may_leave(sc, m):
    # 18.0: a unit already adjacent may stay, and may leave its hex
    st = make_state(sc, turn=6, first_1="1611", kershaw_m="1511")
    assert check_path(st, m, "first-1", []).legal
    assert check_path(st, m, "first-1", ["1712", "1812"]).legal


def test_18_0_night_not_from_one_adjacent_hex_to_another(sc, m):
    # 18.0 literal reading (digest ambiguity): 1611 -> 1610 ends next to the enemy again
    st = make_state(sc, turn=6, first_1="1611", kershaw_m="1511")
    assert rules_of(check_path(st, m, "first-1", ["1610"]).problems) == ["18.0"]


# =====================================================================================
# 16.0 the wagon train


def test_16_0_wagon_train_moves_along_roads(sc, m):
    st = make_state(sc, wagon_train="2114")
    mc = check_path(st, m, "wagon-train", ["2013", "1913", "1812", "1712"])
    assert mc.legal and mc.spent == 4


def test_16_0_wagon_train_roads_only(sc, m):
    # 16.0 wagon train roads only
    st = make_state(sc, wagon_train="2114")
    mc = check_path(st, m, "wagon-train", ["2113"])
    assert not mc.legal and rules_of(mc.problems) == ["16.0"]


def test_16_0_wagon_train_never_adjacent_to_a_confederate_unit(sc, m):
    # 16.0: may not move adjacent to a Confederate unit (1611 is next to Kershaw in 1511)
    st = make_state(sc, wagon_train="1812", kershaw_m="1511")
    mc = check_path(st, m, "wagon-train", ["1712", "1611"])
    assert not mc.legal and rules_of(mc.problems) == ["16.0"] and mc.problems[0].path == ["path", 1]
    # ... a Confederate leader is a Confederate unit too
    st = make_state(sc, wagon_train="1812", mclaws_m="1511")
    assert rules_of(check_path(st, m, "wagon-train", ["1712", "1611"]).problems) == ["16.0"]


def test_16_0_wagon_train_may_leave_a_hex_next_to_the_enemy(sc, m):
    # 16.0 reading (digest): it may leave, if no hex it enters is adjacent to a Confederate unit
    st = make_state(sc, wagon_train="1611", kershaw_m="1511")
    assert check_path(st, m, "wagon-train", ["1712", "1812"]).legal


def test_16_0_wagon_train_enters_only_at_a_road_hex(sc, m):
    # 16.0 roads only, from the entry hex on (2114 is on the Plank Road; 2113 is on no road)
    st = make_state(sc, turn=4)
    assert check_path(st, m, "wagon-train", ["2114", "2013"]).legal
    assert rules_of(check_path(st, m, "wagon-train", ["2113"]).problems) == ["16.0"]


def test_16_0_wagon_train_does_not_stack_or_pass_through_units(sc, m):
    # 16.0: no stacking with the train -- the train may not enter (or pass) a hex holding a unit
    st = make_state(sc, wagon_train="2114", first_1="2013")
    assert rules_of(check_path(st, m, "wagon-train", ["2013"]).problems) == ["16.0"]
    assert rules_of(check_path(st, m, "wagon-train", ["2013", "1913"]).problems) == ["16.0"]


def test_16_0_no_union_unit_enters_or_passes_the_trains_hex(sc, m):
    # 16.0: no Union unit may enter the train's hex or stack with it
    st = make_state(sc, wagon_train="1913", first_1="2114", brooks_1="2114")
    for uid in ("first-1", "brooks-1"):
        assert rules_of(check_path(st, m, uid, ["2013", "1913"]).problems) == ["16.0"]
        assert rules_of(check_path(st, m, uid, ["2013", "1913", "1812"]).problems) == ["16.0"]
    assert check_path(st, m, "first-1", ["2013", "2012"]).legal


@pytest.mark.parametrize("exit_hex,kind", [("0903", "victory"), ("0107", "victory"),
                                           ("1302", "escape"), ("1204", "escape")])
def test_16_0_wagon_train_exits_paying_1_mp(sc, m, exit_hex, kind):
    # 16.0: leaving the map from 0107/0903 (for victory) or 1204/1302 (escape) costs 1 MP there
    st = make_state(sc, wagon_train=exit_hex)
    mc = check_path(st, m, "wagon-train", [mv.EXIT])
    assert mc.legal and mc.exit == kind and mc.spent == 1 and mc.end is None
    assert "16.0" in mc.rule


def test_16_0_wagon_train_moves_then_exits(sc, m):
    # B6: in 0903 with 1 MP left -> may exit (for 14.1)
    st = make_state(sc, wagon_train="1103")
    mc = check_path(st, m, "wagon-train", ["1003", "0903", mv.EXIT])
    assert mc.legal and mc.exit == "victory" and mc.spent == 3
    assert mc.hexes == ["1003", "0903"]


def test_16_0_wagon_train_exit_needs_1_mp_left(sc, m):
    # the train has 4 MP (stand-in counter value)
    st = make_state(sc, wagon_train="1404")
    mc = check_path(st, m, "wagon-train", ["1304", "1303", "1302", mv.EXIT])
    assert mc.legal and mc.spent == 4 and mc.exit == "escape"
    st = make_state(sc, wagon_train="1504")
    mc = check_path(st, m, "wagon-train", ["1404", "1304", "1303", "1302", mv.EXIT])
    assert not mc.legal and "MP" in mc.problems[0].message and mc.problems[0].path == ["path", 4]


def test_16_0_wagon_train_exits_only_at_its_four_hexes(sc, m):
    st = make_state(sc, wagon_train="1209", first_1="0903")
    assert rules_of(check_path(st, m, "wagon-train", [mv.EXIT]).problems) == ["16.0"]
    # ... and only the train leaves the map (stand-in: no exit rule for other units)
    assert not check_path(st, m, "first-1", [mv.EXIT]).legal
    # ... and the exit ends the move
    st = make_state(sc, wagon_train="0903")
    assert rules_of(check_path(st, m, "wagon-train", [mv.EXIT, "1003"]).problems) == ["16.0"]


def test_16_0_confederate_unit_entering_the_trains_hex_captures_it(sc, m):
    # 16.0: if a Confederate unit enters the train's hex, the train is captured
    st = make_state(sc, kershaw_m="1812", wagon_train="1913")
    mc = check_path(st, m, "kershaw-m", ["1913"])
    assert mc.legal and mc.captures == "wagon-train"
    st["units"]["kershaw-m"]["hex"] = "1913"
    cap = mv.wagon_capture(st, m)
    assert cap.captured and cap.by == "kershaw-m" and cap.hex == "1913" and cap.rule == "16.0"


def test_16_0_capture_passing_through(sc, m):
    # 16.0: entering is enough, the unit may go on (nothing says it stops)
    st = make_state(sc, kershaw_m="1812", wagon_train="1913")
    mc = check_path(st, m, "kershaw-m", ["1913", "2013"])
    assert mc.legal and mc.captures == "wagon-train" and mc.end == "2013"
    st["units"]["kershaw-m"]["hex"] = "2013"
    assert not mv.wagon_capture(st, m).captured
    cap = mv.wagon_capture(st, m, moves=[mc])
    assert cap.captured and cap.by == "kershaw-m"


def test_16_0_no_capture(sc, m):
    st = make_state(sc, kershaw_m="1812", wagon_train="1913")
    cap = mv.wagon_capture(st, m)
    assert not cap.captured and cap.problems == []
    # reading: only a Confederate combat unit captures; a leader cannot enter the train's hex
    st = make_state(sc, mclaws_m="1812", wagon_train="1913")
    assert not check_path(st, m, "mclaws-m", ["1913"]).legal


# =====================================================================================
# 17.1 Union initiative


def test_17_1_no_roll_before_turn_7():
    r = mv.union_initiative(6)
    assert r.state == "full" and r.die is None and r.problems == []


@pytest.mark.parametrize("die,state", [(1, "full"), (2, "full"), (3, "low"), (4, "low"), (5, "low"), (6, "low")])
def test_17_1_roll_from_turn_7(die, state):
    # 17.1: 1-2 Full Initiative, 3-6 Low (B6: T7 roll 2 -> Full, roll 3 -> Low)
    r = mv.union_initiative(7, die)
    assert r.state == state and r.rule == "17.1" and str(die) in r.why


def test_17_1_roll_needed_from_turn_7_and_not_before():
    assert rules_of(mv.union_initiative(7).problems) == ["17.1"]
    assert rules_of(mv.union_initiative(3, 2).problems) == ["17.1"]
    assert rules_of(mv.union_initiative(9, 7).problems) == ["17.1"]


# =====================================================================================
# 17.2 Low Initiative: entering enemy ZOC needs a leader's initiative check


def test_17_2_initiative_check_numbers():
    # B6: leader morale 4: roll 5 fails; 5 - 1 (adjacent to or in EZOC) = 4 passes; roll 4 passes
    ldr = {"morale": 4}
    assert not mv.initiative_check("brooks-1", ldr, 5, near_ezoc=False).passed
    c = mv.initiative_check("brooks-1", ldr, 5, near_ezoc=True)
    assert c.passed and c.modified == 4 and c.rule == "17.2"
    assert mv.initiative_check("brooks-1", ldr, 4, near_ezoc=False).passed
    assert not mv.initiative_check("brooks-1", ldr, 6, near_ezoc=True).passed


def test_17_2_full_initiative_enters_ezoc_without_a_check(sc, m):
    st = make_state(sc, turn=8, initiative="full", first_1="1812", kershaw_m="1511")
    dice = Dice()
    assert check_path(st, m, "first-1", ["1712", "1611"], roll=dice).legal
    assert dice.asked == []


def test_17_2_low_initiative_no_leader_no_entering_ezoc(sc, m):
    # 17.2: a stack without a leader can never enter an EZOC at Low Initiative
    st = make_state(sc, turn=8, initiative="low", first_1="1812", kershaw_m="1511")
    mc = check_path(st, m, "first-1", ["1712", "1611"], roll=Dice())
    assert not mc.legal and rules_of(mc.problems) == ["17.2"]
    # moving without entering the EZOC is fine
    assert check_path(st, m, "first-1", ["1712"]).legal


def test_17_2_low_initiative_leader_must_be_stacked(sc, m):
    st = make_state(sc, turn=8, initiative="low", first_1="1812", brooks_1="2114", kershaw_m="1511")
    mc = check_path(st, m, "first-1", ["1712", "1611"], leader="brooks-1", roll=Dice(1))
    assert not mc.legal and rules_of(mc.problems) == ["17.2"]


def test_17_2_check_fails_die_over_morale_stops_before_the_ezoc(sc, m):
    # 17.2: die 5 > morale 4, the stack 1812 is neither in nor next to an EZOC: fails;
    # the unit stops in the hex before the EZOC
    st = make_state(sc, turn=8, initiative="low", first_1="1812", brooks_1="1812", kershaw_m="1511")
    dice = Dice(5)
    mc = check_path(st, m, "first-1", ["1712", "1611"], leader="brooks-1", roll=dice)
    assert mc.legal and mc.end == "1712" and mc.rule == "17.2" and "failed" in mc.stopped
    assert mc.initiative.die == 5 and not mc.initiative.passed and not mc.initiative.near_ezoc
    assert dice.asked and "17.2" in dice.asked[0] and "brooks-1" in dice.asked[0]


def test_17_2_check_passes_die_not_over_morale(sc, m):
    st = make_state(sc, turn=8, initiative="low", first_1="1812", brooks_1="1812", kershaw_m="1511")
    mc = check_path(st, m, "first-1", ["1712", "1611"], leader="brooks-1", roll=Dice(4))
    assert mc.legal and mc.end == "1611" and mc.initiative.passed and mc.entered_ezoc


def test_17_2_minus_1_when_the_stack_is_next_to_an_ezoc(sc, m):
    # 17.2: -1 when adjacent to or in an EZOC (1712 touches 1611, in Kershaw's ZOC): 5 - 1 = 4 passes
    st = make_state(sc, turn=8, initiative="low", first_1="1712", brooks_1="1712", kershaw_m="1511")
    mc = check_path(st, m, "first-1", ["1611"], leader="brooks-1", roll=Dice(5))
    assert mc.legal and mc.end == "1611" and mc.initiative.near_ezoc and mc.initiative.modified == 4
    # 6 - 1 = 5 > 4 still fails
    mc = check_path(st, m, "first-1", ["1611"], leader="brooks-1", roll=Dice(6))
    assert mc.legal and mc.end == "1712" and not mc.initiative.passed


def test_17_2_the_leader_checks_for_himself(sc, m):
    st = make_state(sc, turn=8, initiative="low", brooks_1="1812", kershaw_m="1511")
    mc = check_path(st, m, "brooks-1", ["1712", "1611"], roll=Dice(3))
    assert mc.legal and mc.end == "1611" and mc.initiative.leader == "brooks-1"


def test_17_2_one_check_per_leader_per_phase(sc, m):
    # 17.2 reading (G7): one roll per leader stack per movement phase -- a stored result is reused
    st = make_state(sc, turn=8, initiative="low", first_1="1812", brooks_1="1812", kershaw_m="1511")
    st["initiative_checks"] = {"brooks-1": {"passed": False}}
    mc = check_path(st, m, "first-1", ["1712", "1611"], leader="brooks-1", roll=Dice())
    assert mc.legal and mc.end == "1712"
    st["initiative_checks"] = {"brooks-1": {"passed": True}}
    assert check_path(st, m, "first-1", ["1712", "1611"], leader="brooks-1", roll=Dice()).end == "1611"


def test_17_2_without_dice_the_check_is_pending(sc, m):
    # an order checked before the dice: legal so far, the roll is named as pending
    st = make_state(sc, turn=8, initiative="low", first_1="1812", brooks_1="1812", kershaw_m="1511")
    mc = check_path(st, m, "first-1", ["1712", "1611"], leader="brooks-1")
    assert mc.legal and mc.pending and "17.2" in mc.pending[0]


def test_17_2_confederates_are_never_at_low_initiative(sc, m):
    st = make_state(sc, turn=8, initiative="low", kershaw_m="1812", first_1="1511")
    assert check_path(st, m, "kershaw-m", ["1712", "1611"], roll=Dice()).legal


def test_17_1_before_turn_7_the_union_is_at_full_initiative(sc, m):
    # 17.1 (derived): no roll on T1-T6, so Full Initiative whatever the state says
    st = make_state(sc, turn=5, initiative="low", first_1="1812", kershaw_m="1511")
    assert check_path(st, m, "first-1", ["1712", "1611"], roll=Dice()).legal


# =====================================================================================
# disrupted units (stand-in: the disruption rule is missing, D3)


def test_disrupted_movement_stand_in_default_moves_normally(sc, m):
    st = make_state(sc, first_1="1913", kershaw_m="1511")
    st["units"]["first-1"]["disrupted"] = True
    assert mv.DISRUPTED_MOVEMENT in mv.DISRUPTED_MOVE_READINGS
    a = mv.movement_allowance(st["units"]["first-1"])
    assert a.mp == 5 and "stand-in" in a.why
    assert check_path(st, m, "first-1", ["1812", "1712", "1611"]).legal


def test_disrupted_movement_reading_no_ezoc(sc, m):
    st = make_state(sc, first_1="1913", kershaw_m="1511")
    st["units"]["first-1"]["disrupted"] = True
    mc = check_path(st, m, "first-1", ["1812", "1712", "1611"], disrupted="no_ezoc")
    assert not mc.legal and "disrupted" in mc.problems[0].message
    with pytest.raises(ValueError):
        check_path(st, m, "first-1", [], disrupted="sideways")


# =====================================================================================
# 13.2 / 13.3 entry of reinforcements and returning units


def test_13_2_union_t1_enters_at_2114(sc):
    st = make_state(sc, turn=1)
    entries = {u: "2114" for u in ("brooks-1", "first-1", "second-1", "art-1")}
    assert en.entry_problems(st, sc, "union", 1, entries) == []


def test_13_2_every_unit_due_must_enter(sc):
    st = make_state(sc, turn=1)
    entries = {u: "2114" for u in ("brooks-1", "first-1", "second-1")}
    probs = en.entry_problems(st, sc, "union", 1, entries)
    assert rules_of(probs) == ["13.2"] and "art-1" in probs[0].message


def test_13_3_units_enter_on_their_turn_only(sc):
    # 13.3: Mahone/A arrives T3
    st = make_state(sc, turn=2)
    entries = {u: "0107" for u in ("mclaws-m", "kershaw-m", "semmes-m", "wofford-m", "mahone-a")}
    probs = en.entry_problems(st, sc, "confederate", 2, entries)
    assert rules_of(probs) == ["13.3"] and "mahone-a" in probs[0].message and "3" in probs[0].message


def test_13_3_entry_hex_must_be_one_of_the_groups(sc):
    # 13.3: Formation M (T2) enters at 0107 only
    st = make_state(sc, turn=2)
    entries = {u: "0107" for u in ("mclaws-m", "semmes-m", "wofford-m")} | {"kershaw-m": "0903"}
    probs = en.entry_problems(st, sc, "confederate", 2, entries)
    assert "13.3" in rules_of(probs) and any("0903" in p.message for p in probs)


def test_13_3_all_units_of_a_turn_by_one_chosen_hex(sc):
    # 13.3: Formation A (T5) at 0107 or 0903 -- the player's choice, one hex for all
    st = make_state(sc, turn=5)
    group = ("anderson-a", "perry-a", "posey-a", "wright-a", "garnett-a")
    assert en.entry_problems(st, sc, "confederate", 5, {u: "0903" for u in group}) == []
    assert en.entry_problems(st, sc, "confederate", 5, {u: "0107" for u in group}) == []
    split = {u: "0903" for u in group} | {"anderson-a": "0107"}
    probs = en.entry_problems(st, sc, "confederate", 5, split)
    assert rules_of(probs) == ["13.3"] and "same" in probs[0].message


def test_13_3_formation_e_t7_may_use_2114(sc):
    st = make_state(sc, turn=7)
    group = ("early-e", "gordon-e", "hays-e", "hoke-e", "andrews-e")
    assert en.entry_problems(st, sc, "confederate", 7, {u: "2114" for u in group}) == []
    assert rules_of(en.entry_problems(st, sc, "confederate", 7, {u: "0107" for u in group})) == ["13.3"] * 5


def test_13_x_wrong_side_and_units_already_on_the_map(sc):
    st = make_state(sc, turn=1, first_1="2114")
    probs = en.entry_problems(st, sc, "union", 1, {"brooks-1": "2114", "first-1": "2114", "second-1": "2114",
                                                   "art-1": "2114", "kershaw-m": "2114"})
    msgs = " ".join(p.message for p in probs)
    assert "first-1" in msgs and "kershaw-m" in msgs and len(probs) == 2


def test_13_3_returning_units_at_their_formations_hexes(sc):
    # 13.3: returning Confederate units enter at any entry hex their formation may use (E: 0213 1013 2114)
    st = make_state(sc, turn=9)
    st["units"]["gordon-e"]["returning"] = True
    assert en.entry_problems(st, sc, "confederate", 9, {"gordon-e": "1013"}) == []
    assert rules_of(en.entry_problems(st, sc, "confederate", 9, {"gordon-e": "0107"})) == ["13.3"]


def test_13_2_returning_union_units_at_any_us_entry_hex(sc):
    st = make_state(sc, turn=9)
    st["units"]["first-3"]["returning"] = True
    assert en.entry_problems(st, sc, "union", 9, {"first-3": "2114"}) == []
    assert rules_of(en.entry_problems(st, sc, "union", 9, {"first-3": "0107"})) == ["13.2"]


def test_13_x_entering_units_pay_mp_from_the_entry_hex(sc, m):
    # reading: the entry hex costs its terrain (2114 clear: 1 MP), then the road: 5 hexes = 5 MP
    st = make_state(sc, turn=1)
    mc = check_path(st, m, "first-1", ["2114", "2013", "1913", "1812", "1712"])
    assert mc.legal and mc.spent == 5 and mc.hexes[0] == "2114"
    mc = check_path(st, m, "first-1", ["2114", "2013", "1913", "1812", "1712", "1611"])
    assert not mc.legal and "MP" in mc.problems[0].message


def test_13_x_entry_paths_checked_with_the_map(sc, m):
    st = make_state(sc, turn=1)
    ok = {"brooks-1": ["2114", "2013"], "first-1": ["2114", "2013", "1913"], "second-1": ["2114", "2113"],
          "art-1": ["2114"]}
    assert en.entry_problems(st, sc, "union", 1, ok, hexmap=m) == []
    too_far = dict(ok, **{"first-1": ["2114", "2013", "1913", "1812", "1712", "1611"]})
    probs = en.entry_problems(st, sc, "union", 1, too_far, hexmap=m)
    assert len(probs) == 1 and probs[0].path[:2] == ["entries", "first-1"] and "MP" in probs[0].message
    # the entry hex must be the first hex of the path
    bad = dict(ok, **{"first-1": ["2013", "1913"]})
    assert rules_of(en.entry_problems(st, sc, "union", 1, bad, hexmap=m)) == ["13.2"]


def test_13_x_entries_stack_one_after_another(sc, m):
    # D3 stand-in stacking: three combat units may not all stop in the entry hex
    st = make_state(sc, turn=1)
    entries = {"brooks-1": ["2114"], "first-1": ["2114"], "second-1": ["2114"], "art-1": ["2114"]}
    probs = en.entry_problems(st, sc, "union", 1, entries, hexmap=m)
    assert len(probs) == 1 and "stack" in probs[0].message and probs[0].path[:2] == ["entries", "art-1"]


def test_13_x_no_entry_into_an_enemy_occupied_hex(sc, m):
    st = make_state(sc, turn=9, gordon_e="2114")
    st["units"]["first-3"]["returning"] = True
    probs = en.entry_problems(st, sc, "union", 9, {"first-3": ["2114"]}, hexmap=m)
    assert probs and "enemy" in probs[0].message


def test_18_0_no_entry_adjacent_to_the_enemy_at_night(sc, m):
    # 18.0 reading: at night reinforcements may not enter adjacent to an enemy unit either
    st = make_state(sc, turn=6, gordon_e="2013")
    st["units"]["first-3"]["returning"] = True
    assert rules_of(en.entry_problems(st, sc, "union", 6, {"first-3": ["2114"]}, hexmap=m)) == ["18.0"]
    st["turn"] = 8                       # a day turn with no Union arrivals due
    assert en.entry_problems(st, sc, "union", 8, {"first-3": ["2114"]}, hexmap=m) == []


def test_16_0_wagon_train_enters_by_road_at_2114(sc, m):
    st = make_state(sc, turn=4)
    entries = {"third-1": ["2114", "2013", "1913"], "guard-6": ["2114", "2113"],
               "wagon-train": ["2114", "2013", "1913", "1812"]}
    probs = en.entry_problems(st, sc, "union", 4, entries, hexmap=m)
    assert rules_of(probs) == ["16.0"]                     # the train would pass Third/1 in 1913
    entries["wagon-train"] = ["2114", "2013"]
    entries["third-1"] = ["2114", "2013", "1913", "1812"]
    assert en.entry_problems(st, sc, "union", 4, entries, hexmap=m) == []


# =====================================================================================
# retreat paths (CRT key; E stand-in "unsafe path"; 16.0 "even when retreating")


def test_crt_key_safe_retreat(sc, m):
    # Kershaw in 1511, attacked from 1611: 1410 and 1310 are out of Union ZOC and not next to a Union unit
    st = make_state(sc, kershaw_m="1511", first_1="1611")
    r = rt.check_retreat(st, m, "kershaw-m", ["1410", "1310"])
    assert r.problems == [] and r.status is PathStatus.SAFE


def test_e_unsafe_retreat_through_enemy_zoc(sc, m):
    # E stand-in: an unsafe path goes through an EZOC or next to an enemy unit (1512 is next to 1611)
    st = make_state(sc, kershaw_m="1511", first_1="1611")
    r = rt.check_retreat(st, m, "kershaw-m", ["1512", "1412"])
    assert r.problems == [] and r.status is PathStatus.UNSAFE and "1512" in r.why


def test_crt_key_retreat_is_1_to_3_hexes(sc, m):
    st = make_state(sc, kershaw_m="1511", first_1="1611")
    assert rt.check_retreat(st, m, "kershaw-m", ["1410", "1310", "1209", "1109"]).problems
    assert rt.check_retreat(st, m, "kershaw-m", []).problems


def test_retreat_cannot_enter_enemy_units_or_forbidden_terrain(sc, m):
    st = make_state(sc, kershaw_m="1511", first_1="1611", second_1="1410")
    assert rt.check_retreat(st, m, "kershaw-m", ["1410"]).problems
    st = make_state(sc, garnett_a="1003", first_1="0903")
    assert rt.check_retreat(st, m, "garnett-a", ["1104"]).problems    # TEC heavy woods: infantry only


def test_16_0_no_union_retreat_into_the_trains_hex(sc, m):
    # 16.0: no Union unit may enter the train's hex, even when retreating
    st = make_state(sc, first_1="1611", kershaw_m="1511", wagon_train="1712")
    r = rt.check_retreat(st, m, "first-1", ["1712", "1812"])
    assert rules_of(r.problems) == ["16.0"]


def test_crt_key_best_retreat_status(sc, m):
    st = make_state(sc, kershaw_m="1511", first_1="1611")
    best = rt.retreat_status(st, m, "kershaw-m", 2)
    assert best.status is PathStatus.SAFE and ["1410", "1310"] in best.safe


def test_crt_key_no_retreat_means_captured(sc, m):
    # CRT key: a unit that cannot retreat is captured -- train in 1712, Confederates all round 1611
    st = make_state(sc, first_1="1611", wagon_train="1712", kershaw_m="1511", semmes_m="1610",
                    wofford_m="1711", wilcox_m="1612", mahone_a="1512")
    best = rt.retreat_status(st, m, "first-1", 1)
    assert best.status is PathStatus.NONE and best.safe == [] and best.unsafe == []
