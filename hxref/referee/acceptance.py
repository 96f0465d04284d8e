"""What each kind of signed file must satisfy to be kept for its decision (SECURITY.md, "The
protocol", the table of checks).  Called by :meth:`hxref.referee.engine.Engine._accept` after the
identity, signature and head checks; each refusal names the attack it stops in a comment.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..crypto import commit as commit_mod
from . import orders
from . import trust as protocol
from ..base.errors import IllegalOrder
from .inputs import JOIN, UMPIRE

if TYPE_CHECKING:
    from .engine import Engine
    from ..kit.protocol import Decision


def check_kind(eng: "Engine", order: orders.Order, dec: "Decision", pend: dict) -> None:
    """The checks of a file's kind, in the protocol's order: a join answers only the join decision;
    every other file comes from a participant who joined; a claim, undo or roll has its own checks;
    an answer, commitment or reveal comes from a side the decision asks, its choice's shape checked
    first, then its kind's rules, then its own dice link, then the rules' problems."""
    kind, side, d = order.kind, order.side, order.data
    answers = pend["answers"]
    mine = answers.get(side, {})
    asked = side in dec.sides
    if kind == "join":
        _check_join(eng, order, dec, mine, asked)
        return eng.fog_accept(order, dec)
    _check_joined(eng, order, dec)
    eng.fog_accept(order, dec)
    if kind == "open":
        return None
    if kind == "proof":
        return _check_proof(order, dec, mine, asked)
    if kind == "claim":
        return check_claim(eng, order, dec, pend)
    if kind == "undo":
        return check_undo(eng, order, dec, pend)
    if kind == "roll":
        return check_roll(eng, order, dec, pend)
    if side == UMPIRE or not asked:
        raise order.error(IllegalOrder, f"decision {dec.id} is for {', '.join(dec.sides)}, not {side}",
                          code="E302", path=("side",))
    # in a game with hidden armies the rules check only the answers of a side this copy holds the
    # boxes of (its belief of another's is stale), on the side's whole choice (the file's is public)
    checked = eng.rules_check(side)
    if kind in ("reveal", "answer"):
        # the shape first: keys and types (with the rules' problems too, where the shape allows)
        orders.check_choice(order, dec, (lambda choice: eng.system.check(eng.state, dec, side, choice))
                            if checked else None)
    if kind == "commit":
        return _check_commit(eng, order, dec, mine)
    if kind == "reveal":
        _check_reveal(eng, order, dec, answers, mine)
    elif kind == "answer":
        _check_answer(order, dec, mine)
    _check_own_link(eng, order, dec)
    if checked:
        orders.raise_problems(order, eng.system.check(eng.state, dec, side,
                                                      eng.full_choice(side, dec.id, d)))


def _check_proof(order: orders.Order, dec: "Decision", mine: dict, asked: bool) -> None:
    """A proof: from a side the proof decision asks, once."""
    if not asked:
        raise order.error(IllegalOrder, f"decision {dec.id} is for {', '.join(dec.sides)}, not {order.side}",
                          code="E302", path=("side",))
    if mine:
        raise order.error(IllegalOrder, f"{order.side} has sent its proof already", code="E303")


def _check_join(eng: "Engine", order: orders.Order, dec: "Decision", mine: dict, asked: bool) -> None:
    """A join answers only the join decision, by a participant it asks, once, and for the game's
    mode: a join signed for an umpired game (from a template, without the game file) is refused by
    an open game of the same identity, where its signer would play without ever having seen it."""
    if dec.id != JOIN or not asked:
        raise order.error(IllegalOrder, "a join file answers only the `join` decision", code="E304")
    if order.data["mode"] != eng.mode:
        raise order.error(IllegalOrder, f"this join was signed for an {order.data['mode']} game; this game is "
                          f"{eng.mode}", code="E300", path=("mode",))
    if mine:
        raise order.error(IllegalOrder, f"{order.side} has already joined", code="E303")


def _check_joined(eng: "Engine", order: orders.Order, dec: "Decision") -> None:
    """No file but a join while the game waits for its joins, and none from a participant who has not
    joined (his chain's tip is unknown)."""
    if dec.id == JOIN:
        raise order.error(IllegalOrder, "the game waits for every participant to join: send your join file "
                          "first (`hxref join`)", code="E304", path=("kind",))
    if not eng.participants[order.side].get("last"):
        raise order.error(IllegalOrder, f"{order.side} has not joined the game: send your join file first",
                          code="E307")


def _check_commit(eng: "Engine", order: orders.Order, dec: "Decision", mine: dict) -> None:
    """A commitment: only for a secret decision, once per side, and never one used before in the game."""
    side = order.side
    if not dec.secret:
        raise order.error(IllegalOrder, f"decision {dec.id} is not secret: answer it with `hxref answer`",
                          code="E304", path=("kind",))
    if "commitment" in mine or mine.get("nmr"):
        raise order.error(IllegalOrder, f"{side} has already committed for {dec.id}; "
                          "a second commitment is not accepted", code="E303", rule=dec.rule)
    if order.data["commitment"] in eng.h["commitments"]:
        # a commitment replayed from a closed decision.  One copied from the other side's
        # pending commitment is let in (refusing whichever came second would let the copier
        # block the genuine one): it is bound to its game, decision and side, so the copier
        # cannot open it, and his withheld reveal forfeits
        raise order.error(IllegalOrder, "this commitment was used before in this game "
                          "(replayed or copied); make a new one with `hxref commit`",
                          code="E306", path=("commitment",))


def _check_reveal(eng: "Engine", order: orders.Order, dec: "Decision", answers: dict, mine: dict) -> None:
    """A reveal: only for a secret decision, after this side's commitment and every other's, once, and
    matching the commitment (bound to the game, decision and side)."""
    side, d = order.side, order.data
    if not dec.secret:
        raise order.error(IllegalOrder, f"decision {dec.id} is not secret: answer it with `hxref answer`",
                          code="E304", path=("kind",))
    if "commitment" not in mine:
        raise order.error(IllegalOrder, f"{side} has not committed for {dec.id}: "
                          "send the commit file first", code="E304")
    if "choice" in mine:
        raise order.error(IllegalOrder, f"{side} has already revealed for {dec.id}", code="E303")
    missing = [s for s in dec.sides if "commitment" not in answers.get(s, {}) and not answers.get(s, {}).get("nmr")]
    if missing:
        raise order.error(IllegalOrder, f"reveal sent before all commitments are in "
                          f"(waiting for {', '.join(missing)}); keep it and send it later",
                          code="E304", rule=dec.rule)
    if not commit_mod.matches(mine["commitment"], d["choice"], d["salt"], (eng.identity, dec.id, side)):
        raise order.error(IllegalOrder, "the choice and salt do not match the commitment sent earlier",
                          code="E305", path=("choice",))


def _check_answer(order: orders.Order, dec: "Decision", mine: dict) -> None:
    """An answer in the open: not for a secret decision, and once."""
    if dec.secret:
        raise order.error(IllegalOrder, f"decision {dec.id} is secret: send a commitment "
                          "(`hxref commit`), then the reveal", code="E304", path=("kind",))
    if "choice" in mine:
        raise order.error(IllegalOrder, f"{order.side} has already answered {dec.id}", code="E303")


def _check_own_link(eng: "Engine", order: orders.Order, dec: "Decision") -> None:
    """The link inside an answer or reveal: there exactly when this side's link goes in its own
    file, and then its bound link for this decision."""
    wanted = order.side in eng.dice_parties(dec) and eng.links_in_answers(dec)
    link = order.data.get("link")
    if not wanted and link is not None:
        why = ("it rolls no dice" if not dec.dice else
               "its dice links come after every answer, in roll files (a later answerer would see yours)")
        raise order.error(IllegalOrder, f"this file must not carry a dice link: decision {dec.id} {why}",
                          code="E311", path=("link",))
    if wanted and link is None:
        raise order.error(IllegalOrder, f"decision {dec.id} rolls dice: the file must carry {order.side}'s dice link "
                          "(`hxref answer` and `hxref commit` write it; umpired: `hxref answer --template`)", code="E111", path=())
    if wanted:
        _check_fits(eng, order, dec)


def _check_fits(eng: "Engine", order: orders.Order, dec: "Decision") -> None:
    if not eng.link_fits(order.side, dec, order.data["link"]):
        raise order.error(IllegalOrder, f"the dice link is not {order.side}'s link for {dec.id} (link "
                          f"{eng.link_index(order.side, dec)} of its chain, bound to this decision): write "
                          "the file again with this hxref", code="E307", path=("link",))


def check_roll(eng: "Engine", order: orders.Order, dec: "Decision", pend: dict) -> None:
    """A dice link sent on its own: only by a dice party that does not give it in an answer, once
    every choice of the decision is fixed, naming those choices, and once."""
    side = order.side
    if side == UMPIRE:
        # the umpire's bound link enters at `hxref resolve --key`, after every file of the decision
        raise order.error(IllegalOrder, "the umpire sends no roll files: its link enters when it resolves "
                          "(`hxref resolve GAME --key UMPIRE_KEY`)", code="E311", path=("side",))
    if side not in eng.dice_parties(dec):
        # a link injected by a party the dice do not take: another stream to choose from
        raise order.error(IllegalOrder, f"decision {dec.id} takes no dice link from {side}"
                          + ("" if dec.dice else " (it rolls no dice)"), code="E311", path=("side",))
    if side in dec.sides and eng.links_in_answers(dec):
        # a second link from an answering side would let it pick between two dice streams
        raise order.error(IllegalOrder, f"{side} gives its dice link for {dec.id} in its own "
                          f"{'reveal' if dec.secret else 'answer'} file; an extra roll file is refused",
                          code="E311", path=("kind",))
    if side in pend["links"]:
        raise order.error(IllegalOrder, f"{side} has already given its dice link for {dec.id}", code="E303")
    if not eng.complete(dec):
        # a link shown before the choices are fixed lets the answering side foresee its dice
        waiting = [s for s in dec.sides if "choice" not in pend["answers"].get(s, {})]
        raise order.error(IllegalOrder, f"a dice link is sent only after every choice it affects is fixed: "
                          f"{dec.id} still waits for {', '.join(waiting)}; send it after their files",
                          code="E311", path=("kind",))
    want = protocol.answers_hash(dec.id, pend["files"])
    if order.data["answers"] != want:
        raise order.error(IllegalOrder, f"this link answers other choices than those kept for {dec.id} "
                          f"(answers {order.data['answers'][:16]}, kept {want[:16]}): write it again "
                          "after reading the answers", code="E311", path=("answers",))
    _check_fits(eng, order, dec)


def sendable(eng: "Engine", who: str, dec: "Decision", pend: dict) -> str | None:
    """What ``who`` owes for ``dec`` and can send now (a reveal once every commitment is in, a link
    once every choice is), or None."""
    owed = eng.owed_by(who, dec)
    if owed == "reveal" and not all("commitment" in pend["answers"].get(x, {}) or pend["answers"].get(x, {}).get("nmr")
                                    for x in dec.sides):
        return None
    if owed == "link" and not eng.complete(dec):
        return None
    return owed


def check_claim(eng: "Engine", order: orders.Order, dec: "Decision", pend: dict) -> None:
    """A signed claim that a party missed the deadline of a decision."""
    side, against, at = order.side, order.data["against"], order.data["at"]
    policy = eng.meta.get("policy") or {}
    if not policy:
        raise order.error(IllegalOrder, "this game has no deadline policy, so no deadline can be missed "
                          "(`hxref new --deadline-hours H`)", code="E312")
    if eng.mode == "umpired" and side != UMPIRE:
        raise order.error(IllegalOrder, "in an umpired game the umpire claims a missed deadline", code="E302",
                          path=("side",))
    if eng.mode == "open" and (side == against or side not in eng.sides()):
        raise order.error(IllegalOrder, "a missed deadline is claimed by another side", code="E302",
                          path=("side",))
    owed = eng.owed_by(against, dec)
    if owed is None:
        raise order.error(IllegalOrder, f"{against} owes nothing for {dec.id}", code="E312", path=("against",))
    if owed == "link" and not eng.complete(dec) or owed == "reveal" and not all(
            "commitment" in pend["answers"].get(x, {}) or pend["answers"].get(x, {}).get("nmr") for x in dec.sides):
        # nobody is late for a file he cannot send yet: his link follows the answers, his reveal
        # follows every commitment
        raise order.error(IllegalOrder, f"{against} cannot send its {owed} for {dec.id} yet (it follows the other "
                          "files of the decision): it is not late", code="E312", path=("against",))
    if any(c["against"] == against for c in pend.get("claims", [])):
        raise order.error(IllegalOrder, f"{against}'s missed deadline of {dec.id} is claimed already", code="E303")
    own = None if side == UMPIRE else sendable(eng, side, dec, pend)
    if own is not None:
        # the claimant's own file comes first: a claim that closed the decision before it would
        # leave it out of the block on one copy and not on another, as the mails happen to arrive
        raise order.error(IllegalOrder, f"{side} has not sent its own {own} for {dec.id}: send it before "
                          "claiming that another side is late", code="E312", path=("side",))
    due = eng.due(dec)
    if due is None:
        raise order.error(IllegalOrder, f"decision {dec.id} has no deadline", code="E312")
    if protocol.parse_time(at) < protocol.parse_time(due):
        raise order.error(IllegalOrder, f"the deadline of {dec.id} with its grace ends at {due}; a claim "
                          f"signed at {at} is early", code="E312", path=("at",))


def check_time(eng: "Engine", order: orders.Order) -> None:
    """A file's signed time: not earlier than the game's signed time at the head it names (the
    latest signed time of that history), and not later than this machine's clock plus its tolerance
    (:func:`hxref.referee.trust.latest_allowed`: an hour for a file that arrives, a day in the replay of
    a whole game, none for a claim)."""
    at = order.data["at"]
    head = protocol.parse_head(order.data["head"])
    assert head is not None     # the envelope check made sure
    floor = eng.signed_time(head[1])
    if floor is not None and at < floor:
        # a backdated file would start the next deadline before the history it answers, so the
        # other side could be claimed against at once
        raise order.error(IllegalOrder, f"this file is signed at {at}, earlier than the game's time {floor} at the "
                          "head it names: a signed time never goes back (check the sender's clock)",
                          code="E313", path=("at",))
    now = protocol.now_iso()
    ceiling = protocol.latest_allowed(now, kind=order.kind, replay=eng.replaying)
    if at > ceiling:
        # a time far ahead would push every later deadline out of reach, or past the calendar's end;
        # a claim ahead of the clock would make the other side late before it is
        ahead = "at all" if order.kind == "claim" else f"by more than {protocol.hours_text(now, ceiling)}"
        raise order.error(IllegalOrder, f"this file is signed at {at}, ahead of this machine's clock ({now}) {ahead}: "
                          "keep it and submit it once the clock has reached it, or check the sender's clock",
                          code="E313", path=("at",))


def withdrawable(eng: "Engine", dec: "Decision", pend: dict, found: dict) -> bool:
    """Whether the kept file ``found`` may still be withdrawn: nothing can have been written in answer
    to it yet (no reveal or dice link is kept, and none can be sent)."""
    return not any(f["kind"] in ("roll", "reveal") for f in pend["files"]) and not answerable(eng, dec, pend, found)


def answerable(eng: "Engine", dec: "Decision", pend: dict, found: dict) -> bool:
    """Whether another party can already have written a reply to the kept file ``found``."""
    answers = pend["answers"]
    if found["kind"] == "commit":
        return all("commitment" in answers.get(s, {}) or answers.get(s, {}).get("nmr") for s in dec.sides)
    rollers = [w for w in eng.dice_parties(dec) if not (w in dec.sides and eng.links_in_answers(dec))
               and w != "umpire"]
    return bool(rollers) and eng.complete(dec)


def check_undo(eng: "Engine", order: orders.Order, dec: "Decision", pend: dict) -> None:
    """A signed consent to withdraw a kept file before anything was shown in answer to it."""
    target = order.data["target"]
    found = next((f for f in pend["files"] if f["sha256"] == target), None)
    if found is None or found["kind"] not in ("answer", "commit"):
        raise order.error(IllegalOrder, f"no answer or commitment with sha256 {target[:16]} is kept for {dec.id}",
                          code="E304", path=("target",))
    if not withdrawable(eng, dec, pend, found):
        # something may already have been written in answer to it (a reveal once every commitment
        # is in; a dice link once the answers are in): withdrawing now would let its author choose
        # again knowing it, even if the file was never submitted here
        raise order.error(IllegalOrder, f"the {found['kind']} of {found['party']} for {dec.id} may already have "
                          "been answered (a reveal or a dice link sent in reply): it is final", code="E304")
    voters = eng.undo_voters(found["party"])
    if order.side not in voters:
        raise order.error(IllegalOrder, f"the withdrawal of {found['party']}'s file is signed by "
                          f"{', '.join(voters)}", code="E302", path=("side",))
    if order.side in pend.get("undo", {}).get(target, []):
        raise order.error(IllegalOrder, f"{order.side} has already signed this withdrawal", code="E303")
