"""Forces, command, morale, pay and AP: rules 3.22-3.24, 3.52, 4.25/11.0, 8.25 (worked examples
H-15, H-16, H-17, H-18, H-19, H-30).  The readings pinned here are listed in
``hxref/systems/heartland/forces.py``."""
from fractions import Fraction

import pytest

from factory import TODAY, C, U, FixedDice, World, sample_map
from hxref.systems.heartland import forces as fc
from hxref.systems.heartland import imc, model

IMC = imc.IMCChart.load(TODAY)


# --- 3.22 the OC ---------------------------------------------------------------------------

def test_3_22_h17_army_commander_outranks_two_star_and_brevet_three_star():
    w = World()
    w.leader("thomas", U, "0303", stars=3, hq=True)
    w.leader("two", U, "0303", stars=2)
    w.leader("brev", U, "0303", stars=2, brevet=1)
    cmd = fc.hex_command(w.state, "0303", U)
    assert cmd.oc == "thomas" and sorted(cmd.sls) == ["brev", "two"]
    assert cmd.rule == "3.22" and "army commander" in cmd.why
    # 3.22a: the brevet 3-star and the 3-star stack because an army commander is there
    assert fc.check_stacking(w.state, ["thomas", "two", "brev"]).legal


def test_3_22_army_commander_outranks_a_four_star_who_is_not_one():
    w = World()
    w.leader("ac", U, "0303", stars=3, hq=True)
    w.leader("four", U, "0303", stars=4)
    assert fc.overall_commander(w.state, "0303", U) == "ac"


def test_3_22_intrinsic_stars_before_brevet():
    w = World()
    w.leader("old", U, "0303", stars=3)
    w.leader("brev", U, "0303", stars=1, brevet=3)      # 4 stars with brevet
    assert fc.overall_commander(w.state, "0303", U) == "old"


def test_3_22_brevet_breaks_a_tie_of_intrinsic_stars():
    w = World()
    w.leader("a", U, "0303", stars=2)
    w.leader("b", U, "0303", stars=2, brevet=1)
    assert fc.overall_commander(w.state, "0303", U) == "b"


def test_3_22_lone_leader_is_oc_and_empty_hex_has_none():
    w = World()
    w.leader("solo", C, "0505", stars=1)
    assert fc.overall_commander(w.state, "0505", C) == "solo"
    assert fc.overall_commander(w.state, "0505", U) is None
    assert fc.hex_command(w.state, "0101", C).oc is None


def test_3_22_tie_between_army_commanders_is_flagged():
    w = World()
    w.leader("a", U, "0303", stars=3, hq=True)
    w.leader("b", U, "0303", stars=3, hq=True)
    cmd = fc.hex_command(w.state, "0303", U)
    assert cmd.oc == "a" and cmd.tied == ["b"]


def test_3_22_overall_commander_of_a_list_of_leaders():
    w = World()
    w.leader("a", U, "0303", stars=2)
    w.leader("b", U, "0303", stars=3)
    assert fc.overall_commander(w.state, ["a", "b"]) == "b"
    assert fc.overall_commander(w.state, []) is None
    with pytest.raises(TypeError):
        fc.overall_commander(w.state, "0303")


def test_3_22_force_oc_is_its_senior_leader():
    w = World()
    w.leader("bragg", C, "0303", stars=4, hq=True)
    w.leader("polk", C, stars=3, superior="bragg")
    assert fc.force_oc(w.state, "bragg") == "bragg"
    assert fc.force_oc(w.state, "unled@0303") is None


# --- 3.22a / 3.23 stacking -----------------------------------------------------------------

def test_3_22a_h17_two_same_rank_leaders_without_hq_cannot_stack():
    w = World()
    w.leader("a", U, "0303", stars=2)
    w.leader("b", U, "0303", stars=2)
    s = fc.check_stacking(w.state, ["a", "b"])
    assert not s.legal and s.problems[0].rule == "3.22a"


def test_3_22a_same_rank_counts_brevet_stars():
    w = World()
    w.leader("a", U, "0303", stars=3)
    w.leader("b", U, "0303", stars=2, brevet=1)
    assert not fc.check_stacking(w.state, ["a", "b"]).legal


def test_3_22a_same_rank_leaders_stack_with_an_army_commander():
    w = World()
    w.leader("ac", U, "0303", stars=4, hq=True)
    w.leader("a", U, "0303", stars=2, superior="ac")
    w.leader("b", U, "0303", stars=2, superior="ac")
    assert fc.check_stacking(w.state, ["ac"]).legal


def test_3_22a_different_ranks_stack():
    w = World()
    w.leader("a", U, "0303", stars=3)
    w.leader("b", U, "0303", stars=2)
    assert fc.check_stacking(w.state, ["a", "b"]).legal


def test_3_23_h17_union_two_star_leads_three_divisions_plus_cavalry_and_wagons():
    w = World()
    w.leader("mc", U, "0303", stars=2)
    w.units("inf", 3, U, leader="mc")
    w.units("cav", 4, U, leader="mc", arm="cavalry")
    w.unit("eng", U, leader="mc", arm="engineer", size="brigade")
    w.unit("det", U, leader="mc", arm="detachment", size="regiment")
    w.wagon("w1", U, "0303", leader="mc")
    s = fc.check_stacking(w.state, ["mc"])
    assert s.legal and s.led["mc"] == 3
    w.unit("inf4", U, leader="mc")
    s = fc.check_stacking(w.state, ["mc"])
    assert not s.legal and s.problems[0].rule == "3.23"


def test_3_23_h17_confederate_two_star_leads_twelve_brigades():
    w = World()
    w.leader("hardee", C, "0303", stars=2)
    w.units("b", 12, C, leader="hardee", size="brigade")
    s = fc.check_stacking(w.state, ["hardee"])
    assert s.legal and s.led["hardee"] == 3
    w.unit("b13", C, leader="hardee", size="brigade")
    s = fc.check_stacking(w.state, ["hardee"])
    assert not s.legal and s.led["hardee"] == Fraction(13, 4)


def test_3_23_brevet_star_raises_capacity():
    w = World()
    w.leader("mc", U, "0303", stars=2, brevet=1)
    w.units("inf", 4, U, leader="mc")
    assert fc.check_stacking(w.state, ["mc"]).legal


def test_3_23_eliminated_units_do_not_count():
    w = World()
    w.leader("mc", U, "0303", stars=1)
    w.units("inf", 2, U, leader="mc")
    w.unit("dead", U, leader="mc", steps=0)
    assert fc.check_stacking(w.state, ["mc"]).legal


def test_3_23a_army_commander_leads_stars_plus_one_directly_and_any_number_of_sls():
    w = World()
    w.leader("ac", U, "0303", stars=3, hq=True)
    w.units("own", 4, U, leader="ac")
    for i, stars in enumerate([2, 2, 2, 1, 1], 1):
        w.leader(f"sl{i}", U, stars=stars, superior="ac")
        w.units(f"sl{i}u", stars + 1, U, leader=f"sl{i}")
    assert fc.check_stacking(w.state, ["ac"]).legal
    w.unit("own5", U, leader="ac")
    assert not fc.check_stacking(w.state, ["ac"]).legal


def test_3_23b_h17_unled_one_division_or_four_brigades_per_hex():
    w = World()
    w.unit("d1", U, hex="0505")
    assert fc.check_stacking(w.state, ["unled@0505"]).legal
    w.unit("d2", U, hex="0505")
    s = fc.check_stacking(w.state, ["unled@0505"])
    assert not s.legal and s.problems[0].rule == "3.23b"
    w2 = World()
    w2.units("b", 4, C, hex="0505", size="brigade")
    assert fc.check_stacking(w2.state, ["unled@0505"]).legal
    w2.unit("b5", C, hex="0505", size="brigade")
    assert not fc.check_stacking(w2.state, ["unled@0505"]).legal


def test_3_23b_unled_cavalry_is_not_counted():
    w = World()
    w.unit("d1", U, hex="0505")
    w.unit("c1", U, hex="0505", arm="cavalry")
    assert fc.check_stacking(w.state, ["unled@0505"]).legal


def test_3_22_forces_of_both_sides_do_not_stack():
    w = World()
    w.leader("a", U, "0303", stars=2)
    w.leader("b", C, "0303", stars=3)
    assert not fc.check_stacking(w.state, ["a", "b"], "0303").legal


def test_check_hex_adds_arriving_forces():
    w = World()
    w.leader("a", U, "0303", stars=2)
    w.leader("b", U, "0404", stars=2)
    assert fc.check_hex(w.state, "0303", U).legal
    assert not fc.check_hex(w.state, "0303", U, ["b"]).legal


# --- 3.52 morale ---------------------------------------------------------------------------

def test_3_52a_h15_unit_ml_above_leader_ml_is_broken():
    w = World()
    w.leader("mc", U, "0303", ml=1)
    w.unit("d16", U, leader="mc", cf=(16, 8), ml=(0, 1))
    w.unit("d12", U, leader="mc", cf=(12, 6), ml=(2, 3))
    b = fc.broken_units(w.state, "mc")
    assert b.broken == ["d12"] and b.effective == ["d16"] and b.rule == "3.52a"


def test_3_52a_equal_ml_is_not_broken_and_reduced_side_ml_is_used():
    w = World()
    w.leader("mc", U, "0303", ml=1)
    w.unit("eq", U, leader="mc", ml=(1, 2))
    w.unit("red", U, leader="mc", ml=(0, 2), steps=1)
    assert fc.broken_units(w.state, "mc").broken == ["red"]


@pytest.mark.parametrize("ml,inv", [(0, 6), (1, 5), (2, 4), (3, 3), (4, 2), (5, 1), (6, 0)])
def test_3_52b_inverted_ml_is_six_minus_ml(ml, inv):
    assert fc.inverted_ml(ml) == inv


def test_3_52b_inverted_ml_rejects_values_outside_0_6():
    with pytest.raises(ValueError):
        fc.inverted_ml(7)


@pytest.mark.parametrize("face", range(1, 7))
def test_3_52b_h16_unled_ml0_reads_6_and_passes_only_below(face):
    chk = fc.unled_check(0, FixedDice([face]), "morale")
    assert chk.target == 6 and chk.passed == (face <= 5) and chk.rule == "3.52b"


@pytest.mark.parametrize("face", range(1, 7))
def test_3_52b_h16_unled_ml1_reads_5_and_passes_on_1_to_4(face):
    chk = fc.unled_check(1, FixedDice([face]), "morale")
    assert chk.target == 5 and chk.passed == (face <= 4)


def test_3_52b_unled_force_checks_with_its_worst_unit():
    w = World()
    w.unit("a", C, hex="0505", size="brigade", ml=(0, 1))
    w.unit("b", C, hex="0505", size="brigade", ml=(2, 3))
    assert fc.unled_ml(w.state, "unled@0505") == 2


# --- 4.25 / 11.0 pay -----------------------------------------------------------------------

def test_4_25_h30_six_active_one_involuntary_one_voluntary_pays_7():
    w = World()
    for i in range(6):
        w.leader(f"a{i}", U, f"01{i + 1:02d}")
    w.leader("imc", U, "0201", active=False)     # deactivated by an IMC result under 1 MP
    w.leader("vol", U, "0202", active=False)     # voluntarily deactivated
    pay = fc.leader_pay(w.state, U, involuntary=["imc"])
    assert pay.amount == 7 and "imc" in pay.paid and "vol" not in pay.paid
    assert pay.rule == "4.25, 11.0"


def test_4_25_pay_counts_boxed_leaders_but_not_the_pool_or_the_enemy():
    w = World()
    w.leader("ac", U, "0303", stars=3, hq=True)
    w.leader("sl", U, stars=2, superior="ac")
    w.state["leaders"]["sl"]["hex"] = None                  # in the army commander's box
    w.leader("spare", U, pool=True)
    w.leader("reb", C, "0505")
    assert fc.leader_pay(w.state, U).amount == 2


def test_11_0_failed_reactivation_is_not_paid():
    w = World()
    w.leader("a", U, "0101")
    w.leader("sleepy", U, "0102", active=False)      # tried to reactivate and failed
    assert fc.leader_pay(w.state, U).amount == 1


def test_11_0_involuntary_leader_still_active_is_not_paid_twice():
    w = World()
    w.leader("a", U, "0101")
    assert fc.leader_pay(w.state, U, involuntary=["a"]).amount == 1


# --- 3.24 / 8.25 AP ------------------------------------------------------------------------

def test_3_24b_h18_detach_a_leader_and_lend_him_mr_costs_two_ap():
    w = World()
    w.leader("oc", U, "0303", stars=3, mr=4, ar=3)
    w.leader("sl", U, stars=2, superior="oc", mr=1)
    w.units("u", 2, U, leader="sl")
    order = fc.detach_order(w.state, "oc", ["sl"], lend_mr_to=["sl"])
    assert order.legal and order.ap == 2 and order.stacks == 2
    assert [c.rule for c in order.charges] == ["8.25c", "3.24b"]
    fc.apply_detach(w.state, order)
    assert w.state["leaders"]["oc"]["ap"] == 1 and w.state["leaders"]["sl"]["superior"] is None
    assert set(model.forces(w.state, U)) == {"oc", "sl"}
    # the detached leader then rolls with the OC's MR, which the order above paid for
    res = imc.imc_roll(w.state, "sl", 3, FixedDice([1]), mr_from="oc", mr_paid=True, chart=IMC)
    assert res.legal and res.mr == 4 and res.charges == []


def test_8_25c_h19_halleck_splits_two_armies_for_one_ap_and_each_rolls_its_own_mr():
    w = World()
    w.leader("halleck", U, "0303", stars=4, hq=True, ar=4, mr=2)
    w.leader("buell", U, stars=3, hq=True, superior="halleck", mr=3)
    w.leader("pope", U, stars=3, hq=True, superior="halleck", mr=5)
    for a in ("halleck", "buell", "pope"):
        w.units(f"{a}-", 2, U, leader=a)
    order = fc.detach_order(w.state, "halleck", ["buell", "pope"])
    assert order.legal and order.ap == 1 and order.stacks == 3
    fc.apply_detach(w.state, order)
    assert w.state["leaders"]["halleck"]["ap"] == 3
    assert sorted(model.forces(w.state, U)) == ["buell", "halleck", "pope"]
    assert imc.imc_roll(w.state, "buell", 3, FixedDice([2]), chart=IMC).mr == 3
    assert imc.imc_roll(w.state, "pope", 3, FixedDice([2]), chart=IMC).mr == 5


def test_8_25b_detach_a_single_unit_makes_it_unled():
    w = World()
    w.leader("oc", U, "0303", stars=2)
    w.units("u", 2, U, leader="oc")
    order = fc.detach_order(w.state, "oc", ["u2"])
    assert order.legal and order.ap == 1
    fc.apply_detach(w.state, order)
    assert w.state["units"]["u2"]["leader"] is None and w.state["units"]["u2"]["hex"] == "0303"
    assert "unled@0303" in model.forces(w.state, U)


def test_8_25b_detach_problems():
    w = World()
    w.leader("oc", U, "0303", stars=3, ap=0)
    w.leader("sl", U, stars=2, superior="oc")
    w.unit("slu", U, leader="sl")
    w.leader("other", U, "0505")
    order = fc.detach_order(w.state, "oc", ["sl", "slu", "other"], lend_mr_to=["nobody"])
    rules = [p.rule for p in order.problems]
    assert "8.25b" in rules and "3.24b" in rules and "3.24" in rules and not order.legal
    assert not fc.detach_order(w.state, "sl", ["slu"]).legal          # an SL does not detach
    assert not fc.detach_order(w.state, "oc", []).legal


def test_3_23b_detaching_units_cannot_break_the_unled_limit():
    w = World()
    w.leader("oc", U, "0303", stars=2)
    w.units("u", 2, U, leader="oc")
    order = fc.detach_order(w.state, "oc", ["u1", "u2"])
    assert [p.rule for p in order.problems] == ["3.23b"]


def test_3_31a_army_commander_lends_mr_within_command_range_only():
    m = sample_map()
    w = World()
    w.leader("ac", U, "0101", stars=3, hq=True, mr=3)
    w.leader("near", U, "0303", stars=2)          # 2 hexes away
    w.leader("far", U, "0505", stars=2)           # 4 hexes away
    w.leader("plain", U, "0102", stars=1)         # not an army commander
    assert fc.lend_mr_order(w.state, "ac", "near", m).legal
    assert fc.lend_mr_order(w.state, "ac", "far", m).problems[0].rule == "3.31a"
    assert not fc.lend_mr_order(w.state, "plain", "near", m).legal
    assert fc.command_range(w.state, "ac") == 3 and fc.command_range(w.state, "plain") == 0


def test_3_24_the_actor_pays_unless_his_oc_or_an_army_commander_in_range_orders_it():
    m = sample_map()
    w = World()
    w.leader("oc", U, "0303", stars=3)
    w.leader("sl", U, stars=2, superior="oc")
    w.leader("ac", U, "0101", stars=4, hq=True, mr=3)
    w.leader("far", U, "0808", stars=1)
    assert fc.who_pays(w.state, "sl") == ("sl", [])
    assert fc.who_pays(w.state, "sl", ordered_by="oc") == ("oc", [])
    assert fc.who_pays(w.state, "sl", ordered_by="ac", hexmap=m) == ("ac", [])
    payer, problems = fc.who_pays(w.state, "far", ordered_by="ac", hexmap=m)
    assert payer == "far" and problems[0].rule == "3.24"
    payer, problems = fc.who_pays(w.state, "far", ordered_by="oc", hexmap=m)   # no command range
    assert problems and payer == "far"


def test_3_24_ap_problems_sum_the_charges():
    w = World()
    w.leader("a", U, "0303", ap=1)
    ch = [fc.APCharge("a", 1, "8.41", "x"), fc.APCharge("a", 1, "8.25c", "y")]
    assert fc.ap_problems(w.state, ch)[0].rule == "3.24"
    assert fc.ap_problems(w.state, ch[:1]) == []


def test_8_25a_merge_costs_the_mover_one_ap_and_puts_the_junior_under_the_senior():
    w = World()
    w.leader("senior", U, "0303", stars=3)
    w.leader("junior", U, "0303", stars=2)
    order = fc.merge_order(w.state, "junior", "senior")
    assert order.legal and order.charges[0].leader == "junior" and order.ap == 1
    fc.apply_merge(w.state, order)
    assert w.state["leaders"]["junior"]["superior"] == "senior"
    assert model.forces(w.state, U) == ["senior"]


def test_8_25a_merge_refuses_same_rank_and_overfull_boxes():
    w = World()
    w.leader("a", U, "0303", stars=2)
    w.leader("b", U, "0303", stars=2)
    assert fc.merge_order(w.state, "a", "b").problems[0].rule == "3.22a"
    w2 = World()
    w2.leader("a", U, "0303", stars=1)
    w2.units("own", 2, U, leader="a")
    w2.unit("loose", U, hex="0303")
    assert [p.rule for p in fc.merge_order(w2.state, "a", "unled@0303").problems] == ["3.23"]


def test_8_25a_merging_unled_units_puts_them_in_the_box():
    w = World()
    w.leader("a", U, "0303", stars=2)
    w.unit("loose", U, hex="0303")
    order = fc.merge_order(w.state, "a", "unled@0303")
    fc.apply_merge(w.state, order)
    assert w.state["units"]["loose"]["leader"] == "a" and model.forces(w.state, U) == ["a"]


def test_apply_move_moves_leaders_and_their_wagons():
    w = World()
    w.leader("a", U, "0303", stars=3)
    w.leader("b", U, stars=2, superior="a")
    w.wagon("w", U, "0303", leader="a")
    fc.apply_move(w.state, "a", "0404")
    assert w.state["leaders"]["b"]["hex"] == "0404" and w.state["logistics"]["w"]["hex"] == "0404"
    w.unit("x", C, hex="0505", size="brigade")
    assert fc.apply_move(w.state, "unled@0505", "0506") == "unled@0506"
