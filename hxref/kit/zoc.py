"""Zones of control on a hex map, for every system with hex ZOC.

A system says who exerts a zone of control and from which hex (``exerts``), which hexes
are on the map (``on_map``) and which hexsides or terrain stop a zone (``blocks``); this
module spreads each zone into the six adjacent hexes.  The rules' readings stay in the
systems: Heartland's units exert ZOC into their own hex too and a major river or an
all-sea hexside blocks it (3.6, 3.61); Salem Church's combat units exert it into the
adjacent hexes only and heavy woods stops it (D2, E, TEC).

>>> from hxref.geometry.hex import Hex
>>> units = {"a": Hex(0, 0), "b": None}
>>> z = zoc(units, lambda h: h, on_map=lambda h: True)
>>> len(z), z[Hex(1, 0)]
(6, {'a'})
"""
from __future__ import annotations

from typing import Callable, Hashable, Mapping, TypeVar

from ..geometry.hex import Hex

K = TypeVar("K", bound=Hashable)
U = TypeVar("U")


def zoc(units: Mapping[K, U], exerts: Callable[[U], Hex | None], *, on_map: Callable[[Hex], bool],
        blocks: Callable[[Hex, Hex], bool] | None = None, own_hex: bool = False) -> dict[Hex, set[K]]:
    """Every hex in the zone of control of ``units`` -> the keys of the units exerting it.

    ``exerts(unit)`` is the hex from which the unit exerts a ZOC, or None when it exerts
    none (the system's rule of who does).  The zone is the adjacent hexes on the map
    (``on_map``), less those across a blocked step: ``blocks(source, neighbour)`` true.
    With ``own_hex`` the source hex itself is in the zone as well.  Each source hex is
    spread once however many units it holds.
    """
    by_hex: dict[Hex, set[K]] = {}
    for key, unit in units.items():
        h = exerts(unit)
        if h is not None:
            by_hex.setdefault(h, set()).add(key)
    out: dict[Hex, set[K]] = {}
    for h, keys in by_hex.items():
        if own_hex:
            out.setdefault(h, set()).update(keys)
        for n in h.neighbours():
            if not on_map(n) or (blocks is not None and blocks(h, n)):
                continue
            out.setdefault(n, set()).update(keys)
    return out
