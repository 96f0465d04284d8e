"""Geometry for hex maps and miniatures tables.

* :mod:`.hex` -- :class:`Hex` (axial), :class:`HexSide`, directions, distance,
  rings, exact hex lines; printed labels :class:`FourDigit` (``2114``) and
  :class:`AslLabels` (``StJ14``); :class:`HexGrid`, the printed rectangle.
* :mod:`.paths` -- movement: :class:`MoveRules` (step-cost, stop and ZOC
  callbacks, and the key of what they depend on), :class:`MoveGraph` (Dijkstra),
  :func:`movement_graph` (one graph per key and hexes); a move order is walked by
  :mod:`hxref.kit.walk`.  :mod:`.paths_scipy` is the optional scipy accelerator.
* :mod:`.los` -- line of sight with elevations, obstacles, hexside features
  and system adjustments.
* :mod:`.table` -- inches, facings, bases, fire arcs, terrain polygons
  (shapely; imported only when used).
"""
from .hex import (
    DIRECTIONS,
    AslLabels,
    Direction,
    FourDigit,
    Hex,
    HexGrid,
    HexSide,
    are_adjacent,
    direction_to,
    distance,
    hex_line,
    hex_range,
    label_format,
    line_steps,
    ring,
)
from .los import LosResult, SightTerrain, line_of_sight, upslope_bonus
from .paths import MoveGraph, MoveRules, Prohibited, cheapest_path, clear_graph_cache, movement_graph, reachable

__all__ = [
    "DIRECTIONS",
    "AslLabels",
    "Direction",
    "FourDigit",
    "Hex",
    "HexGrid",
    "HexSide",
    "LosResult",
    "MoveGraph",
    "MoveRules",
    "Prohibited",
    "SightTerrain",
    "are_adjacent",
    "cheapest_path",
    "clear_graph_cache",
    "direction_to",
    "distance",
    "hex_line",
    "hex_range",
    "label_format",
    "line_of_sight",
    "line_steps",
    "movement_graph",
    "reachable",
    "ring",
    "upslope_bonus",
]
