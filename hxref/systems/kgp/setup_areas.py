"""Where a side may set up in a KGP Initial Scenario: the map group's hexes, hex lines and Entry Areas.

8.51-8.53 bound each side's set-up by hex lines ("on or east of hex line A29-S38-S57"); SSR CG6
makes an Entry Area of the arrow hex and the 4 board-edge hexes each side of it; SSR CG7a keeps a
Reserve 8 hexes from the enemy's set-up area and Entry Areas.  The KGP maps are ASL boards:
flat-topped hexes in lettered columns (:class:`hxref.geometry.hex.AslLabels`).

A hex is *on* a line when the line, drawn from hex centre to hex centre, crosses it (passes
within the hex's inner radius); it is *toward* a side when the straight way from it to a hex
known to be on that side crosses the line, extended past its two ends off the map, an even
number of times.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from ...geometry.hex import SQRT3, AslLabels, Hex, distance, hex_to_pixel

_FAR = 1000.0       # how far a line is drawn past its ends: beyond any map


@dataclass(frozen=True)
class MapGroup:
    """The hexes of a map group: columns ``first_col..last_col``, rows ``first_row..last_row``."""

    prefix: str
    first_col: int
    last_col: int
    first_row: int
    last_row: int

    @cached_property
    def labels(self) -> AslLabels:
        return AslLabels(board_prefix=self.prefix)

    def parse(self, label: str) -> Hex:
        return self.labels.parse(label)

    def name(self, h: Hex) -> str:
        return self.labels.format(h)

    def on_map(self, h: Hex) -> bool:
        col, row = self.labels.to_offset(h)
        return self.first_col <= col <= self.last_col and self.first_row <= row <= self.last_row

    @cached_property
    def hexes(self) -> tuple[Hex, ...]:
        return tuple(self.labels.to_hex(c, r) for c in range(self.first_col, self.last_col + 1)
                     for r in range(self.first_row, self.last_row + 1))

    def edge(self, h: Hex) -> bool:
        """A board-edge hex: one of its neighbours is off the map."""
        return self.on_map(h) and any(not self.on_map(n) for n in h.neighbours())

    def entry_hexes(self, centre: Hex) -> tuple[Hex, ...]:
        """SSR CG6: the arrow hex and the 4 board-edge hexes on each side of it (9 hexes)."""
        return tuple(h for h in self.hexes if self.edge(h) and distance(h, centre) <= 4)

    def column(self, h: Hex) -> int:
        return self.labels.to_offset(h)[0]

    def row(self, h: Hex) -> int:
        return self.labels.to_offset(h)[1]


@dataclass(frozen=True)
class HexLine:
    """A set-up line through hex centres, and a hex on the side a set-up must be on or toward."""

    through: tuple[Hex, ...]
    toward: Hex
    text: str

    @cached_property
    def _points(self) -> list[tuple[float, float]]:
        pts = [hex_to_pixel(h, 1.0) for h in self.through]
        (ax, ay), (bx, by) = pts[0], pts[1]
        (yx, yy), (zx, zy) = pts[-2], pts[-1]
        head = (ax + (ax - bx) * _FAR, ay + (ay - by) * _FAR)
        tail = (zx + (zx - yx) * _FAR, zy + (zy - yy) * _FAR)
        return [head, *pts, tail]

    def on(self, h: Hex) -> bool:
        p = hex_to_pixel(h, 1.0)
        return any(_seg_distance(p, a, b) <= SQRT3 / 2 + 1e-9
                   for a, b in zip(self._points[1:-2], self._points[2:-1]))

    def holds(self, h: Hex) -> bool:
        """On the line, or on the side of :attr:`toward`."""
        if self.on(h):
            return True
        p, q = hex_to_pixel(h, 1.0), hex_to_pixel(self.toward, 1.0)
        crossings = sum(_cross(p, q, a, b) for a, b in zip(self._points, self._points[1:]))
        return crossings % 2 == 0


def _seg_distance(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return float(((px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2) ** 0.5)


def _cross(p, q, a, b) -> int:
    """1 when segment p-q properly crosses segment a-b."""
    def orient(u, v, w) -> float:
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])
    d1, d2, d3, d4 = orient(a, b, p), orient(a, b, q), orient(p, q, a), orient(p, q, b)
    return int(((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 != 0 and d2 != 0)


def distances_from(group: MapGroup, sources: Iterable[Hex]) -> dict[Hex, int]:
    """The hex distance of every hex of the map group from the nearest of ``sources`` (on the map)."""
    out: dict[Hex, int] = {}
    todo: deque[Hex] = deque()
    for h in sources:
        if group.on_map(h) and h not in out:
            out[h] = 0
            todo.append(h)
    while todo:
        h = todo.popleft()
        for n in h.neighbours():
            if n not in out and group.on_map(n):
                out[n] = out[h] + 1
                todo.append(n)
    return out
