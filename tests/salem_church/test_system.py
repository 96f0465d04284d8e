"""The Salem Church scenario rules at the orders level, through the engine in solo mode:
for each rule a legal order that is resolved and an illegal one that is refused with its rule.

* 13.3 set-up: Wilcox/M west of column 16;
* 13.2/13.3 arrivals: by their entry hex, all of a turn by the same chosen hex; they may not
  stay overstacked on it (stacking stand-in: 2 combat units a hex, D3);
* 13.2 replacements: at most 2 steps a turn;
* 18.0 night: no attacks, no moving next to the enemy;
* 16.0 the wagon train: roads only, never next to a Confederate unit, no Union unit in its hex;
  captured when a Confederate combat unit enters its hex (recorded in the state);
* orders with unknown keys are refused;
* B1 an attack by units not next to the target is void at resolution;
* 15.0 +2 for an infantry brigade defending Salem Church or the Schoolhouse, in the combat's
  explanation (not for artillery, not for the attacker);
* the turn summary table of the report: attackers, target, A-D, column, die, result.

The positions are set on the state of a real game (the scenario's own units on the stand-in
map) and the awaited decision is moved to the turn under test.
"""
from __future__ import annotations

import pytest

from hxref.referee.engine import Engine
from hxref.base.errors import IllegalOrder, InvalidInput
from hxref.report import turn

STANDING = {"choice": "disrupt", "loss": "loss", "hexes": 1}


@pytest.fixture
def new(tmp_path, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T12:00:00Z")
    monkeypatch.setattr("hxref.referee.engine.random_hex", lambda n=32: "5c" * n)
    return Engine.create(tmp_path / "g.yaml", system="salem-church", scenario="salem-church", mode="solo",
                         sides={"union": None, "confederate": None}, game_id="salem-rules")


@pytest.fixture
def game(new):
    """Wilcox/M in Salem Church; the Union's turn 1 awaited."""
    new.answer_solo("confederate", "t0.setup", {"place": {"wilcox-m": "0609"}})
    new.resolve()
    return new


def place(eng, **where) -> None:
    """Put units (id with ``_`` for ``-``) in hexes; ``(hex, steps)`` reduces them too."""
    for key, spec in where.items():
        hexl, steps = spec if isinstance(spec, tuple) else (spec, None)
        u = eng.state["units"][key.replace("_", "-")]
        u["hex"] = hexl
        if steps is not None:
            u["steps"] = steps


def at_turn(eng, t: int, side: str) -> None:
    """The game moved on to ``side``'s player turn ``t`` (the positions are the test's)."""
    eng.state.update(turn=t, phasing=side, stage="play")
    eng.h["awaiting"] = [d.to_dict() for d in eng.system.decisions(eng.state)]
    assert eng.awaiting[0].id == f"t{t}.{side}"


def _choice(eng, choice: dict) -> dict:
    return choice if eng.awaiting[0].kind == "setup" else {"moves": [], **choice}


def refused(eng, side: str, choice: dict) -> IllegalOrder:
    with pytest.raises(IllegalOrder) as exc:
        eng.answer_solo(side, None, _choice(eng, choice))
    return exc.value


def play(eng, side: str, choice: dict) -> list[dict]:
    """Answer and resolve; the rules events of the resolution."""
    eng.answer_solo(side, None, _choice(eng, choice))
    return [ev for r in eng.resolve() for ev in r.events]


def types(events) -> list[str]:
    return [e["type"] for e in events]


# --- 13.3 set-up ---------------------------------------------------------------------------------

def test_setup_west_of_column_16(new):
    err = refused(new, "confederate", {"place": {"wilcox-m": "1609"}})
    assert err.rule == "13.3" and "west of column 16" in err.message
    err = refused(new, "confederate", {"place": {"wilcox-m": "1505", "kershaw-m": "1504"}})
    assert err.rule == "13.3"
    events = play(new, "confederate", {"place": {"wilcox-m": "1505"}})        # column 15: the last one west of 16
    assert types(events) == ["setup"] and new.state["units"]["wilcox-m"]["hex"] == "1505"
    assert new.awaiting[0].id == "t1.union"


# --- 13.2 / 13.3 arrivals ------------------------------------------------------------------------

T1 = [{"unit": "first-1", "path": ["2114", "2013"]}, {"unit": "second-1", "path": ["2114"]},
      {"unit": "art-1", "path": ["2114"]}, {"unit": "brooks-1", "path": ["2114"]}]


def test_arrivals_by_their_entry_hex(game):
    err = refused(game, "union", {"entry": "0107", "moves": T1})
    assert err.rule == "13.3" and "2114" in err.message
    events = play(game, "union", {"entry": "2114", "moves": T1, "standing": STANDING})
    assert [e["text"].split(" (")[0] for e in events if e["type"] == "move"] == [
        "First/1 enters at 2114 and moves 2114 > 2013", "Second/1 enters at 2114 and moves 2114",
        "Art/1 enters at 2114 and moves 2114", "Brooks/1 enters at 2114 and moves 2114"]


def test_arrivals_of_a_turn_enter_by_the_same_hex(game):
    at_turn(game, 5, "confederate")
    moves = [{"unit": "perry-a", "path": ["0903", "1003"]}, {"unit": "posey-a", "path": ["0903", "1003"]},
             {"unit": "wright-a", "path": ["0903", "1002"]}, {"unit": "garnett-a", "path": ["0903", "1002"]},
             {"unit": "anderson-a", "path": ["0903"]}]
    wrong = [dict(moves[0], path=["0107", "0207"])] + moves[1:]
    err = refused(game, "confederate", {"entry": "0903", "moves": wrong})
    assert err.rule == "13.3" and "same hex" in err.message and "0107" in err.message
    err = refused(game, "confederate", {"moves": moves})                    # two entry hexes: name one
    assert err.rule == "13.3" and "give `entry`" in err.message
    events = play(game, "confederate", {"entry": "0903", "moves": moves})
    assert {e["unit"] for e in events if e["type"] == "move"} == {"perry-a", "posey-a", "wright-a", "garnett-a",
                                                                  "anderson-a"}
    assert all(e["path"][0] == "0903" for e in events if e["type"] == "move")


def test_arrivals_may_not_stay_overstacked(game):
    stay = [dict(m, path=["2114"]) for m in T1]
    err = refused(game, "union", {"entry": "2114", "moves": stay})
    assert err.rule == "D3" and "at most 2" in err.message
    err = refused(game, "union", {"entry": "2114"})                 # brought on where they enter: 3 combat units
    assert "cannot stop in 2114" in err.message and "give it a path onward" in err.message
    play(game, "union", {"entry": "2114", "moves": T1})
    at = [u["hex"] for uid, u in game.state["units"].items() if u["side"] == "union" and u["type"] != "leader"
          and u.get("hex")]
    assert sorted(at) == ["2013", "2114", "2114"]


# --- 13.2 replacements ---------------------------------------------------------------------------

def test_at_most_two_replacements(game):
    place(game, first_1=("1712", 1), second_1=("1712", 1), third_1=("1611", 1), art_1="1611")
    at_turn(game, 2, "union")
    three = [{"unit": "first-1"}, {"unit": "second-1"}, {"unit": "third-1"}]
    err = refused(game, "union", {"replacements": three})
    assert err.rule == "13.2" and "at most 2" in err.message
    err = refused(game, "union", {"replacements": [{"unit": "art-1"}]})
    assert err.rule == "13.2" and "has lost no step" in err.message
    events = play(game, "union", {"replacements": three[:2]})
    assert [e["text"] for e in events if e["type"] == "replacement"] == [
        "First/1 is back to full strength", "Second/1 is back to full strength"]
    assert [game.state["units"][u]["steps"] for u in ("first-1", "second-1", "third-1")] == [2, 2, 1]


# --- 18.0 night ----------------------------------------------------------------------------------

def test_night_no_attacks_and_no_moving_next_to_the_enemy(game):
    place(game, first_1="0709", second_1="0809")
    at_turn(game, 6, "union")
    err = refused(game, "union", {"attacks": [{"attackers": ["first-1"], "target": "0609"}]})
    assert err.rule == "18.0" and "night" in err.message
    err = refused(game, "union", {"moves": [{"unit": "second-1", "path": ["0710"]}]})
    assert err.rule == "18.0" and "adjacent" in err.message
    # First/1 may stay next to Wilcox/M; Second/1 moves, but not next to him
    events = play(game, "union", {"moves": [{"unit": "second-1", "path": ["0909"]}]})
    assert "night" in types(events) and "combat" not in types(events)
    assert game.state["units"]["first-1"]["hex"] == "0709" and game.state["units"]["second-1"]["hex"] == "0909"


# --- 16.0 the wagon train ------------------------------------------------------------------------

def _t4(game) -> list[dict]:
    place(game, hays_e="1912")
    at_turn(game, 4, "union")
    return [{"unit": "third-1", "path": ["2114", "2113"]}, {"unit": "guard-6", "path": ["2114", "2214"]}]


def test_wagon_train_moves_only_along_roads(game):
    others = _t4(game)
    err = refused(game, "union", {"entry": "2114",
                                  "moves": others + [{"unit": "wagon-train", "path": ["2114", "2014"]}]})
    assert err.rule == "16.0" and "road" in err.message
    events = play(game, "union", {"entry": "2114",
                                  "moves": others + [{"unit": "wagon-train", "path": ["2114", "2013"]}]})
    assert game.state["units"]["wagon-train"]["hex"] == "2013"
    assert "Wagon train enters at 2114 and moves 2114 > 2013" in [e["text"].split(" (")[0] for e in events]


def test_wagon_train_never_next_to_a_confederate_and_alone_in_its_hex(game):
    others = _t4(game)
    err = refused(game, "union", {"entry": "2114",
                                  "moves": others + [{"unit": "wagon-train", "path": ["2114", "2013", "1913"]}]})
    assert err.rule == "16.0" and "adjacent to a Confederate unit" in err.message      # 1913 touches Hays/E
    err = refused(game, "union", {"entry": "2114",
                                  "moves": [{"unit": "wagon-train", "path": ["2114", "2013"]},
                                            {"unit": "third-1", "path": ["2114", "2013"]}, others[1]]})
    assert err.rule == "16.0" and "wagon train" in err.message
    play(game, "union", {"entry": "2114", "moves": others + [{"unit": "wagon-train", "path": ["2114", "2013"]}]})
    assert game.state["units"]["wagon-train"]["hex"] == "2013"


def test_wagon_train_captured_by_a_confederate_combat_unit(game):
    place(game, wagon_train="1208", hays_e="1207", early_e="1207")
    at_turn(game, 8, "confederate")
    err = refused(game, "confederate", {"moves": [{"unit": "early-e", "path": ["1208"]}]})
    assert "16.0" in err.message and "wagon" in err.message                      # a leader captures nothing
    events = play(game, "confederate", {"moves": [{"unit": "hays-e", "path": ["1208"]}]})
    assert "Hays/E captures the Union wagon train (16.0)" in [e["text"] for e in events]
    assert game.state["wagon"]["captured"] is True and game.state["wagon"]["hex"] == "1208"
    w = game.state["units"]["wagon-train"]
    assert w["captured"] and w["hex"] is None and w["steps"] == 0
    from hxref.systems.salem_church import victory

    v = victory.determine(game.state, game.state["rules"], end_of_turn=14)
    assert v.result == "confederate major victory" and v.rule == "14.2"


# --- orders that hxref cannot read as Salem Church orders ----------------------------------------

def test_unknown_keys_are_refused(game):
    with pytest.raises(InvalidInput) as exc:
        game.answer_solo("union", None, {"moves": T1, "entry": "2114", "orders": []})
    assert "unknown key `orders`" in exc.value.message
    dec = game.awaiting[0]
    from hxref.kit import schema

    def check(state, dec, side, choice):       # as hxref.referee.orders checks: the schema, then the rules
        return schema.check(dec.schema, choice, dec.rule) or game.system.check(state, dec, side, choice)

    # a key the orders do not have: the decision's rule (13.4)
    assert [(p.rule, p.path) for p in check(game.state, dec, "union", {"moves": T1, "entry": "2114", "orders": []})] \
        == [("13.4", ["orders"])]
    bad_move = [dict(T1[0], speed=2)] + T1[1:]
    assert [(p.rule, p.path) for p in check(game.state, dec, "union", {"moves": bad_move, "entry": "2114"})] \
        == [("D3", ["moves", 0, "speed"])]
    bad_attack = {"attackers": ["first-1"], "target": "0609", "odds": 3}
    assert [p.rule for p in check(game.state, dec, "union", {"moves": T1, "entry": "2114",
                                                             "attacks": [bad_attack]})] == ["B1"]
    assert [p.rule for p in check(game.state, dec, "union", {"moves": T1, "entry": "2114",
                                                             "standing": {"retreat": 2}})] == ["B2"]
    assert [p.message for p in check(game.state, dec, "union", {"moves": T1, "entry": "2114", "attacks": [
        {"attackers": ["first-1"], "target": "0609", "hexes": 4}]})] \
        == ["`attacks[0].hexes` must be one of 1, 2, 3 (got 4)"]
    assert check(game.state, dec, "union", {"moves": T1, "entry": "2114", "standing": STANDING}) == []


# --- combat: void attacks, 15.0, the turn summary --------------------------------------------------

def test_attack_by_units_not_adjacent_is_void_at_resolution(game):
    """Who is next to whom is known only when the moves are made: the check lets it pass, the
    resolution voids it; the next attack, by a unit next to the target, is fought."""
    place(game, first_1="0809", second_1="0709")
    at_turn(game, 2, "union")
    events = play(game, "union", {"attacks": [{"attackers": ["first-1"], "target": "0609"},
                                              {"attackers": ["second-1"], "target": "0609"}]})
    void = [e for e in events if e["type"] == "attack.void"]
    assert len(void) == 1 and "no attacking unit next to it" in void[0]["text"] and void[0]["rule"] == "B1"
    assert types(events).count("combat") == 1
    assert [c["attackers"] for c in game.state["combats"]] == [["second-1"]]


def _modifiers(event: dict) -> list[tuple[str, str, str]]:
    return [(m["unit"], m["effect"], m["rule"]) for m in event["explain"]["modifiers"]]


def test_defensive_position_plus_two_in_the_combat_explanation(game):
    place(game, first_1="0709", second_1="0710", garnett_a="0610", art_1="0809")
    at_turn(game, 2, "union")
    events = play(game, "union", {"attacks": [{"attackers": ["first-1"], "target": "0609"},
                                              {"attackers": ["second-1"], "target": "0610"}]})
    church, school = [e for e in events if e["type"] == "combat"]
    # an infantry brigade defending Salem Church: +2 (15.0)
    assert ("Wilcox/M", "+2", "15.0") in _modifiers(church)
    assert church["explain"]["defender"]["total"] == 7 and "defensive position 0609 (15.0)" in church["text"]
    # artillery in the Schoolhouse gets nothing (infantry brigades only)
    assert not [m for m in _modifiers(school) if m[2] == "15.0"]
    assert school["explain"]["defender"]["total"] == 3


def test_no_plus_two_for_the_attacker_in_a_defensive_position(game):
    place(game, wilcox_m="0609", first_1="0709")
    at_turn(game, 1, "confederate")
    events = play(game, "confederate", {"attacks": [{"attackers": ["wilcox-m"], "target": "0709"}]})
    (combat,) = [e for e in events if e["type"] == "combat"]
    assert combat["explain"]["attacker"]["total"] == 5 and not [m for m in _modifiers(combat) if m[2] == "15.0"]


def test_turn_summary_table_in_the_report(game):
    place(game, first_1="0709", second_1="0709", art_1="0809")
    at_turn(game, 2, "union")
    play(game, "union", {"attacks": [{"attackers": ["first-1", "second-1"], "target": "0609"},
                                     {"attackers": ["art-1"], "target": "0609"}]})
    rep = turn.build(game, "union")
    (table,) = [s for s in rep.sections if s.title.startswith("Turn summary")]
    for col in ("attackers", "target", "A-D", "column", "die", "result"):
        assert col in table.columns
    rec = game.state["combats"][0]
    row = dict(zip(table.columns, table.rows[0]))
    assert row["attackers"] == "First/1, Second/1" and row["target"] == "0609"
    assert row["A-D"] == f"{rec['attack']}-{rec['defence']} = {rec['differential']:+d}" == "10-7 = +3"
    assert row["column"] == "+2..+3" and row["die"] == str(rec["die"]) and row["result"] == rec["result"]
    assert len(table.rows) == len(game.state["combats"])
    md = turn.render(rep, "md")
    assert "| turn | by | attackers | target | A-D | column | die | result | effects |" in md
