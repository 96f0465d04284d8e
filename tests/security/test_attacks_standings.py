"""Attacks on what a late side is given and on the tournament table, run the way the attacker runs
them: with his own key, the other side's public key and the files he holds, through the real CLI.

* stand-fast in an impulse: the side on time claims against the late side's Heartland orders,
  hoping the default is not legal and the claim forfeits the whole game; it is played as no
  moves, the game goes on and the audit passes;
* a one-line edit of a finished game's header books a decisive win in ``hxref standings``: the
  game now fails its audit, is listed as an error and counted for nobody;
* a losing player withholds his reveal to have the forfeit booked as a draw: a forfeit is a loss;
* a solo game made with two players' public keys books a result against their keys: a keyed
  player is counted only where a join signed by his key is in the log.
"""
from __future__ import annotations


from hxref.audit import audit
from hxref.engine import Engine

from tests.security.test_attacks import KEYS, bid

LATE = "2026-11-29T14:00:01Z"            # past a one-hour deadline opened at the conftest's NOW
DEC = "t1.i1.orders"


def open_heartland(cli, g: str = "g.yaml", *policy: str, label: str = "standings") -> str:
    """An open heartland-demo game, both sides joined, the bid played (union 2, confederate 3):
    ``t1.i1.orders`` awaits the Confederate orders."""
    cli("new", g, "--system", "heartland", "--scenario", "heartland-demo", "--mode", "open", "--game-id", label,
        "--side", "union=alice.pub", "--side", "confederate=bob.pub", *policy)
    for s in ("union", "confederate"):
        cli("join", g, "--side", s, "--key", KEYS[s])
    cli("submit", g, "union-join.yaml", "confederate-join.yaml")
    bid(cli, g, 2, 3)
    cli("resolve", g)
    assert Engine.load(g).awaiting[0].id == DEC
    return g


# --- stand-fast in a Heartland impulse ---------------------------------------------------------------

def test_a_claim_against_late_impulse_orders_plays_them_as_no_moves(cli, monkeypatch):
    """Alice (union) holds the game file and only her key.  Bob owes his impulse's orders; past the
    deadline Alice signs a claim, hoping the stand-fast default is not legal and Bob forfeits the
    game.  The claim gives Bob's impulse no moves: his forces stand, the game goes on, no forfeit,
    and every copy's audit accepts it.  ``status`` said beforehand what the claim would give."""
    g = open_heartland(cli, "g.yaml", "--deadline-hours", "1", "--nmr", "stand-fast")
    before = Engine.load(g)
    where = {name: ld.get("hex") for name, ld in before.state["leaders"].items() if ld["side"] == "confederate"}
    assert any(where.values())
    monkeypatch.setenv("HXREF_NOW", LATE)
    status = cli("status", g).output
    assert "a signed claim against confederate gives stand-fast: {\"moves\": []}" in status, status
    cli("claim", g, "--side", "union", "--key", "alice", "--against", "confederate")
    cli("submit", g, f"union-{DEC}-claim-confederate.yaml")
    eng = Engine.load(g)
    assert not eng.finished and not eng.h.get("forfeit")
    assert eng.pending(DEC)["answers"]["confederate"] == {"choice": {"moves": []}, "nmr": True}
    # the claimant still gives his own dice link, after the answers; then the impulse resolves
    cli("roll", g, "--side", "union", "--key", "alice", "--decision", DEC)
    cli("submit", g, f"union-{DEC}-roll.yaml")
    cli("resolve", g)
    eng = Engine.load(g)
    assert not eng.finished and not eng.h.get("forfeit") and eng.h["missed"] == {"confederate": 1}
    assert DEC in eng.h["resolved"] and eng.awaiting and eng.awaiting[0].id != DEC
    # no Confederate force moved
    assert {name: eng.state["leaders"][name].get("hex") for name in where} == where
    text = cli("report", g, "--format", "text").output
    assert "confederate missed the deadline of t1.i1.orders" in text and "stands fast" in text
    assert "forfeit" not in cli("status", g).output
    res = audit(g)
    assert res.ok, res.problems
