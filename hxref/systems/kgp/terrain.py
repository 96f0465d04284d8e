"""ASL Kampfgruppe Peiper terrain calculators: KGP rules 1-5.

Pure functions over a loaded map (:func:`hxref.maps.load_map`); each returns
a frozen result with the total, every part with its reason and rule, and a
``why`` sentence.  Rule numbers are those of the digest (``rules/kgp.md``).

* :func:`mf_cost` -- MF for an MF-expending unit (Infantry, cavalry, wagons,
  bicycles, horses) to enter an adjacent ground-level Location: the COT of
  the hex (Pine Woods 1.3), doubled when moving to a higher elevation (the
  2.51 example, ASL B10.4), climbing a slope (2.51), barbed wire and the
  Temporary Breach (3.2, 3.21), stream-hex terrain (4.11, 4.12), narrow
  streets and Roadblocks (5.11, 5.141), crest-line slopes (2.53).
* :func:`vehicle_entry` -- what KGP adds for MP units: the 1 MP to climb a
  slope (2.52), crest-line slopes barred (2.53), barbed wire (3.3: no MP,
  motorcycles barred, an extra Bog DR with :func:`wire_drms`).
* :func:`temporary_breach` -- creating a Temporary Breach (3.21).
* :func:`down_slope_hexsides`, :func:`is_up_slope` (2.2), :func:`los_height`
  and :func:`sight_adjustments` (the +3/4 level, 2.3), :func:`slope_tem` (2.41).
* :func:`street_hexes`, :func:`bypass_minefields`, :func:`mines_must_be_revealed`
  -- which hex of a narrow street counts (5.11, 5.13, 5.143).

The numbers are data: the COT of each hex type is the ``move`` of the map's
terrain types (``games/kgp/terrain.yaml``); KGP's own numbers are in
``games/kgp/charts/terrain_costs.yaml`` (:class:`TerrainChart`), each with
its rule and a ``stand_in`` flag.  The map says where things are, with these
names: hexside features ``slope`` and ``crest_slope`` (``drawn_in`` = the hex
holding the hachures, which is Down-Slope across it), ``barbed_wire``,
``stream`` (a hexside the stream crosses), ``narrow_street`` (paved) and
``narrow_street_unpaved``; the hex feature ``stream``; the line type ``road``.

Readings chosen where the rules are ambiguous (tests: tests/kgp/test_terrain.py):

* COT: the unit class key of the terrain type (``cavalry``, ``wagon`` ...),
  else its default.  Moving to a hex of higher base elevation ("crossing a
  crest line") doubles the whole COT -- road rate, bypass and stream costs
  included; going down adds nothing.  Slope climbing (+1/2) is paid by every
  MF unit (2.51 names Infantry, cavalry and wagons).
* Barbed wire is a hexside and costs the same in both directions.  At night
  every crossing extra is doubled, the breach's +1/2 included (so +1); the
  2 MF to *create* a breach is not a crossing extra and is not doubled.
  Armored Assault and trench/tunnel movement exempt Infantry only.
* Temporary Breach: usable by Infantry that is not broken, berserk,
  manhandling or in a Human Wave; cavalry pays its full +2.  Creating one
  needs a Good Order, unpinned (3.21: the breach lasts only while unpinned),
  non-Straying Infantry MMC.
* Bog DRMs (3.3, signs lost): +1 not fully tracked, +2 truck-type MP; a
  truck gets the larger (+2), not both -- the chart's ``combine`` says so.
* Slope TEM (2.41): "higher level" compares base level plus building level,
  without the +3/4 (2.3: Up-Slope gives no height advantage); a LOS touching
  only a vertex of a Down-Slope hexside crosses it (2.1: vertices included);
  for a Fire Group (A.5) the TEM applies when any firer's fire qualifies (the
  2.41 example's FG of A and B).  Not cumulative: the target gets the better
  of the slope +1 and its other positive TEM, plus Mud/Deep Snow TEM.
* Streams (4.11): across a stream hexside the unit pays the depth cost only;
  across another hexside, into a stream-woods/pine/brush/orchard hex, the
  depth cost plus that terrain's COT.  Dry = 2 MF is derived from the printed
  Dry stream-woods 4 MF.  Deep and Flooded have no cost in the seed.
* Narrow streets: bypass (5.11) is computed along narrow-street hexsides
  only, at the chart's stand-in bypass cost (ASL A4.3: 1 MF, the Open
  Ground of a village hex); "pays 2 MF at the same time" in the 5.141
  example is that 1 + the Roadblock's 1.  A move that starts bypassing along
  a street, or crosses a street hexside, pays the full COT of an obstacle
  (a terrain with a LOS height) even along a road (5.11).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, Collection, Iterable, Mapping, Sequence, Union

from ...errors import InvalidInput
from ...geometry.hex import Direction, Hex, HexSide, distance
from ...geometry.los import Adjustment, SightTerrain, sight_line, upslope_bonus
from ...geometry.mapmodel import crossing_kind

# Names of map terrain the rules speak of (the vocabulary of games/kgp/terrain.yaml).
SLOPE = "slope"
CREST_SLOPE = "crest_slope"                       # 2.53
SLOPES = (SLOPE, CREST_SLOPE)
BARBED_WIRE = "barbed_wire"                       # 3.1
STREAM = "stream"                                 # hex feature, and the hexsides the stream crosses
NARROW_STREETS = {"narrow_street": True, "narrow_street_unpaved": False}   # name -> paved (5.1)
ROAD = "road"
STREAM_MIXED = ("woods", "pine_woods", "brush", "orchard")                 # 4.1
KGP_COT_RULE = {"pine_woods": "1.3"}               # hex types whose COT a KGP rule prints
ASL_COT_RULE = "ASL B, not in the seed"
_KGP_SIDES = set(SLOPES) | {BARBED_WIRE, STREAM} | set(NARROW_STREETS)

# Units.
INFANTRY = frozenset({"squad", "half_squad", "crew", "smc"})
MMC = frozenset({"squad", "half_squad", "crew"})
MF_KINDS = INFANTRY | {"cavalry", "wagon", "bicycle", "horse"}
VEHICLES = frozenset({"vehicle", "motorcycle"})
KINDS = MF_KINDS | VEHICLES
STATUSES = ("good_order", "pinned", "broken", "berserk")
_WIRE_BANNED = {"wagon": "wagons", "bicycle": "ridden bicycles", "horse": "horses"}     # 3.2


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
    level), the narrow-street hexside it bypasses along (if any) and, in a
    stream hex, whether it is in crest status (B20.9)."""

    hex: str
    level: int = 0
    bypass: str | None = None
    crest: bool = False


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
    def load(cls, path: str | Path | None = None) -> "TerrainChart":
        """The shipped chart, or another file."""
        return _load(str(path) if path else None)


def _load(path: str | None) -> TerrainChart:
    from ...kit import data

    return _build(data.chart_source("kgp", "terrain_costs", path))


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


@dataclass(frozen=True)
class MoveCost:
    """MF to enter ``end`` from ``start`` (:func:`mf_cost`).

    ``legal`` False: ``total`` is None and ``rule`` names the rule that bars
    the move; ``task_impossible`` when a Straying unit becomes TI instead
    (3.2).  ``bonus``: MF the unit gains (skis going down a slope, 2.51).
    ``hazardous``: the move through a Temporary Breach is Hazardous Movement.
    """

    unit: str
    start: str
    end: str
    legal: bool
    total: Fraction | None
    parts: tuple[Part, ...] = ()
    notes: tuple[str, ...] = ()
    bonus: Fraction = Fraction(0)
    hazardous: bool = False
    task_impossible: bool = False
    rule: str | None = None
    why: str = ""

    @property
    def rules(self) -> tuple[str, ...]:
        return _rules(self.parts, self.notes, self.rule)


@dataclass(frozen=True)
class BogDrms:
    """The barbed-wire Bog DRMs of a vehicle (3.3)."""

    total: int
    parts: tuple[Part, ...]
    stand_in: bool
    rule: str = "3.3"
    why: str = ""


@dataclass(frozen=True)
class VehicleEntry:
    """What KGP adds when an MP unit enters ``end`` (:func:`vehicle_entry`); the
    ASL COT in MP is not in the seed and is not included."""

    unit: str
    start: str
    end: str
    legal: bool
    extra_mp: Fraction | None
    parts: tuple[Part, ...] = ()
    wire_bog: bool = False
    bog: BogDrms | None = None
    notes: tuple[str, ...] = ()
    rule: str | None = None
    why: str = ""

    @property
    def rules(self) -> tuple[str, ...]:
        return _rules(self.parts, self.notes, self.rule)


@dataclass(frozen=True)
class BreachAttempt:
    """Creating a Temporary Breach (3.21)."""

    legal: bool
    mf: Fraction | None
    task_impossible: bool
    concealment_loss: bool
    rule: str = "3.21"
    why: str = ""


@dataclass(frozen=True)
class Check:
    """One condition of a rule, met or not."""

    ok: bool
    text: str
    rule: str


@dataclass(frozen=True)
class SlopeTem:
    """Slope TEM eligibility (2.41); ``combined_tem`` is the positive TEM the target gets."""

    eligible: bool
    tem: int
    combined_tem: int
    checks: tuple[Check, ...]
    rule: str = "2.41"
    why: str = ""


@dataclass(frozen=True)
class LosHeight:
    """The height of a Location for a LOS toward another hex (2.3)."""

    height: Fraction
    up_slope: bool
    parts: tuple[Part, ...]
    rules: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class StreetHexes:
    """The hexes of a narrow-street hexside whose Smoke, Residual FP or mines count (5.11, 5.13, 5.143)."""

    hexside: str
    hexes: tuple[str, ...]
    crest: bool
    paved: bool
    rule: str
    why: str


@dataclass(frozen=True)
class MinefieldAttacks:
    """The minefields that attack a unit bypassing along a narrow street (5.143)."""

    hexside: str
    attacks: tuple[tuple[str, str, int], ...]      # (hex, type, FP)
    rule: str
    why: str


@dataclass(frozen=True)
class MineReveal:
    """Whether mines in a hex must be set up revealed (5.143)."""

    hex: str
    required: bool
    rule: str
    why: str


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


def down_slope_hexsides(hexmap, hex: LocationLike | Hex) -> tuple[str, ...]:
    """The slope hexsides drawn in ``hex`` (it is Down-Slope across them, 2.2), clockwise from north."""
    h = _hex(hexmap, hex)
    return tuple(hexmap.grid.side_label(s) for _, s in _sides_of(hexmap, h) if _slope_drawn_in(hexmap, s) == h)


def _touched(hexmap, a: Hex, b: Hex, end: Hex) -> list[HexSide]:
    """The hexsides of ``end`` (``a`` or ``b``) a LOS from ``a`` to ``b`` crosses or meets at a vertex."""
    line = sight_line(SightTerrain(ground=lambda h: 0), a, b)
    return [t.hexside for t in line.first_side(end)]


def is_up_slope(hexmap, location: LocationLike | Hex, toward: LocationLike | Hex) -> bool:
    """True when the LOS between ``location`` and ``toward`` crosses (or meets at a vertex) a
    slope hexside of ``location`` drawn in the other hex (2.2)."""
    h, o = _hex(hexmap, location), _hex(hexmap, toward)
    if h == o:
        return False
    for s in _touched(hexmap, h, o, h):
        drawn = _slope_drawn_in(hexmap, s)
        if drawn is not None and drawn != h:
            return True
    return False


def _label(hexmap, h: Hex) -> str:
    return hexmap.label(h)


# --------------------------------------------------------------------------
# MF


def _wire_ban(unit: Unit) -> str | None:
    if unit.kind in _WIRE_BANNED:
        return _WIRE_BANNED[unit.kind]
    if unit.skis:
        return "Infantry on skis"
    if unit.cx:
        return "CX Infantry" if unit.infantry else f"CX {unit.kind}"
    return None


def _ground_only(*locs: Location) -> None:
    for x in locs:
        if x.level:
            raise NotCovered(f"{x.hex} level {x.level}: moving to or from an upper building level follows ASL B23 "
                             f"(stairways), which is not in the seed; give ground-level Locations")


def _why_cost(start: str, end: str, total: Fraction, parts: Sequence[Part], notes: Sequence[str],
              bonus: Fraction, unit: str = "MF") -> str:
    text = f"{start} -> {end}: {mf_text(total)} {unit}"
    if parts:
        text += " = " + " + ".join(p.text() for p in parts)
    if bonus:
        text += f"; +{mf_text(bonus)} MF bonus for skis going down a slope (2.51)"
    if notes:
        text += "; " + "; ".join(notes)
    return text


class _Refused(Exception):
    """A step the rules bar: the reason, the rule and whether a Straying unit becomes TI."""

    def __init__(self, reason: str, rule: str, ti: bool = False) -> None:
        super().__init__(reason)
        self.reason, self.rule, self.ti = reason, rule, ti


@dataclass(frozen=True)
class _Step:
    """One step being priced: the map, the unit, both Locations and the hexside between them."""

    hexmap: Any
    unit: Unit
    a_loc: Location
    b_loc: Location
    a: Hex
    b: Hex
    side: HexSide
    feats: frozenset
    chart: TerrainChart

    @property
    def la(self) -> str:
        return self.hexmap.label(self.a)

    @property
    def lb(self) -> str:
        return self.hexmap.label(self.b)

    @property
    def side_label(self) -> str:
        return self.hexmap.grid.side_label(self.side)

    def bypass_side(self, x: Location, h: Hex) -> HexSide | None:
        """The narrow-street hexside ``x`` bypasses along (5.11), or None."""
        if x.bypass is None:
            return None
        s = _side(self.hexmap, x.bypass)
        if h not in s.hexes:
            raise InvalidInput(f"{x.bypass} is not a hexside of {self.hexmap.label(h)}: a unit bypasses along a "
                               f"hexside of its hex")
        if _street(self.hexmap, s) is None:
            raise NotCovered(f"bypass along {self.hexmap.grid.side_label(s)}, which is no narrow street: ASL A4.3 is "
                             f"not in the seed; this calculator prices bypass along narrow streets (5.11)")
        return s


def _terrain_cot(st: _Step, on_street: bool, notes: list[str]) -> list[Part]:
    """The COT of the hex entered off a stream: its terrain (or the road rate) and its features."""
    hexmap, cls, lb = st.hexmap, st.unit.cot_class, st.lb
    types = hexmap.types
    tt = hexmap.terrain(st.b)
    rule = KGP_COT_RULE.get(tt.name, ASL_COT_RULE)
    c = tt.cost(cls)
    if c is None:
        raise _Refused(f"{tt.label} in {lb} cannot be entered", rule)
    terrain_part = Part(_frac(c), f"{tt.label} COT", rule, tt.name not in KGP_COT_RULE)
    out = [terrain_part]
    rate = types["lines"][ROAD].cost(cls) if ROAD in hexmap.lines_between(st.a, st.b) and ROAD in types["lines"] else None
    if rate is not None and _frac(rate) <= terrain_part.value:
        if tt.height > 0 and on_street:
            notes.append("no road rate into an obstacle along or across a narrow street (5.11)")
        else:
            out = [Part(_frac(rate), "road", "ASL B3.4 (road rate; not in the seed)", True)]
    for f in hexmap.features(st.b):
        if f == STREAM:
            continue
        ft = types["features"][f]
        fc = ft.cost(cls)
        if fc is None:
            raise _Refused(f"{ft.label} in {lb} cannot be entered", ASL_COT_RULE)
        if fc:
            out.append(Part(_frac(fc), ft.label, ASL_COT_RULE, True))
    return out


def _stream_cot(st: _Step, depth: str | None, assault_move_possible: bool, notes: list[str]) -> list[Part]:
    """The cost of entering a stream hex (4.11) or, in crest status, a stream-woods/brush/orchard hex (4.12)."""
    u, lb, chart = st.unit, st.lb, st.chart
    tt = st.hexmap.terrain(st.b)
    if depth is None:
        raise InvalidInput(f"{lb} is a stream hex: give stream_depth (dry, shallow ...) (4.11, B20.4)")
    across_stream = STREAM in st.feats
    mixed = tt.name in STREAM_MIXED
    if st.b_loc.crest:
        if not mixed:
            raise NotCovered(f"crest status in the plain stream hex {lb} follows ASL B20.91, not in the seed")
        if across_stream:
            raise NotCovered(f"entering {lb} into crest status across the stream hexside: the 4.12 exception is for "
                             f"non-stream hexsides; otherwise ASL B20.91 applies (not in the seed)")
        if not u.infantry or u.status != "good_order":
            raise _Refused(f"only Good Order Infantry may enter {lb} directly into crest status", "4.12")
        if not assault_move_possible:
            raise _Refused(f"the unit must start where it could Assault Move into {lb}", "4.12")
        e = chart.group("stream.crest_entry_mf").get(tt.name)
        if e is None:
            raise NotCovered(f"the KGP chart has no crest-entry cost for stream-{tt.name} (4.12)")
        return [Part(e.value, f"stream-{tt.label.lower()} entered in crest status", e.rule, e.stand_in)]
    depths = chart.group("stream.depth_mf")
    e = depths.get(depth)
    if e is None:
        raise NotCovered(f"no MF for a {depth} stream: its ASL B20.4 cost is not in the seed; the KGP chart gives "
                         f"{', '.join(depths)}")
    out = [Part(e.value, f"{depth} stream", e.rule, e.stand_in)]
    if mixed and not across_stream:
        c = tt.cost(st.unit.cot_class)
        if c is None:
            raise _Refused(f"{tt.label} in {lb} cannot be entered", KGP_COT_RULE.get(tt.name, ASL_COT_RULE))
        out.append(Part(_frac(c), f"{tt.label} (cumulative across a non-stream hexside)", "4.11"))
    elif mixed:
        notes.append(f"along the stream the {tt.label.lower()} costs nothing (4.11)")
    return out


def _wire(st: _Step, *, night: bool, armored_assault: bool, in_trench: bool, breached: bool,
          manhandling: bool, human_wave: bool, notes: list[str]) -> tuple[list[Part], bool]:
    """The barbed-wire extra (3.2) or the Temporary Breach's (3.21); and whether the move is Hazardous."""
    u, chart = st.unit, st.chart
    night_x = chart.value("barbed_wire.night_multiplier") if night else Fraction(1)
    at_night = " (doubled at night)" if night else ""
    if not u.infantry:          # cavalry: wagons, bicycles and horses are barred before this
        e = chart.entry("barbed_wire.cavalry_mf")
        return [Part(e.value * night_x, f"barbed wire, cavalry{at_night}", e.rule, e.stand_in)], False
    if armored_assault or in_trench:
        how = "Armored Assault" if armored_assault else "movement in a trench or tunnel"
        notes.append(f"barbed wire: COT only by {how} (3.2)")
        return [], False
    barred = None
    if breached:
        if u.status in ("broken", "berserk"):
            barred = f"{u.status} Infantry"
        elif manhandling:
            barred = "manhandling Infantry"
        elif human_wave:
            barred = "Infantry in a Human Wave"
        if barred is None:
            e = chart.entry("barbed_wire.breach_mf")
            notes.append("movement through a Temporary Breach is Hazardous Movement (3.21)")
            return [Part(e.value * night_x, f"barbed wire through a Temporary Breach{at_night}", e.rule, e.stand_in)], True
        notes.append(f"{barred} cannot use the Temporary Breach (3.21)")
    e = chart.entry("barbed_wire.infantry_mf")
    return [Part(e.value * night_x, f"barbed wire{at_night}", e.rule, e.stand_in)], False


def mf_cost(
    hexmap,
    unit: UnitLike,
    start: LocationLike,
    end: LocationLike,
    *,
    night: bool = False,
    armored_assault: bool = False,
    in_trench: bool = False,
    breaches: Iterable[str | HexSide] = (),
    stream_depth: str | None = None,
    crosses_roadblock: bool = False,
    dash: bool = False,
    charging: bool = False,
    manhandling: bool = False,
    human_wave: bool = False,
    assault_move_possible: bool = True,
    chart: TerrainChart | None = None,
) -> MoveCost:
    """MF for ``unit`` to enter the ground-level Location ``end`` from the adjacent ``start``.

    ``night`` doubles the barbed-wire extras (3.2); ``armored_assault`` and
    ``in_trench`` (moving in trenches or tunnels) exempt Infantry from them;
    ``breaches`` are the hexsides with a Temporary Breach (3.21);
    ``stream_depth`` (dry, shallow ...) is needed to enter a stream hex (4.11);
    ``crosses_roadblock`` adds the Roadblock's MF (5.141); ``dash`` is refused
    along or across a narrow street (5.11); ``charging`` cavalry cannot cross
    a crest-line slope (2.53); ``manhandling`` and ``human_wave`` bar the use of
    a breach; ``assault_move_possible`` says whether the unit could Assault
    Move into a stream hex it enters in crest status (4.12).

    Bad input raises :class:`~hxref.errors.InvalidInput`; a question needing
    ASL rules the seed lacks raises :class:`NotCovered`; a step the rules bar
    gives a result with ``legal`` False.
    """
    chart = chart or TerrainChart.load()
    u = _unit(unit)
    if u.vehicle:
        raise InvalidInput(f"a {u.kind} expends MP, not MF: use vehicle_entry for what KGP adds (2.52, 2.53, 3.3)")
    a_loc, b_loc = _loc(start), _loc(end)
    a, b = hexmap.parse(a_loc.hex), hexmap.parse(b_loc.hex)
    _ground_only(a_loc, b_loc)
    if distance(a, b) != 1:
        raise InvalidInput(f"{hexmap.label(a)} and {hexmap.label(b)} are not adjacent: mf_cost prices one step")
    side = HexSide(a, b)
    st = _Step(hexmap, u, a_loc, b_loc, a, b, side, frozenset(hexmap.side_features(side)), chart)
    la, lb = st.la, st.lb
    try:
        parts, notes, bonus, hazardous = _price(
            st, night=night, armored_assault=armored_assault, in_trench=in_trench,
            breached=side in {_side(hexmap, s) for s in breaches}, stream_depth=stream_depth,
            crosses_roadblock=crosses_roadblock, dash=dash, charging=charging, manhandling=manhandling,
            human_wave=human_wave, assault_move_possible=assault_move_possible)
    except _Refused as no:
        why = f"{la} -> {lb}: {no.reason} ({no.rule})"
        if no.ti:
            why += "; the Straying unit becomes TI instead (3.2)"
        return MoveCost(u.kind, la, lb, False, None, rule=no.rule, task_impossible=no.ti, why=why)
    total = sum((p.value for p in parts), Fraction(0))
    return MoveCost(u.kind, la, lb, True, total, tuple(parts), tuple(notes), bonus, hazardous, False, None,
                    _why_cost(la, lb, total, parts, notes, bonus))


def _price(st: _Step, *, night: bool, armored_assault: bool, in_trench: bool, breached: bool,
           stream_depth: str | None, crosses_roadblock: bool, dash: bool, charging: bool, manhandling: bool,
           human_wave: bool, assault_move_possible: bool) -> tuple[list[Part], list[str], Fraction, bool]:
    """The parts of :func:`mf_cost`, in the order the 2.51 example lists them: COT, wire, slope."""
    hexmap, u, chart, feats = st.hexmap, st.unit, st.chart, st.feats
    a_bypass, b_bypass = st.bypass_side(st.a_loc, st.a), st.bypass_side(st.b_loc, st.b)
    on_street = _street(hexmap, st.side) is not None or a_bypass is not None or b_bypass is not None
    if dash and on_street:
        raise _Refused("no Dash along or across a narrow street", "5.11")
    if charging and u.kind != "cavalry":
        raise InvalidInput(f"only cavalry charges; a {u.kind} cannot (2.53)")
    if CREST_SLOPE in feats and charging:
        raise _Refused(f"a cavalry charge cannot cross the crest-line slope {st.side_label}", "2.53")
    if BARBED_WIRE in feats:
        banned = _wire_ban(u)
        if banned:
            raise _Refused(f"{banned} cannot cross the barbed wire on {st.side_label}", "3.2", ti=u.straying)

    notes: list[str] = []
    # the cost of terrain (COT) of the Location entered
    stream_hex = STREAM in hexmap.features(st.b)
    if st.b_loc.crest and not stream_hex:
        raise InvalidInput(f"{st.lb} is no stream hex: crest status (B20.9) is for stream hexes")
    if b_bypass is not None:
        e = chart.entry("narrow_street.bypass_mf")
        cot = [Part(e.value, f"bypass along the narrow street {hexmap.grid.side_label(b_bypass)}", e.rule, e.stand_in)]
        notes.append("the road-movement bonus is kept (5.11)")
    elif stream_hex:
        cot = _stream_cot(st, stream_depth, assault_move_possible, notes)
    else:
        cot = _terrain_cot(st, on_street, notes)
    # moving to a higher elevation (crossing a crest line) doubles the COT (2.51 example; ASL B10.4)
    if hexmap.elevation(st.b) > hexmap.elevation(st.a):
        e = chart.entry("elevation.higher_cot_multiplier")
        cot = [Part(p.value * e.value, f"{p.reason} x{mf_text(e.value)} (moving to a higher elevation)",
                    f"{p.rule}; {e.rule}", p.stand_in) for p in cot]
    parts = list(cot)

    # hexside features the ASL rules price (walls, hedges ...): the map's data
    drawn = hexmap.drawn_in(st.side)
    for f in sorted(feats - _KGP_SIDES):
        ht = hexmap.types["hexside"][f]
        c = ht.cost(u.cot_class, crossing_kind(ht, drawn, st.a, st.b, along_line=False))
        if c is None:
            raise _Refused(f"{ht.label} on {st.side_label} cannot be crossed", ASL_COT_RULE)
        if c:
            parts.append(Part(_frac(c), ht.label.lower(), ASL_COT_RULE, True))

    hazardous = False
    if BARBED_WIRE in feats:
        wire, hazardous = _wire(st, night=night, armored_assault=armored_assault, in_trench=in_trench,
                                breached=breached, manhandling=manhandling, human_wave=human_wave, notes=notes)
        parts.extend(wire)

    # slopes (2.51)
    bonus = Fraction(0)
    slope_drawn = _slope_drawn_in(hexmap, st.side)
    if slope_drawn == st.a:
        e = chart.entry("slope.climb_mf")
        parts.append(Part(e.value, "climbing a slope", e.rule, e.stand_in))
        if ROAD in hexmap.lines_between(st.a, st.b):
            notes.append("crossing a slope along a road does not affect the B3.4 road bonus (2.51)")
    elif slope_drawn == st.b:
        notes.append("going down a slope costs nothing extra (2.51)")
        if u.skis:
            bonus += chart.value("slope.ski_bonus_mf")

    # a narrow-street Roadblock (5.141)
    if crosses_roadblock:
        e = chart.entry("narrow_street.roadblock_mf")
        parts.append(Part(e.value, "crossing a narrow-street Roadblock", e.rule, e.stand_in))
    return parts, notes, bonus, hazardous


# --------------------------------------------------------------------------
# vehicles and barbed wire


def wire_drms(unit: UnitLike, chart: TerrainChart | None = None) -> BogDrms:
    """The DRMs of the extra Bog DR a vehicle makes to cross barbed wire (3.3; signs lost: see the chart)."""
    chart = chart or TerrainChart.load()
    u = _unit(unit)
    if not u.vehicle:
        raise InvalidInput(f"barbed-wire Bog DRs are for vehicles, not a {u.kind} (3.3)")
    found: list[Part] = []
    if not u.fully_tracked:
        e = chart.entry("barbed_wire.bog_drm.not_fully_tracked")
        found.append(Part(e.value, "not fully tracked", e.rule, e.stand_in))
    if u.truck_mp:
        e = chart.entry("barbed_wire.bog_drm.truck_type_mp")
        found.append(Part(e.value, "expends truck-type MP", e.rule, e.stand_in))
    if chart.bog_combine == "max" and len(found) > 1:
        best = max(found, key=lambda p: p.value)
        found = [best]
        note = " (the larger only)"
    else:
        note = ""
    total = int(sum((p.value for p in found), Fraction(0)))
    stand_in = chart.entry("barbed_wire.bog_drm.not_fully_tracked").stand_in
    body = " ".join(p.text(sign=True) for p in found) if found else "no DRM (fully tracked, not truck-type MP)"
    why = f"barbed-wire Bog DRM {total:+d}: {body}{note}; the signs are lost in the seed (3.3)"
    return BogDrms(total, tuple(found), stand_in, "3.3", why)


def vehicle_entry(
    hexmap,
    unit: UnitLike,
    start: LocationLike,
    end: LocationLike,
    *,
    breaches: Iterable[str | HexSide] = (),
    chart: TerrainChart | None = None,
) -> VehicleEntry:
    """What KGP adds when a vehicle enters ``end`` from the adjacent ``start``: +1 MP to
    climb a slope (2.52), no crossing of crest-line slopes (2.53), barbed wire (3.3)."""
    chart = chart or TerrainChart.load()
    u = _unit(unit)
    if not u.vehicle:
        raise InvalidInput(f"vehicle_entry is for vehicles; a {u.kind} expends MF: use mf_cost")
    a_loc, b_loc = _loc(start), _loc(end)
    a, b = hexmap.parse(a_loc.hex), hexmap.parse(b_loc.hex)
    la, lb = _label(hexmap, a), _label(hexmap, b)
    if distance(a, b) != 1:
        raise InvalidInput(f"{la} and {lb} are not adjacent: vehicle_entry prices one step")
    side = HexSide(a, b)
    sl = hexmap.grid.side_label(side)
    feats = set(hexmap.side_features(side))

    def refuse(reason: str, rule: str) -> VehicleEntry:
        return VehicleEntry(u.kind, la, lb, False, None, rule=rule, why=f"{la} -> {lb}: {reason} ({rule})")

    if CREST_SLOPE in feats:
        return refuse(f"vehicles cannot cross the crest-line slope {sl}", "2.53")
    if BARBED_WIRE in feats and u.kind == "motorcycle":
        return refuse(f"motorcycles (SdKfz 2 included) cannot cross the barbed wire on {sl}", "3.3")
    parts: list[Part] = []
    notes: list[str] = []
    bog = None
    if _slope_drawn_in(hexmap, side) == a:
        e = chart.entry("slope.climb_mp")
        parts.append(Part(e.value, "MP climbing a slope", e.rule, e.stand_in))
    if BARBED_WIRE in feats:
        bog = wire_drms(u, chart)
        notes.append("barbed wire costs no MP (3.3)")
        notes.append(f"an extra Bog DR ({bog.total:+d}) to enter {lb}; bogging leaves the vehicle in {lb}, and with "
                     f"another Bog there it is Mired (3.3)")
        if side in {_side(hexmap, s) for s in breaches}:
            notes.append("a Temporary Breach gives vehicles nothing (3.21)")
    total = sum((p.value for p in parts), Fraction(0))
    why = f"{la} -> {lb}: +{mf_text(total)} MP"
    if parts:
        why += " = " + " + ".join(p.text() for p in parts)
    why += " on top of the ASL COT in MP (not in the seed)"
    if notes:
        why += "; " + "; ".join(notes)
    return VehicleEntry(u.kind, la, lb, True, total, tuple(parts), bog is not None, bog, tuple(notes), None, why)


def temporary_breach(
    unit: UnitLike,
    *,
    in_entrenchment: bool = False,
    in_pillbox: bool = False,
    in_wire_location: bool = False,
    gully_bottom: bool = False,
    chart: TerrainChart | None = None,
) -> BreachAttempt:
    """Creating a Temporary Breach in one barbed-wire hexside during the MMC's MPh (3.21)."""
    chart = chart or TerrainChart.load()
    u = _unit(unit)
    problems = []
    if u.kind not in MMC:
        problems.append(f"only an Infantry MMC may create a breach, not a {u.kind}")
    if u.status != "good_order":
        problems.append("the MMC must be Good Order and unpinned" if u.status == "pinned"
                        else f"the MMC must be Good Order, not {u.status}")
    if u.straying:
        problems.append("the MMC must be non-Straying")
    if in_entrenchment:
        problems.append("not from an entrenchment")
    if in_pillbox:
        problems.append("not from a pillbox")
    if in_wire_location:
        problems.append("not from a Wire Location")
    if gully_bottom:
        problems.append("at the ground level where the wire lies, not at a gully bottom")
    if problems:
        return BreachAttempt(False, None, False, False, "3.21", "no Temporary Breach: " + "; ".join(problems) + " (3.21)")
    e = chart.entry("barbed_wire.breach_create_mf")
    why = (f"Temporary Breach: {mf_text(e.value)} more MF ({e.rule}); the MMC faces the hexside and is marked TI; "
           f"a Concealment-loss activity (A12.141); it lasts while the MMC stays TI, Good Order and unpinned (3.21)")
    return BreachAttempt(True, e.value, True, True, "3.21", why)


# --------------------------------------------------------------------------
# LOS height (2.3) and Slope TEM (2.41)


def los_height(hexmap, location: LocationLike, toward: LocationLike | Hex, chart: TerrainChart | None = None) -> LosHeight:
    """The height of ``location`` for a LOS to or from ``toward``: base level + building
    level, + 3/4 when the LOS crosses the hexside that makes it Up-Slope (2.3)."""
    chart = chart or TerrainChart.load()
    loc = _loc(location)
    h = hexmap.parse(loc.hex)
    o = _hex(hexmap, toward)
    lh, lo = _label(hexmap, h), _label(hexmap, o)
    parts = [Part(_frac(hexmap.elevation(h)), "base level", "2.3")]
    if loc.level:
        parts.append(Part(_frac(loc.level), "building level", "ASL B23"))
    up = is_up_slope(hexmap, h, o)
    if up:
        e = chart.entry("slope.up_slope_levels")
        parts.append(Part(e.value, "Up-Slope for this LOS", e.rule, e.stand_in))
    total = sum((p.value for p in parts), Fraction(0))
    why = f"{lh} toward {lo}: level {mf_text(total)} = " + " + ".join(p.text() for p in parts)
    why += ("; the Up-Slope bonus gives no height advantage and no HD (2.3)" if up
            else "; not Up-Slope for this LOS (2.2)")
    return LosHeight(total, up, tuple(parts), _rules(parts, (), "2.3"), why)


def sight_adjustments(hexmap, chart: TerrainChart | None = None) -> list[Adjustment]:
    """The KGP adjustments for :func:`hxref.geometry.los.line_of_sight` on ``hexmap``: the +3/4 Up-Slope level (2.3)."""
    chart = chart or TerrainChart.load()
    return [upslope_bonus(lambda s: _slope_drawn_in(hexmap, s), float(chart.value("slope.up_slope_levels")))]


def _hex_qualifies(hexmap, h: Hex) -> Check:
    down = [(d, s) for d, s in _sides_of(hexmap, h) if _slope_drawn_in(hexmap, s) == h]
    n = len(down)
    lab = _label(hexmap, h)
    if n >= 3:
        return Check(True, f"{lab} has {n} Down-Slope hexsides", "2.41")
    if n == 2:
        d1, d2 = down[0][0], down[1][0]
        connected = (int(d1) - int(d2)) % 6 in (1, 5)
        if connected:
            return Check(False, f"{lab} has only 2 Down-Slope hexsides and they are connected", "2.41")
        return Check(True, f"{lab} has 2 non-connected Down-Slope hexsides", "2.41")
    return Check(False, f"{lab} has {n} Down-Slope hexside{'s' if n != 1 else ''}: it needs 3, or 2 non-connected", "2.41")


def slope_tem(
    hexmap,
    target: LocationLike,
    firers: LocationLike | Sequence[LocationLike],
    *,
    flamethrower: bool = False,
    target_unit: UnitLike = "squad",
    other_tem: int = 0,
    mud_or_deep_snow_tem: int = 0,
    chart: TerrainChart | None = None,
) -> SlopeTem:
    """May the target claim the +1 Slope TEM against direct fire from ``firers`` (2.41)?

    ``firers``: one Location or a Fire Group (A.5: the TEM applies when any
    firer's fire qualifies).  ``other_tem``: the target's best other positive
    TEM (not cumulative with the slope's); ``mud_or_deep_snow_tem`` is.
    """
    chart = chart or TerrainChart.load()
    tloc = _loc(target)
    th = hexmap.parse(tloc.hex)
    lt = _label(hexmap, th)
    u = _unit(target_unit)
    group = [firers] if isinstance(firers, (str, Location)) else list(firers)
    if not group:
        raise InvalidInput("slope_tem needs at least one firer")
    checks = [
        Check(u.infantry, "the target is Infantry" if u.infantry else f"the target is a {u.kind}, not Infantry", "2.41"),
        Check(tloc.level == 0 and tloc.bypass is None, "the target is at ground level" if tloc.level == 0
              else f"the target is at level {tloc.level}, not ground level", "2.41"),
        _hex_qualifies(hexmap, th),
        Check(not flamethrower, "the fire is not a FT" if not flamethrower else "FT fire gets no Slope TEM", "2.41"),
    ]
    base_ok = all(c.ok for c in checks)
    down = {s for _, s in _sides_of(hexmap, th) if _slope_drawn_in(hexmap, s) == th}
    t_level = _frac(hexmap.elevation(th)) + tloc.level
    any_firer = False
    for f in group:
        floc = _loc(f)
        fh = hexmap.parse(floc.hex)
        lf = _label(hexmap, fh)
        rng = distance(fh, th)
        where = "not adjacent" if rng > 1 else ("adjacent" if rng == 1 else "in the same hex")
        f_checks = [Check(rng > 1, f"{lf} is {where}", "2.41")]
        f_level = _frac(hexmap.elevation(fh)) + floc.level
        if f_level > t_level:
            diff = f_level - t_level
            f_checks.append(Check(diff < rng, f"{lf} is {mf_text(diff)} level{'s' if diff != 1 else ''} higher at range "
                                              f"{rng}: the difference must be less than the range", "2.41"))
        crossed = [s for s in _touched(hexmap, fh, th, th) if s in down] if rng > 0 else []
        f_checks.append(Check(bool(crossed), f"the LOS from {lf} crosses the Down-Slope hexside "
                                             f"{hexmap.grid.side_label(crossed[0])}" if crossed
                              else f"the LOS from {lf} crosses no Down-Slope hexside of {lt}", "2.41"))
        checks.extend(f_checks)
        if all(c.ok for c in f_checks):
            any_firer = True
    if len(group) > 1:
        checks.append(Check(any_firer, "a Fire Group: the TEM applies if any firer's fire qualifies (A.5)", "2.41; A.5"))
    eligible = base_ok and any_firer
    e = chart.entry("slope.tem")
    tem = int(e.value) if eligible else 0
    combined = max(other_tem, tem) + mud_or_deep_snow_tem
    failed = [c.text for c in checks if not c.ok]
    if eligible:
        why = f"{lt}: +{tem} Slope TEM ({e.rule})"
        if other_tem >= tem:
            why += f"; not cumulative with the other +{other_tem} TEM: +{max(other_tem, tem)}"
        if mud_or_deep_snow_tem:
            why += f"; plus the Mud/Deep Snow TEM +{mud_or_deep_snow_tem}"
    else:
        why = f"{lt}: no Slope TEM: " + "; ".join(failed) + f" ({e.rule})"
    return SlopeTem(eligible, tem, combined, tuple(checks), e.rule, why)


# --------------------------------------------------------------------------
# narrow streets (5.11, 5.13, 5.143)


def _order(hexmap, hexes: Iterable[Hex]) -> list[Hex]:
    return sorted(hexes, key=hexmap.grid.labels.to_offset)


def street_hexes(hexmap, hexside: str | HexSide) -> StreetHexes:
    """The hexes of a narrow-street hexside whose Smoke (5.11), Smoke or Residual FP (5.13) and
    mines (5.143) affect units bypassing along it: both, or only the lower when it is a crest line.
    A unit bypassing along a crest-line street is in the lower hex (5.11)."""
    s = _side(hexmap, hexside)
    sl = hexmap.grid.side_label(s)
    paved = _street(hexmap, s)
    if paved is None:
        raise InvalidInput(f"{sl} is not a narrow street (5.1)")
    x, y = _order(hexmap, s.hexes)
    ex, ey = hexmap.elevation(x), hexmap.elevation(y)
    if ex != ey:
        low = x if ex < ey else y
        return StreetHexes(sl, (_label(hexmap, low),), True, paved, "5.11; 5.13; 5.143",
                           f"{sl} is also a crest-line hexside: only the lower hex {_label(hexmap, low)} counts "
                           f"(5.11, 5.13, 5.143)")
    return StreetHexes(sl, (_label(hexmap, x), _label(hexmap, y)), False, paved, "5.11; 5.13; 5.143",
                       f"{sl}: both hexes count (5.11, 5.13, 5.143)")


def bypass_minefields(hexmap, hexside: str | HexSide,
                      mines: Mapping[str, Collection[tuple[str, int]]]) -> MinefieldAttacks:
    """The minefields that attack a unit bypassing along a narrow street (5.143).

    ``mines``: hex label -> [(type, FP)], type ``A-P`` or ``A-T``.  Mines in
    either hex attack (both types if there are both); of one type, only the
    higher FP; on a crest line only the lower hex's mines.
    """
    sh = street_hexes(hexmap, hexside)
    want = {hexmap.label(hexmap.parse(h)) for h in sh.hexes}
    best: dict[str, tuple[str, str, int]] = {}
    for raw, fields in mines.items():
        lab = hexmap.label(hexmap.parse(raw))
        if lab not in want:
            continue
        for kind, fp in fields:
            if kind not in ("A-P", "A-T"):
                raise InvalidInput(f"minefield type {kind!r} in {lab}: use A-P or A-T")
            if kind not in best or int(fp) > best[kind][2]:
                best[kind] = (lab, kind, int(fp))
    order = {lab: i for i, lab in enumerate(sh.hexes)}
    attacks = tuple(sorted(best.values(), key=lambda t: (order[t[0]], t[1])))
    if attacks:
        body = ", ".join(f"{fp} FP {kind} in {lab}" for lab, kind, fp in attacks)
        why = f"bypass along {sh.hexside}: attacked by {body} (5.143)"
    else:
        why = f"bypass along {sh.hexside}: no minefield attacks (5.143)"
    if sh.crest:
        why += "; a crest line: only the lower hex's mines"
    return MinefieldAttacks(sh.hexside, attacks, "5.143", why)


def mines_must_be_revealed(hexmap, hex: LocationLike) -> MineReveal:
    """Must mines in ``hex`` be set up revealed (type and FP shown)?  Yes when the hex has a paved
    narrow-street hexside, unless all its narrow-street hexsides are crest lines down to a lower level (5.143)."""
    h = _hex(hexmap, hex)
    lab = _label(hexmap, h)
    streets = [(s, _street(hexmap, s)) for _, s in _sides_of(hexmap, h) if _street(hexmap, s) is not None]
    paved = [s for s, p in streets if p]
    if not paved:
        why = (f"{lab} has no paved narrow-street hexside: its mines may be set up hidden (HIP) (5.143)" if streets
               else f"{lab} has no narrow-street hexside (5.143)")
        return MineReveal(lab, False, "5.143", why)
    if all(hexmap.elevation(s.other(h)) < hexmap.elevation(h) for s, _ in streets):
        return MineReveal(lab, False, "5.143", f"{lab}: every narrow-street hexside is a crest line down to a lower "
                                               f"level: the mines need not be revealed (5.143)")
    return MineReveal(lab, True, "5.143", f"{lab} has the paved narrow street {hexmap.grid.side_label(paved[0])}: its "
                                          f"mines are set up revealed and cannot be cleared per B28.53 (5.143)")
