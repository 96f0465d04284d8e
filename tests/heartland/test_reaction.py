"""The Combat Preparation Sequence: reaction (9.1-9.13), defensive support (9.14, 9.15) and
pre-combat retreat, overrun and capture (9.2-9.24; H-24, H-25).  Readings:
``hxref/systems/heartland/reaction.py``.

The north-west board of the sample map: Sherman (Union) in 0403 attacks Hardee
(Confederate) in 0303.  Sherman's ZOC covers 0402, 0503, 0504, 0404, 0304 and
0303; the support positions (next to both hexes) are 0402 and 0304.  Bragg, a
Confederate army commander with MR 3, stands in 0302.
"""
import pytest

from factory import C, U, FixedDice, World, sample_map
from hxref.systems.heartland import forces as fc
from hxref.systems.heartland import model
from hxref.systems.heartland import reaction as rx
from hxref.systems.heartland.attack import Assault

M = sample_map()
ATTACK = Assault("sherman", "0403", "0303")


def board(year=1862, **polk):
    w = World(year=year)
    w.leader("sherman", U, "0403", stars=2, ml=4)
    w.unit("s1", U, leader="sherman", cf=(12, 6))
    w.leader("hardee", C, "0303", stars=3, ap=2, ml=3)
    w.units("h", 4, C, leader="hardee", size="brigade", cf=(4, 2))
    w.leader("bragg", C, "0302", stars=4, hq=True, mr=3, ap=3)
    kw = dict(stars=2, mr=2, ap=2)
    kw.update(polk)
    hex_ = kw.pop("hex", "0102")
    w.leader("polk", C, hex_, **kw)
    w.units("p", 4, C, leader="polk", size="brigade", cf=(4, 2))
    return w


# --- 9.1 / 9.11 ordered reaction -----------------------------------------------------------

@pytest.mark.parametrize("face,ok", [(1, True), (2, True), (3, False), (6, False)])
def test_9_11_roll_at_most_the_reacting_leaders_mr(face, ok):
    w = board()
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([face]), commander="bragg")
    assert r.legal and r.mr == 2 and r.success == ok and r.kind == "join"
    assert r.reachable["0303"] == 2 and r.rule == "9.11"
    assert [(c.leader, c.ap, c.rule) for c in r.on_success] == [("hardee", 1, "9.13")]
    assert r.charges == []                          # 9.1: the reacting leader pays nothing
    rx.apply_reaction(w.state, r)
    s = w.state
    if ok:
        assert s["leaders"]["polk"]["hex"] == "0303" and s["leaders"]["polk"]["superior"] == "hardee"
        assert s["leaders"]["hardee"]["ap"] == 1 and model.forces_in_hex(s, "0303", C) == ["hardee"]
    else:
        assert s["leaders"]["polk"]["hex"] == "0102" and s["leaders"]["hardee"]["ap"] == 2


def test_9_11_commander_lends_his_mr_for_roll_and_distance_paying_1_ap_even_on_failure():
    w = board(mr=1)
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([3]), commander="bragg", lend_mr=True)
    assert r.mr == 3 and r.success and [(c.leader, c.ap) for c in r.charges] == [("bragg", 1)]
    w2 = board(mr=1)
    r2 = rx.reaction(w2.state, M, "polk", ATTACK, FixedDice([4]), commander="bragg", lend_mr=True)
    rx.apply_reaction(w2.state, r2)
    assert not r2.success and w2.state["leaders"]["bragg"]["ap"] == 2


def test_9_1_reading_a_without_an_army_commander_only_entrenched_or_cavalry_corps_react():
    w = board()
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([]))
    assert r.problems[0].rule == "9.1" and "reading (a)" in r.problems[0].message
    assert rx.reaction(w.state, M, "polk", ATTACK, FixedDice([2]), entrenched=True).legal
    w.leader("forrest", C, "0202", stars=2, mr=3, cavalry_corps=True)
    w.units("f", 2, C, leader="forrest", arm="cavalry", size="brigade")
    r = rx.reaction(w.state, M, "forrest", ATTACK, FixedDice([3]))
    assert r.legal and r.success


def test_9_1_an_ordinary_leader_cannot_order_a_reaction():
    w = board()
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([]), commander="hardee")
    assert r.problems[0].rule == "9.1"


def test_9_1_attacked_hex_and_reacting_force_must_be_within_the_commanders_mr():
    w = board(hex="0110", mr=6)
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([]), commander="bragg")
    assert r.problems[0].rule == "9.1" and "command range" in r.problems[0].message
    w.state["leaders"]["bragg"]["hex"] = "0109"
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([]), commander="bragg")
    assert "more than 3 hexes" in r.problems[0].message


def test_9_1_an_army_commanders_force_is_not_ordered_to_react():
    w = board(hq=True, stars=3)
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([]), commander="bragg")
    assert any("army commander" in p.message for p in r.problems)


def test_9_12_a_force_in_enemy_zoc_cannot_react():
    w = board(hex="0404")
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([]), commander="bragg")
    assert r.problems[0].rule == "9.12"


def test_9_12_an_inactive_leader_reacts_once_the_commander_activates_him_for_1_ap():
    w = board(active=False, imr=2)
    assert rx.reaction(w.state, M, "polk", ATTACK, FixedDice([]), commander="bragg").problems[0].rule == "9.12"
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([5]), commander="bragg", activate=True)
    assert r.legal and [(c.leader, c.ap, c.rule) for c in r.charges] == [("bragg", 1, "9.12")]
    rx.apply_reaction(w.state, r)
    assert w.state["leaders"]["polk"]["active"] and w.state["leaders"]["bragg"]["ap"] == 2


def test_9_13_stacking_must_stay_legal_in_the_attacked_hex():
    w = board(stars=3)
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([]), commander="bragg")
    assert r.problems[0].rule == "3.22a"


def test_9_13_the_attacked_oc_needs_the_ap_to_merge():
    w = board()
    w.state["leaders"]["hardee"]["ap"] = 0
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([]), commander="bragg")
    assert r.problems[0].rule == "3.24"


def test_9_13_destination_a_support_position_even_in_enemy_zoc():
    w = board(mr=3)
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([1]), commander="bragg", destination="0304")
    assert r.legal and r.kind == "support" and r.on_success == []
    rx.apply_reaction(w.state, r)
    assert w.state["leaders"]["polk"]["hex"] == "0304"
    s = rx.defensive_support(w.state, M, "polk", ATTACK, by_reaction=True)
    assert s.legal and s.added_cf == 8 and not s.automatic


def test_9_13_destination_must_be_the_attacked_hex_or_a_support_position():
    w = board()
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([]), commander="bragg", destination="0202")
    assert r.problems[0].rule == "9.13"


def test_9_13_mr_counts_hexes_and_no_moving_on_out_of_enemy_zoc():
    # from 0502 the short way (0402) is in Sherman's ZOC: 0303 is 3 hexes round by 0401, 0302
    w = board(hex="0502", mr=2)
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([]), commander="bragg")
    assert r.problems[0].rule == "9.13" and "0402" in r.reachable and "0303" not in r.reachable
    w = board(hex="0502", mr=3)
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([1]), commander="bragg")
    assert r.legal and r.reachable["0303"] == 3


def test_9_13_major_river_only_at_bridge_or_ford_and_the_passability_callback():
    w = World()
    w.leader("smith", U, "0503", stars=2)
    w.unit("x", U, leader="smith")
    w.leader("kirby", C, "0603", stars=3, ap=2)
    w.unit("k", C, leader="kirby")
    w.leader("bragg", C, "0704", stars=4, hq=True, mr=3)
    w.leader("polk", C, "0703", stars=2, mr=2)
    w.unit("p", C, leader="polk", size="brigade")
    attack = Assault("smith", "0503", "0603")
    assert "0603" not in rx.reachable_hexes(w.state, M, "polk", 2)
    r = rx.reaction(w.state, M, "polk", attack, FixedDice([1]), commander="bragg", passable=lambda a, b: True)
    assert r.legal and r.reachable["0603"] == 1


def test_9_11a_sending_only_part_costs_the_reacting_oc_1_ap_on_success():
    w = board(stars=3)
    w.state["leaders"]["hardee"]["stars"] = 4
    w.leader("sl", C, stars=1, superior="polk")
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([2]), commander="bragg", leave=["sl", "p4"])
    assert r.legal and ("polk", 1, "9.11a") in [(c.leader, c.ap, c.rule) for c in r.on_success]
    rx.apply_reaction(w.state, r)
    s = w.state
    assert s["leaders"]["sl"]["hex"] == "0102" and s["leaders"]["sl"]["superior"] is None
    assert s["units"]["p4"]["hex"] == "0102" and s["units"]["p4"]["leader"] is None
    assert s["leaders"]["polk"]["hex"] == "0303" and s["leaders"]["polk"]["ap"] == 1


def test_9_1_unled_units_and_the_attacked_force_do_not_react():
    w = board()
    w.unit("loose", C, hex="0202", size="brigade")
    assert rx.reaction(w.state, M, "unled@0202", ATTACK, FixedDice([])).problems[0].rule == "9.1"
    assert not rx.reaction(w.state, M, "hardee", ATTACK, FixedDice([]), commander="bragg").legal


def test_9_13_reacting_into_an_unled_attacked_hex_the_reacting_oc_pays_and_leads_them():
    w = World()
    w.leader("sherman", U, "0403", stars=2)
    w.unit("s1", U, leader="sherman")
    w.units("g", 2, C, hex="0303", size="brigade")
    w.leader("bragg", C, "0302", stars=4, hq=True, mr=3)
    w.leader("polk", C, "0102", stars=2, mr=2, ap=1)
    w.unit("p", C, leader="polk", size="brigade")
    r = rx.reaction(w.state, M, "polk", ATTACK, FixedDice([1]), commander="bragg")
    assert r.legal and r.on_success[0].leader == "polk"
    rx.apply_reaction(w.state, r)
    assert w.state["units"]["g1"]["leader"] == "polk" and model.forces_in_hex(w.state, "0303", C) == ["polk"]


# --- 9.14 / 9.15 defensive support ---------------------------------------------------------

def test_9_14_adjacent_to_both_adds_half_cf_and_half_artillery_rounded_up():
    w = board()
    w.leader("cleburne", C, "0402", stars=2, artillery=3)
    w.units("c", 3, C, leader="cleburne", size="brigade", cf=(5, 3))
    s = rx.defensive_support(w.state, M, "cleburne", ATTACK)
    assert s.legal and (s.cf, s.added_cf, s.artillery, s.added_artillery) == (15, 8, 3, 2)
    assert s.automatic and not s.suffers_results and s.rule == "9.14"


def test_9_14a_forces_already_in_position_support_automatically_and_targets_do_not():
    w = board()
    w.leader("cleburne", C, "0402", stars=2)
    w.unit("c", C, leader="cleburne", size="brigade")
    w.unit("loose", C, hex="0304", size="brigade", cf=(3, 2))
    found = rx.supports_for(w.state, M, ATTACK)
    assert sorted(s.supporter for s in found) == ["cleburne", "unled@0304"]
    found = rx.supports_for(w.state, M, ATTACK, targets=["0402"])
    assert [s.supporter for s in found] == ["unled@0304"]
    s = rx.defensive_support(w.state, M, "cleburne", ATTACK, targets=["0402"])
    assert s.problems[0].rule == "9.14a"


def test_9_14_not_adjacent_to_both_no_support():
    w = board()
    s = rx.defensive_support(w.state, M, "polk", ATTACK)
    assert s.problems[0].rule == "9.14"
    assert rx.defensive_support(w.state, M, "sherman", ATTACK).problems[0].rule == "9.14"


def test_9_14_a_depot_supports_with_half_its_strength():
    w = board()
    w.wagon("dep", C, "0304", kind="depot", cf=3)
    s = rx.defensive_support(w.state, M, "dep", ATTACK)
    assert s.legal and s.added_cf == 2 and s.added_artillery == 0
    assert [x.supporter for x in rx.supports_for(w.state, M, ATTACK)] == ["dep"]


def river_board():
    """Union Sherman in 0704 (east bank) attacks Kirby in 0604 across the Duck River."""
    w = World()
    w.leader("sherman", U, "0704", stars=2)
    w.unit("s1", U, leader="sherman")
    w.leader("kirby", C, "0604", stars=3)
    w.unit("k", C, leader="kirby")
    for lid, h in (("west", "0603"), ("east", "0705")):
        w.leader(lid, C, h, stars=2, artillery=3)
        w.units(f"{lid}-", 2, C, leader=lid, size="brigade", cf=(5, 3))
    return w, Assault("sherman", "0704", "0604")


def test_9_15_across_a_major_river_without_bridge_or_ford_only_half_artillery():
    w, attack = river_board()
    s = rx.defensive_support(w.state, M, "west", attack)     # 0603/0704 is the river
    assert s.legal and s.across_major_river and s.added_cf == 0 and s.added_artillery == 2
    assert s.rule == "9.15"


def test_9_15_a_bridge_carries_full_support():
    w, attack = river_board()
    s = rx.defensive_support(w.state, M, "east", attack)     # 0604/0705 has the pike bridge
    assert s.legal and not s.across_major_river and s.added_cf == 5 and s.added_artillery == 2


# --- 9.21 / H-25 pre-combat retreat by year ------------------------------------------------

def retreat_board(year, *, defender=C, def_ml=3, att_ml=4, def_cav=0, att_cav=0, **dkw):
    attacker = U if defender == C else C
    w = World(year=year)
    w.leader("att", attacker, "0403", stars=2, ml=att_ml)
    w.unit("a1", attacker, leader="att", cf=(12, 6))
    if att_cav:
        w.unit("acav", attacker, leader="att", arm="cavalry", cf=(att_cav, 1))
    dkw.setdefault("ap", 2)
    w.leader("def", defender, "0303", stars=3, ml=def_ml, **dkw)
    w.units("d", 2, defender, leader="def", size="brigade", cf=(4, 2))
    if def_cav:
        w.unit("dcav", defender, leader="def", arm="cavalry", size="brigade", cf=(def_cav, 1))
    return w, Assault("att", "0403", "0303")


@pytest.mark.parametrize("side", [U, C])
def test_9_21_h25_1861_neither_side_retreats(side):
    w, a = retreat_board(1861, defender=side, def_ml=6, att_ml=1)
    r = rx.pre_combat_retreat(w.state, M, "def", a, rear_guard=["d1"])
    assert not r.allowed and r.problems[0].rule == "9.21" and "1861" in r.problems[0].message


def test_9_21_h25_1862_confederates_meeting_1_and_3_lose_no_ml_but_leave_a_rear_guard():
    w, a = retreat_board(1862, def_ml=0, att_ml=4, def_cav=4)     # ML 0, but more cavalry
    r = rx.pre_combat_retreat(w.state, M, "def", a)
    assert not r.allowed and any(p.rule == "9.22" for p in r.problems)      # rear guard required
    r = rx.pre_combat_retreat(w.state, M, "def", a, rear_guard=["d1"])
    assert r.allowed and r.ml_loss == 0 and r.ml_after == 0 and r.rear_guard_needed
    assert r.conditions[4].startswith("met (1862")


def test_9_21_h25_1862_confederates_still_need_condition_3():
    w, a = retreat_board(1862, def_ml=3, att_ml=4)
    r = rx.pre_combat_retreat(w.state, M, "def", a, rear_guard=["d1"])
    assert not r.allowed and "condition 3" in r.problems[0].message


def test_9_21_h25_1863_confederates_ignore_3_and_4_no_ml_loss_no_rear_guard():
    w, a = retreat_board(1863, def_ml=0, att_ml=4)
    r = rx.pre_combat_retreat(w.state, M, "def", a)
    assert r.allowed and r.ml_loss == 0 and not r.rear_guard_needed and r.rear_guard == []
    assert r.conditions[3].startswith("waived") and r.conditions[4].startswith("waived")
    assert r.attacker_advances and r.next_assault is None and r.overrun is None
    rx.apply_pre_combat_retreat(w.state, r)
    assert w.state["leaders"]["def"]["hex"] == r.to == "0302"
    assert w.state["leaders"]["att"]["hex"] == "0303"


@pytest.mark.parametrize("year", [1862, 1863])
def test_9_21_h25_union_needs_all_four_conditions(year):
    w, a = retreat_board(year, defender=U, def_ml=5, att_ml=4)
    r = rx.pre_combat_retreat(w.state, M, "def", a, rear_guard=["d1"])
    assert r.allowed and r.ml_loss == 1 and r.ml_after == 4 and r.rear_guard == ["d1"]
    assert [(c.leader, c.ap, c.rule) for c in r.charges] == [("def", 1, "9.22")]
    assert not rx.pre_combat_retreat(w.state, M, "def", a).allowed                 # no rear guard
    w, a = retreat_board(year, defender=U, def_ml=4, att_ml=4)
    assert "condition 3" in rx.pre_combat_retreat(w.state, M, "def", a, rear_guard=["d1"]).problems[0].message
    w, a = retreat_board(year, defender=U, def_ml=0, att_ml=0, def_cav=3)
    assert "condition 4" in rx.pre_combat_retreat(w.state, M, "def", a, rear_guard=["d1"]).problems[0].message


def test_9_21_condition_3_more_cavalry_cf_instead_of_ml():
    w, a = retreat_board(1862, defender=U, def_ml=2, att_ml=4, def_cav=6, att_cav=5)
    assert rx.pre_combat_retreat(w.state, M, "def", a, rear_guard=["d1"]).allowed
    w, a = retreat_board(1862, defender=U, def_ml=2, att_ml=4, def_cav=5, att_cav=5)
    assert not rx.pre_combat_retreat(w.state, M, "def", a, rear_guard=["d1"]).allowed


def test_9_21_condition_2_needs_a_hex_out_of_enemy_zoc():
    w, a = retreat_board(1863)
    for h in ("0103", "0201"):                 # their ZOC covers 0202, 0203 and 0302
        w.unit(f"u{h}", U, hex=h)
    r = rx.pre_combat_retreat(w.state, M, "def", a)
    assert r.options == [] and "condition 2" in r.problems[0].message


def test_9_21_condition_2_lists_the_hexes_and_the_choice_is_checked():
    w, a = retreat_board(1863)
    assert rx.retreat_options(w.state, M, "def") == ["0302", "0203", "0202"]
    assert rx.pre_combat_retreat(w.state, M, "def", a, to="0202").to == "0202"
    assert rx.pre_combat_retreat(w.state, M, "def", a, to="0304").problems[0].rule == "9.21"


def test_9_21_condition_1_an_active_leader_and_the_target():
    w, a = retreat_board(1863, active=False)
    assert "condition 1" in rx.pre_combat_retreat(w.state, M, "def", a).problems[0].message
    w, a = retreat_board(1863)
    w.units("g", 2, C, hex="0304", size="brigade")
    assert "condition 1" in rx.pre_combat_retreat(w.state, M, "unled@0304", a).problems[0].message


# --- 9.22 rear guard -----------------------------------------------------------------------

def test_9_22_an_sl_staying_with_his_own_box_costs_no_ap():
    w, a = retreat_board(1862, defender=U, def_ml=5, att_ml=4)
    w.leader("sl", U, stars=1, superior="def")
    w.unit("slu", U, leader="sl", cf=(3, 2))
    r = rx.pre_combat_retreat(w.state, M, "def", a, rear_guard_leader="sl")
    assert r.allowed and r.rear_guard == ["slu"] and r.rear_guard_leaders == ["sl"] and r.charges == []
    rx.apply_pre_combat_retreat(w.state, r)
    s = w.state
    assert s["leaders"]["sl"]["hex"] == "0303" and s["leaders"]["sl"]["superior"] is None
    assert s["leaders"]["def"]["hex"] == "0302" and s["leaders"]["def"]["ml"] == 4


def test_9_22_the_oc_cannot_stay_and_an_unled_rear_guard_obeys_3_23b():
    w, a = retreat_board(1862, defender=U, def_ml=5, att_ml=4)
    assert rx.pre_combat_retreat(w.state, M, "def", a, rear_guard_leader="def").problems[0].rule == "9.22"
    w, a = retreat_board(1862, defender=U, def_ml=5, att_ml=4)
    w.units("div", 2, U, leader="def")
    r = rx.pre_combat_retreat(w.state, M, "def", a, rear_guard=["div1", "div2"])
    assert r.problems[0].rule == "3.23b"


def test_9_22_rear_guard_out_of_the_box_needs_the_ocs_ap():
    w, a = retreat_board(1862, defender=U, def_ml=5, att_ml=4, ap=0)
    assert rx.pre_combat_retreat(w.state, M, "def", a, rear_guard=["d1"]).problems[0].rule == "3.24"


def test_9_22_cavalry_retreating_from_an_attacker_without_cavalry_leaves_no_rear_guard():
    w = World(year=1862)
    w.leader("att", C, "0403", stars=2, ml=4)
    w.unit("a1", C, leader="att", size="brigade")
    w.leader("def", U, "0303", stars=2, ml=2)
    w.units("cav", 2, U, leader="def", arm="cavalry", cf=(3, 2))
    a = Assault("att", "0403", "0303")
    r = rx.pre_combat_retreat(w.state, M, "def", a)
    assert r.allowed and not r.rear_guard_needed and r.ml_loss == 1 and r.attacker_advances
    assert r.next_assault is None and "all cavalry" in r.why


def test_9_21_apply_refuses_a_retreat_that_is_not_allowed():
    w, a = retreat_board(1861)
    with pytest.raises(ValueError):
        rx.apply_pre_combat_retreat(w.state, rx.pre_combat_retreat(w.state, M, "def", a, rear_guard=["d1"]))


# --- 9.22 / 9.23 / 9.24 overrun (H-24) -----------------------------------------------------

def overrun_board(attacker_cf):
    w = World(year=1862)
    w.leader("sherman", U, "0403", stars=2, ml=4)
    w.unit("s1", U, leader="sherman", cf=(20, 10))
    w.unit("s2", U, leader="sherman", cf=(attacker_cf - 20, 1))
    w.leader("johnston", C, "0303", stars=4, hq=True, ml=2, ap=3)
    w.unit("j1", C, leader="johnston", cf=(8, 4))
    w.leader("polk", C, stars=3, hq=True, superior="johnston", artillery=2, asp=3)
    w.unit("rg", C, leader="polk", size="brigade", cf=(2, 1))
    w.unit("cav", C, leader="johnston", arm="cavalry", size="brigade", cf=(2, 1))   # condition 3
    return w


def test_9_23_h24_40_against_a_rear_guard_of_2_overruns_and_captures_its_leader():
    w = overrun_board(40)
    r = rx.pre_combat_retreat(w.state, M, "johnston", ATTACK, rear_guard_leader="polk")
    assert r.allowed and r.ml_loss == 0                      # 1862 Confederates
    o = r.overrun
    assert (o.attacker_strength, o.rear_guard_strength, o.overrun) == (40, 2, True)
    assert o.eliminated == ["rg"] and o.captured == ["polk"] and o.hq_returned == ["polk"]
    assert (o.artillery_lost, o.asp_lost) == (2, 3) and o.rule == "9.23"
    assert r.attacker_advances
    assert r.next_assault == Assault("sherman", "0303", r.to, False, True, "9.23")
    rx.apply_pre_combat_retreat(w.state, r)
    s = w.state
    assert s["units"]["rg"]["steps"] == 0
    polk = s["leaders"]["polk"]
    assert polk["captured"] and polk["hex"] is None and not polk["hq"] and polk["artillery"] == 0
    assert polk["asp"] == 0 and s["hq_pool"][C] == ["polk"]
    assert s["leaders"]["sherman"]["hex"] == "0303" and s["leaders"]["johnston"]["hex"] == r.to
    assert fc.leader_pay(s, C).amount == 1                     # the captured leader is gone


def test_9_22_h24_39_against_2_is_no_overrun_the_rear_guard_must_be_attacked():
    w = overrun_board(39)
    r = rx.pre_combat_retreat(w.state, M, "johnston", ATTACK, rear_guard_leader="polk")
    assert r.allowed and not r.overrun.overrun and not r.attacker_advances
    assert r.next_assault == Assault("sherman", "0403", "0303", False, False, "9.22")
    rx.apply_pre_combat_retreat(w.state, r)
    assert w.state["leaders"]["polk"]["hex"] == "0303" and w.state["units"]["rg"]["steps"] == 2


def test_9_22_overrun_strength_may_be_given_by_the_caller():
    w = overrun_board(39)
    r = rx.pre_combat_retreat(w.state, M, "johnston", ATTACK, rear_guard_leader="polk", attacker_strength=45)
    assert r.overrun.overrun


def test_9_22_unled_rear_guard_overrun_no_capture():
    w = overrun_board(40)
    r = rx.pre_combat_retreat(w.state, M, "johnston", ATTACK, rear_guard=["j1"])
    assert r.overrun.rear_guard_strength == 8 and not r.overrun.overrun
    assert r.charges[0].rule == "9.22"
    rx.apply_pre_combat_retreat(w.state, r)
    assert w.state["units"]["j1"]["leader"] is None and w.state["units"]["j1"]["hex"] == "0303"
