"""ACW miniatures rules on a measured table: units, movement, shooting, elimination.

Rules: the digest ``rules/acw-miniatures.md`` (sections A1-A5 restate the seed; B fills
its silences; C settles its ambiguities, each as the digest recommends), and the seed
text where the digest is unclear.  Rule references in every :class:`Problem` are the
digest's (``"A3 Terrain: Woods; C5"``).

Pure functions, no dice import: die faces are passed in.  Geometry is
:mod:`hxref.geometry.table` (shapely): a unit's base is a rotated rectangle, a straight
advance sweeps the convex hull of its start and end bases.  ``table`` is a
:class:`~hxref.geometry.table.Table` or a :class:`~hxref.geometry.mapmodel.TableMap`
from :func:`hxref.maps.load_map` (whose ``areas`` terrain types' ``rules`` may rename
what counts as woods, town or impassable; :func:`terrain_rules`).  ``units`` maps unit
id -> :class:`Unit`.

Conventions (digest section 0): inches and degrees; x east, y north; a facing of 0 looks
north (+y) and grows clockwise; a unit's position is the centre of its base.  Pivots in
orders are *relative* and clockwise (negative: anticlockwise).

Functions
---------
* :class:`Unit`, :func:`unit_problems`, :func:`unit_shape`, :func:`check_setup` (A1, C14, B2, B6);
* :func:`check_move` -> :class:`MoveCheck` (A3, C5, C8-C13, C18, B6, B7);
  :func:`movement_step` -> :class:`MovementStep` (every order of a player turn, in order);
* :func:`check_shot` -> :class:`ShotCheck` (A3 moving and shooting, A4, C5-C7, C17, B4);
  :func:`hits` -> :class:`HitRoll`, :func:`cover_hits` (A4, C1-C4);
  :func:`shooting_step` -> :class:`ShootingStep` (C15, C16);
* :func:`eliminated`, :func:`apply_hits`, :func:`eliminating_step` (A5, C16);
* :func:`player_turns`, :func:`start_player_turn`, :func:`first_player` (A2, B1, C10);
* :func:`line_of_sight` (B4: there is none; a house rule, off by default);
* :class:`Options`: the digest's flagged alternatives, all off by default.

Readings (the README's "rules interpretations"; digest F and the C entries named)
---------------------------------------------------------------------------------
* C1 the die is a d6; C2 hits = max(0, d6 + modifier); C3 floor before halving; C4 cover
  halves rounding up (ceil): 7 -> 4, 1 -> 1, 0 -> 0.
* C5 prohibitions use any overlap of the whole base (touching is not overlap): Cavalry and
  Artillery never overlap woods, during the move or at its end (a pivot into woods is
  entering them); they may pass through a town but no part of the base may be in one at
  the end of the move; no unit ever overlaps marsh or a lake.  Benefits use the centre
  point: cover (woods, town) and the 360-degree field of fire (town).
* C6 field of fire: the region in front of the front edge plus 45-degree flares from the
  two front corners; a target is eligible when any part of its base is in it; exactly 45
  degrees is in.  Alternative ``Options(fire_apex="centre")``: a +/-45-degree wedge from
  the centre of the front edge.
* C7 range: the shortest distance from the firer's front edge to the part of the target
  inside the field of fire; for a unit in a town, from any point of its base to any point
  of the target.  Inclusive, with a tolerance of :data:`TOLERANCE` (0.001"): 12.0 is in
  12", 12.1 is not.  Reports give 0.1".
* C8 a move is (pivot, one straight advance straight ahead, pivot).  The advance is 0 or
  more (no backward or sideways moves).  Orders: ``{pivot_start, advance, pivot_end}``
  (relative degrees, clockwise), or ``{to: [x, y], facing}`` (a destination and an
  optional final facing; pivots the shorter way), or ``{path: [[x, y], ...], facing}``.
  A path of more than one straight segment is refused (A3 Turning; C8) unless the
  scenario option ``Options(road_following=True)``: then a multi-segment path is allowed
  only when the centre stays on one road the whole way (free pivots at the bends).
* C9 pivots are free and of any angle (between -360 and 360 in an order).
* C10, C18 any pivot or advance is a move, and a unit that moved may not shoot; an empty
  order (or advance 0 with no pivot) is not a move.  A unit moves once per player turn
  (A2: one Movement step), so a unit already marked ``moved`` is refused.
* C11 the +3" road bonus needs the centre point inside one road's corridor (its width)
  for the entire advance, start and end included; otherwise the normal allowance applies
  to the whole move (no partial bonus).  The map's polygons decide woods on a road.
* C12 the base swept by the straight advance may not overlap any other base, friend or
  foe; pivots are checked at their end position only (``Options(pivot_sweep=True)`` also
  checks the arc a pivot sweeps, turning the way its sign says); touching is allowed.
* C13 the centre point's path may cross a river only inside a bridge or ford, and may not
  end in open water; the rest of the base may overhang the water.
* C14 frontage is fixed (4-6", Artillery 2-3"); depth comes from the unit record, 1" by
  default.  Default frontages when a record gives none (stand-ins): 6" (Artillery 2").
* C15 one target per shooter, all its hits on it; several shooters may pick one target;
  one d6 per shooting unit.  A target is an enemy unit (derived: the rules shoot at the
  enemy).
* C16 units with 15 or more hits are removed in the Eliminating Units step, after all
  shooting; shooting at a unit already at 15 is allowed with a warning.  Hits are never
  removed and have no other effect.
* C17 only the phasing side's units move and shoot.
* B1 the scenario names the first side; otherwise one d6 per side, the high roll chooses,
  ties roll again; the order then stays fixed.
* B4 no line of sight: nothing blocks a shot.  ``Options(line_of_sight=True)`` is a house
  rule: the line between the nearest points of the shooter's front edge and the target
  may not cross woods or a town (other than one holding either unit's centre) or another
  unit's base.
* B6 no part of a base may leave the table, during a move or at its end.
* B7 any other terrain on the map has no effect.
* Where a move breaks a rule, the report names the first broken one along the move: the
  inch of the advance (and the centre point there) where it first bites, or the pivot.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping, Sequence

from shapely import ops
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry

from hxref.geometry.table import (
    XY,
    Area,
    Base,
    Table,
    Watercourse,
    bearing,
    fire_range,
    in_fire_arc,
    overlap,
    swept_area,
)
from hxref.kit import schema
from hxref.systems.base import Field, Problem

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

    fire_apex: str = "edge"          # C6: "edge" (recommended) or "centre" (the centre-apex wedge)
    pivot_sweep: bool = False        # C12 alternative: check the arc a pivot sweeps, not only its end
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
    def base(self) -> Base:
        """The base as a :class:`~hxref.geometry.table.Base`."""
        return Base(float(self.x), float(self.y), self.facing, float(self.frontage), float(self.depth))

    @property
    def centre(self) -> XY:
        return (float(self.x), float(self.y))

    def label(self) -> str:
        return f"{self.id} ({(self.side + ' ') if self.side else ''}{self.type})"

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        for k in ("figures", "name"):
            if d[k] in (None, ""):
                del d[k]
        return d

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
    if not lo - TOLERANCE <= unit.frontage <= hi + TOLERANCE:
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


def in_cover(table: Any, unit: Unit) -> list[Area]:
    """C5: the cover areas (woods, towns) holding the unit's centre point."""
    return [a for a in _flag_areas(table, "cover") if a.contains_point(unit.centre)]


def fires_all_round(table: Any, unit: Unit) -> list[Area]:
    """A4, C5: the town areas holding the unit's centre point (360-degree field of fire)."""
    return [a for a in _flag_areas(table, "all_round_fire") if a.contains_point(unit.centre)]


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
    return probs


# --------------------------------------------------------------------------
# movement


@dataclass(frozen=True)
class MoveCheck:
    """One unit's move order, checked (A3).  ``end`` is the unit after a legal move, else None.

    ``at`` is how far along the advance (inches) the first broken rule bites and
    ``where`` the centre point there; ``path`` the centre's points (start, after each
    straight advance); ``swept`` the area the base swept (for pictures).
    """

    uid: str
    start: Unit | None
    end: Unit | None
    advance: float = 0.0
    allowance: float | None = None
    on_road: bool = False
    moved: bool = False
    path: tuple[XY, ...] = ()
    swept: BaseGeometry | None = None
    crossings: tuple[str, ...] = ()
    at: float | None = None
    where: XY | None = None
    why: str = ""
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


ORDER_KEYS = ("pivot_start", "advance", "pivot_end", "to", "path", "facing")
#: the shape of a move order (A3 Turning; C8, C9): the decision's schema for each move, and the
#: check of an order given to :func:`check_move` directly
ORDER_FIELDS: dict[str, Field] = {
    "pivot_start": Field("number", "degrees, clockwise (negative: anticlockwise)", optional=True, nullable=True),
    "advance": Field("number", "inches straight ahead", optional=True, nullable=True),
    "pivot_end": Field("number", "degrees, clockwise (negative: anticlockwise)", optional=True, nullable=True),
    "to": Field("list", "[x, y] in inches", optional=True),
    "path": Field("list", "[x, y] points in inches", optional=True),
    "facing": Field("number", "degrees", optional=True, nullable=True),
}


def _turn(frm: float, to: float) -> float:
    """The shorter signed pivot (clockwise positive) from facing ``frm`` to facing ``to``, in (-180, 180]."""
    d = (to - frm) % 360.0
    return d - 360.0 if d > 180.0 else d


def _point(v: Any) -> XY | None:
    if isinstance(v, (list, tuple)) and len(v) == 2 and all(_num(c) for c in v):
        return (float(v[0]), float(v[1]))
    return None


def _parse_order(unit: Unit, order: Any, options: Options) -> tuple[list[tuple[str, float, str]], list[Problem], bool]:
    """The order as steps ("pivot", degrees, label) / ("advance", inches, label); problems; multi-segment."""
    if not isinstance(order, Mapping):
        return [], [Problem("a move order is a mapping: {pivot_start, advance, pivot_end} or {to: [x, y], facing}",
                            R_ORDER, [])], False
    probs: list[Problem] = list(schema.check(ORDER_FIELDS, order, R_ORDER))
    pivot_form = [k for k in ("pivot_start", "advance", "pivot_end") if k in order]
    dest_form = [k for k in ("to", "path") if k in order]
    if pivot_form and (dest_form or "facing" in order):
        probs.append(Problem("give either pivot_start/advance/pivot_end, or to (or path) with facing, not both",
                             R_ORDER, [dest_form[0] if dest_form else "facing"]))
    if len(dest_form) == 2:
        probs.append(Problem("give either to or path, not both", R_ORDER, ["path"]))
    if "facing" in order and not dest_form and not pivot_form:
        probs.append(Problem("facing goes with to or path; otherwise pivot with pivot_start or pivot_end", R_ORDER, ["facing"]))
    if probs:
        return [], probs, False
    if not dest_form:
        vals = {k: order.get(k) or 0 for k in ("pivot_start", "advance", "pivot_end")}
        for k, v in vals.items():
            if k != "advance" and not -360.0 < v < 360.0:
                probs.append(Problem(f"{k} is a pivot in degrees, clockwise (negative: anticlockwise), "
                                     f"more than -360 and less than 360, not {v:g}", R_ORDER, [k]))
            elif k == "advance" and v < 0:
                probs.append(Problem(f'advance must be 0" or more, not {v:g}": a unit advances straight ahead in the '
                                     "direction it faces (C8); pivot first to move another way", R_TURNING, [k]))
        if probs:
            return [], probs, False
        return [("pivot", float(vals["pivot_start"]), "start pivot"), ("advance", float(vals["advance"]), "advance"),
                ("pivot", float(vals["pivot_end"]), "end pivot")], [], False
    key = dest_form[0]
    raw = [order["to"]] if key == "to" else order["path"]
    if not isinstance(raw, list) or not raw:
        return [], [Problem("path must be a list of one or more [x, y] points in inches", R_ORDER, [key])], False
    pts: list[XY] = []
    for i, v in enumerate(raw):
        p = _point(v)
        if p is None:
            where = [key] if key == "to" else [key, i]
            return [], [Problem(f"{key} must give [x, y] points in inches, not {v!r}", R_ORDER, where)], False
        pts.append(p)
    facing = order.get("facing")
    cur, cur_f = unit.centre, unit.facing
    segs: list[tuple[XY, XY]] = []
    for p in pts:
        if math.dist(cur, p) > TOLERANCE:
            segs.append((cur, p))
            cur = p
    if len(segs) > 1 and not options.road_following:
        return [], [Problem(f"the path has {len(segs)} straight segments: a move is a pivot, one straight advance and a "
                            "pivot, and units turn only at the start and/or the end of their move; give one destination "
                            "(or pivot_start, advance, pivot_end)", R_TURNING, [key])], True
    steps: list[tuple[str, float, str]] = []
    for i, (a, b) in enumerate(segs):
        d = _turn(cur_f, bearing(a, b))
        steps.append(("pivot", d, "start pivot" if i == 0 else f"pivot at the bend ({a[0]:.1f}, {a[1]:.1f})"))
        steps.append(("advance", math.dist(a, b), "advance"))
        cur_f = (cur_f + d) % 360.0
    if facing is not None:
        steps.append(("pivot", _turn(cur_f, float(facing)), "end pivot"))
    return steps, [], len(segs) > 1


def _first_at(pred, length: float) -> float | None:
    """The least s in [0, length] where the monotone predicate ``pred(s)`` turns true, or None."""
    if not pred(length):
        return None
    if pred(0.0):
        return 0.0
    lo, hi = 0.0, length
    while hi - lo > 1e-6:
        mid = (lo + hi) / 2.0
        if pred(mid):
            hi = mid
        else:
            lo = mid
    return hi


def _centre_path(b: Base, s: float) -> list[XY]:
    return [b.centre, b.advanced(s).centre] if s > 0 else [b.centre]


def _pivot_sweep(before: Base, delta: float) -> BaseGeometry:
    n = max(2, int(math.ceil(abs(delta) / 2.0)))
    return ops.unary_union([before.pivoted(before.facing + delta * k / n).polygon for k in range(n + 1)])


def _xy(p: XY) -> str:
    return f"({p[0]:.1f}, {p[1]:.1f})"


def check_move(table: Any, units: Mapping[str, Unit], uid: str, order: Any, *,
               phasing: str | None = None, options: Options = DEFAULT_OPTIONS) -> MoveCheck:
    """A3: check one unit's move order against the table and the other units.

    ``order``: ``{pivot_start: deg, advance: inches, pivot_end: deg}`` (any key may be
    left out; pivots are relative, clockwise positive), or ``{to: [x, y], facing: deg}``,
    or ``{path: [[x, y], ...], facing: deg}`` (one straight segment, or a road move under
    ``Options(road_following=True)``).  The first broken rule along the move is reported,
    with where; a legal move gives ``end``: the unit at its new position and facing.
    """
    unit = units.get(uid) if isinstance(units, Mapping) else None
    if unit is None:
        return MoveCheck(uid, None, None, why="no such unit",
                         problems=[Problem(f"there is no unit {uid!r}; the units are {', '.join(map(str, units))}", R_UNITS, [])])
    if phasing is not None and unit.side != phasing:
        return MoveCheck(uid, unit, None, why="not the phasing side", problems=[Problem(
            f"{unit.label()} may not move in {phasing}'s player turn: each player moves his own units in his own "
            "Movement step", R_SEQUENCE, [])])
    if unit.moved:
        return MoveCheck(uid, unit, None, why="already moved", problems=[Problem(
            f"{unit.label()} has already moved in this player turn (one Movement step a player turn)", R_ONE_MOVE, [])])
    bad = unit_problems(unit)
    if bad:
        return MoveCheck(uid, unit, None, why=bad[0].message, problems=bad)
    steps, probs, multi = _parse_order(unit, order, options)
    if probs:
        return MoveCheck(uid, unit, None, why=probs[0].message, problems=probs)

    tbl = _table(table)
    kind = unit.type
    others = _others(units, uid)
    barred = _barred(table, kind)

    # walk the order: pivots (end positions) and straight legs
    events: list[tuple[str, float, Base, Any, str]] = []   # ("pivot", at, base_after, (before, delta), label) / ("leg", at, base, length, label)
    b, at = unit.base, 0.0
    pivoted = False
    for what, v, label in steps:
        if what == "pivot":
            if v == 0:
                continue
            pivoted = True
            after = b.pivoted(b.facing + v)
            events.append(("pivot", at, after, (b, v), label))
            b = after
        elif v > 0:
            events.append(("leg", at, b, v, label))
            b, at = b.advanced(v), at + v
    end_base, total = b, at
    path = tuple([unit.centre] + [e[2].advanced(e[3]).centre for e in events if e[0] == "leg"])
    moved = pivoted or total > 0
    on_road = total > 0 and tbl.on_road(list(path))
    allowance = MOVE_ALLOWANCE.get(kind, 0) + (ROAD_BONUS if on_road else 0)
    swept = ops.unary_union([unit.base.polygon] + [swept_area(e[2], e[3]) if e[0] == "leg" else e[2].polygon for e in events])
    crossings = tuple(c.terrain for r in tbl.rivers for c in r.crossings_on(list(path))) if len(path) > 1 else ()

    if multi and not on_road:
        p = Problem("a path of several straight segments is allowed only as a road move (scenario option), with the "
                    "centre on one road the whole way; this one leaves the road", R_ROAD_FOLLOW, ["path"])
        return MoveCheck(uid, unit, None, total, allowance, on_road, moved, path, swept, crossings,
                         why=p.message, problems=[p])

    # candidates: (at, order, message, rule, where, data path)
    cands: list[tuple[float, int, str, str, XY, list]] = []
    seq = 0

    def static(base: Base, at_: float, how: str, key: str) -> None:
        nonlocal seq
        poly = base.polygon
        if not tbl.on_table(poly):
            cands.append((at_, seq, f"{unit.label()} would leave the table {how}", R_EDGE, base.centre, [key]))
        seq += 1
        for a, rule, why in barred:
            if a.overlaps(poly):
                cands.append((at_, seq, f"{why} ({unit.id} {how})", rule, base.centre, [key]))
            seq += 1
        for o in others:
            if overlap(poly, o.base.polygon):
                cands.append((at_, seq, f"{unit.label()} would overlap {o.label()} {how}; units may not pass through "
                              "each other", R_INTERPENETRATION, base.centre, [key]))
            seq += 1

    for ev in events:
        if ev[0] == "pivot":
            _, at_, after, (before, delta), label = ev
            how = f"after the {label} ({delta:+g}°, to face {after.facing:g}°), centre at {_xy(after.centre)}"
            key = "pivot_end" if label == "end pivot" else ("pivot_start" if label == "start pivot" else "path")
            static(after, at_, how, key)
            if options.pivot_sweep:
                arc = _pivot_sweep(before, delta)
                for o in others:
                    if overlap(arc, o.base.polygon):
                        cands.append((at_, seq, f"{unit.label()} would sweep across {o.label()} during the {label} "
                                      "(option: pivot sweeps are checked)", R_INTERPENETRATION + " (alternative: pivot sweeps)",
                                      before.centre, [key]))
                    seq += 1
            continue
        _, start_at, lb, length, _label = ev

        def where(s: float) -> str:
            c = lb.advanced(s).centre
            return f'at {start_at + s:.1f}" along the advance, centre at {_xy(c)}'

        def add(s: float | None, msg, rule: str) -> None:
            nonlocal seq
            if s is not None:
                cands.append((start_at + s, seq, msg(s), rule, lb.advanced(s).centre, ["advance"]))
            seq += 1

        add(_first_at(lambda s: not tbl.on_table(swept_area(lb, s)), length),
            lambda s: f"{unit.label()} would leave the table {where(s)}", R_EDGE)
        for a, rule, why in barred:
            if a.overlaps(swept_area(lb, length)):
                add(_first_at(lambda s, a=a: a.overlaps(swept_area(lb, s)), length),
                    lambda s, why=why: f"{why} ({unit.id} {where(s)})", rule)
            else:
                seq += 1
        for r in tbl.rivers:
            add(_first_at(lambda s, r=r: not r.crossing_ok(_centre_path(lb, s)), length),
                lambda s, r=r: f"the centre of {unit.label()} would be in {_river_name(r)} away from a bridge or ford "
                               f"{where(s)}; rivers may only be crossed via bridges or fords", R_RIVER)
        for o in others:
            op = o.base.polygon
            if overlap(swept_area(lb, length), op):
                add(_first_at(lambda s, op=op: overlap(swept_area(lb, s), op), length),
                    lambda s, o=o: f"{unit.label()} would pass through {o.label()} {where(s)}; units may not pass "
                                   "through each other", R_INTERPENETRATION)
            else:
                seq += 1

    for a, rule, why in _no_end(table, kind):
        if a.overlaps(end_base.polygon):
            cands.append((total, seq, f"{why} ({unit.id} would end at {_xy(end_base.centre)})", rule, end_base.centre, ["advance"]))
        seq += 1
    if total > allowance + TOLERANCE:
        note = (f' (with the +{ROAD_BONUS}" road bonus)' if on_road
                else f' (the +{ROAD_BONUS}" road bonus needs the entire move on a road)')
        # where the allowance runs out along the path
        run, point = 0.0, path[0]
        for ev in events:
            if ev[0] == "leg":
                if run + ev[3] >= allowance:
                    point = ev[2].advanced(allowance - run).centre
                    break
                run += ev[3]
        cands.append((allowance, seq, f'advance {total:g}" is more than the {kind} allowance of {allowance:g}"{note}; '
                      f"the allowance runs out at {_xy(point)}", R_ALLOWANCE, point, ["advance"]))

    if cands:
        at_, _, msg, rule, pt, key = min(cands, key=lambda c: (round(c[0], 6), c[1]))
        return MoveCheck(uid, unit, None, total, allowance, on_road, moved, path, swept, crossings,
                         at=at_, where=pt, why=msg, problems=[Problem(msg, rule, key)])

    end = replace(unit, x=end_base.x, y=end_base.y, facing=end_base.facing, moved=moved)
    parts = []
    for ev in events:
        if ev[0] == "pivot":
            parts.append(f"{ev[4]} {ev[3][1]:+g}°")
        else:
            parts.append(f'advance {ev[3]:.1f}"')
    road = f' on the road (+{ROAD_BONUS}")' if on_road else ""
    over = f" over the {' and '.join(crossings)}" if crossings else ""
    why = (f"{unit.label()}: " + (", ".join(parts) if parts else "stays put (has not moved)")
           + (f'; {total:.1f}" of {allowance:g}"{road}{over}' if total > 0 else "")
           + f"; now at {_xy(end.centre)} facing {end.facing:g}°")
    return MoveCheck(uid, unit, end, total, allowance, on_road, moved, path, swept, crossings, why=why)


@dataclass(frozen=True)
class MovementStep:
    """A2 step 1: every move order of a player turn, checked in order.  ``units`` is the new state when all are legal,
    else the old one (an illegal order rejects the file, digest E1)."""

    moves: tuple[MoveCheck, ...]
    units: dict[str, Unit]
    why: str
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def movement_step(table: Any, units: Mapping[str, Unit], orders: Mapping[str, Any], *,
                  phasing: str | None = None, options: Options = DEFAULT_OPTIONS) -> MovementStep:
    """Check the orders one after another (each against the units as moved so far)."""
    state = dict(units)
    moves, probs = [], []
    for uid, order in orders.items():
        m = check_move(table, state, uid, order, phasing=phasing, options=options)
        moves.append(m)
        if m.ok:
            state[uid] = m.end
        else:
            probs.extend(Problem(p.message, p.rule, [uid] + list(p.path)) for p in m.problems)
    if probs:
        return MovementStep(tuple(moves), dict(units), f"{len(probs)} illegal move order(s); nothing moves", probs)
    n = sum(1 for m in moves if m.moved)
    return MovementStep(tuple(moves), state, f"{n} unit(s) moved")


# --------------------------------------------------------------------------
# shooting


@dataclass(frozen=True)
class LineOfSight:
    """B4: whether anything blocks a shot (nothing does, unless the house rule is on)."""

    blocked: bool
    why: str
    rule: str = R_LOS
    blockers: tuple[str, ...] = ()


def line_of_sight(table: Any, units: Mapping[str, Unit], shooter: str, target: str, *,
                  options: Options = DEFAULT_OPTIONS) -> LineOfSight:
    """B4: the rules have no line of sight; ``Options(line_of_sight=True)`` is a house rule (see the module notes)."""
    if not options.line_of_sight:
        return LineOfSight(False, "no line-of-sight rule: units, woods and towns do not block shots (B4)")
    s, t = units[shooter], units[target]
    edge = s.base.polygon if fires_all_round(table, s) else s.base.front_edge
    a, b = ops.nearest_points(edge, t.base.polygon)
    line = LineString([a, b])
    blockers = []
    for area in _flag_areas(table, "cover"):
        if area.contains_point(s.centre) or area.contains_point(t.centre):
            continue
        if line.intersection(area.polygon).length > TOLERANCE:
            blockers.append(_area_name(area))
    for o in units.values():
        if o.id in (shooter, target) or eliminated(o):
            continue
        if line.intersection(o.base.polygon).length > TOLERANCE:
            blockers.append(o.label())
    if blockers:
        return LineOfSight(True, f"house rule: the line of sight is blocked by {', '.join(blockers)}",
                           R_LOS + " (house rule)", tuple(blockers))
    return LineOfSight(False, "house rule: the line of sight is clear", R_LOS + " (house rule)")


@dataclass(frozen=True)
class ShotCheck:
    """A4: may ``shooter`` shoot at ``target``?  Range in inches as measured (C7), None when not measured."""

    shooter: str
    target: str
    range: float | None = None
    max_range: int | None = None
    in_arc: bool = False
    all_round: bool = False
    target_in_cover: bool = False
    warnings: list[str] = field(default_factory=list)
    why: str = ""
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check_shot(table: Any, units: Mapping[str, Unit], shooter: str, target: str, *,
               phasing: str | None = None, options: Options = DEFAULT_OPTIONS) -> ShotCheck:
    """A4: field of fire (C6), range (C7), moving and shooting (A3, C10), the phasing side (C17), cover (C5).

    Field of fire: any part of the target within 45 degrees of the front facing as
    seen from some point of the front edge (inclusive); 360 degrees when the
    shooter's centre point is in a town.  Range: from the front edge to the nearest
    part of the target inside the field of fire (from any point of the base for a
    unit in a town), inclusive to 0.001".
    """
    s, t = units.get(shooter), units.get(target)
    probs: list[Problem] = []
    if s is None:
        probs.append(Problem(f"there is no unit {shooter!r}", R_TARGET, ["shooter"]))
    if t is None:
        probs.append(Problem(f"there is no unit {target!r} to shoot at", R_TARGET, ["target"]))
    if probs:
        return ShotCheck(shooter, target, why=probs[0].message, problems=probs)
    bad = unit_problems(s) + unit_problems(t)
    if bad:
        return ShotCheck(shooter, target, why=bad[0].message, problems=bad)
    if shooter == target:
        p = Problem(f"{s.label()} cannot shoot at itself", R_TARGET, ["target"])
        return ShotCheck(shooter, target, why=p.message, problems=[p])
    if s.side == t.side:
        p = Problem(f"{t.label()} is on {s.label()}'s own side: a target is an enemy unit", R_TARGET, ["target"])
        return ShotCheck(shooter, target, why=p.message, problems=[p])
    if phasing is not None and s.side != phasing:
        probs.append(Problem(f"{s.label()} may not shoot in {phasing}'s player turn: only the phasing player's units "
                             "shoot", R_SEQUENCE, ["shooter"]))
    if s.moved:
        probs.append(Problem(f"{s.label()} moved this turn and may not shoot", R_MOVE_SHOOT, ["shooter"]))
    towns = fires_all_round(table, s)
    all_round = bool(towns)
    sb, tb = s.base, t.base
    arc_ok = in_fire_arc(sb, tb, FIRE_ARC, apex=options.fire_apex, all_round=all_round)
    rng = fire_range(sb, tb, FIRE_ARC, apex=options.fire_apex, all_round=all_round) if arc_ok else None
    max_range = RANGE.get(s.type)
    if not arc_ok:
        how = "from the front corners" if options.fire_apex == "edge" else "from the centre of the front edge"
        probs.append(Problem(f"{t.label()} is not within {FIRE_ARC}° of {s.label()}'s front facing ({how})",
                             R_ARC, ["target"]))
    elif max_range is not None and rng is not None and rng > max_range + TOLERANCE:
        probs.append(Problem(f'{t.label()} is {rng:.1f}" away, beyond {s.label()}\'s range of {max_range}"',
                             R_RANGE, ["target"]))
    los = line_of_sight(table, units, shooter, target, options=options)
    if los.blocked:
        probs.append(Problem(los.why, los.rule, ["target"]))
    cover = in_cover(table, t)
    warnings = []
    if eliminated(t):
        warnings.append(f"target {t.label()} already at {t.hits} hits (eliminated at {ELIMINATION_HITS}): the shot is wasted")
    arc_txt = (f"all round (centre in {_area_name(towns[0])})" if all_round
               else f"within {FIRE_ARC}° of the front" if arc_ok else "outside the field of fire")
    rng_txt = f'; range {rng:.1f}" of {max_range}"' if rng is not None else ""
    cov_txt = f"; target in cover ({_area_name(cover[0])})" if cover else ""
    why = f"{s.label()} at {t.label()}: {arc_txt}{rng_txt}{cov_txt}"
    return ShotCheck(shooter, target, rng, max_range, arc_ok, all_round, bool(cover), warnings, why, probs)


@dataclass(frozen=True)
class HitRoll:
    """A4 Casualties: one die, the type's modifier, the 0 floor (C2), then cover (C3, C4)."""

    unit_type: str
    die: Any
    modifier: int
    final: int
    in_cover: bool
    hits: int
    why: str
    rule: str = R_CASUALTIES + "; C1-C4"
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def cover_hits(final: int) -> int:
    """C4: half the hits, fractions in favour of the shooter (rounded up): 7 -> 4, 1 -> 1, 0 -> 0."""
    return (final + 1) // 2


def hits(shooter: Unit | str, target_in_cover: bool, die: Any) -> HitRoll:
    """A4: hits from one shot: max(0, d6 + modifier) (Zouaves +2, Cavalry and Artillery -2), halved up in cover."""
    kind = shooter.type if isinstance(shooter, Unit) else str(shooter)
    if kind not in MODIFIER:
        return HitRoll(kind, die, 0, 0, bool(target_in_cover), 0, "unknown unit type",
                       problems=[Problem(f"unknown unit type {kind!r}", R_UNITS, ["type"])])
    mod = MODIFIER[kind]
    if not isinstance(die, int) or isinstance(die, bool) or die not in DIE_FACES:
        return HitRoll(kind, die, mod, 0, bool(target_in_cover), 0, "no d6",
                       problems=[Problem(f"the die is one d6 (1-6), not {die!r}", R_DIE, ["die"])])
    final = max(0, die + mod)
    n = cover_hits(final) if target_in_cover else final
    mod_txt = f" {mod:+d} ({kind})" if mod else ""
    raw_txt = f"{die + mod}, floored at 0" if die + mod < 0 else f"{final}"
    cov_txt = ", halved for cover (rounded up)" if target_in_cover else ""
    why = f"d6 {die}{mod_txt} = {raw_txt}{cov_txt}: {n} hit{'s' if n != 1 else ''}"
    return HitRoll(kind, die, mod, final, bool(target_in_cover), n, why)


# --------------------------------------------------------------------------
# elimination


def eliminated(unit: Unit) -> bool:
    """A5: a unit is eliminated upon 15 hits (15 or more)."""
    return unit.hits >= ELIMINATION_HITS


def apply_hits(unit: Unit, n: int) -> Unit:
    """The unit with ``n`` more hits; hits are never removed (A5)."""
    if n < 0:
        raise ValueError("hits are never removed (A5)")
    return replace(unit, hits=unit.hits + n)


@dataclass(frozen=True)
class ShotOutcome:
    shooter: str
    target: str
    check: ShotCheck
    roll: HitRoll | None


@dataclass(frozen=True)
class ShootingStep:
    """A2 step 2: every shot of a player turn.  ``units`` has the hits added when all shots are legal, else is unchanged."""

    shots: tuple[ShotOutcome, ...]
    units: dict[str, Unit]
    warnings: list[str]
    why: str
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _shot_list(shots: Any) -> tuple[list[tuple[str, str]], list[Problem]]:
    if isinstance(shots, Mapping):
        return [(str(k), str(v)) for k, v in shots.items()], []
    out, probs = [], []
    for i, s in enumerate(shots or []):
        if isinstance(s, Mapping) and "shooter" in s and "target" in s:
            out.append((str(s["shooter"]), str(s["target"])))
        elif isinstance(s, (list, tuple)) and len(s) == 2:
            out.append((str(s[0]), str(s[1])))
        else:
            probs.append(Problem("each shot is {shooter: id, target: id}", R_TARGET, [i]))
    return out, probs


def shooting_step(table: Any, units: Mapping[str, Unit], shots: Any, dice: Mapping[str, Any], *,
                  phasing: str | None = None, options: Options = DEFAULT_OPTIONS) -> ShootingStep:
    """Check every shot on the state after movement, then roll (``dice``: shooter id -> d6 face) and add the hits.

    ``shots``: shooter id -> target id, or a list of ``{shooter, target}``.  A shooter
    names one target (C15).  Hits are added at once; nobody is removed before the
    Eliminating Units step (C16).
    """
    pairs, probs = _shot_list(shots)
    seen: set[str] = set()
    outcomes = []
    for i, (s, t) in enumerate(pairs):
        if s in seen:
            probs.append(Problem(f"{s} names more than one target: a unit shoots at one single target", R_TARGET, [i]))
            continue
        seen.add(s)
        chk = check_shot(table, units, s, t, phasing=phasing, options=options)
        probs.extend(Problem(p.message, p.rule, [s] + list(p.path)) for p in chk.problems)
        roll = None
        if chk.ok:
            if s not in dice:
                probs.append(Problem(f"no die for {s}: one d6 per shooting unit", R_DIE, [s, "die"]))
            else:
                roll = hits(units[s], chk.target_in_cover, dice[s])
                probs.extend(Problem(p.message, p.rule, [s] + list(p.path)) for p in roll.problems)
        outcomes.append(ShotOutcome(s, t, chk, roll))
    if probs:
        return ShootingStep(tuple(outcomes), dict(units), [], f"{len(probs)} problem(s); no shot is resolved", probs)
    state = dict(units)
    warnings = []
    for o in outcomes:
        before = state[o.target]
        if eliminated(before):
            warnings.append(f"{o.shooter} shoots at {before.label()}, already at {before.hits} hits: the shot is wasted (C16)")
        state[o.target] = apply_hits(before, o.roll.hits)
    total = sum(o.roll.hits for o in outcomes)
    return ShootingStep(tuple(outcomes), state, warnings, f"{len(outcomes)} shot(s), {total} hit(s)")


@dataclass(frozen=True)
class EliminationStep:
    """A2 step 3: units with 15 or more hits removed."""

    removed: tuple[str, ...]
    units: dict[str, Unit]
    why: str
    rule: str = R_ELIMINATION


def eliminating_step(units: Mapping[str, Unit], phasing: str | None = None) -> EliminationStep:
    """A5, C16: remove every unit with 15 or more hits (in a player turn only the other side's units take hits)."""
    removed = tuple(k for k, u in units.items() if eliminated(u))
    kept = {k: u for k, u in units.items() if k not in removed}
    who = f"{phasing}'s " if phasing else ""
    why = (f"{who}Eliminating Units: " + (", ".join(f"{units[k].label()} ({units[k].hits} hits)" for k in removed)
                                          + " eliminated" if removed else "no unit has 15 hits"))
    return EliminationStep(removed, kept, why)


# --------------------------------------------------------------------------
# sequence


@dataclass(frozen=True)
class PlayerTurn:
    """A2: one player's turn: movement, shooting, eliminating units."""

    turn: int
    side: str
    number: int                     # 1 or 2 within the turn
    steps: tuple[str, ...] = STEPS


def player_turns(turn: int, order: Sequence[str]) -> tuple[PlayerTurn, ...]:
    """A2, B1: the two player turns of a turn, in the fixed order of the sides."""
    if len(order) != PLAYER_TURNS_PER_TURN:
        raise ValueError("a turn is two player turns: give the two sides in order")
    return tuple(PlayerTurn(turn, side, i + 1) for i, side in enumerate(order))


def start_player_turn(units: Mapping[str, Unit], side: str) -> dict[str, Unit]:
    """The units at the start of ``side``'s player turn: its units have not moved yet (C10)."""
    return {k: (replace(u, moved=False) if u.side == side and u.moved else u) for k, u in units.items()}


@dataclass(frozen=True)
class FirstPlayer:
    """B1: who takes the first player turn (``side``), or who chooses (``chooser``) after the roll."""

    side: str | None
    chooser: str | None
    reroll: bool
    why: str
    rule: str = R_FIRST
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def first_player(rolls: Mapping[str, Any] | None = None, *, scenario: str | None = None) -> FirstPlayer:
    """B1: the scenario's first side, else one d6 per side: high roll chooses, a tie rolls again."""
    if scenario is not None:
        return FirstPlayer(scenario, None, False, f"the scenario names {scenario} to take the first player turn")
    rolls = dict(rolls or {})
    if len(rolls) != 2:
        return FirstPlayer(None, None, False, "two sides roll", problems=[Problem("one d6 per side, two sides", R_FIRST, [])])
    bad = [k for k, v in rolls.items() if not isinstance(v, int) or isinstance(v, bool) or v not in DIE_FACES]
    if bad:
        return FirstPlayer(None, None, False, "no d6", problems=[Problem(f"the roll of {bad[0]} is not a d6 (1-6)", R_DIE, [bad[0]])])
    (a, ra), (b, rb) = rolls.items()
    if ra == rb:
        return FirstPlayer(None, None, True, f"{a} {ra}, {b} {rb}: a tie, roll again")
    high = a if ra > rb else b
    return FirstPlayer(None, high, False, f"{a} {ra}, {b} {rb}: {high} chooses who takes the first player turn")

