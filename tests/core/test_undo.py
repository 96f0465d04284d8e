"""`hxref undo` (issue 9 item 7): in a solo game each undo steps back one input (an answer or a
resolution); the undo is itself an event in the log, never a deletion; `audit` replays it.
In open and umpired games undo needs every other side's signed consent (not offered yet)."""
from pathlib import Path

import pytest

from hxref.engine import Engine, audit
from hxref.errors import HxrefError

ORDERS = {"moves": [{"unit": "us-3", "advance": 6}], "shots": []}


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T12:00:00Z")
    eng = Engine.create(tmp_path / "g.yaml", system="acw-minis", scenario="mercers-mill", mode="solo",
                        sides={"union": None, "confederate": None}, game_id="undo")
    eng.answer_solo("union", None, ORDERS)
    eng.resolve()
    eng.save()
    return tmp_path / "g.yaml"


def test_undo_steps_back_one_input_at_a_time_and_logs_each_undo(game):
    eng = Engine.load(game)
    n = len(eng.gf.log)
    assert eng.state["units"]["us-3"]["y"] == 10 and eng.awaiting[0].id == "t1.confederate"
    undone = eng.undo()                                      # the resolution
    assert undone["kind"] == "resolve" and eng.awaiting[0].id == "t1.union"
    assert eng.state["units"]["us-3"]["y"] == 4                  # back where it stood
    assert len(eng.gf.log) == n + 1 and eng.gf.log[-1]["kind"] == "undo"     # nothing deleted
    assert eng.undo()["kind"] == "answer"                    # then the answer
    assert eng.h["pending"] == {} or not eng.h["pending"].get("t1.union", {}).get("answers")
    eng.answer_solo("union", None, {"moves": [{"unit": "us-3", "advance": 3}], "shots": []})
    eng.resolve()
    assert eng.state["units"]["us-3"]["y"] == 7
    eng.save()
    assert audit(game).ok


def test_undo_with_nothing_left_to_undo_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T12:00:00Z")
    eng = Engine.create(tmp_path / "g.yaml", system="acw-minis", scenario="mercers-mill", mode="solo",
                        sides={"union": None, "confederate": None}, game_id="undo2")
    with pytest.raises(HxrefError) as e:
        eng.undo()
    assert "nothing to undo" in e.value.render()


def test_undo_needs_consent_outside_solo_games(cli, game_file=None):
    cli("new", "o.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    before = Path("o.yaml").read_bytes()
    err = cli.fails("undo", "o.yaml")
    assert "consent" in err and Path("o.yaml").read_bytes() == before


def test_cli_undo(cli):
    cli("new", "s.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "solo")
    cli("play", "s.yaml", "--choice", "{moves: [{unit: us-3, advance: 6}], shots: []}")
    out = cli("undo", "s.yaml").output
    assert "undid event" in out and "resolve" in out and "t1.union" in out
    assert "audit OK" in cli("audit", "s.yaml").output
