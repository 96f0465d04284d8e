"""Property 2 walked step by step: no party knows the dice of a decision when its choice for that
decision becomes final.

A game is walked file by file in the order of the exchange.  A party *holds*, at a moment, its
own dice chain (all of it: derived from its own key, ``hxref.crypto.dice.chain_seed(key, identity, join_nonce)``)
and every file any other party sent before that moment (an over-estimate: as if every file were
mailed to everyone the moment it was written), with every link that can be derived from the
links in them (hashing a link gives the links before it on its chain, down to the tip in the
join file).  A party's choice for decision d becomes final when it signs its answer, or its
commitment for a secret decision (its reveal is written with the commitment and cannot differ).

For every decision of the game that rolls dice, its links are read from its block in the final
log (the ``submission`` events' ``link`` fields and, in umpired games, the umpire's ``link``
event); for each party that chose in it, at the moment its choice became final, at least one of
them must be unknown to it, and for a commitment none of another party's links for that
decision may be known.

Games walked: the open ACW demo (orders/acw_minis/mercers-mill), the open bidding demo
(orders/heartland/bidding-demo), and an open bidding-demo game played here with the `cli` and
`game` fixtures (bid rounds of :func:`tests.conftest.bid_round`; every other decision answered
with its example, and rolled for by the other side when it rolls dice).
A negative control checks that the walk does find a link shown too early.
"""
from __future__ import annotations

import functools
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from hxref.crypto import dice as dice_mod
from hxref.referee import orders
from hxref.base.canon import sha256_hex
from hxref.gamefile.game import GameFile
from hxref.crypto.signing import load_private_key
from tests.conftest import bid_round
from tests.security.replay import BIDDING, DEMOS, Copy, FileInfo, file_info, manifest, manifest_sequence, segments

CHOOSING = ("answer", "commit")


def own_chain(key, identity: str, nonce: str) -> set[str]:
    """Every link of a party's chain for this game (index 0, the tip, to CHAIN_LENGTH), from the
    nonce of its join."""
    seed = dice_mod.chain_seed(key, identity, nonce)
    value = dice_mod._h(seed)
    links = {value.hex()}
    for _ in range(dice_mod.CHAIN_LENGTH):
        value = dice_mod._h(value)
        links.add(value.hex())
    assert dice_mod.chain_tip(seed) in links and dice_mod.chain_link(seed, 1) in links
    return links


def derivable(links: set[str], stop: set[str]) -> set[str]:
    """``links`` and every link before them on their chains (hashing forward), down to a known tip."""
    out = set(links)
    for link in links:
        value = link
        for _ in range(dice_mod.CHAIN_LENGTH):
            value = sha256_hex(bytes.fromhex(value))
            if value in out:
                break
            out.add(value)
            if value in stop:
                break
    return out


def links_of(f: FileInfo) -> set[str]:
    return {f.data[k] for k in ("link", "tip") if isinstance(f.data.get(k), str)}


def decision_links(log: list[dict]) -> dict[str, dict[str, str]]:
    """Per decision, per party, the link its block took: from the final log."""
    out: dict[str, dict[str, str]] = {}
    for ev in log:
        d = ev["data"]
        if ev["kind"] == "submission":
            link = orders.parse(d["file"], "log", fast=True).data.get("link")
            if link:
                out.setdefault(d["decision"], {})[d["side"]] = link
        elif ev["kind"] == "link":
            out.setdefault(d["decision"], {})[ev["by"]] = d["link"]
    return out


def block_choosers(log: list[dict]) -> dict[str, dict[str, str]]:
    """Per decision, per party that chose in it, the kind of the file that fixed its choice."""
    out: dict[str, dict[str, str]] = {}
    for ev in log:
        if ev["kind"] == "submission" and ev["data"]["kind"] in CHOOSING:
            out.setdefault(ev["data"]["decision"], {})[ev["data"]["side"]] = ev["data"]["kind"]
    return out


@dataclass
class Walk:
    checked: int = 0           # (decision, party) pairs checked
    decisions: int = 0         # dice decisions of the game
    commits: int = 0


def check_foresight(seq: list[FileInfo], log: list[dict], keys: dict, identity: str) -> Walk:
    """``seq``: every signed file of the game in the order it was written and sent; ``keys``: each
    party's private key (its own chain is known to it)."""
    nonces = {f.side: f.data["nonce"] for f in seq if f.kind == "join"}
    chains = {side: own_chain(k, identity, nonces[side]) for side, k in keys.items()}
    tips = {f.data["tip"] for f in seq if f.kind == "join"}
    links = decision_links(log)
    choosers = block_choosers(log)
    where = {(f.decision, f.side, f.kind): i for i, f in enumerate(seq)}
    walk = Walk(decisions=len(links))
    assert links, "the game rolled no dice"
    for d, by_party in links.items():
        for party, link in by_party.items():
            if party in chains:
                assert link in chains[party], f"{party}'s link for {d} is not on its own chain"
        for party, kind in choosers.get(d, {}).items():
            pos = where[(d, party, kind)]
            held = set()
            for f in seq[:pos]:
                if f.side != party:
                    held |= links_of(f)
            known = chains[party] | derivable(held, tips)
            unknown = {p for p, link in by_party.items() if link not in known}
            assert unknown, (f"{party} knew every dice link of {d} when it signed its {kind} "
                             f"({seq[pos].name}, file {pos} of the exchange)")
            if kind == "commit":
                walk.commits += 1
                others = {p for p in by_party if p != party}
                assert others <= unknown, f"{party} knew {sorted(others - unknown)}'s link for {d} at its commitment"
            walk.checked += 1
    return walk


@functools.lru_cache(maxsize=None)
def _replay_manifest(src: Path) -> tuple[list[FileInfo], list[dict], dict, str]:
    man = manifest(src)
    seq = manifest_sequence(src, man)
    with tempfile.TemporaryDirectory(prefix="hxref-foresight-") as tmp:
        c = Copy(Path(tmp), src, man)
        c.new(man["created"])
        for seg in segments(man):
            for step in seg.steps:
                c.submit(step, man["created"])
            if seg.resolve:
                c.resolve(man["created"])
        gf = GameFile.load(c.game)
    keys = {s: load_private_key(str(src / "keys" / Path(k).stem)) for s, k in man["keys"].items()}
    return seq, gf.log, keys, gf.log[0]["hash"]


@pytest.mark.parametrize("src", [DEMOS["acw-minis"], BIDDING], ids=["acw-mercers-mill", "bidding-demo"])
def test_no_party_knows_its_dice_when_it_chooses(src):
    seq, log, keys, identity = _replay_manifest(src)
    walk = check_foresight(seq, log, keys, identity)
    choosers = block_choosers(log)
    assert walk.checked == sum(len(choosers.get(d, {})) for d in decision_links(log))
    assert walk.checked >= walk.decisions
    if src == BIDDING:
        assert walk.commits >= 2


def test_shipped_order_is_the_exchange():
    """The walk takes the manifest's order as the order of the exchange: in it, every dice link of
    a decision comes after every choice of that decision (else the walk above would be vacuous for
    it)."""
    for src in (DEMOS["acw-minis"], BIDDING):
        seq = manifest_sequence(src)
        for i, f in enumerate(seq):
            if f.kind == "roll":
                assert any(g.decision == f.decision and g.kind in ("answer", "reveal") for g in seq[:i])


def test_fixture_game_bids_and_levels(cli, game, keydir):
    """An open bidding-demo game played here: bid rounds, and every other decision answered with the
    decision's example (and rolled for by the other side when it rolls dice), walked file by file."""
    from hxref.referee.engine import Engine

    seq: list[FileInfo] = []
    folder = Path(cli.folder)
    seq += [file_info(folder, "union-join.yaml"), file_info(folder, "confederate-join.yaml")]
    keys = {"union": "alice", "confederate": "bob"}
    bids = iter([(3, 3), (2, 1), (0, 2), (4, 1), (1, 1), (2, 2), (1, 0)])
    for _ in range(40):
        eng = Engine.load(game)
        if eng.finished:
            break
        dec = next(d for d in eng.awaiting)
        if dec.secret:
            u, c = next(bids, (1, 2))
            bid_round(cli, game, u, c, dec.id)
            # sent: both commitments, then both reveals (each written with its commitment, kept)
            for k in ("commit", "reveal"):
                for s in ("union", "confederate"):
                    seq.append(file_info(folder, f"{s}-{dec.id}-{k}.yaml"))
            continue
        for s in dec.sides:
            cli("answer", game, "--side", s, "--key", keys[s], "--decision", dec.id,
                "--choice", orders_choice(dec.example))
            cli("submit", game, f"{s}-{dec.id}.yaml")
            seq.append(file_info(folder, f"{s}-{dec.id}.yaml"))
        eng = Engine.load(game)
        for w in eng.missing_links(dec):
            cli("roll", game, "--side", w, "--key", keys[w], "--decision", dec.id)
            cli("submit", game, f"{w}-{dec.id}-roll.yaml")
            seq.append(file_info(folder, f"{w}-{dec.id}-roll.yaml"))
        cli("resolve", game)
    gf = GameFile.load(folder / game)
    walk = check_foresight(seq, gf.log, {s: load_private_key(str(keydir / k)) for s, k in keys.items()},
                           gf.log[0]["hash"])
    assert walk.commits >= 4 and walk.checked >= walk.decisions


def orders_choice(example: dict) -> str:
    import json

    return json.dumps(example)


@pytest.mark.parametrize("src,early,before", [
    (DEMOS["acw-minis"], "confederate-t1.union-roll.yaml", "union-t1.union.yaml"),
    (BIDDING, "confederate-t1.bid-reveal.yaml", "union-t1.bid-commit.yaml"),
], ids=["acw-link-before-orders", "bid-reveal-before-commit"])
def test_the_walk_sees_a_link_shown_too_early(src, early, before):
    """The check is not vacuous: in an exchange where the other side's link for the decision came
    before the choice (which the protocol refuses), the walk finds the foreknowledge."""
    seq, log, keys, identity = _replay_manifest(src)
    moved = [f for f in seq if f.name != early]
    at = next(i for i, f in enumerate(moved) if f.name == before)
    moved.insert(at, next(f for f in seq if f.name == early))
    with pytest.raises(AssertionError, match="knew"):
        check_foresight(moved, log, keys, identity)
