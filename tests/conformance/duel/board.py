"""Hex Duel's map, sight and movement (H3, H4, H8), from the kit: the map the game pinned, the
zones of control (:mod:`hxref.kit.zoc`), a move walked step by step (:mod:`hxref.kit.walk`) and
what a side sees (:mod:`hxref.kit.fog`).

A side plans against what it knows (:func:`known`): in an umpired game its own units and the
enemy units next to them (H8), so a refused order never tells it where a hidden enemy stands.  The
move itself is walked against every unit: a unit that meets a hidden enemy's zone of control
stops there (H4), one that runs into a hidden enemy stops in the hex before it.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hxref.base.errors import HxrefError
from hxref.geometry.hex import Hex, distance
from hxref.geometry.mapmodel import HexMap
from hxref.kit import fog
from hxref.kit.walk import Refusal, Rule, Walk, WalkRules, walk
from hxref.kit.zoc import zoc

#: H3, H4: the rule numbers and messages of a move
MOVES = WalkRules(
    move="H3",
    not_a_hex=Rule("H3", "{to!r} is not a hex of the map"),
    out_of_mp=Rule("H3", "entering {to} costs {cost} MP but only {left} of {mp} MP are left"),
    go_on=Rule("H4", "the unit must stop in {at} ({why}) and cannot go on to {to}"),
    zoc_stop=Rule("H4", "{to} is in an enemy zone of control: the move ends there"),
)
#: H8: how far a unit sees an enemy counter
SIGHT = 1


def hex_at(hm: HexMap, label: Any) -> Hex | None:
    """The hex a label names, or None when it names no hex of the map."""
    if not isinstance(label, str):
        return None
    try:
        h = hm.parse(label)
    except (HxrefError, ValueError):
        return None
    return h if h in hm else None


def on_map(units: Mapping[str, Any]) -> dict[str, Any]:
    """The units still in play (an eliminated unit has no hex)."""
    return {uid: u for uid, u in units.items() if u.get("hex")}


def known(state: Mapping[str, Any], hm: HexMap, side: str) -> dict[str, Any]:
    """The units on the map that ``side`` knows of (H8): every one in an open or solo game, where each
    player holds the game file; in an umpired game its own and the enemy's next to them."""
    units = on_map(state["units"])
    if state["mode"] != "umpired":
        return units
    seen = fog.sighted(units, side, side_of=lambda u: u["side"], hex_of=lambda u: hex_at(hm, u["hex"]), reach=SIGHT)
    return {uid: u for uid, u in units.items() if uid in seen}


def eyes(units: Mapping[str, Any], hm: HexMap, side: str) -> list[Hex]:
    """The hexes of ``side``'s units: where it sees from."""
    return [h for u in units.values() if u["side"] == side and (h := hex_at(hm, u.get("hex"))) is not None]


def enemy_zoc(hm: HexMap, units: Mapping[str, Any], side: str) -> dict[Hex, set[str]]:
    """H4: the hexes next to an enemy unit of ``units`` (each unit exerts a zone into the six)."""
    enemies = {uid: u for uid, u in units.items() if u["side"] != side}
    return zoc(enemies, lambda u: hex_at(hm, u["hex"]), on_map=lambda h: h in hm)


def move(hm: HexMap, units: Mapping[str, Any], uid: str, path: list[str]) -> Walk[str]:
    """H3, H4: unit ``uid`` walking ``path`` (the hexes it enters) among ``units`` (the units it
    reckons with): its MA, the terrain's costs, no enemy's hex, and a stop on entering an enemy
    zone of control."""
    unit = units[uid]
    side = unit["side"]
    zone = enemy_zoc(hm, units, side)
    enemy_at = {u["hex"] for u in units.values() if u["side"] != side}

    def enters(_: int, label: str) -> Refusal | None:
        return Refusal(f"{label} holds an enemy unit", "H4") if label in enemy_at else None

    def in_zoc(label: str) -> bool:
        h = hex_at(hm, label)
        return h is not None and h in zone

    return walk(path, hm.step_cost(unit["arm"]), start=unit["hex"], rules=MOVES, hex_of=lambda x: hex_at(hm, x),
                mp=unit["ma"], zoc=in_zoc, enters=enters)


def next_to(hm: HexMap, a: str | None, b: str) -> bool:
    """Whether the hexes labelled ``a`` and ``b`` are adjacent (an eliminated unit's None is next to none)."""
    ha, hb = hex_at(hm, a), hex_at(hm, b)
    return ha is not None and hb is not None and distance(ha, hb) == 1


def defence_shift(hm: HexMap, label: str) -> int:
    """H5: the columns the defender's terrain shifts an attack (the terrain chart's ``defence_shift``)."""
    h = hex_at(hm, label)
    return int((hm.terrain(h).rules or {}).get("defence_shift", 0)) if h is not None else 0


def counter(unit: Mapping[str, Any]) -> str:
    """An enemy counter as the other side reads it (H8): its side, arm and strength, never its name."""
    return f"the {unit['side']} {unit['arm']} ({unit['strength']})"
