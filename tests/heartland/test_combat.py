"""Combat, rules 10.0-10.71 with 3.52-3.55 and 9.14-9.15: one test (or more) per rule, from the
digest's worked examples H-5 ... H-27, and a property test.  Readings: the docstring of
``hxref/systems/heartland/combat.py``.

Most tests use the north-west of the sample map (all clear but the town 0303):
the Union attacker ``grant`` in 0402 and the Confederate defender ``bragg`` in
0403.  Where a test needs a given cell it uses a one-column test FERT read by the
die alone (BR 0, no artillery, no offset: the modified roll is the die).
"""
import copy
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from factory import TODAY, C, U, FixedDice, World, sample_map
from hxref.systems.heartland import combat as cb
from hxref.systems.heartland import model
from hxref.systems.heartland import reaction as rx
from hxref.systems.heartland.attack import Assault, neighbours
from hxref.systems.heartland.fert import Fert, monotonic_problems
from hxref.systems.heartland.imc import half_up

M = sample_map()
FERT = Fert.load(TODAY)
A, D = "0402", "0403"
ATTACK = Assault("grant", A, D)


def tiny_fert(**rows: str) -> Fert:
    """One column (0+), rows 1-6 = the die; ``r3="0/2"`` puts that cell in row 3."""
    data = {"stand_in": True, "columns": ["0+"], "rows": {"first": 1, "last": 6},
            "table": {r: [rows.get(f"r{r}", "-")] for r in range(1, 7)},
            "terrain_shifts": {"hex": {"clear": 0, "woods": 0, "broken": 0, "rough": 0, "swamp": 0, "mountain": 0},
                               "features": {"town": 0, "major_city": 0}, "entrenchment": {},
                               "hexside": {}}}
    return Fert.from_data(data)


def board(*, a_units=1, d_units=1, cf=(10, 5), **kw) -> World:
    """grant (Union, 0402) next to bragg (Confederate, 0403); BR 0, no artillery, offset 0, Clear."""
    w = World(year=1863)
    w.state["weather"] = {"result": "Clear"}
    w.state["fert_offset"] = 0
    w.state["sources"] = {U: ["0401"], C: ["0410"]}
    w.leader("grant", U, A, stars=3, br=0, ml=kw.get("a_ml", 3), asp=kw.get("a_asp", 2),
             artillery=kw.get("a_art", 0))
    w.units("g", a_units, U, leader="grant", cf=cf)
    w.leader("bragg", C, D, stars=3, br=0, ml=kw.get("d_ml", 3), asp=kw.get("d_asp", 2),
             artillery=kw.get("d_art", 0))
    w.units("b", d_units, C, leader="bragg", size="division", cf=cf)
    return w


def steps(state) -> int:
    return sum(u["steps"] for u in state["units"].values())


def resolve(w, faces, fert, assaults=(ATTACK,), **kw):
    return cb.resolve_combat(w.state, M, list(assaults), FixedDice(faces), fert=fert, **kw)


# --- the chart ---------------------------------------------------------------------------

def test_fert_is_a_stand_in_with_the_example_labels_in_order():
    assert FERT.stand_in and "67-85" in FERT.note and "invented" in FERT.note
    labels = list(FERT.labels)
    i = labels.index("39-47")
    assert labels[i:i + 4] == ["39-47", "48-57", "58-67", "68-85"] and "21-28" in labels
    assert [FERT.label(FERT.column_for(n)) for n in (26, 39, 40, 42, 63, 67, 68)] == [
        "21-28", "39-47", "39-47", "39-47", "58-67", "58-67", "68-85"]


def test_fert_ends_read_the_end_column_and_row():
    assert FERT.column_for(0) == 0 and FERT.label(FERT.column_for(10_000)) == "141+"
    assert FERT.shift(1, -5) == (0, True) and FERT.shift(12, 4) == (13, True) and FERT.shift(5, 1) == (6, False)
    assert FERT.row_for(-7) == (FERT.first_row, True) and FERT.row_for(99) == (FERT.last_row, True)
    c = cb.read_column(FERT, 2, [cb.Shift(-3, "test", "10.32")])
    assert (c.label, c.clamped) == ("1-3", True) and "end column" in c.why


def test_fert_is_monotonic_in_strength_and_roll():
    assert monotonic_problems(FERT) == []
    assert FERT.cell(FERT.column_for(63), FERT.first_row).text == "-"
    assert FERT.cell(len(FERT.columns) - 1, FERT.last_row).morale


def test_a_fert_that_favours_the_fired_on_for_a_higher_roll_is_refused_when_loaded(tmp_path):
    import yaml

    data = yaml.safe_load(Path(FERT.path).read_text(encoding="utf-8"))
    data["table"][FERT.last_row][-1] = "-"         # the top right cell gives less than its neighbours
    bad = tmp_path / "fert.yaml"
    bad.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(ValueError, match=r"row \d+, column .* going (right|up).*\(0, 10\.3\)"):
        Fert.load(TODAY, bad)
    Fert.from_data(data)           # a test's hand-made table is not the game's chart: it is not refused


def test_fert_terrain_shifts_cover_every_terrain_name_and_the_10_32_values():
    ts = FERT.terrain
    assert set(M.types["hex"]) <= set(ts.hex) and set(M.types["features"]) <= set(ts.features)
    assert set(M.types["hexside"]) <= set(ts.hexside)
    for g, tt in M.types["hexside"].items():
        for r in tt.replaces:
            assert f"{r}+{g}" in ts.hexside
    known = (ts.hex["clear"], ts.features["major_city"], ts.entrenchment[1], ts.hexside["major_river+ford"])
    assert known == (0, 2, 1, 2)


@pytest.mark.parametrize("bad,msg", [
    ({"columns": ["1-5", "7+"]}, "gap"), ({"columns": ["1-5", "6-9"]}, "open-ended"),
    ({"table": {1: ["x"]}}, "cell"), ({"rows": {"first": 0, "last": 1}}, "without gaps")])
def test_a_malformed_fert_is_refused(bad, msg):
    data = {"columns": ["1-5", "6+"], "rows": {"first": 1, "last": 1}, "table": {1: ["-", "1/0"]}}
    data.update(bad)
    if "table" in bad:
        data["columns"] = ["0+"]
    with pytest.raises(ValueError, match=msg):
        Fert.from_data(data)


# --- strength: ASP (10.12, 10.23) and halvings (10.2x, 10.5, 7.32) --------------------------

def h7_stack(oc_asp=3):
    w = World()
    w.leader("thomas", U, D, stars=4, hq=True, artillery=2, asp=oc_asp)
    for n in (1, 2, 3):
        w.leader(f"sl{n}", U, superior="thomas", stars=2, artillery=3, asp=1)
        w.unit(f"u{n}", U, leader=f"sl{n}", cf=(10, 5))
    w.unit("u0", U, leader="thomas", cf=(10, 5))
    return w


def test_h7_ammunition_each_leader_1_for_artillery_the_oc_1_more():
    s = cb.stack_strength(h7_stack().state, ["thomas"], role="attacker")
    assert s.asp_paid == {"thomas": 2, "sl1": 1, "sl2": 1, "sl3": 1} and sum(s.asp_paid.values()) == 5
    assert (s.cf, s.artillery) == (40, 11)
    assert sorted(p.purpose for p in s.asp if p.leader == "thomas") == ["artillery", "general"]


def test_h7_an_oc_who_cannot_pay_the_general_asp_halves_the_whole_stack_once():
    s = cb.stack_strength(h7_stack(oc_asp=0).state, ["thomas"], role="attacker")
    assert s.cf == 20 and any("10.23" in h for h in s.halvings)
    assert s.artillery == 9 and "thomas" not in s.asp_paid          # the SLs still pay for theirs


def test_10_23_with_asp_but_no_artillery_full_cf_only_the_general_asp():
    s = cb.stack_strength(h7_stack().state, ["thomas"], role="attacker", artillery=False)
    assert (s.cf, s.artillery, s.asp_paid) == (40, 0, {"thomas": 1})
    s = cb.stack_strength(h7_stack().state, ["thomas"], role="attacker", artillery={"sl2"})
    assert (s.artillery, s.asp_paid) == (3, {"thomas": 1, "sl2": 1})


def test_10_23_3_a_leader_with_no_asp_halves_his_own_box_only():
    w = h7_stack()
    w.state["leaders"]["sl2"]["asp"] = 0
    s = cb.stack_strength(w.state, ["thomas"], role="attacker")
    assert s.cf == 35 and s.artillery == 8 and "sl2" not in s.asp_paid


def test_10_12_an_oc_with_one_asp_pays_the_general_and_cannot_fire_his_artillery():
    s = cb.stack_strength(h7_stack(oc_asp=1).state, ["thomas"], role="attacker")
    assert s.asp_paid["thomas"] == 1 and s.artillery == 9 and s.cf == 40


def test_h26_out_of_supply_and_forced_march_compound_to_a_quarter():
    w = World()
    w.leader("polk", C, D, asp=0)
    w.unit("p1", C, leader="polk", cf=(45, 20))
    s = cb.stack_strength(w.state, ["polk"], role="defender", supply={"polk": "out"}, forced_march={"polk"})
    assert s.cf == 12 == half_up(half_up(45))


def test_10_21_10_22_inactive_defending_oc_and_forced_march_halve_cf_and_artillery():
    w = World()
    w.leader("polk", C, D, active=False, artillery=5, asp=3)
    w.unit("p1", C, leader="polk", cf=(45, 20))
    s = cb.stack_strength(w.state, ["polk"], role="defender")
    assert (s.cf, s.artillery) == (23, 3)
    s = cb.stack_strength(w.state, ["polk"], role="defender", forced_march={"polk"})
    assert (s.cf, s.artillery) == (12, 2)
    w.state["leaders"]["polk"]["forced_march"] = True                # a flag on the leader works too
    s = cb.stack_strength(w.state, ["polk"], role="defender", supply={"polk": "out"})
    assert (s.cf, s.artillery) == (6, 0)                             # 45/8, and no artillery out of supply


def test_10_21_an_inactive_attacking_oc_cancels_the_combat():
    w = board()
    w.state["leaders"]["grant"]["active"] = False
    c = resolve(w, [], FERT)
    assert c.exchanges[0].cancelled and "10.21" in c.exchanges[0].why
    assert c.effects == [] and c.fires == []


def _three_waves(w):
    w.leader("sherman", U, "0503", br=0)
    w.unit("s1", U, leader="sherman")
    w.leader("sherman2", U, "0404", br=0)
    w.unit("s2", U, leader="sherman2")
    return resolve(w, [2, 2, 2, 2, 2, 2], tiny_fert(),
                   assaults=[ATTACK, Assault("sherman", "0503", D), Assault("sherman2", "0404", D)])


def test_10_12a_the_defenders_first_payment_covers_every_wave():
    """10.12a read by the 10.7 example: Longstreet pays 2 and Hood 1 "before the combat" and nothing
    more over the three fires; the later waves fire on that payment."""
    c = _three_waves(board(d_art=2, d_asp=3))
    one, two, three = c.exchanges
    # the first resolution as 10.12: 1 general, 1 for the artillery
    assert one.defence.strength.asp_paid == {"bragg": 2} and one.defence.strength.artillery == 2
    # the later ones: nothing paid, the same artillery and whole CF, the payment they fire on named
    for x in (two, three):
        assert x.defence.strength.asp == [] and (x.defence.strength.artillery, x.defence.strength.cf) == (2, 10)
        assert x.defence.strength.covered == one.defence.strength.asp
        assert "no ASP paid again" in x.defence.strength.why and "10.12a" in x.defence.strength.why
    assert c.asp_paid()["bragg"] == 2


def test_10_12a_a_defender_who_pays_his_last_asp_at_the_first_wave_is_not_short_at_the_later_ones():
    # 10.12b/10.23(3) judge the ammunition of the wave attack once: his 2 ASP pay for all of it
    c = _three_waves(board(d_art=2, d_asp=2))
    assert [(x.defence.strength.cf, x.defence.strength.artillery) for x in c.exchanges] == [(10, 2)] * 3
    assert c.asp_paid()["bragg"] == 2


def test_10_12a_an_oc_short_of_the_general_asp_halves_every_wave():
    w = board(d_asp=0)
    w.leader("sherman", U, "0503", br=0)
    w.unit("s1", U, leader="sherman")
    c = resolve(w, [2, 2, 2, 2], tiny_fert(), assaults=[ATTACK, Assault("sherman", "0503", D)])
    one, two = c.exchanges
    assert one.defence.strength.cf == two.defence.strength.cf == 5
    assert "10.23" in two.defence.strength.why and "bragg" not in c.asp_paid()


def test_10_12a_the_extended_battle_pays_again():
    # 10.71: 先の戦闘で消費した弾薬補給ポイントとは別に新たな消費: a new combat, a new payment
    w = board(d_art=2, d_asp=5)
    first = _three_waves(w)
    cb.apply_combat(w.state, first)
    assert w.state["leaders"]["bragg"]["asp"] == 3
    again = resolve(w, [2, 2], tiny_fert())
    assert again.exchanges[0].defence.strength.asp_paid == {"bragg": 2}


def test_9_14_support_adds_half_cf_and_artillery_and_never_suffers():
    w = board(cf=(10, 5))
    w.leader("polk", C, "0303", br=0, artillery=3, asp=0)             # 0303 is next to 0402 and 0403
    w.units("p", 3, C, leader="polk", cf=(7, 3))
    sup = rx.supports_for(w.state, M, ATTACK)
    assert [s.supporter for s in sup] == ["polk"] and (sup[0].added_cf, sup[0].added_artillery) == (11, 2)
    c = resolve(w, [3, 3], tiny_fert(r3="3/0"))
    d = c.exchanges[0].defence.strength
    assert (d.cf, d.artillery, d.supporters) == (21, 2, ("polk",))
    assert [e.unit for e in c.losses()] == ["b1", "b1"]               # 3 losses, 2 steps: the supporter none
    cb.apply_combat(w.state, c)
    assert all(w.state["units"][u]["steps"] == 2 for u in ("p1", "p2", "p3"))


# --- column shifts (10.31-10.33) ---------------------------------------------------------

def h5_map(tmp_path):
    from hxref.geometry.mapfile import load_map
    from hxref.base.paths import games_dir
    p = tmp_path / "h5.yaml"
    p.write_text(f"""map: h5
title: H-5
system: heartland
kind: hex
grid: {{labels: four-digit, parity: even, columns: [1, 4], rows: [1, 4], terrain: clear, elevation: 0}}
terrain: {games_dir() / 'heartland' / 'terrain.yaml'}
hexes:
  "0202": {{terrain: clear, features: [major_city]}}
hexsides:
  "0102/0202": [major_river, ford]
""")
    return load_map(p)


@pytest.mark.parametrize("doctrine,attacker,defender", [(False, 5, 2), (True, 3, 0)])
def test_h5_terrain_shifts_of_both_fires(tmp_path, doctrine, attacker, defender):
    hm = h5_map(tmp_path)
    w = World()
    w.leader("grant", U, "0102", ml=3)
    w.unit("g1", U, leader="grant")
    w.leader("bragg", C, "0202", ml=3)
    w.unit("b1", C, leader="bragg")
    w.state["entrenchments"] = {"0202": {"level": 1}}
    kw = dict(wave=1, entrenchments=None, doctrine=doctrine)
    att = cb.fire_shifts(w.state, hm, FERT, ["grant"], ["bragg"], firer_hex="0102", fired_on_hex="0202",
                         firer_attacks=True, **kw)
    ret = cb.fire_shifts(w.state, hm, FERT, ["bragg"], ["grant"], firer_hex="0202", fired_on_hex="0102",
                         firer_attacks=False, **kw)
    assert -sum(s.amount for s in att) == attacker and -sum(s.amount for s in ret) == defender
    assert {s.rule for s in att} <= {"10.32", "10.32a"}


def test_10_32_a_devastated_town_and_a_burned_bridge_are_gone():
    w = World()
    w.leader("grant", U, "0604")
    w.unit("g1", U, leader="grant")
    w.leader("bragg", C, "0705")
    w.unit("b1", C, leader="bragg")
    kw = dict(firer_hex="0604", fired_on_hex="0705", firer_attacks=True)
    assert [s.reason for s in cb.fire_shifts(w.state, M, FERT, ["grant"], ["bragg"], **kw)] == [
        "major_city in 0705", "across major_river+bridge between 0604 and 0705"]
    w.state["burned_bridges"] = {"0604/0705": {"side": C, "turn": 2}}
    sh = cb.fire_shifts(w.state, M, FERT, ["grant"], ["bragg"], **kw)
    assert [s.amount for s in sh] == [-2, -3] and "major_river between" in sh[1].reason
    w.state["devastated"] = ["0303"]
    sh = cb.fire_shifts(w.state, M, FERT, ["grant"], ["bragg"], firer_hex="0604", fired_on_hex="0705",
                        firer_attacks=True)
    assert len(sh) == 2
    w.leader("polk", C, "0303")
    w.unit("p1", C, leader="polk")
    w.state["leaders"]["grant"]["hex"] = "0403"
    assert cb.fire_shifts(w.state, M, FERT, ["grant"], ["polk"], firer_hex="0403", fired_on_hex="0303",
                          firer_attacks=True) == []


def test_10_31_ml_superiority_one_right_shift_and_unled_inverted_ml():
    w = board(a_ml=5, d_ml=4)
    sh = cb.fire_shifts(w.state, M, FERT, ["grant"], ["bragg"], firer_hex=A, fired_on_hex=D, firer_attacks=True)
    assert [(s.amount, s.rule) for s in sh] == [(1, "10.31")]
    w.unit("x1", C, hex="0302", ml=(0, 1))                           # unled ML 0 reads as 6 (3.52b)
    sh = cb.fire_shifts(w.state, M, FERT, ["unled@0302"], ["grant"], firer_hex="0302", fired_on_hex=A,
                        firer_attacks=False)
    assert [(s.amount, s.rule) for s in sh] == [(1, "10.31")] and "inverted to 6" in sh[0].reason


def test_h6_wave_shifts_attackers_once_defender_more_each_wave():
    w = board()
    order = [ATTACK]
    for lid, h in (("sherman", "0503"), ("thomas", "0504"), ("mcpherson", "0404")):
        w.leader(lid, U, h, br=0, ml=3)
        w.unit(f"{lid}1", U, leader=lid)
        order.append(Assault(lid, h, D))
    c = resolve(w, [2] * 8, FERT, assaults=order)
    assert [sum(s.amount for s in x.attack.column.shifts) for x in c.exchanges] == [0, 1, 1, 1]
    assert [sum(s.amount for s in x.defence.column.shifts) for x in c.exchanges] == [0, -1, -2, -3]
    sh = cb.fire_shifts(w.state, M, FERT, ["bragg"], ["grant"], firer_hex=D, fired_on_hex=A, firer_attacks=False,
                        wave=6)
    assert [s.amount for s in sh] == [-5]                             # the theoretical maximum


def test_10_31_in_a_wave_ml_superiority_is_judged_per_exchange():
    w = board(d_ml=3)
    w.leader("sherman", U, "0503", br=0, ml=5)
    w.unit("s1", U, leader="sherman")
    c = resolve(w, [2] * 4, FERT, assaults=[ATTACK, Assault("sherman", "0503", D)])
    assert [s.rule for s in c.exchanges[0].attack.column.shifts] == []
    assert [s.rule for s in c.exchanges[1].attack.column.shifts] == ["10.31", "10.33"]


# --- DRMs (10.41-10.46) -----------------------------------------------------------------

@pytest.mark.parametrize("a,b,expect,superior", [
    ((12, 3), (4, 1), (3, -2), 0), ((12, 3), (4, 3), (3, 0), 0), ((12, 3), (4, 4), (3, 0), 0),
    ((4, 1), (12, 3), (-2, 3), 1), ((6, 2), (6, 1), (0, 0), None), ((0, 0), (0, 0), (0, 0), None)])
def test_h23_cavalry_superiority(a, b, expect, superior):
    cav = cb.cavalry_superiority(*a, *b)
    assert cav.drm == expect and cav.superior == superior


def test_10_43_supporting_cavalry_does_not_count():
    w = board()
    w.unit("gc", U, leader="grant", arm="cavalry", cf=(2, 1))
    w.leader("polk", C, "0303")
    w.units("pc", 3, C, leader="polk", arm="cavalry", cf=(6, 3))
    c = resolve(w, [2, 2], FERT)
    att, ret = c.exchanges[0].attack, c.exchanges[0].defence
    assert ret.strength.supporters == ("polk",)
    assert ("10.43", 3) in [(d.rule, d.amount) for d in att.drms]
    assert ("10.43", -1) in [(d.rule, d.amount) for d in ret.drms]


def test_10_41_only_the_ocs_br_and_the_state_rating_of_a_wounded_leader():
    w = board()
    w.leader("sl", U, superior="grant", br=9)
    s = cb.stack_strength(w.state, ["grant"], role="attacker")
    assert [(d.rule, d.amount) for d in cb.fire_drms(w.state, s, ["bragg"])] == [("10.41", 0)]
    w.state["leaders"]["grant"]["ratings"]["active"]["br"] = 4
    cb.apply_effect(cb.Wound("grant", 3, "10.67", "test"), w.state)
    assert [d.amount for d in cb.fire_drms(w.state, s, ["bragg"])] == [1]       # 4 - 3
    cb.apply_effect(cb.Wound("grant", 2, "10.67", "test"), w.state)
    assert [d.amount for d in cb.fire_drms(w.state, s, ["bragg"])] == [0]       # never below 0


def test_10_44_h15_broken_units_minus_1_each():
    w = World()
    w.leader("buell", U, A, ml=1, br=0)
    w.unit("d16", U, leader="buell", cf=(16, 8), ml=(0, 1))
    w.unit("d12", U, leader="buell", cf=(12, 6), ml=(2, 3))
    s = cb.stack_strength(w.state, ["buell"], role="attacker")
    assert ("10.44", -1) in [(d.rule, d.amount) for d in cb.fire_drms(w.state, s, ["x"])]


@pytest.mark.parametrize("weather,drm", [("Clear", 0), ("Light Rain", 0), ("Rain", -1), ("Mud", -1),
                                         ("Snow", 0), ("Blizzard", -4)])
def test_10_45_weather_both_sides(weather, drm):
    w = board()
    w.state["weather"] = {"result": weather}
    c = resolve(w, [3, 3], FERT)
    for f in c.fires:
        assert sum(d.amount for d in f.drms if d.rule == "10.45") == drm


def test_10_46_offset_both_sides_and_10_41a_hasty_only_the_attacker():
    w = board()
    w.state["fert_offset"] = 6
    c = resolve(w, [3, 3], FERT, assaults=[Assault("grant", A, D, hasty=True)])
    att, ret = c.fires
    assert [(d.rule, d.amount) for d in att.drms] == [("10.41", 0), ("10.46", 6), ("10.41a", -2)]
    assert [(d.rule, d.amount) for d in ret.drms] == [("10.41", 0), ("10.46", 6)]
    c = resolve(w, [3, 3], FERT, circumstances=cb.Circumstances(fert_offset=3, weather="Rain"))
    assert c.fires[0].drm == 2


# --- step losses (10.62, 10.63) ----------------------------------------------------------

def test_h8_six_losses_owner_odd_enemy_even_no_second_step_before_all_have_one():
    w = World()
    w.leader("bragg", C, D)
    for n, cf in enumerate((4, 6, 8, 10), 1):
        w.unit(f"b{n}", C, leader="bragg", cf=(cf, cf // 2))
    picks = cb.allocate_losses(w.state, ["b1", "b2", "b3", "b4"], 6, owner_order=("b4", "b1"),
                               enemy_order=("b2",))
    assert [who for _, who in picks] == ["owner", "enemy"] * 3
    assert [u for u, _ in picks[:4]] == ["b4", "b2", "b1", "b3"]      # orders first, then the defaults
    assert sorted(u for u, _ in picks[:4]) == ["b1", "b2", "b3", "b4"]
    assert [u for u, _ in picks[4:]] == ["b4", "b2"]
    default = cb.allocate_losses(w.state, ["b1", "b2", "b3", "b4"], 2)
    assert default == [("b1", "owner"), ("b4", "enemy")]              # owner weakest, enemy strongest


def test_10_63_attacker_losses_only_to_the_attacking_force_defender_losses_to_any_force_in_the_hex():
    w = board(d_units=1)
    w.leader("mccook", U, A, stars=1)
    w.unit("m1", U, leader="mccook")
    w.unit("x1", C, hex=D)                                           # unled, in the defended hex
    c = resolve(w, [4, 4], tiny_fert(r4="2/0"), choices={U: cb.Choices(loss_order=("x1",))})
    lost = [e.unit for e in c.losses()]
    assert sorted(u for u in lost if u.startswith(("g", "m"))) == ["g1", "g1"]
    assert [(e.unit, e.chooser) for e in c.losses() if e.unit in ("b1", "x1")] == [("b1", "owner"), ("x1", "enemy")]


def test_10_63b_a_wiped_out_force_loses_its_leaders_hq_artillery_and_asp():
    w = board()
    w.state["leaders"]["bragg"].update(hq=True, artillery=4, asp=5)
    w.state["units"]["b1"]["steps"] = 1
    c = resolve(w, [4, 2], tiny_fert(r4="1/0"))
    assert [(type(e).__name__, e.leader) for e in c.effects if isinstance(e, cb.Capture)] == [("Capture", "bragg")]
    cb.apply_combat(w.state, c)
    ld = w.state["leaders"]["bragg"]
    assert ld["captured"] and ld["hex"] is None and (ld["artillery"], ld["asp"]) == (0, 0)
    assert w.state["hq_pool"][C] == ["bragg"]


def test_10_64_all_leaders_of_the_side_inflicting_more_fert_losses_gain_1_ml():
    w = board(a_units=2, d_units=2, a_ml=9)
    w.leader("sl", U, superior="grant", ml=2)
    c = resolve(w, [4, 2], tiny_fert(r4="2/0", r2="1/0"))
    assert c.inflicted == {U: 2, C: 1} and c.ml_winner == U
    assert {(e.leader, e.after) for e in c.effects if isinstance(e, cb.MlChange)} == {("sl", 3)}   # 9 is the top
    c = resolve(w, [2, 2], tiny_fert(r2="1/0"))
    assert c.ml_winner is None and not any(isinstance(e, cb.MlChange) for e in c.effects)


# --- morale checks (10.65, 3.52b) --------------------------------------------------------

def test_10_65_an_asterisk_fails_ml_minus_1_an_extra_step_and_a_1_hex_retreat():
    w = board(d_units=2, d_ml=3)
    before = steps(w.state)
    c = resolve(w, [5, 2, 4], tiny_fert(r5="0/0*"))
    chk = [x for x in c.checks if x.kind == "morale"]
    assert [(x.who, x.result) for x in chk] == [("bragg", "failed")]
    assert [(e.leader, e.before, e.after, e.rule) for e in c.effects if isinstance(e, cb.MlChange)] == [
        ("bragg", 3, 2, "10.65")]
    assert [(e.cause, e.chooser) for e in c.losses()] == [("morale", "owner")]
    assert [(p.start, p.hexes) for p in c.retreats] == [(D, 1)]
    cb.apply_combat(w.state, c)
    assert steps(w.state) == before - 1 and w.state["leaders"]["bragg"]["hex"] == c.retreats[0].route[-1]


def test_10_65_passing_changes_nothing_and_the_check_uses_ml_after_the_rise():
    w = board(d_ml=3)
    c = resolve(w, [5, 4, 4], tiny_fert(r5="0/0*", r4="1/0"))      # bragg inflicts more: ML 4, then rolls 4
    assert c.ml_winner == C and [x.result for x in c.checks if x.kind == "morale"] == ["passed"]
    assert c.retreats == []


@pytest.mark.parametrize("face,passed", [(4, True), (5, False)])
def test_3_52b_an_unled_stack_passes_only_below_its_inverted_ml(face, passed):
    w = board()
    del w.state["leaders"]["bragg"]
    del w.state["units"]["b1"]
    w.unit("x1", C, hex=D, ml=(1, 2))                                # inverted 5
    c = resolve(w, [5, 2, face], tiny_fert(r5="0/0*"))
    assert [x.result for x in c.checks if x.kind == "morale"] == ["passed" if passed else "failed"]


def test_3_52b_h16_each_unled_unit_rolls_for_itself_and_only_the_failed_retreat():
    w = board()
    del w.state["leaders"]["bragg"]
    del w.state["units"]["b1"]
    w.unit("x0", C, hex=D, size="brigade", ml=(0, 1))                # reads as 6
    w.unit("x1", C, hex=D, size="brigade", ml=(1, 2))                # reads as 5
    c = resolve(w, [5, 2, 5, 5], tiny_fert(r5="0/0*"))               # both roll 5: x0 passes, x1 fails
    chk = [(x.who, x.dice, x.result) for x in c.checks if x.kind == "morale"]
    assert chk == [("x0", (5,), "passed"), ("x1", (5,), "failed")]
    assert [(e.unit, e.cause) for e in c.losses()] == [("x1", "morale")]
    assert [(p.start, p.hexes) for p in c.retreats] == [(D, 1)]
    cb.apply_combat(w.state, c)
    assert w.state["units"]["x0"]["hex"] == D and w.state["units"]["x0"]["steps"] == 2
    assert w.state["units"]["x1"]["hex"] == c.retreats[0].route[-1] != D and w.state["units"]["x1"]["steps"] == 1


def test_10_65_exception_a_killed_ocs_successor_ignores_the_morale_check():
    w = board(d_units=2)
    w.leader("hardee", C, superior="bragg", stars=2)
    c = resolve(w, [5, 6, 6, 1], tiny_fert(r5="0/0*"))                # bragg's natural 6: bragg rolls 6, hardee 1
    assert [(x.who, x.result) for x in c.checks if x.kind == "casualty"] == [("bragg", "killed"), ("hardee", "unhurt")]
    assert [x.result for x in c.checks if x.kind == "morale"] == ["ignored"]
    kill = next(e for e in c.effects if isinstance(e, cb.Kill))
    assert kill.heir == "hardee"
    cb.apply_combat(w.state, c)
    s = w.state
    assert s["leaders"]["bragg"]["killed"] and s["leaders"]["hardee"]["superior"] is None
    assert {s["units"][u]["leader"] for u in ("b1", "b2")} == {"hardee"} and model.forces_in_hex(s, D, C) == ["hardee"]


# --- leader casualties (10.67; H-11, H-12) -----------------------------------------------

@pytest.mark.parametrize("faces,result", [((6,), "killed"), ((5, 6), "killed"), ((5, 3), "wounded 3"),
                                          ((5, 1), "wounded 1"), ((4,), "unhurt"), ((1,), "unhurt")])
def test_h12_casualty_rolls_of_the_side_that_rolled_the_natural_6(faces, result):
    w = board()
    c = resolve(w, [6, 2, *faces], tiny_fert())
    assert [(x.who, x.result) for x in c.checks if x.kind == "casualty"] == [("grant", result)]
    if result == "killed":
        k = next(e for e in c.effects if isinstance(e, cb.Kill))
        assert k.heir is None and "10 WEP" in k.replacement
        cb.apply_combat(w.state, c)
        assert w.state["units"]["g1"]["leader"] is None and w.state["units"]["g1"]["hex"] == A


def test_h11_a_wound_lowers_every_rating_by_its_level():
    w = board()
    w.state["leaders"]["grant"]["ratings"] = {"active": {"ar": 4, "br": 3, "mr": 5},
                                              "inactive": {"ar": 2, "br": 1, "mr": 3}}
    c = resolve(w, [6, 2, 5, 2], tiny_fert())
    cb.apply_combat(w.state, c)
    ld = w.state["leaders"]["grant"]
    assert ld["wound"] == 2 and ld["ratings"]["active"]["mr"] == 5           # the printed ratings stay
    assert [cb.leader_rating(ld, k) for k in ("ar", "br", "mr")] == [2, 1, 3]
    ld["active"] = False
    assert [cb.leader_rating(ld, k) for k in ("ar", "br", "mr")] == [0, 0, 1]


def test_10_67b_in_the_last_impulse_the_replacement_waits():
    w = board()
    c = resolve(w, [6, 2, 6], tiny_fert(), circumstances=cb.Circumstances(last_impulse=True))
    assert "Reorganization" in next(e for e in c.effects if isinstance(e, cb.Kill)).replacement


# --- artillery loss (10.66; H-13) --------------------------------------------------------

@pytest.mark.parametrize("face,grant,bragg", [(1, 3, 2), (3, 3, 2), (4, 2, 2), (5, 2, 2), (6, 2, 3)])
def test_h13_artillery_loss_on_a_natural_1(face, grant, bragg):
    w = board(a_art=3, a_asp=2, d_art=2, d_asp=2)
    c = resolve(w, [1, 2, face], tiny_fert())
    assert [(x.kind, x.dice) for x in c.checks] == [("artillery", (face,))]
    cb.apply_combat(w.state, c)
    assert (w.state["leaders"]["grant"]["artillery"], w.state["leaders"]["bragg"]["artillery"]) == (grant, bragg)


def test_10_66_no_artillery_used_nothing_to_lose_no_roll():
    w = board(a_art=3, a_asp=1)                                      # 1 ASP: the general only
    c = resolve(w, [1, 2], tiny_fert())
    assert [(x.kind, x.result, x.dice) for x in c.checks] == [("artillery", "none used", ())]


# --- retreats (10.61d, 10.62, 10.68, 3.53, 3.54b; H-27) -----------------------------------

def test_h27_single_combat_the_defender_retreats_the_net_1_hex_and_the_attacker_may_advance():
    w = board()
    c = resolve(w, [3, 4], tiny_fert(r3="0/2", r4="0/1"), choices={U: cb.Choices(advance="grant")})
    assert c.retreat_totals == {C: 2, U: 1} and (c.retreating, c.retreat_hexes) == (C, 1)
    plan = c.retreats[0]
    assert plan.start == D and len(plan.route) == 1 and plan.zoc == () and plan.chooser == C
    assert [(e.leader, e.after, e.rule) for e in c.effects if isinstance(e, cb.MlChange)] == [("bragg", 2, "3.53")]
    cb.apply_combat(w.state, c)
    assert w.state["leaders"]["bragg"]["hex"] == plan.route[0] and w.state["leaders"]["grant"]["hex"] == D


def test_h27_3_54b_an_oc_gives_up_1_ml_to_cancel_the_1_hex():
    w = board()
    c = resolve(w, [3, 4], tiny_fert(r3="0/2", r4="0/1"), choices={C: cb.Choices(refuse_retreat="bragg")})
    assert c.retreats == [] and [(e.leader, e.after, e.rule) for e in c.effects
                                 if isinstance(e, cb.MlChange)] == [("bragg", 2, "3.54b")]
    c = resolve(w, [3, 4], tiny_fert(r3="0/2", r4="0/1"), choices={C: cb.Choices(refuse_retreat="grant")})
    assert c.refused[0].rule == "3.54b" and len(c.retreats) == 1 and not c.problems


def test_h27_wave_the_attackers_received_more_all_three_stacks_retreat():
    w = board()
    order = [ATTACK]
    for lid, h in (("sherman", "0503"), ("thomas", "0504")):
        w.leader(lid, U, h, br=0)
        w.unit(f"{lid}1", U, leader=lid)
        order.append(Assault(lid, h, D))
    c = resolve(w, [4, 4, 2, 4, 4, 4], tiny_fert(r4="0/1"), assaults=order)
    assert c.retreat_totals == {C: 2, U: 3} and (c.retreating, c.retreat_hexes) == (U, 1)
    assert sorted(p.start for p in c.retreats) == sorted([A, "0503", "0504"])
    cb.apply_combat(w.state, c)
    assert all(w.state["leaders"][x]["hex"] not in (A, "0503", "0504") for x in ("grant", "sherman", "thomas"))


def test_10_68_the_route_avoids_enemy_zoc_and_leads_towards_supply():
    w = board()
    plan = cb.plan_retreat(w.state, M, C, D, 1)
    zoc = set(cb.enemy_zoc(w.state, M, C))
    assert plan.routes and all(r[0] not in zoc for r in plan.routes)
    assert plan.route == ("0404",)                                   # nearest the source 0410
    bad = cb.plan_retreat(w.state, M, C, D, 1, route=["0503"])
    assert bad.problems[0].rule == "10.68" and bad.route == ("0404",)
    assert plan.routes == [("0404",)]                                # 0504 and 0304 lead no nearer 0410
    two = cb.plan_retreat(w.state, M, C, D, 2, route=["0304", "0305"])
    assert not two.problems and two.route == ("0304", "0305") and len(two.routes) > 1


def test_10_68_through_enemy_zoc_1_step_per_hex_and_the_oc_loses_ml_once_more():
    w = board(d_units=2)
    for h in ("0204", "0505", "0605"):
        w.unit(f"z{h}", U, hex=h)                                    # Union units: ZOC all round 0403's free side
    plan = cb.plan_retreat(w.state, M, C, D, 1)
    assert len(plan.zoc) == 1
    c = resolve(w, [3, 2], tiny_fert(r3="0/1"))
    assert [(e.cause, e.rule) for e in c.losses()] == [("zoc", "10.68")]
    assert [(e.after, e.rule) for e in c.effects if isinstance(e, cb.MlChange)] == [(2, "3.53"), (1, "10.68")]


def test_10_68_no_route_the_stack_is_eliminated_and_its_leaders_captured():
    w = board(d_units=2)
    for n, h in enumerate(h for h in neighbours(M, D) if h != A):
        w.unit(f"r{n}", U, hex=h)
    before = steps(w.state)
    c = resolve(w, [3, 2], tiny_fert(r3="0/1"))
    assert c.retreats[0].eliminated and len(c.losses("blocked")) == 4
    assert any(isinstance(e, cb.Capture) and e.leader == "bragg" for e in c.effects)
    cb.apply_combat(w.state, c)
    assert steps(w.state) == before - 4


def test_10_68_the_side_with_cavalry_superiority_chooses_the_route():
    w = board()
    w.unit("gc", U, leader="grant", arm="cavalry", cf=(4, 2))
    fert = tiny_fert(r3="0/2", r6="0/2")                             # +3 for the cavalry: row 6
    routes = {U: cb.Choices(routes={D: ("0504", "0505")}), C: cb.Choices(routes={D: ("0304", "0305")})}
    c = resolve(w, [3, 2], fert, choices=routes)
    assert c.retreats[0].chooser == U and c.retreats[0].route == ("0504", "0505")
    c = resolve(board(), [3, 2], fert, choices=routes)
    assert c.retreats[0].chooser == C and c.retreats[0].route == ("0304", "0305")


def test_10_61d_advance_only_by_the_victor_into_the_vacated_hex_and_in_part_without_ap():
    w = board(a_units=2)
    w.leader("sl", U, superior="grant", stars=1)
    w.unit("s1", U, leader="sl")
    c = resolve(w, [2, 2], tiny_fert(), choices={U: cb.Choices(advance="grant")})
    assert c.refused[0].rule == "10.61d" and not c.problems
    c = resolve(w, [3, 2], tiny_fert(r3="0/1"), choices={U: cb.Choices(advance="grant", advance_parts=("sl", "g2"))})
    assert not c.refused
    cb.apply_combat(w.state, c)
    s = w.state
    assert s["leaders"]["sl"]["hex"] == D and s["leaders"]["sl"]["superior"] is None
    assert s["units"]["g2"]["leader"] is None and s["units"]["g2"]["hex"] == D
    assert s["leaders"]["grant"]["hex"] == A and s["leaders"]["grant"]["ap"] == 3


# --- extended battle (10.7, 10.71) -------------------------------------------------------

def test_10_71_who_chooses_pays_and_attacks():
    eb = cb.extended_battle(U, {U: True, C: True}, levels_left={U: 1, C: 1})
    assert (eb.chooser, eb.asked, eb.levels_left) == (U, [(U, True)], {U: 0, C: 1})
    eb = cb.extended_battle(U, {}, levels_left={U: 1, C: 1})
    assert eb.chooser is None and eb.asked == [(U, False), (C, False)] and "no extended battle" in eb.why
    eb = cb.extended_battle(U, {U: True, C: True}, levels_left={U: 0, C: 1})
    assert eb.chooser == C and eb.problems[0].rule == "10.7"
    eb = cb.extended_battle(U, {U: True}, levels_left={U: 3, C: 1}, already_fought=True)
    assert eb.chooser is None and eb.problems[0].message.endswith("only once")


def test_10_71_the_extended_attack_needs_1_ap_and_no_check():
    w = board()
    ea = cb.extended_assault(w.state, M, "bragg", A)
    assert ea.assault == Assault("bragg", D, A, False, True, "10.71") and ea.charges[0].ap == 1
    w.state["leaders"]["bragg"]["ap"] = 0
    assert cb.extended_assault(w.state, M, "bragg", A).problems[0].rule == "3.24"
    assert cb.extended_assault(w.state, M, "bragg", "0405").problems[0].rule == "10.71"


# --- property: combat never creates or loses steps beyond what the results demand -----------

SPOTS = [h for h in neighbours(M, D) if h != "0303"]


@st.composite
def battles(draw):
    w = World(year=1863)
    s = w.state
    s["weather"] = {"result": draw(st.sampled_from(["Clear", "Rain", "Blizzard"]))}
    s["fert_offset"] = draw(st.integers(3, 8))
    s["sources"] = {U: ["0101"], C: ["0410"]}

    def force(side, lid, hex_, led):
        n = draw(st.integers(1, 3))
        if led:
            w.leader(lid, side, hex_, ml=draw(st.integers(0, 6)), br=draw(st.integers(0, 5)),
                     artillery=draw(st.integers(0, 8)), asp=draw(st.integers(0, 3)),
                     active=draw(st.integers(0, 4)) > 0)
            if draw(st.booleans()):
                w.leader(f"{lid}_sl", side, superior=lid, stars=1, ml=draw(st.integers(0, 6)))
        for i in range(n):
            w.unit(f"{lid}{i}", side, leader=lid if led else None, hex=None if led else hex_,
                   arm=draw(st.sampled_from(["infantry", "infantry", "cavalry"])),
                   cf=(draw(st.integers(2, 12)), draw(st.integers(1, 2))), ml=(draw(st.integers(0, 2)), 3),
                   steps=draw(st.integers(1, 2)))
        return lid if led else f"unled@{hex_}"

    force(C, "cd", D, True)
    spots = draw(st.lists(st.sampled_from(SPOTS), min_size=1, max_size=3, unique=True))
    assaults = [Assault(force(U, f"u{i}", h, draw(st.booleans())), h, D) for i, h in enumerate(spots)]
    for h in draw(st.lists(st.sampled_from([x for x in SPOTS if x not in spots] + ["0205", "0306"]),
                           max_size=2, unique=True)):
        force(U if draw(st.booleans()) else C, f"o{h}", h, True)
    faces = draw(st.lists(st.integers(1, 6), min_size=120, max_size=120))
    refuse = draw(st.sampled_from([None, "cd"]))
    return w, assaults, faces, refuse


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battles())
def test_property_steps_lost_are_exactly_the_losses_applied(battle):
    w, assaults, faces, refuse = battle
    state = w.state
    original = copy.deepcopy(state)
    c = cb.resolve_combat(state, M, assaults, FixedDice(faces), fert=FERT,
                          choices={C: cb.Choices(refuse_retreat=refuse)})
    assert state == original                                         # resolution changes nothing
    before = steps(state)
    cb.apply_combat(state, c)
    assert before - steps(state) == len(c.losses())
    assert all(u["steps"] >= 0 for u in state["units"].values())
    # the FERT losses are what the cells demand, up to the steps there were
    live = [x for x in c.exchanges if not x.cancelled]
    d_units = [u for f in c.defenders for u in model.units_of(original, f, C)]
    d_steps = sum(original["units"][u]["steps"] for u in d_units)
    fert_lost = [e.unit for e in c.losses("fert")]
    assert sum(u in d_units for u in fert_lost) == min(d_steps, sum(x.attack.cell.losses for x in live))
    for x in live:
        mine = model.units_of(original, x.assault.attacker, U)
        have = sum(original["units"][u]["steps"] for u in mine)
        assert sum(u in mine for u in fert_lost) == min(have, x.defence.cell.losses)
    # only units of the combat lose steps; supporters and bystanders never do
    fighting = set(d_units) | {u for x in live for u in model.units_of(original, x.assault.attacker, U)}
    assert {e.unit for e in c.losses()} <= fighting
    # each extra loss is one a result demanded
    assert len(c.losses("morale")) <= sum(1 for k in c.checks if k.kind == "morale" and k.result == "failed")
    assert len(c.losses("zoc")) <= sum(len(p.zoc) for p in c.retreats)
