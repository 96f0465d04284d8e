"""Hidden units on a hex map: which units a side sees, and which hexes it cannot see.

A side always sees its own units; another side's unit it sees only when the unit stands within
``reach`` hexes of one of its own (and, when the system gives ``sees``, in that unit's line of
sight).  The rules say what the reach is and what blocks sight; this module only applies them, so
a view (:mod:`hxref.kit.views`), an order's check and a map picture's fog agree on what a side
knows.  A check that refuses an order against the whole state would tell a player where a hidden
enemy stands: check against :func:`sighted` instead.

>>> from hxref.geometry.hex import Hex
>>> units = {"a": ("red", Hex(0, 0)), "b": ("blue", Hex(1, 0)), "c": ("blue", Hex(4, 0))}
>>> sorted(sighted(units, "red", side_of=lambda u: u[0], hex_of=lambda u: u[1]))
['a', 'b']
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TypeVar

from ..geometry.hex import Hex, distance

K = TypeVar("K", bound=Hashable)
U = TypeVar("U")

#: whether a unit in the first hex sees the second (line of sight, terrain that hides)
Sees = Callable[[Hex, Hex], bool]


def in_sight(eyes: Iterable[Hex], target: Hex, reach: int = 1, sees: Sees | None = None) -> bool:
    """Whether a unit in ``target`` is seen from one of the hexes ``eyes``."""
    return any(distance(e, target) <= reach and (sees is None or sees(e, target)) for e in eyes)


def sighted(units: Mapping[K, U], viewer: str, *, side_of: Callable[[U], str],
            hex_of: Callable[[U], Hex | None], reach: int = 1, sees: Sees | None = None) -> set[K]:
    """The keys of the units on the map that ``viewer`` sees: its own, and every other side's
    within ``reach`` of one of its own (and in its sight).  A unit off the map (``hex_of`` None)
    is never among them."""
    eyes = [h for u in units.values() if side_of(u) == viewer and (h := hex_of(u)) is not None]
    out: set[K] = set()
    for key, unit in units.items():
        h = hex_of(unit)
        if h is not None and (side_of(unit) == viewer or in_sight(eyes, h, reach, sees)):
            out.add(key)
    return out


def unseen(hexes: Iterable[Hex], eyes: Iterable[Hex], reach: int = 1, sees: Sees | None = None) -> frozenset[Hex]:
    """The hexes of ``hexes`` that no unit in ``eyes`` sees: a map picture's fog (an unseen hex
    is not an empty one)."""
    eyes = list(eyes)
    return frozenset(h for h in hexes if not in_sight(eyes, h, reach, sees))
