"""ACW miniatures: the Movement step (A2 step 1, A3; C5, C8-C13, C17, C18, B6, B7).

:func:`check_move` -> :class:`MoveCheck` checks one unit's move order against the table
and the other units; :func:`movement_step` -> :class:`MovementStep` checks every order
of a player turn, in order.  The unit, the terrain and the numbers are :mod:`.units`
(C5 overlap, B6 table edges and B7 other terrain are read there).

Readings (digest F and the C entries named)
-------------------------------------------
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
* C12 the area the base sweeps may not overlap any other base, friend or foe: along the
  straight advance, and through every pivot, turning the way its sign says (the shorter
  way for ``to``/``path``).  A pivot sweeps the start and end bases and the circular
  sectors the four corners trace about the centre (:func:`pivot_swept_area`).  The same
  swept area may not leave the table (B6) nor enter barred terrain (C5: woods for Cavalry
  and Artillery, marsh, lakes) nor open water (C13).  Touching is allowed.
* C13 the centre point's path may cross a river only inside a bridge or ford, and no part
  of the base may be over the river's open water except within its reach of a bridge or
  ford (:func:`.units.open_water`).
* C17 only the phasing side's units move and shoot.
* Where a move breaks a rule, the report names the first broken one along the move: the
  inch of the advance (and the centre point there) where it first bites, or the pivot.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Mapping

import numpy as np
from shapely import ops
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from hxref.geometry.table import XY, Base, Table, bearing, overlap, swept_area
from hxref.kit import schema
from hxref.systems.base import Field, Problem

from .units import (
    DEFAULT_OPTIONS,
    MOVE_ALLOWANCE,
    R_ALLOWANCE,
    R_EDGE,
    R_INTERPENETRATION,
    R_ONE_MOVE,
    R_ORDER,
    R_RIVER,
    R_ROAD_FOLLOW,
    R_SEQUENCE,
    R_TURNING,
    R_UNITS,
    ROAD_BONUS,
    TOLERANCE,
    Options,
    Unit,
    _barred,
    _no_end,
    _num,
    _others,
    _river_name,
    _table,
    _turn,
    open_water,
    unit_problems,
)

# --------------------------------------------------------------------------
# movement


@dataclass(frozen=True)
class MoveCheck:
    """One unit's move order, checked (A3).  ``end`` is the unit after a legal move, else None.

    ``at`` is how far along the advance (inches) the first broken rule bites and
    ``where`` the centre point there; ``path`` the centre's points (start, after each
    straight advance).
    """

    uid: str
    start: Unit | None
    end: Unit | None
    advance: float = 0.0
    allowance: float | None = None
    on_road: bool = False
    moved: bool = False
    path: tuple[XY, ...] = ()
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


def _point(v: Any) -> XY | None:
    if isinstance(v, (list, tuple)) and len(v) == 2 and all(_num(c) for c in v):
        return (float(v[0]), float(v[1]))
    return None


_Steps = list[tuple[str, float, str]]


def _form_problems(order: Mapping[str, Any], pivot_form: list[str], dest_form: list[str]) -> list[Problem]:
    """C8, C9: the order's keys and types, and one form only: pivots and an advance, or a destination."""
    probs: list[Problem] = list(schema.check(ORDER_FIELDS, order, R_ORDER))
    if pivot_form and (dest_form or "facing" in order):
        probs.append(Problem("give either pivot_start/advance/pivot_end, or to (or path) with facing, not both",
                             R_ORDER, [dest_form[0] if dest_form else "facing"]))
    if len(dest_form) == 2:
        probs.append(Problem("give either to or path, not both", R_ORDER, ["path"]))
    if "facing" in order and not dest_form and not pivot_form:
        probs.append(Problem("facing goes with to or path; otherwise pivot with pivot_start or pivot_end", R_ORDER, ["facing"]))
    return probs


def _pivot_steps(order: Mapping[str, Any]) -> tuple[_Steps, list[Problem]]:
    """C8, C9: ``{pivot_start, advance, pivot_end}``: pivots of less than a full turn, an advance of 0 or more."""
    probs: list[Problem] = []
    vals = {k: order.get(k) or 0 for k in ("pivot_start", "advance", "pivot_end")}
    for k, v in vals.items():
        if k != "advance" and not -360.0 < v < 360.0:
            probs.append(Problem(f"{k} is a pivot in degrees, clockwise (negative: anticlockwise), "
                                 f"more than -360 and less than 360, not {v:g}", R_ORDER, [k]))
        elif k == "advance" and v < 0:
            probs.append(Problem(f'advance must be 0" or more, not {v:g}": a unit advances straight ahead in the '
                                 "direction it faces (C8); pivot first to move another way", R_TURNING, [k]))
    if probs:
        return [], probs
    return [("pivot", float(vals["pivot_start"]), "start pivot"), ("advance", float(vals["advance"]), "advance"),
            ("pivot", float(vals["pivot_end"]), "end pivot")], []


def _dest_points(order: Mapping[str, Any], key: str) -> tuple[list[XY], list[Problem]]:
    """C8: ``to: [x, y]`` or ``path: [[x, y], ...]``, points in inches."""
    raw = [order["to"]] if key == "to" else order["path"]
    if not isinstance(raw, list) or not raw:
        return [], [Problem("path must be a list of one or more [x, y] points in inches", R_ORDER, [key])]
    pts: list[XY] = []
    for i, v in enumerate(raw):
        p = _point(v)
        if p is None:
            where = [key] if key == "to" else [key, i]
            return [], [Problem(f"{key} must give [x, y] points in inches, not {v!r}", R_ORDER, where)]
        pts.append(p)
    return pts, []


def _dest_steps(unit: Unit, pts: list[XY], facing: Any, options: Options,
                key: str) -> tuple[_Steps, list[Problem], bool]:
    """A3 Turning, C8: a destination as pivot, straight advance, pivot (the shorter way); several straight
    segments only as a road move (scenario option)."""
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
    steps: _Steps = []
    for i, (a, b) in enumerate(segs):
        d = _turn(cur_f, bearing(a, b))
        steps.append(("pivot", d, "start pivot" if i == 0 else f"pivot at the bend ({a[0]:.1f}, {a[1]:.1f})"))
        steps.append(("advance", math.dist(a, b), "advance"))
        cur_f = (cur_f + d) % 360.0
    if facing is not None:
        steps.append(("pivot", _turn(cur_f, float(facing)), "end pivot"))
    return steps, [], len(segs) > 1


def _parse_order(unit: Unit, order: Any, options: Options) -> tuple[_Steps, list[Problem], bool]:
    """The order as steps ("pivot", degrees, label) / ("advance", inches, label); problems; multi-segment.

    C8, C9: its form (:func:`_form_problems`), then the pivots and advance (:func:`_pivot_steps`) or the
    destination's points (:func:`_dest_points`) walked as pivots and advances (:func:`_dest_steps`)."""
    if not isinstance(order, Mapping):
        return [], [Problem("a move order is a mapping: {pivot_start, advance, pivot_end} or {to: [x, y], facing}",
                            R_ORDER, [])], False
    pivot_form = [k for k in ("pivot_start", "advance", "pivot_end") if k in order]
    dest_form = [k for k in ("to", "path") if k in order]
    probs = _form_problems(order, pivot_form, dest_form)
    if probs:
        return [], probs, False
    if not dest_form:
        steps, probs = _pivot_steps(order)
        return steps, probs, False
    key = dest_form[0]
    pts, probs = _dest_points(order, key)
    if probs:
        return [], probs, False
    return _dest_steps(unit, pts, order.get("facing"), options, key)


def _first_at(pred: Callable[[float], bool], length: float) -> float | None:
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


#: how far (inches) beyond the corners' true distance a pivot's circle reaches (:attr:`_Pivot.reach`): far
#: more than a float's error in a corner, far less than any measure of the rules
CIRCLE_SPARE = 1e-6

#: the arcs of a pivot's sectors are drawn in chords of at most this many degrees (a 3" reach is then
#: short of the true arc by under 0.0001", well inside the measuring tolerance)
ARC_STEP = 0.5


def pivot_swept_area(before: Base, delta: float) -> BaseGeometry:
    """A3 Turning, C12: the area the base covers while it pivots ``delta`` degrees (clockwise positive) on its
    centre point.

    The base is a rectangle holding its centre, so a point at a given bearing from the centre is swept
    exactly when some corner passes that bearing (then out to the corners' distance) or the start or end
    base reaches it: the union of the two bases and the sector each corner traces."""
    if delta == 0:
        return before.polygon
    c = before.centre
    n = max(1, int(math.ceil(abs(delta) / ARC_STEP)))
    parts: list[BaseGeometry] = [before.polygon, before.pivoted(before.facing + delta).polygon]
    for corner in before.corners():
        r, b0 = math.dist(c, corner), bearing(c, corner)
        arc = [(c[0] + r * math.sin(a), c[1] + r * math.cos(a))
               for a in [math.radians(b0 + delta * k / n) for k in range(n + 1)]]
        parts.append(Polygon(np.array([c, *arc])))     # an array: shapely need not check each point
    return ops.unary_union(parts)


def _xy(p: XY) -> str:
    return f"({p[0]:.1f}, {p[1]:.1f})"


@dataclass(frozen=True)
class _Pivot:
    """A pivot of the order (A3 Turning; C8, C9): ``delta`` degrees from ``before`` to ``after``, ``at``
    inches into the move."""

    at: float
    before: Base
    delta: float
    after: Base
    label: str

    @cached_property
    def swept(self) -> BaseGeometry:
        """The area the base covers on the way round (:func:`pivot_swept_area`)."""
        return pivot_swept_area(self.before, self.delta)

    @cached_property
    def reach(self) -> float:
        """The radius of the circle the base's corners trace about its centre, with :data:`CIRCLE_SPARE` to
        spare: the swept area lies inside that circle."""
        return math.hypot(self.before.frontage / 2.0, self.before.depth / 2.0) + CIRCLE_SPARE

    @cached_property
    def _pin(self) -> Point:
        return Point(self.before.centre)

    def may_reach(self, shape: BaseGeometry) -> bool:
        """Whether ``shape`` comes within :attr:`reach` of the centre: only then may the swept area overlap it."""
        return bool(shape.distance(self._pin) <= self.reach)

    def inside(self, table: Table) -> bool:
        """Whether the circle of :attr:`reach` lies on the table: then so does the swept area."""
        (x, y), r = self.before.centre, self.reach
        return r <= x <= table.width - r and r <= y <= table.height - r


@dataclass(frozen=True)
class _Leg:
    """A straight advance of the order (C8): ``length`` inches ahead from ``base``, ``at`` inches into the move."""

    at: float
    base: Base
    length: float
    label: str

    @cached_property
    def swept(self) -> BaseGeometry:
        """The area the base covers on the way (:func:`~hxref.geometry.table.swept_area`)."""
        return swept_area(self.base, self.length)

    def swept_to(self, s: float) -> BaseGeometry:
        """The area the base covers on the first ``s`` inches of the way (:attr:`swept` for all of it)."""
        return self.swept if s == self.length else swept_area(self.base, s)


@dataclass(frozen=True)
class _Around:
    """What a moving unit must keep clear of: the table (B6), the shapes no part of it may ever overlap
    (C5 barred terrain, C13 open water: (shape, rule, why)) and the other units on the table (C12)."""

    table: Table
    barred: list[tuple[BaseGeometry, str, str]]
    others: list[Unit]


#: a rule the move breaks: (inches into the move where it bites, message, rule, centre point there, data path)
_Broken = tuple[float, str, str, XY, list]


def _no_unit(units: Mapping[str, Unit], uid: str) -> MoveCheck:
    return MoveCheck(uid, None, None, why="no such unit",
                     problems=[Problem(f"there is no unit {uid!r}; the units are {', '.join(map(str, units))}", R_UNITS, [])])


def _refused(uid: str, unit: Unit, phasing: str | None) -> MoveCheck | None:
    """The unit may not move at all: not the phasing side's (C17), already moved (A2: one Movement step),
    or its record is illegal (A1, C14)."""
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
    return None


def _walk(unit: Unit, steps: _Steps) -> tuple[list[_Pivot | _Leg], Base, float, bool]:
    """C8: the order's pivots and straight legs, the base at the end, the inches advanced, and whether it
    pivoted."""
    events: list[_Pivot | _Leg] = []
    b, at = unit.base, 0.0
    pivoted = False
    for what, v, label in steps:
        if what == "pivot":
            if v == 0:
                continue
            pivoted = True
            after = b.pivoted(b.facing + v)
            events.append(_Pivot(at, b, v, after, label))
            b = after
        elif v > 0:
            events.append(_Leg(at, b, v, label))
            b, at = b.advanced(v), at + v
    return events, b, at, pivoted


def _placed(around: _Around, unit: Unit, base: Base, at: float, how: str, key: str) -> list[_Broken]:
    """A position the base takes (a pivot's end): on the table (B6), off barred terrain and open water
    (C5, C13), clear of every other unit (C12)."""
    poly = base.polygon
    out: list[_Broken] = []
    if not around.table.on_table(poly):
        out.append((at, f"{unit.label()} would leave the table {how}", R_EDGE, base.centre, [key]))
    for a, rule, why in around.barred:
        if overlap(a, poly):
            out.append((at, f"{why} ({unit.id} {how})", rule, base.centre, [key]))
    for o in around.others:
        if overlap(poly, o.base.polygon):
            out.append((at, f"{unit.label()} would overlap {o.label()} {how}; units may not pass through "
                        "each other", R_INTERPENETRATION, base.centre, [key]))
    return out


def _pivot_broken(around: _Around, unit: Unit, ev: _Pivot) -> list[_Broken]:
    """A3 Turning, C9, C12: a pivot's end position (:func:`_placed`), then the area its base sweeps on the
    way round (:func:`pivot_swept_area`): on the table (B6), off barred terrain and open water (C5, C13),
    clear of every other unit (C12)."""
    how = f"after the {ev.label} ({ev.delta:+g}°, to face {ev.after.facing:g}°), centre at {_xy(ev.after.centre)}"
    key = "pivot_end" if ev.label == "end pivot" else ("pivot_start" if ev.label == "start pivot" else "path")
    out = _placed(around, unit, ev.after, ev.at, how, key)
    way = "clockwise" if ev.delta > 0 else "anticlockwise"
    during = (f"during the {ev.label} ({ev.delta:+g}°, {way} from {ev.before.facing:g}° to {ev.after.facing:g}°), "
              f"centre at {_xy(ev.before.centre)}")
    c = ev.before.centre
    # the swept area is drawn only where the circle its corners trace leaves the table or meets a shape
    if not ev.inside(around.table) and not around.table.on_table(ev.swept):
        out.append((ev.at, f"{unit.label()}'s base would swing off the table {during}", R_EDGE, c, [key]))
    for a, rule, why in around.barred:
        if ev.may_reach(a) and overlap(a, ev.swept):
            out.append((ev.at, f"{why} ({unit.id}'s base would sweep into it {during})", rule, c, [key]))
    for o in around.others:
        if ev.may_reach(o.base.polygon) and overlap(ev.swept, o.base.polygon):
            out.append((ev.at, f"{unit.label()} would sweep through {o.label()} {during}; units may not pass "
                        "through each other", R_INTERPENETRATION, c, [key]))
    return out


def _leg_broken(around: _Around, unit: Unit, ev: _Leg) -> list[_Broken]:
    """C8 a straight advance, where each rule first bites along it: the table edge (B6), barred terrain (C5)
    and open water (C13) under the swept base, the centre crossing a river away from a bridge or ford
    (C13), other units (C12)."""
    lb, length = ev.base, ev.length
    out: list[_Broken] = []
    # the lambdas below are called at once, in their own iteration

    def add(s: float | None, rule: str, say: Callable[[str], str]) -> None:
        if s is not None:
            c = lb.advanced(s).centre
            out.append((ev.at + s, say(f'at {ev.at + s:.1f}" along the advance, centre at {_xy(c)}'), rule, c,
                        ["advance"]))

    add(_first_at(lambda s: not around.table.on_table(ev.swept_to(s)), length), R_EDGE,
        lambda w: f"{unit.label()} would leave the table {w}")
    whole = ev.swept
    for a, rule, why in around.barred:
        if overlap(a, whole):
            add(_first_at(lambda s: overlap(a, ev.swept_to(s)), length), rule,
                lambda w: f"{why} ({unit.id} {w})")
    for r in around.table.rivers:
        add(_first_at(lambda s: not r.crossing_ok(_centre_path(lb, s)), length), R_RIVER,
            lambda w: f"the centre of {unit.label()} would be in {_river_name(r)} away from a bridge or ford "
                           f"{w}; rivers may only be crossed via bridges or fords")
    for o in around.others:
        op = o.base.polygon
        if overlap(whole, op):
            add(_first_at(lambda s: overlap(ev.swept_to(s), op), length), R_INTERPENETRATION,
                lambda w: f"{unit.label()} would pass through {o.label()} {w}; units may not pass "
                               "through each other")
    return out


def _end_broken(table: Any, unit: Unit, end_base: Base, total: float) -> list[_Broken]:
    """C5: the areas the unit may pass through but not end its move in (towns for Cavalry and Artillery)."""
    return [(total, f"{why} ({unit.id} would end at {_xy(end_base.centre)})", rule, end_base.centre, ["advance"])
            for a, rule, why in _no_end(table, unit.type) if a.overlaps(end_base.polygon)]


def _over_allowance(unit: Unit, events: list[_Pivot | _Leg], path: tuple[XY, ...], total: float,
                    allowance: float, on_road: bool) -> list[_Broken]:
    """A3 Movement allowances, C11: the advance within the allowance (+3" with the entire move on a road),
    and where along the path it runs out."""
    if total <= allowance + TOLERANCE:
        return []
    note = (f' (with the +{ROAD_BONUS}" road bonus)' if on_road
            else f' (the +{ROAD_BONUS}" road bonus needs the entire move on a road)')
    run, point = 0.0, path[0]
    for ev in events:
        if isinstance(ev, _Leg):
            if run + ev.length >= allowance:
                point = ev.base.advanced(allowance - run).centre
                break
            run += ev.length
    return [(allowance, f'advance {total:g}" is more than the {unit.type} allowance of {allowance:g}"{note}; '
             f"the allowance runs out at {_xy(point)}", R_ALLOWANCE, point, ["advance"])]


def _moved_why(unit: Unit, end: Unit, events: list[_Pivot | _Leg], total: float, allowance: float, on_road: bool,
               crossings: tuple[str, ...]) -> str:
    """What a legal move did, for the report (A3)."""
    parts = [f"{ev.label} {ev.delta:+g}°" if isinstance(ev, _Pivot) else f'advance {ev.length:.1f}"' for ev in events]
    road = f' on the road (+{ROAD_BONUS}")' if on_road else ""
    over = f" over the {' and '.join(crossings)}" if crossings else ""
    return (f"{unit.label()}: " + (", ".join(parts) if parts else "stays put (has not moved)")
            + (f'; {total:.1f}" of {allowance:g}"{road}{over}' if total > 0 else "")
            + f"; now at {_xy(end.centre)} facing {end.facing:g}°")


def check_move(table: Any, units: Mapping[str, Unit], uid: str, order: Any, *,
               phasing: str | None = None, options: Options = DEFAULT_OPTIONS) -> MoveCheck:
    """A3: check one unit's move order against the table and the other units.

    ``order``: ``{pivot_start: deg, advance: inches, pivot_end: deg}`` (any key may be
    left out; pivots are relative, clockwise positive), or ``{to: [x, y], facing: deg}``,
    or ``{path: [[x, y], ...], facing: deg}`` (one straight segment, or a road move under
    ``Options(road_following=True)``).  The first broken rule along the move is reported,
    with where; a legal move gives ``end``: the unit at its new position and facing.

    The steps: the unit is there and may move (:func:`_refused`), the order reads (:func:`_parse_order`), the
    order walked into pivots and legs (:func:`_walk`), the road (C11) and the multi-segment road
    move (C8 option), then every rule broken along the way (:func:`_pivot_broken`,
    :func:`_leg_broken`, :func:`_end_broken`, :func:`_over_allowance`): the first one reported.
    """
    unit = units.get(uid) if isinstance(units, Mapping) else None
    if unit is None:
        return _no_unit(units, uid)
    refused = _refused(uid, unit, phasing)
    if refused is not None:
        return refused
    steps, probs, multi = _parse_order(unit, order, options)
    if probs:
        return MoveCheck(uid, unit, None, why=probs[0].message, problems=probs)

    tbl = _table(table)
    around = _Around(tbl, [(a.polygon, rule, why) for a, rule, why in _barred(table, unit.type)]
                     + open_water(table, unit), _others(units, uid))
    events, end_base, total, pivoted = _walk(unit, steps)
    path = tuple([unit.centre] + [ev.base.advanced(ev.length).centre for ev in events if isinstance(ev, _Leg)])
    moved = pivoted or total > 0
    on_road = total > 0 and tbl.on_road(list(path))
    allowance = MOVE_ALLOWANCE.get(unit.type, 0) + (ROAD_BONUS if on_road else 0)
    crossings = tuple(c.terrain for r in tbl.rivers for c in r.crossings_on(list(path))) if len(path) > 1 else ()

    if multi and not on_road:
        p = Problem("a path of several straight segments is allowed only as a road move (scenario option), with the "
                    "centre on one road the whole way; this one leaves the road", R_ROAD_FOLLOW, ["path"])
        return MoveCheck(uid, unit, None, total, allowance, on_road, moved, path, crossings,
                         why=p.message, problems=[p])

    broken: list[_Broken] = []
    for ev in events:
        broken += _pivot_broken(around, unit, ev) if isinstance(ev, _Pivot) else _leg_broken(around, unit, ev)
    broken += _end_broken(table, unit, end_base, total)
    broken += _over_allowance(unit, events, path, total, allowance, on_road)
    if broken:
        # the first along the move; at the same inch, the first checked (min keeps the first of equals)
        at_, msg, rule, pt, where = min(broken, key=lambda c: round(c[0], 6))
        return MoveCheck(uid, unit, None, total, allowance, on_road, moved, path, crossings,
                         at=at_, where=pt, why=msg, problems=[Problem(msg, rule, where)])

    end = replace(unit, x=end_base.x, y=end_base.y, facing=end_base.facing, moved=moved)
    return MoveCheck(uid, unit, end, total, allowance, on_road, moved, path, crossings,
                     why=_moved_why(unit, end, events, total, allowance, on_road, crossings))


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
    moves: list[MoveCheck] = []
    probs: list[Problem] = []
    for uid, order in orders.items():
        m = check_move(table, state, uid, order, phasing=phasing, options=options)
        moves.append(m)
        if m.ok and m.end is not None:          # a legal move has its end
            state[uid] = m.end
        else:
            probs.extend(Problem(p.message, p.rule, [uid] + list(p.path)) for p in m.problems)
    if probs:
        return MovementStep(tuple(moves), dict(units), f"{len(probs)} illegal move order(s); nothing moves", probs)
    n = sum(1 for m in moves if m.moved)
    return MovementStep(tuple(moves), state, f"{n} unit(s) moved")
