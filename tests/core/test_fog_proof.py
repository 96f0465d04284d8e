"""The proof of a game with hidden armies: a false commitment named by its box, the part of it that
differs and the rule that governs that part; a challenge before the game's end, after which the
game goes on in the open."""
from __future__ import annotations

import json

import pytest

from hxref.referee.engine import Engine
from hxref.referee.shadow import ShadowMixin
from hxref.systems.heartland import aod
from tests.core.fog_table import GAME, Table


@pytest.fixture
def table(tmp_path, monkeypatch) -> Table:
    t = Table(tmp_path, monkeypatch)
    t.start()
    return t


TIED = {"union": [2, 2, 2], "confederate": [2, 2, 2]}


def bids(rounds: dict[str, list[int]]):
    """The sides' choices: the bids given, then 1 a bid; one level an impulse."""
    rounds = {s: list(b) for s, b in rounds.items()}
    return lambda side, d: {"bid": (rounds[side] or [1]).pop(0)} if d["kind"] == "bid" else {"level": 1}


def verdict_of(eng: Engine) -> dict:
    return next(e["data"] for e in eng.gf.log if e["kind"] == "rules" and e["data"].get("type") == "proof")


@pytest.mark.parametrize("box,path,rule", [
    ("leader:bragg", ("units", "c1", "steps"), "3.1, 10.63"),
    ("hex:1510", ("units", "c1", "cf"), "3.1, 10.63"),
    ("leader:bragg", ("units", "c1", "ml"), "3.52"),
    ("leader:bragg", ("units", "c1"), "4.32"),
    ("leader:bragg", ("leader", "ap"), "3.24"),
    ("leader:bragg", ("leader", "ml"), "3.51"),
    ("leader:bragg", ("leader", "asp"), "10.12"),
    ("leader:bragg", ("leader", "artillery"), "3.1"),
    ("track", ("wep",), "3.16"),
    ("track", ("standing",), "3.16"),
    ("leader:bragg", ("logistics", "cw1"), "3.1"),
])
def test_heartland_names_the_rule_of_each_part_of_a_box(box, path, rule):
    assert aod.box_rule(box, path) == rule


def test_a_false_opening_is_named_by_its_box_the_part_that_differs_and_the_rule(table, monkeypatch):
    # the union's copy opens its Number Track at the third tie with 50 WEP more than it has: the
    # opening opens the file's own root (so the confederate takes it), and the proof finds it
    step = bids(TIED)
    while table["union"].status()["awaiting"][0]["owed"] != {"union": "open", "confederate": "open"}:
        table.step(step)
    honest = ShadowMixin.commitment

    def richer(self, side, head):
        saved = self.knowledge.boxes[side]
        self.knowledge.boxes[side] = {**saved, "track": {**saved["track"], "wep": saved["track"]["wep"] + 50}}
        try:
            return honest(self, side, head)
        finally:
            self.knowledge.boxes[side] = saved

    with monkeypatch.context() as m:
        m.setattr(ShadowMixin, "commitment", richer)
        table["union"]("open", GAME, "--side", "union", "--key", "alice")
    table.mail("union", "union-t1.bid.r3-open.yaml")
    # the confederate's copy takes the false opening; the confederate opens and the third tie is
    # resolved, and the proof, asked for then, finds the false opening
    table.step(step)
    table.prove()
    eng = Engine.load(table["confederate"].folder / GAME)
    v = verdict_of(eng)
    assert eng.h["forfeit"]["side"] == "union" and v["rule"] == "3.16"
    sha = v["verdict"]["file"]["sha256"][:16]
    assert v["verdict"]["file"]["decision"] == "t1.bid.r3" and v["verdict"]["file"]["kind"] == "open"
    assert v["text"] == (f"proof: union forfeits: union's file (t1.bid.r3, open, sha256 {sha}): box track at wep: "
                         "the game gives 245, the file committed to 295 (rule 3.16)")


def test_a_challenge_between_blocks_lifts_the_fog_and_the_game_goes_on_in_the_open(table):
    step = bids({"union": [2, 1, 4], "confederate": [3, 2, 1]})
    table.step(step)                    # the commitments of t1.bid: files are kept, no challenge now
    union, confederate = table["union"], table["confederate"]
    err = union.fails("challenge", GAME, "--side", "union", "--key", "alice")
    assert "E308" in err and "between blocks" in err
    table.step(step)                    # the reveals: t1.bid closes
    assert union.status()["awaiting"][0]["decision"] != "proof"
    own = {}
    for side, q in table.players.items():
        q("status", GAME)               # his own machine
        own[side] = Engine.load(q.folder / GAME, side=side).state["wep"][side]
    union("challenge", GAME, "--side", "union", "--key", "alice")
    table.mail("union", "union-proof.yaml")
    st = confederate.status()
    assert st["awaiting"][0]["decision"] == "proof" and st["awaiting"][0]["owed"]["confederate"] == "proof"
    # nothing else is taken before every proof is in
    nxt = st["awaiting"][1]
    side, owed = next((s, o) for s, o in nxt["owed"].items() if o in ("answer", "commit"))
    p = table[side]
    p(owed, GAME, "--side", side, "--key", p.key, "--decision", nxt["decision"], "--choice",
      json.dumps(step(side, nxt)))
    name = f"{side}-{nxt['decision']}{'-commit' if owed == 'commit' else ''}.yaml"
    err = p.fails("submit", GAME, name)
    assert "E308" in err and "challenge is under way" in err
    for f in p.folder.glob(f"{side}-{nxt['decision']}*.yaml"):
        f.unlink()
    confederate("challenge", GAME, "--side", "confederate", "--key", "bob")
    table.mail("confederate", "confederate-proof.yaml")
    for q in table.players.values():
        q("resolve", GAME)
    text = table.same()
    assert b"every file of the game is true; the fog is lifted" in text
    eng = Engine.load(union.folder / GAME)
    assert eng.h.get("fog_lifted") and not eng.fog and not eng.finished
    assert eng.state["wep"] == own          # the true WEP, as each side's own copy had it
    # the game goes on as an open game: files carry no commitment, and a second challenge is refused
    err = union.fails("challenge", GAME, "--side", "union", "--key", "alice")
    assert "E504" in err
    while (d := table.step(step)) is not None:
        assert d["decision"] != "proof"
    assert table["union"].status()["phase"] == "over"
    later = [f for f in union.folder.glob("union-t*.yaml") if f.stat().st_mtime >= (union.folder / "union-proof.yaml")
             .stat().st_mtime and "bid.yaml" not in f.name]
    assert later and not any(b"root:" in f.read_bytes() for f in later)
    for q in table.players.values():
        assert q("audit", GAME).stdout.startswith("audit OK")
