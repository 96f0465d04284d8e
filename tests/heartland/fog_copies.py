"""Two copies of a Heartland game played with hidden armies, each knowing only its own army: do they
agree with each other, and with the true game, on everything public?

A system-level simulation of the protocol of a game without an umpire (no engine, no files): the
*true game* resolves every decision on the whole state, with dice (:class:`PurposeDice`) that know
both sides' secrets.  Each side's *copy* holds the public part of the state, its own boxes
(:meth:`boxes`) and a *belief* of the enemy's boxes, and resolves every decision with the system's
own ``resolve`` on ``merged(public, {me: mine, enemy: belief})``, with its own answer whole, the
enemy's :meth:`public_answer`, and dice that know its own secret only.  The belief starts as the
scenario's set-up (both players know the whole start state) and changes by what the enemy tells:

- its :meth:`claims` with its answer (partial boxes, merged in);
- its openings: before the dice the boxes :meth:`reveals` names for its answer, after them those
  :meth:`reveals` names for the events of a dry run on its own copy (the protocol's order: the
  answering side's with its answer, the other's with its next file), each the box as it is;
- what its counters show on the map (:meth:`shown`, put into the public part by :meth:`with_shown`).

What the copy's own resolution made of the enemy's boxes is kept where it follows from what is public
(the enemy's moves are in clear, so are the results of a combat fought with opened boxes): the leaders
stand where the copy moved them.  The boxes the enemy no longer shows (a stack gone from a hex) are
dropped.

:func:`play` drives a game by the fog probe's contact-seeking players (:func:`.fog_probe.closing_orders`,
then the conformance suite's random player), answers chosen and checked on the true state, and at every
decision compares, for each side: the events it may read and the dice every side sees, the public part
(with both sides' :meth:`shown`), its own boxes, each against the true game's.  A difference is a
:class:`Mismatch`; after one, both copies are set to the true game's public part and their own boxes
again (the belief stays theirs), so one cause is counted where it happens and not at every later
decision.
"""
from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from hxref.base.canon import canonical_json
from hxref.crypto.dice import PurposeDice, Roll
from hxref.kit import registry, schema
from hxref.kit.events import visible
from hxref.kit.protocol import Decision, GameSystem, other_side, resolve_copy
from tests.heartland import fog_probe

SYSTEM = "heartland"
SIDES = ("union", "confederate")
#: the dice a force's move may roll (8.22 IMC, 8.31 forced march, 8.12 reactivation, 8.41 attack
#: check): the claims go out before them, so every face of them is played (:meth:`Game.sweep`)
MOVE_DICE = ("IMC ", "forced march ", "reactivation ", "attack check ")
FACES = range(1, 7)


@dataclass
class FacedDice(PurposeDice):
    """:class:`PurposeDice` that show ``face`` on every die of a move (:data:`MOVE_DICE`)."""

    face: int = 1

    def roll(self, purpose: str, *, sides: int = 6, count: int = 1, by: str | None = None,
             visible_to: list[str] | None = None) -> list[int]:
        if not purpose.startswith(MOVE_DICE):
            return super().roll(purpose, sides=sides, count=count, by=by, visible_to=visible_to)
        faces = [min(self.face, sides)] * count
        self.rolls.append(Roll(purpose, sides, faces, by, None if visible_to is None else list(visible_to)))
        return faces


@dataclass(frozen=True)
class Mismatch:
    """Where a copy first differs from the true game at a decision: what (``events``, ``dice``,
    ``public``, ``mine``, ``decisions``, ``check``), whose copy, and a short description."""

    decision: str
    what: str
    side: str
    detail: str


@dataclass
class Run:
    """What a simulation did: the decisions played, by kind, the boxes opened and claimed, the
    fields claimed (:func:`claimed_fields`, summed by kind), the decisions played again on every
    face of the move dice, the mismatches, and where the random players found no answer."""

    decisions: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    opened: int = 0
    claimed: int = 0
    fields: dict[str, int] = field(default_factory=dict)
    swept: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)

    def add(self, other: "Run") -> None:
        self.decisions += other.decisions
        for k, n in other.kinds.items():
            self.kinds[k] = self.kinds.get(k, 0) + n
        self.opened += other.opened
        self.claimed += other.claimed
        for k, n in other.fields.items():
            self.fields[k] = self.fields.get(k, 0) + n
        self.swept += other.swept
        self.mismatches += other.mismatches
        self.stuck += other.stuck


def _h(*parts: str) -> bytes:
    return hashlib.sha256("\x00".join(parts).encode()).digest()


@dataclass
class Copy:
    """One side's copy: the public part, its own boxes, its belief of the enemy's boxes."""

    side: str
    public: dict
    mine: dict
    belief: dict

    def state(self, system: GameSystem) -> dict:
        enemy = other_side(SIDES, self.side)
        return dict(system.merged(self.public, {self.side: self.mine, enemy: self.belief}))


def claimed_fields(claims: Mapping[str, Any]) -> dict[str, int]:
    """How many fields ``claims`` state, by kind: ``leader`` (a commander's), ``unit`` (a unit's: its
    ``steps``, ``cf`` and ``ml`` also counted alone, as ``unit.steps`` ...), ``other``."""
    out: dict[str, int] = {}

    def add(kind: str, n: int = 1) -> None:
        out[kind] = out.get(kind, 0) + n
    for part in claims.values():
        for key, value in part.items():
            if key == "leader" and isinstance(value, Mapping):
                add("leader", len(value))
            elif key == "units" and isinstance(value, Mapping):
                for unit in value.values():
                    add("unit", len(unit))
                    for k in ("steps", "cf", "ml"):
                        if k in unit:
                            add(f"unit.{k}")
            else:
                add("other")
    return out


#: a commander's hidden facts, and how :func:`blurred` changes each it is not told
LEADER_BLUR = {"ml": lambda v: (v + 1) % 7, "ap": lambda v: v + 2, "asp": lambda v: v + 1,
               "artillery": lambda v: v + 1, "active": lambda v: not v}
#: a unit's hidden facts, and how :func:`blurred` changes each it is not told (a living unit stays alive)
UNIT_BLUR = {"cf": lambda v: [x + 1 for x in v], "ml": lambda v: [min(6, x + 1) for x in v],
             "steps": lambda v: v if v <= 0 else 1 if v > 1 else 2}


def blurred(belief: Mapping[str, Any], claims: Mapping[str, Any]) -> dict:
    """``belief`` with every hidden fact of the claimed boxes that the claims do not state changed
    (:data:`LEADER_BLUR`, :data:`UNIT_BLUR`): what a copy may believe of them when it was told nothing."""
    out = copy.deepcopy(dict(belief))
    for name, part in claims.items():
        box = out.get(name)
        if not isinstance(box, dict):
            continue
        told = part.get("leader") or {}
        ld = box.get("leader")
        if isinstance(ld, dict):
            for k, change in LEADER_BLUR.items():
                if k in ld and k not in told:
                    ld[k] = change(ld[k])
        for uid, u in (box.get("units") or {}).items():
            said = (part.get("units") or {}).get(uid, {})
            for k, change in UNIT_BLUR.items():
                if k in u and k not in said:
                    u[k] = change(u[k])
    return out


def _first_difference(a: Any, b: Any) -> str:
    path, x, y = fog_probe.first_path(a, b)
    return f"{path}: {str(x)[:160]} vs {str(y)[:160]}"


def _plain(x: Any) -> Any:
    return json.loads(canonical_json(x))


class Game:
    """The true game and both copies, played decision by decision."""

    def __init__(self, system: GameSystem, scenario: str, seed: int, table_mode: str = "fog"):
        self.system = system
        self.rng = random.Random(f"fog copies {scenario} {seed}")
        self.seed = f"{scenario} {seed}"
        data = system.load_scenario(scenario)
        data["table_mode"] = table_mode      # as the engine makes it: who may hold secrets
        self.truth: dict = self._laid_out(system.setup(data))
        self.secrets = {s: _h("secret", self.seed, s) for s in SIDES}
        start = {s: dict(system.boxes(self.truth, s) or {}) for s in SIDES}
        self.copies = {s: Copy(s, system.public(self.truth), copy.deepcopy(start[s]),
                               copy.deepcopy(start[other_side(SIDES, s)])) for s in SIDES}
        self.run = Run()

    # --- the players ----------------------------------------------------------------------------
    def answer(self, dec: Decision, side: str) -> dict | None:
        """An answer of ``side``, chosen and checked on the true state (what its own copy holds of
        itself, and the map, which both see)."""
        from tests.conformance.harness import candidates, repaired

        eng = SimpleNamespace(state=self.truth, system=self.system, mode="solo", h={"meta": {"system": SYSTEM}})
        tries = fog_probe.closing_orders(self.rng, eng, dec, side) + candidates(self.rng, eng, dec, side)[0]
        for choice in tries:
            fixed = repaired(self.system, self.truth, dec, side, choice)
            if fixed is not None and not schema.check(dec.schema, fixed, dec.rule):
                return fixed
        return None

    # --- one decision -----------------------------------------------------------------------------
    def step(self) -> bool:
        sysm = self.system
        decs = sysm.decisions(self.truth)
        if not decs:
            return False
        dec = decs[0]
        where = f"{self.seed} {dec.id}"
        kind = fog_probe.stage(self.truth, dec)
        self.run.kinds[kind] = self.run.kinds.get(kind, 0) + 1
        self.run.decisions += 1
        answers: dict[str, dict] = {}
        for s in dec.sides:
            got = self.answer(dec, s)
            if got is None:
                self.run.stuck.append(f"{where}: no answer for {s} is accepted")
                return False
            answers[s] = got
        states = {s: c.state(sysm) for s, c in self.copies.items()}
        for s in SIDES:
            mine = [d.id for d in sysm.decisions(states[s])]
            if mine != [d.id for d in decs]:
                self._mismatch(dec, "decisions", s, f"{mine} vs {[d.id for d in decs]}")
            if s in answers and sysm.check(states[s], dec, s, answers[s]):
                self._mismatch(dec, "check", s, str(sysm.check(states[s], dec, s, answers[s])[:1]))
        # what the answering sides tell with their answers: the public part, claims, openings
        told = {s: sysm.public_answer(states[s], dec, s, answers[s]) for s in answers}
        claimed: dict[str, dict] = {}
        for s, choice in answers.items():
            enemy = self.copies[other_side(SIDES, s)]
            claims = claimed[s] = sysm.claims(states[s], dec, s, choice)
            self.run.claimed += len(claims)
            for k, n in claimed_fields(claims).items():
                self.run.fields[k] = self.run.fields.get(k, 0) + n
            for name, part in claims.items():
                enemy.belief[name] = sysm.believed(s, enemy.belief.get(name), part)
            self._open(s, sysm.reveals(states[s], dec, s, choice, None))
        if dec.kind == "orders":
            self.sweep(dec, answers, told, claimed)
        # after a dry run on its own copy, each side opens what the resolution reveals of it
        for s in SIDES:
            state = self.copies[s].state(sysm)
            _, events, _ = self._resolve(state, dec, self._answers(s, answers, told), s)
            self._open(s, sysm.reveals(state, dec, s, answers.get(s), events))
        seed = _h("dice", self.seed, dec.id)
        new_truth, true_events, true_rolls = self._resolve(self.truth, dec, answers, None, seed)
        results = {}
        for s in SIDES:
            state = self.copies[s].state(sysm)
            results[s] = self._resolve(state, dec, self._answers(s, answers, told), s, seed)
        shown = {s: sysm.shown(results[s][0], s) for s in SIDES}
        true_public = _plain(sysm.public(new_truth))
        for s in SIDES:
            new, events, rolls = results[s]
            enemy = other_side(SIDES, s)
            mine_ev = [e for e in events if visible(e, s)]
            true_ev = [e for e in true_events if visible(e, s)]
            if _plain(mine_ev) != _plain(true_ev):
                self._mismatch(dec, "events", s, self._event_difference(mine_ev, true_ev))
            pub_rolls = [r.to_dict() for r in rolls if r.visible_to is None]
            true_pub = [r.to_dict() for r in true_rolls if r.visible_to is None]
            if pub_rolls != true_pub:
                self._mismatch(dec, "dice", s, _first_difference(pub_rolls, true_pub))
            public = _plain(sysm.with_shown(sysm.public(new), enemy, shown[enemy]))
            if public != true_public:
                self._mismatch(dec, "public", s, _first_difference(public, true_public))
            mine = _plain(sysm.boxes(new, s))
            true_mine = _plain(sysm.boxes(new_truth, s))
            if mine != true_mine:
                self._mismatch(dec, "mine", s, _first_difference(mine, true_mine))
            c = self.copies[s]
            if any(m.decision.startswith(f"{self.seed} {dec.id} ") and m.side == s for m in self.run.mismatches):
                # set again to the true game, so that one cause is counted once
                laid_out = self._laid_out(new_truth)
                c.public, c.mine = sysm.public(laid_out), dict(sysm.boxes(laid_out, s) or {})
                c.belief = dict(sysm.boxes(laid_out, enemy) or {})
                continue
            c.public = sysm.with_shown(sysm.public(new), enemy, shown[enemy])
            c.mine = dict(sysm.boxes(new, s) or {})
            names = set(sysm.box_names(c.public, enemy))
            computed = dict(sysm.boxes(new, enemy) or {})
            c.belief = {n: b for n, b in computed.items() if n in names}
        self.truth = self._laid_out(new_truth)
        return True

    def sweep(self, dec: Decision, answers: Mapping[str, dict], told: Mapping[str, dict],
              claimed: Mapping[str, dict]) -> None:
        """``dec`` played again on every face of the move dice (:class:`FacedDice`), from what the
        copies hold once the claims and the openings before the dice are in, with every hidden fact
        of a claimed box that neither a claim nor an opening told changed (:func:`blurred`): each
        side opens what its dry run on those faces reveals, and each copy must tell its side the
        events and public dice the true game tells it (a difference is a ``faces`` :class:`Mismatch`)."""
        sysm = self.system
        self.run.swept += 1
        for face in FACES:
            seed = _h("faces", self.seed, dec.id)
            beliefs = {s: blurred(c.belief, claimed.get(other_side(SIDES, s), {})) for s, c in self.copies.items()}
            for s in SIDES:
                state = self.copies[s].state(sysm)
                _, events, _ = self._resolve(state, dec, self._answers(s, answers, told), s, seed, face)
                mine = self.copies[s].mine
                for name in sysm.reveals(state, dec, s, answers.get(s), events):
                    beliefs[other_side(SIDES, s)][name] = copy.deepcopy(mine.get(name, {}))
            _, true_events, true_rolls = self._resolve(self.truth, dec, dict(answers), None, seed, face)
            for s in SIDES:
                c = self.copies[s]
                state = Copy(s, c.public, c.mine, beliefs[s]).state(sysm)
                _, events, rolls = self._resolve(state, dec, self._answers(s, answers, told), s, seed, face)
                mine_ev = [e for e in events if visible(e, s)]
                true_ev = [e for e in true_events if visible(e, s)]
                if _plain(mine_ev) != _plain(true_ev):
                    self._mismatch(dec, "faces", s, f"face {face}: " + self._event_difference(mine_ev, true_ev))
                pub = [r.to_dict() for r in rolls if r.visible_to is None]
                true_pub = [r.to_dict() for r in true_rolls if r.visible_to is None]
                if pub != true_pub:
                    self._mismatch(dec, "faces", s, f"face {face}: " + _first_difference(pub, true_pub))

    def _laid_out(self, state: Mapping[str, Any]) -> dict:
        """``state`` as a copy lays it out: put together from its public part and boxes, so the true
        game iterates its leaders and units in the order every copy does."""
        return dict(self.system.merged(self.system.public(state), {s: self.system.boxes(state, s) for s in SIDES}))

    def _answers(self, side: str, answers: Mapping[str, dict], told: Mapping[str, dict]) -> dict[str, dict]:
        """The answers as ``side``'s copy holds them: its own whole, the enemy's public part."""
        return {s: (copy.deepcopy(a) if s == side else copy.deepcopy(told[s])) for s, a in answers.items()}

    def _resolve(self, state: Mapping[str, Any], dec: Decision, answers: dict, side: str | None,
                 seed: bytes | None = None, face: int | None = None):
        """``dec`` resolved on a copy of ``state``; dice knowing ``side``'s secret (None: both), and
        showing ``face`` on every die of a move (None: as they fall)."""
        secrets = {s: (k if side in (None, s) else None) for s, k in self.secrets.items()}
        seed = seed or _h("dice", self.seed, dec.id)
        dice = (PurposeDice(seed, secrets=dict(secrets)) if face is None
                else FacedDice(seed, secrets=dict(secrets), face=face))
        new, events = self.system.resolve(resolve_copy(self.system.info, state), dec, copy.deepcopy(answers), dice)
        return new, events, dice.rolls

    def _open(self, side: str, names: list[str]) -> None:
        """``side`` opens its boxes ``names``, as they are, into the enemy's belief."""
        enemy = self.copies[other_side(SIDES, side)]
        mine = self.copies[side].mine
        for name in names:
            self.run.opened += 1
            enemy.belief[name] = copy.deepcopy(mine[name]) if name in mine else {}

    def _mismatch(self, dec: Decision, what: str, side: str, detail: str) -> None:
        self.run.mismatches.append(Mismatch(f"{self.seed} {dec.id} ({fog_probe.stage(self.truth, dec)})",
                                            what, side, detail))

    @staticmethod
    def _event_difference(mine: list[dict], true: list[dict]) -> str:
        for i in range(max(len(mine), len(true))):
            a = mine[i] if i < len(mine) else None
            b = true[i] if i < len(true) else None
            if _plain(a) != _plain(b):
                def text(e: dict | None) -> str:
                    return "(none)" if e is None else f"[{e.get('rule')}] {e.get('type')}: {str(e.get('text'))[:200]}"
                return f"event {i}: copy {text(a)} | true {text(b)}"
        return "?"


def play(scenario: str, seed: int, decisions: int, table_mode: str = "fog") -> Run:
    """``decisions`` decisions of ``scenario`` played by the random players of ``seed``, the two
    copies checked against the true game at each (:class:`Run`); ``table_mode`` the game's mode as
    the rules read it (``fog``: an open game with hidden armies; ``umpired``: the rules as an
    umpire plays them, the IMC rolled for the mover's eyes alone)."""
    game = Game(registry.get(SYSTEM), scenario, seed, table_mode)
    while game.run.decisions < decisions and game.step():
        pass
    return game.run
