"""ASL Kampfgruppe Peiper terrain calculators (KGP rules 1-6): the terrain they speak of, the units
and Locations they ask about, the chart of KGP's own numbers, and how a cost is explained.

The calculators are pure functions over a loaded map and the chart (:meth:`TerrainChart.load`);
each returns a frozen result with the total, every part (:class:`Part`) with its
reason and rule, and a ``why`` sentence.  Rule numbers are those of the digest
(``rules/kgp.md``).  They live by rule:

* :mod:`.terrain_costs` -- :func:`~.terrain_costs.mf_cost` (MF to enter a Location: Pine Woods 1.3,
  slopes 2.51-2.53, barbed wire 3.2-3.21, streams 4.11-4.12, narrow streets 5.11, 5.141),
  :func:`~.terrain_costs.vehicle_entry` (2.52, 2.53, 3.3), :func:`~.terrain_costs.wire_drms` (3.3)
  and :func:`~.terrain_costs.temporary_breach` (3.21);
* :mod:`.slopes` -- Down-Slope and Up-Slope (2.2), LOS height (2.3) and the Slope TEM (2.41);
* :mod:`.fire_lanes` -- Fire Lanes across slopes: same base level (2.31), the Fire-Lane Slope DRM (2.42);
* :mod:`.sight` -- LOS by obstacles and blind hexes (2.3), hillside walls and hedges (6.1, 6.2);
* :mod:`.narrow_streets` -- which hex of a narrow street counts (5.11, 5.13, 5.143), vehicles on it:
  VBM at half cost, the 180-degree turn, the TCA-change dr (5.11, 5.12);
* :mod:`.terrain_locations` -- steeples (5.2, 5.21), the single-hex two-story house (5.3), culverts (4.2);
* :mod:`.terrain_streams` -- the stream-bottom TEM (4.13), sight and fire in a culvert (4.2, 4.24).

The numbers are data: the COT of each hex type is the ``move`` of the map's
terrain types (``games/kgp/terrain.yaml``); KGP's own numbers are in
``games/kgp/charts/terrain_costs.yaml`` (:class:`TerrainChart`), each with
its rule and a ``stand_in`` flag.  The map says where things are, with these
names: hexside features ``slope`` and ``crest_slope`` (``drawn_in`` = the hex
holding the hachures, which is Down-Slope across it), ``barbed_wire``,
``stream`` (a hexside the stream crosses), ``narrow_street`` (paved),
``narrow_street_unpaved``, ``wall``, ``hedge``, ``hillside_wall`` and
``hillside_hedge`` (6.1); the hex features ``stream``, ``culvert`` (4.2) and ``steeple`` (5.2);
the hex type ``two_story_house`` (5.3) and a building's ``rules.levels``; the line type ``road``.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Union

from ...base.errors import InvalidInput
from ...geometry.hex import Direction, Hex, HexSide

if TYPE_CHECKING:
    from ...kit.charts import Charts

# Names of map terrain the rules speak of (the vocabulary of games/kgp/terrain.yaml).
SLOPE = "slope"
CREST_SLOPE = "crest_slope"                       # 2.53
SLOPES = (SLOPE, CREST_SLOPE)
BARBED_WIRE = "barbed_wire"                       # 3.1
STREAM = "stream"                                 # hex feature, and the hexsides the stream crosses
CULVERT = "culvert"                               # hex feature: the underground Location (4.2)
STEEPLE = "steeple"                               # hex feature: the Location above the building (5.2)
NARROW_STREETS = {"narrow_street": True, "narrow_street_unpaved": False}   # name -> paved (5.1)
ROAD = "road"
STREAM_MIXED = ("woods", "pine_woods", "brush", "orchard")                 # 4.1
KGP_COT_RULE = {"pine_woods": "1.3"}               # hex types whose COT a KGP rule prints
ASL_COT_RULE = "ASL B, not in the seed"

# Units.
INFANTRY = frozenset({"squad", "half_squad", "crew", "smc"})
MMC = frozenset({"squad", "half_squad", "crew"})
MF_KINDS = INFANTRY | {"cavalry", "wagon", "bicycle", "horse"}
VEHICLES = frozenset({"vehicle", "motorcycle"})
KINDS = MF_KINDS | VEHICLES
STATUSES = ("good_order", "pinned", "broken", "berserk")


class NotCovered(InvalidInput):
    """The question is understood, but the answer needs ASL rules the seed does not give."""


# --------------------------------------------------------------------------
# units and locations


@dataclass(frozen=True)
class Unit:
    """What the terrain rules ask of a unit.

    ``kind``: squad, half_squad, crew, smc (Infantry); cavalry, wagon,
    bicycle (ridden), horse; vehicle, motorcycle (MP units).  ``status``:
    good_order, pinned, broken, berserk.  Vehicles: ``fully_tracked`` and
    ``truck_mp`` (expends truck-type MP) for the wire Bog DRMs (3.3).
    """

    kind: str = "squad"
    status: str = "good_order"
    cx: bool = False
    skis: bool = False
    straying: bool = False
    fully_tracked: bool = True
    truck_mp: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InvalidInput(f"unknown unit kind {self.kind!r}; use one of {', '.join(sorted(KINDS))}")
        if self.status not in STATUSES:
            raise InvalidInput(f"unknown unit status {self.status!r}; use one of {', '.join(STATUSES)}")

    @property
    def infantry(self) -> bool:
        return self.kind in INFANTRY

    @property
    def vehicle(self) -> bool:
        return self.kind in VEHICLES

    @property
    def cot_class(self) -> str:
        """The unit-class key of the terrain types' ``move`` tables."""
        return "infantry" if self.infantry else self.kind


@dataclass(frozen=True)
class Location:
    """A Location: a hex label, the building level above its ground (0 = ground
    level), the narrow-street hexside it bypasses along (if any), in a
    stream hex whether it is in crest status (B20.9), and whether it is the
    culvert under the hex (4.2)."""

    hex: str
    level: int = 0
    bypass: str | None = None
    crest: bool = False
    culvert: bool = False


UnitLike = Union[Unit, str]
LocationLike = Union[Location, str]


def _unit(u: UnitLike) -> Unit:
    return u if isinstance(u, Unit) else Unit(str(u))


def _loc(x: LocationLike) -> Location:
    return x if isinstance(x, Location) else Location(str(x))


def _frac(x: Any) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(str(x))


def mf_text(x: Any) -> str:
    """ASL style: ``2 1/2``, ``1/2``, ``3``, ``3 3/4``."""
    v = _frac(x)
    sign = "-" if v < 0 else ""
    v = abs(v)
    whole, rest = divmod(v.numerator, v.denominator)
    if rest == 0:
        return f"{sign}{whole}"
    frac = f"{rest}/{v.denominator}"
    return f"{sign}{whole} {frac}" if whole else f"{sign}{frac}"


# --------------------------------------------------------------------------
# the chart


@dataclass(frozen=True)
class Entry:
    """One number of the chart, with its rule and whether it is a stand-in."""

    value: Fraction
    rule: str
    stand_in: bool = False
    note: str = ""


REQUIRED = (
    "slope.climb_mf", "slope.climb_mp", "slope.ski_bonus_mf", "slope.up_slope_levels", "slope.tem",
    "elevation.higher_cot_multiplier",
    "barbed_wire.infantry_mf", "barbed_wire.cavalry_mf", "barbed_wire.night_multiplier",
    "barbed_wire.breach_mf", "barbed_wire.breach_create_mf",
    "barbed_wire.bog_drm.not_fully_tracked", "barbed_wire.bog_drm.truck_type_mp",
    "narrow_street.bypass_mf", "narrow_street.roadblock_mf",
)


@dataclass(frozen=True)
class TerrainChart:
    """``games/kgp/charts/terrain_costs.yaml``: entries by dotted key (``slope.climb_mf``)."""

    entries: Mapping[str, Entry]
    bog_combine: str
    stand_in: bool
    note: str
    path: str = ""

    def entry(self, key: str) -> Entry:
        try:
            return self.entries[key]
        except KeyError:
            raise InvalidInput(f"the KGP terrain chart has no entry {key!r}", file=self.path or None) from None

    def value(self, key: str) -> Fraction:
        return self.entry(key).value

    def group(self, prefix: str) -> dict[str, Entry]:
        """The entries under ``prefix`` (``stream.depth_mf``), by their last key."""
        n = len(prefix) + 1
        return {k[n:]: e for k, e in self.entries.items() if k.startswith(prefix + ".") and "." not in k[n:]}

    @classmethod
    def from_data(cls, data: Any, path: str = "") -> "TerrainChart":
        if not isinstance(data, dict):
            raise InvalidInput("the KGP terrain chart must be a mapping", file=path or None)
        entries: dict[str, Entry] = {}
        combine = "max"

        def walk(node: Any, keys: list[str]) -> None:
            nonlocal combine
            if isinstance(node, dict) and "value" in node:
                key = ".".join(keys)
                try:
                    value = _frac(node["value"])
                except (ValueError, ZeroDivisionError):
                    raise InvalidInput(f"{key}: value must be a number or a fraction like '1/2'", file=path or None,
                                       path=key) from None
                entries[key] = Entry(value, str(node.get("rule", "")), bool(node.get("stand_in", False)),
                                     str(node.get("note", "") or node.get("text", "")))
            elif isinstance(node, dict):
                for k, v in node.items():
                    if not keys and k in ("stand_in", "rule", "note"):
                        continue
                    if k == "combine":
                        combine = str(v)
                        continue
                    walk(v, keys + [str(k)])

        walk(data, [])
        missing = [k for k in REQUIRED if k not in entries]
        if missing:
            raise InvalidInput(f"the KGP terrain chart lacks {', '.join(missing)}", file=path or None)
        if combine not in ("max", "sum"):
            raise InvalidInput(f"barbed_wire.bog_drm.combine must be max or sum, not {combine!r}", file=path or None)
        return cls(entries, combine, bool(data.get("stand_in", False)), str(data.get("note", "")), path)

    @classmethod
    def load(cls, charts: Charts, path: str | Path | None = None) -> "TerrainChart":
        """The chart ``terrain_costs`` of ``charts``, or another file."""
        return _build(charts.chart_source("terrain_costs", str(path) if path else None))


@cache
def _build(src) -> TerrainChart:
    """Once per chart content (the game's pinned chart, or the disk's)."""
    return TerrainChart.from_data(src.data(), src.file)

# --------------------------------------------------------------------------
# results


@dataclass(frozen=True)
class Part:
    """One part of a cost (MF, MP or DRM), with its reason and rule."""

    value: Fraction
    reason: str
    rule: str
    stand_in: bool = False

    def text(self, sign: bool = False) -> str:
        v = ("+" if sign and self.value >= 0 else "") + mf_text(self.value)
        return f"{v} {self.reason} ({self.rule}{'; stand-in' if self.stand_in else ''})"


def _rules(parts: Iterable[Part], notes: Iterable[str], rule: str | None) -> tuple[str, ...]:
    out: list[str] = []
    for r in [p.rule for p in parts] + ([rule] if rule else []):
        if r and r not in out:
            out.append(r)
    for n in notes:
        if n.endswith(")") and "(" in n:
            r = n[n.rindex("(") + 1:-1]
            if r not in out:
                out.append(r)
    return tuple(out)



# --------------------------------------------------------------------------
# map helpers


def _hex(hexmap, x: LocationLike | Hex) -> Hex:
    if isinstance(x, Hex):
        return x
    return hexmap.parse(_loc(x).hex)


def _side(hexmap, x: str | HexSide) -> HexSide:
    return x if isinstance(x, HexSide) else hexmap.grid.parse_hexside(str(x))


def _slope_drawn_in(hexmap, side: HexSide) -> Hex | None:
    """The hex holding a slope hexside's hachures (Down-Slope across it), or None when it is no slope."""
    if not set(hexmap.side_features(side)) & set(SLOPES):
        return None
    return hexmap.drawn_in(side)


def _street(hexmap, side: HexSide) -> bool | None:
    """Paved (True) or unpaved (False) narrow street on ``side``; None when there is none."""
    feats = hexmap.side_features(side)
    for name, paved in NARROW_STREETS.items():
        if name in feats:
            return paved
    return None


def _sides_of(hexmap, h: Hex) -> list[tuple[Direction, HexSide]]:
    return [(d, HexSide(h, h.neighbour(d))) for d in Direction if h.neighbour(d) in hexmap.grid]


def _label(hexmap, h: Hex) -> str:
    return hexmap.label(h)
