"""What a side states, opens and shows in a Heartland game played with hidden armies (3.71).

Without an umpire each side's copy resolves every decision on its own Army Organization Display and
its belief of the enemy's (:mod:`.aod`).  The two copies agree on everything public only when every
public result that reads the enemy's hidden facts is given those facts by the enemy itself:

- :func:`public_answer`: what of an answer the enemy reads.  An impulse's orders and a defence are
  moves on the map, which both sides watch (8.21, 9.0): in clear, but for the standing orders left
  for the enemy's next assaults (9.0), which stay the side's own until they are used.  Bids and a
  declared level are revealed by the rules anyway (5.1, 5.15).  Of the Reorganization orders, what
  changes the map is public: burning (13.1), foraging (13.2), the Union's naval transport (4.33) and
  entrenchment (14.8x); the rest of the administration (replacements, leaders, WDO, ammunition,
  training, 4.32) is done on the side's own display, and the attrition choices (4.31) are its own:
  sealed until the proof.
- :func:`claims`: the facts of its boxes the rules read to make the results of its orders public,
  stated with the orders: for each force that moves or attacks, its commander's morale and
  administration points, ammunition and artillery and face (the IMC, 8.21-8.22, 3.54; the attack
  check, 8.41-8.42, 3.52b; the AP spent, 3.24, 3.61), and its units as they are (the movement
  allowance of a cavalry force, 8.22 with 3.61; forced-march and attack-check step losses, 8.3, 8.41,
  which name the unit that loses).  The commander's facts are more than the map shows (a counter's
  ratings are on it, its ML and AP are not) and no more than the result of the move tells an
  attentive enemy; the units' strengths are more than a move needs (a combat would tell them), claimed
  whole because a step lost on the march names its unit.  At the Reorganization Segment, the AP of the
  leaders who entrench (3.24a).
- :func:`reveals`: before the dice, the boxes of the forces ordered to attack (10.11: the attacker
  declares its strength); after, the boxes of the side's forces in a combat the resolution fought
  (10.6: the forces and strengths are told both sides), and, at a third tied bid, the side's Number
  Track (5.12: the side with more WEP goes first).
- :func:`shown` / :func:`with_shown`: the side's counters on the map as its own copy has them
  (3.71): the enemy's copy cannot know them after a change no event tells (a stack gone to attrition,
  a leader flipped at the Reorganization Segment, 4.31, 12.x).
"""
from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from . import model
from .aod import SEEN, TRACK, hex_box, leader_box
from .counters import top_counters
from .state_types import HeartlandState, is_full

#: the Reorganization orders that change the map (13.1, 13.2, 4.33): public
REORG_PUBLIC = ("destruction", "foraging", "naval")
#: the administration orders that change the map (14.8x entrenchment): public
ADMIN_PUBLIC = ("entrench",)
#: the orders kept for the enemy's next assaults (9.0): the side's own until used
SEALED_ORDERS = ("standing",)
#: a leader's facts the rules read when his force moves or attacks (8.21-8.22, 8.41-8.42, 3.24, 3.52b, 3.54)
LEADER_FACTS = ("ml", "ap", "asp", "artillery", "active")
#: the rule of a third tied bid, broken by WEP (5.12)
TIE_RULE = "5.12"


def public_answer(decision_kind: str, choice: Mapping[str, Any]) -> dict:
    """The part of an answer to a decision of ``decision_kind`` that the enemy reads (see the module)."""
    if decision_kind in ("orders", "defence"):
        return {k: copy.deepcopy(v) for k, v in choice.items() if k not in SEALED_ORDERS}
    if decision_kind == "reorg":
        out = {k: copy.deepcopy(v) for k, v in choice.items() if k in REORG_PUBLIC}
        admin = choice.get("administration") or {}
        shown = {k: copy.deepcopy(v) for k, v in admin.items() if k in ADMIN_PUBLIC}
        if shown:
            out["administration"] = shown
        return out
    return copy.deepcopy(dict(choice))


def _force_box(state: Any, force: str) -> str | None:
    """The box of ``force``: its leader's, or the hex box of an unled stack (``unled@HEX``)."""
    if model.is_unled(force):
        return hex_box(force.partition("@")[2])
    if force in state.get("leaders", {}):
        return leader_box(force)
    return None


def _unit_box(unit: Mapping[str, Any]) -> str:
    """The box a unit of a force lies in: its leader's, else its hex's (an unled stack)."""
    return leader_box(unit["leader"]) if unit.get("leader") else hex_box(str(unit.get("hex")))


def _claim(state: Any, force: str) -> dict[str, dict[str, Any]]:
    """What a moving force's owner states of its boxes: its commander's facts, and its units' arms
    and steps, each in the box it lies in (a subordinate's units in his own box, 3.1)."""
    out: dict[str, dict[str, Any]] = {}
    ld = state["leaders"].get(force)
    if ld is not None:
        out[leader_box(force)] = {"leader": {k: copy.deepcopy(ld[k]) for k in LEADER_FACTS if k in ld}}
    for uid in model.force_units(state, force):
        unit = state["units"].get(uid)
        if unit is not None:
            out.setdefault(_unit_box(unit), {}).setdefault("units", {})[uid] = copy.deepcopy(unit)
    return out


def _ordered_forces(choice: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    for mv in choice.get("moves") or []:
        if isinstance(mv, Mapping) and isinstance(mv.get("force"), str):
            out += [mv["force"]] + ([mv["merge"]] if isinstance(mv.get("merge"), str) else [])
    return list(dict.fromkeys(out))


def claims(state: HeartlandState, decision_kind: str, side: str, choice: Mapping[str, Any]) -> dict[str, Any]:
    """``side``'s claims with its answer: partial boxes (see the module)."""
    if not is_full(state):
        return {}
    out: dict[str, Any] = {}
    if decision_kind == "orders":
        for force in _ordered_forces(choice):
            if _force_box(state, force) is not None and force in model.forces(state, side):
                for name, part in _claim(state, force).items():
                    box = out.setdefault(name, {})
                    for key, value in part.items():
                        box[key] = {**box.get(key, {}), **value}
    elif decision_kind == "reorg":
        for o in (choice.get("administration") or {}).get("entrench") or []:
            lid = o.get("leader") if isinstance(o, Mapping) else o
            ld = state["leaders"].get(lid) if isinstance(lid, str) else None
            if isinstance(lid, str) and ld is not None and ld["side"] == side:
                out[leader_box(lid)] = {"leader": {"ap": ld.get("ap", 0)}}
    return out


def _boxes_in(state: Any, side: str, hexes: set[str]) -> list[str]:
    """``side``'s boxes standing in ``hexes``: its leaders there, and its unled stack there."""
    names = [leader_box(lid) for lid, ld in model.on_map_leaders(state, side) if ld.get("hex") in hexes]
    seen = top_counters(state, side)
    names += [hex_box(h) for h in hexes if h in seen]
    return names


def reveals(state: HeartlandState, decision_kind: str, side: str, choice: Mapping[str, Any] | None,
            events: Sequence[Mapping[str, Any]] | None) -> list[str]:
    """The boxes of ``side`` the rules open at this decision (see the module), sorted."""
    if events is None:
        if decision_kind != "orders" or choice is None or not is_full(state):
            return []
        names = {_force_box(state, mv["force"]) for mv in choice.get("moves") or []
                 if isinstance(mv, Mapping) and mv.get("attack") and isinstance(mv.get("force"), str)}
        return sorted(n for n in names if n is not None)
    if decision_kind == "bid":
        return [TRACK] if any(TIE_RULE in str(e.get("rule", "")) and e.get("type") == "initiative"
                              for e in events) else []
    if not is_full(state):
        return []
    targets = {str(e["target"]) for e in events if e.get("type") == "combat" and e.get("target")}
    if not targets:
        return []
    cur: Any = state.get("current") or {}
    imp: Mapping[str, Any] = cur.get("active_impulse") or {}
    names = set(_boxes_in(state, side, targets))
    if imp.get("side") == side:
        sources = {str(a["source"]) for a in imp.get("assaults") or [] if a.get("target") in targets and a.get("source")}
        names |= set(_boxes_in(state, side, sources))       # the whole stack attacks (10.11)
        for a in imp.get("assaults") or []:
            if a.get("target") in targets:
                names.add(_force_box(state, a["force"]) or "")
    for r in (choice or {}).get("react") or []:
        if isinstance(r, Mapping) and isinstance(r.get("force"), str):
            names.add(_force_box(state, r["force"]) or "")
    return sorted(n for n in names if n)


def shown(state: HeartlandState, side: str) -> dict:
    """``side``'s counters on the map as its copy has them (3.71)."""
    if not is_full(state):
        return {}
    return {SEEN: top_counters(state, side)}


def with_shown(public: Mapping[str, Any], side: str, shown_part: Mapping[str, Any]) -> dict:
    """``public`` with ``side``'s counters as it showed them."""
    out = dict(public)
    if SEEN in shown_part and SEEN in out:
        out[SEEN] = {**out[SEEN], side: copy.deepcopy(shown_part[SEEN])}
    return out
