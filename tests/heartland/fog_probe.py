"""Which of Heartland's rules make one side's hidden facts visible to the other.

In an umpired Heartland game each side sees the enemy's army only as the umpired view shows it
(3.71, :mod:`hxref.systems.heartland.views`).  A decision's resolution may still tell a side
something that depends on the enemy's hidden Army Organization Display: a combat's strengths
(10.x), an attrition roll the rules announce (4.31), or a result that only the enemy's own
hidden facts decide.  This module finds out which, by experiment:

- :func:`perturbations` makes single changes to a side X's hidden facts (a unit's steps, a
  leader's ML, AP, ASP or artillery, X's WEP or replacement steps, a unit moved to another box
  of its hex); one is kept only when the other side Y's umpired view is unchanged by it, which
  is what *hidden from Y* means;
- :func:`probe` resolves a decision with the same answers and the same dice on the state and on
  each kept perturbation, and compares what Y is told: the events and dice Y may see
  (:func:`hxref.kit.events.visible`) and Y's umpired view afterwards.  A perturbation that makes
  some side's answer fail ``check`` is counted apart (the answer depends on the fact);
- :func:`play` drives random legal games (the conformance suite's player,
  :mod:`tests.conformance.harness`, led by :func:`closing_orders`, which seek the enemy out) and
  probes every decision, each with the dice the engine rolls for it, checked against what the
  engine logs; :func:`replay_demo` probes the shipped demo game, played by hand-written orders.

A difference is a :class:`Finding`, sorted into :data:`CONTACT` (the combat reveals 10.x and
11.x, and the attrition results 4.31 announces), :data:`OWNER` (an event or die told to Y that
depends on the hidden facts of a side acting in the decision: its own result, to be published by
its owner), :data:`MAP` (Y's view of the map changed, and no event Y reads told it) and
:data:`OTHER` (anything else: a leak the rules do not make).
"""
from __future__ import annotations

import json
import random
import re
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hxref.base.canon import canonical_json
from hxref.base.errors import HxrefError
from hxref.crypto import dice as dice_mod
from hxref.kit import registry, schema
from hxref.kit.events import visible
from hxref.kit.protocol import Decision, GameSystem, other_side, resolve_copy
from hxref.referee.engine import UMPIRE, Engine
from hxref.systems.heartland.model import copy_state

SYSTEM = "heartland"
SIDES = ("union", "confederate")
UMPIRED = "umpired"
#: the finding's categories (see the module's docstring)
CONTACT, OWNER, MAP, OTHER, CHECK = "contact", "owner publishes", "map, no event", "other", "check reads it"
#: the kinds of hidden fact :func:`perturbations` changes
FACTS = ("steps", "ml", "ap", "asp", "artillery", "wep", "box", "replacements")
#: the first number of a rule whose events are the rules' reveals at contact: combat (10.x) and
#: the Combat Sequence (11.x)
CONTACT_CHAPTERS = ("10", "11")
#: attrition results the Reorganization Segment announces (4.31)
ATTRITION_RULE = "4.31"
ML_RANGE = range(0, 10)             # a leader's ML, 0-9 (3.51)
#: a map's hex label in a view path (the findings of one kind group together, whatever the hex)
HEX_LABEL = re.compile(r"(?<=/)\d{4}(?=/|$)")


@dataclass(frozen=True)
class Perturbation:
    """One change to ``side``'s hidden facts: its ``fact`` kind (:data:`FACTS`), what changed, and
    the changed state (a copy)."""

    side: str
    fact: str
    what: str
    state: dict


@dataclass(frozen=True)
class Finding:
    """A hidden fact of ``side`` that changes what the other side is told by a decision."""

    decision: str           # the decision's kind and stage, e.g. "orders" or "defence"
    fact: str               # the kind of fact changed (FACTS)
    side: str               # whose fact
    rule: str               # the rule of the first differing event, "die <purpose>", or "view <path>"
    category: str           # CONTACT, OWNER, MAP, OTHER or CHECK
    answering: tuple[str, ...]  # the sides that answer the decision
    example: str            # where and what: "river-line seed 2 t1.i3.orders: c4 steps 2->1: ..."


@dataclass
class Tally:
    """What a probe did: decisions probed, perturbations made, kept (hidden from the other side),
    dropped (they changed its umpired view) and refused by ``check``; and the findings."""

    decisions: int = 0
    made: int = 0
    kept: int = 0
    visible: int = 0
    refused: int = 0
    findings: list[Finding] = field(default_factory=list)
    kinds: Counter = field(default_factory=Counter)
    shown: Counter = field(default_factory=Counter)     # the facts dropped, by kind
    stuck: list[str] = field(default_factory=list)      # games that ended where no answer was found

    def add(self, other: "Tally") -> None:
        self.decisions += other.decisions
        self.made += other.made
        self.kept += other.kept
        self.visible += other.visible
        self.refused += other.refused
        self.findings += other.findings
        self.kinds.update(other.kinds)
        self.shown.update(other.shown)
        self.stuck += other.stuck


# --- perturbations ---------------------------------------------------------------------------

def _changed(state: Mapping[str, Any], change: Callable[[dict], None]) -> dict:
    out = copy_state(dict(state))
    change(out)
    return out


def _set(path: tuple, value: Any) -> Callable[[dict], None]:
    def change(st: dict) -> None:
        where = st
        for key in path[:-1]:
            where = where[key]
        where[path[-1]] = value
    return change


def _on_map_hex(state: Mapping[str, Any], lid: str | None) -> str | None:
    """The hex of leader ``lid`` when he stands on the map."""
    ld = state["leaders"].get(lid) if lid is not None else None
    if not ld or ld.get("pool") or ld.get("killed") or ld.get("captured") or ld.get("removed"):
        return None
    return ld.get("hex")


def perturbations(state: Mapping[str, Any], side: str, facts: tuple[str, ...] = FACTS) -> Iterator[Perturbation]:
    """Every single change :data:`FACTS` names to ``side``'s hidden facts in ``state`` (full game)."""
    leaders = {lid: ld for lid, ld in sorted(state["leaders"].items()) if ld["side"] == side}
    units = {uid: u for uid, u in sorted(state["units"].items()) if u["side"] == side and u["steps"] > 0}

    def made(fact: str, what: str, change: Callable[[dict], None]) -> Perturbation:
        return Perturbation(side, fact, what, _changed(state, change))

    if "steps" in facts:
        for uid, u in units.items():
            if u["steps"] == 2:
                yield made("steps", f"{uid} steps 2->1", _set(("units", uid, "steps"), 1))
            elif len(u["cf"]) > 1 and u["cf"][0] > 0:
                yield made("steps", f"{uid} steps 1->2", _set(("units", uid, "steps"), 2))
    for lid, ld in leaders.items():
        for fact in ("ml", "ap", "asp", "artillery"):
            if fact not in facts or fact not in ld:
                continue
            have = int(ld[fact])
            for new in (have + 1, have - 1):
                if new < 0 or (fact == "ml" and new not in ML_RANGE):
                    continue
                yield made(fact, f"{lid} {fact} {have}->{new}", _set(("leaders", lid, fact), new))
    for fact in ("wep", "replacements"):
        have = (state.get(fact) or {}).get(side)
        if fact in facts and isinstance(have, int):
            for new in (have + 1, have - 1):
                if new >= 0:
                    yield made(fact, f"{side} {fact} {have}->{new}", _set((fact, side), new))
    if "box" in facts:
        yield from _box_moves(state, side, leaders, units, made)


def _box_moves(state, side, leaders, units, made) -> Iterator[Perturbation]:
    """A unit moved from its box to another box of ``side`` in the same hex, or to the unled
    stack there; an unled unit moved into a leader's box in its hex."""
    for uid, u in units.items():
        here = _on_map_hex(state, u["leader"]) if u["leader"] is not None else u.get("hex")
        if here is None:
            continue
        for lid in leaders:
            if lid != u["leader"] and _on_map_hex(state, lid) == here:
                yield made("box", f"{uid} from {u['leader'] or 'unled'} to {lid}'s box",
                           _moved(uid, lid, None))
        if u["leader"] is not None:
            yield made("box", f"{uid} from {u['leader']} to the unled stack in {here}", _moved(uid, None, here))


def _moved(uid: str, leader: str | None, hex_: str | None) -> Callable[[dict], None]:
    def change(st: dict) -> None:
        st["units"][uid]["leader"] = leader
        st["units"][uid]["hex"] = hex_
    return change


# --- what a side is told ------------------------------------------------------------------------

@dataclass(frozen=True)
class Told:
    """What ``side`` is told by a resolution: the events and dice it may see, its umpired view."""

    events: list[dict]
    dice: list[dict]
    view: Any


def told(system: GameSystem, state: Mapping[str, Any], events: list[dict], rolls: list, side: str) -> Told:
    return Told([e for e in events if visible(e, side)],
                [r.to_dict() for r in rolls if visible(r.to_dict(), side)],
                canonical_json(system.view(state, side, UMPIRED)))


def resolved(system: GameSystem, state: Mapping[str, Any], dec: Decision, answers: dict, seed: bytes):
    """``dec`` resolved on a copy of ``state`` with ``answers`` and the dice of ``seed``: the new
    state, the events and the rolls."""
    dice = dice_mod.Dice(seed)
    new, events = system.resolve(resolve_copy(system.info, state), dec, answers, dice)
    return new, events, dice.rolls


def first_difference(a: Told, b: Told) -> tuple[str, str, dict | None] | None:
    """Where ``b`` first differs from ``a``: (the rule, a short description, the event) or None."""
    for i in range(max(len(a.events), len(b.events))):
        ea = a.events[i] if i < len(a.events) else None
        eb = b.events[i] if i < len(b.events) else None
        if ea != eb:
            ev = ea or eb
            assert ev is not None
            return str(ev.get("rule", "-")), f"event {i} {ev.get('type')}: " + _contrast(ea, eb), ev
    for i in range(max(len(a.dice), len(b.dice))):
        ra = a.dice[i] if i < len(a.dice) else None
        rb = b.dice[i] if i < len(b.dice) else None
        if ra != rb:
            r = ra or rb
            assert r is not None
            return f"die {r['purpose']}", f"die {i}: {ra} vs {rb}", None
    if a.view != b.view:
        path = first_path(json.loads(a.view), json.loads(b.view))[0]
        return f"view {HEX_LABEL.sub('<hex>', path)}", f"view differs at {path}", None
    return None


def _contrast(ea: dict | None, eb: dict | None) -> str:
    """The first line of text, or else the data, where two events differ."""
    def cut(text: str) -> str:
        return text if len(text) <= 100 else text[:97] + "..."

    if ea is None or eb is None:
        e = ea or eb
        assert e is not None
        return ("only with the change: " if ea is None else "only without it: ") + repr(cut(str(e.get("text", ""))))
    la, lb = str(ea.get("text", "")).splitlines(), str(eb.get("text", "")).splitlines()
    for i in range(max(len(la), len(lb))):
        a = la[i] if i < len(la) else ""
        b = lb[i] if i < len(lb) else ""
        if a != b:
            return f"{cut(a.strip())!r} -> {cut(b.strip())!r}"
    keys = sorted(k for k in set(ea) | set(eb) if ea.get(k) != eb.get(k))
    return f"same text; {', '.join(keys)}: {[ea.get(k) for k in keys]} -> {[eb.get(k) for k in keys]}"[:300]


def first_path(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any]:
    """The first path (``/key[index]``) where the plain data ``a`` and ``b`` differ, and their values there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return first_path(a.get(k), b.get(k), f"{path}/{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_path(x, y, f"{path}[{i}]")
    return path or "/", a, b


def stage(state: Mapping[str, Any], dec: Decision) -> str:
    """The decision's kind, and the impulse's stage when it has one that is not the kind."""
    imp = (state.get("current") or {}).get("active_impulse") or {}
    st = imp.get("stage")
    return dec.kind if not st or st == dec.kind else f"{dec.kind}/{st}"


def actors(state: Mapping[str, Any], dec: Decision) -> set[str]:
    """The sides acting in ``dec``: those that answer it, and the phasing side of the impulse."""
    imp = (state.get("current") or {}).get("active_impulse") or {}
    return set(dec.sides) | ({imp["side"]} if imp.get("side") else set())


def category(rule: str, event: dict | None, side: str, acting: set[str]) -> str:
    """:data:`CONTACT` for the combat reveals and announced attrition, :data:`MAP` for a change of
    the view that no event told, :data:`OWNER` for a result of an acting side's own facts,
    :data:`OTHER` for the rest."""
    if rule.startswith("view "):
        return MAP
    if event is not None:
        chapters = {r.strip().split(".")[0] for r in rule.split(",")}
        if chapters & set(CONTACT_CHAPTERS) or rule.startswith(ATTRITION_RULE):
            return CONTACT
    return OWNER if side in acting else OTHER


# --- one decision ----------------------------------------------------------------------------------

def probe(system: GameSystem, state: Mapping[str, Any], dec: Decision, answers: dict[str, dict], seed: bytes,
          where: str, facts: tuple[str, ...] = FACTS, sides: tuple[str, ...] | None = None,
          baseline: tuple | None = None) -> Tally:
    """Perturb each side's hidden facts (:func:`perturbations`) at ``dec`` in ``state`` and resolve
    it with ``answers`` and the dice of ``seed``; ``where`` names the decision in the examples
    (scenario, seed, decision id); ``baseline`` the resolution of the state itself when known."""
    tally = Tally(decisions=1)
    kind = stage(state, dec)
    tally.kinds[kind] += 1
    acting = actors(state, dec)
    new, events, rolls = baseline or resolved(system, state, dec, answers, seed)
    for x in sides or tuple(system.info.sides):
        y = other_side(system.info.sides, x)
        before = canonical_json(system.view(state, y, UMPIRED))
        base = told(system, new, events, rolls, y)
        for p in perturbations(state, x, facts):
            tally.made += 1
            if canonical_json(system.view(p.state, y, UMPIRED)) != before:
                tally.visible += 1
                tally.shown[p.fact] += 1
                continue
            tally.kept += 1
            refused = [s for s in dec.sides if system.check(p.state, dec, s, answers[s])]
            if refused:
                tally.refused += 1
                tally.findings.append(Finding(kind, p.fact, x, f"check({'+'.join(refused)})", CHECK,
                                              dec.sides, f"{where}: {p.what}"))
                continue
            try:
                after = told(system, *resolved(system, p.state, dec, answers, seed), y)
            except Exception as exc:    # noqa: BLE001 -- a perturbed state the rules cannot resolve is a finding
                tally.findings.append(Finding(kind, p.fact, x, f"resolve raised {type(exc).__name__}", OTHER,
                                              dec.sides, f"{where}: {p.what}: {exc}"))
                continue
            diff = first_difference(base, after)
            if diff is not None:
                rule, text, ev = diff
                tally.findings.append(Finding(kind, p.fact, x, rule, category(rule, ev, x, acting),
                                              dec.sides, f"{where}: {p.what}: {text}"))
    return tally


# --- random games --------------------------------------------------------------------------------

def scenarios_with_map() -> list[str]:
    """The shipped Heartland scenarios that play the full game, on a map."""
    system = registry.get(SYSTEM)
    return [s for s in system.scenarios() if system.load_scenario(s).get("map")]


def decision_seed(eng: Engine, dec: Decision, umpire_key: Any = None) -> bytes:
    """The seed of ``dec``'s dice as the engine makes it (:meth:`Engine._on_resolve`), with the
    umpire's link from ``umpire_key`` when the umpire has still to give it."""
    if eng.mode == "solo":
        return dice_mod.solo_seed(eng.h["solo_seed"], eng.meta["game"], dec.id)
    links = dict(eng.pending(dec.id)["links"])
    if umpire_key is not None and UMPIRE in eng.missing_links(dec):
        links[UMPIRE] = eng.next_link(UMPIRE, umpire_key, dec)
    return dice_mod.dice_seed(eng.identity, dec.id, sorted(links.items()))


def new_game(folder: Path, scenario: str, rng: random.Random) -> Engine:
    """A solo game of ``scenario`` whose seed and identity come from ``rng`` (replayable)."""
    import hxref.referee.engine as engine_mod
    from tests.conformance.harness import _Seeded

    seed = rng.getrandbits(256).to_bytes(32, "big").hex()
    old = engine_mod.random_hex
    engine_mod.random_hex = _Seeded(rng).token_hex
    try:
        return Engine.create(folder / f"{scenario}.yaml", system=SYSTEM, scenario=scenario, mode="solo",
                             sides={s: None for s in registry.info(SYSTEM).sides}, game_id=f"fog-{seed[:8]}",
                             nonce=seed)
    finally:
        engine_mod.random_hex = old


def closing_orders(rng: random.Random, eng: Engine, dec: Decision, side: str) -> list[dict]:
    """Orders that close with the enemy (and administration at the Reorganization Segment): each force of ``side`` moves, by the cheapest path the rules
    find (:func:`hxref.systems.heartland.map_orders.route`), to the hex of its reach nearest an enemy
    force, and attacks a neighbouring enemy hex when it ends beside one.  The conformance suite's
    random walks are pruned by the rules to almost nothing and never reach a combat."""
    from hxref.systems.heartland import map_orders, model

    state = eng.state
    if dec.kind == "reorg":
        return administration(rng, state, side)
    if dec.kind != "orders":
        return []
    hm = eng.system.charts.map(state["map"])
    enemy = sorted({model.force_hex(state, f) for f in model.forces(state, other_side(SIDES, side))} - {None})
    if not enemy:
        return []
    targets = [hm.parse(h) for h in enemy]
    base = dict(eng.system.template(eng.system.view(state, side, eng.mode), dec, side).choice)
    moves: list[dict] = []
    for force in model.forces(state, side):
        if model.is_unled(force) or rng.random() < .2:
            continue
        choice = {**base, "moves": moves}
        reach = eng.system.reach(state, dec, side, choice, "moves", force)
        if not reach:
            continue
        to = min(sorted(reach), key=lambda h: (min(hm.parse(h).distance(t) for t in targets), reach[h]))
        path = map_orders.route(state, dec, side, choice, force, to, charts=eng.system.charts)
        if not path:
            continue
        move: dict = {"force": force, "path": path}
        beside = [e for e in enemy if hm.parse(e).distance(hm.parse(to)) == 1]
        if beside:
            move["attack"] = rng.choice(beside)
        moves.append(move)
    return [{**base, "moves": moves}]


def administration(rng: random.Random, state: Mapping[str, Any], side: str) -> list[dict]:
    """Reorganization orders that spend hidden facts (4.32): a leader's ammo (AP, WEP) or a reduced
    unit's replacement step (AP, replacement steps), one order each, the first ``check`` accepts
    played.  The conformance suite's random administration is never accepted."""
    leaders = [lid for lid, ld in sorted(state["leaders"].items()) if ld["side"] == side and _on_map_hex(state, lid)]
    reduced = [uid for uid, u in sorted(state["units"].items())
               if u["side"] == side and u["steps"] == 1 and u.get("leader") in leaders]
    out = ([{"administration": {"ammo": [{"leader": lid, "asp": 1}]}} for lid in leaders]
           + [{"administration": {"replacements": [{"unit": uid}]}} for uid in reduced])
    rng.shuffle(out)
    return out[:8]


def answer(eng: Engine, rng: random.Random, dec: Decision, side: str) -> bool:
    """Answer ``dec`` for ``side``: :func:`closing_orders` first, then as the conformance suite's
    random player does; False when no answer it tries is accepted."""
    from tests.conformance.harness import candidates, repaired

    tries, _ = candidates(rng, eng, dec, side)
    tries = closing_orders(rng, eng, dec, side) + tries
    for choice in tries:
        choice = repaired(eng.system, eng.state, dec, side, choice)
        if choice is None:
            continue
        try:
            eng.answer_solo(side, dec.id, choice)
            return True
        except HxrefError:
            continue
    return False


def play(scenario: str, seed: int, decisions: int, facts: tuple[str, ...] = FACTS,
         want: Callable[[Decision], bool] = lambda dec: True, probes: int | None = None) -> Tally:
    """Play ``decisions`` decisions of a random solo game of ``scenario`` (the random player seeded
    by ``seed``), probing each decision ``want`` accepts, ``probes`` of them at most, until the
    random players find no legal answer (:attr:`Tally.stuck`); raise when the probe's own
    resolution is not the one the engine logs (the dice would not be the game's)."""
    rng = random.Random(f"fog {scenario} {seed}")
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        eng = new_game(Path(tmp), scenario, rng)
        played = 0
        while not eng.finished and played < decisions and (probes is None or tally.decisions < probes):
            dec = next(d for d in eng.awaiting if d.id != "join")
            stuck = [s for s in dec.sides if not answer(eng, rng, dec, s)]
            if stuck:               # the random players found no legal answer: the game ends here
                tally.stuck.append(f"{scenario} seed {seed} {dec.id}: no answer for {stuck[0]} is accepted")
                break
            answers = {s: eng.pending(dec.id)["answers"][s]["choice"] for s in dec.sides}
            for s in dec.sides:
                assert not schema.check(dec.schema, answers[s], dec.rule)
            state, seed_bytes = eng.state, decision_seed(eng, dec)
            base = resolved(eng.system, state, dec, answers, seed_bytes)
            if want(dec):
                tally.add(probe(eng.system, state, dec, answers, seed_bytes, f"{scenario} seed {seed} {dec.id}",
                                facts, baseline=base))
            start = len(eng.gf.log)
            eng.resolve()
            same_as_logged(eng, start, dec, base[1], f"{scenario} seed {seed}")
            played += 1
    return tally


def same_as_logged(eng: Engine, start: int, dec: Decision, events: list[dict], where: str) -> None:
    """Raise unless ``events`` are the rules events the engine logged for ``dec`` from ``start`` on:
    the probe resolved the decision as the game did, with its dice."""
    logged = [{k: v for k, v in e["data"].items() if k != "decision"} for e in eng.gf.log[start:]
              if e["kind"] == "rules" and e["data"].get("decision") == dec.id]
    if logged != [json.loads(canonical_json(e)) for e in events]:
        raise AssertionError(f"{where} {dec.id}: the probe's resolution is not the engine's")


def replay_demo(work: Path, facts: tuple[str, ...] = FACTS) -> Tally:
    """Probe every decision of Heartland's shipped demo game (orders/heartland/heartland-demo, an
    umpired game played by its signed files) as it is replayed into the folder ``work``."""
    from hxref.crypto.signing import load_private_key
    from tests.conformance.harness import demo_folder
    from tests.played import read_manifest, replay_folder

    folder = demo_folder(SYSTEM)
    assert folder is not None
    man = read_manifest(folder)
    umpire_key = load_private_key(folder / man["umpire_key"])
    tally = Tally()
    waiting: tuple | None = None
    for what, _, eng in replay_folder(folder, work):
        if what == "resolve" and waiting is not None:
            same_as_logged(eng, *waiting, f"{man['scenario']} demo")
            waiting = None
        ready = eng.ready()
        if what != "submit" or not ready or waiting is not None:
            continue
        dec = ready[0]
        answers = {s: eng.pending(dec.id)["answers"][s]["choice"] for s in dec.sides}
        seed = decision_seed(eng, dec, umpire_key)
        base = resolved(eng.system, eng.state, dec, answers, seed)
        tally.add(probe(eng.system, eng.state, dec, answers, seed, f"{man['scenario']} demo {dec.id}", facts,
                        baseline=base))
        waiting = (len(eng.gf.log), dec, base[1])
    return tally
