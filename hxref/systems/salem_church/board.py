"""Musket & Sabre: Salem Church -- the map a game is played on, and whether its play is fogged.

The helpers every layer of the system needs, kept below them all so that none imports
another sideways: the rules modules (:mod:`.turn`, :mod:`.views`, :mod:`.report`) and the
system object (:mod:`.system`) read the scenario's map and its fog from here, and the
system object calls down into the rules, never the other way.

* :func:`hexmap`: the map of a game state, as the game's charts hold it (the game's pinned
  copy in play, :class:`~hxref.kit.charts.Charts`; parsed once per content);
* :func:`fogged`: umpired line-of-sight play, where each side sees the enemy only in its
  units' sight (:mod:`.views`), unless the game was made with ``--option open_map``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from ...geometry.mapmodel import HexMap
    from ...kit.charts import Charts


DATA = "salem_church"                # the folder under games/


def hexmap(charts: Charts, state: Mapping) -> HexMap:
    """The map of the game ``state`` (its scenario's ``map``, ``games/salem_church/maps/NAME.yaml``)
    as ``charts`` hold it."""
    return charts.map(state["map"])


def fogged(state: Mapping) -> bool:
    """Umpired line-of-sight play: each side sees the enemy only in its units' sight (:mod:`.views`)."""
    return state.get("mode") == "umpired" and not (state.get("options") or {}).get("open_map")
