"""Attacks on a game with hidden armies (``--mode fog``), each written as the attacker runs it: his key,
the other's public key, his own files and folder.  Each is refused at once, or found by the proof
at the end, which names him, his file and the rule."""
from __future__ import annotations

import json
import shutil
from typing import Any, Callable

import pytest

from hxref.crypto.signing import load_private_key, sign_text
from hxref.referee import orders
from hxref.referee.engine import Engine
from hxref.referee.fog_store import store_path
from tests.core.fog_table import GAME, Player, Table, to_third_tie


@pytest.fixture
def table(tmp_path, monkeypatch) -> Table:
    t = Table(tmp_path, monkeypatch)
    t.start()
    return t


def edited(p: Player, name: str, change: Callable[[dict], Any], out: str | None = None) -> str:
    """The attacker's file ``name`` changed by hand and signed again with his own key."""
    data = orders.parse((p.folder / name).read_text(), name).data
    change(data)
    text = orders.render({k: v for k, v in data.items() if k != "hxref"}, "edited by hand")
    out = out or f"edited-{name}"
    (p.folder / out).write_text(sign_text(text, load_private_key(p.folder / p.key)))
    return out


def commit_bids(table: Table, union: int, confederate: int) -> None:
    for side, bid in (("union", union), ("confederate", confederate)):
        p = table[side]
        p("commit", GAME, "--side", side, "--key", p.key, "--choice", f"bid: {bid}")
        table.mail(side, f"{side}-t1.bid-commit.yaml")


def test_an_opening_that_does_not_open_the_root_is_refused(table):
    # three ties: at the third, each side opens its Number Track; the union opens a richer one
    to_third_tie(table)
    union = table["union"]
    union("open", GAME, "--side", "union", "--key", "alice")

    def richer(d):
        d["openings"][0]["value"]["wep"] = 999
    bad = edited(union, "union-t1.bid.r3-open.yaml", richer)
    shutil.copy(union.folder / bad, table["confederate"].folder / bad)
    err = table["confederate"].fails("submit", GAME, bad)
    assert "E314" in err and "does not open this file's root" in err and bad in err


def test_a_file_without_a_root_is_refused(table):
    commit_bids(table, 2, 3)
    bad = edited(table["union"], "union-t1.bid-reveal.yaml", lambda d: d.pop("root"))
    shutil.copy(table["union"].folder / bad, table["confederate"].folder / bad)
    err = table["confederate"].fails("submit", GAME, bad)
    assert "E314" in err and "carries `root`" in err


def test_a_join_without_its_fog_commitment_is_refused(tmp_path, monkeypatch):
    t = Table(tmp_path, monkeypatch)
    union = t["union"]
    union("new", GAME, "--system", "heartland", "--scenario", "bidding-demo", "--mode", "fog",
          "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    union("join", GAME, "--side", "union", "--key", "alice")
    bad = edited(union, "union-join.yaml", lambda d: d.pop("fog"))
    err = union.fails("submit", GAME, bad)
    assert "E111" in err and "`fog`" in err


def test_a_fog_commitment_in_an_open_game_is_refused(tmp_path, monkeypatch):
    t = Table(tmp_path, monkeypatch)
    union = t["union"]
    union("new", GAME, "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
          "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    union("join", GAME, "--side", "union", "--key", "alice")
    bad = edited(union, "union-join.yaml", lambda d: d.update(fog="ab" * 32))
    err = union.fails("submit", GAME, bad)
    assert "E110" in err and "hidden armies" in err


def test_a_game_with_hidden_armies_needs_a_system_that_hides_something(tmp_path, monkeypatch):
    t = Table(tmp_path, monkeypatch)
    err = t["union"].fails("new", GAME, "--system", "salem-church", "--scenario", "salem-church", "--mode", "fog",
                           "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    assert "E504" in err and "keeps no hidden state" in err


def test_a_store_of_the_other_side_or_another_game_is_refused(table, tmp_path):
    union, confederate = table["union"], table["confederate"]
    mine = store_path(union.folder / GAME, "union")
    theirs = store_path(confederate.folder / GAME, "confederate")
    kept = mine.read_bytes()
    # the attacker's own folder, the other side's own file under his name (how he got it is his affair)
    mine.write_bytes(theirs.read_bytes())
    err = union.fails("answer", GAME, "--side", "union", "--key", "alice", "--choice", "bid: 1")
    assert "E500" in err and "it is confederate's" in err and mine.name in err
    # his own file of another game
    (tmp_path / "other").mkdir()
    other = Table(tmp_path / "other", pytest.MonkeyPatch())
    other.start()
    mine.write_bytes(store_path(other["union"].folder / GAME, "union").read_bytes())
    err = union.fails("commit", GAME, "--side", "union", "--key", "alice", "--choice", "bid: 1")
    assert "E500" in err and "of the game" in err
    mine.write_bytes(kept)
    mine.chmod(0o644)
    err = union.fails("commit", GAME, "--side", "union", "--key", "alice", "--choice", "bid: 1")
    assert "E206" in err and "0600" in err


def play_to_proof(table: Table) -> None:
    bids = {"union": [2, 1, 4], "confederate": [3, 2, 1]}

    def choose(side, d):
        return {"bid": bids[side].pop(0)} if d["kind"] == "bid" else {"level": 1}

    while table["union"].status()["awaiting"][0]["decision"] != "proof":
        table.step(choose)


def test_a_proof_whose_seed_is_not_the_joins_is_refused(table):
    play_to_proof(table)
    union = table["union"]
    union("challenge", GAME, "--side", "union", "--key", "alice")
    bad = edited(union, "union-proof.yaml", lambda d: d.update(seed="00" * 32))
    shutil.copy(union.folder / bad, table["confederate"].folder / bad)
    err = table["confederate"].fails("submit", GAME, bad)
    assert "E305" in err and "join committed to" in err


def test_a_root_of_wep_he_does_not_have_is_found_by_the_proof(table, monkeypatch):
    # the union's copy is patched: its Number Track shows 50 WEP more than it has, so every file
    # it signs commits to that track, and its proof gives the leaves of those roots; nothing the
    # confederate receives can tell before the proof
    from hxref.referee.shadow import ShadowMixin

    honest, honest_leaves = ShadowMixin.commitment, ShadowMixin.proof_leaves

    def richer(self, side, head):
        if side == "union" and self.knowledge.known.get("union"):
            saved = self.knowledge.boxes["union"]
            self.knowledge.boxes["union"] = {**saved, "track": {**saved["track"], "wep": saved["track"]["wep"] + 50}}
            try:
                return honest(self, side, head)
            finally:
                self.knowledge.boxes["union"] = saved
        return honest(self, side, head)

    def richer_leaves(self, side):
        true_at = self.boxes_at

        def boxes_at(seq):
            at = true_at(seq)
            track = at["union"]["track"]
            return {**at, "union": {**at["union"], "track": {**track, "wep": track["wep"] + 50}}}
        self.boxes_at = boxes_at
        try:
            return honest_leaves(self, side)
        finally:
            del self.boxes_at

    monkeypatch.setattr(ShadowMixin, "commitment", richer)
    monkeypatch.setattr(ShadowMixin, "proof_leaves", richer_leaves)
    play_to_proof(table)
    for side, p in table.players.items():
        p("challenge", GAME, "--side", side, "--key", p.key)
        table.mail(side, f"{side}-proof.yaml")
    for p in table.players.values():
        p("resolve", GAME)
    text = table.same()
    eng = Engine.load(table["confederate"].folder / GAME)
    assert eng.finished and eng.h["forfeit"]["side"] == "union" and eng.h["forfeit"]["decision"] == "proof"
    verdict = next(e["data"] for e in eng.gf.log if e["kind"] == "rules" and e["data"].get("type") == "proof")
    assert verdict["verdict"]["side"] == "union"
    first = next(e["data"] for e in eng.gf.log if e["kind"] == "submission" and e["data"]["side"] == "union"
                 and e["data"]["kind"] != "join")
    assert verdict["verdict"]["file"] == {"decision": first["decision"], "kind": first["kind"],
                                          "sha256": first["sha256"]}
    assert "box track: " in verdict["text"] and verdict["rule"] == verdict["verdict"]["rule"] == "3.16"
    assert b"union forfeits" in text
    assert json.loads(table["confederate"]("status", GAME, "--json").stdout)["phase"] == "over"


def test_a_withheld_proof_forfeits_after_a_claim(table, monkeypatch):
    play_to_proof(table)
    union = table["union"]
    union("challenge", GAME, "--side", "union", "--key", "alice")
    table.mail("union", "union-proof.yaml")
    assert union.status()["awaiting"][0]["owed"] == {"union": "done", "confederate": "proof"}
    monkeypatch.setenv("HXREF_NOW", "2027-01-15T12:00:00Z")      # past the deadline and its grace
    union("claim", GAME, "--side", "union", "--key", "alice", "--against", "confederate")
    table.mail("union", "union-proof-claim-confederate.yaml")
    table.same()
    eng = Engine.load(union.folder / GAME)
    assert eng.finished and eng.h["forfeit"]["side"] == "confederate"
    assert "withheld its proof" in eng.h["forfeit"]["why"]
