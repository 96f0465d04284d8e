"""The proof of a game played with hidden armies: its whole log replayed with full information.

When the rules await nothing more, a fog game awaits every side's ``proof`` file
(``hxref challenge``): the side's fog seed, which its join committed to, its sealed answers, and
for every root it signed the leaves of that tree (:meth:`~.shadow.ShadowMixin.proof_leaves`).
With every proof in, every copy (and the audit) replays the log from the published set-up on the
true state (:func:`replay_known`, every side's secrets known: the same engine code, whose shadow is
then the true state) and checks, file by file and block by block:

- each sealed answer opens its file's ``sealed`` commitment, its public part is the file's
  ``choice``, and it passes the rules' check on the true state (else the check's rule);
- each ``root`` is the root of its signer's true boxes at the head the file names, so each opening
  is true (else the box that differs: shown by an opening of it, with the part and the rule of that
  part, or by the leaves the side's proof gives of that root, with the rule of that box; leaves that
  do not rebuild the root convict the proof itself);
- each answer's claims are the claims the rules give for its whole choice on the true state (a
  bound, a part or a value otherwise convicts it);
- the public events and rolls of each block are those logged, and at the end the public part of
  the true state is the game file's (``protocol: public``).

The first failure is the verdict: the side, the file (decision, kind, sha256) and the rule, logged
as a ``rules`` event; that side forfeits.  With none, the game's state becomes the true one and the
fog is lifted (``fog_lifted`` in the header): the system decides on it what waited for every side's
hidden state (:meth:`~hxref.kit.protocol.GameSystem.decided`: a result no copy could announce at the
game's end), and its events follow the verdict's in the proof's block.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..base.canon import canonical_json, sha256_hex
from ..base.errors import HxrefError, InvalidInput
from ..crypto import merkle
from ..gamefile.game import GameFile, new_header
from ..kit import registry
from ..kit.protocol import resolve_copy
from . import orders
from .inputs import inputs_for
from .shadow import PROOF, Knowledge, ProofFailure, Secrets, first_difference, quoted
from .trust import canonical

if TYPE_CHECKING:
    from .engine import Engine


class Verdict(Exception):
    """The first failure of the proof's replay: the side (None when no side's file is at fault),
    the file and the rule."""

    def __init__(self, side: str | None, file: dict | None, rule: str, why: str):
        super().__init__(why)
        self.side, self.file, self.rule, self.why = side, file, rule, why

    def to_data(self) -> dict[str, Any]:
        return {"side": self.side, "file": self.file, "rule": self.rule, "why": self.why}


def replay_known(engine: type["Engine"], gf: GameFile, known: dict[str, Secrets],
                 since: tuple[int, dict, Knowledge] | None = None) -> "Engine":
    """The game of ``gf``'s log as a copy that knows the secrets of the sides in ``known`` plays it
    (its :attr:`~.shadow.ShadowMixin.knowledge`): every input event applied again to a fresh game of
    the ``engine`` class; or, with ``since`` (an earlier head of the same log, the header and the
    copy's knowledge there: :mod:`.fog_memo`), the events after that head applied to it."""
    return _replay(engine, gf, known, False, since)


def _replay(engine: type["Engine"], gf: GameFile, known: dict[str, Secrets], proving: bool,
            since: tuple[int, dict, Knowledge] | None = None) -> "Engine":
    """The game of ``gf``'s log, replayed by a copy that knows the secrets of ``known`` (from the
    header and knowledge ``since`` at an earlier head); with ``proving`` every file is checked
    against the true boxes and every produced event against the log, and the first failure raises
    :class:`Verdict`."""
    from .rules import GameRules

    log = gf.log
    replay = engine.__new__(engine)
    if since is None:
        replay.gf = GameFile(gf.path, new_header({"system": log[0]["data"]["meta"]["system"]}, {}))
        replay._knowledge = Knowledge(known=dict(known), proving=proving)
    else:
        replay.gf = GameFile(gf.path, since[1])
        replay.gf.log = log[:since[0]]
        replay._knowledge = since[2]
    replay.h = replay.gf.header
    replay.rules = GameRules(replay.h["meta"]["system"], replay.pinned_charts)
    replay.replaying = True
    inputs = inputs_for("fog")
    pos = len(replay.gf.log)
    while pos < len(log):
        ev = log[pos]
        start = len(replay.gf.log)
        if ev["kind"] not in inputs:
            raise InvalidInput(f"event {ev['seq']} ({ev['kind']}) is not an input", code="E500", file=str(gf.path))
        order = None
        if ev["kind"] == "submission":
            order = orders.parse(ev["data"]["file"], f"event {ev['seq']}", fast=True)
            if "sig" in ev["data"]:
                order.armored = ev["data"]["sig"]
            where = {"decision": ev["data"]["decision"], "kind": ev["data"]["kind"], "sha256": ev["data"]["sha256"]}
            try:
                replay._accept(order, "sig" in ev["data"])
            except ProofFailure as exc:
                raise Verdict(exc.side, exc.file or where, exc.rule or "-", exc.message) from None
            except HxrefError as exc:
                if not proving:
                    raise
                raise Verdict(order.side, where, exc.rule or "protocol", exc.message) from None
        same = replay.gf.head == ev["prev"] and len(replay.gf.log) + 1 == ev["seq"]
        replay._apply(ev["kind"], ev["by"], ev["data"], order, ev["hash"] if same else None)
        made = replay.gf.log[start:]
        if proving:
            for a, b in zip(made, log[start:start + len(made)]):
                if a["hash"] != b["hash"]:
                    rule = str(a["data"].get("rule") or b["data"].get("rule") or "-")
                    raise Verdict(None, None, rule, f"event {b['seq']} ({b['kind']}) is not what the true state "
                                  "gives: the rules' public results depend on a fact nobody opened or claimed")
        pos = start + len(made)
    return replay


def _same_public(replay: "Engine", eng: "Engine") -> None:
    """The backstop of the proof: the public part of the state the true game ends in is the one the game
    file holds (every copy played on it), else a public result changed with no event telling it."""
    true, held = replay.h["state"], eng.h["state"]
    if canonical_json(true) != canonical_json(held):
        path, given, kept = first_difference(true, held)
        raise Verdict(None, None, "protocol: public", f"the public state at the end is not what the true game gives: "
                      f"at {'.'.join(path) or 'its top'} the true game gives {quoted(given)}, the game file holds "
                      f"{quoted(kept)}: a public result that no event told, from a fact nobody opened or claimed")


def close_proof(eng: "Engine", pend: dict) -> None:
    """Close the ``proof`` decision: replay the game with every side's seed and sealed answers, log
    the verdict, and end the game (a forfeit for the side at fault), or go on with the true state and
    what the system decides on it (the result that waited for the proof)."""
    known: dict[str, Secrets] = {}
    for f in canonical(pend["files"]):
        if f["kind"] == PROOF:
            d = orders.parse(f["file"], "kept proof", fast=True).data
            known[f["party"]] = Secrets(bytes.fromhex(d["seed"]), dict(d["sealed_answers"]),
                                        {root: merkle.unpack_leaves(text) for root, text in d["leaves"].items()},
                                        {"decision": PROOF, "kind": PROOF, "sha256": f["sha256"]})
    first = next(e["seq"] for e in eng.gf.log if e["kind"] == "submission" and e["data"]["decision"] == PROOF)
    view = GameFile(eng.gf.path, new_header({"system": eng.meta["system"]}, {}))
    view.log = eng.gf.log[:first - 1]
    eng.h["pending"].pop(PROOF, None)
    eng.h["resolved"].append(PROOF)
    try:
        replay = _replay(type(eng), view, known, True)
        _same_public(replay, eng)
    except Verdict as verdict:
        text = (f"proof: {verdict.side} forfeits: {verdict.side}'s file ({verdict.file['decision']}, "
                f"{verdict.file['kind']}, sha256 {verdict.file['sha256'][:16]}): {verdict.why} (rule {verdict.rule})"
                if verdict.side and verdict.file else f"proof: {verdict.why} (rule {verdict.rule})")
        eng._emit("rules", verdict.side, {"decision": PROOF, "type": "proof", "rule": verdict.rule, "text": text,
                                          "verdict": verdict.to_data()})
        if verdict.side:
            eng.h["forfeit"] = {"side": verdict.side, "decision": PROOF, "by": "proof", "why": verdict.why}
        eng.h["awaiting"] = []
        eng.h["phase"] = "over"
        return
    true = replay.shadow()
    eng._emit("rules", None, {"decision": PROOF, "type": "proof", "rule": "protocol: proof",
                              "text": "proof: every file of the game is true; the fog is lifted",
                              "verdict": None, "state": sha256_hex(canonical_json(true))})
    # the result that waited for both sides' hidden state is decided on the true one
    state, events = eng.system.decided(resolve_copy(registry.info(eng.meta["system"]), true))
    for ev in events:
        eng._emit("rules", ev.get("side"), {"decision": PROOF, **ev})
    eng.h["state"] = state
    eng.h["fog_lifted"] = True
    eng._knowledge = replay._knowledge
    eng._refresh_awaiting(eng.signed_time(len(eng.gf.log)))

