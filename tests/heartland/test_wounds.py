"""10.67: a wound reduces ALL of a leader's ratings by the wound level, for as long as the
marker stays.  Each rule that reads a rating is checked with a wounded leader here: the IMC
(8.22a), lending MR (3.31a), command range (3.24), reactivation (8.12), the attack check
(8.41), reaction (9.11) and emergency supply (7.35).  Combat (10.4) and forced march (8.3)
have their own wound tests in their modules' tests."""
import pytest

from factory import TODAY, C, U, FixedDice, World, sample_map
from hxref.systems.heartland import attack as at
from hxref.systems.heartland import forces as fc
from hxref.systems.heartland import imc, model
from hxref.systems.heartland import reaction as rx
from hxref.systems.heartland import supply as sp
from hxref.systems.heartland.attack import Assault

M = sample_map()
CHART = imc.IMCChart.load(TODAY)


@pytest.mark.parametrize("wound,mr", [(0, 4), (1, 3), (3, 1), (5, 0)])
def test_10_67_current_rating_is_printed_less_wound_never_below_0(wound, mr):
    w = World()
    w.leader("a", U, mr=4, wound=wound)
    assert model.current_rating(w.state["leaders"]["a"], "mr") == mr


def test_10_67_imc_reads_the_wounded_mr():
    # 8.22a: MR 4 with a level-2 wound reads the MR 2 column
    w = World()
    w.leader("a", U, "0303", stars=2, mr=4, wound=2)
    w.units("u", 2, U, leader="a")
    res = imc.imc_roll(w.state, "a", 3, FixedDice([2]), chart=CHART)
    assert res.mr == 2 and res.mp == CHART.lookup(3, 2, 2)


def test_10_67_a_lent_mr_is_the_lenders_wounded_mr():
    # 3.31a: a commander with MR 5 and a level-1 wound lends MR 4; his range is 4 too
    w = World()
    w.leader("ac", U, "0101", stars=3, hq=True, mr=5, wound=1, ap=3)
    w.leader("a", U, "0303", stars=2, mr=1)
    w.units("u", 2, U, leader="a")
    assert fc.command_range(w.state, "ac") == 4
    res = imc.imc_roll(w.state, "a", 3, FixedDice([2]), mr_from="ac", hexmap=M, chart=CHART)
    assert res.mr == 4


def test_10_67_command_range_shrinks_with_the_wound():
    # 3.24: MR 3 commander 4 hexes away cannot lend; healthy MR 3 reaches 2 hexes, wounded 1 does not
    w = World()
    w.leader("ac", U, "0101", stars=3, hq=True, mr=3, wound=2)
    w.leader("near", U, "0303", stars=2)          # 2 hexes away
    assert fc.command_range(w.state, "ac") == 1
    assert fc.lend_mr_order(w.state, "ac", "near", M).problems[0].rule == "3.31a"


@pytest.mark.parametrize("face,ok", [(1, True), (2, False)])
def test_10_67_reactivation_rolls_against_the_wounded_inactive_ar(face, ok):
    # 8.12 method 1: inactive AR 2, wound 1 -> roll at most 1
    w = World()
    w.leader("s", U, "0303", stars=2, active=False, iar=2, imr=2, wound=1)
    w.unit("u", U, leader="s")
    r = imc.reactivation(w.state, "s", 1, FixedDice([face]), chart=CHART)
    assert r.success is ok


def test_10_67_attack_check_uses_the_wounded_br():
    # 8.41: BR 3 with a level-1 wound passes on 1-2 only
    w = World()
    w.leader("sherman", U, "0403", stars=2, br=3, ap=2, ml=4, wound=1)
    w.unit("s1", U, leader="sherman", cf=(12, 6))
    w.leader("hardee", C, "0303", stars=2)
    w.units("h", 2, C, leader="hardee", size="brigade", cf=(4, 2))
    r = at.attack_check(w.state, M, "sherman", "0303", FixedDice([3]))
    assert r.rating == 2 and not r.passed


def test_10_67_reaction_rolls_against_the_wounded_mr():
    # 9.11: Polk MR 3, wound 1 -> a roll of 3 fails
    w = World()
    w.leader("sherman", U, "0403", stars=2, ml=4)
    w.unit("s1", U, leader="sherman", cf=(12, 6))
    w.leader("hardee", C, "0303", stars=3, ap=2, ml=3)
    w.units("h", 4, C, leader="hardee", size="brigade", cf=(4, 2))
    w.leader("bragg", C, "0302", stars=4, hq=True, mr=3, ap=3)
    w.leader("polk", C, "0102", stars=2, mr=3, ap=2, wound=1)
    w.units("p", 4, C, leader="polk", size="brigade", cf=(4, 2))
    r = rx.reaction(w.state, M, "polk", Assault("sherman", "0403", "0303"), FixedDice([3]), commander="bragg")
    assert r.mr == 2 and not r.success


def test_10_67_emergency_supply_reach_is_the_wounded_mr():
    w = World()
    w.leader("a", U, "0303", stars=2, mr=4, wound=3)
    w.unit("u", U, leader="a")
    assert sp.oc_mr(w.state, "a") == 1
