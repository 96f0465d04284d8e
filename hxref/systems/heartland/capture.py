"""Capture of enemy wagons, depots, trains, the Chief Engineer and Union Naval Landings (8.64, 7.21,
7.22, 8.73, 8.81a) and the owner's voluntary removal to prevent it (7.21, 7.22).

State keys read or written::

    logistics[id]: {side, kind: wagon|depot, capacity, hex, leader}   (7.2)
    trains[id]: {side, hex}                                          (8.72, see :mod:`.rail`)
    chief_engineer: {hex: "2010"}                                    the Confederate Chief Engineer
    landings: {id: {hex, captured: bool, exhausted: bool}}           Union Naval Landings (8.92, 8.64a)
    pontoons: [...]                                                  (see :mod:`.engineers`)
    wep: {union: 120, confederate: 80}

Readings chosen where the rules are ambiguous (pinned by
``tests/heartland/test_capture.py``):

* "Alone" means no living enemy (owner's) combat unit in the hex; an
  escorting detachment is a combat unit, so an escorted wagon is not
  captured by entry (7.21, 8.52).
* 8.1: only forces with an active OC (or unled units) capture; a force led
  by an inactive leader passes without capturing.
* 8.64: a captured wagon or train changes side ("replaced by a counter of
  the capturer's colour"); the Chief Engineer is removed.  A depot captured
  by entry or advance is removed from play (8.64 gives no replacement for
  it); a depot **forced to retreat** becomes a wagon of the **capturer**
  with capacity = its defence strength after losses (8.64b, digest F11).
* 8.64a: a Union landing is never captured automatically: the Confederate
  OC may choose it (1 AP) with a combat unit, a leader and a Confederate
  wagon in the hex; WEP = that wagon's capacity (the largest, if several).
  The Union's WEP never fall below 0 (the Number Track, 3.16); the
  Confederates gain the full amount.  A landing is captured at most once.
* 8.81a: an unbridged pontoon alone in a hex is removed (not captured).
"""
from __future__ import annotations

from typing import Any, cast

from collections.abc import Mapping
from dataclasses import dataclass, field

from .state_types import FullGameState, Logistics, Turn
from ..base import Problem
from . import forces as fc
from . import model
from ...kit.events import Event, event

LANDING_AP = 1          # 8.64a, 3.24a


@dataclass
class Capture:
    """One thing taken (or removed) when a force enters a hex or wins it by combat (8.64)."""

    kind: str                     # wagon | depot | train | chief_engineer | landing | pontoon
    id: str
    hex: str
    captor: str                   # the capturing side
    force: str | None = None
    effect: str = ""              # "change_side" | "remove" | "wep"
    automatic: bool = True        # False: a choice the captor may make (8.64a)
    wep: int = 0                  # 8.64a: Confederate + / Union -
    capacity: int = 0             # 8.64b: the wagon a depot forced to retreat becomes
    charges: list = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.64"
    why: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems


def hex_combat_units(state: FullGameState, label: str, side: str) -> list[str]:
    """Living combat units of ``side`` in ``label`` (in boxes of leaders there, or unled)."""
    out = []
    for uid, u in state["units"].items():
        if u["side"] != side or u["steps"] <= 0:
            continue
        if u.get("leader"):
            ld: Mapping[str, Any] = state["leaders"].get(cast(str, u["leader"])) or {}
            h = state["leaders"][model.top_of(state, cast(str, u["leader"]))].get("hex") if ld else None
        else:
            h = u.get("hex")
        if h == label:
            out.append(uid)
    return out


def _logistics_hex(state: FullGameState, s: Logistics) -> str | None:
    if s.get("leader"):
        return state["leaders"][model.top_of(state, cast(str, s["leader"]))].get("hex")
    return s.get("hex")


def _landings(state: FullGameState) -> dict[str, Any]:
    raw = state.get("landings") or {}
    if isinstance(raw, Mapping):
        return {k: (v if isinstance(v, Mapping) else {"hex": str(v)}) for k, v in raw.items()}
    return {f"landing@{x}": {"hex": str(x)} for x in raw}


def captures_on_entry(state: FullGameState, force: str, label: str, *, by_combat: bool = False) -> list[Capture]:
    """8.64 (7.21, 7.22, 8.73, 8.81a): what ``force`` takes when it enters ``label`` (or, with
    ``by_combat``, when combat has eliminated or driven off every enemy combat unit there)."""
    side = model.force_side(state, force)
    enemy = model.other_side(side)
    label = str(label)
    how = "wins the hex by combat" if by_combat else "enters"
    if not model.units_of(state, force):
        return []                                   # 8.64: only combat units capture
    if hex_combat_units(state, label, enemy):
        return []                                   # not alone: defended
    oc = fc.force_oc(state, force)
    inactive = oc is not None and not state["leaders"][oc].get("active")
    out: list[Capture] = []

    def add(kind, id_, effect, rule, why):
        c = Capture(kind, id_, label, side, force, effect, rule=rule, why=f"{force} {how} {label}: {why}")
        if inactive and kind != "pontoon":
            c.problems.append(Problem(f"{oc} is inactive: only active leaders capture enemy supply", "8.1",
                                      ["force"]))
            c.why = f"{force} passes {label} without capturing: {oc} is inactive (8.1)"
        out.append(c)

    for take in _alone_in(state, label, enemy, side):
        add(*take)
    if side == "confederate":
        for lid, ln in sorted(_landings(state).items()):
            if ln.get("hex") == label and not ln.get("captured") and not ln.get("exhausted"):
                out.append(landing_capture(state, force, lid))
    return out


def _alone_in(state: FullGameState, label: str, enemy: str, side: str) -> list[tuple[str, str, str, str, str]]:
    """8.64, 8.81a: the ``enemy``'s wagons, depots, trains, Chief Engineer and unbridged pontoons in
    ``label``, each (kind, id, effect, rule, why) of its taking by ``side``."""
    out = []
    for sid, s in sorted((state.get("logistics") or {}).items()):
        if s.get("side") != enemy or _logistics_hex(state, s) != label:
            continue
        if s.get("kind") == "wagon":
            out.append(("wagon", sid, "change_side", "8.64, 7.21", f"the {enemy} wagon {sid} is captured and becomes {side}"))
        elif s.get("kind") == "depot":
            out.append(("depot", sid, "remove", "8.64, 7.22", f"the {enemy} depot {sid} is captured and removed"))
    for tid, t in sorted((state.get("trains") or {}).items()):
        if t.get("side") == enemy and t.get("hex") == label:
            out.append(("train", tid, "change_side", "8.64, 8.73", f"the {enemy} train {tid} is captured and becomes {side}"))
    ce = state.get("chief_engineer")
    if enemy == "confederate" and ce and ce.get("hex") == label and not ce.get("removed"):
        out.append(("chief_engineer", "chief_engineer", "remove", "8.64", "the Confederate Chief Engineer is removed"))
    for pt in state.get("pontoons") or []:
        if pt.get("side") == enemy and pt.get("hex") == label and pt.get("status") == "unbridged":
            out.append(("pontoon", pt["id"], "remove", "8.81a", f"the unbridged pontoon {pt['id']} is removed"))
    return out


def landing_capture(state: FullGameState, force: str, landing: str) -> Capture:
    """8.64a / H-29: the Confederate OC in a Union landing hex may capture it for 1 AP with a combat
    unit, a leader and a Confederate wagon there: Confederates + the wagon's capacity in WEP, Union -."""
    side = model.force_side(state, force)
    ln = _landings(state).get(landing) or {}
    label = str(ln.get("hex"))
    c = Capture("landing", landing, label, side, force, "wep", automatic=False, rule="8.64a")
    p = c.problems
    if side != "confederate":
        p.append(Problem("only the Confederates capture Union Naval Landings", "8.64a", ["force"]))
    if not ln:
        p.append(Problem(f"no Union Naval Landing {landing!r}", "8.64a", ["landing"]))
    elif ln.get("captured"):
        p.append(Problem(f"the landing in {label} has already been captured", "8.64a", ["landing"]))
    if model.force_hex(state, force) != label:
        p.append(Problem(f"{force} is not in the landing hex {label}", "8.64a", ["force"]))
    if not hex_combat_units(state, label, side):
        p.append(Problem("a capture needs at least 1 combat unit in the hex", "8.64a", ["force"]))
    oc = fc.hex_command(state, label, side).oc
    if oc is None:
        p.append(Problem("a capture needs a leader in the hex", "8.64a", ["force"]))
    elif not state["leaders"][oc].get("active"):
        p.append(Problem(f"{oc} is inactive: only active leaders capture (8.1)", "8.1", ["force"]))
    wagons = [s for s in (state.get("logistics") or {}).values()
              if s.get("side") == side and s.get("kind") == "wagon" and _logistics_hex(state, s) == label]
    if not wagons:
        p.append(Problem("a capture needs a Confederate wagon in the hex", "8.64a", ["force"]))
    if oc is not None:
        c.charges = [fc.APCharge(oc, LANDING_AP, "8.64a", f"{oc} captures the landing in {label}")]
        p += fc.ap_problems(state, c.charges)
    c.wep = max((int(w.get("capacity", 0)) for w in wagons), default=0)
    c.why = ("illegal: " + "; ".join(x.message for x in p)) if p else (
        f"{oc} pays {LANDING_AP} AP and captures the Union landing in {label}: Confederates +{c.wep} WEP, "
        f"Union -{c.wep} WEP (the wagon's capacity)")
    return c


def apply_capture(state: FullGameState, c: Capture) -> None:
    """Carry out one capture (see the module text for each kind)."""
    if c.problems:
        raise ValueError("cannot apply an illegal capture: " + c.why)
    if c.kind == "wagon":
        s = state["logistics"][c.id]
        s.update({"side": c.captor, "leader": None, "hex": c.hex})
    elif c.kind == "depot":
        state["logistics"].pop(c.id, None)
    elif c.kind == "train":
        t = state["trains"][c.id]
        t["side"] = c.captor
        t.pop("run", None)
    elif c.kind == "chief_engineer":
        state["chief_engineer"]["removed"] = True
        state["chief_engineer"]["hex"] = None
    elif c.kind == "pontoon":
        from .engineers import remove_pontoon

        remove_pontoon(state, c.id)
    elif c.kind == "landing":
        fc.apply_charges(state, c.charges)
        raw = state.get("landings")
        if not isinstance(raw, Mapping):
            state["landings"] = raw = _landings(state)
        cast(dict, raw)[c.id] = dict(raw[c.id]) if not isinstance(raw[c.id], dict) else raw[c.id]
        raw[c.id]["captured"] = True
        wep = state.setdefault("wep", {})
        wep["confederate"] = wep.get("confederate", 0) + c.wep
        wep["union"] = max(0, wep.get("union", 0) - c.wep)


# --- 8.64a exhausting a captured landing ---------------------------------------------------

def exhaust_landing_problems(state: FullGameState, landing: str) -> list[Problem]:
    """8.64a: the Union may declare a landing exhausted only after the Confederates captured it."""
    ln = _landings(state).get(landing)
    if ln is None:
        return [Problem(f"no Union Naval Landing {landing!r}", "8.64a", ["landing"])]
    if not ln.get("captured"):
        return [Problem("the Union may not exhaust a landing before the Confederates capture it", "8.64a",
                        ["landing"])]
    if ln.get("exhausted"):
        return [Problem("the landing is already exhausted", "8.64a", ["landing"])]
    return []


def apply_exhaust_landing(state: FullGameState, landing: str) -> None:
    probs = exhaust_landing_problems(state, landing)
    if probs:
        raise ValueError(probs[0].message)
    state["landings"][landing]["exhausted"] = True


def exhaust_order_problems(state: FullGameState, side: str, landings: object) -> list[Problem]:
    """8.64a: the ``exhaust`` order of an impulse: captured Union landings the Union declares
    exhausted in its own impulse (reading: in any Union impulse after the capture)."""
    if not isinstance(landings, list):
        return [Problem("`exhaust` is a list of Union Naval Landings", "8.64a", ["exhaust"])]
    if landings and side != "union":
        return [Problem("only the Union declares a landing exhausted", "8.64a", ["exhaust"])]
    for i, lid in enumerate(landings):
        found = exhaust_landing_problems(state, str(lid))
        if found:
            return [Problem(found[0].message, found[0].rule, ["exhaust", i])]
        if landings.index(lid) != i:
            return [Problem(f"the landing {lid} is named twice", "8.64a", ["exhaust", i])]
    return []


def exhaust_landings(state: FullGameState, side: str, landings: list[str]) -> list[Event]:
    """8.64a: carry out an accepted ``exhaust`` order; its events (the flipped counter is public)."""
    events = []
    for lid in landings:
        if exhaust_order_problems(state, side, [lid]):
            continue
        apply_exhaust_landing(state, lid)
        where = state["landings"][lid].get("hex")
        events.append(event("landing.exhausted",
                            f"the Union declares its captured landing in {where} exhausted and flips it", "8.64a",
                            side=side, id=lid, hex=where))
    return events


# --- 8.64b depots forced to retreat --------------------------------------------------------

def depot_forced_retreat(state: FullGameState, depot: str, captor: str, strength_after: int) -> Capture:
    """8.64b: a depot forced to retreat is captured at once and becomes a ``captor`` wagon whose
    capacity is its defence strength after losses (none left: nothing)."""
    s = state["logistics"][depot]
    c = Capture("depot", depot, str(s.get("hex")), captor, None, "to_wagon", rule="8.64b")
    c.wep = 0
    c.why = (f"the {s['side']} depot {depot} must retreat: captured, becomes a {captor} wagon of capacity "
             f"{max(0, strength_after)}")
    c.capacity = max(0, strength_after)
    return c


def apply_depot_retreat(state: FullGameState, c: Capture) -> None:
    cap = c.capacity
    if cap <= 0:
        state["logistics"].pop(c.id, None)
        return
    s = state["logistics"][c.id]
    s.update({"side": c.captor, "kind": "wagon", "capacity": cap, "cf": 0, "leader": None})


def depot_retreats(state: FullGameState, combat: Any) -> list[Event]:
    """8.64b after one combat is applied: the depots of a defender forced to retreat from the hex
    fought for, with none of its combat units left there, are captured at once and become the
    attacker's wagons; the events.  The combat (:mod:`.combat`) gives a depot no CF and no losses
    (7.22's CF is not added to the defence), so its strength after losses is its capacity."""
    side, captor = combat.defender_side, combat.attacker_side
    events: list[Event] = []
    for plan in combat.retreats:
        if plan.side != side or plan.start != combat.target or plan.eliminated:
            continue
        if hex_combat_units(state, plan.start, side):
            continue                                    # the hex is still held: nothing retreats from it
        for sid, s in sorted((state.get("logistics") or {}).items()):
            if s.get("side") != side or s.get("kind") != "depot" or _logistics_hex(state, s) != plan.start:
                continue
            c = depot_forced_retreat(state, sid, captor, int(s.get("capacity", 0)))
            apply_depot_retreat(state, c)
            events.append(event("capture", c.why + " (8.64b)", c.rule, side=captor, id=sid, hex=plan.start))
    return events


# --- 7.21, 7.22 voluntary removal ----------------------------------------------------------

@dataclass
class Removal:
    id: str
    side: str
    problems: list[Problem] = field(default_factory=list)
    rule: str = "7.21, 7.22"
    why: str = ""


def voluntary_removal(state: FullGameState, side: str, sid: str) -> Removal:
    """7.21, 7.22: the owner may remove his wagon or depot during his own impulse to deny it to the enemy."""
    r = Removal(sid, side)
    s = (state.get("logistics") or {}).get(sid)
    if s is None or s.get("kind") not in ("wagon", "depot"):
        r.problems.append(Problem(f"{sid!r} is not a wagon or depot", "7.21, 7.22", ["remove"]))
    elif s.get("side") != side:
        r.problems.append(Problem(f"{sid} is not {side}'s", "7.21, 7.22", ["remove"]))
    imp = (state.get("current") or cast(Turn, {})).get("active_impulse")
    if imp is not None and imp.get("side") != side:
        r.problems.append(Problem(f"only during {side}'s own impulse", "7.21, 7.22", ["remove"]))
    r.why = ("illegal: " + "; ".join(x.message for x in r.problems)) if r.problems else \
        f"{side} removes {sid} so that it cannot be captured"
    return r


def apply_removal(state: FullGameState, r: Removal) -> None:
    if r.problems:
        raise ValueError("cannot remove: " + r.why)
    state["logistics"].pop(r.id, None)
