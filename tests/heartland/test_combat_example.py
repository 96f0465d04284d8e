"""H-1: the comprehensive combat example of 10.7 (Longstreet), reproduced with the stand-in FERT.

The example gives strengths, columns, DRMs and ASP but no dice; the faces below
are chosen so that, as in the example, no natural 1 or 6 is rolled, no cell has
an asterisk and the summed retreat counts are equal.

The board (sample map, all clear, weather Clear, FERT offset +4)::

    Hooker 0402   Grant 0503
          Longstreet 0403   Sheridan 0504

Hooker is next to Grant, Grant next to Sheridan, Hooker not next to Sheridan:
when Longstreet attacks Sheridan in the extended battle, Grant (adjacent to
both) supports automatically and Hooker cannot.  Hood starts 4 hexes away in
0106 and reacts in by 0105-0204-0304, out of Union ZOC.
"""
import pytest

from factory import TODAY, C, U, FixedDice, World, sample_map
from hxref.systems.heartland import combat as cb
from hxref.systems.heartland import forces as fc
from hxref.systems.heartland import model
from hxref.systems.heartland import reaction as rx
from hxref.systems.heartland.attack import Assault
from hxref.systems.heartland.fert import Fert
from hxref.systems.heartland.imc import half_up

M = sample_map()
FERT = Fert.load(TODAY)
L, HOOKER, GRANT, SHERIDAN = "0403", "0402", "0503", "0504"


def h1_world() -> World:
    w = World(year=1863)
    s = w.state
    s["fert_offset"] = 4
    s["weather"] = {"result": "Clear"}
    s["sources"] = {U: ["0801"], C: ["0110"]}
    # Confederates: Longstreet 45 CF (8 cavalry), 4 artillery, ML 4, BR 4, MR 4; Hood 18 CF (4 cavalry), 1 artillery
    w.leader("longstreet", C, L, stars=3, hq=True, br=4, mr=4, ml=4, ap=3, artillery=4, asp=8)
    w.units("lb", 7, C, leader="longstreet", size="brigade", cf=(5, 2), ml=(1, 2))
    w.unit("lb8", C, leader="longstreet", size="brigade", cf=(2, 1), ml=(1, 2))
    w.unit("lcav", C, leader="longstreet", arm="cavalry", size="division", cf=(8, 4), ml=(1, 2))
    w.leader("hood", C, "0106", stars=2, br=3, mr=2, ml=3, ap=0, artillery=1, asp=4)
    w.units("hb", 2, C, leader="hood", size="brigade", cf=(5, 2), ml=(1, 2))
    w.unit("hb3", C, leader="hood", size="brigade", cf=(4, 2), ml=(1, 2))
    w.unit("hcav", C, leader="hood", arm="cavalry", size="brigade", cf=(4, 2), ml=(1, 2))
    # Union: all ML 2; as many cavalry units (2) as the Confederates
    w.leader("hooker", U, HOOKER, stars=2, br=5, ml=2, artillery=4, asp=4)
    w.units("hk", 2, U, leader="hooker", cf=(12, 6))
    w.units("hkc", 2, U, leader="hooker", arm="cavalry", size="regiment", cf=(1, 1))
    w.leader("grant", U, GRANT, stars=3, hq=True, br=5, ml=2, artillery=4, asp=4)
    w.units("gd", 3, U, leader="grant", cf=(12, 6))
    w.units("gc", 2, U, leader="grant", arm="cavalry", size="brigade", cf=(2, 1))
    # Sheridan: printed BR 4 and a brevet marker; the rules read every rating 1 lower (14.51)
    w.leader("sheridan", U, SHERIDAN, stars=2, brevet=1, br=4, ml=2, artillery=3, asp=4)
    w.units("sd", 2, U, leader="sheridan", cf=(12, 6))
    w.unit("sd3", U, leader="sheridan", cf=(11, 6))
    w.units("sc", 2, U, leader="sheridan", arm="cavalry", size="brigade", cf=(2, 1))
    return w


ORDER = [Assault("hooker", HOOKER, L), Assault("grant", GRANT, L), Assault("sheridan", SHERIDAN, L)]
#        Hooker 3, Longstreet 2 | Grant 4, Longstreet 2 | Sheridan 2, Longstreet 2
FACES = [3, 2, 4, 2, 2, 2]


@pytest.fixture
def after_reaction():
    w = h1_world()
    r = rx.reaction(w.state, M, "hood", ORDER[0], FixedDice([4]), commander="longstreet", lend_mr=True)
    assert r.legal and r.success and r.reachable[L] == 4          # "4 or less", 4 hexes
    rx.apply_reaction(w.state, r)
    return w


def test_h1_reaction_hood_joins_longstreet_for_2_ap(after_reaction):
    s = after_reaction.state
    assert s["leaders"]["hood"]["hex"] == L and s["leaders"]["hood"]["superior"] == "longstreet"
    assert s["leaders"]["longstreet"]["ap"] == 1                  # 1 to lend his MR + 1 to merge
    assert model.forces_in_hex(s, L, C) == ["longstreet"]


def test_h1_strengths_63_after_hood_joins(after_reaction):
    s = after_reaction.state
    st = cb.stack_strength(s, ["longstreet"], role="defender")
    assert (st.cf, st.artillery) == (63, 5)
    assert cb.stack_cavalry(s, ["longstreet"], C) == (12, 2)
    assert [cb.stack_strength(s, [f], role="attacker").cf for f in ("hooker", "grant", "sheridan")] == [26, 40, 39]


def test_h1_columns_drms_and_asp_of_every_fire(after_reaction):
    s = after_reaction.state
    c = cb.resolve_combat(s, M, ORDER, FixedDice(FACES), fert=FERT)
    assert not c.problems
    x1, x2, x3 = c.exchanges
    # fire 1: Hooker on 21-28, +13; Longstreet 63 + 1 right (ML) = 68-85 ("67-85"), +16
    assert (x1.attack.column.label, x1.attack.drm) == ("21-28", 13)
    assert [(d.rule, d.amount) for d in x1.attack.drms] == [("10.41", 5), ("10.42", 4), ("10.46", 4)]
    assert (x1.defence.strength.cf, x1.defence.column.base_label, x1.defence.column.label) == (63, "58-67", "68-85")
    assert [(d.rule, d.amount) for d in x1.defence.drms] == [("10.41", 4), ("10.42", 5), ("10.43", 3), ("10.46", 4)]
    assert x1.defence.drm == 16                                    # Hood's BR is never used
    # fire 2: Grant 40 (39-47) + 1 wave = 48-57, +13; Longstreet +1 ML -1 wave = 58-67
    assert (x2.attack.column.base_label, x2.attack.column.label, x2.attack.drm) == ("39-47", "48-57", 13)
    assert [s.rule for s in x2.attack.column.shifts] == ["10.33"]
    assert (x2.defence.column.label, x2.defence.drm) == ("58-67", 16)
    assert sorted(s.amount for s in x2.defence.column.shifts) == [-1, 1]
    # fire 3: Sheridan 39 + 1 wave (only 1) = 48-57, +10 (BR 3 after the brevet); Longstreet +1 -2 = 48-57
    assert (x3.attack.column.base_label, x3.attack.column.label, x3.attack.drm) == ("39-47", "48-57", 10)
    assert [(d.rule, d.amount) for d in x3.attack.drms] == [("10.41", 3), ("10.42", 3), ("10.46", 4)]
    assert (x3.defence.column.label, x3.defence.column.net, x3.defence.drm) == ("48-57", -1, 16)
    # ASP: 2 each for the Union OCs and for Longstreet "before the combat", 1 for Hood -- the
    # example's figures, for the whole wave attack: the later waves fire on them (10.12a reading)
    for x, union in ((x1, "hooker"), (x2, "grant"), (x3, "sheridan")):
        assert x.attack.strength.asp_paid == {union: 2}
    assert x1.defence.strength.asp_paid == {"longstreet": 2, "hood": 1}
    assert x2.defence.strength.asp_paid == x3.defence.strength.asp_paid == {}
    assert x2.defence.strength.artillery == x3.defence.strength.artillery == 5      # Hood's gun fires too
    assert c.asp_paid() == {"hooker": 2, "longstreet": 2, "hood": 1, "grant": 2, "sheridan": 2}


def test_h1_wave_results_pooled_equal_retreats_nobody_retreats(after_reaction):
    s = after_reaction.state
    c = cb.resolve_combat(s, M, ORDER, FixedDice(FACES), fert=FERT)
    cells = [(x.attack.cell.text, x.defence.cell.text) for x in c.exchanges]
    assert cells == [("1/1", "3/1"), ("2/1", "2/1"), ("1/1", "2/1")]
    assert not any(f.artillery_check or f.casualty_check or f.cell.morale for f in c.fires)
    assert c.inflicted == {U: 4, C: 7}
    assert c.retreat_totals == {C: 3, U: 3} and c.retreating is None and c.retreats == []
    # defender's losses pooled on Longstreet's hex; each attacker takes its own return fire (10.62)
    by_force = {}
    for e in c.losses():
        owner = model.top_of(s, s["units"][e.unit]["leader"])
        by_force[owner] = by_force.get(owner, 0) + 1
    assert by_force == {"longstreet": 4, "hooker": 3, "grant": 2, "sheridan": 2}
    # the Confederates inflicted more: every participating leader, SLs too, +1 ML (10.64, 3.53(1))
    assert c.ml_winner == C
    assert {(e.leader, e.before, e.after) for e in c.effects if isinstance(e, cb.MlChange)} == {
        ("longstreet", 4, 5), ("hood", 3, 4)}
    cb.apply_combat(s, c)
    assert s["leaders"]["longstreet"]["asp"] == 6 and s["leaders"]["hood"]["asp"] == 3
    assert all(s["leaders"][x]["hex"] for x in ("hooker", "grant", "sheridan", "longstreet"))


def test_h1_extended_battle_union_declines_confederates_attack_sheridan(after_reaction):
    s = after_reaction.state
    first = cb.resolve_combat(s, M, ORDER, FixedDice(FACES), fert=FERT)
    cb.apply_combat(s, first)
    assert {h for _, h in cb.in_contact(s, M, C)} == {HOOKER, GRANT, SHERIDAN}
    eb = cb.extended_battle(U, {U: False, C: True}, levels_left={U: 2, C: 1}, earlier=[first])
    assert eb.asked == [(U, False), (C, True)]
    assert eb.chooser == eb.attacker_side == C and eb.levels_paid == {C: 1} and eb.levels_left == {U: 2, C: 0}
    assert eb.wave_shift_kept == frozenset()                       # only a phasing chooser keeps it
    ea = cb.extended_assault(s, M, "longstreet", SHERIDAN)
    assert ea.assault and [(x.leader, x.ap) for x in ea.charges] == [("longstreet", 1)]
    fc.apply_charges(s, ea.charges)
    assert all(s["leaders"][x]["ap"] == 0 for x in ("longstreet", "hood"))   # "all commanders used up their AP"
    # Grant supports Sheridan automatically with half his CF and artillery; Hooker is not in position
    sup = rx.supports_for(s, M, ea.assault)
    assert [x.supporter for x in sup] == ["grant"]
    grant_cf = rx.force_strength(s, "grant")
    assert (sup[0].added_cf, sup[0].added_artillery) == (half_up(grant_cf), 2)
    second = cb.resolve_combat(s, M, [ea.assault], FixedDice([3, 3]), fert=FERT)
    x = second.exchanges[0]
    assert x.defence.strength.supporters == ("grant",)
    assert x.defence.strength.cf == rx.force_strength(s, "sheridan") + half_up(grant_cf)
    assert x.defence.strength.artillery == 3 + 2
    assert "10.33" not in [sh.rule for sh in x.attack.column.shifts]             # no wave shift
    assert [sh.rule for sh in x.attack.column.shifts] == ["10.31"]                # ML 5 over 2, re-checked
    assert x.attack.strength.asp_paid == {"longstreet": 2, "hood": 1}            # new ASP
    assert x.defence.strength.asp_paid == {"sheridan": 2}
    losers = {model.top_of(s, s["units"][e.unit]["leader"]) for e in second.losses()}
    assert "grant" not in losers                                                 # supporters take no results


def test_h1_a_phasing_chooser_keeps_the_wave_shift(after_reaction):
    s = after_reaction.state
    first = cb.resolve_combat(s, M, ORDER, FixedDice(FACES), fert=FERT)
    eb = cb.extended_battle(U, {U: True}, levels_left={U: 1, C: 1}, earlier=[first])
    assert eb.chooser == U and eb.wave_shift_kept == {"grant", "sheridan"}
    cb.apply_combat(s, first)
    circ = cb.Circumstances(wave_shift_carried=eb.wave_shift_kept)
    c = cb.resolve_combat(s, M, [Assault("grant", GRANT, L)], FixedDice([3, 3]), fert=FERT, circumstances=circ)
    assert [sh.rule for sh in c.exchanges[0].attack.column.shifts] == ["10.71"]
    c = cb.resolve_combat(s, M, [Assault("hooker", HOOKER, L)], FixedDice([3, 3]), fert=FERT, circumstances=circ)
    assert c.exchanges[0].attack.column.shifts == ()
