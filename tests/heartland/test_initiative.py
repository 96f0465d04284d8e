"""The Heartland initiative segment, rules 4.1 and 5.0-5.17, from the digest's numbers.

Readings of the digest's ambiguities are the ones listed in
games/heartland/readings.md; each is pinned by a test here.
"""
import pytest

from hxref.crypto.dice import FixedDice
from hxref.systems.heartland import initiative as ini
from tests.heartland.factory import TODAY

U, C = "union", "confederate"


def outcome(bu, bc, mu=5, mc=5, rnd=1, wu=100, wc=100, faces=()):
    return ini.resolve_bids({U: bu, C: bc}, {U: mu, C: mc}, rnd, {U: wu, C: wc}, FixedDice(faces))


# 5.11 the higher bid wins and pays 5 WEP; 5.15 both first impulses use the bids
def test_5_11_higher_bid_wins_and_pays_5():
    o = outcome(3, 2)
    assert o.kind == ini.Outcome.WON
    assert o.winner == U and o.fee == 5
    assert [(i.side, i.level) for i in o.impulses] == [(U, 3), (C, 2)]
    assert o.remaining == {U: 2, C: 3}


# 5.12 a tie on the first or second bid is bid again
@pytest.mark.parametrize("rnd", [1, 2])
def test_5_12_tie_rebids(rnd):
    o = outcome(2, 2, rnd=rnd)
    assert o.kind == ini.Outcome.REBID
    assert o.winner is None and o.fee == 0 and o.impulses == []


# 5.12 / H-4: still tied after 3 bids: the side with more WEP goes first and pays 10
def test_5_12_third_tie_more_wep_wins_pays_10():
    o = outcome(2, 2, rnd=3, wu=40, wc=90)
    assert o.kind == ini.Outcome.TIEBREAK
    assert o.winner == C and o.fee == 10
    assert [(i.side, i.level) for i in o.impulses] == [(C, 2), (U, 2)]


# 5.12 unstated case (equal WEP after the third tie): each side rolls 1d6, re-roll ties
def test_5_12_third_tie_equal_wep_rolls_off():
    o = outcome(2, 2, rnd=3, wu=50, wc=50, faces=[4, 4, 2, 5])
    assert o.winner == C and o.fee == 10
    assert [r.faces for r in o.rolls] == [[4], [4], [2], [5]]


# 5.12 exception / H-4: both show Pass -> no impulses at all
@pytest.mark.parametrize("rnd", [1, 2, 3])
def test_5_12_both_pass_no_impulses(rnd):
    o = outcome(0, 0, rnd=rnd)
    assert o.kind == ini.Outcome.NO_ACTIVITY
    assert o.impulses == [] and o.fee == 0


# 5.13a / H-2: Union max 5 bids 4, Confederates pass -> Union plays 3 then 2
def test_5_13a_h2_monopoly_union_3_then_2():
    o = outcome(4, 0, mu=5, mc=3)
    assert o.kind == ini.Outcome.MONOPOLY
    assert o.winner == U
    assert [(i.side, i.level) for i in o.impulses] == [(U, 3), (U, 2)]
    assert all(i.fixed for i in o.impulses)
    assert o.remaining == {U: 0, C: 0}


# 5.13a: the monopolist pays the 5 WEP initiative fee (reading in games/heartland/readings.md)
def test_5_13a_monopoly_pays_5():
    assert outcome(4, 0, mu=5, mc=3).fee == 5


# 5.13 / H-2 companion: Union max 5 bids 2, Confederates pass: 2 <= ceil(5/2) = 3 -> no impulses
def test_5_13_low_bid_against_pass_no_activity():
    o = outcome(2, 0, mu=5)
    assert o.kind == ini.Outcome.NO_ACTIVITY and o.impulses == []


# 5.13 ambiguity: a bid exactly ceil(max/2) (3 of 5) against a pass is "no activity" (reading i)
def test_5_13_bid_equal_to_half_rounded_up_is_no_activity():
    o = outcome(0, 3, mc=5)
    assert o.kind == ini.Outcome.NO_ACTIVITY


# 5.13a with an even maximum: 4 of 6 > 3 -> monopoly 3 + 3; 3 of 6 -> nothing
def test_5_13a_even_maximum():
    assert [(i.side, i.level) for i in outcome(0, 4, mc=6).impulses] == [(C, 3), (C, 3)]
    assert outcome(0, 3, mc=6).kind == ini.Outcome.NO_ACTIVITY


# 5.13a: a monopoly has at most 2 impulses: max 3 bid 3 -> 2 then 1;
# with max 1 a bid of 1 is not more than ceil(1/2) = 1, so a Pass against it means no activity
def test_5_13a_monopoly_two_impulses_at_most():
    o = outcome(3, 0, mu=3)
    assert [(i.side, i.level) for i in o.impulses] == [(U, 2), (U, 1)]
    assert outcome(1, 0, mu=1).kind == ini.Outcome.NO_ACTIVITY


# 5.14 / H-3 Shiloh: Confederates (max 5) bid 5, Union (max 4) bids less:
# one Confederate impulse at 5, then two Union impulses: its bid, then the rest
def test_5_14_h3_shiloh_full_bid():
    o = outcome(2, 5, mu=4, mc=5)
    assert o.kind == ini.Outcome.WON and o.winner == C and o.fee == 5
    assert [(i.side, i.level, i.fixed) for i in o.impulses] == [(C, 5, True), (U, 2, True), (U, 2, True)]
    assert o.remaining == {U: 0, C: 0}


# 5.14: the loser's second impulse only if he has levels left
def test_5_14_loser_with_no_rest_has_one_impulse():
    o = outcome(4, 5, mu=4, mc=5)
    assert [(i.side, i.level) for i in o.impulses] == [(C, 5), (U, 4)]


# 5.1 bids are 0..max
def test_5_1_bid_limits():
    assert ini.bid_problems(5, 5) == []
    assert ini.bid_problems(0, 5) == []
    assert "5.1" in ini.bid_problems(6, 5)[0].rule
    assert ini.bid_problems(-1, 5)


# 5.15 / 5.17: after the first impulses sides alternate, each declaring 1..remaining;
# a side with levels left when the other has none plays the rest in a row
def test_5_15_next_impulse_alternates():
    # winner Union bid 2 of 5, Confederates bid 1 of 4; both first impulses done
    nxt = ini.next_declarer(last_side=C, remaining={U: 3, C: 3}, initiative=U)
    assert nxt == U
    assert ini.next_declarer(last_side=U, remaining={U: 1, C: 3}, initiative=U) == C
    assert ini.next_declarer(last_side=C, remaining={U: 0, C: 2}, initiative=U) == C  # 5.17 reading
    assert ini.next_declarer(last_side=C, remaining={U: 0, C: 0}, initiative=U) is None


def test_5_15_declared_level_limits():
    assert ini.level_problems(1, remaining=3) == []
    assert ini.level_problems(3, remaining=3) == []
    assert ini.level_problems(0, remaining=3)[0].rule == "5.15"  # at least 1 level per impulse
    assert ini.level_problems(4, remaining=3)


# 5.2 weather: the initiative winner rolls 2d6 except June-August, which are Clear
def test_5_2_weather_summer_is_clear_without_a_roll():
    chart = ini.WeatherChart.load(TODAY)
    dice = FixedDice([])
    w = chart.roll(month=7, dice=dice, by=U)
    assert w.result == "Clear" and w.roll is None and dice.rolls == []


def test_5_2_weather_rolls_2d6_outside_summer():
    chart = ini.WeatherChart.load(TODAY)
    dice = FixedDice([3, 4])
    w = chart.roll(month=4, dice=dice, by=C)
    assert w.roll == [3, 4]
    assert w.result == chart.lookup(4, 7)
    assert dice.rolls[0].by == C and dice.rolls[0].purpose == "weather (2d6)"
    assert chart.stand_in is True


# 4.25 / H-3: leader pay 1 WEP per active leader per impulse; 8 leaders x 2 impulses = 16
def test_4_25_h3_leader_pay():
    assert ini.leader_pay(active_leaders=8) * 2 == 16
