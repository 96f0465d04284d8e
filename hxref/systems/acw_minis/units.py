"""ACW miniatures: the unit and the table it stands on (A1, A3 terrain, A5, B2, B6, B7, C5, C14).

Rules: the digest ``rules/acw-miniatures.md`` (sections A1-A5 restate the seed; B fills
its silences; C settles its ambiguities, each as the digest recommends), and the seed
text where the digest is unclear.  Rule references in every :class:`Problem` are the
digest's (``"A3 Terrain: Woods; C5"``).  The rules follow the sequence of play (A2):
this module (the numbers of the rules, :class:`Unit`, the terrain), then
:mod:`.movement` (A3), :mod:`.shooting` (A4) and :mod:`.sequence` (A2, A5, B1).

Pure functions, no dice import: die faces are passed in.  Geometry is
:mod:`hxref.geometry.table` (shapely): a unit's base is a rotated rectangle, a straight
advance sweeps the convex hull of its start and end bases.  ``table`` is a
:class:`~hxref.geometry.table.Table` or a :class:`~hxref.geometry.mapmodel.TableMap`
from :func:`hxref.geometry.mapfile.load_map` (whose ``areas`` terrain types' ``rules`` may rename
what counts as woods, town or impassable; :func:`terrain_rules`).  ``units`` maps unit
id -> :class:`Unit`.

Conventions (digest section 0): inches and degrees; x east, y north; a facing of 0 looks
north (+y) and grows clockwise; a unit's position is the centre of its base.  Pivots in
orders are *relative* and clockwise (negative: anticlockwise).

Here: :class:`Unit`, :func:`unit_problems`, :func:`unit_shape`, :func:`check_setup` (A1,
C14, B2, B6); :func:`eliminated`, :func:`apply_hits` (A5); :func:`terrain_rules`,
:func:`in_cover`, :func:`fires_all_round`, :func:`area_share` (A3 terrain, A4, C5);
:func:`open_water` (C13); :class:`Options`, the digest's flagged alternatives and the
scenario options, all off by default.

Readings (games/acw_minis/readings.md; digest F and the C entries named)
---------------------------------------------------------------------------------
* C5 prohibitions use any overlap of the whole base (touching is not overlap): Cavalry and
  Artillery never overlap woods, during the move or at its end (a base swinging into woods
  during a pivot is entering them); they may pass through a town but no part of the base
  may be in one at the end of the move; no unit ever overlaps marsh or a lake.  Benefits
  go by the base's area: a unit is "in" woods or a town, for cover and for the town's
  360-degree field of fire, when at least half its base (:data:`IN_AREA_SHARE`) lies in
  such areas (:func:`area_share`).
* C13 rivers: the centre point's path crosses a river only inside a bridge or ford, and no
  part of a base may be over a river's open water except at a crossing: within the base's
  reach (half its diagonal) of a bridge or ford (:func:`open_water`), where the figures
  of a line wider than the bridge file across it.
* C14 frontage is fixed (4-6", Artillery 2-3"); depth comes from the unit record, 1" by
  default.  Default frontages when a record gives none (stand-ins): 6" (Artillery 2").
* B6 no part of a base may leave the table, during a move or at its end.
* B7 any other terrain on the map has no effect.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any, Mapping, cast

from shapely import ops
from shapely.geometry.base import BaseGeometry

from hxref.geometry.table import XY, Area, Base, Table, Watercourse, overlap
from hxref.systems.base import Problem

from .state_types import UnitRecord

# --------------------------------------------------------------------------
# the numbers of the rules

INFANTRY, ZOUAVES, CAVALRY, ARTILLERY = "infantry", "zouaves", "cavalry", "artillery"
#: A1: the four unit types.
UNIT_TYPES = (INFANTRY, ZOUAVES, CAVALRY, ARTILLERY)
#: A1: frontage in inches, (least, most); Artillery is "deployed over a width of 2-3 inches".
FRONTAGE = {INFANTRY: (4, 6), ZOUAVES: (4, 6), CAVALRY: (4, 6), ARTILLERY: (2, 3)}
#: Stand-in frontage when a unit record gives none (the rules let the players choose, A1).
DEFAULT_FRONTAGE = {INFANTRY: 6.0, ZOUAVES: 6.0, CAVALRY: 6.0, ARTILLERY: 2.0}
#: C14: base depth, not given by the rules; the scenario may set it per unit.
DEFAULT_DEPTH = 1.0
#: A3 Movement allowances, inches.
MOVE_ALLOWANCE = {INFANTRY: 6, ARTILLERY: 6, ZOUAVES: 9, CAVALRY: 12}
#: A3 Roads: +3" if the entire move is on the road (C11).
ROAD_BONUS = 3
#: A4 Range, inches.
RANGE = {INFANTRY: 12, ZOUAVES: 12, CAVALRY: 12, ARTILLERY: 48}
#: A4 Casualties: modifier to the die.
MODIFIER = {INFANTRY: 0, ZOUAVES: 2, CAVALRY: -2, ARTILLERY: -2}
#: A4 Field of fire: degrees either side of the front facing (C6).
FIRE_ARC = 45
#: A5: eliminated upon 15 hits.
ELIMINATION_HITS = 15
#: C1: one six-sided die.
DIE_FACES = (1, 2, 3, 4, 5, 6)
#: C7: tolerance of every measured comparison (range, allowance), inches.
TOLERANCE = 0.001
#: C5 (the reading of "units in woods or towns"): the least share of a base's area inside
#: woods or towns for the unit to be in them (cover, the town's 360-degree fire).
IN_AREA_SHARE = 0.5
#: A2: the steps of a player turn, in order.
STEPS = ("movement", "shooting", "eliminating units")
#: A2: two player turns make a turn.
PLAYER_TURNS_PER_TURN = 2

# rule references (digest sections)
R_UNITS = "A1 Unit types"
R_DEPTH = "A1 Unit types; C14"
R_SEQUENCE = "A2 Sequence of play; C17"
R_ONE_MOVE = "A2 Sequence of play (one Movement step)"
R_ALLOWANCE = "A3 Movement allowances; C11"
R_TURNING = "A3 Turning; C8"
R_ORDER = "A3 Turning; C8, C9"
R_ROAD_FOLLOW = "A3 Turning; C8 (scenario option: road moves); C11"
R_WOODS = "A3 Terrain: Woods; C5"
R_TOWN = "A3 Terrain: Towns; C5"
R_IMPASSABLE = "A3 Terrain: Marshland and Lakes; C5"
R_RIVER = "A3 Terrain: Rivers; C13"
R_INTERPENETRATION = "A3 Interpenetration; C12"
R_EDGE = "B6 Table edges"
R_MOVE_SHOOT = "A3 Moving and Shooting; C10"
R_ARC = "A4 Field of fire; C6"
R_RANGE = "A4 Range; C7"
R_TARGET = "A4 Field of fire (a single target); C15"
R_CASUALTIES = "A4 Casualties"
R_DIE = "A4 Casualties; C1"
R_ELIMINATION = "A5 Eliminating units; C16"
R_FIRST = "B1 First player"
R_LOS = "B4 Line of sight"

#: The rules' terrain (A3, C5), as ``games/acw_minis/terrain.yaml`` gives it.  B7: any
#: other terrain has no effect.
DEFAULT_TERRAIN_RULES: dict[str, dict[str, Any]] = {
    "woods": {"may_enter": [INFANTRY, ZOUAVES], "cover": True},
    "town": {"may_end_in": [INFANTRY, ZOUAVES], "cover": True, "all_round_fire": True},
    "marsh": {"impassable": True},
    "lake": {"impassable": True},
}


@dataclass(frozen=True)
class Options:
    """The digest's flagged alternatives and scenario options; the defaults are its recommendations."""

    fire_apex: str = "edge"          # C6: "edge" (from the front corners, the default) or "centre" (a +/-45
                                     # degree wedge from the centre of the front edge; scenario option
                                     # ``fire_arc_centre``)
    road_following: bool = False     # C8 scenario option: a multi-segment path wholly on a road
    line_of_sight: bool = False      # B4 house rule: woods, towns and units block shots


DEFAULT_OPTIONS = Options()


# --------------------------------------------------------------------------
# units


@dataclass(frozen=True)
class Unit:
    """One unit on the table (A1, C14): its type, base, place, facing and hits."""

    id: str
    type: str
    x: float
    y: float
    facing: float = 0.0
    frontage: float | None = None
    depth: float = DEFAULT_DEPTH
    side: str = ""
    hits: int = 0
    figures: int | None = None       # A1: the players' choice; no rules effect
    moved: bool = False              # moved (pivot or advance) in this player turn (C10)
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "facing", float(self.facing) % 360.0)
        if self.frontage is None:
            object.__setattr__(self, "frontage", DEFAULT_FRONTAGE.get(self.type, 6.0))

    @property
    def width(self) -> float:
        """The frontage in inches: the record's, else the type's default (``__post_init__`` sets it; A1, C14)."""
        return DEFAULT_FRONTAGE.get(self.type, 6.0) if self.frontage is None else self.frontage

    @cached_property
    def base(self) -> Base:
        """The base as a :class:`~hxref.geometry.table.Base` (a unit never changes: a move makes a new one)."""
        return Base(float(self.x), float(self.y), self.facing, float(self.width), float(self.depth))

    @property
    def centre(self) -> XY:
        return (float(self.x), float(self.y))

    def label(self) -> str:
        return f"{self.name or self.id} ({(self.side + ' ') if self.side else ''}{self.type})"

    def to_dict(self) -> UnitRecord:
        """The unit as the state keeps it: its fields in order (the game file's order), no ``figures`` nor
        ``name`` when it has none; ``frontage`` is always set (``__post_init__``)."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        for k in ("figures", "name"):
            if d[k] in (None, ""):
                del d[k]
        return cast(UnitRecord, d)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], uid: str | None = None) -> "Unit":
        known = {f.name for f in fields(cls)}
        extra = set(d) - known
        if extra:
            raise ValueError(f"unknown unit keys {sorted(extra)}; the keys are {sorted(known)}")
        data = dict(d)
        if uid is not None:
            data["id"] = uid
        return cls(**data)


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def unit_problems(unit: Unit) -> list[Problem]:
    """A1, C14: a legal unit record (type, frontage, depth, figures, hits)."""
    probs: list[Problem] = []
    if unit.type not in UNIT_TYPES:
        probs.append(Problem(f"{unit.id}: unknown unit type {unit.type!r}; the types are {', '.join(UNIT_TYPES)}",
                             R_UNITS, [unit.id, "type"]))
    for k in ("x", "y", "facing", "frontage", "depth"):
        if not _num(getattr(unit, k)):
            probs.append(Problem(f"{unit.id}: {k} must be a number, not {getattr(unit, k)!r}", R_UNITS, [unit.id, k]))
    if probs:
        return probs
    lo, hi = FRONTAGE[unit.type]
    if not lo - TOLERANCE <= unit.width <= hi + TOLERANCE:
        what = "Artillery is deployed over a width" if unit.type == ARTILLERY else f"{unit.type.capitalize()} occupy a frontage"
        probs.append(Problem(f'{unit.id}: frontage {unit.frontage:g}" -- {what} of {lo}-{hi}"', R_UNITS, [unit.id, "frontage"]))
    if unit.depth <= 0:
        probs.append(Problem(f'{unit.id}: a base needs a depth of more than 0" (default {DEFAULT_DEPTH:g}")', R_DEPTH, [unit.id, "depth"]))
    if unit.figures is not None and (not isinstance(unit.figures, int) or isinstance(unit.figures, bool) or unit.figures < 1):
        probs.append(Problem(f"{unit.id}: figures is a count of 1 or more, not {unit.figures!r}", R_UNITS, [unit.id, "figures"]))
    if not isinstance(unit.hits, int) or isinstance(unit.hits, bool) or unit.hits < 0:
        probs.append(Problem(f"{unit.id}: hits is a count of 0 or more, not {unit.hits!r}", R_ELIMINATION, [unit.id, "hits"]))
    return probs


def unit_shape(unit: Unit):
    """The unit's base: a shapely rectangle, frontage x depth, centred on its position and turned to its facing."""
    return unit.base.polygon


def _turn(frm: float, to: float) -> float:
    """The shorter signed pivot (clockwise positive) from facing ``frm`` to facing ``to``, in (-180, 180]."""
    d = (to - frm) % 360.0
    return d - 360.0 if d > 180.0 else d


def eliminated(unit: Unit) -> bool:
    """A5: a unit is eliminated upon 15 hits (15 or more)."""
    return unit.hits >= ELIMINATION_HITS


def apply_hits(unit: Unit, n: int) -> Unit:
    """The unit with ``n`` more hits; hits are never removed (A5)."""
    if n < 0:
        raise ValueError("hits are never removed (A5)")
    return replace(unit, hits=unit.hits + n)


# --------------------------------------------------------------------------
# the table and its terrain


def _table(table: Any) -> Table:
    inner = getattr(table, "table", None)
    return inner if isinstance(inner, Table) else table


def terrain_rules(table: Any) -> dict[str, dict[str, Any]]:
    """Area terrain name -> rules: :data:`DEFAULT_TERRAIN_RULES`, overridden by a map's declared ``rules``."""
    out = {k: dict(v) for k, v in DEFAULT_TERRAIN_RULES.items()}
    types = getattr(table, "types", None)
    if isinstance(types, Mapping):
        for name, tt in (types.get("areas") or {}).items():
            rules = getattr(tt, "rules", None)
            if rules:
                out[name] = dict(rules)
    return out


def _area_name(a: Area) -> str:
    return f"{a.name} ({a.terrain})" if a.name else a.terrain


def _river_name(r: Watercourse) -> str:
    return r.name or r.terrain


def _flag_areas(table: Any, flag: str) -> list[Area]:
    rules = terrain_rules(table)
    return [a for a in _table(table).areas if rules.get(a.terrain, {}).get(flag)]


def area_share(areas: list[Area], unit: Unit) -> float:
    """The share (0..1) of the unit's base area that lies inside the union of ``areas`` (C5)."""
    poly = unit.base.polygon
    if not areas or poly.area <= 0:
        return 0.0
    inside = ops.unary_union([a.polygon for a in areas]).intersection(poly).area
    return min(1.0, inside / poly.area)


def partly_in(table: Any, unit: Unit, flag: str) -> tuple[list[Area], float]:
    """C5: the ``flag`` areas (``cover``, ``all_round_fire``) the unit's base overlaps, largest overlap
    first, and the share of the base they hold together."""
    poly = unit.base.polygon
    under = sorted((a for a in _flag_areas(table, flag) if a.overlaps(poly)),
                   key=lambda a: -a.polygon.intersection(poly).area)
    return under, area_share(under, unit)


def _in_areas(table: Any, unit: Unit, flag: str) -> list[Area]:
    """C5: the ``flag`` areas the unit is in: those its base overlaps, when together they hold at least
    :data:`IN_AREA_SHARE` of the base; else none."""
    under, share = partly_in(table, unit, flag)
    return under if share >= IN_AREA_SHARE - 1e-9 else []


def in_cover(table: Any, unit: Unit) -> list[Area]:
    """A4 Cover, C5: the cover areas (woods, towns) the unit is in: at least half its base inside them."""
    return _in_areas(table, unit, "cover")


def fires_all_round(table: Any, unit: Unit) -> list[Area]:
    """A4 Units in towns, C5: the towns the unit is in (at least half its base inside): 360-degree fire."""
    return _in_areas(table, unit, "all_round_fire")


def reach(unit: Unit) -> float:
    """How far any part of the base lies from its centre at most: half its diagonal (C13)."""
    return math.hypot(unit.width / 2.0, float(unit.depth) / 2.0)


def open_water(table: Any, unit: Unit) -> list[tuple[BaseGeometry, str, str]]:
    """C13: the water of each river no part of the unit's base may be over: the river away from its bridges
    and fords, beyond the base's :func:`reach` of them; (shape, rule, why)."""
    out: list[tuple[BaseGeometry, str, str]] = []
    r_ = reach(unit)
    for r in _table(table).rivers:
        shape = r.open_water_beyond(r_)
        if not shape.is_empty:
            out.append((shape, R_RIVER, f"no part of a base may be in {_river_name(r)} away from a bridge or ford "
                                        "(rivers may only be crossed via bridges or fords)"))
    return out


def _barred(table: Any, kind: str) -> list[tuple[Area, str, str]]:
    """Areas a unit of ``kind`` may never overlap: (area, rule, why)."""
    rules = terrain_rules(table)
    out = []
    for a in _table(table).areas:
        r = rules.get(a.terrain, {})
        if r.get("impassable"):
            out.append((a, R_IMPASSABLE, f"{_area_name(a)} is impassable to all units"))
        elif "may_enter" in r and kind not in r["may_enter"]:
            who = " and ".join(t.capitalize() for t in r["may_enter"]) or "no unit"
            out.append((a, R_WOODS, f"{kind.capitalize()} may not enter {_area_name(a)}: only {who} may"))
    return out


def _no_end(table: Any, kind: str) -> list[tuple[Area, str, str]]:
    """Areas a unit of ``kind`` may pass through but not end its move in (towns)."""
    rules = terrain_rules(table)
    out = []
    for a in _table(table).areas:
        r = rules.get(a.terrain, {})
        if "may_end_in" in r and kind not in r["may_end_in"]:
            who = " and ".join(t.capitalize() for t in r["may_end_in"]) or "no unit"
            out.append((a, R_TOWN, f"{kind.capitalize()} may not end its move in {_area_name(a)}: only {who} may"))
    return out


def _others(units: Mapping[str, Unit], uid: str) -> list[Unit]:
    return [u for k, u in units.items() if k != uid and not eliminated(u)]


def check_setup(table: Any, units: Mapping[str, Unit]) -> list[Problem]:
    """B2, B6, C5, C12, C13: every unit legal where it stands (a deployment is an end position)."""
    tbl = _table(table)
    probs: list[Problem] = []
    ids = list(units)
    for i, uid in enumerate(ids):
        u = units[uid]
        bad = unit_problems(u)
        probs.extend(bad)
        if bad:
            continue
        poly = u.base.polygon
        if not tbl.on_table(poly):
            probs.append(Problem(f"{u.label()} is not wholly on the table", R_EDGE, [uid]))
        for other in ids[i + 1:]:
            if overlap(poly, units[other].base.polygon):
                probs.append(Problem(f"{u.label()} overlaps {units[other].label()}", R_INTERPENETRATION, [uid]))
        for a, rule, why in _barred(table, u.type) + _no_end(table, u.type):
            if a.overlaps(poly):
                probs.append(Problem(f"{u.label()}: {why}", rule, [uid]))
        for r in tbl.rivers:
            if not r.crossing_ok([u.centre]):
                probs.append(Problem(f"{u.label()} has its centre in {_river_name(r)} away from a bridge or ford",
                                     R_RIVER, [uid]))
        for water, rule, why in open_water(table, u):
            if overlap(water, poly):
                probs.append(Problem(f"{u.label()}: {why}", rule, [uid]))
    return probs
