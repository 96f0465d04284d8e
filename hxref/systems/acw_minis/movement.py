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
* C12 the base swept by the straight advance may not overlap any other base, friend or
  foe; pivots are checked at their end position only (``Options(pivot_sweep=True)`` also
  checks the arc a pivot sweeps, turning the way its sign says); touching is allowed.
* C13 the centre point's path may cross a river only inside a bridge or ford, and may not
  end in open water; the rest of the base may overhang the water.
* C17 only the phasing side's units move and shoot.
* Where a move breaks a rule, the report names the first broken one along the move: the
  inch of the advance (and the centre point there) where it first bites, or the pivot.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from shapely import ops
from shapely.geometry.base import BaseGeometry

from hxref.geometry.table import XY, Base, bearing, overlap, swept_area
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
    unit_problems,
)

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
