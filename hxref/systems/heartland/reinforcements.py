"""Reinforcements: rule 6.1.

The scenario lists each side's reinforcements (``reinforcements: {side: [entry, ...]}``); an
entry is::

    - id: ruffin-division          # names the entry in the game's events
      turn: 2                      # the turn they arrive
      impulse: 1                   # optional: the side's nth impulse of that turn (default: its first)
      hex: "1316"                  # optional: where they appear (default: see below)
      hq_on: lassiter              # optional: an HQ reinforcement, placed on this leader (3.31)
      leaders: {ruffin: {...}}     # leader records as in the scenario's ``leaders`` (no hex)
      units: {c13: {...}}          # unit records as in ``units`` (in a leader's box, or unled)
      logistics: {cw2: {...}}      # optional wagons, as in ``logistics``

6.1: they enter in the impulse the scenario specifies; without one, in the side's first impulse
of the turn; without a place, at the friendly station nearest the friendly map edge.  An HQ
reinforcement appears on top of a leader (the leader the entry names, wherever he stands).

Readings: the entry enters at the start of that impulse, before its orders, so the side moves it
in the same impulse; a side with no impulse in that turn receives it in its next impulse (it is
never lost); a "friendly" station is a town or major city on a rail line (8.71) that the enemy
neither occupies nor holds, "nearest the friendly map edge" is the fewest hexes to a hex of a
friendly edge (8.74's edges), ties to the lower label; the arriving leaders head their own
forces (no superior) and are active with their AR in AP (4.4); the rule is written for the
Confederates and read the same for any side whose scenario lists reinforcements.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .state_types import FullGameState
from ...geometry.hex import distance
from . import model


@dataclass
class Arrival:
    """One entry's arrival (6.1): what came on where, and why there."""

    entry: str
    side: str
    hex: str | None
    leaders: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    hq_on: str | None = None
    why: str = ""
    rule: str = "6.1"


def side_impulse_number(state: FullGameState, side: str) -> int:
    """The side's impulse about to start, counted within the turn (1 = its first)."""
    return 1 + sum(1 for x in state["current"].get("impulses", []) if x.get("side") == side)


def due(state: FullGameState, side: str) -> list[dict]:
    """6.1: the side's entries that arrive in the impulse about to start (turn and impulse reached)."""
    turn, k = int(state["turn"]), side_impulse_number(state, side)
    out = []
    for e in (state.get("reinforcements") or {}).get(side, []):
        if e.get("arrived"):
            continue
        when = (int(e["turn"]), int(e.get("impulse") or 1))
        if (turn, k) >= when:
            out.append(e)
    return out


def entry_station(state: FullGameState, hexmap, side: str) -> tuple[str | None, str]:
    """6.1: the friendly station nearest the friendly map edge, and why it was chosen."""
    from .rail import friendly_edges, is_station, map_edges

    enemy = model.other_side(side)
    held = state.get("control_vp") or {}
    edges = friendly_edges(state, side)
    edge_hexes = [h for h in hexmap.hexes() if map_edges(hexmap, hexmap.label(h)) & edges]
    best: tuple[int, str] | None = None
    occupied = model.occupied_hexes(state, enemy)
    for h in hexmap.hexes():
        label = hexmap.label(h)
        if not is_station(hexmap, label) or label in occupied or held.get(label) == enemy:
            continue
        d = min((distance(h, e) for e in edge_hexes), default=10 ** 6)
        if best is None or (d, label) < best:
            best = (d, label)
    if best is None:
        return None, f"no friendly station on the map for the {side} reinforcements (6.1)"
    return best[1], (f"the friendly station nearest the friendly map edge ({', '.join(sorted(edges))}), "
                     f"{best[0]} hex(es) from it (6.1)")


def arrive(state: FullGameState, hexmap, side: str) -> list[Arrival]:
    """6.1: place the side's due reinforcements at the start of its impulse (changes ``state``)."""
    out = []
    for e in due(state, side):
        out.append(_place(state, hexmap, side, e))
    return out


def _place(state: FullGameState, hexmap, side: str, e: dict) -> Arrival:
    name = str(e.get("id") or f"turn {e['turn']}")
    hq_on = e.get("hq_on")
    label: str | None
    if e.get("hex"):
        label, why = str(e["hex"]), "the hex the scenario gives (6.1)"
    elif hq_on and not (e.get("leaders") or e.get("units")):
        label, why = state["leaders"][hq_on].get("hex"), f"on {hq_on} (6.1)"
    else:
        label, why = entry_station(state, hexmap, side)
    arr = Arrival(name, side, label, why=why)
    e["arrived"] = int(state["turn"])
    if label is None:
        arr.why = why + "; they wait"
        e["arrived"] = None
        return arr
    leaders, units = state["leaders"], state["units"]
    for lid, rec in (e.get("leaders") or {}).items():
        ld = copy.deepcopy(rec)
        ld.update(side=side, hex=label, superior=None, pool=False)
        ld.setdefault("brevet", 0)
        ld.setdefault("hq", False)
        ld.setdefault("active", True)
        leaders[lid] = ld
        ld.setdefault("ap", model.current_rating(ld, "ar", "active"))
        arr.leaders.append(lid)
    for uid, rec in (e.get("units") or {}).items():
        u = copy.deepcopy(rec)
        u["side"] = side
        u["hex"] = None if u.get("leader") else label
        units[uid] = u
        if "initial_steps" in state:            # 3.16: its steps lost later count for the enemy
            state["initial_steps"][uid] = int(u["steps"])
        arr.units.append(uid)
    for sid, rec in (e.get("logistics") or {}).items():
        s = copy.deepcopy(rec)
        s.update(side=side, hex=label)
        state.setdefault("logistics", {})[sid] = s
    if hq_on:                                   # 6.1: an HQ reinforcement appears on top of a leader
        state["leaders"][hq_on]["hq"] = True
        arr.hq_on = hq_on
    from .corps import admit

    for lid in arr.leaders:                     # 3.12: at most 2 cavalry corps a side
        refused = admit(state, lid)
        if refused:
            arr.why += "; " + refused
    return arr


def arrival_text(state: FullGameState, a: Arrival) -> str:
    what = [state["leaders"][x]["name"] for x in a.leaders] + [state["units"][x]["name"] for x in a.units]
    if a.hq_on:
        what.append(f"an Army HQ on {state['leaders'][a.hq_on]['name']}")
    if a.hex is None:
        return f"{a.side} reinforcements {a.entry} cannot enter: {a.why}"
    return f"{a.side} reinforcements {a.entry} enter in {a.hex}, {a.why}: {', '.join(what) or 'nothing'}"
