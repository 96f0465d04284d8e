"""KGP scenario-time rolls (CG Game End, SSR CG5, CG16, I.2, III.5, III.6): hxref/systems/kgp/rolls.py.

Written from the digest (rules/kgp.md: CG Game End, SSR CG5, CG16, 8.51
I.2, 8.53 III.5 and III.6, section 9 "Public die rolls", section 12
examples 37-41 and 45) and checked against the Japanese seed where the
digest is unclear:

* CG Game End: from Turn 6, at the end of each Player Turn, the phasing
  player rolls a dr; <= the circled number of the turn box ends the scenario;
  +1 drm in every Night CG scenario.  Example: Turn 7 of a day scenario, an
  original dr <= 3 ends it (so Turn 7's circled number is 3).
* SSR CG5: Night Defender reinforcements enter when the RPh dr < the turn
  (example 40: Turn 4 -> dr <= 3), or at once when the restriction is lifted.
* SSR III.5: per RG, dr < the turn ("Turn 2, a dr of 1").
* SSR I.2: Medium Tank Platoon II enters at HH0 when the dr is "2 less than"
  the turn ("Turn 3, a dr of 1"): dr <= turn - 2.
* SSR III.6: from Turn 3, the German's DR in his RPh, +1 per Reserve Cloaking
  counter already released; modified DR <= turn releases one (example 41).
* SSR CG16: 2 Sniper counters (Ch: 1); an extra dr picks the attacker with
  equal probability (example 45: 1-3 first, 4-6 second).
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from hxref.kit.charts import Charts
from hxref.base.errors import IllegalOrder, InvalidInput
from hxref.systems.base import Problem
from hxref.systems.kgp import campaign as C
from hxref.systems.kgp import rolls as R

CHARTS = Charts.today("kgp")     # the data folder's files as they are today: no game's
GAME_END = R.load_game_end_chart(CHARTS)

ROOT = Path(__file__).resolve().parents[2]
CHART = ROOT / "games" / "kgp" / "charts" / "game_end.yaml"


# --------------------------------------------------------------------------
# CG Game End


@pytest.mark.parametrize("dr, ends", [(1, True), (2, True), (3, True), (4, False), (5, False), (6, False)])
def test_cg_game_end_example_turn7_day_original_dr_3_or_less_ends(dr, ends):
    # CG Game End example: Turn 7 of a day CG scenario, an original dr <= 3 ends it at once
    g = R.game_end(GAME_END, 7, dr, night=False)
    assert g.ends is ends
    assert g.circled == 3 and g.drm == 0 and g.modified == dr
    assert g.stand_in is False                     # Turn 7 = 3 is the seed's number
    assert g.rule == "CG Game End"
    assert ("ends" if ends else "continues") in g.why and "CG Game End" in g.why


@pytest.mark.parametrize("dr, ends", [(1, True), (2, True), (3, False), (6, False)])
def test_cg_game_end_night_plus_1_drm(dr, ends):
    # CG Game End: "in every CG Night scenario the Game End dr gets +1 drm" (example 37: dr + 1 <= 3)
    g = R.game_end(GAME_END, 7, dr, night=True)
    assert g.drm == 1 and g.modified == dr + 1
    assert g.ends is ends
    assert "+1" in g.why and "Night" in g.why


@pytest.mark.parametrize("turn", [1, 2, 3, 4, 5])
def test_cg_game_end_no_dr_before_turn_6(turn):
    # CG Game End: "From Turn 6 ..." (example 37: Turns 1-5, no Game End dr)
    with pytest.raises(IllegalOrder) as e:
        R.game_end(GAME_END, turn, 1, night=False)
    assert e.value.rule == "CG Game End"
    assert "Turn 6" in e.value.message
    probs = R.check_request("game_end", turn=turn)
    assert probs and probs[0].rule == "CG Game End"


def test_cg_game_end_turn_6_uses_the_stand_in_table():
    # the circled numbers other than Turn 7's are map data the seed does not print: stand-ins, flagged
    g = R.game_end(GAME_END, 6, 1, night=False)
    chart = R.load_game_end_chart(CHARTS)
    assert g.circled == chart.circled(6).value
    assert g.stand_in is True and "stand-in" in g.why
    assert R.check_request("game_end", turn=6) == []


def test_cg_game_end_given_circled_number_overrides_the_table():
    # a player reading his own map's Turn Record Chart passes the circled number
    g = R.game_end(GAME_END, 8, 4, night=False, circled=4)
    assert g.ends and g.circled == 4 and g.stand_in is False
    assert not R.game_end(GAME_END, 8, 5, night=False, circled=4).ends
    assert not R.game_end(GAME_END, 8, 4, night=True, circled=4).ends      # 4 + 1 = 5 > 4


def test_cg_game_end_night_dr_6_never_ends():
    # a modified 7 is above every circled number (1-6)
    for turn in range(6, 16):
        assert not R.game_end(GAME_END, turn, 6, night=True).ends


@pytest.mark.parametrize("bad", [0, 7, -1, True, "3", 2.0, None])
def test_cg_game_end_dr_is_one_die_face(bad):
    with pytest.raises(InvalidInput):
        R.game_end(GAME_END, 7, bad, night=False)


@pytest.mark.parametrize("bad", [0, 7])
def test_cg_game_end_bad_circled_number(bad):
    with pytest.raises(InvalidInput):
        R.game_end(GAME_END, 7, 1, night=False, circled=bad)


def test_game_end_chart_file_turn_7_is_the_seed_and_the_rest_stand_ins():
    chart = R.load_game_end_chart(CHARTS)
    assert chart.stand_in is True and chart.note
    assert chart.rule == "CG Game End"
    assert min(chart.turns) == 6                  # no circle before Turn 6
    t7 = chart.circled(7)
    assert t7.value == 3 and t7.stand_in is False and t7.source == "seed"
    for turn, e in chart.turns.items():
        if turn != 7:
            assert e.stand_in is True and e.note, turn
        assert 1 <= e.value <= 6


def test_game_end_chart_after_the_last_turn_keeps_the_last_number():
    chart = R.load_game_end_chart(CHARTS)
    last = max(chart.turns)
    e = chart.circled(last + 3)
    assert e.value == chart.turns[last].value and e.stand_in is True
    with pytest.raises(IllegalOrder):
        chart.circled(5)


def test_game_end_chart_map_group_override(tmp_path):
    p = tmp_path / "ge.yaml"
    p.write_text("rule: CG Game End\nstand_in: true\nnote: test\n"
                 "turns:\n  6: {circled: 2, stand_in: true, note: x}\n  7: {circled: 3, source: seed}\n"
                 "map_groups:\n  Ch:\n    7: {circled: 4, stand_in: true, note: y}\n", encoding="utf-8")
    chart = R.load_game_end_chart(CHARTS, p)
    assert chart.circled(7).value == 3
    assert chart.circled(7, map_group="Ch").value == 4
    assert chart.circled(6, map_group="Ch").value == 2
    g = R.game_end(chart, 7, 4, night=False, map_group="Ch")
    assert g.ends and g.stand_in


def test_game_end_chart_errors_name_file_and_line(tmp_path):
    p = tmp_path / "ge.yaml"
    p.write_text("rule: CG Game End\nturns:\n  6: {circled: 2}\n  7: {circled: 9}\n", encoding="utf-8")
    with pytest.raises(InvalidInput) as e:
        R.load_game_end_chart(CHARTS, p)
    assert e.value.where.file == str(p) and e.value.where.line == 4
    p.write_text("rule: CG Game End\nturns:\n  5: {circled: 2}\n", encoding="utf-8")
    with pytest.raises(InvalidInput) as e:
        R.load_game_end_chart(CHARTS, p)
    assert "Turn 6" in e.value.message


# --------------------------------------------------------------------------
# reinforcement drs: SSR CG5, I.2 (8.51), III.5 (8.53)


@pytest.mark.parametrize("dr, enters", [(1, True), (2, False), (6, False)])
def test_iii5_turn_2_dr_1_enters(dr, enters):
    # III.5: per RG, "dr < the current game turn", i.e. on Turn 2 a dr of 1
    r = R.reinforcement(2, dr, rule_variant="cg3_iii5", rg="I3")
    assert r.enters is enters and r.max_dr == 1
    assert r.rule == "III.5" and "I3" in r.why


@pytest.mark.parametrize("dr, enters", [(4, True), (5, False)])
def test_iii5_turn_5_dr_4_or_less(dr, enters):
    # example 39 [derived]: Turn 5 -> dr <= 4
    assert R.reinforcement(5, dr, rule_variant="cg3_iii5").enters is enters


@pytest.mark.parametrize("dr, enters", [(3, True), (4, False)])
def test_cg5_night_defender_turn_4_dr_3_or_less(dr, enters):
    # SSR CG5 (example 40): "a reinforcement dr made in the RPh < the current game turn number"
    r = R.reinforcement(4, dr)
    assert r.variant == "standard" and r.rule == "CG5"
    assert r.enters is enters


def test_cg5_turn_1_no_dr_can_succeed_but_is_not_refused():
    r = R.reinforcement(1, 1)
    assert not r.enters and r.max_dr == 0 and "no dr" in r.why
    assert R.check_request("reinforcement", turn=1, phase="RPh") == []


def test_cg5_restriction_lifted_by_an_attack():
    # SSR CG5: lifted when a Scenario-Defender unit is attacked by a Known enemy unit other than OBA or a Sniper
    r = R.reinforcement(2, None, lifted=True)
    assert r.enters and r.dr is None and "lifted" in r.why
    probs = R.check_request("reinforcement", turn=2, phase="RPh", lifted=True)
    assert probs and probs[0].rule == "CG5"          # no dr is needed


def test_lifted_is_only_cg5():
    with pytest.raises(IllegalOrder) as e:
        R.reinforcement(3, None, rule_variant="cg1_i2", lifted=True)
    assert e.value.rule == "I.2"


@pytest.mark.parametrize("dr, enters", [(1, True), (2, False), (6, False)])
def test_i2_medium_tank_platoon_ii_turn_3_dr_1_enters_dr_2_does_not(dr, enters):
    # I.2 (8.51): "2 less than (<) the current game turn ... on Turn 3, a dr of 1" -> dr <= turn - 2
    r = R.reinforcement(3, dr, rule_variant="cg1_i2")
    assert r.enters is enters and r.max_dr == 1
    assert r.rule == "I.2"
    if enters:
        assert r.mandatory and "HH0" in r.why     # it MUST enter from off-map at HH0


def test_i2_turn_4_dr_2_or_less_and_turn_2_never():
    # example 38 [derived]: Turn 4 -> dr <= 2; Turn 2 -> no dr can succeed
    assert R.reinforcement(4, 2, rule_variant="cg1_i2").enters
    assert not R.reinforcement(4, 3, rule_variant="cg1_i2").enters
    r = R.reinforcement(2, 1, rule_variant="cg1_i2")
    assert not r.enters and r.max_dr == 0
    assert "Targnon" in R.REQUESTS["reinforcement_i2"].text    # Retained there if it never enters


def test_reinforcement_unknown_variant_and_bad_dr():
    with pytest.raises(InvalidInput):
        R.reinforcement(3, 1, rule_variant="cg2")
    with pytest.raises(InvalidInput):
        R.reinforcement(3, 7)
    with pytest.raises(InvalidInput):
        R.reinforcement(3, None)                  # a dr is needed unless lifted
    with pytest.raises(InvalidInput):
        R.reinforcement(0, 1)


def test_reinforcement_requests_side_phase_scope_and_once():
    # I.2 and III.5 are US rolls in the RPh of their CG's Initial Scenario; one dr per RPh (per RG in III.5)
    assert R.check_request("reinforcement_i2", turn=3, phase="RPh", side="us", cg="cg-i", initial=True) == []
    bad = {
        "side": R.check_request("reinforcement_i2", turn=3, phase="RPh", side="german"),
        "phase": R.check_request("reinforcement_iii5", turn=3, phase="MPh"),
        "cg": R.check_request("reinforcement_i2", turn=3, cg="cg-iii"),
        "initial": R.check_request("reinforcement_iii5", turn=3, initial=False),
        "entered": R.check_request("reinforcement_iii5", turn=3, entered=True),
        "twice": R.check_request("reinforcement", turn=3, already_rolled=True),
        "day": R.check_request("reinforcement", turn=3, night=False),
    }
    for what, probs in bad.items():
        assert probs and all(isinstance(p, Problem) and p.rule for p in probs), what
    assert bad["side"][0].rule == "I.2" and bad["day"][0].rule == "CG5"


# --------------------------------------------------------------------------
# SSR III.6 Reserve Release DR


@pytest.mark.parametrize("turn", [1, 2])
def test_iii6_no_reserve_release_dr_before_turn_3(turn):
    # III.6: "From Turn 3" (example 41: Turn 2 -> no DR)
    with pytest.raises(IllegalOrder) as e:
        R.reserve_release(turn, (1, 1))
    assert e.value.rule == "III.6" and "Turn 3" in e.value.message
    assert R.check_request("reserve_release", turn=turn)[0].rule == "III.6"


@pytest.mark.parametrize("dice, released", [((1, 1), True), ((1, 2), True), ((2, 2), False), ((6, 6), False)])
def test_iii6_turn_3_none_released_dr_3_or_less(dice, released):
    # example 41: Turn 3, none released -> release on DR <= 3
    r = R.reserve_release(3, dice)
    assert r.dr == sum(dice) and r.drm == 0 and r.modified == sum(dice)
    assert r.releases is released and r.rule == "III.6"


@pytest.mark.parametrize("dice, released", [((2, 2), True), ((1, 3), True), ((2, 3), False)])
def test_iii6_turn_6_two_already_released_plus_2(dice, released):
    # example 41: Turn 6, 2 already released -> DR + 2 <= 6, i.e. DR <= 4
    r = R.reserve_release(6, dice, released=2)
    assert r.drm == 2 and r.modified == sum(dice) + 2
    assert r.releases is released
    assert "+2" in r.why and "III.6" in r.why


def test_iii6_no_counter_left_to_release():
    with pytest.raises(IllegalOrder) as e:
        R.reserve_release(4, (1, 1), reserves_left=0)
    assert e.value.rule == "III.6"
    assert R.reserve_release(4, (1, 1), reserves_left=1).releases


@pytest.mark.parametrize("dice", [3, (3,), (1, 2, 3), (0, 3), (7, 1), (True, 1), "12", None])
def test_iii6_dr_is_two_die_faces(dice):
    with pytest.raises(InvalidInput):
        R.reserve_release(4, dice)


def test_iii6_negative_released_count():
    with pytest.raises(InvalidInput):
        R.reserve_release(4, (1, 1), released=-1)


def test_iii6_request_is_the_germans_in_his_rph():
    assert R.check_request("reserve_release", turn=3, phase="RPh", side="german", phasing="german") == []
    assert R.check_request("reserve_release", turn=3, side="us")[0].rule == "III.6"
    assert R.check_request("reserve_release", turn=3, phase="MPh")[0].rule == "III.6"
    assert R.check_request("reserve_release", turn=3, side="german", phasing="us")   # his own RPh
    assert R.check_request("reserve_release", turn=3, reserves_left=0)


# --------------------------------------------------------------------------
# SSR CG16 Sniper selection


@pytest.mark.parametrize("dr, counter", [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 2)])
def test_cg16_two_snipers_extra_dr_equal_probability(dr, counter):
    # CG16 (example 45): an extra dr decides which counter attacks, equal probability: 1-3 first, 4-6 second
    s = R.sniper_selection(dr)
    assert s.counter == counter and s.counters == 2 and s.rule == "CG16"
    assert ("first" if counter == 1 else "second") in s.why


def test_cg16_selection_is_even():
    picks = [R.sniper_selection(dr).counter for dr in range(1, 7)]
    assert picks.count(1) == picks.count(2) == 3


def test_cg16_ch_map_group_one_sniper_no_roll():
    # CG16 EXC: the Ch map group has only 1 Sniper counter, so no selection dr
    s = R.sniper_selection(None, counters=1)
    assert s.counter == 1 and s.dr is None and "no" in s.why
    with pytest.raises(IllegalOrder) as e:
        R.sniper_selection(4, counters=1)
    assert e.value.rule == "CG16"
    assert R.check_request("sniper_selection", counters=1)[0].rule == "CG16"
    assert R.check_request("sniper_selection", counters=2) == []


def test_cg16_counter_count_and_bad_dr():
    with pytest.raises(IllegalOrder):
        R.sniper_selection(3, counters=3)
    with pytest.raises(IllegalOrder):
        R.sniper_selection(3, counters=0)
    with pytest.raises(InvalidInput):
        R.sniper_selection(None)                  # two counters need the dr
    with pytest.raises(InvalidInput):
        R.sniper_selection(0)


@pytest.mark.parametrize("group, n", [("St", 2), ("Ch", 1), ("Lg", 2)])
def test_cg16_counters_per_map_group_agree_with_the_campaign_files(group, n):
    assert R.sniper_counters(group) == n
    cg = next(c for c in C.campaigns(CHARTS).values() if c.map_group == group)
    assert cg.quotas["snipers"] == n
    with pytest.raises(InvalidInput):
        R.sniper_counters("Xx")


# --------------------------------------------------------------------------
# REQUESTS: the table a game system validates roll requests with (section 9 "Public die rolls")


def test_requests_table_describes_each_roll():
    assert set(R.REQUESTS) == {"game_end", "reinforcement", "reinforcement_i2", "reinforcement_iii5",
                               "reserve_release", "sniper_selection"}
    for name, q in R.REQUESTS.items():
        assert q.name == name
        assert q.dice in ("dr", "DR") and q.count == (1 if q.dice == "dr" else 2)
        assert q.who and q.when and q.rule and q.text and q.purpose
        assert q.public is True                   # section 9: all made openly, logged
        d = q.as_dict()
        assert d["name"] == name and d["rule"] == q.rule and d["dice"] == q.dice
    assert R.REQUESTS["game_end"].first_turn == 6 and R.REQUESTS["game_end"].phase == "end"
    assert R.REQUESTS["reserve_release"].first_turn == 3 and R.REQUESTS["reserve_release"].dice == "DR"
    assert R.REQUESTS["reserve_release"].side == "german"
    assert R.REQUESTS["reinforcement_i2"].cg == "cg-i" and R.REQUESTS["reinforcement_iii5"].cg == "cg-iii"
    assert R.REQUESTS["reserve_release"].cg == "cg-iii" and R.REQUESTS["reserve_release"].initial_only
    assert R.REQUESTS["reinforcement"].night_only
    assert R.REINFORCEMENT_VARIANTS == {"standard": "reinforcement", "cg1_i2": "reinforcement_i2",
                                        "cg3_iii5": "reinforcement_iii5"}


def test_check_request_game_end_phasing_player_at_end_of_player_turn():
    # CG Game End: "at the end of each Player Turn, the phasing player makes a Game End dr"
    assert R.check_request("game_end", turn=7, phase="end", side="us", phasing="us") == []
    assert R.check_request("game_end", turn=7, side="german", phasing="us")[0].rule == "CG Game End"
    assert R.check_request("game_end", turn=7, phase="RPh")[0].rule == "CG Game End"
    assert R.check_request("game_end", turn=7, already_rolled=True)


def test_check_request_unknown_roll_and_bad_turn():
    probs = R.check_request("weather")
    assert probs and "game_end" in probs[0].message
    assert R.check_request("game_end", turn=0)
    assert R.check_request("game_end", turn=7, phase="lunch")


def test_results_are_frozen_and_carry_rule_and_why():
    results = [R.game_end(GAME_END, 7, 3, night=False), R.reinforcement(2, 1), R.reserve_release(3, (1, 1)),
               R.sniper_selection(2)]
    for res in results:
        assert dataclasses.is_dataclass(res) and res.rule and res.why
        with pytest.raises(dataclasses.FrozenInstanceError):
            res.why = "x"  # type: ignore[misc]
        assert res.as_dict()["rule"] == res.rule


def test_rolls_take_faces_from_the_verifiable_dice_and_are_logged():
    # section 9: the rolls are public and logged; the rules take faces, the dice module rolls and records
    from hxref.crypto.dice import FixedDice

    d = FixedDice([2, 1, 2, 5])
    q = R.REQUESTS["game_end"]
    (face,) = d.roll(q.purpose, count=q.count, by="us")
    assert R.game_end(GAME_END, 7, face, night=False).ends
    q = R.REQUESTS["reserve_release"]
    faces = d.roll(q.purpose, count=q.count, by="german")
    assert R.reserve_release(3, tuple(faces)).releases            # 1 + 2 = 3 <= 3
    (face,) = d.roll(R.REQUESTS["sniper_selection"].purpose, by="us")
    assert R.sniper_selection(face).counter == 2
    assert [r.purpose for r in d.rolls] == ["Game End dr (CG Game End)", "Reserve Release DR (III.6)",
                                            "Sniper selection dr (CG16)"]
    assert [r.faces for r in d.rolls] == [[2], [1, 2], [5]]
