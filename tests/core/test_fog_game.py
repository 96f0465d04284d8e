"""A game with hidden armies (``--mode fog``) played by two copies, each with its own key and own file,
the files mailed between them: the copies stay byte-identical, neither side's War Effort Points
ever reach the other, a third tie opens both Number Tracks, and the proof at the end passes."""
from __future__ import annotations

import json
import re

import pytest

from hxref.referee.engine import Engine
from hxref.referee.fog_store import store_path
from tests.core.fog_table import GAME, Table


@pytest.fixture
def table(tmp_path, monkeypatch) -> Table:
    t = Table(tmp_path, monkeypatch)
    t.start()
    return t


def wep_texts(value: int) -> list[bytes]:
    """The ways a WEP value is written in a game file, an order file or a report."""
    return [f'"wep":{value}'.encode(), f'"wep": {value}'.encode(), f"wep: {value}".encode(),
            f"WEP now {value}".encode()]


def true_wep(table: Table, side: str) -> int:
    p = table[side]
    p("status", GAME)       # the side's own machine and home
    eng = Engine.load(p.folder / GAME, side=side)
    return eng.state["wep"][side]


def play(table: Table, bids: dict[str, list[int]]) -> tuple[list[str], dict[str, int]]:
    """Play to the end: the sides bid ``bids[side]`` in turn (one a bid decision), declare one level
    an impulse; after every step, neither side's WEP is anywhere the other holds.  The decisions,
    and each side's WEP as its own copy last knew it."""
    rounds = {s: list(b) for s, b in bids.items()}
    decided: list[str] = []
    own: dict[str, int] = {}

    def choose(side: str, d: dict) -> dict:
        return {"bid": rounds[side].pop(0)} if d["kind"] == "bid" else {"level": 1}

    while True:
        d = table.step(choose)
        if d is None:
            return decided, own
        decided.append(d["decision"])
        if d["decision"] == "proof":
            continue
        for side in table.players:
            mine = own[side] = true_wep(table, side)
            held = table.other(side).held()
            assert not any(t in held for t in wep_texts(mine)), f"{side}'s WEP {mine} is in the other's files"


def test_two_copies_play_to_the_end_and_the_proof_passes(table):
    decided, own = play(table, {"union": [2, 1, 4], "confederate": [3, 2, 1]})
    assert decided[0] == "t1.bid" and decided[-1] == "proof"
    st = table["union"].status()
    assert st["phase"] == "over" and st["awaiting"] == []
    text = table.same()
    assert b'"type":"proof"' in text and b"every file of the game is true" in text
    # the proof lifted the fog: the header now holds the true state, as both sides' own copies had it
    eng = Engine.load(table["union"].folder / GAME)
    assert eng.h.get("fog_lifted") is True and "forfeit" not in eng.h
    assert eng.state["wep"] == own and own["union"] < 245 and own["confederate"] < 160
    for side in table.players:
        assert table[side]("audit", GAME).stdout.startswith("audit OK")


def test_a_third_tie_opens_both_tracks_and_more_wep_goes_first(table):
    decided = []
    tied = {"union": [2, 2, 2], "confederate": [2, 2, 2]}

    def choose(side, d):
        return {"bid": tied[side].pop(0)} if d["kind"] == "bid" else {"level": 1}

    while table["union"].status()["awaiting"][0]["owed"] != {"union": "open", "confederate": "open"}:
        decided.append(table.step(choose)["decision"])
    assert decided == ["t1.bid", "t1.bid", "t1.bid.r2", "t1.bid.r2", "t1.bid.r3", "t1.bid.r3"]
    st = table["union"].status()
    # both reveals and links are in: the rules reveal both Number Tracks, and the decision waits
    assert st["awaiting"][0]["decision"] == "t1.bid.r3"
    assert st["awaiting"][0]["owed"] == {"union": "open", "confederate": "open"} and not st["awaiting"][0]["ready"]
    table["union"].fails("resolve", GAME)
    table["union"]("open", GAME, "--side", "union", "--key", "alice")
    table.mail("union", "union-t1.bid.r3-open.yaml")
    assert table["union"].status()["awaiting"][0]["owed"] == {"union": "done", "confederate": "open"}
    table["confederate"]("open", GAME, "--side", "confederate", "--key", "bob")
    table.mail("confederate", "confederate-t1.bid.r3-open.yaml")
    for p in table.players.values():
        out = p("resolve", GAME).stdout
        assert "tied three times at 2: the side with more WEP goes first" in out
    text = table.same()
    first = json.loads(table["union"]("report", GAME, "--format", "json").stdout)["view"]["current"]
    assert first["initiative"] == "union"       # 245 WEP against 160
    assert b'"value":{"held":["wep"],"wep":245}' in text.replace(b" ", b"") or b"wep: 245" in text


def test_each_side_keeps_its_own_file_private(table):
    for side, p in table.players.items():
        own = store_path(p.folder / GAME, side)
        assert own.exists() and own.stat().st_mode & 0o777 == 0o600
        assert not store_path(table.other(side).folder / GAME, side).exists()
        seed = re.search(r"seed: ([0-9a-f]{64})", own.read_text())
        assert seed and seed.group(1).encode() not in table.other(side).held()


def test_a_side_s_report_tells_its_army_is_secret_and_the_public_one_does_not(table):
    union = table["union"]
    mine = union("report", GAME, "--side", "union").stdout
    assert "union's report (secret: union's army stays on this machine until the proof; do not send it)" in \
        " ".join(mine.split())
    assert "nothing else is secret" not in mine
    assert "public report" in " ".join(union("report", GAME).stdout.split())
