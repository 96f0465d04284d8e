"""Attacks on what a late side is given and on the tournament table, run the way the attacker runs
them: with his own key, the other side's public key and the files he holds, through the real CLI.

* stand-fast in an impulse: the side on time claims against the late side's Heartland orders,
  hoping the default is not legal and the claim forfeits the whole game; it is played as no
  moves, the game goes on and the audit passes;
* a one-line edit of a finished game's header books a decisive win in ``hxref standings``: the
  game now fails its audit, is listed as an error and counted for nobody;
* a losing player withholds his reveal to have the forfeit booked as a draw: a forfeit is a loss;
* a solo game made with two players' public keys books a result against their keys: a keyed
  player is counted only where a join signed by his key is in the log;
* two copies of one won game in the folder: one game counts once.
"""
from __future__ import annotations

import json
from pathlib import Path

from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.crypto.signing import load_private_key

from tests.security.test_attacks import KEYS, bid, run

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


# --- the tournament table ------------------------------------------------------------------------------

def fingerprint(name: str) -> str:
    return load_private_key(name).public.fingerprint()


def finished_open_game(cli, g: str) -> str:
    """An open bidding-demo game between alice (union) and bob (confederate), played to its end
    with their signed files, as `hxref commit/answer/roll` make them (the scenario has no victory
    conditions: a draw)."""
    cli("new", g, "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open", "--game-id", g[:-5],
        "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    for s in ("union", "confederate"):
        cli("join", g, "--side", s, "--key", KEYS[s])
    cli("submit", g, *[str(Path(g).parent / f"{s}-join.yaml") for s in ("union", "confederate")])
    from tests.batch.test_batch import OpenPlayers

    eng = Engine.load(g)
    OpenPlayers(eng, {s: load_private_key(KEYS[s]) for s in ("union", "confederate")}).play_to_the_end()
    eng.save()
    return g


def rows(folder: str = ".", *extra: str) -> tuple[int, dict, str]:
    """``hxref standings FOLDER --json``: the exit status, the table by player, the output."""
    code, out = run("standings", folder, "--json", *extra)
    data = json.loads(out[:out.rindex("}") + 1])
    return code, {r["player"]: r for r in data["standings"]}, out


def test_a_one_line_header_edit_no_longer_books_a_win(cli):
    """Alice hands the organiser her finished game (a draw) with one line added to the header's
    state: a decisive +99 win for her side.  ``standings`` audits every game: the edited file
    fails its audit, is listed as not counted with its reason, and counts for nobody; the honest
    copy still counts as the draw it is."""
    Path("honest").mkdir()
    Path("club").mkdir()
    g = finished_open_game(cli, "honest/g.yaml")
    code, table, _ = rows("honest")
    assert code == 0 and table[fingerprint("alice")]["draws"] == 1 and table[fingerprint("bob")]["draws"] == 1
    text = Path(g).read_text()
    forged = ('\n "state": {"result": {"points": {"union": 99, "confederate": 0}, "winner": "union", '
              '"level": "decisive", "margin": 99},\n')
    assert text.count('\n "state": {\n') == 1
    Path("club/g.yaml").write_text(text.replace('\n "state": {\n', forged, 1))
    code, table, out = rows("club")
    assert code == 1 and table == {}, out
    err = json.loads(out[:out.rindex("}") + 1])["errors"]
    assert [e["file"] for e in err] == ["g.yaml"] and "audit FAILED" in err[0]["error"]
    assert "header's state differs from the replayed game" in err[0]["error"]
    code, out = run("standings", "club")
    assert code == 1 and "not counted g.yaml" in out and "0 finished games counted" in out, out


def test_two_copies_of_one_game_count_once(cli):
    """Alice puts two copies of the same finished game in the folder to book its result twice: one
    game (one identity, one head) counts once, the copy is named."""
    Path("club").mkdir()
    g = finished_open_game(cli, "club/g.yaml")
    Path("club/round-2").mkdir()
    Path("club/round-2/g-again.yaml").write_bytes(Path(g).read_bytes())
    code, table, out = rows("club")
    assert code == 0 and table[fingerprint("alice")]["played"] == 1, out
    assert json.loads(out[:out.rindex("}") + 1])["copies"] == [{"file": "round-2/g-again.yaml", "counted": "g.yaml"}]


def test_a_header_without_a_log_counts_for_nobody(cli):
    """A file that is only a header naming two players' keys and a finished, won game: no log, no
    signature; not counted."""
    Path("club").mkdir()
    g = finished_open_game(cli, "club/g.yaml")
    text = Path(g).read_text()
    Path(g).write_text(text[:text.index("\n- {")] + "\n")
    code, table, out = rows("club")
    assert code == 1 and table == {}, out


def test_withholding_a_reveal_is_booked_as_a_loss_not_a_draw(cli, monkeypatch):
    """Bob, losing, commits his bid and never reveals it.  Alice claims against him past the
    deadline: he forfeits.  The table books a loss for Bob and a win for Alice (by the stated
    forfeit margin), says "forfeit", and the dashboard says how the game ended."""
    Path("club").mkdir()
    g = "club/g.yaml"
    cli("new", g, "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open", "--game-id", "withheld",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub", "--deadline-hours", "1")
    for s in ("union", "confederate"):
        cli("join", g, "--side", s, "--key", KEYS[s])
    cli("submit", g, "club/union-join.yaml", "club/confederate-join.yaml")
    for side in ("union", "confederate"):
        cli("commit", g, "--side", side, "--key", KEYS[side], "--choice", "bid: 2")
    cli("submit", g, "club/union-t1.bid-commit.yaml", "club/confederate-t1.bid-commit.yaml")
    cli("submit", g, "club/union-t1.bid-reveal.yaml")
    Path("club/confederate-t1.bid-reveal.yaml").unlink()          # bob withholds his reveal
    monkeypatch.setenv("HXREF_NOW", LATE)
    cli("claim", g, "--side", "union", "--key", "alice", "--against", "confederate")
    cli("submit", g, "club/union-t1.bid-claim-confederate.yaml")
    assert Engine.load(g).h["forfeit"]["side"] == "confederate" and audit(g).ok
    code, table, out = rows("club")
    alice, bob = table[fingerprint("alice")], table[fingerprint("bob")]
    assert code == 0, out
    assert (alice["wins"], alice["points"], alice["margin"]) == (1, 2, 1)
    assert (bob["losses"], bob["forfeits"], bob["draws"], bob["points"], bob["margin"]) == (1, 1, 0, 0, -1)
    assert alice["rank"] == 1 and bob["rank"] == 2
    code, table, _ = rows("club", "--forfeit-margin", "7")
    assert table[fingerprint("bob")]["margin"] == -7
    code, out = run("standings", "club", "--games")
    assert "forfeit: confederate withheld its reveal for t1.bid" in out and "each a loss by 1" in out, out
    code, out = run("status", "club")
    assert code == 0 and "forfeit: confederate withheld its reveal" in out.replace("\n", " ").replace("  ", " "), out


def _solo_with_keys(path: Path) -> None:
    """A solo KGP campaign played by one person to a US win, whose first event names alice's key for
    the US and bob's for the Germans: made with hxref's own engine where it lets a solo game carry
    keys, else by writing the keys into a finished solo game's first event and rehashing the log,
    as the one who holds the file can."""
    from hxref.base.errors import HxrefError
    from hxref.gamefile.game import GameFile

    from tests.batch.test_batch import _kgp_to_the_end
    from tests.security.attacker import rehash

    keys = {"us": load_private_key("alice").public, "german": load_private_key("bob").public}
    try:
        eng = Engine.create(path, system="kgp", scenario="cg-ii", mode="solo", sides=keys, game_id="solo-keys")
    except HxrefError:
        eng = Engine.create(path, system="kgp", scenario="cg-ii", mode="solo", sides={s: None for s in keys},
                            game_id="solo-keys")
        keys_written = True
    else:
        keys_written = False
    _kgp_to_the_end(eng, 9, 5)
    eng.save()
    if keys_written:
        gf = GameFile.load(path)
        for side, key in keys.items():
            for parts in (gf.log[0]["data"]["participants"], gf.header["participants"]):
                parts[side].update(key=key.line(), fingerprint=key.fingerprint())
        rehash(gf)
        gf.save()


def test_a_solo_game_made_with_players_keys_is_not_counted_against_them(cli):
    """Somebody plays a solo campaign alone, both sides unsigned, and names alice's and bob's keys in
    it so that the table books bob's loss.  A keyed player counts only where a join signed by his key
    is in the log: a solo game has none, so neither key is in the table."""
    Path("club").mkdir()
    _solo_with_keys(Path("club/solo.yaml"))
    code, table, out = rows("club")
    assert fingerprint("alice") not in table and fingerprint("bob") not in table, out
    # where the game audits clean it counts for its side names, as any solo game does
    assert set(table) <= {"side:us", "side:german"}
    # an honest open game between the same players still counts for their keys
    finished_open_game(cli, "club/g.yaml")
    code, table, out = rows("club")
    assert table[fingerprint("alice")]["played"] == 1 and table[fingerprint("bob")]["played"] == 1, out
