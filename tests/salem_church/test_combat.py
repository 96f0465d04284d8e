"""Salem Church combat: strengths and their modifiers, the differential, the CRT roll, the
17.3 low-initiative check, the result effects and their settlement.

Numbers come from the digest (rules/salem-church.md): 15.0 (+2 CF), the TEC (halvings),
B1 (differential), B2 (the CRT key), B6 (look-up examples), 17.3, 18.0.  Stand-ins (not
from any source, digest section E) are named as such.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from hxref.base.errors import IllegalOrder, InvalidInput
from hxref.systems.salem_church import combat as cb
from hxref.systems.salem_church import morale as mo
from hxref.systems.salem_church.counters import Fate, Outcome, PathStatus, Unit
from hxref.kit.charts import Charts
from hxref.systems.salem_church.crt import Crt, Result

#: the shipped CRT (charts/crt.yaml as the data folder holds it today)
CRT = Crt.load(Charts.today("salem-church"))


class Dice:
    """A scripted ``roll(purpose)``: hands out the faces in order and records every purpose."""

    def __init__(self, *faces: int):
        self.faces = list(faces)
        self.asked: list[str] = []

    def __call__(self, purpose: str) -> int:
        self.asked.append(purpose)
        assert self.faces, f"unexpected roll: {purpose}"
        return self.faces.pop(0)

    def done(self) -> bool:
        return not self.faces


def inf(id="u1", cf=4, hex="0608", terrain="clear", side="confederate", **kw) -> Unit:
    return Unit(id, side, "infantry", cf=cf, hex=hex, terrain=terrain, morale=kw.pop("morale", 4), **kw)


def art(id="a1", cf=3, hex="0608", terrain="clear", side="confederate", **kw) -> Unit:
    return Unit(id, side, "artillery", cf=cf, hex=hex, terrain=terrain, morale=kw.pop("morale", 4), **kw)


def ldr(id="L1", hex="0608", side="confederate", modifier=0, terrain="clear") -> Unit:
    return Unit(id, side, "leader", hex=hex, terrain=terrain, morale=5, morale_modifier=modifier)


def yank(id="y1", cf=6, hex="0708", terrain="clear", **kw) -> Unit:
    return inf(id, cf, hex, terrain, side="union", **kw)


# --- 15.0 defensive positions -------------------------------------------------------------------
@pytest.mark.parametrize("hex", ["0609", "0610"])
def test_15_0_infantry_brigade_defending_in_a_defensive_position_plus_2(hex):
    # 15.0 defensive position +2 CF, 0609 / 0610: CF n counts n + 2 (B6)
    s = cb.defence_strength([inf(cf=4, hex=hex)])
    assert s.total == 6
    assert [(m.effect, m.rule) for m in s.modifiers] == [("+2", "15.0")]
    assert hex in s.modifiers[0].reason


def test_15_0_no_bonus_outside_0609_0610():
    assert cb.defence_strength([inf(cf=4, hex="0608")]).total == 4


def test_15_0_artillery_gets_no_bonus():
    # 15.0 / B6: an artillery unit there counts n
    assert cb.defence_strength([art(cf=3, hex="0609")]).total == 3


def test_15_0_leader_gets_no_bonus_and_has_no_cf():
    s = cb.defence_strength([inf(cf=4, hex="0609"), ldr(hex="0609")])
    assert s.total == 6


def test_15_0_per_brigade_when_two_brigades_stack():
    # 15.0 ambiguity, digest G5: +2 per infantry brigade -> (4 + 2) + (3 + 2)
    s = cb.defence_strength([inf("u1", 4, "0609"), inf("u2", 3, "0609")])
    assert s.total == 11


def test_15_0_no_bonus_when_attacking_from_0609():
    # B6: an infantry brigade attacking from 0609 counts n
    s = cb.attack_strength([inf(cf=4, hex="0609")], target_terrain="clear")
    assert s.total == 4 and not s.modifiers


# --- TEC: heavy woods ---------------------------------------------------------------------------
def test_tec_attack_into_heavy_woods_halved():
    # TEC heavy woods: CF halved when attacking into it
    s = cb.attack_strength([yank(cf=6)], target_terrain="heavy_woods")
    assert s.total == 3
    assert [(m.effect, m.rule) for m in s.modifiers] == [("/2", "TEC")]


def test_tec_attack_out_of_heavy_woods_halved():
    # TEC heavy woods: CF halved when attacking out of it
    assert cb.attack_strength([yank(cf=6, terrain="heavy_woods")], target_terrain="clear").total == 3


def test_tec_heavy_woods_into_heavy_woods_halved_once():
    # reading: "into or out of" is one condition, one halving
    assert cb.attack_strength([yank(cf=6, terrain="heavy_woods")], target_terrain="heavy_woods").total == 3


def test_tec_heavy_woods_halving_keeps_fractions_and_rounds_the_total_down():
    # stand-in (rounding is a standard rule; down, as games/salem_church/terrain.yaml):
    # 5 -> 2.5 -> 2; 3 + 3 -> 1.5 + 1.5 = 3 (halves kept exactly until the total)
    s = cb.attack_strength([yank(cf=5)], target_terrain="heavy_woods")
    assert s.exact == Fraction(5, 2) and s.total == 2
    s = cb.attack_strength([yank("y1", 3), yank("y2", 3)], target_terrain="heavy_woods")
    assert s.exact == 3 and s.total == 3


def test_tec_only_infantry_may_attack_into_heavy_woods():
    with pytest.raises(IllegalOrder) as e:
        cb.check_combat([art(side="union", hex="0708")], [inf(terrain="heavy_woods")])
    assert e.value.rule == "TEC"


def test_tec_defender_in_heavy_woods_is_not_halved():
    assert cb.defence_strength([inf(cf=4, terrain="heavy_woods")]).total == 4


# --- TEC: light woods ---------------------------------------------------------------------------
def test_tec_attacker_in_clear_attacking_into_light_woods_halved():
    # TEC light woods: attacker's CF halved when attacking into it across a clear hex (G12)
    s = cb.attack_strength([yank(cf=6, terrain="clear")], target_terrain="light_woods")
    assert s.total == 3 and s.modifiers[0].rule == "TEC"


def test_tec_attacker_on_a_clear_hill_into_light_woods_halved():
    # TEC hill: "as clear/woods in the hex"
    assert cb.attack_strength([yank(cf=6, terrain={"hill"})], target_terrain="light_woods").total == 3


@pytest.mark.parametrize("terrain", ["light_woods", {"hill", "light_woods"}])
def test_tec_attacker_in_light_woods_into_light_woods_not_halved(terrain):
    assert cb.attack_strength([yank(cf=6, terrain=terrain)], target_terrain="light_woods").total == 6


def test_tec_clear_into_clear_no_modifier():
    assert cb.attack_strength([yank(cf=6)], target_terrain={"clear", "road"}).total == 6


def test_tec_light_woods_into_heavy_woods_one_halving():
    s = cb.attack_strength([yank(cf=6, terrain="light_woods")], target_terrain="heavy_woods")
    assert s.total == 3 and len(s.modifiers) == 1


def test_tec_light_woods_halving_applies_per_unit():
    # TEC ambiguity: per attacking unit -> only the unit in clear is halved: 3 + 6
    s = cb.attack_strength([yank("y1", 6, terrain="clear"), yank("y2", 6, "0709", terrain="light_woods")],
                           target_terrain="light_woods")
    assert s.total == 9


def test_tec_artillery_attacking_from_clear_into_light_woods_halved():
    s = cb.attack_strength([art(cf=4, side="union", hex="0708")], target_terrain="light_woods")
    assert s.total == 2


def test_unknown_terrain_name_is_refused():
    with pytest.raises(InvalidInput, match="swamp"):
        cb.attack_strength([yank()], target_terrain="swamp")


# --- disrupted units, counter-attacks (stand-ins, digest D2/E) ---------------------------------
def test_stand_in_disrupted_unit_halved_attacking_and_defending():
    assert cb.attack_strength([yank(cf=6, disrupted=True)], target_terrain="clear").total == 3
    s = cb.defence_strength([inf(cf=4, disrupted=True)])
    assert s.total == 2 and s.modifiers[0].rule == "D2 stand-in"


def test_stand_in_disrupted_in_defensive_position_halved_before_the_plus_2():
    # 15.0 order of +2 and halving not stated (G5): halve, then add -> 4 / 2 + 2
    assert cb.defence_strength([inf(cf=4, hex="0609", disrupted=True)]).total == 4


def test_stand_in_disrupted_may_be_read_as_full_strength():
    assert cb.defence_strength([inf(cf=4, disrupted=True)], disrupted="full").total == 4


def test_stand_in_disrupted_may_be_read_as_cannot_attack():
    with pytest.raises(IllegalOrder):
        cb.check_combat([yank(disrupted=True)], [inf()], disrupted="no_attack")


def test_7_2_counter_attack_at_double_printed_strength():
    # 7.2 per D2: a counter-attack is at double printed strength
    assert cb.attack_strength([inf(cf=3)], target_terrain="clear", counter_attack=True).total == 6
    # doubled first, then halved: 3 x 2 / 2
    assert cb.attack_strength([inf(cf=3)], target_terrain="light_woods", counter_attack=True).total == 3


# --- B1: the differential -----------------------------------------------------------------------
def test_b1_differential_is_attacker_minus_defender():
    a = cb.attack_strength([yank(cf=8)], target_terrain="clear")
    d = cb.defence_strength([inf(cf=4, hex="0609")])
    assert cb.differential(a, d) == 2          # 8 - (4 + 2)
    assert cb.differential(d, a) == -2


# --- legality: 18.0, 16.0, the shape of a combat ------------------------------------------------
def test_18_0_no_combat_on_the_night_turn():
    with pytest.raises(IllegalOrder) as e:
        cb.check_combat([yank()], [inf()], turn=6)
    assert e.value.rule == "18.0"


@pytest.mark.parametrize("turn", [5, 7, None])
def test_18_0_combat_on_other_turns(turn):
    cb.check_combat([yank()], [inf()], turn=turn)


def test_16_0_the_wagon_train_is_never_attacked():
    train = Unit("train", "union", "wagon_train", hex="0708")
    with pytest.raises(IllegalOrder) as e:
        cb.check_combat([inf(hex="0608")], [train])
    assert e.value.rule == "16.0"


def test_defenders_must_share_one_hex():
    with pytest.raises(IllegalOrder):
        cb.check_combat([yank()], [inf("u1", hex="0608"), inf("u2", hex="0607")])


def test_attackers_and_defenders_are_enemies():
    with pytest.raises(IllegalOrder):
        cb.check_combat([inf("u1")], [inf("u2", hex="0607")])


def test_an_attack_needs_a_combat_unit():
    with pytest.raises(IllegalOrder):
        cb.check_combat([ldr(side="union", hex="0708")], [inf()])


# --- resolve: the whole combat, explained ------------------------------------------------------
def test_resolve_b6_example_through_the_defensive_position():
    # 9 CF against a 4-CF brigade in 0609 (15.0): 9 - 6 = +3, column +2..+3, die 2: Dc(Ex) (B6)
    dice = Dice(2, 3)                      # CRT 2; defender MC 3 against morale 4: pass -> Ex
    c = cb.resolve([yank(cf=9)], [inf(cf=4, hex="0609", morale=4)], dice, crt=CRT)
    assert (c.attack.total, c.defence.total, c.differential, c.column) == (9, 6, 3, "+2..+3")
    assert c.die == 2 and c.result.code == "Dc(Ex)"
    assert dice.asked[0] == "CRT" and dice.done()
    assert c.effects.attacker.steps == 1 and c.effects.defender.steps == 1
    x = c.explanation()
    assert (x["column"], x["differential"], x["die"], x["cell"], x["result"]) == ("+2..+3", 3, 2, "Dc(Ex)", "Dc(Ex)")
    assert x["shifts"] == [] and x["drms"] == []
    assert x["modifiers"] == [{"side": "defender", "unit": "u1", "effect": "+2", "rule": "15.0",
                               "reason": "infantry brigade defending in defensive position 0609"}]
    assert x["defender"]["total"] == 6 and x["attacker"]["total"] == 9
    assert x["stand_in"] is True and x["uncertain"] is None
    assert x["checks"][0]["rule"] == "B2" and x["checks"][0]["passed"] is True
    assert "Dc(Ex)" in c.why and "+2..+3" in c.why


def test_resolve_reports_an_uncertain_cell():
    # B4: (5, +2..+3) is one of the two "?" cells
    c = cb.resolve([yank(cf=7)], [inf(cf=4)], Dice(5, 6), crt=CRT)      # Dx; MC 6 > 4 fails
    assert c.result.code == "Dx"
    assert "Dr" in c.explanation()["uncertain"]
    assert c.effects.defender.outcome is Outcome.DISRUPT_AND_RETREAT


def test_resolve_die_4_rolls_for_each_leader_of_both_sides():
    # B5.7 / CRT key: die 4 carries Leader; 1d6 per leader, 5-6 kills
    att = [yank(cf=6), ldr("Newton", hex="0708", side="union")]
    dfn = [inf(cf=6, morale=4), ldr("McLaws", hex="0608")]
    dice = Dice(4, 3, 5, 4)                 # CRT 4 at 0: Dc(Ex) + Leader; MC 3 pass; Newton 5; McLaws 4
    c = cb.resolve(att, dfn, dice, crt=CRT)
    assert c.result.leader and c.result.code == "Dc(Ex)"
    assert [(k.leader, k.die, k.killed) for k in c.effects.leaders] == [("Newton", 5, True), ("McLaws", 4, False)]
    assert dice.asked == ["CRT", "MC u1 (defender, Dc(Ex))", "leader casualty Newton", "leader casualty McLaws"]
    assert c.explanation()["effects"]["leaders"][0]["killed"] is True


def test_resolve_no_leader_roll_off_die_4():
    c = cb.resolve([yank(cf=6), ldr("Newton", hex="0708", side="union")], [inf(cf=6)], Dice(1), crt=CRT)   # Ar
    assert c.result.code == "Ar" and c.effects.leaders == ()


def test_resolve_refuses_a_night_combat():
    with pytest.raises(IllegalOrder):
        cb.resolve([yank()], [inf()], Dice(3), turn=6, crt=CRT)


def test_resolve_rejects_a_die_that_is_not_1d6():
    with pytest.raises(ValueError, match="1d6"):
        cb.resolve([yank()], [inf()], Dice(7), crt=CRT)


# --- 17.3 Union low initiative -------------------------------------------------------------------
def test_17_3_failed_mc_cancels_the_attack_and_allows_a_counter_attack():
    dice = Dice(4)                          # first unit morale 3: 4 > 3 fails
    c = cb.resolve([yank(morale=3)], [inf()], dice, union_low_initiative=True, crt=CRT)
    assert c.cancelled and c.counter_attack_allowed
    assert c.die is None and c.result is None
    assert dice.asked == ["low initiative MC y1 (17.3)"]
    x = c.explanation()
    assert x["cancelled"] is True and x["checks"][0]["rule"] == "17.3"
    assert "7.2" in c.why


def test_17_3_passed_mc_resolves_normally():
    dice = Dice(3, 1)                       # MC 3 <= 3 passes; CRT 1
    c = cb.resolve([yank(morale=3)], [inf(cf=6)], dice, union_low_initiative=True, crt=CRT)
    assert not c.cancelled and c.result.code == "Ar"
    assert dice.asked == ["low initiative MC y1 (17.3)", "CRT"]


def test_17_3_leader_modification_applies():
    # 17.3: a stacked leader modifies the first unit's morale (amount: leader data, stand-in)
    dice = Dice(4, 1)
    c = cb.resolve([yank(morale=3), ldr("Newton", hex="0708", side="union", modifier=1)], [inf(cf=6)],
                   dice, union_low_initiative=True, crt=CRT)
    assert not c.cancelled and c.checks[0].rating == 4


def test_17_3_leader_in_another_hex_does_not_modify():
    c = cb.resolve([yank(morale=3), ldr("Newton", hex="0709", side="union", modifier=1)], [inf()],
                   Dice(4), union_low_initiative=True, crt=CRT)
    assert c.cancelled


def test_17_3_designated_first_unit():
    dice = Dice(4, 1)
    c = cb.resolve([yank("y1", morale=3), yank("y2", hex="0709", morale=5)], [inf(cf=12)], dice,
                   union_low_initiative=True, first_attacker="y2", crt=CRT)
    assert not c.cancelled and dice.asked[0] == "low initiative MC y2 (17.3)"


def test_17_3_confederate_attacks_never_check():
    dice = Dice(1)
    c = cb.resolve([inf(cf=4)], [yank(cf=4)], dice, union_low_initiative=True, crt=CRT)
    assert dice.asked == ["CRT"] and not c.cancelled


def test_17_3_union_counter_attack_does_not_check():
    # 17.3 applies in the Union combat phase; a counter-attack is in the Confederate turn
    dice = Dice(1)
    cb.resolve([yank(cf=3)], [inf(cf=6)], dice, union_low_initiative=True, counter_attack=True, crt=CRT)
    assert dice.asked == ["CRT"]


def test_low_initiative_check_on_its_own():
    assert mo.low_initiative_check(yank(morale=3), 3).passed
    assert not mo.low_initiative_check(yank(morale=3), 4).passed


# --- B2: the MC -------------------------------------------------------------------------------
def test_mc_passes_on_die_at_most_the_rating():
    # digest 0. (derived from 17.2): fails if the die is greater than the rating
    u = inf(morale=4)
    assert mo.morale_check(u, 4, purpose="x", rule="B2").passed
    assert not mo.morale_check(u, 5, purpose="x", rule="B2").passed


def test_mc_needs_a_morale_rating():
    with pytest.raises(InvalidInput, match="morale"):
        mo.morale_check(Unit("u", "union", "infantry", cf=3), 2, purpose="x", rule="B2")


# --- B2: the result effects as a plan ----------------------------------------------------------
ATT = [Unit("y1", "union", "infantry", cf=6, hex="0708", morale=4)]
DEF = [Unit("c1", "confederate", "infantry", cf=4, hex="0608", morale=4),
       Unit("c2", "confederate", "artillery", cf=2, hex="0608", morale=3)]


def plan(code: str, *faces: int):
    dice = Dice(*faces)
    p = cb.plan_effects(Result.parse(code), ATT, DEF, dice, crt=CRT)
    assert dice.done(), dice.faces
    return p, dice


def test_b2_ne():
    p, _ = plan("NE")
    assert p.attacker.outcome is Outcome.NONE and p.defender.outcome is Outcome.NONE
    assert p.attacker.steps == p.defender.steps == 0


@pytest.mark.parametrize("code,role", [("Ar", "attacker"), ("Dr", "defender")])
def test_b2_ar_dr_disrupt_or_retreat_1_to_3(code, role):
    p, dice = plan(code)
    e = getattr(p, role)
    assert e.outcome is Outcome.DISRUPT_OR_RETREAT and e.retreat == (1, 3)
    assert e.choices == ("disrupt", "retreat")
    assert dice.asked == []


def test_b2_ac_ne_pass_and_fail():
    p, dice = plan("Ac(NE)", 4)             # first attacking unit, morale 4
    assert p.attacker.outcome is Outcome.NONE
    assert dice.asked == ["MC y1 (attacker, Ac(NE))"]
    p, _ = plan("Ac(NE)", 5)
    assert p.attacker.outcome is Outcome.DISRUPT_OR_RETREAT and p.defender.outcome is Outcome.NONE


def test_b2_ac_ex_pass_is_an_exchange_fail_is_ar():
    p, _ = plan("Ac(Ex)", 2)
    assert (p.attacker.steps, p.defender.steps) == (1, 1)
    p, _ = plan("Ac(Ex)", 6)
    assert p.attacker.outcome is Outcome.DISRUPT_OR_RETREAT and (p.attacker.steps, p.defender.steps) == (0, 0)


def test_b2_dc_ne_uses_the_first_defending_unit():
    p, dice = plan("Dc(NE)", 5)
    assert dice.asked == ["MC c1 (defender, Dc(NE))"]
    assert p.defender.outcome is Outcome.DISRUPT_OR_RETREAT


def test_b2_dc_dr_gives_dr_either_way():
    # B2 / G10: kept as printed, the MC is still rolled and recorded
    for face in (1, 6):
        p, _ = plan("Dc(Dr)", face)
        assert p.defender.outcome is Outcome.DISRUPT_OR_RETREAT
        assert len(p.defender.checks) == 1


@pytest.mark.parametrize("code,role", [("Ax", "attacker"), ("Dx", "defender")])
def test_b2_ax_dx_pass_may_choose_a_loss(code, role):
    p, _ = plan(code, 4)
    e = getattr(p, role)
    assert e.outcome is Outcome.LOSS_OR_DISRUPT_AND_RETREAT and e.choices == ("loss", "retreat")
    p, _ = plan(code, 5)
    e = getattr(p, role)
    assert e.outcome is Outcome.DISRUPT_AND_RETREAT and e.retreat == (1, 3) and e.choices == ("retreat",)


def test_b2_dm_dr_fail_routs_pass_is_dr():
    p, _ = plan("Dm(Dr)", 5)
    assert p.defender.outcome is Outcome.ROUT
    p, _ = plan("Dm(Dr)", 1)
    assert p.defender.outcome is Outcome.DISRUPT_OR_RETREAT


def test_b2_dm_dx_pass_then_the_dx_mc():
    # reading: the bracketed Dx is applied in full, with its own MC
    p, dice = plan("Dm(Dx)", 3, 4)
    assert p.defender.outcome is Outcome.LOSS_OR_DISRUPT_AND_RETREAT
    assert dice.asked == ["MC c1 (defender, Dm(Dx))", "MC c1 (defender, Dx)"]
    p, _ = plan("Dm(Dx)", 3, 5)
    assert p.defender.outcome is Outcome.DISRUPT_AND_RETREAT
    p, _ = plan("Dm(Dx)", 6)
    assert p.defender.outcome is Outcome.ROUT and len(p.defender.checks) == 1


def test_b2_mc_uses_the_designated_first_unit_and_its_leader():
    dice = Dice(4)
    dfn = DEF + [Unit("Kershaw", "confederate", "leader", hex="0608", morale_modifier=1)]
    p = cb.plan_effects(Result.parse("Dc(NE)"), ATT, dfn, dice, first_defender="c2", crt=CRT)
    assert dice.asked == ["MC c2 (defender, Dc(NE))"]
    assert p.defender.checks[0].rating == 4 and p.defender.checks[0].passed    # 3 + 1


def test_b2_leader_line_rolls_every_leader_of_both_sides():
    att = ATT + [Unit("Newton", "union", "leader", hex="0708")]
    dfn = DEF + [Unit("Kershaw", "confederate", "leader", hex="0608"),
                 Unit("McLaws", "confederate", "leader", hex="0608")]
    dice = Dice(6, 1, 5)
    p = cb.plan_effects(Result.parse("Dr + Leader"), att, dfn, dice, crt=CRT)
    assert [(k.leader, k.killed) for k in p.leaders] == [("Newton", True), ("Kershaw", False), ("McLaws", True)]


def test_leader_casualties_kill_on_5_and_6():
    got = mo.leader_casualties([ldr(f"L{i}") for i in range(1, 7)], Dice(1, 2, 3, 4, 5, 6), crt=CRT)
    assert [k.killed for k in got] == [False, False, False, False, True, True]
    assert got[4].rule == "B2"


# --- settling a plan: the owner's choice, retreat paths, capture ------------------------------
def side_effect(code: str, *faces: int, role="defender"):
    return getattr(plan(code, *faces)[0], role)


def test_settle_dr_disrupt_instead_of_retreat():
    s = cb.settle(side_effect("Dr"), DEF, choice="disrupt")
    assert s.disrupted == ("c1", "c2") and s.fates == {} and s.hexes == 0


def test_settle_dr_retreat_two_hexes_on_a_safe_path():
    s = cb.settle(side_effect("Dr"), DEF, choice="retreat", hexes=2)
    assert s.fates == {"c1": Fate.RETREAT, "c2": Fate.RETREAT} and s.hexes == 2 and s.disrupted == ()


def test_settle_retreat_only_along_an_unsafe_path_routs():
    # CRT key: a unit that can retreat only along an unsafe path routs
    s = cb.settle(side_effect("Dr"), DEF, choice="retreat", hexes=1, path=PathStatus.UNSAFE)
    assert set(s.fates.values()) == {Fate.ROUT} and s.routed == ("c1", "c2")


def test_settle_no_retreat_possible_is_captured():
    # CRT key: a unit that cannot retreat is captured
    s = cb.settle(side_effect("Dr"), DEF, choice="retreat", hexes=3,
                  path=lambda unit, hexes: PathStatus.NONE if unit == "c2" else PathStatus.SAFE)
    assert s.fates == {"c1": Fate.RETREAT, "c2": Fate.CAPTURED} and s.captured == ("c2",)


@pytest.mark.parametrize("hexes", [None, 0, 4])
def test_settle_retreat_is_1_to_3_hexes(hexes):
    with pytest.raises(IllegalOrder):
        cb.settle(side_effect("Dr"), DEF, choice="retreat", hexes=hexes)


def test_settle_choice_must_be_offered():
    with pytest.raises(IllegalOrder, match="loss"):
        cb.settle(side_effect("Dr"), DEF, choice="loss")


def test_settle_dx_passed_take_the_loss():
    s = cb.settle(side_effect("Dx", 1), DEF, choice="loss")
    assert s.steps_lost == 1 and s.fates == {} and s.disrupted == ()


def test_settle_dx_passed_decline_the_loss_disrupted_and_retreat():
    s = cb.settle(side_effect("Dx", 1), DEF, choice="retreat", hexes=1)
    assert s.disrupted == ("c1", "c2") and set(s.fates.values()) == {Fate.RETREAT} and s.steps_lost == 0


def test_settle_dx_failed_disrupted_and_retreat_without_choice():
    s = cb.settle(side_effect("Dx", 6), DEF, hexes=2)
    assert s.disrupted == ("c1", "c2") and s.hexes == 2


def test_settle_rout():
    s = cb.settle(side_effect("Dm(Dr)", 6), DEF)
    assert s.routed == ("c1", "c2")


def test_settle_exchange_loses_one_step_each_side():
    p, _ = plan("Ac(Ex)", 1)
    assert cb.settle(p.attacker, ATT).steps_lost == 1
    assert cb.settle(p.defender, DEF).steps_lost == 1


def test_settle_leaders_are_not_disrupted_or_retreated():
    dfn = DEF + [Unit("Kershaw", "confederate", "leader", hex="0608")]
    s = cb.settle(side_effect("Dr"), dfn, choice="disrupt")
    assert "Kershaw" not in s.disrupted
