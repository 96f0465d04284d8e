"""The KGP campaign referee through the engine: set-up secrets, scenario-time rolls, the two
reports, the Refit Phase checklist, sealed purchases and chits, Idle Dates and the CG victory
(8.5, 8.6, 8.603, 8.612, 8.619, 8.623, CG Game End, 8.52).  Readings: hxref/systems/kgp/flow.py."""
import json

import pytest

from hxref.crypto import commit
from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.base.errors import HxrefError
from hxref.report import turn as rt
from hxref.systems.kgp.sealing import seal_choice

SALT = "ab" * 32
REPORT = {"lvp": {"us": 4, "german": 2}, "cvp": {"us": 3, "german": 5}, "facts": {"fires": True}}


def sealed(item_id, kind, value, salt=SALT):
    return {"id": item_id, "kind": kind, "commitment": commit.commitment(seal_choice(item_id, kind, value), salt)}


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T12:00:00Z")
    monkeypatch.setattr("hxref.referee.engine.random_hex", lambda n=32: "4b" * n)
    return Engine.create(tmp_path / "cg.yaml", system="kgp", scenario="cg-ii", mode="solo",
                         sides={"us": None, "german": None}, game_id="kgp-flow")


def with_ob_seals(eng, side, choice):
    """8.2 Objective Hex: a side's set-up orders seal the Objective Hex of each I/HW RG of its Initial OB."""
    from hxref.systems.kgp.purchase import ob_objective_ids

    have = {x["id"] for x in choice.get("seal", [])}
    extra = [sealed(i, "objective_hex", "ChW8") for i in ob_objective_ids(eng.system.charts, eng.state["cg"], side) if i not in have]
    return {**choice, "seal": extra + list(choice.get("seal", []))}


def answer(eng, choices: dict):
    dec = eng.awaiting[0]
    for side in dec.sides:
        choice = choices.get(side, {})
        eng.answer_solo(side, dec.id, with_ob_seals(eng, side, choice) if dec.kind == "setup" else choice)
    eng.resolve()
    return dec


def texts(eng):
    return [e["data"].get("text", "") for e in eng.gf.log if e["kind"] == "rules"]


def turn_choice(eng):
    """CG Game End: nothing to roll before Turn 6; from Turn 6 both Player Turns' Game End drs."""
    keeper = eng.awaiting[0].sides[0]
    if eng.state["turn"] < 6:
        return {}
    return {"rolls": [{"roll": "game_end", "side": s} for s in (keeper, "german" if keeper == "us" else "us")]}


def play_to_report(eng):
    """Play the scenario's turns until a Game End dr ends it (CG scenarios have no fixed length)."""
    for _ in range(60):
        if not eng.awaiting or eng.awaiting[0].kind != "turn":
            return
        answer(eng, {eng.awaiting[0].sides[0]: turn_choice(eng)})
    raise AssertionError("no Game End dr ended the scenario in 60 turns")


def test_8_5_cg_ii_starts_with_the_initial_scenario_and_its_cpp(game):
    st = game.state
    assert st["date"] == "20PM" and st["dates"] == ["20PM", "20N", "21AM", "21PM"]
    assert st["cpp"] == {"us": 24, "german": 35} and st["chit_limits"] == {"us": 3, "german": 1}
    assert st["scenario"]["moves_first"] == "us" and st["scenario"]["sets_up_first"] == "german"
    assert game.awaiting[0].id == "d20PM.setup"


def test_cg_game_end_an_end_before_the_game_end_dr_is_refused(game):
    answer(game, {})
    with pytest.raises(HxrefError) as e:             # no fixed length: not on Turn 1
        game.answer_solo("us", game.awaiting[0].id, {"end": True})
    assert "no fixed length" in e.value.render()
    while game.state["turn"] < 6:
        answer(game, {"us": {}})
    with pytest.raises(HxrefError) as e:             # Turn 6: only with the Game End dr hxref rolls
        game.answer_solo("us", game.awaiting[0].id, {"end": True})
    assert "roll: game_end" in e.value.render()


def test_8_2_the_initial_obs_i_and_hw_rgs_need_their_objective_hexes(game):
    with pytest.raises(HxrefError) as e:             # the German OB: 2 SS Infantry Platoons, 1 SS MG Platoon
        game.answer_solo("german", "d20PM.setup", {"seal": []})
    assert "objective-ob-german-I2-1, objective-ob-german-I2-2, objective-ob-german-HW2-1" in e.value.render()
    answer(game, {})
    assert [x["id"] for x in game.state["sealed"]["us"]] == ["objective-ob-us-I2-1", "objective-ob-us-I2-2",
                                                            "objective-ob-us-I2-3"]
    v = game.system.view(game.state, "german", "umpired")      # the ids and commitments stay the US's own
    assert v["sealed"]["us"] == [{"sealed_on": "20PM"}] * 3


def test_9_setup_secrets_are_sealed_and_opened_later_with_a_check(game):
    obj = sealed("objective-setup", "objective_hex", "ChNN6")
    answer(game, {"us": {"seal": [obj, sealed("objective-other", "objective_hex", "ChW8")]}, "german": {"seal": []}})
    assert game.state["sealed"]["us"][-2]["commitment"] == obj["commitment"]
    dec = game.awaiting[0]
    assert dec.id == "d20PM.t1" and dec.sides == ("us",)
    with pytest.raises(HxrefError) as e:       # a wrong value does not open it
        game.answer_solo("us", dec.id, {"reveal": [{"side": "us", "id": "objective-setup", "value": "ChA10",
                                                    "salt": SALT}]})
    assert "do not open" in e.value.render()
    with pytest.raises(HxrefError) as e:       # 8.2: the NN6 bridge is already a Strategic Location
        game.answer_solo("us", dec.id, {"reveal": [{"side": "us", "id": "objective-setup", "value": "ChNN6",
                                                    "salt": SALT, "meets": "hexsides"}]})
    assert "ChNN6 was already a Strategic Location" in e.value.render() and "a bridge Location" in e.value.render()
    answer(game, {"us": {"reveal": [{"side": "us", "id": "objective-other", "value": "ChW8", "salt": SALT,
                                     "meets": "tem"}]}})
    assert game.state["opened"]["us"] == [{"id": "objective-other", "kind": "objective_hex", "value": "ChW8"}]


def test_cg_game_end_dr_only_from_turn_6_and_it_can_end_the_scenario(game):
    answer(game, {})
    dec = game.awaiting[0]
    with pytest.raises(HxrefError) as e:
        game.answer_solo("us", dec.id, {"rolls": [{"roll": "game_end", "side": "us"}]})
    assert "before Turn 6" in e.value.render()
    while game.state["turn"] < 6:
        answer(game, {"us": {}})
    for _ in range(10):                              # turn 6 on: a Game End dr by each phasing player
        if game.state["stage"] != "play":
            break
        answer(game, {"us": {"rolls": [{"roll": "game_end", "side": "us"}, {"roll": "game_end", "side": "german"}]}})
    rolls = [r for r in game.state["rolls"] if r["roll"] == "game_end"]
    assert rolls and all(r["turn"] >= 6 for r in rolls)
    if game.state["stage"] == "report":
        assert any("the scenario ends at once" in r["why"] for r in rolls)


def test_8_603_reports_must_agree_then_the_roster_and_cg_lvp_are_written(game):
    answer(game, {})
    play_to_report(game)
    dec = answer(game, {"us": REPORT, "german": {**REPORT, "lvp": {"us": 3, "german": 2}}})
    assert dec.id == "d20PM.report" and game.awaiting[0].id == "d20PM.report.2"
    assert any("disagree on lvp" in t for t in texts(game))
    answer(game, {"us": REPORT, "german": REPORT})
    row = game.state["roster"][0]
    assert row["date"] == "20PM" and row["lvp"] == {"us": 4, "german": 2} and row["cg_lvp"] == {"us": 4, "german": 2}
    assert row["winner"] == "us"                     # 8.52 Initial Scenario: US Current LVP >= 1


def test_8_6_refit_checklist_computes_records_and_skips_with_reasons(game):
    answer(game, {})
    play_to_report(game)
    answer(game, {"us": REPORT, "german": REPORT})
    steps = {r["step"]: r for r in game.state["refit"]}
    assert steps["8.603"]["status"] == "computed" and steps["8.612"]["status"] == "computed"
    assert steps["8.612"]["why"].startswith("the new CG Date is 20N (Night); SAN US 2, German 4")
    assert game.state["date"] == "20N"
    assert steps["8.609"]["status"] == "recorded"               # fires reported
    assert steps["8.608"]["status"] == "skipped" and "no prisoners" in steps["8.608"]["why"]
    assert steps["8.617"]["status"] == "computed" and "stand-in" in steps["8.617"]["why"]
    assert game.awaiting[0].id == "d20N.refit" and game.awaiting[0].secret


def _to_refit(game):
    answer(game, {})
    play_to_report(game)
    answer(game, {"us": REPORT, "german": REPORT})


def test_8_619_purchases_cost_cpp_need_objective_hexes_and_stay_each_sides_own(game):
    _to_refit(game)
    dec = game.awaiting[0]
    with pytest.raises(HxrefError) as e:             # an I RG needs its secret Objective Hex (8.2)
        game.answer_solo("us", dec.id, {"chit": "idle", "purchase": ["I2"]})
    assert "Objective Hex" in e.value.render()
    with pytest.raises(HxrefError) as e:             # CPP
        game.answer_solo("us", dec.id, {"chit": "idle", "purchase": ["I2"] * 6,
                                        "seal": [sealed(f"objective-I2-{i}", "objective_hex", "ChNN6")
                                                 for i in range(1, 7)]})
    assert "CPP" in e.value.render() or "CG-Max" in e.value.render()
    answer(game, {"us": {"chit": "idle", "cpp_replenishment": 6, "purchase": ["I2"],
                         "seal": [sealed("objective-I2-1", "objective_hex", "ChNN6")]},
                  "german": {"chit": "idle"}})
    st = game.state
    assert st["cpp"]["us"] == 24 + 6 - 5 and st["purchases"]["us"][0]["rg"] == "I2"
    # umpired views: the German never sees the US purchase or CPP
    v = game.system.view(st, "german", "umpired")
    assert v["purchases"] == {"german": []} and "us" not in v["cpp"]
    assert "commitment" not in v["sealed"]["us"][0]
    body = json.dumps(game.system.report(v), default=lambda o: o.__dict__)
    assert "objective-I2-1" not in body and "Paratroop" not in body


def test_8_623_both_idle_is_an_idle_date_and_the_star_steps_repeat(game):
    _to_refit(game)
    answer(game, {"us": {"chit": "idle"}, "german": {"chit": "idle"}})
    st = game.state
    assert st["roster"][-1] == {"date": "20N", "scenario": False, "lvp": None, "cg_lvp": {"us": 4, "german": 2},
                                "winner": None, "idle": True}
    assert st["date"] == "21AM" and game.awaiting[0].id == "d21AM.refit"
    repeated = [r["step"] for r in st["refit"] if r["date"] == "21AM"]
    assert repeated[0] == "8.612" and "8.601" not in repeated          # only the "*" steps


def test_8_623_attack_chit_limit_german_1_in_cg_ii(game):
    _to_refit(game)
    answer(game, {"us": {"chit": "idle"}, "german": {"chit": "attack"}})
    st = game.state
    assert st["scenario"]["attacker"] == "german" and st["stage"] == "play" and st["chits"]["german"] == 1
    play_to_report(game)
    answer(game, {"us": REPORT, "german": REPORT})
    dec = game.awaiting[0]
    with pytest.raises(HxrefError) as e:
        game.answer_solo("german", dec.id, {"chit": "attack"})
    assert "Attack chits" in e.value.render()


def test_8_52_cg_ii_ends_after_21pm_with_a_victory_and_audits(game, tmp_path):
    _to_refit(game)
    for _ in range(200):
        if not game.awaiting:
            break
        dec = game.awaiting[0]
        if dec.kind == "refit":
            answer(game, {"us": {"chit": "attack"}, "german": {"chit": "idle"}})
        elif dec.kind == "turn":
            answer(game, {dec.sides[0]: turn_choice(game)})
        elif dec.kind == "report":
            answer(game, {"us": REPORT, "german": REPORT})
    st = game.state
    assert st["stage"] == "over" and st["result"]["winner"] == "german"     # < 10 LVP hexes: otherwise (reading)
    assert [r["date"] for r in st["roster"]] == ["20PM", "20N", "21AM", "21PM"]
    assert any("CG End" in t for t in texts(game))
    game.save()
    assert audit(tmp_path / "cg.yaml").ok
    out = rt.render(rt.build(game, "us"), "md")
    assert "CG Roster" in out and "Campaign result" in out


def test_8_52_the_germans_destroying_the_bridge_is_an_immediate_us_win(game):
    answer(game, {})
    answer(game, {"us": {"bridge_destroyed_by": "german"}})
    assert game.state["stage"] == "over" and game.state["result"]["winner"] == "us"


def test_9_secret_drs_are_the_owners_alone(game):
    # S7 (7.2 dummy minefields), S18 (I.3): rolled with the verifiable dice, shown only to the owner
    answer(game, {"us": {}, "german": {"secret_drs": [{"purpose": "7.2 dummy minefields"}]}})
    st = game.state
    assert len(st["secret_rolls"]["german"]) == 1 and st["secret_rolls"]["us"] == []
    us_view = game.system.view(st, "us", "umpired")
    assert "german" not in us_view["secret_rolls"]
    die = [e["data"] for e in game.gf.log if e["kind"] == "die" and "dummy minefields" in e["data"]["purpose"]]
    assert die and die[0]["visible_to"] == ["german"] and die[0]["by"] == "german"
    from hxref.kit.events import visible

    secret = [e["data"] for e in game.gf.log if e["kind"] == "rules" and e["data"].get("type") == "secret.dr"]
    assert not visible(secret[0], "us") and visible(secret[0], "german")


def test_reports_show_the_mist_density_elr_and_san(game):
    # I.1/II.1/III.1 (SSR KG3): the Initial Scenario's Mist density; CG4 ELR; 8.612 SAN
    out = rt.render(rt.build(game, "us"), "md")
    assert "Mist density: VH" in out
    assert "ELR US 5, German 5 (CG4)" in out and "SAN US 2, German 4 (8.612)" in out


def test_cg4_the_night_scenario_defender_has_one_elr_less(game):
    from hxref.systems.kgp.report import sections

    _to_refit(game)
    answer(game, {"us": {"chit": "idle"}, "german": {"chit": "attack"}})   # 20N: a German night attack
    assert game.state["scenario"]["night"] and game.state["scenario"]["defender"] == "us"
    head = sections(game.system.view(game.state, "us", "umpired"))[0].lines
    assert any("ELR US 4 (Night Defender: 5 - 1), German 5" in line for line in head)


def test_refit_rolls_fortifications_and_fpp_are_each_sides_own(game):
    import copy

    _to_refit(game)
    answer(game, {"us": {"chit": "idle", "rolls": [{"step": "8.614", "what": "MMG in ChW8"}]},
                  "german": {"chit": "idle"}})
    st = copy.deepcopy(game.state)
    assert st["refit_rolls"]["us"][0]["what"] == "MMG in ChW8" and st["refit_rolls"]["german"] == []
    st["fortifications"] = {"us": [{"date": "20N", "fortification": "wire", "name": "Barbed Wire", "count": 1,
                                    "fpp": 3}], "german": []}
    v = game.system.view(st, "german", "umpired")
    assert "us" not in v["refit_rolls"] and "us" not in v["fortifications"] and "us" not in v["fpp"]
    body = json.dumps(game.system.report(v), default=lambda o: o.__dict__)
    assert "MMG in ChW8" not in body and "Barbed Wire" not in body
    mine = json.dumps(game.system.report(game.system.view(st, "us", "umpired")), default=lambda o: o.__dict__)
    assert "MMG in ChW8" in mine and "Barbed Wire" in mine


def test_8_5_the_initial_purchase_is_sealed_in_an_open_game_and_held_by_the_umpire_otherwise():
    from hxref.systems.kgp.system import SYSTEM

    state = SYSTEM.setup({**SYSTEM.load_scenario("cg-ii"), "table_mode": "open"})
    dec = SYSTEM.decisions(state)[0]
    assert dec.kind == "setup" and dec.secret and dec.simultaneous and "purchase" in dec.schema
    umpired = SYSTEM.setup({**SYSTEM.load_scenario("cg-ii"), "table_mode": "umpired"})
    assert not SYSTEM.decisions(umpired)[0].secret          # the files go to the umpire alone
