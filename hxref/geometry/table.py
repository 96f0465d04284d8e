"""Tabletop geometry for miniatures rules, in inches (shapely does the polygon work).

Conventions (ACW miniatures digest, section 0): x grows east (right), y grows
north (up the table); a facing of 0 degrees looks north and angles grow
clockwise, so 90 looks east.  A unit's position is the centre of its base, a
``frontage`` x ``depth`` rectangle turned to its facing.

Measurements are inclusive to :data:`EPS` (a billionth of an inch), so a
target exactly 12.0" away is in a 12" range and one exactly 45 degrees off is
inside a 45-degree arc, whatever the last bit of a float says.

* :class:`Base` -- a unit's footprint; :meth:`Base.polygon`, :meth:`Base.front_edge`,
  :meth:`Base.advanced`, :meth:`Base.pivoted`, :func:`swept_area`.
* :func:`base_distance` -- closest points between two bases.
* :func:`fire_zone`, :func:`in_fire_arc`, :func:`fire_range` -- the field of fire
  "within 45 degrees of the front facing", measured from the whole front edge
  (the digest's recommended reading) or from the centre of the front edge.
* :class:`Area` and :class:`Watercourse` -- terrain polygons, and rivers/roads as
  polylines with a width and crossing points (bridges, fords);
  :meth:`Watercourse.crossing_ok` tests a centre-point path.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Iterable, Sequence

from shapely import affinity, ops
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

#: Tolerance of every inclusive comparison, in inches.
EPS = 1e-9

XY = tuple[float, float]


def heading(facing: float) -> XY:
    """Unit vector for a facing in degrees (0 = north/+y, clockwise)."""
    rad = math.radians(facing)
    return math.sin(rad), math.cos(rad)


def bearing(frm: XY, to: XY) -> float:
    """Facing in degrees [0, 360) that looks from ``frm`` to ``to``."""
    return math.degrees(math.atan2(to[0] - frm[0], to[1] - frm[1])) % 360.0


def angle_off(facing: float, frm: XY, to: XY) -> float:
    """How many degrees (0..180) ``to`` lies off the facing, seen from ``frm``."""
    d = abs((bearing(frm, to) - facing + 180.0) % 360.0 - 180.0)
    return d


@dataclass(frozen=True)
class Base:
    """A unit's footprint on the table."""

    x: float
    y: float
    facing: float = 0.0
    frontage: float = 4.0
    depth: float = 1.0

    @property
    def centre(self) -> XY:
        """The centre point (the unit's position)."""
        return (self.x, self.y)

    def _local(self, right: float, ahead: float) -> XY:
        fx, fy = heading(self.facing)
        # "right" of a unit facing (fx, fy) is (fy, -fx)
        return (self.x + ahead * fx + right * fy, self.y + ahead * fy - right * fx)

    def corners(self) -> list[XY]:
        """Front-left, front-right, rear-right, rear-left."""
        w, d = self.frontage / 2.0, self.depth / 2.0
        return [self._local(-w, d), self._local(w, d), self._local(w, -d), self._local(-w, -d)]

    @cached_property
    def polygon(self) -> Polygon:
        """The base rectangle."""
        return Polygon(self.corners())

    @cached_property
    def front_edge(self) -> LineString:
        """The front edge, from the left front corner to the right."""
        c = self.corners()
        return LineString([c[0], c[1]])

    def advanced(self, inches: float) -> "Base":
        """The same base moved straight ahead (negative: straight back)."""
        fx, fy = heading(self.facing)
        return replace(self, x=self.x + inches * fx, y=self.y + inches * fy)

    def pivoted(self, facing: float) -> "Base":
        """The same base turned in place about its centre."""
        return replace(self, facing=facing % 360.0)

    def moved_to(self, x: float, y: float, facing: float | None = None) -> "Base":
        """The same base at another place (and facing)."""
        return replace(self, x=x, y=y, facing=self.facing if facing is None else facing % 360.0)


def swept_area(start: Base, inches: float) -> Polygon:
    """The area a base covers while advancing straight ahead ``inches``."""
    end = start.advanced(inches)
    return start.polygon.union(end.polygon).convex_hull


def base_distance(a: Base, b: Base) -> float:
    """Shortest distance between two bases (0 when they touch or overlap)."""
    return a.polygon.distance(b.polygon)


def overlap(a: BaseGeometry, b: BaseGeometry) -> bool:
    """True when two shapes share area; touching along an edge or at a point is not overlap."""
    return a.intersects(b) and not a.touches(b) and a.intersection(b).area > EPS


# --------------------------------------------------------------------------
# fire


def fire_zone(base: Base, reach: float, arc: float = 45.0, apex: str = "edge") -> Polygon:
    """The part of the table a unit may fire into, out to ``reach`` inches.

    ``apex="edge"``: in front of the front edge plus ``arc``-degree flares from
    the two front corners (the recommended reading).  ``apex="centre"``: a
    wedge of +/- ``arc`` from the centre of the front edge.  The zone is
    well over ``reach`` deep; callers test range separately.
    """
    far = 3.0 * (reach + base.frontage + base.depth) + 10.0
    fl, fr = base.corners()[:2]
    lx, ly = heading(base.facing - arc)
    rx, ry = heading(base.facing + arc)
    if apex == "edge":
        pts = [fl, fr, (fr[0] + far * rx, fr[1] + far * ry), (fl[0] + far * lx, fl[1] + far * ly)]
        # close the far end with the straight-ahead point so the zone is convex
        fx, fy = heading(base.facing)
        mid = ((fl[0] + fr[0]) / 2 + 2 * far * fx, (fl[1] + fr[1]) / 2 + 2 * far * fy)
        pts.insert(3, mid)
    elif apex == "centre":
        c = ((fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2)
        steps = max(2, int(2 * arc // 5))
        pts = [c] + [
            (c[0] + far * heading(base.facing - arc + 2 * arc * k / steps)[0], c[1] + far * heading(base.facing - arc + 2 * arc * k / steps)[1])
            for k in range(steps + 1)
        ]
    else:
        raise ValueError("apex must be 'edge' or 'centre'")
    return Polygon(pts)


def _in_edge_arc(firer: Base, target: Base, arc: float) -> bool:
    """Front-edge reading: some target point within ``arc`` of ahead, seen from some point of the front edge.

    The zone's sides are the front edge and the two flare rays, so a target
    touching a flare exactly (45.0 degrees) is in, to :data:`EPS`.
    """
    zone = fire_zone(firer, reach=base_distance(firer, target) + firer.frontage + firer.depth + 1.0, arc=arc)
    return target.polygon.distance(zone) <= EPS


def in_fire_arc(firer: Base, target: Base, arc: float = 45.0, apex: str = "edge", all_round: bool = False) -> bool:
    """True when some part of ``target`` lies within ``arc`` degrees of ``firer``'s front facing.

    ``all_round`` is the 360-degree field of fire (a unit in a town).
    """
    if all_round:
        return True
    if apex == "edge":
        return _in_edge_arc(firer, target, arc)
    fl, fr = firer.corners()[:2]
    c = ((fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2)
    zone = fire_zone(firer, reach=math.dist(c, target.centre) + target.frontage + target.depth, arc=arc, apex="centre")
    # the centre-apex wedge is exact along its two straight rays; its far end is far away
    return target.polygon.distance(zone) <= EPS


def fire_range(firer: Base, target: Base, arc: float = 45.0, apex: str = "edge", all_round: bool = False) -> float | None:
    """Range in inches: from the firer's front edge to the nearest part of the target inside the field of fire.

    For ``all_round`` fire, from any point of the firer's base.  None when
    the target is not in the field of fire at all.
    """
    if all_round:
        return base_distance(firer, target)
    if not in_fire_arc(firer, target, arc, apex):
        return None
    zone = fire_zone(firer, reach=base_distance(firer, target) + target.frontage + target.depth + 1.0, arc=arc, apex=apex)
    part = target.polygon.intersection(zone.buffer(EPS))
    if part.is_empty:
        part = target.polygon
    return firer.front_edge.distance(part)


def in_range(distance_inches: float | None, range_inches: float) -> bool:
    """Inclusive range test (12.0" is within 12")."""
    return distance_inches is not None and distance_inches <= range_inches + EPS


# --------------------------------------------------------------------------
# terrain


@dataclass(frozen=True)
class Area:
    """A terrain area (woods, town, marsh) as a polygon."""

    terrain: str
    polygon: Polygon
    name: str = ""

    def contains_point(self, p: XY) -> bool:
        """Centre-point test, boundary included."""
        return self.polygon.buffer(EPS).contains(Point(p))

    def overlaps(self, shape: BaseGeometry) -> bool:
        """True when ``shape`` shares area with this terrain (touching is not overlap)."""
        return overlap(self.polygon, shape)


@dataclass(frozen=True)
class Crossing:
    """A bridge or ford: a stretch of a watercourse ``width`` inches long, centred at ``at``."""

    terrain: str
    at: XY
    width: float


@dataclass(frozen=True)
class Watercourse:
    """A river, stream or road: a polyline with a width, and crossing places."""

    terrain: str
    points: tuple[XY, ...]
    width: float = 1.0
    crossings: tuple[Crossing, ...] = ()
    name: str = ""

    @cached_property
    def line(self) -> LineString:
        """The centre line."""
        return LineString(self.points)

    @cached_property
    def area(self) -> Polygon:
        """The band the line covers: the polyline buffered by half its width, flat ends."""
        return self.line.buffer(self.width / 2.0, cap_style="flat", join_style="mitre")

    def crossing_area(self, c: Crossing) -> BaseGeometry:
        """The part of the band a crossing covers."""
        s = self.line.project(Point(c.at))
        piece = ops.substring(self.line, max(0.0, s - c.width / 2.0), min(self.line.length, s + c.width / 2.0))
        return piece.buffer(self.width / 2.0 + EPS, cap_style="flat", join_style="mitre")

    @cached_property
    def crossing_areas(self) -> tuple[BaseGeometry, ...]:
        """:meth:`crossing_area` of each of :attr:`crossings`, in order (a watercourse never changes)."""
        return tuple(self.crossing_area(c) for c in self.crossings)

    @cached_property
    def open_water(self) -> BaseGeometry:
        """The band minus every crossing."""
        shape: BaseGeometry = self.area
        for piece in self.crossing_areas:
            shape = shape.difference(piece)
        return shape

    def open_water_beyond(self, reach: float) -> BaseGeometry:
        """:attr:`open_water` farther than ``reach`` from every crossing (remembered for each reach)."""
        if reach not in self._beyond:
            shape = self.open_water
            if self.crossings:
                shape = shape.difference(ops.unary_union([piece.buffer(reach) for piece in self.crossing_areas]))
            self._beyond[reach] = shape
        return self._beyond[reach]

    @cached_property
    def _beyond(self) -> dict[float, BaseGeometry]:
        return {}

    @cached_property
    def _open_inside(self) -> BaseGeometry:
        return self.open_water.buffer(-EPS)

    def crossing_ok(self, path: Sequence[XY] | LineString) -> bool:
        """True when a centre-point path meets this watercourse only at its crossings.

        Touching the water's edge (a bank, the side of a bridge) is allowed.
        """
        line = path if isinstance(path, LineString) else (LineString(path) if len(path) > 1 else Point(path[0]))
        return not line.intersects(self._open_inside)

    def crossings_on(self, path: Sequence[XY] | LineString) -> list[Crossing]:
        """The crossings a centre-point path uses."""
        line = path if isinstance(path, LineString) else LineString(path)
        return [c for c, piece in zip(self.crossings, self.crossing_areas) if line.intersects(piece)]

    def follows(self, path: Sequence[XY] | LineString) -> bool:
        """True when a centre-point path stays inside the band the whole way (a road move)."""
        line = path if isinstance(path, LineString) else (LineString(path) if len(path) > 1 else Point(path[0]))
        return self._area_inclusive.contains(line)

    @cached_property
    def _area_inclusive(self) -> BaseGeometry:
        return self.area.buffer(EPS)


@dataclass
class Table:
    """A miniatures table: width x height inches, terrain areas, rivers and roads."""

    width: float
    height: float
    areas: list[Area] = field(default_factory=list)
    rivers: list[Watercourse] = field(default_factory=list)
    roads: list[Watercourse] = field(default_factory=list)

    @cached_property
    def edge(self) -> Polygon:
        """The table itself, as a rectangle."""
        return box(0.0, 0.0, self.width, self.height)

    @cached_property
    def _edge_inclusive(self) -> Polygon:
        return self.edge.buffer(EPS)

    def on_table(self, shape: BaseGeometry) -> bool:
        """True when no part of ``shape`` leaves the table."""
        return self._edge_inclusive.contains(shape)

    def areas_at(self, p: XY) -> list[Area]:
        """The terrain areas containing the point ``p`` (a unit's centre point)."""
        return [a for a in self.areas if a.contains_point(p)]

    def terrain_at(self, p: XY) -> set[str]:
        """The terrain names under the point ``p``."""
        return {a.terrain for a in self.areas_at(p)}

    def overlapping(self, shape: BaseGeometry) -> list[Area]:
        """The terrain areas ``shape`` overlaps (touching does not count)."""
        return [a for a in self.areas if a.overlaps(shape)]

    def river_crossings_ok(self, path: Sequence[XY]) -> bool:
        """True when a centre-point path crosses every river only at a bridge or ford."""
        return all(r.crossing_ok(path) for r in self.rivers)

    def on_road(self, path: Sequence[XY]) -> bool:
        """True when a centre-point path stays on one road for its whole length."""
        return any(r.follows(path) for r in self.roads)


def polygon_from(points: Iterable[Sequence[float]]) -> Polygon:
    """A polygon from ``[[x, y], ...]``."""
    return Polygon([(float(p[0]), float(p[1])) for p in points])


def rotate_about(shape: BaseGeometry, degrees_clockwise: float, origin: XY) -> BaseGeometry:
    """``shape`` turned clockwise about ``origin`` (shapely turns anticlockwise)."""
    return affinity.rotate(shape, -degrees_clockwise, origin=origin)
