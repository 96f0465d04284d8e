"""The four cheats of a game with hidden armies, played on the full Heartland (heartland-demo, ``--mode
fog``) by an attacker who holds only his key, the other's public key, his game copy, his own file and
the files he received.  hxref would refuse to write each cheating file, so he builds it by hand: his
honest file changed, his root recomputed over his edited boxes with his own salts (from his fog seed),
his sealed answer and his proof rewritten, all signed again with his key.  The honest side's copy
takes it; the proof at the end finds it and names the side, the file and the rule.

The game is dealt (tests/core/fog_table.py: the shipped demo's keys and fixed nonces make the dice,
and so the game, the same at every run) and played by two machines once for the test run: the sides
stay where they stand to the last Reorganization Segment (t3.reorg), and, from the start again, they
close with the enemy to the first combat (the understated strength (a)); each cheat starts from a copy
of both machines there.  test_fog_red_team.py has the attacks on the protocol that the bidding game
plays."""
from __future__ import annotations

import copy
import json
import os
import random
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

import pytest

from hxref.base import yamlio
from hxref.crypto import commit as commit_mod
from hxref.crypto import fog, merkle
from hxref.crypto.signing import load_private_key, sign_text
from hxref.referee import orders
from hxref.referee.engine import Engine
from hxref.referee.fog_store import store_path
from hxref.systems.heartland.administration import ENTRENCH_AP
from tests.core.fog_table import DEMO_KEYS, GAME, Player, Table, to_third_tie
from tests.heartland import fog_probe
from tests.played import chained

SCENARIO = "heartland-demo"
LAST_REORG = "t3.reorg"
LAST_BID = "t3.bid"
#: the saved machines of the game that closes with the enemy, before its first combat's openings
COMBAT = "combat"
#: the rule of the Reorganization Segment's decision, which a sealed answer or a claim of it breaks
REORG_RULE = "12.0"


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
    """Honest players who bid, stand where they are (and stand when assaulted), and buy a leader's ammo
    at each Reorganization."""
    def choose(side: str, d: dict) -> dict[str, Any]:
        if d["kind"] == "bid":
            return {"bid": 2 if side == "union" else 1}
        eng = own_engine(table[side])
        dec = eng.decision(d["decision"])
        if d["kind"] == "orders":     # it stands; a force in enemy ZOC must move or check (8.42): then it moves
            template = eng.system.template(eng.system.view(eng.state, side, "umpired"), dec, side).choice
            view = SimpleNamespace(state=eng.state, system=eng.system, mode="solo", h=eng.h)
            tries = [{**template, "moves": []}, template,
                     *fog_probe.closing_orders(random.Random(1), view, dec, side)]
            return next((c for c in tries if not eng.system.check(eng.state, dec, side, c)), tries[0])
        if d["kind"] == "defence":      # assaults declared against it: it stands (9.0), no reaction or retreat
            return eng.system.stand_fast(eng.state, dec, side)
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


def closing(table: Table) -> Callable[[str, dict], dict[str, Any]]:
    """Players who seek a combat: the union gives the first order that closes with the enemy
    (:func:`tests.heartland.fog_probe.closing_orders`) and his rules accept; the confederate stands, or,
    a force in the union's ZOC (8.42), does the same; else they choose as :func:`staying`."""
    choose = staying(table)

    def choice(side: str, d: dict) -> dict[str, Any]:
        if d["kind"] != "orders":
            return choose(side, d)
        eng = own_engine(table[side])
        dec = eng.decision(d["decision"])
        if side != "union":
            stand = choose(side, d)
            if not eng.system.check(eng.state, dec, side, stand):
                return stand
        view = SimpleNamespace(state=eng.state, system=eng.system, mode="solo", h=eng.h)
        moving = [c for c in fog_probe.closing_orders(random.Random(1), view, dec, side)
                  if not eng.system.check(eng.state, dec, side, c)]
        assert moving, "no accepted order closes with the enemy"
        return moving[0]
    return choice


def box_of_units(p: Player, name: str) -> str | None:
    """The first box holding units that ``p``'s file ``name`` opens (a combat's openings), or None."""
    if name.endswith(("-commit.yaml", "-reveal.yaml", "proof.yaml", "join.yaml")):
        return None
    return next((o["name"] for o in read(p, name).get("openings", []) if (o["value"] or {}).get("units")), None)


def play_to_combat(table: Table, out: Path) -> None:
    """Play ``table`` closing with the enemy (:func:`closing`) until a step mails a file that opens a
    box of units; both machines as they were before that step saved in ``out``."""
    choose, honest = closing(table), table.mail
    opened: list[str] = []

    def mail(side: str, name: str) -> None:
        if box_of_units(table[side], name):
            opened.append(name)
        honest(side, name)
    table.mail = mail
    root = table["union"].folder.parent
    while not opened:
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(root, out, symlinks=True)
        assert table.step(choose) is not None, "the game ended without a combat"


def copied(saved: Path, root: Path, monkeypatch) -> Table:
    """The two machines of a saved table, copied to ``root`` and taken up again there."""
    shutil.copytree(saved, root, dirs_exist_ok=True, symlinks=True)
    return Table.resume(root, monkeypatch)


def play_saved(out: Path) -> None:
    """heartland-demo in fog mode, dealt, played honestly by two machines: standing, both machines
    saved in ``out`` at the commitments of the last turn's bid (after the second Reorganization) and
    of the last Reorganization; closing with the enemy from the start, saved before the first combat's
    openings (:func:`play_to_combat`)."""
    with pytest.MonkeyPatch.context() as mp:
        (out / "play").mkdir()
        table = Table.deal(out / "play", mp, DEMO_KEYS)
        start(table)
        shutil.copytree(out / "play", out / "closing", symlinks=True)
        for decision in (LAST_BID, LAST_REORG):
            play_to(table, decision, "commit")
            shutil.copytree(out / "play", out / decision, symlinks=True)
        play_to_combat(Table.resume(out / "closing", mp), out / COMBAT)


@pytest.fixture(scope="module")
def saved() -> dict[str, Path]:
    """The saved machines (:func:`play_saved`), played once for the test run (every worker's)."""
    from tests.conftest import PLAYED

    out = chained(Path(os.environ[PLAYED]) / "fog-cheats", 0, lambda k, o: play_saved(o))
    return {name: out / name for name in (LAST_BID, LAST_REORG, COMBAT)}


@pytest.fixture
def table(saved, tmp_path, monkeypatch) -> Table:
    """Both machines at the commitments of the last Reorganization."""
    return copied(saved[LAST_REORG], tmp_path / "t", monkeypatch)


@pytest.fixture
def table_at_bid(saved, tmp_path, monkeypatch) -> Table:
    """Both machines at the commitments of the last turn's bid."""
    return copied(saved[LAST_BID], tmp_path / "t", monkeypatch)


@pytest.fixture
def table_at_combat(saved, tmp_path, monkeypatch) -> Table:
    """Both machines closing with the enemy, before the step that mails the first combat's openings."""
    return copied(saved[COMBAT], tmp_path / "t", monkeypatch)


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


def tree_over(p: Player, head: str, change: Callable[[dict], None]) -> merkle.Tree:
    """The tree whose root the attacker signs: his true boxes at ``head``, changed by ``change``, under
    his own salts for that head (from his fog seed)."""
    eng = own_engine(p)
    boxes = copy.deepcopy(eng.knowledge.boxes[p.side])
    change(boxes)
    names = eng.system.box_names(eng.h["state"], p.side)
    return merkle.commit(boxes, fog.box_salts(own_seed(p), head, names))


def prove(table: Table, forged_sealed: dict[str, dict] | None = None, dropped: str | None = None,
          forged_leaves: dict[str, str] | None = None) -> dict:
    """Both sides send their proofs (the attacker's with ``forged_sealed`` laid over his sealed
    answers, or without his sealed answer to ``dropped``, and ``forged_leaves`` over the leaves of his
    roots, signed again) and resolve; the proof's verdict event."""
    for side, p in table.players.items():
        p("challenge", GAME, "--side", side, "--key", p.key)
        if (forged_sealed or dropped or forged_leaves) and side == "union":
            data = read(p, "union-proof.yaml")
            data["sealed_answers"] = {**data["sealed_answers"], **(forged_sealed or {})}
            data["sealed_answers"].pop(dropped, None)
            data["leaves"] = {**data["leaves"], **(forged_leaves or {})}
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


def sealed_reorg(table: Table, p: Player, whole: dict, told: dict | None = None) -> dict:
    """The attacker commits and reveals ``whole`` as his Reorganization answer, which his own hxref
    refuses: his honest commit of its public part (or of ``told``), his reveal with ``sealed`` over
    ``whole``; neither mailed.  The sealed answer to give in his proof."""
    eng = own_engine(p)
    dec = eng.decision(LAST_REORG)
    public = eng.system.public_answer(eng.state, dec, p.side, whole) if told is None else told
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

def forged_root_commit(table: Table, decision: str, choice: dict, change: Callable[[dict], None]) -> dict[str, str]:
    """The union commits ``choice`` to ``decision`` with his commit's and reveal's roots over his boxes
    changed by ``change``; the confederate commits honestly; both reveal.  The leaves of his forged
    roots, for his proof (leaves that did not rebuild them would convict his proof itself)."""
    union = table["union"]
    union("commit", GAME, "--side", "union", "--key", "alice", "--choice", json.dumps(choice))
    leaves = {}
    for kind in ("commit", "reveal"):
        name = f"union-{decision}-{kind}.yaml"
        data = read(union, name)
        tree = tree_over(union, data["head"], change)
        data["root"], leaves[tree.root] = tree.root, merkle.pack_leaves(tree.leaves())
        signed(union, data, name)
    table.mail("union", f"union-{decision}-commit.yaml")
    the_other_commits(table, "confederate")
    return leaves


def test_a_unit_moved_between_boxes_without_its_ap_is_found_by_the_proof(table):
    # (b) his boxes edited: a division of Dunning's under Royce, no AP paid, no order given; his roots
    # over them, with his own salts: nothing the confederate holds can tell before the proof
    def moved(boxes):
        unit = boxes["leader:dunning"]["units"].pop("u5")
        boxes["leader:royce"]["units"]["u5"] = {**unit, "leader": "royce"}
    leaves = forged_root_commit(table, LAST_REORG, {"administration": {"ammo": [{"leader": "whitcomb", "asp": 1}]}},
                                moved)
    play_to(table, "proof", "proof")
    found = prove(table, forged_leaves=leaves)
    # the leaves name the box (the first of the two that differ), not the part: the rule of the AOD's record
    convicted(found, table, "union", LAST_REORG, "commit", "3.1")
    assert found["verdict"]["why"].startswith("box leader:dunning: "), found


def test_a_sealed_administration_paid_with_ap_it_has_not_is_found_by_the_proof(table):
    # (b) the same move as the rules know it: Dunning breaks both his divisions down (8.51, 1 AP each)
    # and takes ammo (1 AP) with 2 AP; his hxref refuses it, so he seals it by hand
    union = table["union"]
    forged = sealed_reorg(table, union, {"administration": {
        "ammo": [{"leader": "dunning", "asp": 1}],
        "detachments": [{"leader": "dunning", "unit": "u5", "by": "step_loss"},
                        {"leader": "dunning", "unit": "u6", "by": "step_loss"}]}})
    reveal_and_resolve(table)
    convicted(prove(table, forged), table, "union", LAST_REORG, "reveal", "3.24")


def test_wep_it_does_not_have_spent_in_a_sealed_administration_is_found_by_the_proof(table):
    # (c) a thousand ammo points for Whitcomb, paid with the WEP the union has not
    union = table["union"]
    forged = sealed_reorg(table, union, {"administration": {"ammo": [{"leader": "whitcomb", "asp": 1000}]}})
    reveal_and_resolve(table)
    convicted(prove(table, forged), table, "union", LAST_REORG, "reveal", "4.32")


def test_a_root_with_more_wep_is_found_by_the_proof(table):
    # (c) his Number Track richer by 100 WEP in the roots he signs
    def richer(boxes):
        boxes["track"]["wep"] += 100
    leaves = forged_root_commit(table, LAST_REORG, {"administration": {"ammo": [{"leader": "whitcomb", "asp": 1}]}},
                                richer)
    play_to(table, "proof", "proof")
    found = prove(table, forged_leaves=leaves)
    convicted(found, table, "union", LAST_REORG, "commit", "3.16")
    assert found["verdict"]["why"].startswith("box track: "), found


def test_a_different_attrition_roll_is_found_by_the_proof(table_at_bid):
    # (d) the second Reorganization's attrition die rolled in the open; his boxes after it as another
    # face would leave them: the steps it took kept, or, when it took none, one taken
    table = table_at_bid
    union = table["union"]
    eng = own_engine(union)
    before_reorg = read(union, "union-t2.reorg-reveal.yaml")["head"]
    before = eng.boxes_at(int(before_reorg.rpartition("@")[2]))["union"]

    touched = set()

    def other_face(boxes):
        lost = [(name, uid, unit["steps"]) for name, box in sorted(before.items()) if name.startswith("leader:")
                for uid, unit in sorted(box["units"].items()) if boxes[name]["units"][uid]["steps"] < unit["steps"]]
        for name, uid, steps in lost:
            boxes[name]["units"][uid]["steps"] = steps
        if not lost:
            boxes["leader:whitcomb"]["units"]["u1"]["steps"] -= 1
        touched.update([name for name, _, _ in lost] or ["leader:whitcomb"])
    leaves = forged_root_commit(table, LAST_BID, {"bid": 2}, other_face)
    play_to(table, "proof", "proof")
    found = prove(table, forged_leaves=leaves)
    convicted(found, table, "union", LAST_BID, "commit", "3.1")
    assert found["verdict"]["why"].startswith(f"box {min(touched)}: "), found


def reveal_and_resolve(table: Table, decision: str = LAST_REORG) -> None:
    """The union mails its commitment to ``decision``, the confederate commits as :func:`staying`
    would, both reveal and both copies resolve."""
    table.mail("union", f"union-{decision}-commit.yaml")
    the_other_commits(table, "confederate")
    for side in ("union", "confederate"):
        table.mail(side, f"{side}-{decision}-reveal.yaml")
    for p in table.players.values():
        p("resolve", GAME)


# --- the red team on the full game (test_fog_red_team.py has the rest) ---------------------------------

def test_a_sealed_answer_whose_opening_changes_the_public_part_is_found_by_the_proof(table):
    # his file tells no entrenchment; the answer he seals (and proves) entrenches Dunning's hex
    forged = sealed_reorg(table, table["union"], {"administration": {
        "entrench": ["dunning"], "ammo": [{"leader": "whitcomb", "asp": 1}]}}, told={})
    reveal_and_resolve(table)
    verdict = prove(table, forged)
    convicted(verdict, table, "union", LAST_REORG, "reveal", REORG_RULE)
    assert "public part" in verdict["verdict"]["why"]


def test_a_claim_that_lies_is_found_by_the_proof(table):
    # entrenching is public and claims the leader's AP is enough (3.24a); he claims Dunning has 9
    union = table["union"]
    union("commit", GAME, "--side", "union", "--key", "alice", "--choice",
          json.dumps({"administration": {"entrench": ["dunning"]}}))
    name = f"union-{LAST_REORG}-reveal.yaml"
    data = read(union, name)
    assert data["claims"] == {"leader:dunning": {"leader": {"ap": {"at_least": ENTRENCH_AP}}}}
    data["claims"] = {"leader:dunning": {"leader": {"ap": 9}}}
    signed(union, data, name)
    reveal_and_resolve(table)
    verdict = prove(table)
    convicted(verdict, table, "union", LAST_REORG, "reveal", REORG_RULE)
    assert "claim of `leader:dunning`" in verdict["verdict"]["why"]


def test_a_proof_that_opens_only_part_of_the_sealed_answers_is_found(table):
    # his proof leaves out his sealed answer to the second Reorganization
    the_other_commits(table, "confederate")
    union = table["union"]
    union("commit", GAME, "--side", "union", "--key", "alice", "--choice",
          json.dumps(staying(table)("union", awaiting(table))))
    table.mail("union", f"union-{LAST_REORG}-commit.yaml")
    for side in ("union", "confederate"):
        table.mail(side, f"{side}-{LAST_REORG}-reveal.yaml")
    for p in table.players.values():
        p("resolve", GAME)
    verdict = prove(table, dropped="t2.reorg")
    convicted(verdict, table, "union", "t2.reorg", "reveal", REORG_RULE)
    assert "not in its proof" in verdict["verdict"]["why"]


def test_a_shown_that_hides_a_stack_is_found(table):
    # his commit shows the map without Royce's stack: the confederate's copy would not see it
    union = table["union"]
    choice = staying(table)("union", awaiting(table))
    union("commit", GAME, "--side", "union", "--key", "alice", "--choice", json.dumps(choice))
    hidden = None
    for kind in ("commit", "reveal"):
        name = f"union-{LAST_REORG}-{kind}.yaml"
        data = read(union, name)
        hidden = sorted(data["shown"]["seen"])[-1]
        data["shown"]["seen"].pop(hidden)
        signed(union, data, name)
    reveal_and_resolve(table)
    table.same()
    seen = Engine.load(table["confederate"].folder / GAME).h["state"]["seen"]["union"]
    verdict = prove(table)
    assert hidden in seen or verdict["verdict"] is not None, (
        f"the union hid his stack at {hidden} from the public part and the proof passed: {verdict['text']}")


def test_an_honest_order_to_a_force_with_subordinates_proves(table_at_bid):
    # the union orders every force to stand (the template: each leader, an empty path); Whitcomb
    # commands Crane and Lyle, whose divisions his force's claim names
    table = table_at_bid
    choose = staying(table)

    def template(side: str, d: dict) -> dict:
        if d["kind"] != "orders" or side != "union":
            return choose(side, d)
        eng = own_engine(table[side])
        dec = eng.decision(d["decision"])
        return dict(eng.system.template(eng.system.view(eng.state, side, "umpired"), dec, side).choice)
    while table.step(template) is not None:
        pass
    verdict = next(e["data"] for e in Engine.load(table["union"].folder / GAME).gf.log
                   if e["kind"] == "rules" and e["data"].get("type") == "proof")
    assert verdict["verdict"] is None, verdict["text"]


# --- (a) at a combat: what plays of it -------------------------------------------------------------------

def test_a_force_that_moves_is_committed_to_where_it_stands(table_at_bid):
    # (a) needs a combat, and a combat needs a force that moved into contact: after his first move the
    # union's next file must commit to his boxes where his forces now stand
    table = table_at_bid
    moved, choose = False, closing(table)
    while not moved:
        d = table.step(choose)
        assert d is not None
        moved = d["kind"] == "orders" and d["owed"].get("union") == "answer"
    play_to_end(table)
    verdict = next(e["data"] for e in Engine.load(table["union"].folder / GAME).gf.log
                   if e["kind"] == "rules" and e["data"].get("type") == "proof")
    assert verdict["verdict"] is None, verdict["text"]


def test_an_understated_opening_is_found_by_the_proof(tmp_path, monkeypatch):
    # (a) as the bidding game plays it: at a third tie each side opens its Number Track; the union opens
    # his with 50 WEP less, his root over that track, so the opening opens his root (still more than
    # the confederate's: were the tie decided otherwise, his own copy, which replays his true track,
    # would no longer load the game, E310)
    t = Table(tmp_path, monkeypatch)
    t.start()
    to_third_tie(t)
    union = t["union"]
    union("open", GAME, "--side", "union", "--key", "alice")
    name = "union-t1.bid.r3-open.yaml"
    data = read(union, name)
    eng = own_engine(union)
    boxes = copy.deepcopy(eng.knowledge.boxes["union"])
    boxes["track"]["wep"] -= 50
    tree = merkle.commit(boxes, fog.box_salts(own_seed(union), data["head"], eng.system.box_names(eng.h["state"],
                                                                                                   "union")))
    data.update(root=tree.root, openings=[tree.open("track").to_data()])
    signed(union, data, name)
    t.mail("union", name)
    t["confederate"]("open", GAME, "--side", "confederate", "--key", "bob")
    t.mail("confederate", "confederate-t1.bid.r3-open.yaml")
    for p in t.players.values():
        p("resolve", GAME)

    def levels(side, d):
        return {"bid": 1} if d["kind"] == "bid" else {"level": 1}
    while t.step(levels) is not None:
        pass
    found = next(e["data"] for e in Engine.load(t["confederate"].folder / GAME).gf.log
                 if e["kind"] == "rules" and e["data"].get("type") == "proof")
    v = found["verdict"]
    assert v["why"].startswith("box track at wep: the game gives "), v
    # the rule: the one that governs the part of the box it lies about (the Number Track's WEP, 3.16)
    assert (v["side"], v["file"], v["rule"]) == ("union", {"decision": "t1.bid.r3", "kind": "open",
                                                           "sha256": sha_of(t, "union", "t1.bid.r3", "open")}, "3.16"), v


def test_an_understated_strength_at_a_combat_is_found_by_the_proof(table_at_combat):
    # (a) at a combat: the union closes with the enemy; the first file that opens a box of units at the
    # combat (the defender's `open`, the attacker's answer or dice link) opens it with a unit one step
    # weaker, his root recomputed over that with his own salts, signed with his key: the opening opens
    # his root, so the honest copy takes it; the other side challenges once the combat is resolved
    table = table_at_combat
    honest_mail, forged = table.mail, []

    def understating(side: str, name: str) -> None:
        p = table[side]
        box = None if forged else box_of_units(p, name)
        if box is not None:
            data = read(p, name)
            eng = own_engine(p)
            boxes = copy.deepcopy(eng.knowledge.boxes[side])
            salts = fog.box_salts(own_seed(p), data["head"], eng.names_shown(side, data["shown"]))
            assert merkle.commit(boxes, salts).root == data["root"]
            uid = max(sorted(boxes[box]["units"]), key=lambda u: boxes[box]["units"][u]["steps"])  # not to 0
            boxes[box]["units"][uid]["steps"] -= 1
            tree = merkle.commit(boxes, salts)
            data.update(root=tree.root, openings=[tree.open(o["name"]).to_data() for o in data["openings"]])
            signed(p, data, name)
            forged.append((side, box, uid, data["decision"], data["kind"]))
        honest_mail(side, name)
    table.mail = understating
    choose = closing(table)
    d = table.step(choose)
    assert forged, "no file opened a box of units"
    while awaiting(table)["decision"] == d["decision"]:
        table.step(choose)
    side, box, uid, decision, kind = forged[0]
    found = prove(table)
    assert found["verdict"]["why"].startswith(f"box {box} at units.{uid}.steps: the game gives "), found
    convicted(found, table, side, decision, kind, "3.1, 10.63")
