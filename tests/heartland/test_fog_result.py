"""The result of a game with hidden armies is the proof's (3.16, 3.71): the victory reads both sides'
displays, which only a neutral party compares, so neither copy announces it at the game's end; the
proof decides it on the true state, and the log, the reports, ``hxref status`` and a league's
standings read it from there.

Played by two machines (tests/core/fog_table.py) from the commitments of heartland-demo's second
Reorganization (tests/security/test_fog_claims.py): the union breaks a division down there, sealed
(8.51: the division loses a step the confederate's copy never sees), moves the detachment in the next
turn's first impulse and both play to the end."""
from __future__ import annotations

import json

import pytest

from hxref.referee.engine import Engine
from hxref.systems.heartland import model
from hxref.systems.heartland.victory import score
from tests.core.fog_table import GAME, Table
from tests.security.test_fog_cheats import awaiting, own_engine, staying
from tests.security.test_fog_claims import (at_reorg, at_reorg_saved, break_down_at_reorg, orders_of,
                                            to_union_orders)

__all__ = ["at_reorg", "at_reorg_saved"]          # the machines test_fog_claims.py plays, used here too


def move_the_detachment(table: Table, leader: str) -> None:
    """The union's next orders move the force whose box holds the detachment (8.52)."""
    to_union_orders(table)
    st = own_engine(table["union"]).state
    force = next(f for f in model.forces(st, "union") if not model.is_unled(f) and leader in model.force_leaders(st, f))
    choose = staying(table)
    d = table.step(lambda side, dd: orders_of(table, side, dd, [force]) if side == "union" else choose(side, dd))
    assert d is not None
    while awaiting(table)["decision"] == d["decision"]:
        table.step(choose)


def prove(table: Table) -> Engine:
    """Both sides send their proofs and resolve: the game as the confederate's copy holds it."""
    table.prove()
    return Engine.load(table["confederate"].folder / GAME)


def rules_events(eng: Engine, type_: str) -> list[dict]:
    return [e["data"] for e in eng.gf.log if e["kind"] == "rules" and e["data"].get("type") == type_]


def own_points(table: Table) -> dict[str, int]:
    """The true VP (3.16) from the two copies: each side's VP count the enemy's steps lost and leaders
    fallen, which the enemy's own copy holds as they are (its own display), and the places held, which
    both hold; so each side's points are as the enemy's copy counts them."""
    return {side: score(own_engine(table.other(side)).state).points[side] for side in table.players}


def to_the_proof(table: Table) -> None:
    choose = staying(table)
    while awaiting(table)["decision"] != "proof":
        assert table.step(choose) is not None, "the game ended without awaiting the proof"


@pytest.fixture
def ended(at_reorg) -> Table:
    """The game played to its end after a sealed break-down whose detachment moved: the proof awaited."""
    table = at_reorg
    move_the_detachment(table, break_down_at_reorg(table)["leader"])
    to_the_proof(table)
    return table


def test_a_step_lost_out_of_sight_is_no_copy_s_to_count_and_the_proof_decides_the_victory(ended):
    # 8.51: the union's division lost a step on its own display; the confederate's copy never saw it
    table = ended
    before = table.same()
    eng = Engine.load(table["confederate"].folder / GAME)
    believed = score(eng.state).points["confederate"]
    true = own_points(table)
    assert true["confederate"] > believed
    # the game's end announces no result: it waits for the proof (3.71)
    assert not rules_events(eng, "victory") and "result" not in eng.state
    end = rules_events(eng, "game.end")
    assert len(end) == 1 and end[0]["text"].endswith("the result waits for it") and end[0]["rule"] == "3.71"
    assert eng.system.result(eng.state) is None and not eng.finished
    for side, p in table.players.items():
        report = p("report", GAME, "--side", side).stdout
        assert "Result:" not in report and "Score now" not in report and "proof compares both" in report

    eng = prove(table)
    assert table.same() != before
    verdict = rules_events(eng, "proof")
    assert len(verdict) == 1 and verdict[0]["verdict"] is None, verdict[0]["text"]
    assert eng.finished and "forfeit" not in eng.h
    victory = rules_events(eng, "victory")
    assert len(victory) == 1 and victory[0]["decision"] == "proof"
    assert victory[0]["points"] == true == score(eng.state).points
    decided = score(eng.state)
    assert victory[0]["winner"] == decided.winner and decided.margin > 0
    res = eng.system.result(eng.state)
    assert res is not None and (res.winner, res.margin) == (decided.winner, decided.margin)
    won = f"Result: {decided.winner}, {decided.level} victory by {decided.margin} VP"
    for side, p in table.players.items():
        assert won in p("report", GAME, "--side", side).stdout
        assert p("audit", GAME).stdout.startswith("audit OK")
    # the game's status, the dashboard and the standings read the same result
    p = table["confederate"]
    assert f"result: {decided.winner} wins ({decided.level} victory;" in p("status", GAME).stdout
    rows = json.loads(p("status", ".", "--json").stdout)["games"]
    assert [r["result"] for r in rows] == [f"{decided.winner} won by {decided.margin}"]
    games = json.loads(p("standings", ".", "--json").stdout)["games"]
    assert [(g["winner"], g["margin"]) for g in games] == [(decided.winner, decided.margin)]


def test_after_a_challenge_that_lifts_the_fog_the_game_s_end_announces_its_result(at_reorg):
    # the proof between blocks: the game goes on in the open (with the true state) and its end says
    # who won, as an open game's does
    table = at_reorg
    move_the_detachment(table, break_down_at_reorg(table)["leader"])
    true = own_points(table)
    eng = prove(table)
    assert eng.h.get("fog_lifted") and not eng.finished and not rules_events(eng, "victory")
    choose = staying(table)
    while (d := table.step(choose)) is not None:
        assert d["decision"] != "proof"
    eng = Engine.load(table["confederate"].folder / GAME)
    assert eng.finished and "forfeit" not in eng.h
    assert [e["text"] for e in rules_events(eng, "game.end")] == ["the scenario ends after turn 3"]
    victory = rules_events(eng, "victory")
    assert len(victory) == 1 and victory[0]["decision"] != "proof"
    assert victory[0]["points"] == score(eng.state).points == eng.state["result"]["points"]
    assert victory[0]["points"]["confederate"] >= true["confederate"]      # the union's lost step counted
    for p in table.players.values():
        assert p("audit", GAME).stdout.startswith("audit OK")
