"""`hxref undo`: in a solo game each undo steps back one input (an answer or a
resolution); the undo is itself an event in the log, never a deletion; `audit` replays it.
In open and umpired games a kept file is withdrawn by signed consent, before any link or reveal
answers it."""
from pathlib import Path

import pytest

from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.base.errors import HxrefError

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


@pytest.fixture
def open_game(cli) -> str:
    """An open bidding-demo game that both sides have joined (as tests/conftest.py's `game`)."""
    cli("new", "o.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
        "--game-id", "undo-open", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    cli("join", "o.yaml", "--side", "union", "--key", "alice")
    cli("join", "o.yaml", "--side", "confederate", "--key", "bob")
    cli("submit", "o.yaml", "union-join.yaml", "confederate-join.yaml")
    return "o.yaml"


def test_undo_outside_solo_games_is_a_signed_file(cli, open_game):
    game = open_game
    before = Path(game).read_bytes()
    err = cli.fails("undo", game)
    assert "signed file" in err and "--side" in err and Path(game).read_bytes() == before


def test_undo_by_consent_in_an_open_game(cli, open_game):
    game = open_game
    # alice seals a bid of 3, thinks better of it; both sign the undo; she seals 4 instead
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    cli("submit", game, "union-t1.bid-commit.yaml")
    target = Engine.load(game).h["pending"]["t1.bid"]["files"][0]["sha256"]
    cli("undo", game, "--side", "union", "--key", "alice")
    cli("submit", game, f"union-undo-{target[:12]}.yaml")
    assert Engine.load(game).h["pending"]["t1.bid"]["answers"]["union"]["commitment"]     # not yet: bob must sign
    err = cli.fails("submit", game, f"union-undo-{target[:12]}.yaml")                   # no double vote
    assert "[E303]" in err or "already" in err
    cli("undo", game, "--side", "confederate", "--key", "bob")
    cli("submit", game, f"confederate-undo-{target[:12]}.yaml")
    eng = Engine.load(game)
    assert "union" not in eng.h["pending"].get("t1.bid", {}).get("answers", {}) and target in eng.h["withdrawn"]
    withdrawn = [e for e in eng.gf.log if e["kind"] == "rules" and e["data"].get("withdrawn") == target]
    assert withdrawn and "withdrawn by the consent of confederate, union" in withdrawn[0]["data"]["text"]
    # the withdrawn file cannot come back
    assert "[E301]" in cli.fails("submit", game, "union-t1.bid-commit.yaml")
    Path("union-t1.bid-commit.yaml").unlink()
    Path("union-t1.bid-reveal.yaml").unlink()
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 4")
    cli("commit", game, "--side", "confederate", "--key", "bob", "--choice", "bid: 1")
    cli("submit", game, "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml")
    cli("submit", game, "union-t1.bid-reveal.yaml", "confederate-t1.bid-reveal.yaml")
    cli("resolve", game)
    eng = Engine.load(game)
    assert "t1.bid" in eng.h["resolved"]
    reveals = [e["data"]["file"] for e in eng.gf.log if e["kind"] == "submission" and e["data"]["kind"] == "reveal"
               and e["data"]["side"] == "union"]
    assert len(reveals) == 1 and "bid: 4" in reveals[0]
    assert "audit OK" in cli("audit", game).output


def test_undo_cannot_reach_back_past_a_resolution(cli, open_game):
    game = open_game
    from tests.conftest import bid_round

    bid_round(cli, game, 3, 1)
    err = cli.fails("undo", game, "--side", "union", "--key", "alice")
    assert "nothing can be withdrawn" in err


def test_a_file_answered_by_a_reveal_cannot_be_withdrawn(cli, open_game):
    # once a reveal is in, the commitments are final: withdrawing one would let its author
    # choose again knowing the other's choice
    game = open_game
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    cli("commit", game, "--side", "confederate", "--key", "bob", "--choice", "bid: 1")
    cli("submit", game, "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml")
    target = [f for f in Engine.load(game).h["pending"]["t1.bid"]["files"] if f["party"] == "union"][0]["sha256"]
    cli("undo", game, "--side", "union", "--key", "alice", "--target", target)
    cli("submit", game, "confederate-t1.bid-reveal.yaml")
    err = cli.fails("submit", game, f"union-undo-{target[:12]}.yaml")
    assert "[E304]" in err and "final" in err


def test_cli_undo(cli):
    cli("new", "s.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "solo")
    cli("play", "s.yaml", "--choice", "{moves: [{unit: us-3, advance: 6}], shots: []}")
    out = cli("undo", "s.yaml").output
    assert "undid event" in out and "resolve" in out and "t1.union" in out
    assert "audit OK" in cli("audit", "s.yaml").output
