"""The PBEM core: creating games, accepting signed submissions, resolving
decisions with verifiable dice, and replaying the log for ``hxref audit``.

The log holds *input* events (``game.created``, ``submission``, ``link``,
``resolve``) and the events they *produce* (``game.started``, ``die``,
``rules``).  Live commands and the audit replay go through the same
``_apply`` functions: the audit re-applies every input event to a fresh game
and checks that every produced event, hash for hash, is the one stored, and
that the header snapshot equals the replayed state.
"""
from __future__ import annotations

import copy
import datetime as _dt
import functools
import json
import os
import secrets as _secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from . import commit as commit_mod
from . import dice as dice_mod
from . import orders, systems
from .canon import canonical_json, sha256_hex
from .errors import HxrefError, IllegalOrder, InvalidInput
from .game import GENESIS, GameFile, event_hash, new_header
from .systems.base import Decision

MODES = ("open", "umpired", "solo")
UMPIRE = "umpire"
JOIN = "join"
INPUT_KINDS = ("game.created", "submission", "answer", "link", "resolve", "undo", "nmr")
NMR_POLICIES = ("hold", "stand-fast")   # after a deadline: wait, or answer for the late side (issue 9)
UNDOABLE = ("answer", "resolve")        # solo games: what `hxref undo` steps back over, one at a time


@functools.lru_cache(maxsize=64)
def _public_key(line: str):
    from .signing import PublicKey

    return PublicKey.from_line(line)


def now_iso() -> str:
    """The current UTC time; ``HXREF_NOW`` fixes it (reproducible demos and tests)."""
    fixed = os.environ.get("HXREF_NOW")
    if fixed:
        return fixed
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def join_decision(names: list[str]) -> Decision:
    return Decision(
        id=JOIN, sides=tuple(names), kind="join", rule="design 5",
        prompt="send the tip of your dice chain (`hxref join`); the game starts when everyone has joined",
    )


@dataclass
class Receipt:
    """What a player keeps as proof that a submission was accepted (issue 9 item 4b)."""

    game: str
    decision: str
    side: str
    kind: str
    file_sha256: str
    head: str
    seq: int

    def line(self) -> str:
        return (f"accepted: game {self.game} decision {self.decision} side {self.side} ({self.kind}) "
                f"file sha256:{self.file_sha256[:16]} head {self.head[:16]} (event {self.seq})")


@dataclass
class Resolution:
    decision: str
    rolls: list[dict] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)


class Engine:
    """One game, in memory; :meth:`save` writes it back atomically."""

    def __init__(self, gf: GameFile):
        self.gf = gf
        self.h = gf.header
        self.system = systems.get(self.h["meta"]["system"])

    # --- accessors -------------------------------------------------------------------------
    @property
    def meta(self) -> dict:
        return self.h["meta"]

    @property
    def mode(self) -> str:
        return self.meta["mode"]

    @property
    def participants(self) -> dict:
        return self.h["participants"]

    @property
    def state(self) -> dict:
        return self.h["state"]

    @property
    def awaiting(self) -> list[Decision]:
        raw = self.h["awaiting"]
        cached = getattr(self, "_awaiting_cache", None)
        if cached is None or cached[0] is not raw:
            cached = (raw, [Decision.from_dict(d) for d in raw])
            self._awaiting_cache = cached
        return cached[1]

    @property
    def finished(self) -> bool:
        return self.h.get("phase") == "over"

    def sides(self) -> list[str]:
        return [n for n, p in self.participants.items() if p["role"] == "side"]

    def decision(self, decision_id: str) -> Decision | None:
        for d in self.awaiting:
            if d.id == decision_id:
                return d
        return None

    @classmethod
    def load(cls, path: str | Path) -> "Engine":
        gf = GameFile.load(path)
        try:
            return cls(gf)
        except KeyError as exc:
            raise InvalidInput(f"the game file lacks {exc}", code="E500", file=str(path)) from None

    def save(self) -> None:
        self.gf.save()

    # --- creating a game -------------------------------------------------------------------
    @classmethod
    def create(cls, path: str | Path, *, system: str, scenario: str, sides: dict[str, Any], mode: str,
               umpire: Any = None, game_id: str | None = None, created: str | None = None,
               title: str | None = None, options: Sequence[str] = (), policy: dict | None = None) -> "Engine":
        """A new game; ``sides`` maps each side to its public key (None in solo mode); ``options``
        names the system's optional rules the players switch on (added to the scenario's own)."""
        if mode not in MODES:
            raise InvalidInput(f"unknown mode {mode!r}; one of {', '.join(MODES)}", code="E504")
        sysobj = systems.get(system)
        data = sysobj.load_scenario(scenario)
        known = getattr(sysobj, "optional_rules", {})
        for name in options:
            if name not in known:
                raise InvalidInput(f"{system} has no optional rule {name!r}; "
                                   + (f"its optional rules: {', '.join(sorted(known))}" if known else "it has none"),
                                   code="E504")
        if options:
            data = dict(data, options={**(data.get("options") or {}), **{n: True for n in options}})
        expected = list(data["sides"])
        if sorted(sides) != sorted(expected):
            raise InvalidInput(f"scenario {scenario!r} has the sides {', '.join(expected)}; "
                               f"give each with --side NAME=KEY.pub", code="E504")
        if mode != "solo" and any(k is None for k in sides.values()):
            raise InvalidInput(f"a {mode} game needs a public key for every side (--side NAME=KEY.pub)", code="E504")
        if mode == "umpired" and umpire is None:
            raise InvalidInput("an umpired game needs the umpire's public key (--umpire KEY.pub)", code="E504")
        if mode != "umpired" and umpire is not None:
            raise InvalidInput("--umpire is only for --mode umpired", code="E504")
        participants: dict[str, dict] = {}
        for name in expected:
            key = sides[name]
            participants[name] = {"role": "side"}
            if key is not None:
                participants[name].update(key=key.line(), fingerprint=key.fingerprint())
        if umpire is not None:
            participants[UMPIRE] = {"role": "umpire", "key": umpire.line(), "fingerprint": umpire.fingerprint()}
        created = created or now_iso()
        game_id = game_id or f"{system.replace('-', '')[:4]}-{created[:10]}-{_secrets.token_hex(3)}"
        meta = {"game": game_id, "system": system, "scenario": scenario, "mode": mode, "created": created,
                "title": title or data.get("title", scenario)}
        policy = _check_policy(policy or {})
        if policy:
            meta["policy"] = policy
        gf = GameFile(Path(path), new_header(meta, {}))
        eng = cls(gf)
        created_data = {"meta": meta, "participants": participants, "scenario": data}
        if mode == "solo":
            created_data["solo_seed"] = _secrets.token_hex(32)
        eng._apply("game.created", None, created_data)
        return eng

    # --- the one place where events are applied (live and in replay) -----------------------
    def _apply(self, kind: str, by: str | None, data: dict, order: orders.Order | None = None,
               known_hash: str | None = None) -> None:
        """Append an input event and apply it; ``order`` passes an already parsed submission.

        The data is applied exactly as the log will hold it (canonical JSON, keys sorted), so a live
        game and its replay iterate every mapping in the same order.
        """
        if known_hash is None:
            data = json.loads(canonical_json(data))
        self.gf.append(kind, by, data, known_hash)
        handler = getattr(self, "_on_" + kind.replace(".", "_"))
        if kind == "submission":
            handler(by, data, order)
        else:
            handler(by, data)

    def _emit(self, kind: str, by: str | None, data: dict) -> dict:
        """A produced event: appended to the log, never applied from outside."""
        return self.gf.append(kind, by, data)

    def _on_game_created(self, by, data: dict) -> None:
        self.h["meta"] = copy.deepcopy(data["meta"])
        self.h["participants"] = copy.deepcopy(data["participants"])
        self.h["scenario"] = data["scenario"]
        self.h["phase"] = "setup"
        self.h["commitments"] = []
        self.h["resolved"] = []
        if "solo_seed" in data:
            self.h["solo_seed"] = data["solo_seed"]
        chain_holders = [n for n, p in self.participants.items() if "key" in p]
        if self.meta["mode"] == "solo" or not chain_holders:
            self._start()
        else:
            self.h["awaiting"] = [join_decision(chain_holders).to_dict()]

    def _start(self) -> None:
        # the scenario is kept in the log's first event; the snapshot needs it only until the start
        scenario = copy.deepcopy(self.h.pop("scenario"))
        scenario["table_mode"] = self.meta["mode"]        # open / umpired / solo: who may hold secrets
        self.h["state"] = self.system.setup(scenario)
        self.h["phase"] = "playing"
        self._emit("game.started", None, {})
        self._refresh_awaiting(self.meta.get("created"))

    def _refresh_awaiting(self, at: str | None = None) -> None:
        """What the rules await now; with a deadline policy, each newly awaited decision is due
        ``deadline_hours`` after ``at`` (the time of the event that opened it)."""
        decisions = self.system.decisions(self.state)
        old = {d["id"]: d.get("deadline") for d in self.h.get("awaiting") or []}
        hours = (self.meta.get("policy") or {}).get("deadline_hours")
        out = []
        for d in decisions:
            dd = d.to_dict()
            if dd.get("deadline") is None:
                dd["deadline"] = old.get(d.id) or (_plus_hours(at, hours) if hours and at else None)
            out.append(dd)
        self.h["awaiting"] = out
        if not decisions:
            self.h["phase"] = "over"

    # --- submissions -----------------------------------------------------------------------
    def check(self, text: str, source: str, detached: str | None = None) -> orders.Order:
        """Every check of :meth:`submit`, without storing anything."""
        order = orders.parse(text, source)
        if detached is not None:
            order.armored = detached
        self._accept(order, detached is not None)
        return order

    def submit(self, text: str, source: str, detached: str | None = None) -> Receipt:
        """Check a signed order file and store it; raise an HxrefError and change nothing if it is bad."""
        order = self.check(text, source, detached)
        data = {"decision": order.decision, "side": order.side, "kind": order.kind, "file": order.text,
                "sha256": sha256_hex(order.text.encode("utf-8")), "at": now_iso()}
        if detached is not None:
            data["sig"] = detached
        self._apply("submission", order.side, data, order)
        return Receipt(self.meta["game"], order.decision, order.side, order.kind, data["sha256"],
                       self.gf.head, len(self.gf.log))

    def _on_submission(self, by, data: dict, order: orders.Order | None = None) -> None:
        if order is None:
            order = orders.parse(data["file"], f"event {len(self.gf.log)}", fast=True)
            if "sig" in data:
                order.armored = data["sig"]
        self._store(order)

    def _accept(self, order: orders.Order, detached: bool = False, signer: bytes | None = None) -> None:
        """All checks of a submission against the game (signature, decision, chain, commit-reveal, rules).

        ``signer`` is the raw key of a signature already verified (the audit's parallel pre-pass): then
        only its owner is checked here.
        """
        from .signing import sshsig_verify, verify_text

        meta = self.meta
        if order.game != meta["game"]:
            raise order.error(InvalidInput, f"this file is for game {order.game!r}, not {meta['game']!r}",
                              code="E300", path=("game",))
        p = self.participants.get(order.side)
        if p is None or "key" not in p:
            known = ", ".join(n for n, q in self.participants.items() if "key" in q) or "none with keys"
            raise order.error(InvalidInput, f"no participant {order.side!r} with a key in this game ({known})",
                              code="E302", path=("side",))
        expected = _public_key(p["key"])
        if signer is not None:
            if signer != expected.raw:
                raise InvalidInput(f"signed by a key that is not {order.side}'s key", code="E202",
                                   file=order.source)
        elif order.armored is not None and not detached:
            sshsig_verify(order.armored, order.body.encode("utf-8"), expected=expected, source=order.source)
        else:   # unsigned (a clear error) or a detached signature over the whole file
            verify_text(order.text, source=order.source, expected=expected,
                        detached=order.armored if detached else None)
        if self.finished:
            raise order.error(IllegalOrder, "the game is over; nothing more is accepted", code="E309")
        if order.kind == "undo":
            self._check_undo_vote(order)
            return
        dec = self.decision(order.decision)
        if dec is None:
            if order.decision in self.h.get("resolved", []):
                raise order.error(IllegalOrder, f"decision {order.decision} was already resolved; "
                                  "this file is stale or replayed", code="E301", path=("decision",))
            now = ", ".join(d.id for d in self.awaiting) or "nothing"
            raise order.error(IllegalOrder, f"no decision {order.decision!r} is awaited (awaited now: {now})",
                              code="E301", path=("decision",))
        pend = self.h["pending"].get(dec.id, {"answers": {}, "links": []})
        mine = pend["answers"].get(order.side, {})
        kind = order.kind
        if kind in ("reveal", "answer"):
            orders.check_choice(order, dec)     # the shape first: keys and types
        asked = order.side in dec.sides
        if kind == "join":
            if dec.id != JOIN or not asked:
                raise order.error(IllegalOrder, "a join file answers only the `join` decision", code="E304")
            if mine:
                raise order.error(IllegalOrder, f"{order.side} has already joined", code="E303")
            return
        if dec.id == JOIN:
            raise order.error(IllegalOrder, "the game waits for every participant to join first (`hxref join`)",
                              code="E304", path=("kind",))
        if kind == "roll":
            if any(who == order.side for who, _ in pend["links"]):
                raise order.error(IllegalOrder, f"{order.side} has already given a dice link for {dec.id}",
                                  code="E303")
        elif not asked:
            raise order.error(IllegalOrder, f"decision {dec.id} is for {', '.join(dec.sides)}, not {order.side}",
                              code="E302", path=("side",))
        elif kind == "commit":
            if not dec.secret:
                raise order.error(IllegalOrder, f"decision {dec.id} is not secret: answer it with `hxref answer`",
                                  code="E304", path=("kind",))
            if "commitment" in mine:
                raise order.error(IllegalOrder, f"{order.side} has already committed for {dec.id}; "
                                  "a second commitment is not accepted", code="E303", rule=dec.rule)
            c = order.data["commitment"]
            if c in self.h["commitments"]:
                raise order.error(IllegalOrder, "this commitment was used before in this game "
                                  "(replayed or copied); make a new one with `hxref commit`",
                                  code="E306", path=("commitment",))
        elif kind == "reveal":
            if not dec.secret:
                raise order.error(IllegalOrder, f"decision {dec.id} is not secret: answer it with `hxref answer`",
                                  code="E304", path=("kind",))
            if "commitment" not in mine:
                raise order.error(IllegalOrder, f"{order.side} has not committed for {dec.id}: "
                                  "send the commit file first", code="E304")
            if "choice" in mine:
                raise order.error(IllegalOrder, f"{order.side} has already revealed for {dec.id}", code="E303")
            missing = [s for s in dec.sides if "commitment" not in pend["answers"].get(s, {})]
            if missing:
                raise order.error(IllegalOrder, f"reveal sent before all commitments are in "
                                  f"(waiting for {', '.join(missing)}); keep it and send it later",
                                  code="E304", rule=dec.rule)
            if not commit_mod.matches(mine["commitment"], order.data["choice"], order.data["salt"]):
                raise order.error(IllegalOrder, "the choice and salt do not match the commitment sent earlier",
                                  code="E305", path=("choice",))
        elif kind == "answer":
            if dec.secret:
                raise order.error(IllegalOrder, f"decision {dec.id} is secret: send a commitment "
                                  "(`hxref commit`), then the reveal", code="E304", path=("kind",))
            if "choice" in mine:
                raise order.error(IllegalOrder, f"{order.side} has already answered {dec.id}", code="E303")
        # the dice chain
        if not p.get("last"):
            raise order.error(IllegalOrder, f"{order.side} has not joined the game", code="E307")
        if not dice_mod.link_follows(order.data["link"], p["last"]):
            raise order.error(IllegalOrder, f"the dice link is not {order.side}'s next link (link "
                              f"{p.get('used', 0) + 1}); the file is stale or was written before another of "
                              f"{order.side}'s files was accepted: write it again", code="E307", path=("link",))
        if kind in ("reveal", "answer"):
            orders.raise_problems(order, self.system.check(self.state, dec, order.side, order.data["choice"]))

    def _store(self, order: orders.Order) -> None:
        """Record an accepted submission in the header (the log event is already appended)."""
        p = self.participants[order.side]
        pend = self.h["pending"].setdefault(order.decision, {"answers": {}, "links": []})
        answers = pend["answers"]
        d = order.data
        if order.kind == "join":
            p["tip"] = p["last"] = d["tip"]
            p["used"] = 0
            answers[order.side] = {"joined": True}
            dec = self.decision(JOIN)
            if dec and all(s in answers for s in dec.sides):
                self.h["pending"].pop(JOIN)
                self.h["resolved"].append(JOIN)
                self._start()
            return
        if order.kind == "undo":
            if not pend["answers"] and not pend["links"]:
                self.h["pending"].pop(order.decision, None)
            self._undo_vote(order)
            return
        p["last"] = d["link"]
        p["used"] = p.get("used", 0) + 1
        pend["links"].append([order.side, d["link"]])
        mine = answers.setdefault(order.side, {}) if order.kind != "roll" else None
        if order.kind == "commit":
            mine["commitment"] = d["commitment"]
            self.h["commitments"].append(d["commitment"])
        elif order.kind == "reveal":
            mine["choice"] = d["choice"]
            mine["salt"] = d["salt"]
        elif order.kind == "answer":
            mine["choice"] = d["choice"]

    # --- solo games: answers typed at the terminal, no files, no keys -------------------------
    def answer_solo(self, side: str, decision_id: str | None, choice: dict) -> None:
        """Store ``side``'s answer in a solo game (secret decisions need no commit-reveal there)."""
        if self.mode != "solo":
            raise InvalidInput(f"a {self.mode} game takes signed files: `hxref answer --key` or `hxref commit`",
                               code="E304")
        dec = self.open_decision_for(side, decision_id, ("answer",))
        data = {"decision": dec.id, "side": side, "choice": choice, "at": now_iso()}
        self._check_answer(side, data)
        self._apply("answer", side, data)

    def _check_answer(self, side: str, data: dict) -> Decision:
        dec = self.decision(data["decision"])
        if dec is None or side not in dec.sides:
            raise InvalidInput(f"nothing is awaited from {side} for {data['decision']}", code="E301")
        if "choice" in self.h["pending"].get(dec.id, {}).get("answers", {}).get(side, {}):
            raise InvalidInput(f"{side} has already answered {dec.id}", code="E303")
        order = orders.Order(source="--choice", text="", body="", armored=None, data={"choice": data["choice"]})
        orders.check_choice(order, dec)
        orders.raise_problems(order, self.system.check(self.state, dec, side, data["choice"]))
        return dec

    def _on_answer(self, by, data: dict) -> None:
        dec = self._check_answer(by, data)
        self.h["pending"].setdefault(dec.id, {"answers": {}, "links": []})["answers"][by] = {"choice": data["choice"]}

    # --- resolution ------------------------------------------------------------------------
    def complete(self, dec: Decision) -> bool:
        answers = self.h["pending"].get(dec.id, {}).get("answers", {})
        return dec.id != JOIN and all("choice" in answers.get(s, {}) for s in dec.sides)

    def dice_parties(self, dec: Decision) -> list[str]:
        """Whose links the dice of ``dec`` need (design section 4)."""
        if self.mode == "solo":
            return []
        if self.mode == "umpired":
            return [UMPIRE] + [s for s in dec.sides]
        return self.sides()

    def missing_links(self, dec: Decision) -> list[str]:
        have = {who for who, _ in self.h["pending"].get(dec.id, {}).get("links", [])}
        answers = self.h["pending"].get(dec.id, {}).get("answers", {})
        have |= {s for s, a in answers.items() if a.get("nmr")}      # a late side sends no dice link
        return [w for w in self.dice_parties(dec) if w not in have]

    def ready(self) -> list[Decision]:
        return [d for d in self.awaiting if self.complete(d)]

    def resolve(self, umpire_key=None) -> list[Resolution]:
        """Resolve every decision whose answers are all in; raise E308 when none is."""
        done: list[Resolution] = []
        while True:
            ready = self.ready()
            if not ready:
                break
            dec = ready[0]
            blocked = dec.dice and (
                (self.mode == "umpired" and UMPIRE in self.missing_links(dec) and umpire_key is None)
                or [w for w in self.missing_links(dec) if w != UMPIRE])
            if blocked and done:
                break   # keep what was resolved; the next decision waits for its dice links
            if dec.dice and self.mode == "umpired" and UMPIRE in self.missing_links(dec):
                if umpire_key is None:
                    raise InvalidInput(f"decision {dec.id} rolls dice: the umpire resolves it with "
                                       "`hxref resolve GAME --key UMPIRE_KEY`", code="E308")
                self._apply("link", UMPIRE, {"decision": dec.id, "link": self.next_link(UMPIRE, umpire_key)})
            missing = self.missing_links(dec) if dec.dice else []
            if missing:
                raise InvalidInput(f"decision {dec.id} rolls dice and needs a dice link from "
                                   f"{', '.join(missing)}: each sends `hxref roll`", code="E308")
            start = len(self.gf.log)
            self._apply("resolve", None, {"decision": dec.id, "at": now_iso()})
            produced = self.gf.log[start + 1:]
            done.append(Resolution(dec.id, [e["data"] for e in produced if e["kind"] == "die"],
                                   [e["data"] for e in produced if e["kind"] == "rules"]))
        if not done:
            raise InvalidInput("nothing to resolve yet: " + self.waiting_text(), code="E308")
        return done

    def _on_link(self, by, data: dict) -> None:
        p = self.participants[by]
        if not dice_mod.link_follows(data["link"], p["last"]):
            raise InvalidInput(f"{by}'s dice link does not follow its chain", code="E307")
        p["last"] = data["link"]
        p["used"] = p.get("used", 0) + 1
        self.h["pending"].setdefault(data["decision"], {"answers": {}, "links": []})["links"].append([by, data["link"]])

    # --- deadlines and missed orders (issue 9) -----------------------------------------------
    def apply_nmr(self, now: str) -> list[dict]:
        """Apply the game's NMR policy to every decision past its deadline at ``now``: ``hold``
        reports the late sides; ``stand-fast`` answers for them with the decision's own "stand
        fast" answer (its example, when the rules accept it), logged as an ``nmr`` input event;
        ``forfeit_after`` N missed decisions ends the game for that side."""
        policy = self.meta.get("policy") or {}
        if not policy or self.finished:
            return []
        out = []
        grace = float(policy.get("grace_hours", 0) or 0)
        for d in list(self.awaiting):
            if not d.deadline or self.finished or now <= (_plus_hours(d.deadline, grace) if grace else d.deadline):
                continue
            answers = self.h["pending"].get(d.id, {}).get("answers", {})
            for side in d.sides:
                if "choice" in answers.get(side, {}) or self.finished:
                    continue
                item = {"decision": d.id, "side": side, "policy": policy["nmr"], "applied": False}
                if policy["nmr"] == "stand-fast":
                    choice = dict(d.example)
                    found = self.system.check(self.state, d, side, choice)
                    if found:
                        item["why"] = f"no stand-fast answer the rules accept ({found[0].message}): held"
                    else:
                        self._apply("nmr", None, {"decision": d.id, "side": side, "policy": "stand-fast",
                                                  "deadline": d.deadline, "at": now, "choice": choice})
                        item.update(applied=True, choice=choice, forfeit=bool(self.h.get("forfeit")))
                out.append(item)
        return out

    def _on_nmr(self, by, data: dict) -> None:
        side = data["side"]
        pend = self.h["pending"].setdefault(data["decision"], {"answers": {}, "links": []})
        pend["answers"][side] = {"choice": data["choice"], "nmr": True}
        missed = self.h.setdefault("missed", {})
        missed[side] = missed.get(side, 0) + 1
        limit = (self.meta.get("policy") or {}).get("forfeit_after")
        if limit and missed[side] >= int(limit):
            self.h["forfeit"] = {"side": side, "missed": missed[side]}
            self.h["awaiting"] = []
            self.h["phase"] = "over"

    # --- undo by consent (open and umpired games) --------------------------------------------
    def undo_target(self) -> dict | None:
        """The submission an undo may reach: the last one not undone, after the last die or reveal."""
        undone = set(self.h.get("undone", []))
        for ev in reversed(self.gf.log):
            if ev["kind"] == "die" or (ev["kind"] == "submission" and ev["data"].get("kind") == "reveal"):
                return None
            if ev["kind"] == "resolve":
                return None
            if ev["kind"] == "submission" and ev["data"].get("kind") in ("answer", "commit", "roll") \
                    and ev["seq"] not in undone:
                return ev
        return None

    def undo_voters(self) -> list[str]:
        """Who must sign an undo: every side in an open game; the umpire alone in an umpired one."""
        return [UMPIRE] if self.mode == "umpired" else self.sides()

    def _check_undo_vote(self, order: orders.Order) -> None:
        target = self.undo_target()
        seq = order.data["event"]
        if target is None or target["seq"] != seq:
            what = f"event {target['seq']}" if target else "nothing (the last die or reveal is final)"
            raise order.error(IllegalOrder, f"event {seq} cannot be undone: an undo reaches only the last "
                              f"submission after the last die or reveal, now {what}", code="E304", path=("event",))
        if order.side not in self.undo_voters():
            raise order.error(IllegalOrder, f"in a {self.mode} game the undo is signed by "
                              f"{', '.join(self.undo_voters())}", code="E302", path=("side",))
        if order.side in self.h.get("undo_votes", {}).get(str(seq), []):
            raise order.error(IllegalOrder, f"{order.side} has already signed the undo of event {seq}",
                              code="E303")

    def _undo_vote(self, order: orders.Order) -> None:
        seq = order.data["event"]
        votes = self.h.setdefault("undo_votes", {}).setdefault(str(seq), [])
        votes.append(order.side)
        if set(votes) >= set(self.undo_voters()):
            self._rebuild_without(seq)
            self.h["undo_votes"].pop(str(seq))

    def _rebuild_without(self, seq: int) -> None:
        """Rebuild the game from its inputs without event ``seq`` and the undo files; the dice
        chains stay where they are (a revealed link is never used again)."""
        undone = set(self.h.get("undone", [])) | {seq}
        fresh = Engine.__new__(Engine)
        fresh.gf = GameFile(self.gf.path, new_header({"system": self.meta["system"]}, {}))
        fresh.h = fresh.gf.header
        fresh.system = self.system
        for ev in self.gf.log:
            if ev["kind"] not in INPUT_KINDS or ev["kind"] == "undo" or ev["seq"] in undone:
                continue
            if ev["kind"] == "submission" and ev["data"].get("kind") == "undo":
                continue
            getattr(fresh, "_on_" + ev["kind"].replace(".", "_"))(ev["by"], ev["data"])
        for key in ("state", "awaiting", "pending", "phase", "resolved", "commitments"):
            if key in fresh.h:
                self.h[key] = fresh.h[key]
        self.h["undone"] = sorted(undone)

    # --- undo (solo games) -----------------------------------------------------------------
    def undo(self) -> dict:
        """Step back over the last answer or resolution (solo games): appends an ``undo`` event
        and rebuilds the game from every input not undone.  Returns the event undone.

        The dice of a decision depend only on the game and the decision, so answering it again
        rolls the same dice: undo cannot be used to fish for better rolls."""
        if self.mode != "solo":
            raise InvalidInput(f"undo in a {self.mode} game needs the signed consent of every other side "
                               "(or the umpire), which hxref does not take yet; nothing was changed", code="E504")
        undone = set(self.h.get("undone", []))
        target = next((ev for ev in reversed(self.gf.log) if ev["kind"] in UNDOABLE and ev["seq"] not in undone),
                      None)
        if target is None:
            raise InvalidInput("nothing to undo: no answer or resolution is left", code="E308")
        self._apply("undo", None, {"event": target["seq"], "kind": target["kind"],
                                   "decision": target["data"].get("decision"), "at": now_iso()})
        return target

    def _on_undo(self, by, data: dict) -> None:
        undone = set(self.h.get("undone", [])) | {int(data["event"])}
        fresh = Engine.__new__(Engine)
        fresh.gf = GameFile(self.gf.path, new_header({"system": self.meta["system"]}, {}))
        fresh.h = fresh.gf.header
        fresh.system = self.system
        for ev in self.gf.log:
            if ev["kind"] in INPUT_KINDS and ev["kind"] != "undo" and ev["seq"] not in undone:
                if ev["kind"] == "submission":
                    raise InvalidInput("undo does not reach back over signed submissions", code="E504")
                getattr(fresh, "_on_" + ev["kind"].replace(".", "_"))(ev["by"], ev["data"])
        for key in ("state", "awaiting", "pending", "phase", "resolved", "commitments", "participants"):
            if key in fresh.h:
                self.h[key] = fresh.h[key]
        self.h["undone"] = sorted(undone)

    def _on_resolve(self, by, data: dict) -> None:
        dec = self.decision(data["decision"])
        if dec is None or not self.complete(dec):
            raise InvalidInput(f"decision {data['decision']} cannot be resolved now", code="E308")
        pend = self.h["pending"].pop(dec.id)
        answers = {s: pend["answers"][s]["choice"] for s in dec.sides}
        if self.mode == "solo":
            seed = dice_mod.solo_seed(self.h["solo_seed"], self.meta["game"], dec.id)
        else:
            seed = dice_mod.dice_seed(self.meta["game"], dec.id, [(w, l) for w, l in pend["links"]])
        dice = dice_mod.Dice(seed)
        # the engine keeps no other reference to the state, so the system may update it in place
        state, events = self.system.resolve(self.state, dec, answers, dice)
        if dice.rolls and not dec.dice:
            raise RuntimeError(f"rules rolled dice for {dec.id}, which was declared without dice")
        for roll in dice.rolls:
            self._emit("die", roll.by, {"decision": dec.id, **roll.to_dict()})
        for ev in events:
            self._emit("rules", ev.get("side"), {"decision": dec.id, **ev})
        self.h["state"] = state
        self.h["resolved"].append(dec.id)
        self._refresh_awaiting(data.get("at"))

    # --- writing files for a side ------------------------------------------------------------
    def next_link(self, who: str, key, ahead: int = 1) -> str:
        """``who``'s next unrevealed link (``ahead`` = 2 for the one after)."""
        p = self.participants[who]
        if p.get("key") != key.public.line() and p.get("fingerprint") != key.public.fingerprint():
            raise InvalidInput(f"that key is not {who}'s key in this game (expected {p.get('fingerprint')})",
                               code="E202")
        if not p.get("last"):
            raise InvalidInput(f"{who} has not joined this game yet: `hxref join`", code="E307")
        seed = dice_mod.chain_seed(key, self.meta["game"])
        index = p.get("used", 0) + ahead
        if index > dice_mod.CHAIN_LENGTH:
            raise InvalidInput(f"{who}'s dice chain is used up", code="E307")
        return dice_mod.chain_link(seed, index)

    def tip_for(self, key) -> str:
        return dice_mod.chain_tip(dice_mod.chain_seed(key, self.meta["game"]))

    def open_decision_for(self, side: str, decision_id: str | None, kinds: tuple[str, ...]) -> Decision:
        cands = [d for d in self.awaiting if side in d.sides or "roll" in kinds]
        if decision_id:
            cands = [d for d in cands if d.id == decision_id]
        if not cands:
            raise InvalidInput(f"nothing is awaited from {side} now: " + self.waiting_text(), code="E301")
        return cands[0]

    # --- what is awaited ---------------------------------------------------------------------
    def waiting_for(self) -> list[dict]:
        """For each awaited decision: who still owes what."""
        out = []
        for d in self.awaiting:
            answers = self.h["pending"].get(d.id, {}).get("answers", {})
            owed = {}
            for s in d.sides:
                a = answers.get(s, {})
                if d.id == JOIN:
                    owed[s] = "done" if a else "join"
                elif d.secret:
                    if "choice" in a:
                        owed[s] = "done"
                    elif "commitment" in a:
                        committed_all = all("commitment" in answers.get(x, {}) for x in d.sides)
                        owed[s] = "reveal" if committed_all else "wait (others commit)"
                    else:
                        owed[s] = "commit"
                else:
                    owed[s] = "done" if "choice" in a else "answer"
            out.append({"decision": d.id, "kind": d.kind, "prompt": d.prompt, "rule": d.rule, "secret": d.secret,
                        "owed": owed, "ready": self.complete(d), "deadline": d.deadline})
        return out

    def waiting_text(self) -> str:
        if self.finished:
            f = self.h.get("forfeit")
            return (f"the game is over: {f['side']} forfeits after {f['missed']} missed decisions" if f
                    else "the game is over")
        parts = []
        for w in self.waiting_for():
            owed = [f"{s} ({what})" for s, what in w["owed"].items() if what != "done" and not what.startswith("wait")]
            due = f" (deadline {w['deadline']}, {_time_left(w['deadline'])})" if w.get("deadline") else ""
            parts.append(f"{w['decision']} awaits " + (", ".join(owed) if owed else "resolution") + due)
        return "; ".join(parts) or "nothing"


def _check_policy(policy: dict) -> dict:
    """A game's deadline policy: ``deadline_hours`` (> 0), ``nmr`` (hold or stand-fast) and an
    optional ``forfeit_after`` (missed decisions)."""
    out = {k: v for k, v in policy.items() if v is not None}
    keys = {"deadline_hours", "nmr", "forfeit_after", "grace_hours"}
    if set(out) - keys:
        raise InvalidInput(f"unknown policy keys {sorted(set(out) - keys)}", code="E504")
    if not out:
        return {}
    if not isinstance(out.get("deadline_hours"), (int, float)) or out["deadline_hours"] <= 0:
        raise InvalidInput("an NMR policy needs --deadline-hours (a number of hours > 0)", code="E504")
    out.setdefault("nmr", "hold")
    if out["nmr"] not in NMR_POLICIES:
        raise InvalidInput(f"--nmr is one of {', '.join(NMR_POLICIES)}", code="E504")
    if "grace_hours" in out and (not isinstance(out["grace_hours"], (int, float)) or out["grace_hours"] < 0):
        raise InvalidInput("--grace-hours is a number of hours >= 0", code="E504")
    if "forfeit_after" in out and (not isinstance(out["forfeit_after"], int) or out["forfeit_after"] < 1):
        raise InvalidInput("--forfeit-after is a number of missed decisions >= 1", code="E504")
    return out


def _parse_time(text: str) -> _dt.datetime:
    return _dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _plus_hours(at: str, hours: float) -> str:
    t = _parse_time(at) + _dt.timedelta(hours=hours)
    return t.astimezone(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _time_left(deadline: str) -> str:
    left = (_parse_time(deadline) - _parse_time(now_iso())).total_seconds()
    if left <= 0:
        return "LATE"
    h, m = divmod(int(left) // 60, 60)
    return f"time left {h}h" + (f"{m:02d}m" if m else "")


# --- audit -----------------------------------------------------------------------------------

@dataclass
class AuditResult:
    ok: bool
    events: int = 0
    signatures: int = 0
    commitments: int = 0
    dice: int = 0
    problems: list[str] = field(default_factory=list)
    head: str = GENESIS

    def to_dict(self) -> dict:
        return {"ok": self.ok, "events": self.events, "signatures": self.signatures,
                "commitments_opened": self.commitments, "dice_rederived": self.dice,
                "head": self.head, "problems": self.problems}


def audit(path: str | Path, workers: int | None = None) -> AuditResult:
    """Check every hash, then replay the whole log from the scenario and compare.

    ``workers`` processes read and verify the stored order files first (default: 2 on a machine with
    more than one core when the log holds many files; 1 = all in this process).
    """
    gf = GameFile.load(path)
    res = AuditResult(ok=False, events=len(gf.log), head=gf.head)
    prev = GENESIS
    for i, ev in enumerate(gf.log, 1):
        if set(ev) != {"seq", "kind", "by", "data", "prev", "hash"} or ev.get("seq") != i:
            res.problems.append(f"event {i}: not a well-formed event or out of sequence")
            return res
        if ev["prev"] != prev:
            res.problems.append(f"event {i}: does not follow event {i - 1} (events removed, added or reordered)")
            return res
        if event_hash(ev) != ev["hash"]:
            res.problems.append(f"event {i}: its content does not match its hash (edited)")
            return res
        prev = ev["hash"]
    if gf.header.get("head", {}).get("hash") != gf.head:
        res.problems.append("the header's head hash is not the last event's hash")
        return res
    if not gf.log or gf.log[0]["kind"] != "game.created":
        res.problems.append("the log does not start with game.created")
        return res

    replay = Engine.__new__(Engine)
    replay.gf = GameFile(gf.path, new_header({"system": gf.log[0]["data"]["meta"]["system"]}, {}))
    replay.h = replay.gf.header
    try:
        replay.system = systems.get(replay.h["meta"]["system"])
    except HxrefError as exc:
        res.problems.append(str(exc))
        return res
    pre = _read_stored_files(gf.log, workers)
    pos = 0
    while pos < len(gf.log):
        ev = gf.log[pos]
        if ev["kind"] not in INPUT_KINDS:
            res.problems.append(f"event {ev['seq']} ({ev['kind']}) was not produced by the event before it")
            return res
        start = len(replay.gf.log)
        try:
            if ev["kind"] == "submission":
                signer = None
                if ev["seq"] in pre:
                    order, signer, error = pre[ev["seq"]]
                    if error is not None:
                        raise InvalidInput(error, code="E201")
                else:
                    order = orders.parse(ev["data"]["file"], f"event {ev['seq']}", fast=True)
                    if "sig" in ev["data"]:
                        order.armored = ev["data"]["sig"]
                if sha256_hex(order.text.encode("utf-8")) != ev["data"].get("sha256"):
                    raise InvalidInput("the stored file does not match its sha256", code="E500")
                replay._accept(order, "sig" in ev["data"], signer=signer)
                res.signatures += 1
                if order.kind == "reveal":
                    res.commitments += 1
            # the handlers copy what they keep, so the stored data is passed as it is
            # the stored input event hashes correctly (checked above); when the replay's chain has
            # reached the same head, re-appending it yields that very hash
            same = replay.gf.head == ev["prev"] and len(replay.gf.log) + 1 == ev["seq"]
            replay._apply(ev["kind"], ev["by"], ev["data"], order if ev["kind"] == "submission" else None,
                          ev["hash"] if same else None)
        except HxrefError as exc:
            res.problems.append(f"event {ev['seq']} ({ev['kind']}): replay refuses it: {exc.message}")
            return res
        except Exception as exc:  # a damaged log must not crash the audit
            res.problems.append(f"event {ev['seq']} ({ev['kind']}): replay failed: {exc!r}")
            return res
        made = replay.gf.log[start:]
        stored = gf.log[start:start + len(made)]
        for a, b in zip(made, stored):
            if a["hash"] != b["hash"]:
                res.problems.append(f"event {b['seq']} ({b['kind']}): replay gives a different result "
                                    f"({a['kind']} {_short(a['data'])})")
                return res
        if len(stored) < len(made):
            res.problems.append(f"the log ends before the events produced by event {ev['seq']}")
            return res
        res.dice += sum(1 for e in made if e["kind"] == "die")
        pos = start + len(made)
    # every key of the header, known or not, must be what the replay gives (an added key is an edit)
    for key in sorted((set(replay.h) | set(gf.header)) - {"head"}):
        if replay.h.get(key) != gf.header.get(key):
            what = "is not made by the game" if key not in replay.h else "differs from the replayed game"
            res.problems.append(f"the header's {key} {what} (edited snapshot)")
    if gf.header.get("head", {}).get("seq") != len(gf.log):
        res.problems.append("the header's head event number is not the log's length (edited snapshot)")
    res.ok = not res.problems
    return res


@dataclass
class RerunResult:
    """What the rules of today would make of a game's inputs (``hxref audit --rerun``)."""

    ok: bool
    decisions: int = 0
    differences: list[dict] = field(default_factory=list)    # {decision, event, before, after}
    refused: list[str] = field(default_factory=list)          # inputs the rules would now refuse
    state_differs: list[str] = field(default_factory=list)    # header keys that end differently

    def to_dict(self) -> dict:
        return {"ok": self.ok, "decisions": self.decisions, "differences": self.differences,
                "refused": self.refused, "state_differs": self.state_differs}


def rerun(path: str | Path) -> RerunResult:
    """Replay every input of the game (files, answers, links, resolutions) through the rules code
    of today, and list each resolution whose produced events (dice and rules' events) would now
    differ from the log, with the first differing line before and after.  Nothing is written."""
    checked = audit(path)
    gf = GameFile.load(path)
    res = RerunResult(ok=False)
    if any("hash" in p or "sequence" in p or "follow" in p for p in checked.problems):
        res.refused.append("the log's hash chain is broken: " + "; ".join(checked.problems))
        return res
    replay = Engine.__new__(Engine)
    replay.gf = GameFile(gf.path, new_header({"system": gf.log[0]["data"]["meta"]["system"]}, {}))
    replay.h = replay.gf.header
    replay.system = systems.get(replay.h["meta"]["system"])
    inputs = [i for i, ev in enumerate(gf.log) if ev["kind"] in INPUT_KINDS]
    for n, i in enumerate(inputs):
        ev = gf.log[i]
        stored = [e for e in gf.log[i + 1:inputs[n + 1] if n + 1 < len(inputs) else len(gf.log)]]
        start = len(replay.gf.log)
        try:
            order = None
            if ev["kind"] == "submission":
                order = orders.parse(ev["data"]["file"], f"event {ev['seq']}", fast=True)
                if "sig" in ev["data"]:
                    order.armored = ev["data"]["sig"]
                replay._accept(order, "sig" in ev["data"])
            replay._apply(ev["kind"], ev["by"], ev["data"], order)
        except HxrefError as exc:
            res.refused.append(f"event {ev['seq']} ({ev['kind']}): the rules of today refuse it: {exc.message}")
            break
        made = replay.gf.log[start + 1:]
        if ev["kind"] == "resolve":
            res.decisions += 1
            before = [(e["kind"], e["by"], e["data"]) for e in stored]
            after = [(e["kind"], e["by"], e["data"]) for e in made]
            if before != after:
                k = next((j for j, (x, y) in enumerate(zip(before, after)) if x != y), min(len(before), len(after)))
                res.differences.append({
                    "decision": ev["data"].get("decision"), "event": stored[k]["seq"] if k < len(stored) else None,
                    "before": _line(before[k]) if k < len(before) else "(nothing)",
                    "after": _line(after[k]) if k < len(after) else "(nothing)"})
    if not res.refused:
        for key in ("state", "awaiting", "phase"):
            if replay.h.get(key) != gf.header.get(key):
                res.state_differs.append(key)
    res.ok = not (res.differences or res.refused or res.state_differs)
    return res


def _line(item: tuple) -> str:
    kind, by, data = item
    if kind == "die":
        return f"die {data.get('purpose')}: {data.get('faces')}"
    return str(data.get("text") or _short(data))


def _short(data: dict) -> str:
    text = str(data)
    return text if len(text) < 80 else text[:77] + "..."


def map_view(path: str | Path, side: str | None = None) -> tuple[Path, list[dict]]:
    """The map file and the unit markers ``side`` may see (None = public), for ``hxref map show GAME``.

    A game system with a map provides ``map_view(view) -> (map_path, units)``, or
    ``(map_path, units, shots)`` to draw the last shots on a table (:func:`hxref.report.mapsvg.render_svg`);
    units are computed from the side's view, never from the full state.
    """
    eng = Engine.load(path)
    if side is not None and side not in eng.participants:
        raise InvalidInput(f"no side {side!r} in this game; sides: {', '.join(eng.sides())}", code="E504")
    hook = getattr(eng.system, "map_view", None)
    if hook is None or eng.h.get("phase") == "setup":
        raise InvalidInput(f"this {eng.system.title} game ({eng.meta['scenario']}) has no map to show",
                           code="E503", file=str(path))
    full = side == UMPIRE
    view = eng.system.view(eng.state, None if full else side, "open" if full else eng.mode)
    return hook(view)


#: below this many stored files the audit reads them in its own process (starting workers costs more)
PARALLEL_FILES = 200


def _read_stored(item: tuple) -> tuple:
    """Read one stored order file and verify its signature (no game context): a worker's job."""
    seq, text, sig = item
    from .signing import sshsig_verify, verify_text

    try:
        order = orders.parse(text, f"event {seq}", fast=True)
        if sig is not None:
            order.armored = sig
            signer, _ = verify_text(order.text, source=order.source, detached=sig)
        elif order.armored is None:
            return seq, order, None, "the stored file is not signed"
        else:
            signer = sshsig_verify(order.armored, order.body.encode("utf-8"), source=order.source)
        return seq, order, signer.raw, None
    except HxrefError as exc:
        return seq, None, None, exc.message
    except Exception as exc:  # a damaged file must not crash the audit
        return seq, None, None, repr(exc)


def _read_stored_files(log: list[dict], workers: int | None) -> dict[int, tuple]:
    """seq -> (order, signer's raw key, error) for every stored file, read in parallel when it pays."""
    items = [(ev["seq"], ev["data"].get("file"), ev["data"].get("sig")) for ev in log
             if ev.get("kind") == "submission" and isinstance(ev.get("data"), dict)
             and isinstance(ev["data"].get("file"), str)]
    if workers is None:
        workers = 2 if (os.cpu_count() or 1) > 1 and len(items) >= PARALLEL_FILES else 1
    if workers <= 1 or len(items) < 2:
        return {}
    from concurrent.futures import ProcessPoolExecutor

    chunk = max(1, len(items) // (workers * 4))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return {seq: (order, signer, error) for seq, order, signer, error in
                pool.map(_read_stored, items, chunksize=chunk)}
