"""The four cheats of a game with hidden armies, played on the full Heartland (heartland-demo, ``--mode
fog``) by an attacker who holds only his key, the other's public key, his game copy, his own file and
the files he received.  hxref would refuse to write each cheating file, so he builds it by hand: his
honest file changed, his root recomputed over his edited boxes with his own salts (from his fog seed),
his sealed answer and his proof rewritten, all signed again with his key.  The honest side's copy
takes it; the proof at the end finds it and names the side, the file and the rule.

The game is played by two machines (tests/core/fog_table.py) to the last Reorganization Segment
(t3.reorg) once for the module; each cheat starts from a copy of both machines there.  The sides
stay where they stand: the only orders that reach contact move a force, and a force's move is not
yet playable in a game with hidden armies (see test_fog_red_team.py)."""
from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest
from click.testing import CliRunner

from hxref.base import yamlio
from hxref.crypto import commit as commit_mod
from hxref.crypto import fog, merkle
from hxref.crypto.signing import load_private_key, sign_text
from hxref.referee import orders
from hxref.referee.engine import Engine
from hxref.referee.fog_store import store_path
from tests.core.fog_table import GAME, Player, Table

SCENARIO = "heartland-demo"
LAST_REORG = "t3.reorg"
LAST_BID = "t3.bid"


# --- the two machines ---------------------------------------------------------------------------------

def start(table: Table, scenario: str = SCENARIO) -> None:
    union = table["union"]
    union("new", GAME, "--system", "heartland", "--scenario", scenario, "--mode", "fog", "--game-id", "fd",
          "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    shutil.copy(union.folder / GAME, table["confederate"].folder / GAME)
    for side, p in table.players.items():
        p("join", GAME, "--side", side, "--key", p.key)
    for side in table.players:
        table.mail(side, f"{side}-join.yaml")


def own_engine(p: Player) -> Engine:
    """The player's copy loaded for his side: his boxes, his store."""
    import os

    os.environ["HXREF_HOME"] = str(p.home)
    return Engine.load(p.folder / GAME, side=p.side)


def staying(table: Table) -> Callable[[str, dict], dict[str, Any]]:
    """Honest players who bid, stand where they are, and buy a leader's ammo at each Reorganization."""
    def choose(side: str, d: dict) -> dict[str, Any]:
        if d["kind"] == "bid":
            return {"bid": 2 if side == "union" else 1}
        eng = own_engine(table[side])
        dec = eng.decision(d["decision"])
        if d["kind"] == "orders":
            return {**eng.system.template(eng.system.view(eng.state, side, "umpired"), dec, side).choice, "moves": []}
        if d["kind"] == "reorg":
            for lid in sorted(eng.state["leaders"]):
                choice = {"administration": {"ammo": [{"leader": lid, "asp": 1}]}}
                if eng.state["leaders"][lid]["side"] == side and not eng.system.check(eng.state, dec, side, choice):
                    return choice
            return {}
        raise AssertionError(f"no choice for {d}")
    return choose


def awaiting(table: Table) -> dict:
    return table["union"].status()["awaiting"][0]


def play_to(table: Table, decision: str, owed: str) -> None:
    choose = staying(table)
    while not (awaiting(table)["decision"] == decision and owed in awaiting(table)["owed"].values()):
        assert table.step(choose) is not None, f"the game ended before {decision}"


def play_to_end(table: Table) -> None:
    choose = staying(table)
    while table.step(choose) is not None:
        pass


class Copied(Table):
    """The two machines of a saved table, copied to ``root``."""

    def __init__(self, saved: Path, root: Path, monkeypatch):
        from tests.core.fog_table import NOW

        monkeypatch.setenv("HXREF_NOW", NOW)
        shutil.copytree(saved, root, dirs_exist_ok=True, symlinks=True)
        monkeypatch.chdir(root)
        self.players = {}
        for side, key in (("union", "alice"), ("confederate", "bob")):
            p = Player.__new__(Player)
            p.side, p.key, p.folder, p.home, p.runner = side, key, root / side, root / f"{side}-home", CliRunner()
            self.players[side] = p


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> dict[str, Path]:
    """heartland-demo in fog mode, played honestly by two machines: both machines saved at the
    commitments of the last turn's bid (after the second Reorganization) and of the last
    Reorganization."""
    import os
    if os.environ.get("FOGRED_SAVED"):
        return {d: Path(os.environ["FOGRED_SAVED"]) / d for d in (LAST_BID, LAST_REORG)}
    root = tmp_path_factory.mktemp("heartland-fog")
    out = {LAST_BID: root / LAST_BID, LAST_REORG: root / LAST_REORG}
    with pytest.MonkeyPatch.context() as mp:
        (root / "play").mkdir()
        table = Table(root / "play", mp)
        start(table)
        for decision, where in out.items():
            play_to(table, decision, "commit")
            shutil.copytree(root / "play", where, symlinks=True)
    return out


@pytest.fixture
def table(saved, tmp_path, monkeypatch) -> Copied:
    """Both machines at the commitments of the last Reorganization."""
    return Copied(saved[LAST_REORG], tmp_path / "t", monkeypatch)


@pytest.fixture
def table_at_bid(saved, tmp_path, monkeypatch) -> Copied:
    """Both machines at the commitments of the last turn's bid."""
    return Copied(saved[LAST_BID], tmp_path / "t", monkeypatch)


# --- the attacker's tools -------------------------------------------------------------------------------

def read(p: Player, name: str) -> dict:
    return dict(orders.parse((p.folder / name).read_text(), name).data)


def signed(p: Player, data: dict, name: str) -> str:
    """``data`` written as a file of ``p``'s, signed with his key, as ``name`` in his folder."""
    text = orders.render({k: v for k, v in data.items() if k != "hxref"}, "made by hand")
    path = p.folder / name
    path.unlink(missing_ok=True)
    path.write_text(sign_text(text, load_private_key(p.folder / p.key)))
    return name


def own_seed(p: Player) -> bytes:
    return bytes.fromhex(yamlio.load_rt(store_path(p.folder / GAME, p.side).read_text(), "own")["seed"])


def root_over(p: Player, head: str, change: Callable[[dict], None]) -> str:
    """The root the attacker signs: his true boxes at ``head``, changed by ``change``, under his own
    salts for that head (from his fog seed)."""
    eng = own_engine(p)
    boxes = copy.deepcopy(eng.knowledge.boxes[p.side])
    change(boxes)
    names = eng.system.box_names(eng.h["state"], p.side)
    return merkle.commit(boxes, fog.box_salts(own_seed(p), head, names)).root


def mail_to_both(table: Table, side: str, name: str) -> None:
    table.mail(side, name)


def prove(table: Table, forged_sealed: dict[str, dict] | None = None) -> dict:
    """Both sides send their proofs (the attacker's with ``forged_sealed`` laid over his sealed
    answers, signed again) and resolve; the proof's verdict event."""
    for side, p in table.players.items():
        p("challenge", GAME, "--side", side, "--key", p.key)
        if forged_sealed and side == "union":
            data = read(p, "union-proof.yaml")
            data["sealed_answers"] = {**data["sealed_answers"], **forged_sealed}
            signed(p, data, "union-proof.yaml")
        table.mail(side, f"{side}-proof.yaml")
    for p in table.players.values():
        p("resolve", GAME)
    table.same()
    eng = Engine.load(table["confederate"].folder / GAME)
    assert eng.finished
    return next(e["data"] for e in eng.gf.log if e["kind"] == "rules" and e["data"].get("type") == "proof")


def sha_of(table: Table, side: str, decision: str, kind: str) -> str:
    eng = Engine.load(table["confederate"].folder / GAME)
    return next(e["data"]["sha256"] for e in eng.gf.log if e["kind"] == "submission" and e["data"]["side"] == side
                and e["data"]["decision"] == decision and e["data"]["kind"] == kind)


def convicted(verdict: dict, table: Table, side: str, decision: str, kind: str, rule: str) -> None:
    """The verdict names ``side``, its ``kind`` file for ``decision`` (by its sha256) and ``rule``."""
    v = verdict["verdict"]
    assert v is not None, verdict["text"]
    assert (v["side"], v["file"], v["rule"]) == (
        side, {"decision": decision, "kind": kind, "sha256": sha_of(table, side, decision, kind)}, rule), v
    eng = Engine.load(table["confederate"].folder / GAME)
    assert eng.h["forfeit"]["side"] == side


def sealed_reorg(table: Table, p: Player, whole: dict) -> dict:
    """The attacker commits and reveals ``whole`` as his Reorganization answer, which his own hxref
    refuses: his honest commit of its public part, his reveal with ``sealed`` over ``whole``; both
    mailed.  The sealed answer to give in his proof."""
    eng = own_engine(p)
    dec = eng.decision(LAST_REORG)
    public = eng.system.public_answer(eng.state, dec, p.side, whole)
    honest = {"administration": {"ammo": []}} if public == {} else public
    p("commit", GAME, "--side", p.side, "--key", p.key, "--choice", json.dumps(honest))
    reveal = read(p, f"{p.side}-{LAST_REORG}-reveal.yaml")
    commit = read(p, f"{p.side}-{LAST_REORG}-commit.yaml")
    salt = commit_mod.new_salt()
    reveal.update(choice=public, sealed=commit_mod.commitment(whole, salt, (eng.identity, LAST_REORG, p.side)))
    commit["commitment"] = commit_mod.commitment(public, reveal["salt"], (eng.identity, LAST_REORG, p.side))
    signed(p, commit, f"{p.side}-{LAST_REORG}-commit.yaml")
    signed(p, reveal, f"{p.side}-{LAST_REORG}-reveal.yaml")
    return {LAST_REORG: {"choice": whole, "salt": salt}}


def the_other_commits(table: Table, side: str) -> None:
    p, d = table[side], awaiting(table)
    p("commit", GAME, "--side", side, "--key", p.key, "--choice", json.dumps(staying(table)(side, d)))
    table.mail(side, f"{side}-{d['decision']}-commit.yaml")


# --- the honest game ------------------------------------------------------------------------------------

def test_the_honest_game_proves(table):
    play_to_end(table)
    eng = Engine.load(table["union"].folder / GAME)
    verdict = next(e["data"] for e in eng.gf.log if e["kind"] == "rules" and e["data"].get("type") == "proof")
    assert verdict["verdict"] is None, verdict["text"]
    assert eng.h.get("fog_lifted") is True and "forfeit" not in eng.h



# --- the four cheats --------------------------------------------------------------------------------------

def forged_root_commit(table: Table, decision: str, choice: dict, change: Callable[[dict], None]) -> None:
    """The union commits ``choice`` to ``decision`` with his commit's and reveal's roots over his boxes
    changed by ``change``; the confederate commits honestly; both reveal."""
    union = table["union"]
    union("commit", GAME, "--side", "union", "--key", "alice", "--choice", json.dumps(choice))
    for kind in ("commit", "reveal"):
        name = f"union-{decision}-{kind}.yaml"
        data = read(union, name)
        data["root"] = root_over(union, data["head"], change)
        signed(union, data, name)
    table.mail("union", f"union-{decision}-commit.yaml")
    the_other_commits(table, "confederate")


def test_a_unit_moved_between_boxes_without_its_ap_is_found_by_the_proof(table):
    # (b) his boxes edited: a division of Dunning's under Royce, no AP paid, no order given; his roots
    # over them, with his own salts: nothing the confederate holds can tell before the proof
    def moved(boxes):
        unit = boxes["leader:dunning"]["units"].pop("u5")
        boxes["leader:royce"]["units"]["u5"] = {**unit, "leader": "royce"}
    forged_root_commit(table, LAST_REORG, {"administration": {"ammo": [{"leader": "whitcomb", "asp": 1}]}}, moved)
    play_to_end(table)
    verdict = Engine.load(table["confederate"].folder / GAME).gf.log
    found = next(e["data"] for e in verdict if e["kind"] == "rules" and e["data"].get("type") == "proof")
    convicted(found, table, "union", LAST_REORG, "commit", "protocol: root")


def test_a_sealed_administration_paid_with_ap_it_has_not_is_found_by_the_proof(table):
    # (b) the same move as the rules know it: Dunning breaks both his divisions down (8.51, 1 AP each)
    # and takes ammo (1 AP) with 2 AP; his hxref refuses it, so he seals it by hand
    union = table["union"]
    forged = sealed_reorg(table, union, {"administration": {
        "ammo": [{"leader": "dunning", "asp": 1}],
        "detachments": [{"leader": "dunning", "unit": "u5", "by": "step_loss"},
                        {"leader": "dunning", "unit": "u6", "by": "step_loss"}]}})
    table.mail("union", f"union-{LAST_REORG}-commit.yaml")
    the_other_commits(table, "confederate")
    for side in ("union", "confederate"):
        table.mail(side, f"{side}-{LAST_REORG}-reveal.yaml")
    for p in table.players.values():
        p("resolve", GAME)
    convicted(prove(table, forged), table, "union", LAST_REORG, "reveal", "3.24")


def test_wep_it_does_not_have_spent_in_a_sealed_administration_is_found_by_the_proof(table):
    # (c) a thousand ammo points for Whitcomb, paid with the WEP the union has not
    union = table["union"]
    forged = sealed_reorg(table, union, {"administration": {"ammo": [{"leader": "whitcomb", "asp": 1000}]}})
    table.mail("union", f"union-{LAST_REORG}-commit.yaml")
    the_other_commits(table, "confederate")
    for side in ("union", "confederate"):
        table.mail(side, f"{side}-{LAST_REORG}-reveal.yaml")
    for p in table.players.values():
        p("resolve", GAME)
    convicted(prove(table, forged), table, "union", LAST_REORG, "reveal", "4.32")


def test_a_root_with_more_wep_is_found_by_the_proof(table):
    # (c) his Number Track richer by 100 WEP in the roots he signs
    def richer(boxes):
        boxes["track"]["wep"] += 100
    forged_root_commit(table, LAST_REORG, {"administration": {"ammo": [{"leader": "whitcomb", "asp": 1}]}}, richer)
    play_to_end(table)
    found = next(e["data"] for e in Engine.load(table["confederate"].folder / GAME).gf.log
                 if e["kind"] == "rules" and e["data"].get("type") == "proof")
    convicted(found, table, "union", LAST_REORG, "commit", "protocol: root")


def test_a_different_attrition_roll_is_found_by_the_proof(table_at_bid):
    # (d) the second Reorganization's attrition die rolled in the open; his boxes after it as another
    # face would leave them: the steps it took kept, or, when it took none, one taken
    table = table_at_bid
    union = table["union"]
    eng = own_engine(union)
    before_reorg = read(union, "union-t2.reorg-reveal.yaml")["head"]
    before = eng.boxes_at(int(before_reorg.rpartition("@")[2]))["union"]

    def other_face(boxes):
        lost = [(name, uid, unit["steps"]) for name, box in sorted(before.items()) if name.startswith("leader:")
                for uid, unit in sorted(box["units"].items()) if boxes[name]["units"][uid]["steps"] < unit["steps"]]
        for name, uid, steps in lost:
            boxes[name]["units"][uid]["steps"] = steps
        if not lost:
            boxes["leader:whitcomb"]["units"]["u1"]["steps"] -= 1
    forged_root_commit(table, LAST_BID, {"bid": 2}, other_face)
    play_to_end(table)
    found = next(e["data"] for e in Engine.load(table["confederate"].folder / GAME).gf.log
                 if e["kind"] == "rules" and e["data"].get("type") == "proof")
    convicted(found, table, "union", LAST_BID, "commit", "protocol: root")
