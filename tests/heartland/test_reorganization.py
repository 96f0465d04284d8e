"""The Reorganization Segment (4.3-4.4, 12.0, 13.0-13.22): destruction, foraging, income, the
supply recheck and attrition, administration (3.24a, 3.32, 3.41, 4.32), leader ML (3.53-3.55) and
the end of the turn.  Worked example H-29 (the landing raid).

Readings: ``hxref/systems/heartland/reorganization.py``."""
import copy

import pytest

from factory import TODAY, C, U, FixedDice, World, sample_map
from hxref.systems.heartland import reorganization as ro
from hxref.systems.heartland import supply as sp
from tests.heartland.factory import art_map

HM = sample_map()
FORAGING = ro.ForagingChart.load(TODAY)
ATTRITION = ro.AttritionChart.load(TODAY)


def world(month: int = 7, year: int = 1862, turn: int = 2) -> World:
    w = World(year=year)
    w.state.update({"turn": turn, "calendar": [{"turn": i, "year": year, "month": month} for i in range(1, 5)],
                    "wep": {U: 100, C: 80}, "replacements": {U: 3, C: 2}, "history": [],
                    "current": {"weather": {"result": "Clear", "roll": None, "stand_in": False}}})
    return w


def no_dice():
    return FixedDice([])


def rules(result):
    return [p.rule for p in result.problems]


def test_steps_are_in_the_rules_order():
    names = [s for s, _ in ro.STEPS]
    assert names == ["destruction", "foraging", "purchase", "income", "supply_recheck", "administration", "naval",
                     "end_of_turn"]                                     # 12.0, 13.0, 4.31, 4.32, 4.4


# --- 13.1 / 13.11 bridges ------------------------------------------------------------------

def raider(ap=3, cavalry=True, active=True, hex="0604", side=C):
    w = world()
    w.leader("forrest", side, hex, stars=2, ap=ap, active=active)
    w.unit("cav", side, leader="forrest", arm="cavalry" if cavalry else "infantry", size="brigade")
    return w


def test_13_11_burn_a_bridge_on_a_6_1_ap_per_attempt():
    w = raider()
    r = ro.destruction(w.state, C, {"destruction": [{"leader": "forrest", "bridge": "0705/0604", "attempts": 3}]},
                       FixedDice([2, 6]), HM)
    assert r.legal and r.actions[0].rolls == [2, 6] and r.actions[0].success and r.actions[0].ap == 2
    assert w.state["leaders"]["forrest"]["ap"] == 3                   # pure until applied
    ro.apply_step(w.state, r)
    assert w.state["burned_bridges"] == {"0604/0705": {"side": C, "turn": 2}}
    assert w.state["leaders"]["forrest"]["ap"] == 1
    assert "Bridge Burned" in r.why


def test_13_11_only_a_6_burns():
    w = raider()
    r = ro.destruction(w.state, C, {"destruction": [{"leader": "forrest", "bridge": "0604/0705", "attempts": 3}]},
                       FixedDice([5, 4, 1]), HM)
    ro.apply_step(w.state, r)
    assert not r.actions[0].success and "burned_bridges" not in w.state and w.state["leaders"]["forrest"]["ap"] == 0


@pytest.mark.parametrize("order,rule,text", [
    ({"bridge": "0604/0705", "attempts": 4}, "3.24", "3 AP"),                         # more attempts than AP
    ({"bridge": "0603/0703"}, "13.11", "no bridge"),                                  # a major river, no bridge
    ({"bridge": "0602/0702"}, "13.11", "no bridge"),                                  # a ford
    ({"bridge": "0609/0709"}, "13.11", "not at either end"),
    ({"bridge": "0604/0809"}, "13.11", "not a hexside"),
    ({"bridge": "0604/0705", "attempts": 0}, "13.1", "at least 1"),
    ({"bridge": "0604/0705", "town": "0303"}, "13.1", "exactly one"),
])
def test_13_11_illegal_bridge_orders(order, rule, text):
    w = raider()
    r = ro.destruction(w.state, C, {"destruction": [{"leader": "forrest", **order}]}, no_dice(), HM)
    assert rules(r) == [rule] and text in r.problems[0].message and not r.changes


def test_13_11_needs_cavalry():
    w = raider(cavalry=False)
    r = ro.destruction(w.state, C, {"destruction": [{"leader": "forrest", "bridge": "0604/0705"}]}, no_dice(), HM)
    assert rules(r) == ["13.11"] and "cavalry" in r.problems[0].message


def test_13_11_unled_cavalry_in_the_stack_counts():
    w = raider(cavalry=False)
    w.unit("loose", C, hex="0604", arm="cavalry", size="brigade")
    r = ro.destruction(w.state, C, {"destruction": [{"leader": "forrest", "bridge": "0604/0705"}]},
                       FixedDice([1]), HM)
    assert r.legal


def test_13_11_a_burned_bridge_cannot_burn_again():
    w = raider()
    w.state["burned_bridges"] = ["0604/0705"]                      # a plain list is read too
    r = ro.destruction(w.state, C, {"destruction": [{"leader": "forrest", "bridge": "0604/0705"}]}, no_dice(), HM)
    assert rules(r) == ["13.11"] and "already burned" in r.problems[0].message


def test_13_1_only_active_leaders_and_only_the_oc():
    w = raider(active=False)
    r = ro.destruction(w.state, C, {"destruction": [{"leader": "forrest", "bridge": "0604/0705"}]}, no_dice(), HM)
    assert rules(r) == ["13.1"] and "inactive" in r.problems[0].message
    w = raider()
    w.leader("bragg", C, "0604", stars=3, hq=True)
    w.state["leaders"]["forrest"]["superior"] = "bragg"
    r = ro.destruction(w.state, C, {"destruction": [{"leader": "forrest", "bridge": "0604/0705"}]}, no_dice(), HM)
    assert rules(r) == ["13.1"] and "not the OC" in r.problems[0].message


def test_13_1_ap_is_reserved_across_orders():
    w = raider(ap=3)
    w.state["units"]["cav"]["steps"] = 2
    orders = {"destruction": [{"leader": "forrest", "bridge": "0604/0705", "attempts": 2},
                              {"leader": "forrest", "bridge": "0604/0705", "attempts": 2}]}
    r = ro.destruction(w.state, C, orders, no_dice(), HM)
    assert rules(r) == ["3.24"]


def test_13_1_an_enemy_leader_cannot_be_ordered():
    w = raider()
    r = ro.destruction(w.state, U, {"destruction": [{"leader": "forrest", "bridge": "0604/0705"}]}, no_dice(), HM)
    assert rules(r) == ["13.1"] and "not one of your leaders" in r.problems[0].message


# --- 13.12 towns ---------------------------------------------------------------------------

def test_13_12_burn_a_town_devastation():
    w = raider(hex="0303", side=U)
    r = ro.destruction(w.state, U, {"destruction": [{"leader": "forrest", "town": "0303", "attempts": 2}]},
                       FixedDice([3, 6]), HM)
    ro.apply_step(w.state, r)
    assert w.state["devastated"] == {"0303": {"side": U, "turn": 2}} and "Devastation" in r.why
    assert not ro.is_town(w.state, HM, HM.parse("0303"))           # no longer a town


@pytest.mark.parametrize("hex,target,text", [("0705", "0705", "major cities cannot be burned"),
                                             ("0404", "0404", "no town"),
                                             ("0404", "0303", "not in the town")])
def test_13_12_illegal_town_orders(hex, target, text):
    w = raider(hex=hex, side=U)
    r = ro.destruction(w.state, U, {"destruction": [{"leader": "forrest", "town": target}]}, no_dice(), HM)
    assert rules(r) == ["13.12"] and text in r.problems[0].message


def test_13_12_no_cavalry_needed_for_a_town():
    w = raider(hex="0303", side=U, cavalry=False)
    assert ro.destruction(w.state, U, {"destruction": [{"leader": "forrest", "town": "0303"}]},
                          FixedDice([1]), HM).legal


# --- 13.13 landing raids (H-29) -------------------------------------------------------------

def landing(brigades=5):
    w = world()
    w.state["landings"] = {"L1": {"hex": "0810", "side": U}}
    w.leader("bragg", C, "0810", stars=3, ap=2)
    for i in range(brigades):
        w.unit(f"b{i}", C, leader="bragg", size="brigade", arm="cavalry" if i % 2 else "infantry")
    w.unit("bigcav", C, leader="bragg", size="division", arm="cavalry")       # not a brigade
    return w


def test_h29_13_13_five_brigades_cost_the_union_2_wep():
    w = landing(5)
    r = ro.destruction(w.state, C, {"destruction": [{"leader": "bragg", "landing": "0810"}]}, no_dice(), HM)
    ro.apply_step(w.state, r)
    assert w.state["wep"] == {U: 98, C: 80}                          # the Confederates gain nothing
    assert r.actions[0].wep == -2 and r.actions[0].wep_side == U and r.actions[0].ap == 1
    assert w.state["leaders"]["bragg"]["ap"] == 1


@pytest.mark.parametrize("n,loss", [(0, 0), (1, 0), (2, 1), (4, 2), (7, 3)])
def test_13_13_one_wep_per_two_brigades(n, loss):
    w = landing(n)
    r = ro.destruction(w.state, C, {"destruction": [{"leader": "bragg", "landing": "0810"}]}, no_dice(), HM)
    ro.apply_step(w.state, r)
    assert w.state["wep"][U] == 100 - loss


def test_13_13_union_wep_never_below_0():
    w = landing(6)
    w.state["wep"][U] = 1
    ro.apply_step(w.state, ro.destruction(w.state, C, {"destruction": [{"leader": "bragg", "landing": "0810"}]},
                                          no_dice(), HM))
    assert w.state["wep"][U] == 0


def test_13_13_illegal_raids():
    w = landing()
    r = ro.destruction(w.state, U, {"destruction": [{"leader": "bragg", "landing": "0810"}]}, no_dice(), HM)
    assert rules(r) == ["13.1"]                                       # not the Union's leader
    w.leader("grant", U, "0810", stars=3)
    r = ro.destruction(w.state, U, {"destruction": [{"leader": "grant", "landing": "0810"}]}, no_dice(), HM)
    assert rules(r) == ["13.13"] and "only the Confederates" in r.problems[0].message
    r = ro.destruction(w.state, C, {"destruction": [{"leader": "bragg", "landing": "0303"}]}, no_dice(), HM)
    assert rules(r) == ["13.13"] and "no Union Naval Landing" in r.problems[0].message
    twice = {"destruction": [{"leader": "bragg", "landing": "0810"}, {"leader": "bragg", "landing": "0810"}]}
    r = ro.destruction(w.state, C, twice, no_dice(), HM)
    assert rules(r) == ["13.13"] and "already been raided" in r.problems[0].message


def test_13_13_again_next_turn():
    w = landing()
    order = {"destruction": [{"leader": "bragg", "landing": "0810"}]}
    ro.apply_step(w.state, ro.destruction(w.state, C, order, no_dice(), HM))
    w.state["current"] = {}                                           # a new turn
    w.state["leaders"]["bragg"]["ap"] = 2
    ro.apply_step(w.state, ro.destruction(w.state, C, order, no_dice(), HM))
    assert w.state["wep"][U] == 96


# --- 13.2 foraging -------------------------------------------------------------------------

def forager(month=7, hex="0303", side=U, active=True, ap=2):
    w = world(month=month)
    w.leader("a", side, hex, stars=2, ap=ap, active=active)
    w.unit("u1", side, leader="a")
    return w


def test_13_22_clear_hexes_the_hex_and_its_six_neighbours():
    assert len(ro.clear_hexes({}, HM, "0303")) == 7
    got = ro.clear_hexes({}, HM, "0805")                              # 0905 is woods
    assert len(got) == 6 and "0905" not in got


def test_13_22_a_town_counts_as_clear_and_a_burned_one_does_not(tmp_path):
    hm = art_map(tmp_path, ["w w w", "w T w", "w w w"])
    assert ro.clear_hexes({}, hm, "0202") == ["0202"]
    assert ro.clear_hexes({"devastated": {"0202": {}}}, hm, "0202") == []


def test_13_22_a_number_is_wep_at_once():
    w = forager()
    r = ro.foraging(w.state, U, {"foraging": [{"leader": "a"}]}, FixedDice([6]), HM, chart=FORAGING)    # 7 clear, 6: 5 WEP
    ro.apply_step(w.state, r)
    assert w.state["wep"][U] == 105 and w.state["leaders"]["a"]["ap"] == 1
    assert "[stand-in Foraging Table]" in r.why


def test_13_22_ou_places_an_own_use_marker_for_next_turn():
    w = forager()
    r = ro.foraging(w.state, U, {"foraging": ["a"]}, FixedDice([1]), HM, chart=FORAGING)
    ro.apply_step(w.state, r)
    assert w.state["leaders"]["a"]["own_use"] == 3 and w.state["wep"][U] == 100


def test_13_22_confederates_north_of_the_ohio_double_the_wep():
    w = forager(side=C)
    w.state["north_of_ohio"] = ["0303"]
    ro.apply_step(w.state, ro.foraging(w.state, C, {"foraging": ["a"]}, FixedDice([6]), HM, chart=FORAGING))
    assert w.state["wep"][C] == 90
    w = forager(side=U)
    w.state["north_of_ohio"] = True
    ro.apply_step(w.state, ro.foraging(w.state, U, {"foraging": ["a"]}, FixedDice([6]), HM, chart=FORAGING))
    assert w.state["wep"][U] == 105                                   # only the Confederates


def test_13_22_own_use_is_not_doubled():
    w = forager(side=C)
    w.state["north_of_ohio"] = True
    r = ro.foraging(w.state, C, {"foraging": ["a"]}, FixedDice([1]), HM, chart=FORAGING)
    ro.apply_step(w.state, r)
    assert w.state["leaders"]["a"]["own_use"] == 3 and w.state["wep"][C] == 80


def test_13_22_a_major_city_may_forage():
    w = forager(hex="0705")
    assert ro.foraging(w.state, U, {"foraging": ["a"]}, FixedDice([4]), HM, chart=FORAGING).legal


@pytest.mark.parametrize("month", [5, 10, 1])
def test_13_21_only_june_to_september(month):
    w = forager(month=month)
    r = ro.foraging(w.state, U, {"foraging": ["a"]}, no_dice(), HM, chart=FORAGING)
    assert rules(r) == ["13.21"] and "June to September" in r.problems[0].message


def test_4_31_the_scenario_may_forbid_foraging():
    w = forager()
    w.state["foraging"] = False
    assert rules(ro.foraging(w.state, U, {"foraging": ["a"]}, no_dice(), HM, chart=FORAGING)) == ["4.31"]


@pytest.mark.parametrize("kw,rule", [({"hex": "0404"}, "13.21"), ({"active": False}, "13.21"), ({"ap": 0}, "3.24")])
def test_13_21_illegal_foraging(kw, rule):
    w = forager(**kw)
    assert rules(ro.foraging(w.state, U, {"foraging": ["a"]}, no_dice(), HM, chart=FORAGING)) == [rule]


def test_13_21_once_per_stack_and_not_in_a_burned_town():
    w = forager()
    r = ro.foraging(w.state, U, {"foraging": ["a", "a"]}, no_dice(), HM, chart=FORAGING)
    assert rules(r) == ["13.21"] and "already foraged" in r.problems[0].message
    w.state["devastated"] = {"0303": {"side": C, "turn": 1}}
    r = ro.foraging(w.state, U, {"foraging": ["a"]}, no_dice(), HM, chart=FORAGING)
    assert rules(r) == ["13.23"] and "a devastated town" in r.problems[0].message


def test_foraging_chart_is_a_stand_in_and_more_open_country_never_gives_less():
    ch = FORAGING
    assert ch.stand_in and ch.columns == tuple(range(8)) and sorted(ch.table) == [1, 2, 3, 4, 5, 6]
    for row in ch.table.values():
        wep = [c if isinstance(c, int) else 0 for c in row]
        assert wep == sorted(wep)
        assert all(c in ("OU", "-") or isinstance(c, int) for c in row)


# --- 4.31 income ---------------------------------------------------------------------------

def test_4_31_income_from_friendly_major_cities():
    w = world()
    w.state["income"] = {"0705": {"wep": 5, "owner": U}, "1207": 2, "0303": 3}
    w.state["control"] = {"1207": U, "0303": C}
    r = ro.income(w.state, U)
    ro.apply_step(w.state, r)
    assert w.state["wep"][U] == 107 and "0705 5" in r.why
    ro.apply_step(w.state, ro.income(w.state, C))
    assert w.state["wep"][C] == 83


def test_4_31_no_income_from_a_city_held_by_enemy_units_or_without_an_amount():
    w = world()
    w.state["income"] = {"0705": {"wep": 5, "owner": U}}
    w.leader("c", C, "0705")
    w.unit("c1", C, leader="c")
    r = ro.income(w.state, U)
    assert not r.changes and "held by enemy units" in r.why
    w = world()
    assert not ro.income(w.state, U).changes                           # nothing listed: 0 (amounts missing)


# --- 4.31 / 7.31a supply recheck and attrition ----------------------------------------------

def army(sources=("0102",), asp=2, leaders=3, weather="Clear", hex="0303"):
    w = world()
    w.state["current"]["weather"]["result"] = weather
    w.state["sources"][U] = list(sources)
    w.leader("a", U, hex, stars=3, hq=True, ap=3, ml=4, asp=asp, iar=1)
    if leaders >= 2:
        w.leader("b", U, stars=2, superior="a", asp=asp)
    if leaders >= 3:
        w.leader("c", U, stars=1, superior="a", asp=asp)
    w.unit("u1", U, leader="a")
    w.unit("u2", U, leader="a")
    return w


def test_4_31_three_leaders_check_even_in_full_supply():
    w = army()
    r = ro.supply_recheck(w.state, U, {}, FixedDice([6]), HM, chart=ATTRITION)
    chk = r.checks[0]
    assert chk.force == "a" and chk.reasons == ["3 leaders in the force (4.31)"] and chk.supply == "full"
    assert chk.modified == 6 and chk.steps == 1 and not chk.deactivate
    assert "[stand-in Attrition Table]" in chk.why
    ro.apply_step(w.state, r)
    assert w.state["units"]["u1"]["steps"] == 1
    assert w.state["current"]["reorganization"]["supply"][U]["a"] == {"state": "full", "in_communication": True,
                                                                      "line": True}


def test_4_31_two_leaders_in_communication_do_not_check():
    w = army(leaders=2)
    r = ro.supply_recheck(w.state, U, {}, no_dice(), HM, chart=ATTRITION)
    assert r.legal and not r.checks


def test_7_31a_7_12b_no_line_out_of_communication_plus_4_and_combat_supply():
    w = army(sources=(), leaders=1)
    r = ro.supply_recheck(w.state, U, {}, FixedDice([1]), HM, chart=ATTRITION)
    chk = r.checks[0]
    assert chk.reasons == ["out of communication (7.31a)", "cannot trace a supply line (4.31)"]
    assert [(d.value, d.rule) for d in chk.drms] == [(4, "7.12b"), (1, "7.31a")]
    assert chk.modified == 6 and chk.steps == 1


def test_7_31a_out_of_supply_is_worse_than_combat_supply_and_deactivates():
    w = army(sources=(), leaders=1, asp=0)
    r = ro.supply_recheck(w.state, U, {}, FixedDice([5]), HM, chart=ATTRITION)          # 5 + 4 + 2 = 11: 3 steps, D
    chk = r.checks[0]
    assert chk.supply == "out" and chk.modified == 11 and chk.steps == 3 and chk.deactivate
    ro.apply_step(w.state, r)
    assert [w.state["units"][u]["steps"] for u in ("u1", "u2")] == [0, 1]     # spread: 2->1, 2->1, 1->0
    assert not w.state["leaders"]["a"]["active"] and w.state["leaders"]["a"]["ap"] == 1    # 8.11
    ch = ATTRITION
    assert ch.stand_in and ch.supply_drm["out"] > ch.supply_drm["combat"] > ch.supply_drm["full"] == 0


def test_7_31a_a_line_too_long_is_out_of_communication_without_the_plus_4(tmp_path):
    hm = art_map(tmp_path, [" ".join("." * 30)])
    w = army(sources=("2501",), leaders=1, hex="0101")               # the source is 24 MP away
    w.wagon("wg", U, "1601")                                          # in supply, 15 MP away: a line, too long
    r = ro.supply_recheck(w.state, U, {}, FixedDice([3]), hm, chart=ATTRITION)
    chk = r.checks[0]
    assert chk.reasons == ["out of communication (7.31a)"] and [d.value for d in chk.drms] == [1]


def test_3_54c_the_oc_gives_up_ml_for_minus_1_each():
    w = army(sources=(), leaders=1)
    r = ro.supply_recheck(w.state, U, {"attrition": {"ml": {"a": 2}}}, FixedDice([1]), HM, chart=ATTRITION)
    chk = r.checks[0]
    assert chk.modified == 1 + 4 + 1 - 2 and chk.steps == 0
    ro.apply_step(w.state, r)
    assert w.state["leaders"]["a"]["ml"] == 2


@pytest.mark.parametrize("weather,extra", [("Rain", 1), ("Mud", 3), ("Snow", 2), ("Blizzard", 4), ("Thaw", 0)])
def test_5_2x_weather_on_the_attrition_roll(weather, extra):
    w = army(weather=weather)
    chk = ro.supply_recheck(w.state, U, {}, FixedDice([1]), HM, chart=ATTRITION).checks[0]
    assert chk.modified == 1 + extra


def test_4_31_the_ordered_units_take_the_losses_and_an_empty_leader_goes_to_the_pool():
    w = army(sources=(), leaders=2, asp=0)
    w.unit("ub", U, leader="b", steps=1)
    r = ro.supply_recheck(w.state, U, {"attrition": {"losses": {"a": ["ub"]}}}, FixedDice([1]), HM, chart=ATTRITION)   # 7: 1 step
    chk = r.checks[0]
    assert [x.unit for x in chk.losses] == ["ub"] and chk.to_pool == ["b"]
    ro.apply_step(w.state, r)
    assert w.state["leaders"]["b"]["pool"] and w.state["leaders"]["b"]["asp"] == 0


def test_7_35_emergency_supply_in_the_recheck_avoids_the_large_drm_and_consumes_the_wagon():
    w = army(sources=(), leaders=1)
    w.wagon("wg", U, "0403")
    r = ro.supply_recheck(w.state, U, {"attrition": {"emergency": {"a": "wg"}}}, FixedDice([2]), HM, chart=ATTRITION)
    chk = r.checks[0]
    assert chk.supply == "full" and chk.reasons[0] == "out of communication (7.31a)"
    assert [(d.value, d.rule) for d in chk.drms] == [(0, "7.35")] and chk.modified == 2
    ro.apply_step(w.state, r)
    assert "wg" not in w.state["logistics"]


def test_4_31_unled_units_out_of_communication_check_without_deactivation():
    w = world()
    w.unit("x1", U, hex="0505")
    r = ro.supply_recheck(w.state, U, {}, FixedDice([6]), HM, chart=ATTRITION)        # 6 + 4 + 1 = 11
    chk = r.checks[0]
    assert chk.force == "unled@0505" and chk.oc is None and chk.steps == 3 and chk.deactivated is None


@pytest.mark.parametrize("orders,rule,text", [
    ({"ml": {"a": 1}}, "4.31", "does not check"),
    ({"losses": {"a": ["u1"]}}, "4.31", "does not check"),
    ({"ml": {"zz": 1}}, "4.31", "not one of your forces"),
    ({"emergency": {"a": "nowagon"}}, "7.35", "not one of your wagons"),
])
def test_4_31_illegal_attrition_orders(orders, rule, text):
    w = army(leaders=2)
    r = ro.supply_recheck(w.state, U, {"attrition": orders}, no_dice(), HM, chart=ATTRITION)
    assert rules(r) == [rule] and text in r.problems[0].message and not r.changes


def test_3_54c_ml_orders_need_an_oc_with_the_ml():
    w = army(sources=(), leaders=1)
    r = ro.supply_recheck(w.state, U, {"attrition": {"ml": {"a": 5}}}, no_dice(), HM, chart=ATTRITION)
    assert rules(r) == ["3.54c"]
    w.unit("x1", U, hex="0909")
    r = ro.supply_recheck(w.state, U, {"attrition": {"ml": {"unled@0909": 1}}}, no_dice(), HM, chart=ATTRITION)
    assert rules(r) == ["3.54c"] and "unled" in r.problems[0].message


def test_7_13_a_cut_railroad_depot_loses_a_capacity_level():
    w = world()
    w.wagon("dep", U, "0908", kind="depot", capacity=2)                # Cedar Station: a town on the railroad
    w.wagon("dep2", U, "0303", kind="depot", capacity=2)               # Ashby: a town off the railroad
    r = ro.supply_recheck(w.state, U, {}, no_dice(), HM, chart=ATTRITION)
    ro.apply_step(w.state, r)
    assert w.state["logistics"]["dep"]["capacity"] == 1 and w.state["logistics"]["dep2"]["capacity"] == 2
    assert r.depots[0].rule == "7.13"
    ro.apply_step(w.state, ro.supply_recheck(w.state, U, {}, no_dice(), HM, chart=ATTRITION))
    assert "dep" not in w.state["logistics"]                            # capacity 0: removed


def test_7_13_a_depot_linked_by_rail_loses_nothing():
    w = world()
    w.state["sources"][U] = ["1208"]
    w.wagon("dep", U, "0908", kind="depot", capacity=2)
    r = ro.supply_recheck(w.state, U, {}, no_dice(), HM, chart=ATTRITION)
    assert not r.depots


def test_supply_recheck_accepts_a_supply_result():
    w = army(leaders=2)
    ss = sp.supply_status(w.state, U, HM)
    r = ro.supply_recheck(w.state, U, {}, no_dice(), HM, supply=ss, chart=ATTRITION)
    assert r.supply is ss and r.legal


# --- 4.32 administration -------------------------------------------------------------------

FULL = {"a": {"state": "full", "in_communication": True, "line": True}}


def admin_world(ap=3, **kw):
    w = world(**kw)
    w.leader("a", U, "0303", stars=3, hq=True, ap=ap, ml=4, mr=3, asp=1, artillery=2)
    w.leader("b", U, stars=2, superior="a", ap=2, ml=3)
    w.unit("u1", U, leader="a", steps=1)
    w.unit("u2", U, leader="b", steps=1)
    w.unit("u3", U, leader="a", steps=0)
    w.state["current"]["reorganization"] = {"supply": {U: copy.deepcopy(FULL)}}
    return w


def adm(w, orders, side=U, **kw):
    return ro.administration(w.state, side, {"administration": orders}, HM, charts=TODAY, **kw)


def test_4_32_replacement_steps_1_ap_each_from_the_pool():
    w = admin_world()
    r = adm(w, {"replacements": [{"unit": "u1"}, {"unit": "u3", "steps": 2}]})
    assert r.legal, r.problems
    ro.apply_step(w.state, r)
    assert [w.state["units"][u]["steps"] for u in ("u1", "u3")] == [2, 2]      # an eliminated unit returns
    assert w.state["replacements"][U] == 0 and w.state["leaders"]["a"]["ap"] == 0


def test_3_24b_the_oc_may_pay_for_his_sls_replacement():
    w = admin_world()
    r = adm(w, {"replacements": [{"unit": "u2", "leader": "a"}]})
    ro.apply_step(w.state, r)
    assert w.state["leaders"]["a"]["ap"] == 2 and w.state["leaders"]["b"]["ap"] == 2
    r = adm(w, {"replacements": [{"unit": "u1", "steps": 1}]})
    assert r.legal


@pytest.mark.parametrize("order,rule,text", [
    ({"unit": "u1", "steps": 2}, "4.32", "cannot take 2 more"),
    ({"unit": "u3", "steps": 3}, "4.32", "cannot take 3 more"),
    ({"unit": "u1", "steps": 0}, "4.32", "at least 1"),
    ({"unit": "nope"}, "4.32", "one of your units"),
])
def test_4_32_illegal_replacements(order, rule, text):
    w = admin_world()
    r = adm(w, {"replacements": [order]})
    assert rules(r) == [rule] and text in r.problems[0].message and not r.changes


def test_4_32_the_replacement_pool_and_ap_limit_replacements():
    w = admin_world(ap=1)
    r = adm(w, {"replacements": [{"unit": "u1"}, {"unit": "u3"}]})
    assert rules(r) == ["3.24"]
    w = admin_world()
    w.state["replacements"][U] = 1
    r = adm(w, {"replacements": [{"unit": "u1"}, {"unit": "u3"}]})
    assert rules(r) == ["4.32"] and "replacement steps" in r.problems[0].message


def test_7_34_replacements_and_ammo_only_in_communication_and_full_supply():
    w = admin_world()
    w.state["current"]["reorganization"]["supply"][U]["a"] = {"state": "combat", "in_communication": False}
    r = adm(w, {"replacements": [{"unit": "u1"}], "ammo": [{"leader": "a", "asp": 2}]})
    assert rules(r) == ["7.34", "7.34"]
    w.state["current"]["reorganization"] = {}
    r = ro.administration(w.state, U, {"administration": {"replacements": [{"unit": "u1"}]}}, None, charts=TODAY)
    assert rules(r) == ["7.34"] and "no supply recheck" in r.problems[0].message
    r = adm(w, {"replacements": [{"unit": "u1"}]})                       # with the map: a fresh check (no source)
    assert rules(r) == ["7.34"] and "not in communication" in r.problems[0].message
    w.state["sources"][U] = ["0102"]
    assert adm(w, {"replacements": [{"unit": "u1"}]}).legal
    r = adm(w, {"replacements": [{"unit": "u1"}]}, supply=FULL)
    assert r.legal


def test_7_34_an_unled_unit_takes_no_replacements():
    w = admin_world()
    w.unit("x", U, hex="0505", steps=1)
    r = adm(w, {"replacements": [{"unit": "x"}]})
    assert rules(r) == ["7.34"]


def test_4_32_replacement_that_breaks_the_division_limit_is_refused():
    w = admin_world()
    for i in range(3):
        w.unit(f"full{i}", U, leader="a")                                 # 3 living + u1 = 4 = stars + 1
    r = adm(w, {"replacements": [{"unit": "u3"}]})                        # the 5th division
    assert rules(r) == ["3.23"]


def test_3_24a_ammo_1_ap_per_delivery_once_a_turn_priced_from_the_scenario():
    w = admin_world()
    w.state["prices"] = {"asp": 2}
    r = adm(w, {"ammo": [{"leader": "a", "asp": 3}]})
    ro.apply_step(w.state, r)
    assert w.state["leaders"]["a"]["asp"] == 4 and w.state["leaders"]["a"]["ap"] == 2 and w.state["wep"][U] == 94
    r = adm(w, {"ammo": [{"leader": "a", "asp": 1}]})
    assert rules(r) == ["3.24a"] and "already received" in r.problems[0].message


def test_3_24a_training_raises_ml_once_a_turn_up_to_9():
    w = admin_world()
    r = adm(w, {"training": [{"leader": "a"}, {"leader": "b"}]})
    ro.apply_step(w.state, r)
    assert (w.state["leaders"]["a"]["ml"], w.state["leaders"]["b"]["ml"]) == (5, 4)
    assert w.state["leaders"]["b"]["ap"] == 1
    assert rules(adm(w, {"training": ["a"]})) == ["3.53"]
    w = admin_world()
    w.state["leaders"]["a"]["ml"] = 9
    assert rules(adm(w, {"training": ["a"]})) == ["3.51"]


def test_3_24a_entrenching_records_a_level():
    w = admin_world()
    ro.apply_step(w.state, adm(w, {"entrench": [{"leader": "a"}]}))
    assert w.state["entrenchments"] == {"0303": {"side": U, "level": 1}}
    assert rules(adm(w, {"entrench": ["b"]})) == ["3.24a"]              # the same hex this turn
    w.state["current"]["reorganization"].pop("entrenched")               # next turn
    ro.apply_step(w.state, adm(w, {"entrench": ["a"]}))
    assert w.state["entrenchments"]["0303"]["level"] == 2


def test_8_51_detachments_in_the_administration():
    w = admin_world()
    w.unit("full", U, leader="a")
    r = adm(w, {"detachments": [{"leader": "a", "unit": "full", "by": "step_loss"}]})
    ro.apply_step(w.state, r)
    assert w.state["units"]["full"]["steps"] == 1
    assert w.state["units"]["full-d1"]["leader"] == "a" and w.state["units"]["full-d2"]["arm"] == "detachment"
    assert w.state["leaders"]["a"]["ap"] == 2
    r = adm(w, {"detachments": [{"leader": "a", "unit": "full", "by": "melt"}]})
    assert rules(r) == ["8.51"]


def test_4_32_unknown_orders_and_whole_step_refused():
    w = admin_world()
    assert rules(adm(w, {"bribe": []})) == ["4.32"]
    before = copy.deepcopy(w.state)
    r = adm(w, {"training": ["a"], "replacements": [{"unit": "u1", "steps": 5}]})
    assert not r.legal and not r.changes and not r.actions
    with pytest.raises(ValueError):
        ro.apply_step(w.state, r)
    assert w.state == before


# --- 3.41 / 4.32(2) leaders ---------------------------------------------------------------

def test_4_32_relieve_a_leader_without_units_no_wdo():
    w = admin_world()
    w.leader("idle", U, stars=1, superior="a")
    r = adm(w, {"leaders": [{"relieve": "idle"}]})
    ro.apply_step(w.state, r)
    assert w.state["leaders"]["idle"]["pool"] and w.state["wep"][U] == 100


def test_4_32_a_leader_with_units_needs_a_successor():
    w = admin_world()
    r = adm(w, {"leaders": [{"relieve": "b"}]})
    assert rules(r) == ["4.32"] and "successor" in r.problems[0].message


def test_4_32_appoint_from_the_pool_takes_over_the_box():
    w = admin_world()
    w.leader("new", U, None, stars=2, pool=True)
    w.state["leaders"]["b"].update(asp=3, artillery=1)
    w.wagon("wg", U, None, leader="b")
    r = adm(w, {"leaders": [{"appoint": "new", "box": "b", "ordered_by": "a"}]})
    assert r.legal, r.problems
    ro.apply_step(w.state, r)
    new, b = w.state["leaders"]["new"], w.state["leaders"]["b"]
    assert (new["pool"], new["hex"], new["superior"], new["active"], new["asp"], new["artillery"]) == \
        (False, "0303", "a", True, 3, 1)
    assert w.state["units"]["u2"]["leader"] == "new" and w.state["logistics"]["wg"]["leader"] == "new"
    assert b["pool"] and b["asp"] == 0
    assert w.state["leaders"]["a"]["ap"] == 2 and w.state["wep"][U] == 100      # 3.31b: 1 AP, no WDO


def test_10_67b_appoint_to_a_killed_leaders_box():
    w = admin_world()
    w.leader("new", U, None, stars=2, pool=True)
    w.state["leaders"]["b"].update(killed=True, hex=None, superior=None)
    r = adm(w, {"leaders": [{"appoint": "new", "box": "b", "hex": "0303"}]})
    ro.apply_step(w.state, r)
    assert w.state["units"]["u2"]["leader"] == "new" and w.state["leaders"]["new"]["hex"] == "0303"
    assert not w.state["leaders"]["b"].get("pool")


@pytest.mark.parametrize("order,rule", [
    ({"appoint": "new", "box": "a"}, "3.41"),                             # an army commander: a WDO
    ({"appoint": "b", "box": "b"}, "3.15"),                               # not from the pool
    ({"appoint": "new", "box": "b", "ordered_by": "b"}, "3.31b"),         # not an army commander
])
def test_4_32_illegal_appointments(order, rule):
    w = admin_world()
    w.leader("new", U, None, stars=2, pool=True)
    assert rules(adm(w, {"leaders": [order]})) == [rule]


def test_3_31b_the_army_commanders_order_needs_the_box_in_range():
    w = admin_world()
    w.leader("new", U, None, stars=1, pool=True)
    w.leader("far", U, "1208", stars=1)
    w.unit("uf", U, leader="far")
    assert rules(adm(w, {"leaders": [{"appoint": "new", "box": "far", "ordered_by": "a"}]})) == ["3.31b"]


def test_3_22a_an_appointment_may_not_break_stacking():
    w = world()
    w.leader("x", U, "0303", stars=2)
    w.leader("y", U, "0303", stars=1)
    w.unit("uy", U, leader="y")
    w.unit("ux", U, leader="x")
    w.leader("new", U, None, stars=2, pool=True)
    r = ro.administration(w.state, U, {"administration": {"leaders": [{"appoint": "new", "box": "y"}]}}, HM, charts=TODAY)
    assert rules(r) == ["3.22a"]


# --- 3.41 WDOs and 3.32 Chiefs of Staff ------------------------------------------------------

def test_3_32_chief_of_staff_10_wep_and_1_ap_from_the_next_reset():
    w = admin_world(year=1863)
    w.leader("cos", U, None, stars=2, pool=True, ar=2)
    r = adm(w, {"chief_of_staff": [{"leader": "cos", "army": "a"}]})
    ro.apply_step(w.state, r)
    a, cos = w.state["leaders"]["a"], w.state["leaders"]["cos"]
    assert a["cos"] == "cos" and cos["cos_of"] == "a" and cos["hex"] is None and not cos["pool"]
    assert w.state["wep"][U] == 90 and a["ap"] == 2 and w.state["current"]["wdo"][U] == 1
    ro.apply_step(w.state, ro.end_of_turn(w.state))
    assert a["ap"] == 3 + 2                                              # his AR + the COS's


def test_3_32c_the_cos_bonus_is_1_less_in_1861_and_1862():
    w = admin_world(year=1862)
    w.leader("cos", U, None, stars=2, pool=True, ar=2)
    ro.apply_step(w.state, adm(w, {"chief_of_staff": [{"leader": "cos", "army": "a"}]}))
    ro.apply_step(w.state, ro.end_of_turn(w.state))
    assert w.state["leaders"]["a"]["ap"] == 3 + 1
    assert ro.cos_bonus(w.state, "b") == 0


@pytest.mark.parametrize("setup,order,rule", [
    ({"stars": 1}, {"leader": "cos", "army": "a"}, "3.32"),              # 2 stars needed
    ({}, {"leader": "cos", "army": "b"}, "3.32"),                         # not an army commander
    ({}, {"leader": "b", "army": "a"}, "3.32a"),                          # leads units
])
def test_3_32_illegal_chiefs_of_staff(setup, order, rule):
    w = admin_world()
    w.leader("cos", U, None, pool=True, **{"stars": 2, **setup})
    assert rules(adm(w, {"chief_of_staff": [order]})) == [rule]


def test_3_41a_one_wdo_a_turn_the_cos_counts():
    w = admin_world()
    w.leader("cos", U, None, stars=2, pool=True)
    w.leader("lost", U, "1208", stars=1)
    r = adm(w, {"chief_of_staff": [{"leader": "cos", "army": "a"}], "wdo": [{"remove": "lost"}]})
    assert rules(r) == ["3.41a"]
    w.state["current"]["wdo"] = {U: 1}                                    # one used in an impulse already
    assert rules(adm(w, {"wdo": [{"remove": "lost"}]})) == ["3.41a"]
    w.state["current"] = {"wdo_used": {C: True}, "reorganization": {"supply": {U: FULL}}}
    assert adm(w, {"wdo": [{"remove": "lost"}]}).legal                    # the other side's WDO
    w.state["wep"][U] = 9
    assert rules(adm(w, {"wdo": [{"remove": "lost"}]})) == ["3.41a"]      # 10 WEP


def test_3_41a_wdo_problems_exempt_killed_leaders():
    w = admin_world()
    w.state["current"]["wdo"] = {U: 1}
    assert [p.rule for p in ro.wdo_problems(w.state, U)] == ["3.41a"]
    assert ro.wdo_problems(w.state, U, for_death=True) == []


def test_3_41_4_remove_an_isolated_leader():
    w = admin_world()
    w.leader("lost", U, "1208", stars=1)
    w.unit("ul", U, leader="lost")
    w.state["current"]["reorganization"]["supply"][U]["lost"] = {"state": "out", "in_communication": False,
                                                                 "line": False}
    r = adm(w, {"wdo": [{"remove": "lost"}]})
    ro.apply_step(w.state, r)
    assert w.state["leaders"]["lost"]["pool"] and w.state["wep"][U] == 90
    assert w.state["units"]["ul"]["leader"] is None and w.state["units"]["ul"]["hex"] == "1208"
    assert "isolated" in r.why


def test_3_41_3_a_new_army_commander_by_wdo():
    w = admin_world()
    w.leader("thomas", U, stars=3, superior="a")
    w.leader("cos", U, None, stars=2, cos_of="a")
    w.state["leaders"]["a"]["cos"] = "cos"
    r = adm(w, {"wdo": [{"army_commander": "thomas", "from": "a"}]})
    ro.apply_step(w.state, r)
    L = w.state["leaders"]
    assert L["thomas"]["hq"] and not L["a"]["hq"] and L["thomas"]["superior"] is None
    assert L["a"]["superior"] == "thomas" and L["b"]["superior"] == "thomas"
    assert L["thomas"]["cos"] == "cos" and L["cos"]["cos_of"] == "thomas" and "cos" not in L["a"]
    assert w.state["wep"][U] == 90


def test_3_31_an_army_commander_needs_3_stars_and_the_hqs_hex():
    w = admin_world()
    assert rules(adm(w, {"wdo": [{"army_commander": "b", "from": "a"}]})) == ["3.31"]
    w.leader("far", U, "1208", stars=3)
    assert rules(adm(w, {"wdo": [{"army_commander": "far", "from": "a"}]})) == ["3.41(3)"]
    w.leader("other", U, "0303", stars=3, superior="a")
    assert rules(adm(w, {"wdo": [{"army_commander": "other", "from": "b"}]})) == ["3.13"]


# --- 3.53-3.55 leader ML ------------------------------------------------------------------

def test_3_53_1_combat_victory_raises_every_leader_of_the_force():
    w = admin_world()
    ch = ro.ml_change(w.state, "b", "combat_victory")
    ro.apply_ml_change(w.state, ch)
    assert (w.state["leaders"]["a"]["ml"], w.state["leaders"]["b"]["ml"]) == (5, 4)


@pytest.mark.parametrize("cause", ["attack_check_failed", "pre_combat_retreat", "combat_retreat",
                                   "retreat_through_zoc", "morale_check_failed"])
def test_3_53_3_and_3_55_setbacks_fall_on_the_oc_only(cause):
    w = admin_world()
    ch = ro.ml_change(w.state, "b", cause)
    ro.apply_ml_change(w.state, ch)
    assert (w.state["leaders"]["a"]["ml"], w.state["leaders"]["b"]["ml"]) == (3, 3)
    assert ch.unchanged == ["b"] and "3.55" in ch.why


def test_3_54_only_the_oc_lowers_his_ml_voluntarily():
    w = admin_world()
    assert [p.rule for p in ro.ml_change(w.state, "b", "voluntary").problems] == ["3.54"]
    ch = ro.ml_change(w.state, "a", "voluntary", levels=2)
    assert ch.changes == [("a", 4, 2)]


def test_3_53_2_training_and_4_weather_and_the_0_9_range():
    w = admin_world()
    assert ro.ml_change(w.state, "b", "training").changes == [("b", 3, 4)]
    assert ro.ml_change(w.state, "a", "weather").changes == [("a", 4, 3), ("b", 3, 2)]
    w.state["leaders"]["a"]["ml"] = 0
    assert ro.ml_change(w.state, "a", "voluntary").changes == [("a", 0, 0)]


# --- 4.4 end of turn ------------------------------------------------------------------------

def test_4_4_ap_reset_to_ar_of_the_side_showing():
    w = admin_world(ap=0)
    w.leader("sleepy", U, "0909", active=False, ar=3, iar=1, ap=0)
    ro.apply_step(w.state, ro.end_of_turn(w.state))
    assert w.state["leaders"]["a"]["ap"] == 3 and w.state["leaders"]["sleepy"]["ap"] == 1


def test_10_67a_8_13_wounds_heal_a_level_a_turn_and_lower_the_ar():
    w = admin_world()
    w.state["leaders"]["a"]["wound"] = 2
    r = ro.end_of_turn(w.state)
    ro.apply_step(w.state, r)
    assert w.state["leaders"]["a"]["wound"] == 1 and w.state["leaders"]["a"]["ap"] == 3 - 1
    assert "wound" in r.why
    ro.apply_step(w.state, ro.end_of_turn(w.state))
    assert w.state["leaders"]["a"]["wound"] == 0 and w.state["leaders"]["a"]["ap"] == 3


def test_7_35a_own_use_lapses_after_its_turn():
    w = admin_world(turn=3)
    w.state["leaders"]["a"]["own_use"] = 3
    w.state["leaders"]["b"]["own_use"] = 4
    ro.apply_step(w.state, ro.end_of_turn(w.state))
    assert "own_use" not in w.state["leaders"]["a"] and w.state["leaders"]["b"]["own_use"] == 4


# --- the whole segment ---------------------------------------------------------------------

def test_13_1_destruction_comes_before_foraging_and_the_segment_ends_the_turn():
    w = world()
    w.state["sources"][U] = ["0102"]
    w.leader("a", U, "0303", stars=2, ap=3, ar=3)
    w.unit("u1", U, leader="a", steps=1)
    w.leader("c", C, "1207", stars=2, ap=2, ar=2)
    w.unit("c1", C, leader="c")
    orders = {U: {"destruction": [{"leader": "a", "town": "0303"}], "foraging": ["a"],
                  "administration": {"replacements": [{"unit": "u1"}]}},
              C: {"foraging": ["c"]}}
    # dice: town burning (Union) 6; Confederate foraging 6; attrition for the OOC Confederates 1
    results = ro.reorganization(w.state, orders, FixedDice([6, 6, 1]), HM, charts=TODAY)
    steps = [(r.step, r.side, r.legal) for r in results]
    assert steps[:4] == [("destruction", U, True), ("destruction", C, True), ("foraging", U, False),
                         ("foraging", C, True)]
    assert "a devastated town" in results[2].problems[0].message             # burned a step earlier (13.1)
    assert steps[-1] == ("end_of_turn", None, True)
    assert w.state["units"]["u1"]["steps"] == 2                        # the replacement (in supply from 0102)
    assert w.state["wep"][C] == 83                      # Eastport, a map-edge town: 5 clear hexes, 6: 3 WEP
    assert w.state["leaders"]["a"]["ap"] == 3 and w.state["leaders"]["c"]["ap"] == 2     # 4.4
    assert "0303" in w.state["devastated"]


def test_check_functions_report_without_dice():
    w = raider()
    assert ro.check_destruction(w.state, C, {"destruction": [{"leader": "forrest", "bridge": "0603/0703"}]}, HM)
    w = forager(month=2)
    assert ro.check_foraging(w.state, U, {"foraging": ["a"]}, HM)
    w = army(leaders=2)
    assert ro.check_supply_recheck(w.state, U, {"attrition": {"ml": {"a": 1}}}, HM)
    assert ro.check_administration(admin_world().state, U, {"administration": {"training": ["zz"]}}, HM, charts=TODAY)
