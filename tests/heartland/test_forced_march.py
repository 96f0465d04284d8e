"""Forced march (8.3-8.32; 3.54, 8.11, 10.22, 11.0) on the stand-in Forced March Table.
Worked examples H-9 (the distance DRM) and H-30 (pay for a leader deactivated after a forced march).

Readings: ``hxref/systems/heartland/forced_march.py``."""
import pytest

from factory import TODAY, C, U, FixedDice, World, sample_map
from hxref.geometry.paths import Prohibited
from hxref.systems.heartland import forces as fc
from hxref.systems.heartland import forced_march as fm
from hxref.systems.heartland import supply as sp
from hxref.systems.heartland.terrain import step_cost
from tests.heartland.factory import art_map

CHART = fm.ForcedMarchChart.load(TODAY)
BAD = {"S": 0, "D": 1, "L": 2, "LD": 3, "F": 4, "FL": 5}     # how bad a cell is, for the monotony checks


def marcher(mr=3, ml=3, ap=3, active=True, units=2, **kw):
    w = World()
    w.leader("a", U, "0303", stars=2, mr=mr, ml=ml, ap=ap, active=active, artillery=2, asp=3, iar=1, **kw)
    w.units("u", units, U, leader="a")
    return w


# --- the chart (stand-in data) -------------------------------------------------------------

def test_chart_is_a_marked_stand_in():
    assert CHART.stand_in and "Stand-in" in CHART.note
    assert [b.label for b in CHART.columns] == ["1-4", "5-8", "9-12", "13-16", "17-22", "23+"]
    assert CHART.rows == tuple(range(-2, 9))
    assert set(CHART.results) == set(BAD)
    assert CHART.success_costs == {"hex": {"clear": 0.5}, "lines": {"road": 0.25}}   # 8.3: the reduced costs


def test_chart_never_improves_down_a_column_or_along_a_row():
    for i, row in enumerate(CHART.rows):
        cells = [BAD[c] for c in CHART.table[row]]
        assert cells == sorted(cells), row                            # longer marches are harder
        if i:
            above = [BAD[c] for c in CHART.table[CHART.rows[i - 1]]]
            assert all(a <= b for a, b in zip(above, cells)), row      # higher rolls are worse (8.31a)


def test_chart_results_follow_8_31():
    r = CHART.results
    assert r["S"].success and not r["S"].step_losses and not r["S"].deactivate
    assert r["LD"].success and r["LD"].step_losses == 1 and r["LD"].deactivate      # 11.0: success then deactivated
    assert not r["F"].success and not r["F"].step_losses


@pytest.mark.parametrize("mp,label", [(1, "1-4"), (4, "1-4"), (5, "5-8"), (12, "9-12"), (22, "17-22"), (23, "23+"),
                                      (36, "23+")])
def test_8_31_columns_are_the_mp_rolled(mp, label):
    assert CHART.columns[CHART.column_for(mp)].label == label


def test_8_31_no_column_without_mp():
    assert CHART.column_for(0) is None
    with pytest.raises(ValueError):
        CHART.lookup(0, 3)


@pytest.mark.parametrize("modified,row", [(-9, -2), (-2, -2), (3, 3), (8, 8), (15, 8)])
def test_rows_beyond_the_chart_read_its_edges(modified, row):
    assert CHART.row_for(modified) == row


# --- 8.31a DRMs (H-9) ----------------------------------------------------------------------

def test_h9_wagon_18_mp_away_is_plus_3(tmp_path):
    hm = art_map(tmp_path, [" ".join("." * 30)])
    w = marcher()
    w.state["leaders"]["a"]["hex"] = "0101"
    w.wagon("wg", U, "1901", capacity=2)          # in supply: 9 MP from the source; 18 MP from the force
    w.state["sources"][U] = ["2801"]
    ss = sp.supply_status(w.state, U, hm)["a"]
    assert ss.nearest == 18 and ss.distance_drm == 3 and ss.state is sp.Supply.COMBAT
    r = fm.forced_march(w.state, "a", 6, FixedDice([1]), supply=ss, weather="Clear", chart=CHART)
    assert [(d.value, d.rule) for d in r.drms if d.value] == [(3, "8.31a"), (2, "8.31a"), (-3, "8.31a")]
    assert r.modified == 1 + 3 + 2 - 3


def test_h9_a_source_18_mp_away_in_full_supply(tmp_path):
    hm = art_map(tmp_path, [" ".join("." * 20)])
    w = marcher()
    w.state["leaders"]["a"]["hex"] = "0101"
    w.state["sources"][U] = ["1901"]
    ss = sp.supply_status(w.state, U, hm)["a"]
    r = fm.forced_march(w.state, "a", 6, FixedDice([2]), supply=ss, weather="Clear", chart=CHART)
    assert r.modified == 2 + 3 + 0 - 3


@pytest.mark.parametrize("nearest,drm", [(0, 0), (5, 0), (6, 1), (10, 1), (11, 2), (18, 3), (20, 3), (21, 4),
                                         (None, 4)])
def test_8_31a_1_distance_drm_per_5_mp_beyond_5_at_most_4(nearest, drm):
    r = fm.forced_march(marcher(mr=0).state, "a", 6, FixedDice([3]), supply={"state": "full", "nearest": nearest},
                        weather="Clear", chart=CHART)
    assert r.modified == 3 + drm


@pytest.mark.parametrize("state,drm", [("full", 0), ("combat", 2), ("out", 4)])
def test_8_31a_2_supply_state(state, drm):
    r = fm.forced_march(marcher(mr=0).state, "a", 6, FixedDice([3]), supply=state, weather="Clear", chart=CHART)
    assert r.modified == 3 + drm


def test_8_31a_own_use_cancels_distance_and_supply(tmp_path):
    r = fm.forced_march(marcher(mr=0).state, "a", 6, FixedDice([3]),
                        supply={"state": "out", "nearest": None, "own_use": True}, weather="Clear", chart=CHART)
    assert r.modified == 3 and "Own Use" in r.why
    hm = art_map(tmp_path, [" ".join("." * 30)])
    w = marcher(mr=0)
    w.state["leaders"]["a"]["hex"] = "0101"
    w.state["sources"][U] = ["2801"]                                   # 27 MP: out of communication
    ss = sp.supply_status(w.state, U, hm, own_use=["a"])["a"]
    assert fm.forced_march(w.state, "a", 6, FixedDice([3]), supply=ss, weather="Clear", chart=CHART).modified == 3


def test_7_35_emergency_supply_cancels_the_supply_drm_not_the_distance(tmp_path):
    hm = art_map(tmp_path, [" ".join("." * 30)])
    w = marcher(mr=0)
    w.state["leaders"]["a"]["hex"] = "0101"
    w.wagon("wg", U, "0201")                                           # within MR hexes? MR 0: no
    w.wagon("far", U, "1901")
    w.state["leaders"]["a"]["ratings"]["active"]["mr"] = 1
    w.state["sources"][U] = ["2801"]
    ss = sp.supply_status(w.state, U, hm, emergency={"a": "wg"})["a"]
    assert ss.state is sp.Supply.FULL and ss.emergency == "wg"
    r = fm.forced_march(w.state, "a", 6, FixedDice([3]), supply=ss, weather="Clear", chart=CHART)
    assert r.modified == 3 + 3 - 1                                     # distance to the far wagon still counts


@pytest.mark.parametrize("weather,drm", [("Clear", 0), ("Light Rain", 0), ("Rain", 1), ("Mud", 3), ("Snow", 2),
                                         ("Blizzard", 4), ("Cold", 0)])
def test_8_31a_3_weather(weather, drm):
    r = fm.forced_march(marcher(mr=0).state, "a", 6, FixedDice([1]), weather=weather, chart=CHART)
    assert r.modified == 1 + drm


def test_8_31a_weather_defaults_to_the_turns():
    s = marcher(mr=0).state
    s["current"] = {"weather": {"result": "Mud"}}
    assert fm.forced_march(s, "a", 6, FixedDice([1]), chart=CHART).modified == 4


def test_8_31a_4_and_3_54_ml_given_up_now_and_with_the_imc_roll():
    w = marcher(mr=2, ml=4)
    r = fm.forced_march(w.state, "a", 6, FixedDice([6]), weather="Clear", voluntary_ml=2, imc_ml=1, chart=CHART)
    assert r.modified == 6 - 2 - 1 - 2
    assert r.ml_after == 2 and w.state["leaders"]["a"]["ml"] == 4     # pure until applied
    fm.apply_forced_march(w.state, r)
    assert w.state["leaders"]["a"]["ml"] == 2                          # the IMC's level was paid already


def test_3_54_cannot_give_up_more_ml_than_he_has():
    r = fm.forced_march(marcher(ml=1).state, "a", 6, FixedDice([]), voluntary_ml=2, chart=CHART)
    assert not r.legal and r.problems[0].rule == "3.54, 8.31a" and r.roll is None


def test_8_31a_5_minus_the_ocs_mr_less_his_wound():
    w = marcher(mr=4)
    w.state["leaders"]["a"]["wound"] = 1                                # 10.67: every rating -1
    r = fm.forced_march(w.state, "a", 6, FixedDice([6]), weather="Clear", chart=CHART)
    assert r.modified == 6 - 3


def test_8_31a_all_drms_cumulative():
    w = marcher(mr=3)
    r = fm.forced_march(w.state, "a", 10, FixedDice([4]), supply={"state": "combat", "nearest": 12},
                        weather="Mud", voluntary_ml=1, chart=CHART)
    assert r.modified == 4 + 2 + 2 + 3 - 1 - 3 == 7
    assert r.column == "9-12" and r.code == "F" and not r.success


# --- results (8.31a, 8.31b, 8.31c) ---------------------------------------------------------

def test_8_31_success_halves_cf_and_artillery_this_impulse():
    r = fm.forced_march(marcher(mr=3).state, "a", 6, FixedDice([1]), weather="Clear", chart=CHART)    # 1-3 = -2: S
    assert r.code == "S" and r.success and r.cf_halved and r.artillery_halved
    assert not r.deactivate and not r.no_zoc_entry and r.losses is None
    assert "8.31c" in r.why and "[stand-in Forced March Table]" in r.why


def test_8_31b_failure_moves_at_normal_costs_at_full_strength():
    r = fm.forced_march(marcher(mr=0).state, "a", 30, FixedDice([6]), weather="Clear", chart=CHART)   # 6: F in 23+? FL
    assert not r.success and not r.cf_halved
    r = fm.forced_march(marcher(mr=0).state, "a", 2, FixedDice([6]), weather="Rain", chart=CHART)     # 7, column 1-4: F
    assert r.code == "F" and r.step_losses == 0


def test_8_31a_step_loss_is_immediate():
    w = marcher(mr=0)
    r = fm.forced_march(w.state, "a", 2, FixedDice([5]), weather="Clear", chart=CHART)                 # 5, column 1-4: L
    assert r.code == "L" and r.success and r.losses.losses[0].unit == "u1"
    assert w.state["units"]["u1"]["steps"] == 2                                            # pure
    fm.apply_forced_march(w.state, r)
    assert w.state["units"]["u1"]["steps"] == 1


def test_8_31a_the_order_names_the_unit():
    w = marcher(mr=0)
    r = fm.forced_march(w.state, "a", 2, FixedDice([5]), weather="Clear", loss_unit="u2", chart=CHART)
    fm.apply_forced_march(w.state, r)
    assert w.state["units"]["u2"]["steps"] == 1 and w.state["units"]["u1"]["steps"] == 2


def test_8_31a_the_named_unit_must_be_the_forces():
    w = marcher()
    w.unit("other", U, hex="0909")
    r = fm.forced_march(w.state, "a", 2, FixedDice([]), loss_unit="other", chart=CHART)
    assert not r.legal and r.problems[0].rule == "8.31a"


def test_8_31a_a_leader_left_without_units_goes_to_the_pool_losing_asp_and_artillery():
    w = marcher(mr=0, units=1)
    w.state["units"]["u1"]["steps"] = 1
    w.wagon("wg", U, None, leader="a")
    r = fm.forced_march(w.state, "a", 2, FixedDice([5]), weather="Clear", chart=CHART)
    assert r.to_pool == ["a"] and "Leader Pool" in r.why
    fm.apply_forced_march(w.state, r)
    a = w.state["leaders"]["a"]
    assert a["pool"] and a["hex"] is None and a["asp"] == 0 and a["artillery"] == 0
    assert w.state["logistics"]["wg"]["leader"] is None and w.state["logistics"]["wg"]["hex"] == "0303"
    assert fm.march_end(w.state, r) is None


def test_8_31a_an_sl_left_without_units_goes_to_the_pool_the_oc_stays():
    w = World()
    w.leader("a", U, "0303", stars=3, hq=True, mr=0)
    w.leader("b", U, stars=2, superior="a")
    w.unit("ua", U, leader="a")
    w.unit("ub", U, leader="b", steps=1)
    r = fm.forced_march(w.state, "a", 2, FixedDice([5]), weather="Clear", loss_unit="ub", chart=CHART)
    fm.apply_forced_march(w.state, r)
    assert r.to_pool == ["b"] and w.state["leaders"]["b"]["pool"] and not w.state["leaders"]["a"].get("pool")


def test_8_31b_deactivation_at_the_end_of_the_move_and_no_zoc_entry():
    w = marcher(mr=0, ap=3)
    r = fm.forced_march(w.state, "a", 2, FixedDice([3]), weather="Clear", chart=CHART)                 # 3, column 1-4: D
    assert r.code == "D" and r.success and r.deactivate and r.no_zoc_entry and r.deactivates == ["a"]
    fm.apply_forced_march(w.state, r)
    assert w.state["leaders"]["a"]["active"]                                               # not yet
    d = fm.apply_march_end(w.state, r)
    assert d.rule == "8.11" and not w.state["leaders"]["a"]["active"]
    assert w.state["leaders"]["a"]["ap"] == 1                                              # 8.11: inactive AR


def test_8_31b_no_zoc_entry_cuts_the_path_before_enemy_zoc():
    assert fm.truncate_at_zoc(["0404", "0505", "0606"], {"0505"}) == ["0404"]
    assert fm.truncate_at_zoc(["0404"], set()) == ["0404"]


def test_h30_11_0_a_leader_deactivated_after_a_forced_march_is_paid():
    w = World()
    for i in range(6):
        w.leader(f"l{i}", U, f"01{i + 1:02d}", mr=0)
        w.unit(f"x{i}", U, leader=f"l{i}")
    w.leader("marcher", U, "0808", mr=0)
    w.unit("m1", U, leader="marcher")
    w.leader("idle", U, "0909", active=False)                           # voluntarily deactivated: not paid
    r = fm.forced_march(w.state, "marcher", 2, FixedDice([3]), weather="Clear", chart=CHART)
    fm.apply_forced_march(w.state, r)
    fm.apply_march_end(w.state, r)
    pay = fc.leader_pay(w.state, U, involuntary=r.deactivates)
    assert pay.amount == 7 and "marcher" in pay.paid and "idle" not in pay.paid


# --- who may force-march (8.3, 8.32) -------------------------------------------------------

def test_8_3_only_active_leaders():
    r = fm.forced_march(marcher(active=False).state, "a", 4, FixedDice([]), chart=CHART)
    assert not r.legal and r.problems[0].rule == "8.3, 8.1" and r.roll is None


def test_8_3_unled_units_cannot():
    w = World()
    w.unit("x", U, hex="0505")
    r = fm.forced_march(w.state, "unled@0505", 4, FixedDice([]), chart=CHART)
    assert not r.legal and r.problems[0].rule == "8.3, 8.1"


def test_8_32_a_wagon_cannot_force_march_alone():
    w = World()
    w.wagon("wg", U, "0505")
    r = fm.forced_march(w.state, "wg", 8, FixedDice([]), chart=CHART)
    assert not r.legal and r.problems[0].rule == "8.32" and "only as part of a force" in r.why


def test_8_32_a_wagon_with_a_force_is_no_problem():
    w = marcher()
    w.wagon("wg", U, None, leader="a")
    assert fm.forced_march(w.state, "a", 4, FixedDice([1]), weather="Clear", chart=CHART).legal


def test_8_31_an_sl_does_not_march_on_his_own():
    w = World()
    w.leader("a", U, "0303", stars=3, hq=True)
    w.leader("b", U, stars=2, superior="a")
    r = fm.forced_march(w.state, "b", 4, FixedDice([]), chart=CHART)
    assert not r.legal and r.problems[0].rule == "8.31"


@pytest.mark.parametrize("mp", [0, -1, 2.5, None])
def test_8_31_needs_mp_from_the_imc(mp):
    r = fm.forced_march(marcher().state, "a", mp, FixedDice([]), chart=CHART)
    assert not r.legal and any(p.rule == "8.31" for p in r.problems)


def test_applying_an_illegal_forced_march_is_refused():
    r = fm.forced_march(marcher(active=False).state, "a", 4, FixedDice([]), chart=CHART)
    with pytest.raises(ValueError):
        fm.apply_forced_march(marcher().state, r)


# --- terrain (8.3, 8.32a) ------------------------------------------------------------------

def step(hm, a, b):
    return fm.march_step_problem(hm, hm.parse(a), hm.parse(b))


def test_8_32a_clear_and_towns_off_road_are_allowed():
    hm = sample_map()
    assert step(hm, "0404", "0304") is None                  # clear
    assert step(hm, "0302", "0303") is None                  # a town in a clear hex, off road


@pytest.mark.parametrize("a,b,what", [("0404", "0405", "woods"), ("1003", "1002", "rough"),
                                      ("1104", "1103", "broken"), ("0409", "0510", "swamp"),
                                      ("0704", "0705", "major city")])
def test_8_32a_other_terrain_off_road_is_not(a, b, what):
    p = step(sample_map(), a, b)
    assert isinstance(p, Prohibited) and "8.32a" in p.reason and what in p.reason


def test_8_32a_a_major_city_along_a_road_is_allowed():
    assert step(sample_map(), "0604", "0705") is None


def test_8_32a_rail_is_not_a_road(tmp_path):
    hm = art_map(tmp_path, [". w r", ". . ."], lines=[("rail", ["0101", "0201"]), ("road", ["0201", "0301"])])
    p = step(hm, "0101", "0201")
    assert isinstance(p, Prohibited) and "rail line is not a road" in p.reason
    assert step(hm, "0201", "0301") is None                  # rough along a road


def test_8_32a_path_problems_point_at_the_step():
    ps = fm.march_path_problems(["0304", "0405"], start="0404", hexmap=sample_map(), index=2)
    assert ps and ps[0].rule == "8.32a" and ps[0].path == ["moves", 2, "path", 1]
    assert fm.march_path_problems(["0403", "0504"], start="0303", hexmap=sample_map()) == []


def test_8_3_success_reduces_clear_and_road_costs_weather_added(tmp_path):
    hm = art_map(tmp_path, [". . w .", ". . . ."], lines=[("road", ["0201", "0301"])])
    fast = fm.march_step_cost(hm, weather="Clear", side=U, chart=CHART)
    slow = step_cost(hm, weather="Clear", side=U)
    h = hm.parse
    assert slow(h("0101"), h("0201")) == 1 and fast(h("0101"), h("0201")) == 0.5          # clear
    assert slow(h("0201"), h("0301")) == 0.5 and fast(h("0201"), h("0301")) == 0.25       # woods along the road
    assert isinstance(fast(h("0401"), h("0301")), Prohibited)                              # woods off road
    rain = fm.march_step_cost(hm, weather="Rain", side=U, chart=CHART)
    assert rain(h("0101"), h("0201")) == 1.5 and rain(h("0201"), h("0301")) == 1.25       # +1 each (5.23)
    assert step_cost(hm, weather="Rain", side=U)(h("0101"), h("0201")) == 2


def test_8_3_the_reduced_map_leaves_the_original_alone():
    hm = sample_map()
    fm.march_map(hm, chart=CHART)
    assert hm.types["hex"]["clear"].move == 1 and hm.types["lines"]["road"].move == 0.5


def test_a_confederate_march_on_the_sample_map():
    w = World()
    w.leader("c", C, "0805", mr=2)
    w.unit("c1", C, leader="c", size="brigade")
    r = fm.forced_march(w.state, "c", 8, FixedDice([2]), weather="Snow", chart=CHART)
    assert r.modified == 2 + 2 - 2 and r.column == "5-8" and r.code == "D"
