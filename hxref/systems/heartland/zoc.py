"""Zones of control (3.6, 3.61).

Every unit with intrinsic CF exerts a ZOC into its own hex and the six
adjacent hexes; detachment regiments, depots and wagons do not.  ZOC does not
extend across a major river (even at a bridge or ford) nor across an all-sea
hexside.
"""
from __future__ import annotations

from ...geometry.hex import HexSide
from . import model

NO_ZOC_ARMS = {"detachment"}                    # 3.6: detachment regiments exert no ZOC
BLOCKING_HEXSIDES = {"major_river", "all_sea"}  # 3.61: ZOC stops at these, bridge or ford or not


def exerts_zoc(unit: dict) -> bool:
    return unit["steps"] > 0 and unit["arm"] not in NO_ZOC_ARMS and model.unit_cf(unit) > 0


def zoc_sources(state: dict, side: str) -> set[str]:
    """Hexes from which ``side`` exerts ZOC: those holding at least one ZOC-exerting unit."""
    out: set[str] = set()
    for u in state["units"].values():
        if u["side"] != side or not exerts_zoc(u):
            continue
        if u.get("leader"):
            ld = state["leaders"][u["leader"]]
            if ld.get("pool") or not ld.get("hex"):
                continue
            out.add(ld["hex"])
        elif u.get("hex"):
            out.add(u["hex"])
    return out


def zoc_hexes(state: dict, side: str, hexmap) -> dict[str, set[str]]:
    """Every hex in ``side``'s ZOC -> the source hexes exerting ZOC into it."""
    out: dict[str, set[str]] = {}
    for src in zoc_sources(state, side):
        h = hexmap.parse(src)
        out.setdefault(src, set()).add(src)
        for n in h.neighbours():
            if n not in hexmap.grid:
                continue
            raw = set(hexmap.side_features(HexSide(h, n), effective=False))
            if raw & BLOCKING_HEXSIDES:
                continue
            out.setdefault(hexmap.label(n), set()).add(src)
    return out
