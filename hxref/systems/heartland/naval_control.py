"""Gunboats and batteries on the rivers, and what they control: rules 8.91a, 8.91 and 10.82.

The navy's constants, access to ``state["naval"]``, the geometry of
major-river hexsides, the control ranges of gunboats and batteries (8.91a,
10.82) and the contacts they make (10.81), with two helpers the movement, the
naval assault and the naval combat ask (:func:`_step_refusal`: may a gunboat
enter this hexside; :func:`_entrenchment`).  The layer under
:mod:`.naval_movement`, :mod:`.naval_assault` and :mod:`.naval_combat`;
:mod:`.naval` re-exports its public names and holds the readings and state
keys.
"""
from __future__ import annotations

from typing import Any, Mapping

from .state_types import Battery, Gunboat, FullGameState, Naval, NavalImpulse
from ...geometry.hex import Hex, HexSide
from . import model

MAJOR_RIVER = "major_river"
GUNBOAT_OBSTACLES = ("ford", "shoal", "shoals")    # 5.25: passable by gunboats only in Thaw
LANDING_TARGETS = ("village", "town", "major_city")   # 8.92
BANK_TOWNS = ("town", "major_city")                  # 8.24a ferry banks
MISSIONS = ("assault", "blockade", "bombardment", "naval_combat")   # 8.9
DOWNSTREAM, UPSTREAM = 10, 6                          # 8.93
BOXES = ("any_impulse_t1", "reorg_t1", "reorg_t2", "available")     # 3.17, 8.92a
BOX_NAMES = {"any_impulse_t1": "Any Impulse Turn 1", "reorg_t1": "Reorganization Segment Turn 1",
             "reorg_t2": "Reorganization Segment Turn 2",
             "available": "Available for Assault Impulse After Turn 2"}
BATTERY_DRM, ATTACK_BATTERY_DRM = +1, -1              # 10.81a
NOTICE = "The Union announces that a naval assault may occur."   # 8.92a(5), digest D-5


# --------------------------------------------------------------------------
# state access


def naval(state: FullGameState) -> Naval:
    """``state["naval"]``, created with its parts when missing."""
    nv = state.setdefault("naval", {})
    nv.setdefault("gunboats", {})
    nv.setdefault("batteries", {})
    return nv


def _nv(state: FullGameState) -> Naval:
    return state.get("naval") or {}


def gunboats(state: FullGameState, side: str | None = None, *, on_map: bool = True) -> dict[str, Gunboat]:
    """Afloat gunboats (``steps`` > 0) of ``side``; ``on_map``: only those on a hexside."""
    return {g: gb for g, gb in (_nv(state).get("gunboats") or {}).items()
            if gb.get("steps", 2) > 0 and (side is None or gb["side"] == side)
            and (not on_map or gb.get("hexside"))}


def batteries(state: FullGameState, side: str | None = None) -> dict[str, Battery]:
    return {b: bt for b, bt in (_nv(state).get("batteries") or {}).items()
            if bt.get("steps", 2) > 0 and (side is None or bt["side"] == side)}


def _unit(state: FullGameState, uid: str) -> Gunboat | Battery:
    nv = _nv(state)
    if uid in (nv.get("gunboats") or {}):
        return nv["gunboats"][uid]
    return nv["batteries"][uid]


def is_battery(state: FullGameState, uid: str) -> bool:
    return uid in (_nv(state).get("batteries") or {})


def strength(unit: Mapping[str, Any]) -> int:
    """Naval strength of the side showing (10.81: lower left)."""
    if unit.get("steps", 2) <= 0:
        return 0
    vals = unit["naval"]
    return vals[0] if unit.get("steps", 2) >= 2 else vals[-1]


def support_value(gb: Gunboat) -> int:
    """Shore bombardment support of the side showing (10.83: lower right)."""
    if gb.get("steps", 2) <= 0:
        return 0
    vals = gb.get("support") or [0]
    return vals[0] if gb.get("steps", 2) >= 2 else vals[-1]


def _current(state: FullGameState) -> NavalImpulse:
    return _nv(state).get("current") or {}


def mission_of(state: FullGameState, gid: str) -> str | None:
    return (_current(state).get("missions") or {}).get(gid)


def new_impulse(state: FullGameState) -> None:
    """Clear this impulse's records (missions, moves, stops, landings)."""
    naval(state)["current"] = {}


def _weather(state: FullGameState, weather: str | None) -> str:
    if weather:
        return weather
    from .supply import weather_of
    return weather_of(state)


# --------------------------------------------------------------------------
# hexside geometry


def _side(hexmap, raw) -> HexSide:
    return raw if isinstance(raw, HexSide) else hexmap.grid.parse_hexside(str(raw))


def _sl(hexmap, s: HexSide) -> str:
    return hexmap.grid.side_label(s)


def branching(s: HexSide) -> list[HexSide]:
    """The four hexsides sharing an end point with ``s`` (8.91a's "4 branching hexsides")."""
    a, b = s.hexes
    common = set(a.neighbours()) & set(b.neighbours())
    out = []
    for c in sorted(common):
        out += [HexSide(a, c), HexSide(b, c)]
    return out


def touching_hexes(s: HexSide) -> list[Hex]:
    """The banks of ``s`` and the two hexes at its ends (10.83 adjacency, a reading)."""
    a, b = s.hexes
    return [a, b] + sorted(set(a.neighbours()) & set(b.neighbours()))


def is_major_river(hexmap, s: HexSide) -> bool:
    return MAJOR_RIVER in hexmap.side_features(s, effective=False)


def obstacle(hexmap, s: HexSide, weather: str) -> str | None:
    """5.25/8.91: the ford or shoal that bars a gunboat from ``s`` (None in Thaw or when there is none)."""
    if weather == "Thaw":
        return None
    for f in hexmap.side_features(s, effective=False):
        if f in GUNBOAT_OBSTACLES:
            return f
    return None


def river_steps(hexmap, s: HexSide) -> list[HexSide]:
    """Major-river hexsides branching from ``s``."""
    return [t for t in branching(s) if is_major_river(hexmap, t)]


def control_range(hexmap, hexside) -> list[str]:
    """8.91a: the 4 hexsides branching from a gunboat's hexside (labels; all four, river or not)."""
    s = _side(hexmap, hexside)
    out = []
    for t in branching(s):
        try:
            out.append(_sl(hexmap, t))
        except Exception:          # off the map
            continue
    return out


def controls(state: FullGameState, hexmap, uid: str) -> set[HexSide]:
    """Hexsides a gunboat (its own and its range) or a battery (its arrow) controls."""
    u = _unit(state, uid)
    if not u.get("hexside") or u.get("steps", 2) <= 0:
        return set()
    s = _side(hexmap, u["hexside"])
    if is_battery(state, uid):
        return {s}
    return {s, *branching(s)}


def controlled_hexsides(state: FullGameState, hexmap, side: str) -> set[str]:
    """Hexsides controlled by ``side``'s gunboats and batteries: closed to enemy pontoons (8.81),
    a stop for enemy gunboats (8.91a, 10.82)."""
    out: set[str] = set()
    for uid in [*gunboats(state, side), *batteries(state, side)]:
        for s in controls(state, hexmap, uid):
            try:
                out.add(_sl(hexmap, s))
            except Exception:
                continue
    return out


def _enemy_control(state: FullGameState, hexmap, side: str) -> dict[HexSide, list[str]]:
    """Hexside -> enemy units controlling it."""
    out: dict[HexSide, list[str]] = {}
    enemy = model.other_side(side)
    for uid in [*gunboats(state, enemy), *batteries(state, enemy)]:
        for s in controls(state, hexmap, uid):
            out.setdefault(s, []).append(uid)
    return out


def _position(state: FullGameState, hexmap, uid: str) -> HexSide | None:
    u = _unit(state, uid)
    return _side(hexmap, u["hexside"]) if u.get("hexside") else None


def in_contact(state: FullGameState, hexmap, x: str, y: str) -> bool:
    """10.81: one holds a hexside the other controls."""
    px, py = _position(state, hexmap, x), _position(state, hexmap, y)
    if px is None or py is None:
        return False
    return px in controls(state, hexmap, y) or py in controls(state, hexmap, x)


def contacts(state: FullGameState, hexmap, side: str) -> list[tuple[str, str]]:
    """10.81 continuing contact: (``side``'s unit, enemy unit) pairs in contact.  In ``side``'s
    impulse each pair must fight with ``side`` attacking, or the gunboat must move away; a battery
    cannot move, so it attacks."""
    enemy = model.other_side(side)
    out = []
    for x in sorted([*gunboats(state, side), *batteries(state, side)]):
        for y in sorted([*gunboats(state, enemy), *batteries(state, enemy)]):
            if in_contact(state, hexmap, x, y):
                out.append((x, y))
    return out


# --------------------------------------------------------------------------
# helpers shared by movement, naval combat and the naval assault


def _step_refusal(state, hexmap, side, s: HexSide, weather: str) -> str | None:
    """Why a gunboat cannot enter ``s`` at all (None: it can)."""
    where = _sl(hexmap, s)
    if not is_major_river(hexmap, s):
        return f"{where} is not a major-river hexside (8.91)"
    ob = obstacle(hexmap, s, weather)
    if ob:
        return f"the major-river {ob} at {where} is impassable to gunboats except in Thaw ({weather}; 8.91, 5.25)"
    for g, gb in gunboats(state, model.other_side(side)).items():
        if _side(hexmap, gb["hexside"]) == s:
            return f"the enemy gunboat {g} is on {where} (8.91a)"
    return None


def _entrenchment(state: FullGameState, label: str, side: str) -> int:
    e = (state.get("entrenchments") or {}).get(label)
    if e is None:
        return 0
    if isinstance(e, Mapping):
        if e.get("side", side) != side:
            return 0
        return int(e.get("level", 0))
    return int(e)
