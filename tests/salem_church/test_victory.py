"""Salem Church victory (14.x), hex control by "occupies or was the last to pass through",
the wagon train's exits (16.0) and the stand-in victory points (14.3).

Expected values are copied from the digest (rules/salem-church.md 14.1-14.3, 16.0, G4,
G6, E "victory points") and the Japanese seed 003 (14.0: 14 ターン終了時に於いて ...;
the original wins where the digest is unclear).  The victory hexes are 1204, 1302,
2114 and 2407; the wagon train's exits 0107/0903 (for victory) and 1204/1302 (only
to avoid capture).  VP are the scenario's stand-in: 1 VP per enemy step lost,
counted at the end of the game.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from hxref.base.errors import InvalidInput
from hxref.systems.salem_church import victory as vc
from hxref.base.yamlio import load_data, to_plain

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "games" / "salem_church" / "scenarios" / "salem-church.yaml"


@pytest.fixture(scope="module")
def scenario():
    return to_plain(load_data(SCENARIO))


def fresh(scenario, turn=14) -> dict:
    """Every counter off the map at full strength; nobody holds anything."""
    units = {uid: {"side": u["side"], "type": u["type"], "name": u["name"], "hex": None, "steps": u["steps"]}
             for uid, u in scenario["units"].items()}
    return {"turn": turn, "units": units, "control": {},
            "wagon": {"exited": None, "captured": False},
            "initial_steps": {uid: u["steps"] for uid, u in scenario["units"].items()}}


def place(state, **where) -> dict:
    for uid, label in where.items():
        state["units"][uid.replace("_", "-")]["hex"] = label
    return state


def cond(v: vc.Victory, rule: str) -> vc.Condition:
    return next(c for c in v.conditions if c.rule == rule)


# --------------------------------------------------------------------------
# hex control (14.1, 14.2 "occupies, or was the last unit to pass through"; G4)


def test_control_occupied_hex_goes_to_the_occupier(scenario):
    s = place(fresh(scenario, 3), first_1="1204", kershaw_m="2407")
    vc.update_control(s, [])
    assert s["control"]["1204"] == "union"
    assert s["control"]["2407"] == "confederate"


def test_control_last_unit_to_pass_through_holds_the_hex(scenario):
    # 14.1/14.2: a Union unit marched through 2114, then a Confederate unit passed through it later
    s = place(fresh(scenario, 7), first_1="1812", hays_e="2013")
    changes = vc.update_control(s, [("first-1", ["2114", "2013", "1913", "1812"]),
                                    ("hays-e", ["2114", "2013"])])
    assert s["control"]["2114"] == "confederate"
    assert s["control"]["1913"] == "union" and s["control"]["1812"] == "union"
    assert s["control"]["2013"] == "confederate"
    assert any(c.hex == "2114" and c.side == "confederate" and c.unit == "hays-e" for c in changes)


def test_control_order_of_the_paths_matters(scenario):
    s = place(fresh(scenario, 7), first_1="2112", hays_e="2013")
    vc.update_control(s, [("hays-e", ["2114", "2013"]), ("first-1", ["2114", "2113", "2112"])])
    assert s["control"]["2114"] == "union"              # the Union unit passed through it last
    assert s["control"]["2013"] == "confederate" and s["control"]["2112"] == "union"
    s = place(fresh(scenario, 7), first_1="2112", hays_e="2013")
    vc.update_control(s, [("first-1", ["2114", "2113", "2112"]), ("hays-e", ["2114", "2013"])])
    assert s["control"]["2114"] == "confederate"


def test_control_mapping_of_paths_in_insertion_order(scenario):
    s = place(fresh(scenario, 7), first_1="1812", hays_e="2013")
    vc.update_control(s, {"first-1": ["2114", "1812"], "hays-e": ["2114", "2013"]})
    assert s["control"]["2114"] == "confederate"


def test_control_lasts_after_the_unit_leaves(scenario):
    s = place(fresh(scenario, 2), first_1="1204")
    vc.update_control(s, [])
    s["units"]["first-1"]["hex"] = "1209"
    vc.update_control(s, [("first-1", ["1205", "1206", "1207", "1208", "1209"])])
    assert s["control"]["1204"] == "union"


def test_control_hex_nobody_has_entered_is_nobodys(scenario):
    # G4: a hex no unit has entered belongs to nobody
    s = place(fresh(scenario, 1), wilcox_m="0609")
    vc.update_control(s, [])
    assert "1302" not in s["control"]
    assert vc.holder(s, "1302") is None


def test_control_only_combat_units_hold_hexes(scenario):
    # G4 reading (scenario hold_units: combat units): not a leader, not the wagon train
    s = place(fresh(scenario, 4), brooks_1="1204", wagon_train="2114")
    vc.update_control(s, [("brooks-1", ["1205", "1204"]), ("wagon-train", ["2114"])])
    assert "1204" not in s["control"] and "2114" not in s["control"]
    s = place(s, art_1="1205")
    vc.update_control(s, [("art-1", ["1206", "1205"])])           # artillery is a combat unit
    assert s["control"]["1205"] == "union" and s["control"]["1206"] == "union"


def test_control_retreat_and_advance_count_as_passing(scenario):
    # G4 reading: any entry counts, whatever the reason (a retreat path here)
    s = place(fresh(scenario, 9), first_1="1209")
    vc.update_control(s, [("first-1", ["1204", "1205", "1206", "1207", "1208", "1209"])])
    assert s["control"]["1204"] == "union"


def test_control_eliminated_unit_holds_nothing(scenario):
    s = place(fresh(scenario, 9), first_1="1204")
    s["units"]["first-1"]["steps"] = 0
    vc.update_control(s, [])
    assert "1204" not in s["control"]


def test_control_unknown_unit_is_refused(scenario):
    s = fresh(scenario, 2)
    with pytest.raises(InvalidInput):
        vc.update_control(s, [("no-such-unit", ["1204"])])
    with pytest.raises(InvalidInput):
        vc.update_control(s, [("first-1", "1204")])     # a path is a list of hex labels


# --------------------------------------------------------------------------
# 14.1 Union major victory: the train exited through 0107 or 0903 AND a Union unit
# holds 1204 or 2114 (either hex is enough)


def union_win_state(scenario) -> dict:
    s = place(fresh(scenario), first_1="2114")
    vc.update_control(s, [])
    s["wagon"] = {"exited": "victory", "captured": False, "hex": "0903"}
    return s


def test_14_1_met_train_exited_via_0903_and_union_holds_2114(scenario):
    v = vc.determine(union_win_state(scenario), scenario)
    assert v.final and v.checked_at == "end of turn 14"
    assert v.result == "union major victory" and v.winner == "union" and v.level == "major"
    c = cond(v, "14.1")
    assert c.met and all(p.met for p in c.parts) and len(c.parts) == 2
    assert "0903" in c.why or "0903" in c.parts[0].why


def test_14_1_met_with_1204_held_by_last_passage_only(scenario):
    s = place(fresh(scenario), first_1="1209")
    vc.update_control(s, [("first-1", ["1204", "1205", "1206", "1207", "1208", "1209"])])
    s["wagon"] = {"exited": "victory", "captured": False}        # "victory" = 0107 or 0903 (16.0)
    assert vc.determine(s, scenario).result == "union major victory"


def test_14_1_not_met_train_still_on_the_map(scenario):
    s = union_win_state(scenario)
    s["wagon"] = {"exited": None, "captured": False}
    place(s, wagon_train="1204")
    v = vc.determine(s, scenario)
    c = cond(v, "14.1")
    assert not c.met and not c.parts[0].met and c.parts[1].met
    assert v.result != "union major victory"


def test_14_1_not_met_train_escaped_via_1204_does_not_count(scenario):
    # 16.0/G6: leaving through 1204 or 1302 only avoids capture; it is not the exit 14.1 asks for
    s = union_win_state(scenario)
    s["wagon"] = {"exited": "escape", "captured": False, "hex": "1204"}
    v = vc.determine(s, scenario)
    assert not cond(v, "14.1").met
    assert not cond(v, "14.2").met                       # nor is it a capture
    assert v.level in ("marginal", "draw")


def test_14_1_exit_hex_must_be_0107_or_0903(scenario):
    s = union_win_state(scenario)
    s["wagon"] = {"exited": "victory", "captured": False, "hex": "1302"}
    with pytest.raises(InvalidInput):
        vc.determine(s, scenario)


def test_14_1_not_met_neither_1204_nor_2114_union(scenario):
    s = place(fresh(scenario), first_1="1302", kershaw_m="1204")
    vc.update_control(s, [])
    s["wagon"] = {"exited": "victory", "captured": False, "hex": "0107"}
    v = vc.determine(s, scenario)
    c = cond(v, "14.1")
    assert c.parts[0].met and not c.parts[1].met and not c.met
    assert "1204" in c.parts[1].why and "2114" in c.parts[1].why


# --------------------------------------------------------------------------
# 14.2 Confederate major victory: the train captured OR all of 1204, 1302, 2114, 2407 held


def test_14_2_met_train_captured(scenario):
    s = fresh(scenario)
    s["wagon"] = {"exited": None, "captured": True}
    v = vc.determine(s, scenario)
    assert v.result == "confederate major victory" and v.winner == "confederate"
    c = cond(v, "14.2")
    assert c.met and c.parts[0].met and not c.parts[1].met


def test_14_2_met_all_four_hexes_held(scenario):
    s = place(fresh(scenario), kershaw_m="1204", semmes_m="1302", hays_e="2114", wofford_m="1910")
    vc.update_control(s, [("wofford-m", ["2308", "2407", "2308", "2208", "2109", "2009", "1910"])])
    v = vc.determine(s, scenario)
    assert v.result == "confederate major victory"
    c = cond(v, "14.2")
    assert not c.parts[0].met and c.parts[1].met


def test_14_2_not_met_three_of_four(scenario):
    s = place(fresh(scenario), kershaw_m="1204", semmes_m="1302", hays_e="2114")
    vc.update_control(s, [])          # 2407: nobody has entered it
    v = vc.determine(s, scenario)
    c = cond(v, "14.2")
    assert not c.met and not c.parts[1].met
    assert "2407" in c.parts[1].why
    assert v.level in ("marginal", "draw")


def test_14_2_not_met_one_hex_union(scenario):
    s = place(fresh(scenario), kershaw_m="1204", semmes_m="1302", hays_e="2114", first_1="2407")
    vc.update_control(s, [])
    assert not cond(vc.determine(s, scenario), "14.2").met


def test_14_x_train_both_exited_and_captured_is_refused(scenario):
    s = fresh(scenario)
    s["wagon"] = {"exited": "victory", "captured": True}
    with pytest.raises(InvalidInput):
        vc.determine(s, scenario)


def test_14_x_bad_wagon_exit_kind_is_refused(scenario):
    s = fresh(scenario)
    s["wagon"] = {"exited": "north", "captured": False}
    with pytest.raises(InvalidInput):
        vc.determine(s, scenario)


# --------------------------------------------------------------------------
# 14.3 marginal victory by VP, or a draw (stand-in: 1 VP per enemy step lost, at the end)


def test_14_3_more_vp_wins_a_marginal_victory(scenario):
    s = fresh(scenario)
    s["units"]["first-1"]["steps"] = 0          # Union: 2 steps lost
    s["units"]["second-1"]["steps"] = 1         # Union: 1 step lost
    s["units"]["kershaw-m"]["steps"] = 1        # Confederate: 1 step lost
    v = vc.determine(s, scenario)
    assert not cond(v, "14.1").met and not cond(v, "14.2").met
    assert v.score.points == {"union": 1, "confederate": 3}
    assert v.result == "confederate marginal victory" and v.level == "marginal"
    assert cond(v, "14.3").met
    assert v.score.stand_in and v.score.counted == "end of game"


def test_14_3_equal_vp_is_a_draw(scenario):
    s = fresh(scenario)
    s["units"]["first-1"]["steps"] = 1
    s["units"]["kershaw-m"]["steps"] = 1
    v = vc.determine(s, scenario)
    assert v.result == "draw" and v.winner is None and v.level == "draw"
    assert v.score.points == {"union": 1, "confederate": 1}


def test_14_3_no_steps_lost_is_a_draw(scenario):
    v = vc.determine(fresh(scenario), scenario)
    assert v.result == "draw"


def test_14_3_not_reached_when_a_major_victory_is_won(scenario):
    s = union_win_state(scenario)
    s["units"]["first-1"]["steps"] = 1
    s["units"]["second-1"]["steps"] = 0           # the Confederates lead on VP, but 14.1 decides
    v = vc.determine(s, scenario)
    assert v.result == "union major victory"
    assert not cond(v, "14.3").met


def test_score_replaced_steps_are_not_lost_at_the_end(scenario):
    # counted: end of game -- a step replaced (13.2, 13.3) before the end is not lost then
    s = fresh(scenario)
    s["units"]["first-1"]["steps"] = 2
    assert vc.score(s, scenario).points == {"union": 0, "confederate": 0}


def test_score_without_initial_steps_uses_the_scenario(scenario):
    s = fresh(scenario)
    del s["initial_steps"]
    s["units"]["wilcox-m"]["steps"] = 0
    sc = vc.score(s, scenario)
    assert sc.points == {"union": 2, "confederate": 0}
    assert any("Wilcox/M" in line or "wilcox-m" in line for line in sc.breakdown["union"])


# --------------------------------------------------------------------------
# when: 14.1 and 14.2 are checked at the end of turn 14 (scenario check_at_end_of_turn)


def test_checked_only_at_the_end_of_turn_14(scenario):
    s = union_win_state(scenario)
    s["turn"] = 13
    v = vc.determine(s, scenario)
    assert not v.final and v.checked_at == "end of turn 14"
    assert v.result == "union major victory"             # as things stand
    assert "as things stand" in v.why.lower()
    assert vc.determine(s, scenario, end_of_turn=14).final


def test_why_lists_every_condition_and_whether_it_was_met(scenario):
    v = vc.determine(union_win_state(scenario), scenario)
    text = v.why
    for rule in ("14.1", "14.2", "14.3"):
        assert rule in text
    for label in ("0107", "0903", "1204", "1302", "2114", "2407"):
        assert label in text
    assert "met" in text and "not met" in text
    json.dumps(v.to_dict())                              # plain data for the report


def test_determine_does_not_change_the_state(scenario):
    s = union_win_state(scenario)
    before = copy.deepcopy(s)
    vc.determine(s, scenario)
    vc.score(s, scenario)
    assert s == before
