"""Dense fog of war (optional): rule 3.72, applied on top of :mod:`.views` (3.71).

If both players agree (``options.dense_fog``):

1. unit strengths are shown to the enemy only when a combat is resolved;
2. a player's own attrition rolls are kept secret;
3. wound and brevet markers are kept on the AOD, not shown to the enemy;
4. river transport, pontoons laid, new trains and new Union engineer brigades
   are announced only in the Reorganization Segment.

State keys read: ``options.dense_fog`` (true/false), and the keys of :mod:`.model`
(``units[id].cf/steps``, ``leaders[id].wound/brevet/artillery``).

Readings chosen (pinned by ``tests/heartland/test_dense_fog.py``):

* :func:`redact` takes the *viewer's* side and hides the other side's
  secrets; a view of the public (``side`` None) loses both sides' secrets.
* (1) "strength" is a unit's CF and its steps (a reduced counter shows a
  lower CF) and a leader's artillery strength; arm and size stay visible.
  :func:`combat_disclosure` lists what both sides learn at resolution.
* (2) "may keep his own attrition die rolls secret" implies that without the
  option they are rolled in the open.  Without dense fog the Supply Recheck's
  attrition die (:mod:`.reorg_supply_recheck`) is everyone's: its faces, who
  rolled it and for which force, and :func:`attrition_events` writes a public
  event with the force and the die; the DRMs, the step losses and the
  deactivation it causes stay on the roller's hidden AOD (3.71), in the
  Supply Recheck's own event.  With dense fog the die is the roller's alone
  and so is that event, which cites 3.72(2).  A roll record of the other
  side's attrition that reaches a view (:func:`redact_rolls`) loses its faces
  under dense fog.
* (3) ``wound``, ``sick`` and ``brevet`` keys of enemy leaders are dropped,
  and a top counter's stars are the intrinsic ones (as :mod:`.views` shows).
* (4) events are recognised by their ``type`` (see :func:`deferred_kind`) or
  an explicit ``"announce": "reorganization"``; Confederate engineers are not
  deferred (the rule names Union engineer brigades).  The owner sees them at
  once; the enemy's copy waits for the Reorganization Segment.
"""
from __future__ import annotations

import copy
from typing import Final, Iterable
from .state_types import FullGameState
from ...kit.events import Event, event

SIDES = ("union", "confederate")
STRENGTH_KEYS = ("cf", "steps")                  # 3.72(1)
LEADER_STRENGTH_KEYS = ("artillery",)            # 3.72(1): artillery strength
MARKER_KEYS = ("wound", "sick", "brevet")        # 3.72(3)


def enabled(options: dict | None) -> bool:
    """3.72 is in play."""
    return bool((options or {}).get("dense_fog"))


def _others(side: str | None) -> tuple[str, ...]:
    return tuple(s for s in SIDES if s != side)


def redact(view: dict, side: str | None, options: dict | None) -> dict:
    """3.72(1)-(3): ``view`` as ``side`` may see it under dense fog (a new dict; unchanged
    when the option is off)."""
    v = copy.deepcopy(view)
    if not enabled(options):
        return v
    hide = set(_others(side))
    for uid, u in (v.get("units") or {}).items():
        if u.get("side") in hide:
            for k in STRENGTH_KEYS:
                if k in u:
                    u[k] = None
            u["strength_hidden"] = "3.72(1)"
    for lid, ld in (v.get("leaders") or {}).items():
        if ld.get("side") in hide:
            for k in LEADER_STRENGTH_KEYS:
                if k in ld:
                    ld[k] = None
            for k in MARKER_KEYS:
                ld.pop(k, None)
    for s, hexes in (v.get("seen") or {}).items():
        if s not in hide:
            continue
        for entry in hexes.values():
            top = entry.get("top", {})
            for k in MARKER_KEYS + STRENGTH_KEYS:
                top.pop(k, None)
    if "rolls" in v:
        v["rolls"] = redact_rolls(v["rolls"], side, options)
    if isinstance(v.get("pontoons"), list):     # 3.72(4): laid, not yet announced in the Reorganization Segment
        v["pontoons"] = [p for p in v["pontoons"] if not (p.get(UNANNOUNCED) and p.get("side") in hide)]
    return v


def is_attrition(roll: dict) -> bool:
    return str(roll.get("purpose", "")).lower().startswith("attrition")


def redact_rolls(rolls: Iterable[dict], side: str | None, options: dict | None) -> list[dict]:
    """3.72(2): the other side's attrition rolls, without their faces."""
    out = []
    for r in rolls:
        r = dict(r)
        if enabled(options) and is_attrition(r) and r.get("by") != side:
            r["faces"] = None           # the roll is shown, its faces are the roller's (3.72(2))
        out.append(r)
    return out


def attrition_events(state: FullGameState, result) -> list[Event]:
    """3.72(2): an event for each attrition check of a Supply Recheck step ``result`` (its
    ``checks``): without dense fog everyone reads which force rolled and the die's face (not
    its DRMs, losses or deactivation: the AOD's, 3.71); with dense fog only the roller does."""
    side = getattr(result, "side", None)
    secret = enabled(state.get("options"))
    out = []
    for chk in getattr(result, "checks", None) or []:
        if chk.roll is None:
            continue
        if secret:
            text = (f"{side}: {chk.force} checks attrition (4.31): the die rolled {chk.roll}, kept secret "
                    f"from the enemy (dense fog, 3.72(2))")
            out.append(event("reorganization.attrition", text, "4.31, 3.72(2)", side=side, force=chk.force,
                             roll=chk.roll, visible_to=[str(side)]))
        else:
            text = (f"{side}: {chk.force} checks attrition (4.31): the die rolled {chk.roll}, in the open; "
                    f"what it costs is on the {side} Army Organization Display (3.71)")
            out.append(event("reorganization.attrition", text, "4.31", side=side, force=chk.force, roll=chk.roll))
    return out


def combat_disclosure(state: FullGameState, units: Iterable[str]) -> dict:
    """3.72(1): the strengths both sides learn when a combat is resolved: unit -> CF showing."""
    from .model import unit_cf

    return {uid: {"side": state["units"][uid]["side"], "arm": state["units"][uid]["arm"],
                  "cf": unit_cf(state["units"][uid]), "steps": state["units"][uid]["steps"], "rule": "3.72(1)"}
            for uid in units}


def deferred_kind(event) -> str | None:
    """3.72(4): which deferred kind ``event`` (a dict with ``type``, or an object with
    ``type``/``kind``) is, or None."""
    if isinstance(event, dict):
        if event.get("announce") == "reorganization":
            return "announce"
        t = str(event.get("type") or event.get("kind") or "")
        side = event.get("side")
    else:
        t = str(getattr(event, "type", None) or getattr(event, "kind", "") or "")
        side = getattr(event, "side", None)
    t = t.lower().replace("-", "_")
    tokens = set(t.replace(".", "_").split("_"))
    if "river" in tokens and "transport" in tokens:
        return "river_transport"
    if "pontoon" in tokens and tokens & {"laid", "lay", "lays", "bridge", "placed"}:
        return "pontoon"
    if "train" in tokens and tokens & {"new", "bought", "purchase", "purchased", "built"}:
        return "train"
    if "engineer" in tokens and tokens & {"new", "bought", "purchase", "purchased", "brigade"} \
            and side in (None, "union") and "chief" not in tokens:
        return "engineer_brigade"
    return None


def deferred_announcements(events: Iterable, options: dict | None = None) -> tuple[list, list]:
    """3.72(4): split ``events`` into what the enemy is told now and what waits for the
    Reorganization Segment (order kept).  With ``options`` given and dense fog off, all is now."""
    events = list(events)
    if options is not None and not enabled(options):
        return events, []
    now: list = []
    later: list = []
    for e in events:
        (later if deferred_kind(e) else now).append(e)
    return now, later


#: the state's queue of 3.72(4) announcements waiting for the Reorganization Segment: the public
#: copies of deferred events (a key of no view: the umpire's until it is released)
ANNOUNCEMENTS: Final = "announcements"
#: the mark on a pontoon laid under dense fog, until its announcement: off the enemy's map
UNANNOUNCED: Final = "unannounced"


def defer(state: FullGameState, events: list[Event]) -> list[Event]:
    """3.72(4) at resolution: each deferred event of a side is its owner's alone now, and its public
    copy waits in the state for the Reorganization Segment, released after its start event
    (:func:`release`); a pontoon it lays is off the enemy's map until then.  Unchanged without
    dense fog."""
    options = state.get("options")
    if not enabled(options):
        return events
    _now, later = deferred_announcements(events, options)
    held = {id(e) for e in later if e.get("side") in SIDES and "visible_to" not in e}
    out: list[Event] = []
    for e in events:
        if id(e) in held:
            state.setdefault(ANNOUNCEMENTS, []).append(copy.deepcopy(e))
            for pt in state.get("pontoons") or []:
                if pt.get("id") == e.get("pontoon"):
                    pt[UNANNOUNCED] = True
            e = {**e, "visible_to": [str(e.get("side"))], "rule": ", ".join(filter(None, (e.get("rule"), "3.72(4)")))}
        out.append(e)
        if e.get("type") == "reorganization.start":
            out += release(state)
    return out


def release(state: FullGameState) -> list[Event]:
    """3.72(4): the Reorganization Segment: every held announcement is made to both sides."""
    held = state.pop(ANNOUNCEMENTS, None) or []
    for pt in state.get("pontoons") or []:
        pt.pop(UNANNOUNCED, None)
    return [event("announcement",
                  f"announced in the Reorganization Segment (3.72(4)): {e.get('text', e.get('type'))}", "3.72(4)",
                  side=e.get("side"))
            for e in held]
