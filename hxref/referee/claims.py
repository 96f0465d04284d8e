"""Deadlines, signed claims of a missed deadline, withdrawals by consent, and what every party
owes: a part of :class:`hxref.referee.engine.Engine` (SECURITY.md, "Withholding never pays" and
"Attested time").

A deadline runs from the game's signed time where the decision opened (the latest signed time
of the block that opened it, never earlier than any before it: ``Engine.signed_time``), and its
arithmetic stays inside the calendar (``protocol.plus_hours``).  No clock applies it: a *claim*
does, a file signed by the other side (open games) or by the umpire (umpired games) at a signed
time past the deadline and its grace, once the claimant has sent its own files for the decision.
A claim against a side that has not answered gives the decision's declared default
(:meth:`GameSystem.stand_fast`, an answer the rules accept in every position: for an impulse's
orders, no moves) under
``--nmr stand-fast``; a claim against a withheld reveal or dice link, or under ``--nmr
forfeit``, forfeits the game: a committed choice is never replaced by another, and withholding
is never better than the worst reveal.
"""
from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, Any, Protocol, cast

from . import orders
from . import trust as protocol
from .acceptance import withdrawable
from ..base.errors import IllegalOrder
from .inputs import JOIN, UMPIRE
from ..kit import schema

if TYPE_CHECKING:
    from .engine import Engine
    from ..gamefile.game import Event
    from ..kit.protocol import Decision, GameSystem

def _claim_text(claim: dict) -> str:
    return (f"{claim['against']} missed the deadline of {claim['decision']} ({claim['deadline']}); "
            f"claim signed by {claim['by']} at {claim['at']}: {claim['outcome']}")


class _Engine(Protocol):
    """What the claims read of :class:`hxref.referee.engine.Engine`: its header, decisions and system."""

    h: dict

    @property
    def system(self) -> GameSystem[Any]: ...
    @property
    def meta(self) -> dict: ...
    @property
    def mode(self) -> str: ...
    @property
    def state(self) -> dict: ...
    @property
    def awaiting(self) -> list[Decision]: ...
    @property
    def finished(self) -> bool: ...
    def sides(self) -> list[str]: ...
    def decision(self, decision_id: str) -> Decision | None: ...
    def opened(self, decision_id: str) -> dict: ...
    def pending(self, decision_id: str) -> dict: ...
    def dice_parties(self, dec: Decision) -> list[str]: ...
    def links_in_answers(self, dec: Decision) -> bool: ...
    def owes_link(self, who: str, dec: Decision) -> bool: ...
    def complete(self, dec: Decision) -> bool: ...
    def missing_links(self, dec: Decision) -> list[str]: ...
    def ready(self) -> list[Decision]: ...
    def _emit(self, kind: str, by: str | None, data: dict) -> Event: ...
    # the mixin's own methods that others of it call
    def owed_by(self, who: str, dec: Decision) -> str | None: ...
    def claim_gives(self, against: str, dec: Decision, missed: int | None = None) -> tuple[str | None, dict]: ...
    def due(self, dec: Decision) -> str | None: ...
    def waiting_for(self) -> list[dict]: ...
    def undo_voters(self, author: str | None = None) -> list[str]: ...
    def owed_openings(self, dec: Decision, count_pending: bool = True) -> dict[str, list[str]]: ...
    def _drop_votes(self, decision_id: str, target: str | None = None) -> None: ...


class ClaimsMixin:
    """The part of :class:`hxref.referee.engine.Engine` that deals with deadlines, claims and withdrawals;
    its methods read the engine through :class:`_Engine`."""

    # --- what is owed ------------------------------------------------------------------------
    def owed_by(self: _Engine, who: str, dec: Decision) -> str | None:
        """What ``who`` still owes for ``dec``: answer, commit, reveal, link, or None."""
        pend = self.pending(dec.id)
        a = pend["answers"].get(who, {})
        if a.get("nmr"):
            return None
        if dec.id == JOIN:
            return None if a else ("join" if who in dec.sides else None)
        if dec.kind == "proof":
            return None if a or who not in dec.sides else "proof"
        if who in dec.sides:
            if dec.secret:
                if "choice" in a:
                    pass
                elif "commitment" in a:
                    return "reveal"
                else:
                    return "commit"
            elif "choice" not in a:
                return "answer"
        if self.owes_link(who, dec):
            in_file = who in dec.sides and self.links_in_answers(dec)
            if not in_file:
                return "link"
        if who in self.owed_openings(dec):
            return "open"
        return None

    def due(self: _Engine, dec: Decision) -> str | None:
        """The deadline of ``dec`` plus the grace: from then on a claim can be signed."""
        if not dec.deadline:
            return None
        grace = (self.meta.get("policy") or {}).get("grace_hours") or 0
        return protocol.plus_hours(dec.deadline, grace) if grace else dec.deadline

    def link_command(self: _Engine, who: str, dec: Decision) -> str:
        if who == UMPIRE:
            return "the umpire: `hxref resolve GAME --key UMPIRE_KEY`"
        return f"{who}: `hxref roll GAME --side {who} --key KEY --decision {dec.id}`"

    def claim_command(self: _Engine, against: str, dec: Decision) -> str:
        who = UMPIRE if self.mode == "umpired" else "SIDE"
        return f"`hxref claim GAME --side {who} --key KEY --against {against} --decision {dec.id}`"

    def waiting_for(self: _Engine) -> list[dict]:
        """For each awaited decision: who still owes what, and the command to send it."""
        out = []
        for d in self.awaiting:
            pend = self.pending(d.id)
            owed, commands = {}, {}
            parties = list(d.sides) + [w for w in self.dice_parties(d) if w not in d.sides]
            for s in parties:
                what = self.owed_by(s, d)
                a = pend["answers"].get(s, {})
                if what is None:
                    owed[s] = "missed (claimed)" if a.get("nmr") else "done"
                    continue
                if what == "reveal" and not all("commitment" in pend["answers"].get(x, {})
                                                or pend["answers"].get(x, {}).get("nmr") for x in d.sides):
                    owed[s] = "wait (others commit)"
                    continue
                if what == "link" and not self.complete(d):
                    owed[s] = "link (after the answers)"
                    continue
                if s == UMPIRE and what == "link":
                    owed[s] = "resolve"
                    commands[s] = "hxref resolve GAME --key UMPIRE_KEY"
                    continue
                owed[s] = what
                if self.mode == "solo":
                    commands[s] = f"hxref play GAME --side {s}"
                    continue
                commands[s] = {
                    "join": f"hxref join GAME --side {s} --key KEY",
                    "commit": f"hxref commit GAME --side {s} --key KEY --choice ...",
                    "reveal": f"hxref submit GAME {s}-{d.id}-reveal.yaml",
                    "answer": f"hxref answer GAME --side {s} --key KEY --choice ...",
                    "link": f"hxref roll GAME --side {s} --key KEY --decision {d.id}",
                    "open": f"hxref open GAME --side {s} --key KEY",
                    "proof": f"hxref challenge GAME --side {s} --key KEY",
                }[what]
            ready = self.complete(d) and not [w for w in self.missing_links(d) if w != UMPIRE] \
                and d.id != JOIN and self.ready() == [d] and not self.owed_openings(d)
            out.append({"decision": d.id, "kind": d.kind, "prompt": d.prompt, "rule": d.rule, "secret": d.secret,
                        "owed": owed, "commands": commands, "ready": ready, "deadline": d.deadline,
                        "due": self.due(d), "opened": self.opened(d.id)})
        return out

    def waiting_text(self: _Engine) -> str:
        if self.finished:
            f = self.h.get("forfeit")
            return (f"the game is over: {f['side']} forfeits ({f.get('why', 'missed deadlines')})" if f
                    else "the game is over")
        parts = []
        for w in self.waiting_for():
            due = f" (deadline {w['deadline']}, {protocol.time_left(w['deadline'])})" if w.get("deadline") else ""
            parts.append(awaits_text(w) + ("" if w["ready"] else due))
        return "; ".join(parts) or "nothing"

    def deadline_text(self: _Engine, w: dict) -> str:
        """One awaited decision's deadline for people: ``due Sun 13 Dec 16:25 UTC (grace 2 days;
        time left 47h)``, the deadline itself with the grace in words (a claim may be signed once
        the grace too has passed); '' without a deadline."""
        if not w.get("deadline"):
            return ""
        grace = int((self.meta.get("policy") or {}).get("grace_hours") or 0)
        at = protocol.parse_time(w["deadline"]).astimezone(_dt.timezone.utc)
        return (f"due {at:%a %d %b %H:%M} UTC ({f'grace {hours_in_words(grace)}' if grace else 'no grace'}; "
                f"{protocol.time_left(w['deadline'])})")

    # --- claims --------------------------------------------------------------------------------
    def claim_gives(self: _Engine, against: str, dec: Decision, missed: int | None = None) -> tuple[str | None, dict]:
        """What a signed claim against ``against`` for ``dec`` gives now: ``(why, {})`` when it
        forfeits the game, else ``(None, answer)``, the decision's stand-fast answer
        (:meth:`GameSystem.stand_fast`).  ``missed``: the late side's missed deadlines, this one
        counted (by default those recorded, and this one)."""
        owed = self.owed_by(against, dec)
        policy = self.meta.get("policy") or {}
        if missed is None:
            missed = (self.h.get("missed") or {}).get(against, 0) + 1
        limit = policy.get("forfeit_after")
        if owed in ("reveal", "link", "open", "proof"):
            # a withheld reveal, link, opening or proof would let its side choose after seeing the
            # result, or hide a lie: it forfeits, whatever the policy
            return f"withheld its {owed} for {dec.id}", {}
        if policy.get("nmr") == "forfeit":
            return f"missed the deadline of {dec.id} (policy forfeit)", {}
        if limit and missed >= int(limit):
            return f"missed {missed} deadlines (policy forfeit after {limit})", {}
        default = self.system.stand_fast(self.state, dec, against)
        found = schema.check(dec.schema, default, dec.rule) or self.system.check(self.state, dec, against, default)
        if found:
            return f"missed the deadline of {dec.id}, and its default is not legal ({found[0].message})", {}
        return None, default

    def _apply_claim(self: _Engine, decision_id: str, by: str, data: dict) -> None:
        """Record a claim (already checked) and what it gives: the default, or a forfeit."""
        dec = self.decision(decision_id)
        if dec is None:     # the claim's file was kept for this decision, so it is awaited
            raise IllegalOrder(f"no decision {decision_id} is awaited", code="E301")
        pend = self.h["pending"][decision_id]
        against = data["against"]
        owed = self.owed_by(against, dec)
        claim = {"by": by, "against": against, "at": data["at"], "deadline": self.due(dec), "owed": owed,
                 "decision": decision_id}
        missed = self.h.setdefault("missed", {})
        missed[against] = missed.get(against, 0) + 1
        forfeit, default = self.claim_gives(against, dec, missed[against])
        if forfeit:
            claim["outcome"] = f"{against} forfeits the game: {forfeit}"
            claim["forfeit"] = forfeit
        else:
            pend["answers"][against] = {"choice": default, "nmr": True}
            pend["links"].pop(against, None)
            claim["outcome"] = f"{against} stands fast with the default answer {default}"
        pend.setdefault("claims", []).append(claim)
        pend["claims"].sort(key=lambda c: c["against"])

    def claims_text(self: _Engine) -> list[str]:
        """For each side that owes something now, what a signed claim against it would give."""
        import json

        out = []
        for w in self.waiting_for():
            dec = self.decision(w["decision"])
            if dec is None or dec.id == JOIN:
                continue
            for who, what in w["owed"].items():
                # a claim is made against a side (the umpire resolves; nobody claims against him)
                if who not in self.sides() or what in ("done", "missed (claimed)") or what.startswith("wait") \
                        or what.startswith("link (after"):
                    continue
                forfeit, default = self.claim_gives(who, dec)
                gives = f"a forfeit ({forfeit})" if forfeit else \
                    "stand-fast: " + json.dumps(default, ensure_ascii=False, separators=(", ", ": "))
                out.append(f"a signed claim against {who} gives {gives}")
        return out

    def _claim_forfeits(self: _Engine, decision_id: str, against: str | None = None) -> dict | None:
        for c in self.pending(decision_id).get("claims", []):
            if c.get("forfeit") and (against is None or c["against"] == against):
                return c
        return None

    def _forfeit(self: _Engine, dec: Decision, claim: dict, pend: dict) -> None:
        self.h["pending"].pop(dec.id, None)
        self._emit("rules", None, {"decision": dec.id, "nmr": True, **claim, "text": _claim_text(claim)})
        self.h["forfeit"] = {"side": claim["against"], "decision": dec.id, "by": claim["by"],
                             "why": claim["forfeit"], "missed": self.h.get("missed", {}).get(claim["against"], 1)}
        self.h["awaiting"] = []
        self.h["phase"] = "over"

    # --- withdrawal by consent ----------------------------------------------------------------
    def undo_voters(self: _Engine, author: str | None = None) -> list[str]:
        """Who signs the withdrawal of ``author``'s file: every side in an open game; the author and
        the umpire in an umpired one."""
        if self.mode == "umpired":
            return sorted({UMPIRE, *([author] if author else [])})
        return sorted(self.sides())

    def undo_target(self: _Engine, side: str | None = None) -> dict | None:
        """The kept files that may still be withdrawn (an answer or commitment that no link or
        reveal answered yet): the first of ``side``'s, or of anyone's."""
        for d in self.awaiting:
            files = self.pending(d.id)["files"]
            if any(f["kind"] in ("roll", "reveal") for f in files):
                continue
            for f in files:
                if f["kind"] in ("answer", "commit") and (side is None or f["party"] == side
                                                         or side in self.undo_voters(f["party"])):
                    return {"decision": d.id, **f}
        return None

    def _undo_agreed(self: _Engine, decision_id: str, target: str) -> bool:
        pend = self.pending(decision_id)
        found = next((f for f in pend["files"] if f["sha256"] == target), None)
        return found is not None and set(pend.get("undo", {}).get(target, [])) >= set(self.undo_voters(found["party"]))

    def _drop_moot_votes(self: _Engine, decision_id: str) -> None:
        """Forget the proposed withdrawals of ``decision_id`` whose file became final (a reveal or a
        dice link may now answer it): they can no longer be agreed, and every copy, whether a vote
        reached it before or after what made it final, then keeps the same files."""
        dec = self.decision(decision_id)
        pend = self.h["pending"].get(decision_id) or {}
        for target in list(pend.get("undo") or {}):
            found = next((f for f in pend["files"] if f["sha256"] == target), None)
            if dec is None or found is None or not withdrawable(cast("Engine", self), dec, pend, found):
                self._drop_votes(decision_id, target)

    def _drop_votes(self: _Engine, decision_id: str, target: str | None = None) -> None:
        """Forget the proposed withdrawals of ``target`` (None: of every file) of ``decision_id``."""
        pend = self.h["pending"].get(decision_id)
        if not pend or not pend.get("undo"):
            return
        pend["files"] = [f for f in pend["files"] if f["kind"] != "undo"
                         or (target is not None and f.get("target") != target)]
        for t in [t for t in pend["undo"] if target is None or t == target]:
            pend["undo"].pop(t)
        if not pend["undo"]:
            pend.pop("undo")

    def _withdraw(self: _Engine, decision_id: str, target: str) -> None:
        """Withdraw a kept file by consent: it leaves the decision, and the block says so."""

        pend = self.h["pending"][decision_id]
        found = next(f for f in pend["files"] if f["sha256"] == target)
        order = orders.parse(found["file"], "withdrawn", fast=True)
        voters = pend.get("undo", {}).pop(target, [])
        pend["files"] = [f for f in pend["files"] if f["sha256"] != target
                         and not (f["kind"] == "undo" and f.get("target") == target)]
        who = found["party"]
        pend["answers"].pop(who, None)
        if order.data.get("link") == pend["links"].get(who):
            pend["links"].pop(who, None)
        # the withdrawn file stays spent: submitted again (by whoever holds it) it is refused, and its
        # commitment stays used
        self.h["withdrawn"] = sorted(set(self.h.get("withdrawn", [])) | {target})
        if not pend.get("undo"):
            pend.pop("undo", None)
        self._emit("rules", None, {"decision": decision_id, "withdrawn": target, "side": None,
                                   "text": f"{who}'s {found['kind']} for {decision_id} (file sha256:{target[:16]}) "
                                           f"was withdrawn by the consent of {', '.join(voters)}"})
        if not pend["files"]:
            self.h["pending"].pop(decision_id)


def awaits_text(w: dict) -> str:
    """What one entry of :meth:`ClaimsMixin.waiting_for` awaits now: ``t1.bid awaits union (commit)``,
    or that it is ready to resolve."""
    if w["ready"]:
        return f"{w['decision']} is ready: run `hxref resolve`"
    owed = [f"{s} ({what})" for s, what in w["owed"].items()
            if what not in ("done", "missed (claimed)") and not what.startswith("wait")
            and not what.startswith("link (after")]
    return f"{w['decision']} awaits " + (", ".join(owed) or "the decisions before it")


def hours_in_words(hours: int) -> str:
    """``2 days``, ``1 day 12 hours``, ``12 hours``: a span of whole hours for people."""
    if hours <= 0:
        return "0 hours"
    days, rest = divmod(hours, 24)
    words = ([f"{days} day{'s' if days > 1 else ''}"] if days else []) + \
        ([f"{rest} hour{'s' if rest > 1 else ''}"] if rest else [])
    return " ".join(words)
