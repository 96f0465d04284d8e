"""Gunboats and coastal batteries: 8.9-8.94, 10.8-10.83, 3.17, 4.33, 5.25 (hxref/systems/heartland/naval.py).

The sample map's Duck River (major) runs north to south between columns 06 and 07:
0601/0701 (taken as the headwater, 8.94), 0601/0702, 0602/0702 (ford), 0602/0703, ...,
0604/0705 (bridge into Riverton 0705, a major city), ..., 0610/0710: 19 hexsides in a chain.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from factory import TODAY, C, U, FixedDice, World, sample_map
from hxref.geometry.paths import is_prohibited
from hxref.base.paths import games_dir
from hxref.systems.heartland import naval as nv
from hxref.systems.heartland.combat_fire import Circumstances
from hxref.systems.heartland.terrain import step_cost

NCRT = nv.Ncrt.load(TODAY)


def world() -> World:
    w = World()
    w.state["naval"] = {"gunboats": {}, "batteries": {}, "headwaters": ["0601/0701"]}
    return w


def gunboat(w: World, gid: str, side: str, hexside: str | None, *, naval=(2, 1), support=(3, 1), steps=2, **kw):
    w.state["naval"]["gunboats"][gid] = {"side": side, "name": gid, "naval": list(naval), "support": list(support),
                                         "steps": steps, "hexside": hexside, "box": None, **kw}
    return gid


def battery(w: World, bid: str, hex: str, hexside: str, *, naval=(3, 2), steps=2):
    w.state["naval"]["batteries"][bid] = {"side": C, "name": bid, "naval": list(naval), "steps": steps,
                                          "hex": hex, "hexside": hexside}
    return bid


def rules(problems) -> list[str]:
    return [p.rule for p in problems]


# --- the chart ------------------------------------------------------------------------------

def test_ncrt_chart_is_a_marked_stand_in_with_monotone_cells():
    ch = NCRT
    assert ch.stand_in and "Stand-in" in ch.note
    assert ch.columns == tuple(range(-4, 5)) and ch.rows == tuple(range(0, 8))
    for r in ch.rows:
        for a, b in zip(ch.results[r], ch.results[r][1:]):
            assert b.attacker <= a.attacker and b.defender >= a.defender
    for c in range(len(ch.columns)):
        col = [ch.results[r][c] for r in ch.rows]
        for a, b in zip(col, col[1:]):
            assert b.attacker <= a.attacker and b.defender >= a.defender


@pytest.mark.parametrize("diff, column", [(-2, -2), (0, 0), (-1.5, -1), (0.5, 1), (-9, -4), (12, 4)])
def test_ncrt_column_fractions_round_up_and_ends_clamp_10_81(diff, column):
    assert NCRT.column_for(diff) == column


# --- control range (8.91a) -------------------------------------------------------------------

def test_control_range_is_the_four_branching_hexsides_8_91a():
    m = sample_map()
    assert sorted(nv.control_range(m, "0602/0703")) == ["0602/0603", "0602/0702", "0603/0703", "0702/0703"]
    w = world()
    gunboat(w, "gb", U, "0602/0703")
    battery(w, "bt", "0705", "0604/0705")
    assert nv.controlled_hexsides(w.state, m, U) == {"0602/0703", "0602/0603", "0602/0702", "0603/0703",
                                                     "0702/0703"}
    assert nv.controlled_hexsides(w.state, m, C) == {"0604/0705"}      # 10.82: 1 hexside


# --- movement (8.91, 5.25) ---------------------------------------------------------------------

def test_move_unlimited_along_the_river_past_bridges_8_91():
    w = world()
    gunboat(w, "gb", U, "0602/0703")
    r = nv.gunboat_move(w.state, sample_map(), "gb", "0610/0710")
    assert r.legal and r.end == "0610/0710" and len(r.route) == 15 and not r.stops
    nv.apply_gunboat_move(w.state, r)
    assert w.state["naval"]["gunboats"]["gb"]["hexside"] == "0610/0710"
    assert rules(nv.gunboat_move_problems(w.state, sample_map(), "gb", "0609/0710")) == ["8.91"]   # moved already


def test_ford_blocks_gunboats_except_in_thaw_5_25():
    w = world()
    gunboat(w, "gb", U, "0601/0701")
    p = nv.gunboat_move_problems(w.state, sample_map(), "gb", ["0601/0702", "0602/0702", "0602/0703"])
    assert rules(p) == ["5.25"] and "ford" in p[0].message
    assert nv.gunboat_move_problems(w.state, sample_map(), "gb", "0603/0704")        # no way round
    r = nv.gunboat_move(w.state, sample_map(), "gb", "0603/0704", weather="Thaw")
    assert r.legal and "5.25" in r.why
    w.state["weather"] = {"result": "Thaw"}
    assert nv.gunboat_move(w.state, sample_map(), "gb", "0603/0704").legal


def test_route_must_follow_major_river_hexsides_8_91():
    w = world()
    gunboat(w, "gb", U, "0602/0703")
    assert rules(nv.gunboat_move_problems(w.state, sample_map(), "gb", ["0603/0703", "0604/0704"])) == ["8.91"]
    assert rules(nv.gunboat_move_problems(w.state, sample_map(), "gb", ["0702/0703"])) == ["8.91"]   # not a river
    assert nv.gunboat_move(w.state, sample_map(), "gb", ["0603/0703", "0603/0704"]).legal


def test_entering_an_enemy_control_range_stops_and_obliges_combat_8_91a():
    w = world()
    gunboat(w, "gb", U, "0602/0703")
    gunboat(w, "cgb", C, "0606/0707")
    m = sample_map()
    # 0606/0706 is in cgb's range: the move may end there, not pass it
    assert rules(nv.gunboat_move_problems(w.state, m, "gb", "0608/0708")) == ["8.91"]
    route = nv.gunboat_reach(w.state, m, "gb")["0606/0706"]
    assert rules(nv.gunboat_move_problems(w.state, m, "gb", route + ["0606/0707"])) == ["8.91a"]
    r = nv.gunboat_move(w.state, m, "gb", "0606/0706")
    assert r.legal and r.stops and r.must_attack == ["cgb"]
    nv.apply_gunboat_move(w.state, r)
    assert w.state["naval"]["current"]["must_attack"] == {"gb": ["cgb"]}
    assert nv.contacts(w.state, m, U) == [("gb", "cgb")]


def test_enemy_gunboat_hexside_cannot_be_entered_8_91a():
    w = world()
    gunboat(w, "gb", U, "0606/0706")
    gunboat(w, "cgb", C, "0606/0707")
    p = nv.gunboat_move_problems(w.state, sample_map(), "gb", ["0606/0707"])
    assert rules(p) == ["8.91"] and "enemy gunboat cgb" in p[0].message


def test_starting_in_contact_a_gunboat_may_move_away_10_81():
    w = world()
    gunboat(w, "gb", U, "0606/0706")
    gunboat(w, "cgb", C, "0606/0707")
    r = nv.gunboat_move(w.state, sample_map(), "gb", "0603/0703")
    assert r.legal and not r.stops


def test_running_past_a_battery_stops_on_its_hexside_10_82():
    w = world()
    gunboat(w, "gb", U, "0602/0703")
    battery(w, "bt", "0705", "0604/0705")
    m = sample_map()
    assert rules(nv.gunboat_move_problems(w.state, m, "gb", "0605/0705")) == ["8.91"]   # cannot pass
    r = nv.gunboat_move(w.state, m, "gb", "0604/0705")
    assert r.legal and r.stops and r.must_attack == ["bt"]
    nv.apply_gunboat_move(w.state, r)
    nv.new_impulse(w.state)                       # its next impulse: it may move off
    assert nv.gunboat_move(w.state, m, "gb", "0610/0710").legal


def test_sunk_or_embarked_gunboats_do_not_move():
    w = world()
    gunboat(w, "gb", U, "0602/0703", steps=0)
    gunboat(w, "gb2", U, None, box="reorg_t1")
    assert rules(nv.gunboat_move_problems(w.state, sample_map(), "gb", "0603/0703")) == ["8.91"]
    assert rules(nv.gunboat_move_problems(w.state, sample_map(), "gb2", "0603/0703")) == ["8.92c"]
    assert rules(nv.gunboat_move_problems(w.state, sample_map(), "nope", "0603/0703")) == ["8.91"]


# --- naval combat (10.81, 10.82a) ----------------------------------------------------------------

def h10():
    """H-10: a 2-strength Union gunboat alone attacks a 1-strength Confederate gunboat stacked with
    a 3-strength battery (on the battery's hexside)."""
    w = world()
    gunboat(w, "ugb", U, "0605/0705", naval=(2, 1))
    gunboat(w, "cgb", C, "0604/0705", naval=(1, 1))
    battery(w, "bt", "0705", "0604/0705", naval=(3, 2))
    return w


def test_h10_differential_minus_2_and_drm_minus_1_10_81():
    w = h10()
    r = nv.naval_combat(w.state, sample_map(), ["ugb"], ["cgb", "bt"], phasing=U, chart=NCRT)
    assert r.legal and r.totals == (2, 4) and r.differential == -2 and r.column == -2
    assert [(d.amount, d.rule) for d in r.drms] == [(-1, "10.81a")] and r.die is None


def test_h10_one_die_by_the_attacker_gives_both_results_10_81():
    w = h10()
    dice = FixedDice([4])
    r = nv.naval_combat(w.state, sample_map(), ["ugb"], ["cgb", "bt"], dice, phasing=U, chart=NCRT)
    assert dice.unused == [] and dice.rolls[0].by == U
    assert (r.die, r.modified, r.row) == (4, 3, 3)
    assert r.cell.text == "1/0" and [x.text for x in r.losses] == ["ugb -1 step"]
    assert "not a" not in r.why and "[stand-in NCRT]" in r.why
    nv.apply_naval_combat(w.state, r)
    assert w.state["naval"]["gunboats"]["ugb"]["steps"] == 1
    assert w.state["naval"]["current"]["missions"] == {"ugb": "naval_combat"}


def test_battery_attacks_in_confederate_impulses_with_plus_1_10_82a():
    w = h10()
    m = sample_map()
    p = nv.naval_combat(w.state, m, ["ugb"], ["cgb", "bt"], phasing=C, chart=NCRT).problems
    assert rules(p) == ["10.82a"]
    r = nv.naval_combat(w.state, m, ["cgb", "bt"], ["ugb"], phasing=C, chart=NCRT)
    assert r.legal and r.totals == (4, 2) and r.column == 2
    assert [(d.amount, d.rule) for d in r.drms] == [(+1, "10.81a")]


def test_entrenchment_absorbs_a_battery_loss_10_82a():
    w = world()
    gunboat(w, "a", U, "0605/0705", naval=(4, 2))
    gunboat(w, "b", U, "0605/0705", naval=(4, 2))
    battery(w, "bt", "0705", "0604/0705")
    w.state["entrenchments"] = {"0705": {"side": C, "level": 1}}
    r = nv.naval_combat(w.state, sample_map(), ["a", "b"], ["bt"], FixedDice([6]), phasing=U, chart=NCRT)
    assert r.differential == 5 and r.column == 4 and r.drm == -1 and r.cell.text == "0/2"
    assert [x.text for x in r.losses] == ["entrenchment in 0705 -1 level (10.82a)", "bt -1 step"]
    nv.apply_naval_combat(w.state, r)
    assert w.state["entrenchments"]["0705"]["level"] == 0
    assert w.state["naval"]["batteries"]["bt"]["steps"] == 1


def test_owner_may_take_the_loss_on_the_battery_instead_10_82a():
    w = world()
    gunboat(w, "a", U, "0605/0705", naval=(5, 2))
    battery(w, "bt", "0705", "0604/0705", naval=(1, 1))
    w.state["entrenchments"] = {"0705": 2}
    r = nv.naval_combat(w.state, sample_map(), ["a"], ["bt"], FixedDice([6]), phasing=U,
                        allocation={C: ["bt", "bt"]}, chart=NCRT)
    assert r.cell.text == "0/2" and [x.unit for x in r.losses] == ["bt", "bt"]
    nv.apply_naval_combat(w.state, r)
    assert w.state["naval"]["batteries"]["bt"]["steps"] == 0 and w.state["entrenchments"]["0705"] == 2
    assert nv.battery_hexes(w.state) == set()


def test_naval_combat_needs_contact_and_sides_10_81():
    w = world()
    gunboat(w, "ugb", U, "0602/0703")
    gunboat(w, "cgb", C, "0610/0710")
    m = sample_map()
    assert rules(nv.naval_combat(w.state, m, ["ugb"], ["cgb"], phasing=U, chart=NCRT).problems) == ["10.81", "10.81"]
    assert rules(nv.naval_combat(w.state, m, ["ugb"], [], phasing=U, chart=NCRT).problems) == ["10.81"]
    assert rules(nv.naval_combat(w.state, m, ["ugb"], ["ugb"], phasing=U, chart=NCRT).problems) == ["10.81"]


def test_sunk_gunboat_loses_its_cargo_10_81():
    w = world()
    gunboat(w, "ugb", U, "0605/0705", naval=(1, 1), steps=1)
    battery(w, "bt", "0705", "0604/0705", naval=(3, 2))
    w.unit("u1", U, hex=None)
    w.state["naval"]["gunboats"]["ugb"]["cargo"] = {"units": ["u1"], "leaders": [], "wagon": None}
    r = nv.naval_combat(w.state, sample_map(), ["ugb"], ["bt"], FixedDice([1]), phasing=U, chart=NCRT)
    assert r.column == -2 and r.cell.attacker >= 1
    nv.apply_naval_combat(w.state, r)
    assert w.state["naval"]["gunboats"]["ugb"]["steps"] == 0 and w.state["units"]["u1"]["steps"] == 0


# --- blockade (8.93, 8.94) -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def ferry_map(tmp_path_factory):
    """The sample map with towns on both banks of 0606/0707 and a ferry there (8.24a)."""
    from hxref.geometry.mapfile import load_map
    text = (games_dir() / "heartland" / "maps" / "sample.yaml").read_text()
    text = text.replace("terrain: ../terrain.yaml", f"terrain: {games_dir() / 'heartland' / 'terrain.yaml'}")
    text = text.replace('  "1207": {terrain: clear, features: [town]}',
                        '  "1207": {terrain: clear, features: [town]}\n'
                        '  "0606": {terrain: clear, features: [town]}\n'
                        '  "0707": {terrain: clear, features: [town]}')
    text = text.replace('"0606/0707": [major_river]', '"0606/0707": [major_river, ferry]')
    p = Path(tmp_path_factory.mktemp("naval")) / "ferry.yaml"
    p.write_text(text)
    return load_map(p)


@pytest.mark.parametrize("at, closed", [
    ("0601/0702", True),     # 10 hexsides upstream of the ferry: the ferry is 10 downstream
    ("0601/0701", False),    # 11 downstream
    ("0609/0710", True),     # the ferry is 6 upstream
    ("0610/0710", False),    # 7 upstream
    ("0606/0707", True),     # on the ferry hexside itself
])
def test_blockade_10_downstream_6_upstream_8_93(ferry_map, at, closed):
    w = world()
    gunboat(w, "gb", U, at)
    assert (nv.blockaded_hexsides(w.state, ferry_map) == {"0606/0707"}) is closed


def test_blockade_closes_the_ferry_in_step_cost_8_24a(ferry_map):
    w = world()
    gunboat(w, "gb", U, "0609/0709")
    m = ferry_map
    a, b = m.parse("0606"), m.parse("0707")
    open_ = step_cost(m, weather="Clear", side=C)(a, b)
    assert not is_prohibited(open_) and open_ == 4          # clear 1 + ferry 3
    shut = step_cost(m, weather="Clear", side=C, blockaded=nv.blockaded_hexsides(w.state, m))(a, b)
    assert is_prohibited(shut) and "8.93" in shut.reason


def test_confederate_gunboats_do_not_close_ferries_and_busy_gunboats_do_not_blockade_8_9(ferry_map):
    w = world()
    gunboat(w, "cgb", C, "0606/0706")
    assert nv.blockaded_hexsides(w.state, ferry_map) == set()
    gunboat(w, "gb", U, "0606/0706")
    assert nv.blockaded_hexsides(w.state, ferry_map) == {"0606/0707"}
    w.state["naval"]["current"] = {"missions": {"gb": "bombardment"}}
    assert nv.blockaded_hexsides(w.state, ferry_map) == set()


def test_no_headwater_gives_6_hexsides_both_ways_8_94(ferry_map):
    w = world()
    w.state["naval"]["headwaters"] = []
    gunboat(w, "gb", U, "0601/0702")              # the ferry is 10 away: outside 6
    assert nv.blockaded_hexsides(w.state, ferry_map) == set()
    rng = nv.blockade_range(w.state, ferry_map, "gb")
    assert set(rng.values()) == {"either"} and max(len(rng), 0) == 7


def test_confederate_gunboats_close_union_pontoons_8_93():
    w = world()
    gunboat(w, "cgb", C, "0608/0709")
    w.state["pontoons"] = {"p1": {"side": U, "hexside": "0605/0706", "laid": True},
                           "p2": {"side": U, "hexside": "0601/0701", "laid": True}}
    assert nv.closed_pontoons(w.state, sample_map()) == {"0605/0706"}


# --- shore bombardment (10.83) -------------------------------------------------------------------

def test_bombardment_supports_an_attack_when_adjacent_to_both_10_83():
    w = world()
    gunboat(w, "gb", U, "0604/0705", support=(3, 1))
    gunboat(w, "far", U, "0610/0710")
    b = nv.bombardment_drm(w.state, sample_map(), U, "0604", "0705", "attack")
    assert b.gunboats == ["gb"] and b.amount == 3 and "far" in b.refused
    assert [(d.amount, d.rule) for d in b.drms] == [(3, "10.83")]
    Circumstances(extra_drms={U: b.drms})         # the hook it is made for
    # a hexside at an end of the 0604/0705 side touches both hexes too: which hexside does not matter
    w.state["naval"]["gunboats"]["gb"]["hexside"] = "0604/0704"
    assert nv.bombardment_drm(w.state, sample_map(), U, "0604", "0705", "attack").amount == 3


def test_bombardment_for_a_defence_needs_only_the_defender_10_83():
    w = world()
    gunboat(w, "cgb", C, "0605/0706", support=(2, 1), steps=1)
    m = sample_map()
    assert nv.bombardment_drm(w.state, m, C, "0805", "0705", "attack").amount == 0
    d = nv.bombardment_drm(w.state, m, C, "0805", "0705", "defence")
    assert d.gunboats == ["cgb"] and d.amount == 1            # reduced side
    nv.apply_bombardment(w.state, d)
    assert nv.mission_of(w.state, "cgb") == "bombardment"


def test_bombardment_not_after_another_mission_8_9():
    w = world()
    gunboat(w, "gb", U, "0604/0705")
    w.state["naval"]["current"] = {"missions": {"gb": "naval_combat"}}
    b = nv.bombardment_drm(w.state, sample_map(), U, "0604", "0705", "attack")
    assert b.amount == 0 and b.drms == [] and "8.9" in b.refused["gb"]


# --- batteries on land (10.82b) ------------------------------------------------------------------

def test_battery_captured_by_an_attack_check_10_82b():
    w = world()
    battery(w, "bt", "0705", "0604/0705")
    w.leader("thomas", U, "0805", br=3)
    w.unit("u1", U, leader="thomas")
    m = sample_map()
    r = nv.battery_capture(w.state, m, "thomas", "bt", FixedDice([3]))
    assert r.passed and r.charges[0].ap == 1
    nv.apply_battery_capture(w.state, r)
    assert w.state["leaders"]["thomas"]["hex"] == "0705" and w.state["naval"]["batteries"]["bt"]["steps"] == 0


def test_failed_battery_check_costs_only_the_ap_10_82b():
    w = world()
    battery(w, "bt", "0705", "0604/0705")
    w.leader("thomas", U, "0805", br=3, ap=2)
    w.unit("u1", U, leader="thomas")
    r = nv.battery_capture(w.state, sample_map(), "thomas", "bt", FixedDice([4]))
    assert not r.passed
    nv.apply_battery_capture(w.state, r)
    assert w.state["leaders"]["thomas"]["ap"] == 1 and w.state["leaders"]["thomas"]["hex"] == "0805"


def test_battery_capture_illegal_cases_10_82b():
    w = world()
    battery(w, "bt", "0705", "0604/0705")
    w.leader("thomas", U, "0303")
    w.unit("u1", U, leader="thomas")
    w.unit("c1", C, hex="0705")
    p = nv.battery_capture(w.state, sample_map(), "thomas", "bt", FixedDice([]))
    assert rules(p.problems) == ["10.82b", "10.82b"] and p.roll is None


# --- naval assault (8.92, 3.17, 4.33) ----------------------------------------------------------

def loaded_world():
    w = world()
    gunboat(w, "gb", U, "0605/0705")
    w.leader("sherman", U, "0705")
    w.unit("u1", U, leader="sherman")
    w.wagon("w1", U, "0705")
    return w


def test_embark_in_a_major_city_port_8_92a():
    w = loaded_world()
    m = sample_map()
    r = nv.embark(w.state, m, "gb", "0705", ["u1"], leaders=["sherman"], wagon="w1")
    assert r.problems == [] and "Any Impulse Turn 1" in r.why
    nv.apply_embark(w.state, r)
    gb = w.state["naval"]["gunboats"]["gb"]
    assert gb["box"] == "any_impulse_t1" and gb["hexside"] is None
    assert gb["cargo"] == {"units": ["u1"], "leaders": ["sherman"], "wagon": "w1"}
    assert w.state["leaders"]["sherman"]["hex"] is None and w.state["logistics"]["w1"]["hex"] is None


def test_embark_illegal_cases_8_92():
    w = loaded_world()
    m = sample_map()
    w.unit("u2", U, leader="sherman")
    p = nv.embark(w.state, m, "gb", "0705", ["u1", "u2"], leaders=["sherman"]).problems
    assert "8.92" in rules(p)                                    # 1 combat unit per gunboat
    w = loaded_world()
    w.state["naval"]["gunboats"]["gb"]["steps"] = 1
    assert rules(nv.embark(w.state, m, "gb", "0705", ["u1"], leaders=["sherman"]).problems) == ["8.92"]
    w = loaded_world()
    assert rules(nv.embark(w.state, m, "gb", "0705", ["u1"]).problems) == ["8.92"]       # in sherman's box
    w = loaded_world()
    w.state["naval"]["gunboats"]["gb"]["side"] = C
    assert "8.92a" in rules(nv.embark(w.state, m, "gb", "0705", ["u1"], leaders=["sherman"]).problems)


def test_embark_needs_a_port_or_a_landing_8_92a():
    w = world()
    gunboat(w, "gb", U, "0603/0703")
    w.unit("u1", U, hex="0703")
    m = sample_map()
    assert rules(nv.embark(w.state, m, "gb", "0703", ["u1"]).problems) == ["8.92a"]
    w.state["landings"] = {"l1": {"hex": "0703"}}
    assert nv.embark(w.state, m, "gb", "0703", ["u1"]).problems == []


def test_display_boxes_advance_and_the_public_notice_4_33_3_17():
    w = world()
    gunboat(w, "gb", U, None, box="any_impulse_t1")
    r = nv.advance_display(w.state, announce=True)
    assert r.moves == {"gb": ("any_impulse_t1", "reorg_t1")} and r.notice is None
    nv.apply_advance_display(w.state, r)
    r = nv.advance_display(w.state)                               # next turn, no announcement
    assert r.moves == {"gb": ("reorg_t1", "reorg_t2")}
    nv.apply_advance_display(w.state, r)
    assert nv.advance_display(w.state).moves == {}                # waits in Reorg T2
    r = nv.advance_display(w.state, announce=True)
    assert r.moves == {"gb": ("reorg_t2", "available")} and r.notice == nv.NOTICE
    assert "0705" not in r.notice                                 # the notice names no place
    nv.apply_advance_display(w.state, r, turn=3)
    assert w.state["naval"]["notice"] == {"turn": 3} and w.state["naval"]["gunboats"]["gb"]["box"] == "available"


def test_announcing_in_the_sequence_that_reaches_reorg_t2_8_92a():
    w = world()
    gunboat(w, "gb", U, None, box="reorg_t1")
    assert nv.advance_display(w.state, announce=True).moves == {"gb": ("reorg_t1", "available")}


def assault_world():
    w = loaded_world()
    r = nv.embark(w.state, sample_map(), "gb", "0705", ["u1"], leaders=["sherman"], wagon="w1")
    nv.apply_embark(w.state, r)
    w.state["naval"]["gunboats"]["gb"]["box"] = "available"
    return w


def test_naval_assault_lands_and_uses_all_mp_8_92b():
    w = assault_world()
    r = nv.naval_assault(w.state, sample_map(), "gb", "0705", "0605/0705")
    assert r.problems == [] and sorted(r.placed) == ["sherman", "u1", "w1"]
    nv.apply_naval_assault(w.state, r)
    gb = w.state["naval"]["gunboats"]["gb"]
    assert gb["hexside"] == "0605/0705" and gb["box"] is None and "cargo" not in gb
    assert w.state["leaders"]["sherman"]["hex"] == "0705" and w.state["logistics"]["w1"]["hex"] == "0705"
    assert sorted(w.state["naval"]["current"]["landed"]) == ["sherman", "u1", "w1"]


def test_naval_assault_illegal_targets_8_92b():
    m = sample_map()
    w = assault_world()
    w.unit("c1", C, hex="0805")                                   # enemy ZOC over 0705
    assert rules(nv.naval_assault(w.state, m, "gb", "0705", "0605/0705").problems) == ["8.92b"]
    w = assault_world()
    battery(w, "bt", "0604", "0604/0705")                         # a battery controls a hexside of 0705
    assert rules(nv.naval_assault(w.state, m, "gb", "0705", "0605/0705").problems) == ["8.92b"]
    w = assault_world()
    w.state["entrenchments"] = {"0705": {"side": C, "level": 1}}
    assert rules(nv.naval_assault(w.state, m, "gb", "0705", "0605/0705").problems) == ["8.92b"]
    w = assault_world()
    assert rules(nv.naval_assault(w.state, m, "gb", "0703", "0603/0703").problems) == ["8.92"]   # clear hex
    w = assault_world()
    w.state["naval"]["gunboats"]["gb"]["box"] = "reorg_t2"
    assert rules(nv.naval_assault(w.state, m, "gb", "0705", "0605/0705").problems) == ["8.92b"]


# --- river transport (4.33, 10.82) --------------------------------------------------------------

def test_river_transport_carries_a_unit_downriver_4_33():
    w = loaded_world()
    r = nv.river_transport(w.state, sample_map(), "gb", "0705", "0710", ["u1"], leaders=["sherman"])
    assert r.problems == [] and r.route[-1] in ("0609/0710", "0610/0710")
    nv.apply_river_transport(w.state, r)
    assert w.state["leaders"]["sherman"]["hex"] == "0710" and w.state["units"]["u1"]["leader"] == "sherman"
    assert "embarked_on" not in w.state["units"]["u1"]


def test_river_transport_cannot_pass_a_battery_10_82():
    w = loaded_world()
    battery(w, "bt", "0708", "0607/0708")
    p = nv.river_transport(w.state, sample_map(), "gb", "0705", "0710", ["u1"], leaders=["sherman"]).problems
    assert rules(p) == ["10.82"]
    w = loaded_world()
    w.state["naval"]["gunboats"]["gb"]["side"] = C
    assert "4.33" in rules(nv.river_transport(w.state, sample_map(), "gb", "0705", "0710", ["u1"],
                                              leaders=["sherman"]).problems)
