"""The Heartland army state as plain data, and the questions asked of it.

Every function here is pure and reads the state dict below; the rules modules
(:mod:`.forces`, :mod:`.supply`, :mod:`.movement`, :mod:`.reaction`) use
these instead of walking the dicts themselves.

State layout (the parts beyond the initiative segment)::

    map: demo                       # games/heartland/maps/<map>.yaml
    calendar: [{turn: 1, year: 1862, month: 9}, ...]   # the year by turn: 9.21's exceptions
    weather: {result: Clear, ...}   # current turn's (see initiative)
    leaders:
      grant:
        side: union
        name: U. S. Grant
        stars: 3                    # intrinsic rank (3.22)
        brevet: 0                   # brevet stars on top (14.51); a marker lowers every rating 1
        hq: true                    # holds an Army HQ: an army commander (3.31)
        active: true                # front side (8.1)
        ratings:                    # printed AR, BR, MR, front and back (3.21); read them
                                    # through current_rating (wound, brevet)
          active: {ar: 3, br: 2, mr: 4}
          inactive: {ar: 1, br: 1, mr: 2}
        ml: 4                       # current leader ML 0-9, higher is better (3.51)
        ap: 3                       # administration points left this turn (3.24)
        artillery: 2                # artillery strength in his box (3.1)
        asp: 3                      # ammo supply points (3.1, 10.12)
        hex: "0512"                 # where he stands; null in the Leader Pool
        superior: null              # the leader whose force he is part of (an SL); null = his own force
        pool: false                 # in the Leader Pool (3.15)
    units:
      u1:
        side: union
        name: 1st Division
        arm: infantry               # infantry | cavalry | engineer | detachment
        size: division              # division | brigade | regiment
        cf: [12, 6]                 # combat factors, full and reduced side (2.0)
        ml: [1, 2]                  # unit ML, full and reduced side; 0 is best (3.52)
        steps: 2                    # 2 full, 1 reduced, 0 eliminated
        leader: grant               # the leader whose box holds it; null = unled, on the map
        hex: null                   # only for unled units
    logistics:
      w1:
        side: union
        kind: wagon                 # wagon | depot (7.2)
        capacity: 2                 # forces it can supply (7.21)
        cf: 0
        ml: 3
        hex: "0412"
        leader: null                # a wagon moving with a field command (7.21)
    sources:                        # supply sources per side (7.11), map labels
      union: ["0120", "1801"]
      confederate: ["3010"]

A *force* is an independent leader (``superior`` null, not in the pool) with
every leader under him and all their units and logistics; unled units in a
hex form a force of their own.  Labels are the map's printed hex labels.
"""
from __future__ import annotations

import pickle
from typing import Iterator, Literal, TypeVar, cast

from .state_types import FullGameState, Leader, Ratings, Unit

INFANTRY_PER_DIVISION = {"union": 1, "confederate": 4}   # 3.23: Confederate 4 infantry brigades = 1 division
BREVET_RATING_LOSS = 1         # 14.51 as the 10.7 example applies it: every rating -1
ARMY_MIN_STARS = 3             # 3.31: only 3- or 4-star leaders command armies
WDO_COST = 10                  # 3.41a: a War Department Order costs 10 WEP
COS_BREVET_WEP = 1             # 3.32b: a Chief of Staff taking the army is brevetted at once for 1 WEP


_Data = TypeVar("_Data")


def copy_state(data: _Data) -> _Data:
    """A deep copy of state data: what :func:`copy.deepcopy` gives (the same types, the parts shared
    within ``data`` shared alike), read back from a pickle, several times faster on the plain
    dicts, lists, strings and numbers a state is made of."""
    return pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))


def leader_ratings(leader: Leader) -> Ratings:
    """AR, BR and MR of the side the counter shows now (front if active)."""
    return leader["ratings"]["active" if leader["active"] else "inactive"]


def brevet_loss(leader: Leader) -> int:
    """14.51 (missing; the 10.7 example: "Sheridan has a brevet marker, so all his ratings are
    reduced by 1", 戦時昇進マーカが置かれているので能力値が全て１低下): a leader under a brevet
    marker reads every rating 1 lower.  One marker, one point, however many stars it adds."""
    return BREVET_RATING_LOSS if leader.get("brevet") else 0


def current_rating(leader: Leader, key: Literal["ar", "br", "mr"],
                   face: Literal["active", "inactive"] | None = None) -> int:
    """AR, BR or MR now: the printed rating of the side the counter shows (or ``face``,
    "active"/"inactive"), less the wound level (10.67: a wound reduces all ratings) and less 1
    under a brevet marker (14.51, :func:`brevet_loss`), not below 0.

    The state keeps the printed ratings and the marker; every rule reads them through here, so
    a brevet given during play counts from the next reading on."""
    printed = leader["ratings"][face][key] if face else leader_ratings(leader)[key]
    return max(0, int(printed) - int(leader.get("wound", 0) or 0) - brevet_loss(leader))


def rank(leader: Leader) -> int:
    """Stars for command purposes: intrinsic plus brevet (3.23, 14.51)."""
    return leader["stars"] + leader.get("brevet", 0)


def on_map_leaders(state: FullGameState, side: str | None = None) -> Iterator[tuple[str, Leader]]:
    for lid, ld in state["leaders"].items():
        if not ld.get("pool") and ld.get("hex") and (side is None or ld["side"] == side):
            yield lid, ld


def subordinates(state: FullGameState, lid: str) -> list[str]:
    """Every leader whose chain of superiors leads to ``lid`` (not ``lid`` itself)."""
    out: list[str] = []
    frontier = [lid]
    while frontier:
        boss = frontier.pop()
        for other, ld in state["leaders"].items():
            if ld.get("superior") == boss and not ld.get("pool"):
                out.append(other)
                frontier.append(other)
    return out


def top_of(state: FullGameState, lid: str) -> str:
    """The independent leader at the top of ``lid``'s chain of superiors."""
    seen = set()
    while state["leaders"][lid].get("superior") and lid not in seen:
        seen.add(lid)
        lid = cast(str, state["leaders"][lid]["superior"])     # the loop test saw it set
    return lid


def force_leaders(state: FullGameState, lid: str) -> list[str]:
    """The leaders of the force headed by independent leader ``lid``: him first."""
    return [lid] + subordinates(state, lid)


def force_units(state: FullGameState, lid: str, *, alive: bool = True) -> list[str]:
    """The combat units of the force headed by ``lid`` (in his and his SLs' boxes)."""
    members = set(force_leaders(state, lid))
    return [uid for uid, u in state["units"].items()
            if u.get("leader") in members and (not alive or u["steps"] > 0)]


def force_logistics(state: FullGameState, lid: str) -> list[str]:
    members = set(force_leaders(state, lid))
    return [sid for sid, s in state.get("logistics", {}).items() if s.get("leader") in members]


def forces(state: FullGameState, side: str | None = None) -> list[str]:
    """Force ids of ``side`` on the map: independent leaders' ids, and ``unled@<hex>`` per hex of unled units."""
    out = [lid for lid, ld in on_map_leaders(state, side) if not ld.get("superior")]
    hexes = sorted(cast(set[str], {u["hex"] for u in state["units"].values()
                                   if u.get("leader") is None and u.get("hex") and u["steps"] > 0
                                   and (side is None or u["side"] == side)}))
    for h in hexes:
        sides = {u["side"] for u in state["units"].values()
                 if u.get("leader") is None and u.get("hex") == h and u["steps"] > 0}
        for s in sorted(sides):
            if side is None or s == side:
                out.append(f"unled@{h}@{s}" if side is None else f"unled@{h}")
    return out


def is_unled(force_id: str) -> bool:
    return force_id.startswith("unled@")


def force_hex(state: FullGameState, force_id: str) -> str:
    if is_unled(force_id):
        return force_id.split("@")[1]
    return cast(str, state["leaders"][force_id]["hex"])     # on the map, except a force gone off it by rail (8.74)


def force_side(state: FullGameState, force_id: str) -> str:
    if is_unled(force_id):
        parts = force_id.split("@")
        if len(parts) > 2:
            return parts[2]
        h = parts[1]
        return next(u["side"] for u in state["units"].values() if u.get("leader") is None and u.get("hex") == h)
    return state["leaders"][force_id]["side"]


def units_of(state: FullGameState, force_id: str, side: str | None = None) -> list[str]:
    """Living combat units of a force (a leader's or an unled one)."""
    if is_unled(force_id):
        h = force_hex(state, force_id)
        s = side or force_side(state, force_id)
        return [uid for uid, u in state["units"].items()
                if u.get("leader") is None and u.get("hex") == h and u["steps"] > 0 and u["side"] == s]
    return force_units(state, force_id)


def unit_cf(unit: Unit) -> int:
    """Printed CF of the side showing (full at 2 steps, reduced at 1)."""
    if unit["steps"] <= 0:
        return 0
    return unit["cf"][0] if unit["steps"] >= 2 else unit["cf"][-1]


def unit_ml(unit: Unit) -> int:
    return unit["ml"][0] if unit["steps"] >= 2 else unit["ml"][-1]


def leaders_in_hex(state: FullGameState, label: str, side: str | None = None) -> list[str]:
    return [lid for lid, ld in on_map_leaders(state, side) if ld["hex"] == label]


def forces_in_hex(state: FullGameState, label: str, side: str | None = None) -> list[str]:
    return [f for f in forces(state, side) if force_hex(state, f) == label]


def occupied_hexes(state: FullGameState, side: str) -> set[str]:
    """Hexes holding ``side``'s leaders or living units (on the map)."""
    hexes = {cast(str, ld["hex"]) for _, ld in on_map_leaders(state, side)}      # on the map: set
    hexes |= cast(set[str], {u["hex"] for u in state["units"].values()
                             if u["side"] == side and u.get("leader") is None and u.get("hex") and u["steps"] > 0})
    return hexes


def other_side(side: str) -> str:
    return "confederate" if side == "union" else "union"
