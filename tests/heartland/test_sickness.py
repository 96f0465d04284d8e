"""Deactivation and sickness, optional (8.13; H-14; 10.67 wounds).  Readings: ``hxref/systems/heartland/sickness.py``."""
import pytest

from factory import U, FixedDice, World
from hxref.systems.heartland import sickness as sk
from hxref.systems.heartland.reorganization import apply_step, end_of_turn
from hxref.systems.heartland.sickness import Outcome


def world(wound=0, **kw):
    w = World()
    w.state["options"] = {"sickness": True}
    w.leader("grant", U, "0303", stars=3, ar=4, iar=2, ap=4, mr=5, **kw)
    if wound:
        w.state["leaders"]["grant"]["wound"] = wound
    w.units("u", 2, U, leader="grant")
    return w


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5])
def test_h14_1_to_5_simply_deactivated(face):
    w = world()
    s = sk.sickness_check(w.state, "grant", FixedDice([face]))
    assert s.outcome is Outcome.DEACTIVATED and s.severity is None and s.rule == "8.13"
    sk.apply_sickness(w.state, s)
    ld = w.state["leaders"]["grant"]
    assert not ld["active"] and ld["ap"] == 2 and not ld.get("wound")      # 8.11: AP down to inactive AR


@pytest.mark.parametrize("severity", [1, 2, 3, 4, 5])
def test_h14_6_then_1_to_5_is_a_wound_level_of_that_many_turns(severity):
    w = world()
    s = sk.sickness_check(w.state, "grant", FixedDice([6, severity]))
    assert s.outcome is Outcome.SICK and s.wound_after == severity and s.rule == "8.13a"
    sk.apply_sickness(w.state, s)
    ld = w.state["leaders"]["grant"]
    assert ld["wound"] == severity and ld["sick"] and not ld["active"]
    assert sk.current_rating(ld, "mr") == max(0, 1 - severity)            # inactive MR 1 less the wound


def test_h11_h14_recovery_one_level_a_turn_even_in_the_pool():
    w = world()
    sk.apply_sickness(w.state, sk.sickness_check(w.state, "grant", FixedDice([6, 2])))
    w.state["leaders"]["grant"].update(pool=True, hex=None)
    for left, sick in ((1, True), (0, False)):          # the end of the turn heals a level (4.4)
        r = end_of_turn(w.state)
        apply_step(w.state, r)
        assert w.state["leaders"]["grant"]["wound"] == left and ("sick" in w.state["leaders"]["grant"]) is sick
    assert any("sickness marker comes off (8.13a)" in a.why for a in r.actions)


def test_h14_6_then_6_removed_for_the_scenario_no_vp():
    w = world()
    w.leader("sherman", U, superior="grant")
    s = sk.sickness_check(w.state, "grant", FixedDice([6, 6]))
    assert s.outcome is Outcome.REMOVED and s.leaves_map and s.heir == "sherman"
    sk.apply_sickness(w.state, s)
    ld = w.state["leaders"]["grant"]
    assert ld["removed"] and not ld.get("killed") and ld["hex"] is None and ld["no_vp"]
    assert all(u["leader"] == "sherman" for u in w.state["units"].values())   # the command passes on
    assert w.state["leaders"]["sherman"]["superior"] is None


def test_8_13a_removed_leader_without_heir_leaves_units_unled():
    w = world()
    sk.apply_sickness(w.state, sk.sickness_check(w.state, "grant", FixedDice([6, 6])))
    assert all(u["leader"] is None and u["hex"] == "0303" for u in w.state["units"].values())


def test_h14_derived_wound_3_and_severity_3_dies_of_complications():
    w = world(wound=3)
    s = sk.sickness_check(w.state, "grant", FixedDice([6, 3]))
    assert s.outcome is Outcome.DIED and s.rule == "8.13b" and s.wound_after == 6
    sk.apply_sickness(w.state, s)
    ld = w.state["leaders"]["grant"]
    assert ld["killed"] and ld["no_vp"] and ld["cause"] == "sickness"


def test_8_13b_total_below_6_adds_up_and_survives():
    w = world(wound=3)
    s = sk.sickness_check(w.state, "grant", FixedDice([6, 2]))
    assert s.outcome is Outcome.SICK and s.wound_before == 3 and s.wound_after == 5
    sk.apply_sickness(w.state, s)
    assert w.state["leaders"]["grant"]["wound"] == 5


def test_8_13b_already_wounded_and_severity_6_dies_not_removed():
    w = world(wound=1)
    s = sk.sickness_check(w.state, "grant", FixedDice([6, 6]))
    assert s.outcome is Outcome.DIED and "complications" in s.why


def test_8_13b_already_wounded_but_roll_1_to_5_only_deactivated():
    w = world(wound=4)
    s = sk.sickness_check(w.state, "grant", FixedDice([5]))
    assert s.outcome is Outcome.DEACTIVATED


def test_8_13_only_an_imc_deactivation_and_only_with_the_option():
    w = world()
    s = sk.sickness_check(w.state, "grant", FixedDice([]), cause="attrition")
    assert s.problems and s.problems[0].rule == "8.13" and s.roll is None
    w.state["options"] = {}
    assert sk.sickness_check(w.state, "grant", FixedDice([])).problems
    assert not sk.sickness_check(w.state, "grant", FixedDice([1]), optional=True).problems
    with pytest.raises(ValueError):
        sk.apply_sickness(w.state, sk.sickness_check(w.state, "grant", FixedDice([])))


def test_8_13_a_dead_or_removed_leader_is_not_checked():
    w = world(removed=True)
    assert sk.sickness_check(w.state, "grant", FixedDice([])).problems


def test_8_13_the_rolls_are_recorded_by_purpose_for_the_owner():
    w = world()
    d = FixedDice([6, 4])
    sk.sickness_check(w.state, "grant", d)
    assert [(r.purpose, r.by) for r in d.rolls] == [("sickness grant", U), ("sickness severity grant", U)]
