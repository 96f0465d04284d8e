"""Line of sight on a hex map: a framework the game systems adjust.

The terrain comes as callables (:class:`SightTerrain`): the ground level of
each hex, the height of the obstacle in it (woods, buildings) above its
ground, and the height of hexside obstacles (walls, hedges) above the higher
of their two hexes.  Heights are in levels and may be fractions (a 3/4-level
bonus, a 1/2-level wall).

The sight line runs from the centre of the observer's hex to the centre of
the target's, at the observer's height (ground + ``observer_level``) rising
or falling evenly to the target's.  It is sampled at every hex of the exact
hex line (:func:`hxref.geometry.hex.line_steps`):

* an intermediate hex blocks when its obstacle top is **higher** than the
  sight line there (same level does not block);
* where the line runs exactly **along a hexside**, it is blocked only if the
  hexes on **both** sides block -- the wargame convention, decided exactly;
* a crossed hexside with an obstacle blocks when the obstacle top is higher
  than the sight line half-way between the two hex centres;
* the observer's and the target's own hexes and hexsides never block.

Comparisons are made after multiplying out the fractions, so they are
exact for heights that are multiples of 1/4 (or any binary fraction).

A game system adjusts the framework with ``adjustments``: functions that take
the :class:`SightLine` and return a changed one (other heights, say) or a
final :class:`LosResult`.  :func:`upslope_bonus` is such an adjustment, for
the KGP rule that an Up-Slope location is 3/4 level higher when the LOS
crosses its slope hexside.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Sequence, Union

from .hex import Hex, HexSide, distance, line_steps


@dataclass(frozen=True)
class SightTerrain:
    """What LOS needs to know about a map, as callables."""

    ground: Callable[[Hex], float]
    obstacle: Callable[[Hex], float] = lambda h: 0
    hexside: Callable[[HexSide], float] | None = None


@dataclass(frozen=True)
class SightStep:
    """One sample point of the sight line: ``index`` of ``n``; one hex, or two along a hexside."""

    index: int
    hexes: tuple[Hex, ...]
    tops: tuple[float, ...]


@dataclass(frozen=True)
class SideTouch:
    """A hexside the sight line meets.

    ``kind`` is ``"crossed"`` (from one hex into the next), ``"vertex"`` (the
    line passes through an end of this hexside) or ``"along"`` (the line runs
    on it).  ``at`` is the position in half steps (``at / (2 n)`` of the way).
    """

    hexside: HexSide
    at: int
    kind: str
    top: float | None


@dataclass(frozen=True)
class SightLine:
    """Everything the LOS decision looks at; adjustments may change it."""

    observer: Hex
    target: Hex
    n: int
    observer_height: float
    target_height: float
    steps: tuple[SightStep, ...]
    sides: tuple[SideTouch, ...]

    def line_height_times(self, at: int, den: int) -> float:
        """``den`` times the sight line's height at ``at/den`` of the way (exact for binary fractions)."""
        return self.observer_height * (den - at) + self.target_height * at

    def first_side(self, of: Hex) -> list[SideTouch]:
        """The hexsides of ``of`` (the observer or the target) that the line leaves or enters by."""
        return [t for t in self.sides if of in t.hexside.hexes and t.kind in ("crossed", "vertex")]


@dataclass(frozen=True)
class LosResult:
    """Visible or blocked, and by what (a hex, or a hexside)."""

    visible: bool
    blocking: Hex | HexSide | None
    reason: str
    line: SightLine | None = None

    def __bool__(self) -> bool:
        return self.visible


Adjustment = Callable[[SightLine], Union[SightLine, LosResult]]


def sight_line(terrain: SightTerrain, observer: Hex, target: Hex, observer_level: float = 0, target_level: float = 0) -> SightLine:
    """The sampled sight line between two hexes, before any decision."""
    ground, obstacle, side_height = terrain.ground, terrain.obstacle, terrain.hexside
    raw = line_steps(observer, target)
    n = len(raw) - 1
    steps = []
    for i, hs in enumerate(raw):
        tops = tuple(ground(h) + obstacle(h) for h in hs) if 0 < i < n else tuple(ground(h) for h in hs)
        steps.append(SightStep(i, hs, tops))
    sides: list[SideTouch] = []

    def touch(side: HexSide, at: int, kind: str) -> None:
        top = None
        if side_height is not None:
            h = side_height(side)
            if h:
                top = max(ground(side[0]), ground(side[1])) + h
        sides.append(SideTouch(side, at, kind, top))

    side = HexSide._adjacent
    for i in range(n):
        here, nxt = raw[i], raw[i + 1]
        if len(here) == 1 and len(nxt) == 1:
            touch(side(here[0], nxt[0]), 2 * i + 1, "crossed")
            continue
        if len(here) == 2:
            touch(side(*here), 2 * i, "along")
        for x in here:
            for y in nxt:
                if distance(x, y) == 1:
                    touch(side(x, y), 2 * i + 1, "vertex")
    return SightLine(
        observer,
        target,
        n,
        ground(observer) + observer_level,
        ground(target) + target_level,
        tuple(steps),
        tuple(sides),
    )


def decide(line: SightLine) -> LosResult:
    """The framework's verdict on a (possibly adjusted) sight line; see the module text."""
    n = line.n
    den2 = 2 * n
    events: list[tuple[int, int, object]] = []  # (position in half steps, order, item)
    for st in line.steps[1:-1]:
        events.append((2 * st.index, 0, st))
    for t in line.sides:
        if t.kind == "crossed" and t.top is not None:
            if line.observer in t.hexside.hexes or line.target in t.hexside.hexes:
                continue
            events.append((t.at, 1, t))
    events.sort(key=lambda e: (e[0], e[1]))
    for at, _, item in events:
        height2 = line.line_height_times(at, den2)
        if isinstance(item, SightStep):
            if all(top * den2 > height2 for top in item.tops):
                if len(item.hexes) == 1:
                    return LosResult(False, item.hexes[0], "an obstacle in this hex is higher than the line of sight", line)
                return LosResult(False, HexSide(*item.hexes), "the line of sight runs along this hexside and both hexes block it", line)
        else:
            assert isinstance(item, SideTouch) and item.top is not None
            if item.top * den2 > height2:
                return LosResult(False, item.hexside, "a hexside obstacle is higher than the line of sight", line)
    return LosResult(True, None, "clear", line)


def line_of_sight(
    terrain: SightTerrain,
    observer: Hex,
    target: Hex,
    observer_level: float = 0,
    target_level: float = 0,
    adjustments: Sequence[Adjustment] = (),
) -> LosResult:
    """Can ``observer`` see ``target``?  Returns the verdict and the blocking hex or hexside.

    ``observer_level`` and ``target_level`` are heights above the hex's
    ground (an upper building level, say).  Each adjustment may change the
    sight line or decide the result itself.
    """
    line = sight_line(terrain, observer, target, observer_level, target_level)
    for adjust in adjustments:
        out = adjust(line)
        if isinstance(out, LosResult):
            return out
        line = out
    return decide(line)


def upslope_bonus(slope_drawn_in: Callable[[HexSide], Hex | None], bonus: float) -> Adjustment:
    """An adjustment for slope hexsides (KGP 2.3): the Up-Slope end of the LOS is ``bonus`` levels higher.

    ``slope_drawn_in(side)`` returns the hex a slope hexside's hachures are
    drawn in (that hex is Down-Slope across it), or None when ``side`` is no
    slope.  The observer or the target is Up-Slope when the line leaves or
    enters its hex across (or at a vertex of) a slope hexside drawn in the
    *other* hex.  The system's data supplies ``bonus`` (KGP: 3/4).
    """

    def is_upslope(line: SightLine, end: Hex) -> bool:
        for t in line.first_side(end):
            drawn = slope_drawn_in(t.hexside)
            if drawn is not None and drawn != end:
                return True
        return False

    def adjust(line: SightLine) -> SightLine:
        oh, th = line.observer_height, line.target_height
        if is_upslope(line, line.observer):
            oh += bonus
        if is_upslope(line, line.target):
            th += bonus
        return replace(line, observer_height=oh, target_height=th)

    return adjust
