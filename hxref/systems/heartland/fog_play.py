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
- :func:`claims`: the facts of its boxes that the public results of its orders read, on every face of
  the dice they may roll, stated with the orders (before the dice): for each force that moves or
  attacks, its commander's face (the MR column of the IMC, 8.21-8.22; the BR of an attack check,
  8.41; the pay, 4.25), his ML when he gives some up with the roll (3.54: at least what he gives
  up), his AP when the move pays some or may bring an attack check (3.24: at least the AP its orders
  and its check cost, :func:`ap_read`; with less, the value, as a hasty attack reads it, 8.41); its
  subordinates' faces; and of
  its living units which they are, their arms and sizes (8.22b-c, 3.23), with an unled stack's ML,
  steps and names when it may check to attack (3.52b).  Never a unit's CF, nor the steps of a led
  force (its losses on the march or at a check are its owner's to tell, 8.31a, 8.41a), nor ammunition
  or artillery.  At the Reorganization Segment, the AP of the leaders who entrench (3.24a: at least
  what it costs).  An AP or ML the results read only against a bound is claimed as that bound,
  ``{"at_least": K}`` (:func:`bounded`): the enemy's copy believes K (:func:`believed`) and the proof
  holds the claim true when it is the claim the rules give on the true boxes (a bound K when the value
  is at least K, else the value).  A unit the enemy's copy
  never saw (a detachment made at a sealed Reorganization Segment, 8.51) is believed as the side's
  detachment counter, what is claimed of it laid over (:func:`believed`).
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

from ...kit.protocol import Problem, overlay
from . import model
from .administration import ENTRENCH_AP
from .aod import SEEN, TRACK, hex_box, leader_box
from .counters import top_counters
from .state_types import HeartlandState, is_full

#: the Reorganization orders that change the map (13.1, 13.2, 4.33): public
REORG_PUBLIC = ("destruction", "foraging", "naval")
#: the administration orders that change the map (14.8x entrenchment): public
ADMIN_PUBLIC = ("entrench",)
#: the orders kept for the enemy's next assaults (9.0): the side's own until used
SEALED_ORDERS = ("standing",)
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


#: what the rules read of a moving force's commander whatever it is ordered: the face his counter
#: shows, which gives the MR column of the IMC (8.21-8.22), the BR of an attack check (8.41) and
#: whether he may declare an attack (8.1)
LEADER_ALWAYS = ("active",)
#: how a claim states a value the public results read only against a bound (the AP a move pays, 3.24;
#: the ML given up, 3.54): "at least" so much, which the enemy's copy believes
AT_LEAST = "at_least"


def bounded(value: int, least: int) -> int | dict[str, int]:
    """The claim of ``value`` where the public results read only whether it is at least ``least``:
    ``{"at_least": least}`` when it is, else the value itself (the results then depend on it)."""
    return {AT_LEAST: least} if value >= least else value


def ap_read(state: Any, mv: Mapping[str, Any], force: str, zoc: set[str] | None,
            detachment: Mapping[str, Any]) -> int:
    """The most AP the public results of the move ``mv`` may read of ``force``'s commander, on any face
    of its dice: what the orders of his own move charge him (:func:`.impulse_check.move_ap_bill`, the
    costs of the rules and of the Detachment Chart's data ``detachment``), and the AP of an attack check
    when the move may bring one (8.41: with none left it is a hasty attack, told with it)."""
    from .attack import CHECK_AP
    from .impulse_check import move_ap_bill

    due = move_ap_bill(state, force, mv, detachment)[0] if mv.get("force") == force else 0
    return due + (CHECK_AP if _may_check(state, mv, force, zoc) else 0)


#: what the rules read of the units of a moving force, whatever it is ordered: which units move with
#: it (its leader's box, or the unled stack of its hex), their arms (the slowest sets an unled
#: force's MR, 8.22b; cavalry alone reads the next table, 8.22c; detachments stay behind, 8.22b) and
#: sizes (the stacking where it stops, 3.23)
UNIT_ALWAYS = ("side", "leader", "hex", "arm", "size")
#: what an unled stack's attack check reads of each unit (3.52b): its name, told with its roll, its
#: ML and the steps it has (the ML of the side it shows)
UNIT_CHECK = ("name", "ml", "steps")


def _enemy_zoc(state: Any, side: str, hexmap: Any) -> set[str] | None:
    """The hexes in the enemy's ZOC (3.6), or None without a map."""
    if hexmap is None:
        return None
    from .zoc import zoc_hexes

    return set(zoc_hexes(state, model.other_side(side), hexmap))


def _may_check(state: Any, mv: Mapping[str, Any], force: str, zoc: set[str] | None) -> bool:
    """May the force make an attack check with this move, on any dice: ordered to attack (8.4), or
    starting, passing or ending in the enemy's ZOC (8.41; None: taken to)."""
    if mv.get("attack"):
        return True
    if zoc is None:
        return True
    hexes = [h for h in mv.get("path") or [] if isinstance(h, str)]
    start = model.force_hex(state, force) if model.is_unled(force) or force in state["leaders"] else None
    return any(h in zoc for h in [start, *hexes] if h)


def leader_claim(state: Any, mv: Mapping[str, Any], force: str, zoc: set[str] | None,
                 detachment: Mapping[str, Any]) -> dict[str, Any]:
    """What the public results of the move ``mv`` read of ``force``'s commander, on every face of its
    dice: his face (:data:`LEADER_ALWAYS`); his ML when he gives some up with the IMC roll (3.54: at
    least what he gives up); his AP when the move may read some (:func:`ap_read`: at least that)."""
    ld = state["leaders"][force]
    out = {k: copy.deepcopy(ld[k]) for k in LEADER_ALWAYS if k in ld}
    given = int(mv.get("ml_reduction") or 0)
    if given > 0:
        out["ml"] = bounded(int(ld.get("ml", 0)), given)
    least = ap_read(state, mv, force, zoc, detachment)
    if least > 0:
        out["ap"] = bounded(int(ld.get("ap", 0)), least)
    return out


def unit_reads(state: Any, mv: Mapping[str, Any], force: str, zoc: set[str] | None) -> list[str]:
    """The fields of each of ``force``'s units whose values the public results of the move ``mv``
    read, on every face of its dice: :data:`UNIT_ALWAYS`, and :data:`UNIT_CHECK` when an unled stack
    may make an attack check (3.52b).  A led force's check names no unit (8.41a: the step it loses
    is its owner's to tell), nor does a forced march's loss (8.31a) or a blizzard's (5.29)."""
    out = list(UNIT_ALWAYS)
    if model.is_unled(force) and _may_check(state, mv, force, zoc):
        out += UNIT_CHECK
    return out


def _force_box(state: Any, force: str) -> str | None:
    """The box of ``force``: its leader's, or the hex box of an unled stack (``unled@HEX``)."""
    if model.is_unled(force):
        return hex_box(force.partition("@")[2])
    if force in state.get("leaders", {}):
        return leader_box(force)
    return None


def _claim(state: Any, mv: Mapping[str, Any], force: str, zoc: set[str] | None,
           detachment: Mapping[str, Any]) -> dict[str, dict]:
    """What ``force``'s owner states of its boxes for the move ``mv`` (its own, or the force it takes
    along), by box: of its commander :func:`leader_claim`, of its subordinates
    their faces (the impulse's pay counts the active leaders, 4.25, and the move may flip them), of each of its living
    units, in the box it stands in (its leader's or a subordinate's, or its hex), those
    :func:`unit_reads` names."""
    out: dict[str, dict] = {}
    ld = state["leaders"].get(force)
    if ld is not None:
        out[leader_box(force)] = {"leader": leader_claim(state, mv, force, zoc, detachment)}
        for sl in model.force_leaders(state, force)[1:]:      # 4.25: the pay counts every active leader
            out[leader_box(sl)] = {"leader": {k: state["leaders"][sl][k] for k in LEADER_ALWAYS}}
    reads = unit_reads(state, mv, force, zoc)
    for uid in model.units_of(state, force):
        u = state["units"][uid]
        name = leader_box(u["leader"]) if u.get("leader") else hex_box(u["hex"])
        out.setdefault(name, {}).setdefault("units", {})[uid] = {k: copy.deepcopy(u[k]) for k in reads if k in u}
    return out


def _ordered(choice: Mapping[str, Any]) -> list[tuple[Mapping[str, Any], str]]:
    """Each move with the force it names and the force it takes along (8.25a), once each."""
    out: dict[str, Mapping[str, Any]] = {}
    for mv in choice.get("moves") or []:
        if isinstance(mv, Mapping) and isinstance(mv.get("force"), str):
            out.setdefault(mv["force"], mv)
            if isinstance(mv.get("merge"), str):
                out.setdefault(mv["merge"], mv)
    return [(mv, force) for force, mv in out.items()]


def claims(state: HeartlandState, decision_kind: str, side: str, choice: Mapping[str, Any],
           hexmap: Any, detachment: Mapping[str, Any]) -> dict[str, Any]:
    """``side``'s claims with its answer: partial boxes (see the module); ``hexmap`` the game's map,
    on which the enemy's ZOC is found (None: every move is taken to meet it); ``detachment`` the
    Detachment Chart's data (the AP a detachment order costs, 8.51)."""
    if not is_full(state):
        return {}
    out: dict[str, Any] = {}
    if decision_kind == "orders":
        zoc = _enemy_zoc(state, side, hexmap)
        for mv, force in _ordered(choice):
            if _force_box(state, force) is not None and force in model.forces(state, side):
                for name, part in _claim(state, mv, force, zoc, detachment).items():
                    box = out.setdefault(name, {})
                    for key, value in part.items():
                        box[key] = {**box.get(key, {}), **value}
    elif decision_kind == "reorg":
        for o in (choice.get("administration") or {}).get("entrench") or []:
            lid = o.get("leader") if isinstance(o, Mapping) else o
            ld = state["leaders"].get(lid) if isinstance(lid, str) else None
            if isinstance(lid, str) and ld is not None and ld["side"] == side:
                out[leader_box(lid)] = {"leader": {"ap": bounded(int(ld.get("ap", 0)), ENTRENCH_AP)}}
    return out


def believed(box: Any, part: Mapping[str, Any], counter: Mapping[str, Any]) -> Any:
    """The box the enemy's copy believes once ``part`` of it is claimed: ``box`` (None: nothing) with
    ``part`` laid over it, a bound (:data:`AT_LEAST`) taken as its least value.  A unit claimed that
    the copy never saw is a detachment made on the enemy's own display (8.51; the only unit made
    there): it starts as the side's detachment counter ``counter`` (the Detachment Chart's: 8.52,
    every one alike, of one step while it lives), what is claimed of it laid over."""
    told = _least(part)
    units = told.get("units")
    if isinstance(units, Mapping):
        seen = (box or {}).get("units") or {} if isinstance(box, Mapping) else {}
        told = {**told, "units": {uid: (u if uid in seen or not isinstance(u, Mapping) else {**counter, **u})
                                  for uid, u in units.items()}}
    return overlay(box, told)


def _least(part: Any) -> Any:
    if isinstance(part, Mapping):
        if set(part) == {AT_LEAST}:
            return part[AT_LEAST]
        return {k: _least(v) for k, v in part.items()}
    return part


#: the fields of a leader a claim bounds ("at least", :func:`bounded`): his AP (3.24) and ML (3.54)
BOUNDED = ("ap", "ml")
#: what a claim may state of a leader's box: his face, and his AP and ML as bounds
LEADER_CLAIMED = (*LEADER_ALWAYS, *BOUNDED)
#: what a claim may state of a unit
UNIT_CLAIMED = (*UNIT_ALWAYS, *UNIT_CHECK)
#: the rule that reads a leader's field a claim states: his AP (3.24), ML (3.54), face (the IMC, 8.21)
BOUND_RULES = {"ap": "3.24", "ml": "3.54"}


def claim_problem(state: HeartlandState, decision_kind: str, side: str, choice: Mapping[str, Any],
                  names: Sequence[str], claims: Any, detachment: Mapping[str, Any]) -> Problem | None:
    """Why ``claims``, the claims of ``side``'s answer whose public part is ``choice``, cannot be those the
    rules give, as the enemy's copy (its ``state``) tells at once: the path into the claims and what
    is wrong (its rule: what the rules read; none: the form), or None when they may be (the proof holds
    them to the true boxes).  Their form: each box
    one of ``side``'s ``names``; a leader's part his :data:`LEADER_CLAIMED` fields, a unit's its
    :data:`UNIT_CLAIMED` fields, each value of the form the state's field has, a bounded field
    (:data:`BOUNDED`) ``{"at_least": K}`` with K a whole number, or the value itself.  Their bounds, where the
    public facts give them (:func:`_owed`): what the answer reads of each commander is claimed, at
    exactly the bound it reads."""
    from typing import get_type_hints

    from .state_types import Leader, Unit

    if not isinstance(claims, Mapping):
        return Problem("the claims are a mapping of box names to what they state", "")
    leader_form, unit_form = get_type_hints(Leader), get_type_hints(Unit)
    for name, part in claims.items():
        where: tuple[str, ...] = (str(name),)
        if name not in names:
            return Problem(f"`{name}` is not a box of {side}'s", "", list(where))
        lid = str(name).partition(":")[2] if str(name).startswith(leader_box("")) else None
        allowed = ("leader", "units") if lid else ("units",)
        if not isinstance(part, Mapping) or set(part) - set(allowed):
            return Problem(f"a claim of a box states {' and '.join(allowed)}", "", list(where))
        if "leader" in part:
            found = _fields_problem(part["leader"], LEADER_CLAIMED, leader_form, BOUNDED)
            if found is not None:
                return Problem(found[1], "", [*where, "leader", *found[0]])
        units = part.get("units")
        if "units" in part and not isinstance(units, Mapping):
            return Problem("the units a claim states are a mapping of unit ids", "", [*where, "units"])
        for uid, u in (units or {}).items():
            found = _fields_problem(u, UNIT_CLAIMED, unit_form, ())
            if found is not None:
                return Problem(found[1], "", [*where, "units", str(uid), *found[0]])
    for name, reads in _owed(state, decision_kind, side, choice, detachment).items():
        told = ((claims.get(name) or {}).get("leader") or {})
        for key, bounds in reads.items():
            where = (name, "leader", key)
            rule = BOUND_RULES.get(key, "8.21")
            if key not in told:
                if 0 not in bounds:
                    return Problem(f"the answer reads {key} of {name.partition(':')[2]}, and the claim leaves it out",
                                   rule, list(where))
                continue
            value = told[key]
            # a value itself is the rules' claim only below the bound: the proof holds it to that
            if key in BOUNDED and isinstance(value, Mapping) and (value[AT_LEAST] not in bounds or value[AT_LEAST] == 0):
                wanted = " or ".join(str(b) for b in sorted(bounds) if b)
                return Problem(f"the answer reads {key} against {wanted}: it claims at least {value[AT_LEAST]}",
                               rule, list(where))
    return None


def _fields_problem(part: Any, claimed: Sequence[str], form: Mapping[str, Any],
                    bounded_fields: Sequence[str]) -> tuple[tuple[str, ...], str] | None:
    """Why ``part`` is not a claim of some of the fields ``claimed``, each of the form ``form`` gives (the
    state's type), a field of ``bounded_fields`` a whole number or ``{"at_least": K}``."""
    if not isinstance(part, Mapping):
        return (), f"a claim states some of {', '.join(claimed)}"
    for key, value in part.items():
        if key not in claimed:
            return (str(key),), f"a claim states {', '.join(claimed)}, not `{key}`"
        if key in bounded_fields and isinstance(value, Mapping):
            if set(value) != {AT_LEAST} or not _fits(value[AT_LEAST], int) or value[AT_LEAST] < 0:
                return (str(key),), f"a bound is {{{AT_LEAST}: K}}, K a whole number from 0"
        elif not _fits(value, form[key]) or (key in bounded_fields and value < 0):
            return (str(key),), f"{_short(value)} is not of the form of `{key}`"
    return None


def _fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` has the form of the type ``hint`` (a field's type in the state): a bool is no
    whole number, a whole number no bool."""
    import types
    from typing import get_args, get_origin

    origin = get_origin(hint)
    if origin is types.UnionType:
        return any(_fits(value, h) for h in get_args(hint))
    if origin is list:
        return isinstance(value, list) and all(_fits(v, get_args(hint)[0]) for v in value)
    if hint is type(None):
        return value is None
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return hint in (str, bool) and isinstance(value, hint)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _owed(state: Any, decision_kind: str, side: str, choice: Mapping[str, Any],
          detachment: Mapping[str, Any]) -> dict[str, dict[str, tuple[int, ...]]]:
    """What the public facts tell ``side``'s claims must state of its commanders, by box: each field
    of a leader's part with the bounds the rules may read of it (0 among them: the field may be left
    out; none: an exact field).  An ordered force's commander states his face; the AP his move's
    orders charge him (:func:`.impulse_check.move_ap_bill`, on the public orders) and an attack
    check's when he may make one (only the ZOC, which this copy may not see as the signer does,
    leaves that open unless he is ordered to attack); the ML he gives up; at the Reorganization
    Segment, the AP of a leader who entrenches."""
    from .attack import CHECK_AP
    from .impulse_check import move_ap_bill

    out: dict[str, dict[str, tuple[int, ...]]] = {}
    if not is_full(state):
        return out
    if decision_kind == "orders":
        for mv, force in _ordered(choice):
            ld = state["leaders"].get(force)
            if ld is None or ld.get("side") != side or force not in model.forces(state, side):
                continue
            due = move_ap_bill(state, force, mv, detachment)[0] if mv.get("force") == force else 0
            ap = (due + CHECK_AP,) if mv.get("attack") else (due, due + CHECK_AP)
            reads: dict[str, tuple[int, ...]] = {k: () for k in LEADER_ALWAYS if k in ld}
            reads["ap"] = ap
            given = mv.get("ml_reduction") or 0
            if isinstance(given, int) and given > 0:
                reads["ml"] = (given,)
            out[leader_box(force)] = reads
    elif decision_kind == "reorg":
        admin = choice.get("administration")
        entrench = admin.get("entrench") if isinstance(admin, Mapping) else None
        for o in entrench if isinstance(entrench, list) else []:
            lid = o.get("leader") if isinstance(o, Mapping) else o
            ld = state["leaders"].get(lid) if isinstance(lid, str) else None
            if ld is not None and ld["side"] == side:
                out[leader_box(str(lid))] = {"ap": (ENTRENCH_AP,)}
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
