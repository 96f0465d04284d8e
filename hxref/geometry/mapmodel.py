"""The map model: terrain types, hex maps and tables as loaded from map files.

:mod:`hxref.geometry.mapfile` reads and checks the files and builds these; the format is
described there.  A :class:`HexMap` answers what is in a hex or on a hexside,
gives the data step cost for :mod:`.paths` (:meth:`HexMap.step_cost`) and the
sight terrain for :mod:`.los` (:meth:`HexMap.sight_terrain`).  A
:class:`TableMap` wraps a :class:`~.table.Table` with its terrain types.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable, Literal

from ..base.errors import InvalidInput
from .hex import Hex, HexGrid, HexSide
from .los import SightTerrain
from .paths import MoveRules, Prohibited
from .table import Table


@dataclass(frozen=True)
class TerrainType:
    """One declared terrain type, feature, hexside feature or line type."""

    name: str
    group: str
    colour: str
    symbol: str
    label: str
    move: Any = None
    move_out: Any = None
    move_in: Any = None
    line_move: Any = None
    replaces: tuple[str, ...] = ()
    height: float = 0
    rules: dict = field(default_factory=dict)
    given: tuple[str, ...] = ()

    def cost(self, unit_class: str | None = None, which: str = "move") -> float | None:
        """The cost for ``unit_class`` (``which``: move, move_out, move_in, line_move); None = prohibited."""
        spec = getattr(self, which)
        if which != "move" and which not in self.given:
            spec = self.move
        if isinstance(spec, dict):
            if unit_class is not None and unit_class in spec:
                return spec[unit_class]
            return spec.get("default")
        return spec

    @property
    def directed(self) -> bool:
        """True for a hexside feature whose cost depends on the direction of crossing (a slope)."""
        return "move_out" in self.given or "move_in" in self.given


@dataclass
class HexInfo:
    terrain: str
    elevation: float
    features: tuple[str, ...] = ()


@dataclass
class SideInfo:
    features: tuple[str, ...]
    drawn_in: Hex | None = None


@dataclass
class MapLine:
    type: str
    hexes: tuple[Hex, ...]
    name: str = ""


@dataclass
class HexMap:
    """A hex map: the grid, the terrain types and what is in every hex and on every hexside."""

    path: str
    id: str
    title: str
    system: str
    grid: HexGrid
    types: dict[str, dict[str, TerrainType]]
    default_terrain: str
    default_elevation: float
    cells: dict[Hex, HexInfo]
    sides: dict[HexSide, SideInfo]
    lines: list[MapLine]
    places: dict[str, Hex]
    stand_in: bool = False
    note: str = ""
    kind: ClassVar[Literal["hex"]] = "hex"

    def __post_init__(self) -> None:
        self.line_sides: dict[HexSide, set[str]] = {}
        for ln in self.lines:
            for a, b in zip(ln.hexes, ln.hexes[1:]):
                self.line_sides.setdefault(HexSide(a, b), set()).add(ln.type)
        # the labels printed and read so far: the grid never changes, and the rules ask the same
        # few hundred hexes over and over
        self._label_memo: dict[Hex, str] = {}
        self._hex_memo: dict[str, Hex] = {}

    # labels
    def label(self, h: Hex) -> str:
        """The printed label of ``h``."""
        hit = self._label_memo.get(h)
        if hit is None:
            hit = self._label_memo[h] = self.grid.label(h)
        return hit

    def parse(self, label: str) -> Hex:
        """The hex printed as ``label`` (InvalidInput if bad or off the map)."""
        if type(label) is not str:
            return self.grid.parse(label)
        hit = self._hex_memo.get(label)
        if hit is None:
            hit = self._hex_memo[label] = self.grid.parse(label)
        return hit

    def hexes(self) -> list[Hex]:
        """Every hex on the map, in printed order."""
        return list(self.grid.hexes())

    def __contains__(self, h: Hex) -> bool:
        return self.grid.contains(h)

    # what is where
    def terrain(self, h: Hex) -> TerrainType:
        """The terrain type of hex ``h``."""
        info = self.cells.get(h)
        return self.types["hex"][info.terrain if info else self.default_terrain]

    def elevation(self, h: Hex) -> float:
        """Ground level of ``h``."""
        info = self.cells.get(h)
        return info.elevation if info else self.default_elevation

    def features(self, h: Hex) -> tuple[str, ...]:
        """The hex features (town, building) in ``h``."""
        info = self.cells.get(h)
        return info.features if info else ()

    def side_features(self, side: HexSide, effective: bool = True) -> tuple[str, ...]:
        """The features on a hexside; ``effective`` drops those a bridge or ford replaces."""
        info = self.sides.get(side)
        if info is None:
            return ()
        if not effective:
            return info.features
        gone = {r for f in info.features for r in self.types["hexside"][f].replaces}
        return tuple(f for f in info.features if f not in gone)

    def drawn_in(self, side: HexSide) -> Hex | None:
        """The hex a directed hexside feature (a slope) is drawn in."""
        info = self.sides.get(side)
        return info.drawn_in if info else None

    def lines_between(self, a: Hex, b: Hex) -> set[str]:
        """The line types (road, rail) that run from ``a`` straight to ``b``."""
        try:
            return self.line_sides.get(HexSide(a, b), set())
        except ValueError:
            return set()

    def place(self, name: str) -> Hex:
        """A named place's hex."""
        try:
            return self.places[name]
        except KeyError:
            raise InvalidInput(f"no place called {name!r} on map {self.id}", hint=did_you_mean(name, self.places)) from None

    # movement and sight from the data
    def step_cost(self, unit_class: str | None = None, lines: Iterable[str] | None = None) -> Callable[[Hex, Hex], float | Prohibited]:
        """The data step cost (see the module text) for ``unit_class``, using the given line types (default: all)."""
        usable = None if lines is None else set(lines)
        types = self.types
        label = self.label

        def cost(a: Hex, b: Hex) -> float | Prohibited:
            if b not in self.grid:
                return Prohibited(f"{label(b) if _labelable(self, b) else repr(b)} is off the map")
            side = HexSide(a, b)
            along = [t for t in self.lines_between(a, b) if usable is None or t in usable]
            line_rate = None
            for t in along:
                c = types["lines"][t].cost(unit_class)
                if c is not None and (line_rate is None or c < line_rate):
                    line_rate = c
            side_cost: float = 0
            drawn = self.drawn_in(side)
            for f in self.side_features(side):
                tt = types["hexside"][f]
                c = tt.cost(unit_class, crossing_kind(tt, drawn, a, b, along_line=line_rate is not None))
                if c is None:
                    return Prohibited(f"{tt.label} on hexside {self.grid.side_label(side)} cannot be crossed")
                side_cost += c
            if line_rate is not None:
                return line_rate + side_cost
            tt = self.terrain(b)
            c = tt.cost(unit_class)
            if c is None:
                return Prohibited(f"{tt.label} in {label(b)} cannot be entered")
            for f in self.features(b):
                fc = types["features"][f].cost(unit_class)
                if fc is None:
                    return Prohibited(f"{types['features'][f].label} in {label(b)} cannot be entered")
                c += fc
            return c + side_cost

        return cost

    def move_rules(self, unit_class: str | None = None, lines: Iterable[str] | None = None, stops=None, zoc=None) -> MoveRules:
        """:class:`MoveRules` from the data step cost plus the caller's stop and ZOC tests."""
        return MoveRules(self.step_cost(unit_class, lines), stops=stops, zoc=zoc)

    def sight_terrain(self) -> SightTerrain:
        """Ground levels and obstacle heights for :func:`hxref.geometry.los.line_of_sight`."""
        types = self.types

        def obstacle(h: Hex) -> float:
            return max([self.terrain(h).height] + [types["features"][f].height for f in self.features(h)])

        def side_height(s: HexSide) -> float:
            return max([0] + [types["hexside"][f].height for f in self.side_features(s)])

        return SightTerrain(ground=self.elevation, obstacle=obstacle, hexside=side_height)


@dataclass
class TableMap:
    """A miniatures table: size in inches, terrain types and the :class:`~hxref.geometry.table.Table`."""

    path: str
    id: str
    title: str
    system: str
    table: Table
    types: dict[str, dict[str, TerrainType]]
    places: dict[str, tuple[float, float]]
    stand_in: bool = False
    note: str = ""
    kind: ClassVar[Literal["table"]] = "table"

    @property
    def width(self) -> float:
        """Table width in inches (x, west to east)."""
        return self.table.width

    @property
    def height(self) -> float:
        """Table depth in inches (y, south to north)."""
        return self.table.height

    def type_of(self, name: str) -> TerrainType:
        """The declared type called ``name`` (any group)."""
        for group in self.types.values():
            if name in group:
                return group[name]
        raise KeyError(name)


def crossing_kind(tt: TerrainType, drawn: Hex | None, a: Hex, b: Hex, *, along_line: bool) -> str:
    """Which of a hexside feature's costs a step from ``a`` to ``b`` pays: ``line_move`` along a road
    or rail that has one, ``move_out``/``move_in`` for a directed feature (a slope drawn in a hex),
    else ``move``."""
    if along_line and "line_move" in tt.given:
        return "line_move"
    if drawn is not None and drawn == a:
        return "move_out"
    if drawn is not None and drawn == b:
        return "move_in"
    return "move"


def _labelable(m: HexMap, h: Hex) -> bool:
    try:
        m.label(h)
        return True
    except ValueError:
        return False


def did_you_mean(word: Any, choices: Iterable[str]) -> str | None:
    """A "did you mean 'x'?" hint, or None when nothing is close."""
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1)
    return f"did you mean {close[0]!r}?" if close else None
