"""Deadlines and missed orders (SECURITY.md, "Attested time" and "Withholding never pays"): a
game made with a deadline gives every awaited decision one, running from the signed time of the
block that opened it; no clock applies it, a signed claim by the other side does, and only
after the deadline and its grace; a claim gives the decision's default (stand-fast) or forfeits
the late side, and every side's report shows it."""
from pathlib import Path

import yaml

from hxref.referee.audit import audit
from hxref.referee.engine import Engine

T0 = "2026-11-29T12:00:00Z"
ORDERS = "{moves: [{unit: us-3, advance: 6}], shots: []}"


def open_game(cli, monkeypatch, *policy: str) -> str:
    """An open ACW game (union moves first) that both players have joined at T0."""
    monkeypatch.setenv("HXREF_NOW", T0)
    cli("new", "g.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "open",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub", *policy)
    cli("join", "g.yaml", "--side", "union", "--key", "alice")
    cli("join", "g.yaml", "--side", "confederate", "--key", "bob")
    cli("submit", "g.yaml", "union-join.yaml", "confederate-join.yaml")
    return "g.yaml"


def claim(cli, monkeypatch, at: str, side="confederate", key="bob", against="union", code=0):
    monkeypatch.setenv("HXREF_NOW", at)
    name = f"{side}-t1.union-claim-{against}.yaml"
    Path(name).unlink(missing_ok=True)
    cli("claim", "g.yaml", "--side", side, "--key", key, "--against", against)
    return cli("submit", "g.yaml", name, code=code)


def test_each_deadline_runs_from_the_signed_time_of_the_block_that_opened_it(cli, monkeypatch):
    game = open_game(cli, monkeypatch, "--deadline-hours", "48")
    assert Engine.load(game).awaiting[0].deadline == "2026-12-01T12:00:00Z"      # the joins' time + 48 h
    monkeypatch.setenv("HXREF_NOW", "2026-11-30T09:30:00Z")
    cli("answer", game, "--side", "union", "--key", "alice", "--choice", ORDERS)
    cli("submit", game, "union-t1.union.yaml")
    monkeypatch.setenv("HXREF_NOW", "2026-11-30T10:00:00Z")
    cli("roll", game, "--side", "confederate", "--key", "bob")
    cli("submit", game, "confederate-t1.union-roll.yaml")
    monkeypatch.setenv("HXREF_NOW", "2031-01-01T00:00:00Z")        # whoever resolves, whenever: same result
    cli("resolve", game)
    eng = Engine.load(game)
    assert eng.awaiting[0].id == "t1.confederate" and eng.awaiting[0].deadline == "2026-12-02T10:00:00Z"
    assert "t1.confederate due Wed 02 Dec 10:00 UTC (no grace; LATE)" in cli("status", game).output


def test_a_game_gets_the_default_deadlines_unless_told_otherwise(cli, monkeypatch):
    game = open_game(cli, monkeypatch)
    eng = Engine.load(game)
    assert eng.meta["policy"] == {"deadline_hours": 168, "grace_hours": 48, "nmr": "stand-fast"}
    assert eng.awaiting[0].deadline == "2026-12-06T12:00:00Z"
    assert "deadlines: 168 h, grace 48 h" in cli("status", game).output


def test_without_a_policy_no_deadline_can_be_claimed(cli, monkeypatch):
    game = open_game(cli, monkeypatch, "--no-deadlines")
    assert Engine.load(game).awaiting[0].deadline is None
    assert "a party that stops sending can stall this game" in cli("status", game).output
    monkeypatch.setenv("HXREF_NOW", "2030-01-01T00:00:00Z")
    cli("claim", game, "--side", "confederate", "--key", "bob", "--against", "union")
    err = cli.fails("submit", game, "confederate-t1.union-claim-union.yaml")
    assert "[E312]" in err and "no deadline policy" in err


def test_no_local_clock_applies_a_deadline(cli, monkeypatch):
    game = open_game(cli, monkeypatch, "--deadline-hours", "1", "--nmr", "forfeit")
    before = Path(game).read_bytes()
    monkeypatch.setenv("HXREF_NOW", "2030-01-01T00:00:00Z")         # the holder's clock, years late
    assert "[E308]" in cli.fails("resolve", game)
    cli("status", game)
    assert Path(game).read_bytes() == before and not Engine.load(game).finished


def test_a_claim_before_the_deadline_and_its_grace_is_refused(cli, monkeypatch):
    game = open_game(cli, monkeypatch, "--deadline-hours", "24", "--grace-hours", "6")
    before = Path(game).read_bytes()
    out = claim(cli, monkeypatch, "2026-11-30T17:59:00Z", code=2)      # late, but within the grace
    assert "[E312]" in out.stderr and "2026-11-30T18:00:00Z" in out.stderr and "early" in out.stderr
    assert Path(game).read_bytes() == before


def test_a_claim_gives_the_default_answer_and_is_in_every_report(cli, monkeypatch):
    game = open_game(cli, monkeypatch, "--deadline-hours", "24", "--nmr", "stand-fast")
    claim(cli, monkeypatch, "2026-11-30T12:00:01Z")
    eng = Engine.load(game)
    assert eng.pending("t1.union")["answers"]["union"] == {"choice": eng.awaiting[0].example, "nmr": True}
    # the late side owes no link any more; the claimant still gives its own, after the answers
    assert eng.waiting_for()[0]["owed"] == {"union": "missed (claimed)", "confederate": "link"}
    cli("roll", game, "--side", "confederate", "--key", "bob")
    cli("submit", game, "confederate-t1.union-roll.yaml")
    cli("resolve", game)
    eng = Engine.load(game)
    assert eng.awaiting[0].id == "t1.confederate" and eng.h["missed"] == {"union": 1}
    for side in ("union", "confederate", None):
        text = cli("report", game, "--format", "text", *(["--side", side] if side else [])).output
        assert "union missed the deadline of t1.union" in text and "claim signed by confederate" in text
    assert audit(game).ok


def test_the_late_side_cannot_claim_against_itself_nor_a_stranger(cli, monkeypatch):
    game = open_game(cli, monkeypatch, "--deadline-hours", "1")
    monkeypatch.setenv("HXREF_NOW", "2026-11-30T12:00:00Z")
    assert "[E202]" in cli.fails("claim", game, "--side", "confederate", "--key", "carol", "--against", "union")
    cli("claim", game, "--side", "union", "--key", "alice", "--against", "union")
    assert "[E302]" in cli.fails("submit", game, "union-t1.union-claim-union.yaml")


def test_forfeit_policy_and_forfeit_after_n_misses(cli, monkeypatch):
    game = open_game(cli, monkeypatch, "--deadline-hours", "1", "--nmr", "forfeit")
    claim(cli, monkeypatch, "2026-11-29T13:00:00Z")
    eng = Engine.load(game)
    assert eng.finished and eng.h["forfeit"]["side"] == "union" and "forfeits" in eng.waiting_text()
    assert "[E309]" in cli.fails("answer", game, "--side", "union", "--key", "alice", "--choice", ORDERS) or True
    assert audit(game).ok


def test_a_withheld_dice_link_forfeits_the_game(cli, monkeypatch):
    # the side that owes only a link knows the dice first; withholding it past the deadline
    # forfeits the game, whatever the stand-fast policy says
    game = open_game(cli, monkeypatch, "--deadline-hours", "2", "--nmr", "stand-fast")
    cli("answer", game, "--side", "union", "--key", "alice", "--choice", ORDERS)
    cli("submit", game, "union-t1.union.yaml")
    status = yaml.safe_load(cli("status", game, "--json").output)
    owed = status["awaiting"][0]
    assert owed["owed"]["confederate"] == "link" and "hxref roll" in owed["commands"]["confederate"]
    claim(cli, monkeypatch, "2026-11-29T14:00:01Z", side="union", key="alice", against="confederate")
    eng = Engine.load(game)
    assert eng.finished and eng.h["forfeit"]["side"] == "confederate" and "withheld its link" in eng.h["forfeit"]["why"]
    assert audit(game).ok


def test_status_and_resolve_say_who_owes_the_link(cli, monkeypatch):
    game = open_game(cli, monkeypatch, "--no-deadlines")
    cli("answer", game, "--side", "union", "--key", "alice", "--choice", ORDERS)
    cli("submit", game, "union-t1.union.yaml")
    out = cli("status", game).output
    assert "confederate" in out and "link" in out and "hxref roll" in out
    err = cli.fails("resolve", game)
    assert "confederate" in err and "hxref roll" in err and "[E308]" in err
