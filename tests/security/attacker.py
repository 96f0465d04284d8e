"""The cheater's tools for tests/security/test_attacks.py (after shared/reviews/security-scripts/).

Each works with what a cheating player has: the game file, his own key(s) and the files he
legitimately holds.  Nothing here reads the victim's private key.  Game files are written with
:meth:`GameFile.save` only, never :meth:`Engine.save`: the cheater works on his own machine, so
the victim's record of the heads he saw (hxref.gamefile.heads) is not touched.
"""
from __future__ import annotations

import copy
import hashlib
from pathlib import Path

from hxref.crypto import commit as commit_mod
from hxref.referee import orders
from hxref.referee import trust as protocol
from hxref.base.canon import sha256_hex
from hxref.referee.rules import GameRules
from hxref.referee.engine import INPUT_KINDS, Engine
from hxref.gamefile.game import GameFile, new_header
from hxref.crypto.signing import load_private_key, sign_text


def sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def forge_event(path, kind: str, by: str, data: dict, pending: dict | None = None) -> None:
    """Append an unsigned event with a correct hash (the chain has no key), and set the header's
    pending area the way its handler would have, as a forger does."""
    gf = GameFile.load(path)
    gf.append(kind, by, data)
    if pending is not None:
        gf.header["pending"] = pending
    gf.save()


def signed_file(game, side: str, key_path: str, out, fields: dict, **envelope) -> Path:
    """A file signed by ``side`` with ``key_path``, written by hand (not by the hxref command that
    would refuse it): the envelope of the game as it is now, overridden by ``envelope``."""
    eng = Engine.load(game)
    fields = dict(fields)
    env = eng.envelope(side, fields.pop("decision"), fields.pop("kind"))
    env.update(envelope)
    text = orders.render({**env, **fields}, f"hand-made {env['kind']} of {side}")
    Path(out).write_text(sign_text(text, load_private_key(key_path)), encoding="utf-8")
    return Path(out)


def _replay(system: str, out, inputs: list[dict], resign=None) -> GameFile:
    """Build a consistent game file from input events, replayed through the engine."""
    eng = Engine.__new__(Engine)
    eng.gf = GameFile(Path(out), new_header({"system": system}, {}))
    eng.h = eng.gf.header
    eng.rules = GameRules(system, eng.pinned_charts)
    for ev in inputs:
        data, order = ev["data"], None
        if ev["kind"] == "submission":
            if resign is not None:
                data = resign(eng, data)
            order = orders.parse(data["file"], f"event {ev['seq']}")
            eng._accept(order)
        eng._apply(ev["kind"], ev["by"], data, order)
    eng.gf.save()
    return eng.gf


def truncate_last_block(src, out) -> GameFile:
    """Roll back: drop the last block (its files, its resolve and what it produced) and rebuild a
    consistent file, hash for hash, from the inputs before it."""
    gf = GameFile.load(src)
    inputs = [copy.deepcopy(ev) for ev in gf.log if ev["kind"] in INPUT_KINDS]
    last = max(i for i, ev in enumerate(inputs) if ev["kind"] == "resolve")
    start = last
    while start > 0 and inputs[start - 1]["kind"] in ("submission", "link"):
        start -= 1
    return _replay(gf.log[0]["data"]["meta"]["system"], out, inputs[:start])


def swap_key(src, out, side: str, new_key_path: str, keys: dict[str, str]) -> GameFile:
    """Replace ``side``'s key in game.created by ``new_key_path``'s and re-sign every file: the
    cheater signs his own side's files with his own key (``keys``) and the victim's with the new
    one; identity, heads, tips and links are rewritten for the new history."""
    gf = GameFile.load(src)
    new = load_private_key(new_key_path)
    signers = {s: load_private_key(k) for s, k in keys.items()}
    signers[side] = new
    inputs = [copy.deepcopy(ev) for ev in gf.log if ev["kind"] in INPUT_KINDS]
    reveals = {}
    for ev in gf.log:
        if ev["kind"] == "submission" and ev["data"].get("kind") == "reveal":
            r = orders.parse(ev["data"]["file"], "reveal", fast=True).data
            reveals[(r["decision"], r["side"])] = r
    p = inputs[0]["data"]["participants"][side]
    p["key"], p["fingerprint"] = new.public.line(), new.public.fingerprint()

    def resign(eng: Engine, data: dict) -> dict:
        old = orders.parse(data["file"], "old", fast=True).data
        who, key = old["side"], signers[old["side"]]
        _, seq = protocol.parse_head(old["head"])
        fields = {k: v for k, v in old.items() if k != "hxref"}
        fields.update(identity=eng.identity, head=protocol.format_head(eng.gf.log[seq - 1]["hash"], seq))
        dec = eng.decision(old["decision"])
        if old["kind"] == "join":
            fields["tip"] = eng.tip_for(key, old["nonce"])
        if "link" in old:
            fields["link"] = eng.next_link(who, key, dec)
        if old["kind"] == "roll":
            fields["answers"] = protocol.answers_hash(dec.id, eng.pending(dec.id)["files"])
        if old["kind"] == "commit":
            # a commitment is bound to the game's identity: the cheater opens it from the reveal he
            # holds (choice and salt) and seals it again for his rewritten game
            rev = reveals.get((old["decision"], who))
            if rev is not None:
                fields["commitment"] = commit_mod.commitment(rev["choice"], rev["salt"], (eng.identity, dec.id, who))
        text = sign_text(orders.render(fields, "re-signed"), key)
        return {**data, "file": text, "sha256": sha256_hex(text.encode("utf-8"))}

    return _replay(gf.log[0]["data"]["meta"]["system"], out, inputs, resign)


def rehash(gf) -> None:
    """Make a game file whose first event was edited consistent again, as its creator's own tools
    would: every event's link and hash, then the header's identity and head."""
    from hxref.gamefile.game import event_hash

    prev = gf.log[0]["prev"]
    for ev in gf.log:
        ev["prev"] = prev
        ev["hash"] = prev = event_hash(ev)
    gf.header["identity"] = gf.log[0]["hash"]
    gf.header["head"] = {"seq": len(gf.log), "hash": gf.head}
