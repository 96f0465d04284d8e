"""The IMC (8.21, 8.22; stand-in chart), voluntary ML (3.54), supply halving (7.32, 7.33),
deactivation (8.11) and reactivation (8.12).  Readings: ``hxref/systems/heartland/imc.py``."""
import pytest

from factory import TODAY, C, U, FixedDice, World, sample_map
from hxref.systems.heartland import forces as fc
from hxref.systems.heartland import imc

CHART = imc.IMCChart.load(TODAY)


# --- the chart (stand-in data) -------------------------------------------------------------

def test_chart_is_a_marked_stand_in_with_six_levels_and_mr_1_to_6():
    assert CHART.stand_in and "Stand-in" in CHART.note
    assert sorted(CHART.levels) == [1, 2, 3, 4, 5, 6]
    assert CHART.columns == (1, 2, 3, 4, 5, 6)
    assert CHART.rows == (0, 1, 2, 3, 4, 5, 6, 7)
    for rows in CHART.levels.values():
        assert sorted(rows) == list(CHART.rows) and all(len(r) == 6 for r in rows.values())


def test_chart_low_rolls_good_mr_and_high_levels_never_give_less():
    for lv in range(1, 7):
        for mr in range(1, 7):
            col = [CHART.lookup(lv, mr, row) for row in CHART.rows]
            assert col == sorted(col, reverse=True), (lv, mr)     # 8.22d: - is favourable
            if mr > 1:
                assert all(CHART.lookup(lv, mr, r) >= CHART.lookup(lv, mr - 1, r) for r in CHART.rows)
            if lv > 1:
                assert all(CHART.lookup(lv, mr, r) >= CHART.lookup(lv - 1, mr, r) for r in CHART.rows)


def test_4_0_level_5_good_mr_best_roll_gives_up_to_30():
    assert CHART.lookup(5, 6, 0) == 30
    assert max(max(r) for r in CHART.levels[5].values()) == 30


def test_8_11_low_levels_and_poor_mr_have_zero_cells():
    assert CHART.lookup(1, 1, 6) == 0 and CHART.lookup(2, 3, 7) == 0
    assert all(CHART.lookup(6, mr, row) > 0 for mr in range(1, 7) for row in range(0, 7))


@pytest.mark.parametrize("modified,row", [(-3, 0), (0, 0), (1, 1), (6, 6), (7, 7), (9, 7)])
def test_chart_rows_below_0_read_row_0_and_above_7_read_row_7(modified, row):
    assert CHART.row_for(modified) == row


@pytest.mark.parametrize("mr,col", [(0, 1), (1, 1), (6, 6), (8, 6)])
def test_chart_mr_outside_1_6_reads_the_nearest_column(mr, col):
    assert CHART.column_for(mr) == col
    assert CHART.lookup(3, mr, 2) == CHART.lookup(3, col, 2)


# --- 8.21 / 8.22 the roll ------------------------------------------------------------------

def one_leader(mr=4, ml=3, **kw):
    w = World()
    w.leader("a", U, "0303", stars=2, mr=mr, ml=ml, **kw)
    w.units("u", 2, U, leader="a")
    return w


def test_8_22a_oc_mr_and_die_read_the_table_of_the_level_committed():
    w = one_leader(mr=4)
    res = imc.imc_roll(w.state, "a", 3, FixedDice([2]), chart=CHART)
    assert res.legal and res.roll == 2 and res.modified == 2 and res.table == 3
    assert res.mp == CHART.lookup(3, 4, 2) and res.rule == "8.22" and res.stand_in
    assert "stand-in" in res.why


def test_8_22a_inactive_sl_under_active_commander_moves_on_the_commanders_mr():
    w = World()
    w.leader("oc", U, "0303", stars=3, mr=5)
    w.leader("sl", U, stars=2, superior="oc", active=False, imr=1)
    w.unit("u", U, leader="sl")
    res = imc.imc_roll(w.state, "oc", 2, FixedDice([3]), chart=CHART)
    assert res.mr == 5 and res.oc == "oc"


def test_8_21_an_sl_does_not_roll_apart_from_his_force():
    w = World()
    w.leader("oc", U, "0303", stars=3)
    w.leader("sl", U, stars=2, superior="oc")
    res = imc.imc_roll(w.state, "sl", 2, FixedDice([]), chart=CHART)
    assert res.problems[0].rule == "8.21" and res.roll is None


def test_8_22d_two_or_more_leaders_plus_1_including_boxed_sls():
    w = World()
    w.leader("ac", U, "0303", stars=3, hq=True, mr=4)
    w.leader("sl", U, stars=2, superior="ac")
    w.state["leaders"]["sl"]["hex"] = None
    res = imc.imc_roll(w.state, "ac", 3, FixedDice([2]), chart=CHART)
    assert [d.value for d in res.drms] == [1] and res.modified == 3
    assert res.mp == CHART.lookup(3, 4, 3)


def test_8_22c_cavalry_only_force_reads_one_level_higher():
    w = World()
    w.leader("forrest", C, "0303", stars=2, mr=5)
    w.units("cav", 2, C, leader="forrest", arm="cavalry", size="brigade")
    res = imc.imc_roll(w.state, "forrest", 2, FixedDice([3]), chart=CHART)
    assert res.table == 3 and res.mp == CHART.lookup(3, 5, 3) and res.drms == []


def test_8_22c_cavalry_only_at_level_6_stays_on_the_level_6_table():
    w = World()
    w.leader("forrest", C, "0303", stars=2, mr=5)
    w.unit("cav", C, leader="forrest", arm="cavalry")
    res = imc.imc_roll(w.state, "forrest", 6, FixedDice([3]), chart=CHART)
    assert res.table == 6 and "no level 7" in res.why


def test_8_22cd_cavalry_corps_gets_the_higher_table_and_minus_1():
    w = World()
    w.leader("wheeler", C, "0303", stars=2, mr=4, cavalry_corps=True)
    w.units("cav", 3, C, leader="wheeler", arm="cavalry")
    res = imc.imc_roll(w.state, "wheeler", 2, FixedDice([3]), chart=CHART)
    assert res.table == 3 and [d.value for d in res.drms] == [-1] and res.modified == 2


def test_3_12_a_corps_flag_on_a_mixed_force_gives_nothing():
    w = World()
    w.leader("wheeler", C, "0303", stars=2, cavalry_corps=True)
    w.unit("cav", C, leader="wheeler", arm="cavalry")
    w.unit("inf", C, leader="wheeler", size="brigade")
    res = imc.imc_roll(w.state, "wheeler", 2, FixedDice([3]), chart=CHART)
    assert res.table == 2 and res.drms == []


def test_3_54_voluntary_ml_gives_minus_1_per_level_and_lowers_the_oc_ml():
    w = one_leader(mr=3, ml=4)
    res = imc.imc_roll(w.state, "a", 4, FixedDice([3]), voluntary_ml=2, chart=CHART)
    assert res.modified == 1 and res.ml_after == 2 and res.mp == CHART.lookup(4, 3, 1)
    imc.apply_imc(w.state, res)
    assert w.state["leaders"]["a"]["ml"] == 2


def test_3_54_cannot_give_up_more_ml_than_the_oc_has():
    w = one_leader(ml=1)
    res = imc.imc_roll(w.state, "a", 4, FixedDice([]), voluntary_ml=2, chart=CHART)
    assert res.problems[0].rule == "3.54" and res.roll is None


def test_3_54_voluntary_ml_lowers_only_the_oc():
    w = World()
    w.leader("oc", U, "0303", stars=3, ml=5)
    w.leader("sl", U, stars=2, superior="oc", ml=5)
    res = imc.imc_roll(w.state, "oc", 3, FixedDice([4]), voluntary_ml=1, chart=CHART)
    imc.apply_imc(w.state, res)
    assert w.state["leaders"]["oc"]["ml"] == 4 and w.state["leaders"]["sl"]["ml"] == 5


@pytest.mark.parametrize("supply,mp", [("full", 11), ("combat", 6), ("out", 6)])
def test_7_32_7_33_combat_or_out_of_supply_halves_mp_rounding_up(supply, mp):
    w = one_leader(mr=3)
    assert CHART.lookup(3, 3, 1) == 11
    res = imc.imc_roll(w.state, "a", 3, FixedDice([1]), supply=supply, chart=CHART)
    assert res.mp == mp and res.halved == (supply != "full")


def test_7_33_halving_one_mp_leaves_one():
    w = one_leader(mr=6)
    assert CHART.lookup(1, 6, 6) == 1
    res = imc.imc_roll(w.state, "a", 1, FixedDice([6]), supply="combat", chart=CHART)
    assert res.mp == 1 and not res.deactivates


def test_imc_refuses_bad_level_and_supply():
    w = one_leader()
    assert imc.imc_roll(w.state, "a", 7, FixedDice([]), chart=CHART).problems[0].rule == "8.22"
    assert imc.imc_roll(w.state, "a", 2, FixedDice([]), supply="some", chart=CHART).problems[0].rule == "7.3"


# --- 8.22b unled forces --------------------------------------------------------------------

def test_8_22b_unled_infantry_uses_mr_1():
    w = World()
    w.unit("d", U, hex="0505")
    res = imc.imc_roll(w.state, "unled@0505", 3, FixedDice([2]), chart=CHART)
    assert res.mr == 1 and res.oc is None and res.mp == CHART.lookup(3, 1, 2)


def test_8_22b_unled_cavalry_uses_mr_2_and_the_higher_table():
    w = World()
    w.unit("c", C, hex="0505", arm="cavalry", size="brigade")
    res = imc.imc_roll(w.state, "unled@0505", 3, FixedDice([2]), chart=CHART)
    assert res.mr == 2 and res.table == 4


def test_8_22b_unled_mixed_infantry_and_cavalry_uses_mr_1():
    w = World()
    w.unit("c", C, hex="0505", arm="cavalry", size="brigade")
    w.unit("e", C, hex="0505", arm="engineer", size="brigade")
    assert imc.imc_roll(w.state, "unled@0505", 3, FixedDice([2]), chart=CHART).mr == 1


def test_8_22b_unled_detachments_alone_cannot_move():
    w = World()
    w.unit("det", U, hex="0505", arm="detachment", size="regiment", cf=(1, 1))
    res = imc.imc_roll(w.state, "unled@0505", 3, FixedDice([]), chart=CHART)
    assert res.problems[0].rule == "8.22b, 8.52"


def test_8_52_unled_detachments_ride_with_the_wagon_not_on_an_imc_roll():
    # 7.21, 8.52: the wagon moves them with its own 8 MP (.wagons); they roll no IMC of their own
    w = World()
    w.unit("det", U, hex="0505", arm="detachment", size="regiment", cf=(1, 1))
    w.wagon("w", U, "0505")
    res = imc.imc_roll(w.state, "unled@0505", 3, FixedDice([]), chart=CHART)
    assert res.problems[0].rule == "8.22b, 8.52" and "move the wagon w" in res.problems[0].message


def test_8_22b_unled_detachments_stay_behind_without_a_wagon():
    w = World()
    w.unit("det", U, hex="0505", arm="detachment", size="regiment", cf=(1, 1))
    w.unit("d", U, hex="0505")
    res = imc.imc_roll(w.state, "unled@0505", 3, FixedDice([2]), chart=CHART)
    assert res.legal and res.left_behind == ["det"]


def test_3_54_an_unled_force_has_no_ml_to_give_up():
    w = World()
    w.unit("d", U, hex="0505")
    res = imc.imc_roll(w.state, "unled@0505", 3, FixedDice([]), voluntary_ml=1, chart=CHART)
    assert res.problems[0].rule == "3.54"


# --- lending MR (3.24b, 8.25b, 3.31a) ------------------------------------------------------

def test_8_25b_army_commander_in_range_lends_mr_for_1_ap():
    m = sample_map()
    w = World()
    w.leader("ac", U, "0101", stars=3, hq=True, mr=5, ap=2)
    w.leader("slow", U, "0303", stars=2, mr=1)
    w.unit("u", U, leader="slow")
    res = imc.imc_roll(w.state, "slow", 3, FixedDice([2]), mr_from="ac", hexmap=m, chart=CHART)
    assert res.mr == 5 and [(c.leader, c.ap) for c in res.charges] == [("ac", 1)]
    imc.apply_imc(w.state, res)
    assert w.state["leaders"]["ac"]["ap"] == 1


def test_3_31a_lending_out_of_command_range_is_refused():
    m = sample_map()
    w = World()
    w.leader("ac", U, "0101", stars=3, hq=True, mr=1)
    w.leader("slow", U, "0303", stars=2, mr=1)
    res = imc.imc_roll(w.state, "slow", 3, FixedDice([]), mr_from="ac", hexmap=m, chart=CHART)
    assert res.problems[0].rule == "3.31a"


# --- 8.11 deactivation ---------------------------------------------------------------------

def test_8_11_under_1_mp_deactivates_the_oc_and_cuts_his_ap():
    w = one_leader(mr=1, ar=3, iar=1)
    res = imc.imc_roll(w.state, "a", 1, FixedDice([6]), chart=CHART)
    assert res.mp == 0 and res.deactivates and "8.11" in res.why
    imc.apply_imc(w.state, res)
    assert w.state["leaders"]["a"]["active"] is False and w.state["leaders"]["a"]["ap"] == 1


def test_8_11_ap_already_below_the_inactive_ar_are_not_cut_further():
    w = World()
    w.leader("a", U, "0303", ar=4, iar=2, ap=1)
    d = imc.deactivation(w.state, "a")
    assert (d.ap_before, d.ap_after, d.rule) == (1, 1, "8.11")


def test_8_12a_voluntary_deactivation():
    w = World()
    w.leader("a", U, "0303", ar=4, iar=2)
    d = imc.deactivation(w.state, "a", voluntary=True)
    imc.apply_deactivation(w.state, d)
    assert d.rule == "8.12a" and w.state["leaders"]["a"]["active"] is False
    assert w.state["leaders"]["a"]["ap"] == 2
    assert fc.leader_pay(w.state, U).amount == 0        # 11.0: not paid


def test_8_11_an_unled_force_with_0_mp_deactivates_nobody():
    w = World()
    w.unit("d", U, hex="0505")
    res = imc.imc_roll(w.state, "unled@0505", 1, FixedDice([6]), chart=CHART)
    assert res.mp == 0 and not res.deactivates


# --- 8.12 reactivation ---------------------------------------------------------------------

def sleeper(**kw):
    w = World()
    w.leader("s", U, "0303", stars=2, active=False, iar=2, imr=2, **kw)
    w.unit("u", U, leader="s")
    return w


@pytest.mark.parametrize("face,ok", [(1, True), (2, True), (3, False), (6, False)])
def test_8_12_method_1_roll_at_most_the_inactive_ar(face, ok):
    w = sleeper()
    r = imc.reactivation(w.state, "s", 1, FixedDice([face]), chart=CHART)
    assert r.success == ok and r.roll == face
    imc.apply_reactivation(w.state, r)
    assert w.state["leaders"]["s"]["active"] is ok


def test_8_12_method_2_army_commander_in_range_orders_it_for_1_ap():
    m = sample_map()
    w = sleeper()
    w.leader("ac", U, "0101", stars=3, hq=True, mr=3, ap=2)
    r = imc.reactivation(w.state, "s", 2, commander="ac", hexmap=m, chart=CHART)
    assert r.success and [(c.leader, c.ap) for c in r.charges] == [("ac", 1)]
    imc.apply_reactivation(w.state, r)
    assert w.state["leaders"]["s"]["active"] and w.state["leaders"]["ac"]["ap"] == 1


def test_8_12_method_2_needs_an_active_army_commander_in_range():
    m = sample_map()
    w = sleeper()
    w.leader("ac", U, "0101", stars=3, hq=True, mr=1)
    w.leader("plain", U, "0302", stars=3)
    assert imc.reactivation(w.state, "s", 2, commander="ac", hexmap=m, chart=CHART).problems[0].rule == "8.12"
    assert imc.reactivation(w.state, "s", 2, commander="plain", hexmap=m, chart=CHART).problems[0].rule == "3.31b"
    assert imc.reactivation(w.state, "s", 2, hexmap=m, chart=CHART).problems[0].rule == "8.12"


def test_8_12_method_3_wdo_costs_10_wep_once_per_turn():
    w = sleeper()
    r = imc.reactivation(w.state, "s", 3, wep=25, chart=CHART)
    assert r.success and r.wep == 10
    assert imc.reactivation(w.state, "s", 3, wep=9, chart=CHART).problems[0].rule == "3.41a"
    assert imc.reactivation(w.state, "s", 3, wep=50, wdo_used=True, chart=CHART).problems[0].rule == "3.41a"


def test_8_12_method_4_imc_with_inactive_mr_obtaining_mp_reactivates():
    w = sleeper()
    r = imc.reactivation(w.state, "s", 4, FixedDice([2]), level=3, chart=CHART)
    assert r.success and r.imc.mr == 2 and r.imc.mp == CHART.lookup(3, 2, 2) and r.imc.reactivates
    imc.apply_reactivation(w.state, r)
    assert w.state["leaders"]["s"]["active"]


def test_8_12_method_4_no_mp_leaves_him_inactive():
    w = sleeper()
    r = imc.reactivation(w.state, "s", 4, FixedDice([6]), level=1, chart=CHART)
    assert not r.success and r.imc.mp == 0 and not r.imc.deactivates


def test_8_12a_one_method_per_impulse_and_only_inactive_leaders():
    w = sleeper()
    assert imc.reactivation(w.state, "s", 1, FixedDice([]), tried=True, chart=CHART).problems[0].rule == "8.12a"
    w.leader("awake", U, "0505")
    assert imc.reactivation(w.state, "awake", 1, FixedDice([]), chart=CHART).problems[0].rule == "8.12"
    assert imc.reactivation(w.state, "s", 5, chart=CHART).problems[0].rule == "8.12"
    assert imc.reactivation(w.state, "s", 4, FixedDice([]), chart=CHART).problems[0].rule == "8.12"   # no level


def test_8_12_inactive_oc_rolling_the_imc_reactivates_only_if_no_method_was_tried():
    w = sleeper()
    assert imc.imc_roll(w.state, "s", 3, FixedDice([2]), chart=CHART).reactivates
    assert not imc.imc_roll(w.state, "s", 3, FixedDice([2]), reactivation_tried=True, chart=CHART).reactivates


def test_apply_refuses_illegal_results():
    w = sleeper()
    with pytest.raises(ValueError):
        imc.apply_imc(w.state, imc.imc_roll(w.state, "s", 9, FixedDice([]), chart=CHART))
    with pytest.raises(ValueError):
        imc.apply_reactivation(w.state, imc.reactivation(w.state, "s", 9, chart=CHART))


def test_imc_roll_is_recorded_with_its_purpose():
    w = one_leader()
    dice = FixedDice([4])
    imc.imc_roll(w.state, "a", 2, dice, chart=CHART)
    assert dice.rolls[0].purpose == "IMC a (level 2)" and dice.rolls[0].by == U
