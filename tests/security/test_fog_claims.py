"""What a moving force claims of its boxes in a game with hidden armies (hxref/systems/heartland/fog_play.py),
played by two machines (tests/core/fog_table.py): a unit the enemy's copy never saw, claimed as it moves;
an AP claimed as "at least" what the move reads, the file the enemy gets holding the bound and not the
value; claims of another form, or leaving out what the public orders read, refused at once; and a claim
stripped of what only the true game tells, or stating as the bound an AP its commander has not, found by
the proof.

The machines are those of test_fog_cheats.py (heartland-demo, ``--mode fog``, honest players who stand
where they are), with one more save: at the commitments of the second Reorganization Segment, the last
one an impulse follows."""
from __future__ import annotations

import json
import re
import os
import shutil
from pathlib import Path

import pytest

from hxref.referee.engine import Engine
from tests.core.fog_table import GAME, Table
from tests.played import chained
from tests.security.test_fog_cheats import (LAST_BID, awaiting, closing, convicted, copied, own_engine, play_to,
                                            play_to_end, read, reveal_and_resolve, saved, signed, staying, start)

__all__ = ["saved"]         # the machines test_fog_cheats.py plays, used here too

SECOND_REORG = "t2.reorg"


def play_to_second_reorg(out: Path) -> None:
    with pytest.MonkeyPatch.context() as mp:
        (out / "play").mkdir()
        table = Table(out / "play", mp)
        start(table)
        play_to(table, SECOND_REORG, "commit")
        shutil.copytree(out / "play", out / SECOND_REORG, symlinks=True)


@pytest.fixture(scope="module")
def at_reorg_saved() -> Path:
    from tests.conftest import PLAYED

    return chained(Path(os.environ[PLAYED]) / "fog-claims", 0, lambda k, o: play_to_second_reorg(o)) / SECOND_REORG


@pytest.fixture
def at_reorg(at_reorg_saved, tmp_path, monkeypatch) -> Table:
    """Both machines at the commitments of the second Reorganization."""
    return copied(at_reorg_saved, tmp_path / "t", monkeypatch)


@pytest.fixture
def at_bid(saved, tmp_path, monkeypatch) -> Table:
    """Both machines at the commitments of the last turn's bid (test_fog_cheats.py)."""
    return copied(saved[LAST_BID], tmp_path / "t", monkeypatch)


def orders_of(table: Table, side: str, d: dict, forces: list[str]) -> dict:
    """``side``'s orders for ``d``: the template's move (standing) of each of ``forces``."""
    eng = own_engine(table[side])
    dec = eng.decision(d["decision"])
    template = dict(eng.system.template(eng.system.view(eng.state, side, "umpired"), dec, side).choice)
    return {**template, "moves": [m for m in template["moves"] if m["force"] in forces]}


def to_union_orders(table: Table) -> dict:
    """Play on (the players of :func:`.staying`) to the union's first orders; that decision."""
    choose = staying(table)
    while not (awaiting(table)["kind"] == "orders" and awaiting(table)["owed"].get("union") == "answer"):
        assert table.step(choose) is not None, "the game ended before the union's orders"
    return awaiting(table)


# --- a unit the enemy never saw ---------------------------------------------------------------------

def break_down_at_reorg(table: Table) -> dict[str, str]:
    """The union breaks a division down at the second Reorganization (8.51, sealed), both resolve;
    the order (``leader``: whose box holds the detachment, ``unit``: the division)."""
    union = table["union"]
    eng = own_engine(union)
    dec = eng.decision(SECOND_REORG)
    tries = [{"administration": {"detachments": [{"leader": lid, "unit": uid, "by": "step_loss"}]}}
             for lid, ld in sorted(eng.state["leaders"].items()) if ld["side"] == "union"
             for uid in sorted(eng.state["units"]) if eng.state["units"][uid].get("leader") == lid]
    choice = next(c for c in tries if not eng.system.check(eng.state, dec, "union", c))
    union("commit", GAME, "--side", "union", "--key", "alice", "--choice", json.dumps(choice))
    reveal_and_resolve(table, SECOND_REORG)
    return choice["administration"]["detachments"][0]


def test_a_detachment_made_in_a_sealed_reorganization_is_believed_as_its_counter_when_it_moves(at_reorg):
    # 8.51: a leader breaks a division down at the Reorganization Segment, on his own display (sealed);
    # 8.52: the detachment moves with him (in his box, or his commander's force); its next move claims it, which the confederate's copy never saw
    table = at_reorg
    union = table["union"]
    order = break_down_at_reorg(table)
    leader = order["leader"]
    assert read(union, f"union-{SECOND_REORG}-reveal.yaml")["choice"] == {}       # sealed: nothing told
    eng = own_engine(union)
    made = {uid: u for uid, u in eng.state["units"].items() if uid.startswith(order["unit"] + "-d")}
    assert made and all(u["leader"] == leader for u in made.values())
    assert not set(made) & set(own_engine(table["confederate"]).state["units"])

    from hxref.systems.heartland import model

    d = to_union_orders(table)
    st = own_engine(union).state
    force = next(f for f in model.forces(st, "union") if not model.is_unled(f) and leader in model.force_leaders(st, f))
    choose = staying(table)
    table.step(lambda side, dd: orders_of(table, side, dd, [force]) if side == "union" else choose(side, dd))
    claimed = read(union, f"union-{d['decision']}.yaml")["claims"][f"leader:{leader}"]["units"]
    assert set(made) <= set(claimed)
    while awaiting(table)["decision"] == d["decision"]:
        table.step(choose)
    believed = own_engine(table["confederate"]).state["units"]
    counter = eng.system.charts.chart("detachment")["detachment"]["union"]
    for uid in made:
        assert {k: believed[uid][k] for k in ("arm", "size", "cf", "ml", "steps", "leader")} == {
            **{k: counter[k] for k in ("arm", "size", "cf", "ml", "steps")}, "leader": leader}
    table.same()                                    # both copies resolved the move, and agree
    assert awaiting(table)["decision"] != d["decision"]


# --- an AP claimed as "at least" what the move reads --------------------------------------------------

def bounded_orders(table: Table, d: dict) -> tuple[dict, str, int, int]:
    """The union's orders for ``d`` (one force standing, or closing with the enemy) whose claim states
    a commander's AP as "at least" less than he has, his box not opened by them (10.11): the orders, the
    commander, his AP and the bound."""
    import random
    from types import SimpleNamespace

    from hxref.systems.heartland import fog_play, model
    from tests.heartland import fog_probe

    eng = own_engine(table["union"])
    dec = eng.decision(d["decision"])
    view = SimpleNamespace(state=eng.state, system=eng.system, mode="solo", h=eng.h)
    forces = [f for f in model.forces(eng.state, "union") if not model.is_unled(f)]
    tries = [orders_of(table, "union", d, [f]) for f in forces]
    tries += [{**t, "moves": [{**t["moves"][0], "merge": g}]} for t in tries for g in forces
              if t["moves"] and g != t["moves"][0]["force"]]          # 8.25a: taking a force along pays AP
    closing = fog_probe.closing_orders(random.Random(1), view, dec, "union")
    tries += closing + [{**c, "moves": [{k: v for k, v in m.items() if k != "attack"} for m in c["moves"]]}
                        for c in closing]                  # in the enemy's ZOC, not ordered to attack (8.41)
    for choice in tries:
        if eng.system.check(eng.state, dec, "union", choice):
            continue
        opened = eng.system.reveals(eng.state, dec, "union", choice, None)     # 10.11: an attacker's box
        for name, part in eng.system.claims(eng.state, dec, "union", choice).items():
            ap = (part.get("leader") or {}).get("ap") if name not in opened else None
            lid = name.partition(":")[2]
            if isinstance(ap, dict) and ap[fog_play.AT_LEAST] < eng.state["leaders"][lid]["ap"]:
                return choice, lid, eng.state["leaders"][lid]["ap"], ap[fog_play.AT_LEAST]
    raise AssertionError("no orders of the union claim an AP below what its commander has")


def test_the_orders_file_the_enemy_gets_says_at_least_and_not_the_ap(at_bid):
    # 3.24, 8.41: the move reads only whether the commander can pay; the whole signed file says so much
    table = at_bid
    d = to_union_orders(table)
    choice, lid, ap, least = bounded_orders(table, d)
    union = table["union"]
    union("answer", GAME, "--side", "union", "--key", "alice", "--choice", json.dumps(choice))
    name = f"union-{d['decision']}.yaml"
    table.mail("union", name)
    sent = (table["confederate"].folder / name).read_bytes()
    assert read(union, name)["claims"][f"leader:{lid}"]["leader"]["ap"] == {"at_least": least}
    assert b"at_least" in sent
    assert not re.search(rb"\bap: %d\b|\"ap\": ?%d\b" % (ap, ap), sent), f"{lid}'s AP {ap} is in the file"


def test_an_at_least_claim_above_what_the_move_reads_is_refused_at_once(at_bid):
    # his orders re-signed with a claim of more AP than his commander has: not the bound his orders read
    # (3.24), which the enemy's copy finds from the public orders
    table = at_bid
    d = to_union_orders(table)
    choice, lid, ap, _ = bounded_orders(table, d)
    bad = forged_orders(table, d, choice, lambda c: c[f"leader:{lid}"]["leader"].update(ap={"at_least": ap + 1}))
    err = table["confederate"].fails("submit", GAME, bad)
    assert bad in err and "E314" in err and f"claims.leader:{lid}.leader.ap" in err and "3.24" in err, err


def forged_orders(table: Table, d: dict, choice: dict, change) -> str:
    """The union's answer ``choice`` to ``d`` with its claims changed by ``change(claims)``, signed again and
    copied to the confederate's folder (not submitted); its name."""
    union = table["union"]
    union("answer", GAME, "--side", "union", "--key", "alice", "--choice", json.dumps(choice))
    name = f"union-{d['decision']}.yaml"
    data = read(union, name)
    change(data["claims"])
    signed(union, data, name)
    shutil.copy(union.folder / name, table["confederate"].folder / name)
    return name


# --- a claim's form, and what the public orders tell it owes: each refused at once ---------------------------

def _lead(claims: dict) -> dict:
    """The first commander's part of ``claims``."""
    return next(p["leader"] for n, p in sorted(claims.items()) if "leader" in p)


def _unit(claims: dict) -> dict:
    """The first unit's part of ``claims``."""
    return next(u for _, p in sorted(claims.items()) for _, u in sorted((p.get("units") or {}).items()))


FORMS = {
    # what the claims are changed to, the path the refusal names, its code
    "not-a-mapping": (lambda c: c.clear() or c.update({0: 1}), "claims.0", "E112"),
    "not-his-box": (lambda c: c.update({"leader:nobody": {"leader": {"active": True}}}), "claims.leader:nobody",
                    "E112"),
    "a-hex-he-does-not-hold": (lambda c: c.update({"hex:0000": {"units": {}}}), "claims.hex:0000", "E112"),
    "unknown-part": (lambda c: next(iter(c.values())).update(track={}), "claims.", "E112"),
    "unclaimed-field": (lambda c: _unit(c).update(cf=[9, 9]), ".cf", "E112"),
    "face-as-text": (lambda c: _lead(c).update(active="yes"), ".leader.active", "E112"),
    "arm-as-number": (lambda c: _unit(c).update(arm=3), ".arm", "E112"),
    "ap-negative": (lambda c: _lead(c).update(ap=-1), ".leader.ap", "E112"),
    "ap-as-text": (lambda c: _lead(c).update(ap="3"), ".leader.ap", "E112"),
    "face-left-out": (lambda c: _lead(c).pop("active"), ".leader.active", "E314"),
}


@pytest.mark.parametrize("form", FORMS)
def test_a_claim_of_another_form_or_leaving_out_what_the_orders_read_is_refused_at_once(at_bid, form):
    change, path, code = FORMS[form]
    table = at_bid
    d = to_union_orders(table)
    choice, _, _, _ = bounded_orders(table, d)
    bad = forged_orders(table, d, choice, change)
    err = table["confederate"].fails("submit", GAME, bad)
    assert bad in err and code in err and path in err, err


def test_orders_stripped_of_their_claims_are_refused_at_once(at_bid):
    # a force on the map moves: its commander's face is read (8.21), and the claims are gone
    table = at_bid
    d = to_union_orders(table)
    choice, lid, _, _ = bounded_orders(table, d)
    bad = forged_orders(table, d, choice, lambda c: c.clear())
    err = table["confederate"].fails("submit", GAME, bad)
    assert bad in err and "E314" in err and "claim leaves it out" in err and "claims.leader:" in err, err


def test_a_claim_stripped_of_what_no_public_fact_tells_is_found_by_the_proof(at_bid):
    # a unit's size left out of his claims (3.23: read where the force stops): the enemy's copy cannot
    # know it was owed; the proof, which computes the claims on the true game, names the file
    table = at_bid
    d = to_union_orders(table)
    choice, _, _, _ = bounded_orders(table, d)
    dropped: list[str] = []

    def strip(claims: dict) -> None:
        box = next(n for n, p in sorted(claims.items()) if p.get("units"))
        dropped.append(box)
        next(iter(sorted(claims[box]["units"].items())))[1].pop("size")

    name = forged_orders(table, d, choice, strip)
    table.mail("union", name)
    choose = staying(table)
    while awaiting(table)["decision"] == d["decision"]:
        table.step(choose)
    play_to_end(table)
    verdict = prove_found(table)
    convicted(verdict, table, "union", d["decision"], "answer", d["rule"])
    assert f"its claim of `{dropped[0]}` at units." in verdict["verdict"]["why"], verdict["verdict"]["why"]
    assert "size" in verdict["verdict"]["why"]


def prove_found(table: Table) -> dict:
    return next(e["data"] for e in Engine.load(table["confederate"].folder / GAME).gf.log
                if e["kind"] == "rules" and e["data"].get("type") == "proof")


# --- the backstop: the public part the game ends in -----------------------------------------------------------

def test_a_public_state_that_parts_from_the_true_one_with_no_event_is_named_by_the_proof():
    # two copies that agreed on a public result no event told (an entrenchment both dropped): the true
    # game's public part and the game file's part where they part, named; no side (no file is at fault)
    from types import SimpleNamespace

    from hxref.referee.proof import Verdict, _same_public

    held = {"turn": 3, "hexes": {"0610": {"entrenched": False}, "0611": {"entrenched": True}}}
    true = {"turn": 3, "hexes": {"0610": {"entrenched": True}, "0611": {"entrenched": True}}}
    _same_public(SimpleNamespace(h={"state": held}), SimpleNamespace(h={"state": dict(held)}))
    with pytest.raises(Verdict) as found:
        _same_public(SimpleNamespace(h={"state": true}), SimpleNamespace(h={"state": held}))
    v = found.value
    assert (v.side, v.file, v.rule) == (None, None, "protocol: public")
    assert "at hexes.0610.entrenched the true game gives true, the game file holds false" in v.why, v.why


# --- an AP claimed as the bound by a commander who has less ---------------------------------------------

def below_the_bound(table: Table) -> tuple[dict, dict, str, int, int]:
    """Play on, the union closing with the enemy (:func:`.closing`), to the union's first orders whose
    honest claims state a commander's AP as a value: a commander ordered to attack with less AP than the
    check costs (8.41: a hasty attack when compelled).  The decision, the orders, the commander, his AP
    and the bound the move reads (:func:`.fog_play.ap_read`)."""
    from hxref.systems.heartland import fog_play

    choose = closing(table)
    while True:
        d = awaiting(table)
        if d["kind"] == "orders" and d["owed"].get("union") == "answer":
            eng = own_engine(table["union"])
            dec = eng.decision(d["decision"])
            choice = choose("union", d)
            for mv in choice["moves"]:
                lid = mv["force"]
                told = eng.system.claims(eng.state, dec, "union", choice).get(f"leader:{lid}", {}).get("leader", {})
                if mv.get("attack") and isinstance(told.get("ap"), int):   # ordered to attack: the check is read, ZOC or not
                    least = fog_play.ap_read(eng.state, mv, lid, None, eng.system.charts.chart("detachment"))
                    return d, choice, lid, eng.state["leaders"][lid]["ap"], least
        assert table.step(choose) is not None, "the game ended before a commander ran out of AP"


def test_an_at_least_claim_by_a_commander_below_the_bound_is_found_by_the_proof(at_bid):
    # 3.24, 8.41: a commander who spent his AP on this turn's checks is ordered to attack again: his honest
    # claim is his AP itself (the check reads it: a hasty attack); the attacker re-signs it as "at least"
    # the bound the orders read, which is the bound the enemy's copy asks for, so it takes the file and
    # believes he pays; the proof, which computes the claims on the true boxes, names the file
    table = at_bid
    d, choice, lid, ap, least = below_the_bound(table)
    honest: list[object] = []

    def raised(claims: dict) -> None:
        honest.append(claims[f"leader:{lid}"]["leader"]["ap"])
        claims[f"leader:{lid}"]["leader"]["ap"] = {"at_least": least}

    name = forged_orders(table, d, choice, raised)
    assert ap < least and honest == [ap], (ap, least, honest)      # the file signed by hxref claims his AP itself
    table.mail("union", name)                       # the confederate's copy takes it: no E314
    assert read(table["confederate"], name)["claims"][f"leader:{lid}"]["leader"]["ap"] == {"at_least": least}
    choose = staying(table)
    while awaiting(table)["decision"] == d["decision"]:
        table.step(choose)
    table.same()            # his check fails on these dice: both copies retreat him, the lie unseen in play
    play_to_end(table)
    verdict = prove_found(table)
    convicted(verdict, table, "union", d["decision"], "answer", d["rule"])
    why = verdict["verdict"]["why"]
    assert f"its claim of `leader:{lid}` at leader.ap" in why and f"they read {ap}" in why, why
