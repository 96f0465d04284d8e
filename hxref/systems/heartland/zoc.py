"""Zones of control (3.6, 3.61).

Every unit with intrinsic CF exerts a ZOC into its own hex and the six
adjacent hexes; detachment regiments, depots and wagons do not.  ZOC does not
extend across a major river (even at a bridge or ford) nor across an all-sea
hexside.
"""
from __future__ import annotations

from typing import cast

from .state_types import FullGameState, Unit
from ...geometry.hex import Hex, HexSide
from ...kit.zoc import zoc
from . import model

NO_ZOC_ARMS = {"detachment"}                    # 3.6: detachment regiments exert no ZOC
BLOCKING_HEXSIDES = {"major_river", "all_sea"}  # 3.61: ZOC stops at these, bridge or ford or not


def exerts_zoc(unit: Unit) -> bool:
    return unit["steps"] > 0 and unit["arm"] not in NO_ZOC_ARMS and model.unit_cf(unit) > 0


def _source(state: FullGameState, u: Unit) -> str | None:
    """The hex a unit exerts its ZOC from: its leader's hex (none while he is in the pool), or its own."""
    if u.get("leader"):
        ld = state["leaders"][cast(str, u["leader"])]
        return None if ld.get("pool") or not ld.get("hex") else ld["hex"]
    return u.get("hex") or None


def zoc_sources(state: FullGameState, side: str) -> set[str]:
    """Hexes from which ``side`` exerts ZOC: those holding at least one ZOC-exerting unit."""
    return {src for u in state["units"].values()
            if u["side"] == side and exerts_zoc(u) and (src := _source(state, u)) is not None}


def zoc_hexes(state: FullGameState, side: str, hexmap) -> dict[str, set[str]]:
    """Every hex in ``side``'s ZOC -> the source hexes exerting ZOC into it (3.6, 3.61)."""
    out: dict[str, set[str]] = {}
    for src in zoc_sources(state, side):
        for label in _zone(hexmap, src):
            out.setdefault(label, set()).add(src)
    return out


def _zone(hexmap, src: str) -> tuple[str, ...]:
    """The hexes a ZOC exerted from the hex ``src`` covers: the hex itself and the adjacent hexes on
    the map not across a major river or an all-sea hexside (3.6, 3.61).  The map's alone: found once
    per map and hex (kept on the map object)."""
    kept = hexmap.__dict__.setdefault("_heartland_zones", {})
    zone = kept.get(src)
    if zone is None:
        def blocks(a: Hex, b: Hex) -> bool:
            return bool(set(hexmap.side_features(HexSide(a, b), effective=False)) & BLOCKING_HEXSIDES)

        found = zoc({src: src}, hexmap.parse, on_map=hexmap.grid.__contains__, blocks=blocks, own_hex=True)
        zone = kept[src] = tuple(hexmap.label(h) for h in found)
    return zone
