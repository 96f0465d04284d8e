"""A side's proof gives, for every root it signed, the leaves of the tree it committed to; a false root
is then named by the box it lies about even when that box was never opened.  The attacks on those
leaves, each by the attacker (the union) with his key and his own files only: a proof that lacks some
or gives them in another form is refused at once; leaves that do not rebuild a root he signed convict
his proof; leaves that rebuild it name the box that truly differs, whatever box he would blame."""
from __future__ import annotations

import base64
import hashlib

import pytest

from hxref.crypto import fog, merkle
from hxref.referee import orders
from hxref.referee.engine import Engine
from tests.core.fog_table import GAME, Table
from tests.security.test_fog_attacks import play_to_proof
from tests.security.test_fog_cheats import (LAST_REORG, convicted, copied, forged_root_commit, own_engine, own_seed,
                                            play_to, prove, read, signed)
from tests.security.test_fog_cheats import saved  # noqa: F401  (the saved Heartland game, played once)


@pytest.fixture
def heartland(saved, tmp_path, monkeypatch) -> Table:  # noqa: F811  (the fixture imported above)
    """Both machines of the saved Heartland game at the commitments of its last Reorganization."""
    return copied(saved[LAST_REORG], tmp_path / "t", monkeypatch)


@pytest.fixture
def bidding(tmp_path, monkeypatch) -> Table:
    """The bidding game in fog mode, played to the proof."""
    t = Table(tmp_path, monkeypatch)
    t.start()
    play_to_proof(t)
    return t


def own_proof(t: Table) -> dict:
    union = t["union"]
    union("challenge", GAME, "--side", "union", "--key", "alice")
    return read(union, "union-proof.yaml")


def refused(t: Table, data: dict) -> str:
    """The union's proof ``data``, signed and mailed: the confederate's refusal."""
    name = signed(t["union"], data, "union-proof.yaml")
    (t["confederate"].folder / name).write_text((t["union"].folder / name).read_text())
    return t["confederate"].fails("submit", GAME, name)


def roots_signed(t: Table) -> list[str]:
    eng = Engine.load(t["confederate"].folder / GAME)
    return sorted({orders.parse(e["data"]["file"], "kept", fast=True).data["root"] for e in eng.gf.log
                   if e["kind"] == "submission" and e["data"]["side"] == "union"
                   and e["data"]["kind"] not in ("join", "proof")})


# --- refused at once --------------------------------------------------------------------------------------

def test_a_proof_gives_the_leaves_of_every_root_its_side_signed_and_no_other(bidding):
    data = own_proof(bidding)
    assert sorted(data["leaves"]) == roots_signed(bidding)
    for root, text in data["leaves"].items():
        assert merkle.root_of_leaves(merkle.unpack_leaves(text)) == root


def test_a_proof_missing_one_root_s_leaves_is_refused(bidding):
    data = own_proof(bidding)
    dropped = sorted(data["leaves"])[1]
    data["leaves"].pop(dropped)
    err = refused(bidding, data)
    assert "E314" in err and f"lacks the leaves of 1 of the {len(roots_signed(bidding))} roots union signed" in err
    assert "union-proof.yaml" in err


def test_a_proof_without_leaves_is_refused_naming_the_command_that_writes_them(bidding):
    data = own_proof(bidding)
    del data["leaves"]
    err = refused(bidding, data)
    assert "E111" in err and "missing key `leaves` in a proof file" in err
    assert "`hxref challenge` writes a proof file whole" in err and "dice link" not in err


def test_leaves_of_a_root_he_never_signed_are_refused(bidding):
    data = own_proof(bidding)
    data["leaves"]["ab" * 32] = next(iter(data["leaves"].values()))
    err = refused(bidding, data)
    assert "E314" in err and "abababababababab, which no file of union signed" in err


@pytest.mark.parametrize("text,why", [
    ("not base64!", "not base64"),
    (base64.b64encode(b"\x01" * 33).decode(), "33 bytes"),
    ("", "0 bytes"),
    (["AAAA"], "not a list"),
])
def test_leaves_in_another_form_are_refused(bidding, text, why):
    data = own_proof(bidding)
    data["leaves"][sorted(data["leaves"])[0]] = text
    err = refused(bidding, data)
    assert "E112" in err and why in err, err


# --- found by the replay ------------------------------------------------------------------------------------

def proof_verdict(t: Table, data: dict) -> dict:
    """Both proofs in (the union's: ``data``, signed again) and resolved: the verdict event."""
    union, confederate = t["union"], t["confederate"]
    signed(union, data, "union-proof.yaml")
    t.mail("union", "union-proof.yaml")
    confederate("challenge", GAME, "--side", "confederate", "--key", "bob")
    t.mail("confederate", "confederate-proof.yaml")
    for p in t.players.values():
        p("resolve", GAME)
    t.same()
    eng = Engine.load(confederate.folder / GAME)
    return next(e["data"] for e in eng.gf.log if e["kind"] == "rules" and e["data"].get("type") == "proof")


def test_leaves_that_do_not_rebuild_his_root_convict_his_proof(bidding):
    # his roots are all true; one leaf of one of them changed in his proof
    data = own_proof(bidding)
    root = sorted(data["leaves"])[0]
    raw = bytearray(base64.b64decode(data["leaves"][root]))
    raw[0] ^= 1
    data["leaves"][root] = base64.b64encode(bytes(raw)).decode()
    verdict = proof_verdict(bidding, data)
    convicted(verdict, bidding, "union", "proof", "proof", "protocol: proof")
    assert f"its leaves of the root {root[:16]}" in verdict["verdict"]["why"] and "do not rebuild it" in verdict["text"]


def test_leaves_copied_from_another_root_convict_his_proof(bidding):
    data = own_proof(bidding)
    first, second = sorted(data["leaves"])[:2]
    data["leaves"][second] = data["leaves"][first]
    verdict = proof_verdict(bidding, data)
    convicted(verdict, bidding, "union", "proof", "proof", "protocol: proof")
    assert second[:16] in verdict["verdict"]["why"]


def test_a_root_over_a_box_the_public_part_does_not_name_is_found_with_its_leaves(tmp_path, monkeypatch):
    # his first bid's files commit to his Number Track and a second track of his making; his proof
    # gives the leaves of that tree, which rebuild his root: two boxes where the public part names one
    t = Table(tmp_path, monkeypatch)
    t.start()
    union, confederate = t["union"], t["confederate"]
    union("commit", GAME, "--side", "union", "--key", "alice", "--choice", "bid: 2")
    boxes = {**own_engine(union).knowledge.boxes["union"], "track:spare": {"wep": 100}}
    forged = {}
    for kind in ("commit", "reveal"):
        name = f"union-t1.bid-{kind}.yaml"
        data = read(union, name)
        tree = merkle.commit(boxes, fog.box_salts(own_seed(union), data["head"], boxes))
        data["root"], forged[tree.root] = tree.root, merkle.pack_leaves(tree.leaves())
        signed(union, data, name)
    confederate("commit", GAME, "--side", "confederate", "--key", "bob", "--choice", "bid: 3")
    for kind in ("commit", "reveal"):
        for side in ("union", "confederate"):
            t.mail(side, f"{side}-t1.bid-{kind}.yaml")
    for p in t.players.values():
        p("resolve", GAME)
    play_to_proof(t)
    data = own_proof(t)
    data["leaves"].update(forged)
    verdict = proof_verdict(t, data)
    convicted(verdict, t, "union", "t1.bid", "commit", "protocol: root")
    assert "commits to 2 boxes where the public part names 1" in verdict["verdict"]["why"]


def test_leaves_that_blame_another_box_do_not_rebuild_his_root(heartland):
    # his Number Track richer by 100 WEP in the roots he signs; in his proof he would have the lie be
    # about another box: the true track leaf, the first box's leaf another.  Only the leaves of the
    # tree he signed rebuild his root, and those name the track (test_fog_cheats: a root with more WEP)
    def richer(boxes):
        boxes["track"]["wep"] += 100
    forged = forged_root_commit(heartland, LAST_REORG, {"administration": {"ammo": [{"leader": "whitcomb", "asp": 1}]}},
                                richer)
    play_to(heartland, "proof", "proof")
    true = own_proof(heartland)["leaves"]
    (heartland["union"].folder / "union-proof.yaml").unlink()
    blamed = {}
    for root, text in forged.items():
        mine, honest = list(merkle.unpack_leaves(text)), merkle.unpack_leaves(true[root])
        assert mine[:-1] == list(honest[:-1]) and mine[-1] != honest[-1]        # the track is the last box
        blamed[root] = merkle.pack_leaves([hashlib.sha256(b"another").digest(), *honest[1:]])
    verdict = prove(heartland, forged_leaves=blamed)
    convicted(verdict, heartland, "union", "proof", "proof", "protocol: proof")
    assert "do not rebuild it" in verdict["verdict"]["why"]
