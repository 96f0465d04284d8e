"""Musket & Sabre: Salem Church -- the map a game is played on, and whether its play is fogged.

The helpers every layer of the system needs, kept below them all so that none imports
another sideways: the rules modules (:mod:`.turn`, :mod:`.views`, :mod:`.report`) and the
system object (:mod:`.system`) read the scenario's map and its fog from here, and the
system object calls down into the rules, never the other way.

* :func:`load_map`: the scenario's map (``games/salem_church/maps/NAME.yaml``), parsed once
  per process;
* :func:`hexmap`: the map of a game state;
* :func:`fogged`: umpired line-of-sight play, where each side sees the enemy only in its
  units' sight (:mod:`.views`), unless the game was made with ``--option open_map``.
"""
from __future__ import annotations

from typing import Mapping


DATA = "salem_church"                # the folder under games/


def hexmap(state: Mapping):
    """The map of the game ``state`` (its scenario's ``map``)."""
    return load_map(state["map"])


def load_map(name: str):
    """The scenario's map: the game's pinned copy in play (kit.data), parsed once per content."""
    from ...kit.data import game_map

    return game_map("salem-church", name)


def fogged(state: Mapping) -> bool:
    """Umpired line-of-sight play: each side sees the enemy only in its units' sight (:mod:`.views`)."""
    return state.get("mode") == "umpired" and not (state.get("options") or {}).get("open_map")
