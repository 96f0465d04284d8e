"""The attack check: rules 8.4, 8.41, 8.42 with 3.52b, 3.53(3a), 3.55.  Readings:
``hxref/systems/heartland/attack.py``.

The board: the sample map's clear north-west.  Sherman (Union) stands in 0403,
next to Hardee (Confederate) in 0303; Hardee's ZOC covers 0302, 0402, 0403,
0304, 0203 and 0202, so Sherman's retreat hexes free of it are 0503, 0504, 0404.
"""
import pytest

from factory import C, U, FixedDice, World, sample_map
from hxref.systems.heartland import attack as at
from hxref.systems.heartland import model

M = sample_map()


def board(br=3, ap=2, ml=4, stars=2, **kw):
    w = World()
    w.leader("sherman", U, "0403", stars=stars, br=br, ap=ap, ml=ml, **kw)
    w.unit("s1", U, leader="sherman", cf=(12, 6))
    w.unit("s2", U, leader="sherman", cf=(10, 5))
    w.leader("hardee", C, "0303", stars=2)
    w.units("h", 4, C, leader="hardee", size="brigade", cf=(4, 2))
    return w


# --- 8.41 success --------------------------------------------------------------------------

@pytest.mark.parametrize("face", [1, 2, 3])
def test_8_41_roll_at_most_br_places_an_assault_marker_for_1_ap(face):
    w = board(br=3)
    r = at.attack_check(w.state, M, "sherman", "0303", FixedDice([face]))
    assert r.legal and r.passed and r.compulsory and not r.hasty
    assert r.assault == at.Assault("sherman", "0403", "0303", False)
    assert [(c.leader, c.ap, c.rule) for c in r.charges] == [("sherman", 1, "8.41")]
    at.apply_attack_check(w.state, r)
    assert w.state["leaders"]["sherman"]["ap"] == 1 and w.state["leaders"]["sherman"]["ml"] == 4


def test_8_41_uses_the_br_of_the_side_showing():
    w = board(br=3, active=False, ibr=1)
    r = at.attack_check(w.state, M, "sherman", "0303", FixedDice([2]))
    assert r.rating == 1 and not r.passed


# --- 8.41a failure -------------------------------------------------------------------------

def test_8_41a_failure_retreats_1_hex_loses_a_step_and_1_oc_ml():
    w = board(br=3, ml=4)
    r = at.attack_check(w.state, M, "sherman", "0303", FixedDice([4]))
    assert not r.passed and r.assault is None
    assert r.retreat_options == ["0503", "0504", "0404"]          # out of Hardee's ZOC
    assert r.retreat_to == "0503" and r.step_loss == "s1"          # defaults: the first
    assert (r.ml_before, r.ml_after) == (4, 3)
    assert "3.53(3a)" in r.why
    at.apply_attack_check(w.state, r)
    s = w.state
    assert s["leaders"]["sherman"]["hex"] == "0503" and s["units"]["s1"]["steps"] == 1
    assert s["leaders"]["sherman"]["ml"] == 3 and s["leaders"]["sherman"]["ap"] == 1


def test_8_41a_owner_chooses_retreat_hex_and_unit():
    w = board()
    r = at.attack_check(w.state, M, "sherman", "0303", FixedDice([6]), retreat_to="0404", step_loss="s2")
    assert r.retreat_to == "0404" and r.step_loss == "s2"


def test_8_41a_retreat_into_enemy_zoc_is_refused_while_a_free_hex_exists():
    w = board()
    r = at.attack_check(w.state, M, "sherman", "0303", FixedDice([]), retreat_to="0402")
    assert r.problems[0].rule == "8.41a" and r.roll is None


def test_8_41a_retreat_goes_into_enemy_zoc_when_every_open_hex_is_in_it():
    w = board()
    w.leader("cleburne", C, "0603", stars=1)       # ZOC over 0503 and 0504
    w.unit("cl", C, leader="cleburne", size="brigade")
    w.leader("cheatham", C, "0405", stars=3)       # ZOC over 0404
    w.unit("ch", C, leader="cheatham", size="brigade")
    opts, note = at.retreat_hexes(w.state, M, "sherman")
    assert opts == ["0402", "0503", "0504", "0404", "0304"] and "enemy ZOC" in note


def test_8_41a_no_hex_to_retreat_into_the_force_stays():
    w = board()
    for i, h in enumerate(["0402", "0503", "0504", "0404", "0304"]):
        w.unit(f"block{i}", C, hex=h, size="brigade")
    r = at.attack_check(w.state, M, "sherman", "0303", FixedDice([6]))
    assert r.retreat_options == [] and r.retreat_to is None and "stays" in r.why
    at.apply_attack_check(w.state, r)
    assert w.state["leaders"]["sherman"]["hex"] == "0403"


def test_3_55_only_the_oc_loses_ml_and_never_below_0():
    w = board(ml=0, stars=3)
    w.leader("sl", U, stars=2, superior="sherman", ml=3)
    r = at.attack_check(w.state, M, "sherman", "0303", FixedDice([6]))
    assert r.ml_after == 0
    at.apply_attack_check(w.state, r)
    assert w.state["leaders"]["sl"]["ml"] == 3 and w.state["leaders"]["sl"]["hex"] == "0503"


# --- 8.41 AP and the hasty attack ----------------------------------------------------------

def test_8_41_no_ap_in_enemy_zoc_still_checks_as_a_hasty_attack():
    w = board(ap=0)
    r = at.attack_check(w.state, M, "sherman", "0303", FixedDice([2]))
    assert r.legal and r.hasty and r.charges == [] and r.assault.hasty
    assert at.HASTY_DRM == -2 and "hasty" in r.why


def test_8_4_optional_check_against_units_without_zoc_needs_ap():
    w = World()
    w.leader("sherman", U, "0403", stars=2, ap=0)
    w.unit("s1", U, leader="sherman")
    w.unit("det", C, hex="0303", arm="detachment", size="regiment", cf=(1, 1))
    r = at.attack_check(w.state, M, "sherman", "0303", FixedDice([]))
    assert not r.compulsory and r.problems[0].rule == "8.41"
    w.state["leaders"]["sherman"]["ap"] = 1
    r = at.attack_check(w.state, M, "sherman", "0303", FixedDice([1]))
    assert r.legal and r.passed and not r.compulsory


# --- 8.41 unled forces ---------------------------------------------------------------------

@pytest.mark.parametrize("face,ok", [(1, True), (4, True), (5, False), (6, False)])
def test_8_41_3_52b_unled_force_needs_a_roll_below_its_inverted_ml(face, ok):
    w = board()
    w.unit("loose", U, hex="0304", ml=(1, 2))
    r = at.attack_check(w.state, M, "unled@0304", "0303", FixedDice([face]))
    assert r.unled and r.rating == 5 and r.charges == [] and r.passed == ok
    if not ok:
        assert r.ml_after is None and r.failed_units == ["loose"]


@pytest.mark.parametrize("faces,passed,failed", [((4, 5), True, []), ((5, 5), True, ["loose"]),
                                                 ((5, 6), False, ["loose", "loose2"])])
def test_8_41_3_52b_each_unled_unit_checks_against_its_own_inverted_ml(faces, passed, failed):
    w = board()
    w.unit("loose", U, hex="0304", ml=(1, 2))                       # reads as 5
    w.unit("loose2", U, hex="0304", arm="cavalry", ml=(0, 1))       # reads as 6
    r = at.attack_check(w.state, M, "unled@0304", "0303", FixedDice(list(faces)))
    assert [(u, c.target, c.passed) for u, c in r.unit_checks] == [
        ("loose", 5, faces[0] < 5), ("loose2", 6, faces[1] < 6)]
    assert r.passed == passed and r.failed_units == failed and (r.assault is not None) == passed
    new_id = at.apply_attack_check(w.state, r)
    for u in ("loose", "loose2"):
        unit = w.state["units"][u]
        assert (unit["steps"], unit["hex"]) == ((1, r.retreat_to) if u in failed else (2, "0304"))
    assert new_id == ("unled@0304" if passed else f"unled@{r.retreat_to}")


def test_8_41_unled_failure_moves_the_units():
    w = board()
    w.unit("loose", U, hex="0304")
    r = at.attack_check(w.state, M, "unled@0304", "0303", FixedDice([6]))
    new_id = at.apply_attack_check(w.state, r)
    assert new_id == f"unled@{r.retreat_to}" and w.state["units"]["loose"]["hex"] == r.retreat_to
    assert r.retreat_to not in ("0303", "0304")


# --- 8.42 restrictions ---------------------------------------------------------------------

def test_8_42_an_army_commander_cannot_lend_his_br():
    w = board(br=1)
    w.leader("grant", U, "0502", stars=3, hq=True, br=4)
    r = at.attack_check(w.state, M, "sherman", "0303", FixedDice([]), lend_br_from="grant")
    assert r.problems[0].rule == "8.42"


def test_8_42_an_sl_force_checks_with_its_own_br():
    w = board(br=1)
    w.leader("grant", U, "0502", stars=3, hq=True, br=4)
    r = at.attack_check(w.state, M, "sherman", "0303", FixedDice([2]))
    assert r.rating == 1 and not r.passed


def test_8_1_an_inactive_oc_may_not_declare_an_optional_attack_but_checks_when_compelled():
    w = World()
    w.leader("sherman", U, "0403", stars=2, active=False)
    w.unit("s1", U, leader="sherman")
    w.unit("det", C, hex="0303", arm="detachment", size="regiment", cf=(1, 1))
    assert at.attack_check(w.state, M, "sherman", "0303", FixedDice([])).problems[0].rule == "8.1"
    w2 = board(active=False)
    assert at.attack_check(w2.state, M, "sherman", "0303", FixedDice([1])).legal


def test_8_4_target_must_be_adjacent_and_hold_enemy_units():
    w = board()
    assert at.attack_check(w.state, M, "sherman", "0202", FixedDice([])).problems[0].rule == "8.4"
    rules = [p.rule for p in at.attack_check(w.state, M, "sherman", "0503", FixedDice([])).problems]
    assert rules == ["8.4"]


def test_8_41a_step_loss_must_be_a_unit_of_the_force():
    w = board()
    assert at.attack_check(w.state, M, "sherman", "0303", FixedDice([]), step_loss="h1").problems[0].rule == "8.41a"


def test_8_41_roll_is_recorded_by_purpose_and_side():
    w = board()
    dice = FixedDice([3])
    at.attack_check(w.state, M, "sherman", "0303", dice)
    assert dice.rolls[0].purpose == "attack check sherman -> 0303" and dice.rolls[0].by == U


# --- 8.42 joining a passed check -----------------------------------------------------------

def test_8_42_entering_a_hex_with_a_passed_check_joins_for_1_ap():
    w = board(stars=3)
    w.leader("mcpherson", U, "0403", stars=2, ap=1)
    w.unit("m1", U, leader="mcpherson")
    a = at.Assault("sherman", "0403", "0303")
    j = at.join_assault(w.state, "mcpherson", [a])
    assert j.problems == [] and j.order.ap == 1 and j.order.charges[0].leader == "mcpherson"
    assert j.assault.attacker == "sherman" and j.assault.automatic and j.rule == "8.42"
    at.apply_join(w.state, j)
    assert w.state["leaders"]["mcpherson"]["superior"] == "sherman"
    assert w.state["leaders"]["mcpherson"]["ap"] == 0
    assert model.forces_in_hex(w.state, "0403", U) == ["sherman"]


def test_8_42_joining_needs_ap_and_legal_stacking():
    w = board(stars=2)
    w.leader("twin", U, "0403", stars=2)
    a = at.Assault("sherman", "0403", "0303")
    assert at.join_assault(w.state, "twin", [a]).problems[0].rule == "3.22a"
    w.state["leaders"]["twin"].update(stars=1, ap=0)
    assert at.join_assault(w.state, "twin", [a]).problems[0].rule == "3.24"


def test_8_42_no_passed_check_in_the_hex_nothing_to_join():
    w = board()
    w.leader("other", U, "0503", stars=1)
    assert at.join_assault(w.state, "other", [at.Assault("sherman", "0403", "0303")]).problems[0].rule == "8.42"


def test_8_42_unled_units_joining_go_into_the_assaulting_ocs_box():
    w = board(stars=2, ap=2)
    w.unit("loose", U, hex="0403")
    j = at.join_assault(w.state, "unled@0403", [at.Assault("sherman", "0403", "0303")])
    assert j.problems == [] and j.order.charges[0].leader == "sherman"
    at.apply_join(w.state, j)
    assert w.state["units"]["loose"]["leader"] == "sherman"
