"""What each side may see of the armies (3.71 fog of war).

A side sees its own Army Organization Display in full: leaders with their
ratings, ML, AP, artillery and ammunition, the units in each box with their
strength, its wagons and depots, its WEP.  Of the enemy it sees only what is
on the map: in each hex the top counter -- the Overall Commander of the hex
(3.22), or for a stack without leaders its first unit or supply counter --
and how many counters lie under it, never what they are.

The views are built here, from the state, for one side; reports and map
pictures are rendered from views only.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, cast

from ...kit.views import OMIT, AllowList, own_part, picked, sides_own
from .state_types import BiddingState, FullGameState, HeartlandState, Naval, Turn, Unit
from .cavalry import concealment, redact_view
from .counters import top_counters
from .dense_fog import redact
from .model import copy_state
from ...kit.events import Event, event


def wep_event(state: HeartlandState, side: str, rule: str) -> Event:
    """The event telling ``side`` its WEP after a payment: the Number Track is on its hidden
    Army Organization Display (3.16, 3.71), so the event is its own."""
    return event("wep", f"{side} WEP now {state['wep'][side]}", rule, side=side, wep=state["wep"][side],
                 visible_to=[side])


#: the state fields every side sees: the calendar and the phase, the map and what stands on it
#: for all to see (trains, pontoons, entrenchments, cuts, devastation), the VP record (3.16)
PUBLIC_KEYS = ("scenario", "turn", "calendar", "maximum", "impulse_level_limit", "weather_stand_in", "phase",
               "history", "full", "map", "fert_offset", "options", "mode", "victory", "control_vp", "result",
               "year", "income", "control", "foraging", "north_of_ohio", "landings", "prices", "off_map_rail",
               "trains", "pontoons", "rail_cuts", "entrenchments", "rail_opened", "rail_open", "rail_last",
               "devastated", "burned_bridges", "chief_engineer", "pending_searches")
#: the per-side records ({side: ...}) of which a side sees its own part (3.71): its WEP (the Number
#: Track is on its AOD, 3.16), standing defence orders, replacements, HQs in the pool
OWN_KEYS = ("wep", "standing", "replacements", "hq_pool", "reinforcements")
#: the fields of the turn record (``current``) every side sees: the bids once revealed, the
#: initiative, the weather, the impulses played and to come, the recon attempts counted (8.61b)
CURRENT_PUBLIC = ("bid_round", "bids", "outcome", "initiative", "fee", "weather", "impulses", "remaining",
                  "declare", "schedule", "queue", "recon", "reconned")
#: the per-side parts of the turn record: limited WDOs (3.41a)
CURRENT_OWN = ("wdo", "wdo_used")
#: what the side not phasing sees of the active impulse; its supply states, MP and plans are the
#: phasing side's own secrets (3.71)
IMPULSE_PUBLIC = ("n", "side", "level", "fixed", "rule", "stage", "assaults", "involuntary", "rail")
SIDES = ("union", "confederate")


def _current(state: Mapping[str, Any], mine: str | None) -> dict:
    """The turn record as ``mine`` may see it (3.71)."""
    cur: Mapping[str, Any] = state.get("current") or {}
    return CURRENT.view(cur, mine)


def _reorganization(cur: Mapping[str, Any], mine: str | None) -> Any:
    """Each Reorganization step's per-side records: the side's own part (3.71)."""
    reorg = cur["reorganization"]
    if not isinstance(reorg, dict):
        return OMIT
    return {k: (own_part(r, mine) if isinstance(r, dict) and set(r) <= set(SIDES) else copy.deepcopy(r))
            for k, r in reorg.items()}


def _active_impulse(cur: Mapping[str, Any], mine: str | None) -> Any:
    """The active impulse: the phasing side's whole, the other's the :data:`IMPULSE_PUBLIC` part."""
    imp = cur["active_impulse"]
    if not isinstance(imp, dict):
        return OMIT
    return copy.deepcopy(imp) if imp.get("side") == mine else picked(imp, IMPULSE_PUBLIC)


#: the turn record as a side may see it (3.71)
CURRENT = AllowList(CURRENT_PUBLIC, CURRENT_OWN,
                    {"reorganization": _reorganization, "active_impulse": _active_impulse})


def _naval(state: FullGameState, mine: str | None) -> Naval:
    """3.17: the Naval Assault Display is on the Union AOD: the enemy's gunboats in a box are off
    the map, those on the map carry no cargo the enemy sees; the phasing side's missions this
    impulse are its own."""
    nv = copy.deepcopy(state["naval"])
    if not isinstance(nv, dict) or not mine:
        return nv
    for gid, gb in list((nv.get("gunboats") or {}).items()):
        if gb.get("side") != mine:
            if gb.get("box"):
                del nv["gunboats"][gid]          # off the map, on the enemy's display
            else:
                gb.pop("cargo", None)
    active: Mapping[str, Any] = (state.get("current") or cast(Turn, {})).get("active_impulse") or {}
    if active.get("side") != mine:
        nv.pop("current", None)
    return nv


def _whole_state(state: HeartlandState) -> dict:
    """Open and solo games: both players hold the game file; the view is the whole state.  The
    lists that only grow (the past turns, the calendar: ``INFO.append_only``, whose items the
    rules never change) are new lists of the same items, so a view costs the same late in a long
    campaign.  The rest is copied at once (:func:`.model.copy_state`)."""
    from .info import INFO

    whole: Mapping[str, Any] = state
    grows = {k for k, v in whole.items() if k in INFO.append_only and isinstance(v, list)}
    rest = copy_state({k: v for k, v in whole.items() if k not in grows})
    return {k: list(v) if k in grows else rest[k] for k, v in whole.items()}


def _own_armies(state: FullGameState, mine: str | None, v: dict) -> None:
    """3.71: the side's own army (leaders, units, wagons and depots, supply sources, forces gone
    off the map, gunboats, initial strengths) and what it sees of the enemy on the map."""
    v["leaders"] = sides_own(state["leaders"], mine)
    v["units"] = sides_own(state["units"], mine)
    v["logistics"] = sides_own(state.get("logistics", {}), mine)
    v["sources"] = {mine: list(state.get("sources", {}).get(mine, []))} if mine else {}
    v["seen"] = {s: top_counters(state, s) for s in SIDES}
    if isinstance(state.get("off_map"), list):      # 8.74: where each force went is its side's to know
        v["off_map"] = [copy.deepcopy(x) for x in state["off_map"] if x.get("side") == mine]
    if "naval" in state:
        v["naval"] = _naval(state, mine)
    if "initial_steps" in state:
        v["initial_steps"] = {u: n for u, n in state["initial_steps"].items()
                              if state["units"].get(u, cast(Unit, {})).get("side") == mine}


def _fogged(state: FullGameState, mine: str | None, v: dict) -> dict:
    """3.72 (optional) dense fog hides strengths and markers; 8.62a/c: forces hidden under the
    enemy's cavalry screen are off this side's map, screened leaders lose their ratings."""
    if state.get("options", {}).get("dense_fog"):
        v = redact(v, mine, state.get("options"))
    if mine:
        hidden = concealment(state, "confederate" if mine == "union" else "union")
        if hidden.hidden or hidden.masked:
            v = redact_view(v, hidden)
    return v


#: the state's fields a side may see besides its army (3.71); the armies are :func:`_own_armies`'s
STATE = AllowList(PUBLIC_KEYS, OWN_KEYS, {"current": _current})


def army_view(state: FullGameState, side: str | None, mode: str) -> dict:
    """The state as ``side`` may see it (None: the public), built by allow-list (3.71).

    In open and solo games both players hold the game file: the view is the whole state, with
    what each side shows on the map.  In an umpired game it is the fields of
    :data:`PUBLIC_KEYS`, the side's own part of :data:`OWN_KEYS`, its own army (leaders, units,
    wagons and depots, supply sources), what it sees of the enemy on the map
    (:func:`.counters.top_counters`) and the turn record as :func:`_current` shows it.  A state
    field named nowhere here is the umpire's alone until a rule says who may see it.
    """
    if mode != "umpired":
        v = _whole_state(state)
        v["seen"] = {s: top_counters(state, s) for s in SIDES}
        return v
    mine = side if side in SIDES else None
    v = STATE.view(state, mine)
    _own_armies(state, mine, v)
    return _fogged(state, mine, v)


def bidding_view(state: BiddingState, side: str | None, mode: str) -> dict:
    """The bidding game's state as ``side`` may see it: the initiative segment has no armies, and
    its leader counts are public; in an umpired game the WEP is each side's own (3.16, 3.71)."""
    if mode != "umpired":
        return _whole_state(state)
    v = STATE.view(state, side if side in SIDES else None)
    v["leaders"] = copy.deepcopy(state["leaders"])
    return v


def full_view(view: Mapping[str, Any]) -> bool:
    """``view`` is a view of the full game: ``full`` is a public key (:data:`PUBLIC_KEYS`), so
    every side's view of the full game carries it."""
    return bool(view.get("full"))
