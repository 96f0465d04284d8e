"""KGP line of sight by ASL's obstacle-and-blind-hex model, as far as the KGP rules state it (2.3, 6.1, 6.2).

ASL does not draw a sloping sight line: an obstacle between two units blocks when it is not lower than
the higher of them, is seen over when it is not higher than the lower one, and in between the higher
unit sees over it while the hexes right behind it are blind to it (A6.4, whose count of blind hexes is
not in the seed).  :func:`line_of_sight` walks the hexes and hexsides between the two units in that
model, with what KGP adds:

* each unit's height is its base level plus its building level, +3/4 when it is Up-Slope for this LOS
  (2.3, :func:`.slopes.los_height`); slopes are neither hindrances nor obstacles;
* an Up-Slope unit sees across its Up-Slope hexside down to lower levels over the crest of its own
  hill (ground at its base level), even out of a crest-line hex (2.3), where a unit that is not
  Up-Slope is blocked by that crest (the 2.3 example: A at level 3 does not see C, D, G at level 2);
* a hillside wall or hedge (6.1) is ignored for LOS when the two units' levels differ by one full level
  or more (6.2); otherwise it is a wall 1/2 level above the higher of its two hexes (6.3);
* a building level the hex does not have is refused: a steeple adds one Location above the highest
  building level (5.2), a single-hex two-story house has the ground and 1st level (5.3);
* the seed's one count of blind hexes is its 2.3 example (one, behind a building B overlooks by 1/4
  level: K11 blind, L10 seen); it is used inside that example's bounds only (chart ``los.*``).

Where the answer needs ASL rules the seed lacks (the A6.4 count elsewhere, a hill's B10.23 blind hexes,
a wall's, an entrenched unit behind a wall per B9.21) the calculator raises :class:`.terrain.NotCovered`
naming them, rather than guess.  Hindrances (A6.7: AFVs, wrecks, orchards, smoke) are not computed.

Readings (games/kgp/readings.md; tests: tests/kgp/test_sight.py):

* an obstacle whose top equals the lower unit's level is seen over; one equal to the higher unit's
  level blocks (2.3: a unit sees over what is lower than itself), ground at the level of both does not;
* the hex right behind an obstacle (woods, a building) the higher unit sees over is blind, whatever the
  heights (the 2.3 example's K11); behind a hill's crest nothing is answered (B10.23: none down a
  continuous slope); the 6.2 "full level" compares the two units' LOS heights, the +3/4 included.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...base.errors import InvalidInput
from ...geometry.hex import Hex, HexSide, distance, line_steps
from ...geometry.los import SightTerrain, sight_line
from .slopes import LosHeight, los_height
from .terrain import LocationLike, NotCovered, TerrainChart, _frac, _label, _loc, mf_text
from .terrain_locations import check_location

WALLS = ("wall", "hedge")
HILLSIDE_WALLS = ("hillside_wall", "hillside_hedge")        # 6.1


@dataclass(frozen=True)
class Obstacle:
    """One hex, hexside or pair of hexes (a LOS along a hexside) between the units, and what it does.

    ``effect``: ``none`` (the LOS passes over it), ``over`` (the higher unit sees over it and the lower
    unit is not in its blind hexes), ``ignored`` (a rule removes it), ``blocks``, ``blind`` (the lower
    unit is in its blind hex) or ``unknown`` (the answer needs ASL rules the seed lacks)."""

    where: str
    kind: str            # hill, terrain, hexside
    top: Fraction
    effect: str
    text: str
    rule: str


@dataclass(frozen=True)
class Sight:
    """The LOS between two Locations: ``visible``, the obstacle that decides it, and every obstacle met."""

    visible: bool
    viewer: LosHeight
    target: LosHeight
    blocking: Obstacle | None
    obstacles: tuple[Obstacle, ...]
    rules: tuple[str, ...]
    why: str


def hillside_check(hexmap, side: HexSide) -> None:
    """6.1: a hillside wall or hedge lies between two hexes of different base level."""
    a, b = side.hexes
    if set(hexmap.side_features(side)) & set(HILLSIDE_WALLS) and hexmap.elevation(a) == hexmap.elevation(b):
        raise InvalidInput(f"hexside {hexmap.grid.side_label(side)}: a hillside wall or hedge lies between hexes "
                           "of different base level (6.1); use wall or hedge here", file=hexmap.path or None,
                           path=f"hexsides.{hexmap.grid.side_label(side)}", rule="6.1")


def line_of_sight(hexmap, viewer: LocationLike, target: LocationLike, chart: TerrainChart, *,
                  viewer_entrenched: bool = False, target_entrenched: bool = False) -> Sight:
    """Does ``viewer`` see ``target`` (and so, A6.5, the reverse)?  See the module text.

    Raises :class:`.terrain.NotCovered` when the answer needs ASL rules the seed lacks."""
    va, ta = _loc(viewer), _loc(target)
    a, b = hexmap.parse(va.hex), hexmap.parse(ta.hex)
    if a == b:
        raise InvalidInput(f"the viewer and the target are both in {_label(hexmap, a)}: give two hexes")
    for x in (va, ta):
        check_location(hexmap, x)
    if va.culvert or ta.culvert:
        raise InvalidInput("a unit in a culvert sees only the adjacent stream or culvert: culvert_sight (4.2)")
    hv, ht = los_height(hexmap, va, ta, chart), los_height(hexmap, ta, va, chart)
    walk = _Walk(hexmap, chart, a, b, hv, ht)
    for end, entrenched in ((a, viewer_entrenched), (b, target_entrenched)):
        if entrenched:
            walk.entrenchment(end)
    found = walk.hexes() + walk.hexsides()
    found.sort(key=lambda o: o[0])
    obstacles = tuple(o for _, o in found)
    blocking = next((o for o in obstacles if o.effect in ("blocks", "blind")), None)
    unknown = next((o for o in obstacles if o.effect == "unknown"), None)
    if blocking is None and unknown is not None:
        raise NotCovered(f"LOS {_label(hexmap, a)} -> {_label(hexmap, b)}: {unknown.where}: {unknown.text} "
                         f"({unknown.rule})")
    rules = tuple(dict.fromkeys(["2.3"] + [o.rule for o in obstacles if o.effect != "none"]))
    la, lb = _label(hexmap, a), _label(hexmap, b)
    head = (f"{la} (level {mf_text(hv.height)}) -> {lb} (level {mf_text(ht.height)}): ")
    why = head + (f"LOS blocked by {blocking.where}: {blocking.text} ({blocking.rule})" if blocking
                  else "LOS clear (2.3)")
    return Sight(blocking is None, hv, ht, blocking, obstacles, rules, why)


class _Walk:
    """The obstacles between ``a`` and ``b`` and what each does, in the order the LOS meets them."""

    def __init__(self, hexmap, chart: TerrainChart, a: Hex, b: Hex, hv: LosHeight, ht: LosHeight) -> None:
        self.m, self.chart, self.a, self.b = hexmap, chart, a, b
        self.hv, self.ht = hv.height, ht.height
        self.hi, self.lo = max(self.hv, self.ht), min(self.hv, self.ht)
        self.high_end, self.low_end = (a, b) if self.hv >= self.ht else (b, a)
        high_up = hv.up_slope if self.high_end == a else ht.up_slope
        # 2.3: the crest an Up-Slope unit sees over is the ground of its own base level
        self.own_crest = _frac(hexmap.elevation(self.high_end)) if high_up and self.hi > self.lo else None
        self.terrain: SightTerrain = hexmap.sight_terrain()

    def label(self, hexes) -> str:
        return "/".join(_label(self.m, h) for h in hexes)

    # --- hexes --------------------------------------------------------------------------------
    def hexes(self) -> list[tuple[int, Obstacle]]:
        """Every hex between the units (a pair where the LOS runs along a hexside: it is an obstacle only
        where both are, at the lower top)."""
        steps = line_steps(self.a, self.b)
        out = []
        for i, step in enumerate(steps[1:-1], start=1):
            tops = [(_frac(self.terrain.ground(h)) + _frac(self.terrain.obstacle(h)), h) for h in step]
            top, low = min(tops, key=lambda t: t[0])
            hill = self.terrain.obstacle(low) == 0
            o = self.judge(step, top, "hill" if hill else "terrain")
            own = None if hill else (self.m.terrain(low).rules or {}).get("rule")
            if own and o.effect != "none":
                # an obstacle a KGP rule describes (5.3: the two-story house) names that rule too
                o = Obstacle(o.where, o.kind, o.top, o.effect, o.text, f"{o.rule}; {own}")
            out.append((2 * i, o))
        return out

    def judge(self, step: tuple[Hex, ...], top: Fraction, kind: str) -> Obstacle:
        where, hi, lo = self.label(step), self.hi, self.lo
        what = "the ground" if kind == "hill" else "the obstacle"
        lv = mf_text(top)
        if kind == "hill" and top == hi == lo:
            return Obstacle(where, kind, top, "none", f"ground at level {lv}, the level of both units", "2.3")
        if top >= hi:
            return Obstacle(where, kind, top, "blocks", f"{what} at level {lv} is not lower than the higher "
                            f"unit (level {mf_text(hi)})", "2.3")
        if top <= lo:
            return Obstacle(where, kind, top, "none", f"{what} at level {lv} is not higher than the lower "
                            f"unit (level {mf_text(lo)})", "2.3")
        if kind == "hill" and self.own_crest is not None and top == self.own_crest:
            return Obstacle(where, kind, top, "over", f"the crest of the Up-Slope unit's own level {lv}: it sees "
                            "across its Up-Slope hexside to lower levels", "2.3")
        return self.blind(step, top, kind)

    def blind(self, step: tuple[Hex, ...], top: Fraction, kind: str) -> Obstacle:
        """The higher unit sees over ``step`` (2.3); is the lower one in its blind hexes (A6.4)?"""
        where, lv = self.label(step), mf_text(top)
        low = _label(self.m, self.low_end)
        behind = min(distance(h, self.low_end) for h in step)
        rng = min(distance(self.high_end, h) for h in step)
        if kind == "hill":
            # a hill's crest: ASL counts its blind hexes (none down a continuous slope) by B10.23
            return Obstacle(where, kind, top, "unknown", f"{low} is {behind} hex{'es' if behind > 1 else ''} behind "
                            f"a crest at level {lv}: whether it is blind is ASL B10.23/A6.4, not in the seed",
                            "2.3; A6.4")
        if behind == 1:
            return Obstacle(where, kind, top, "blind", f"the higher unit sees over level {lv}, but {low} is the hex "
                            "right behind it: a blind hex (as K11 in the 2.3 example)", "2.3 example")
        c = self.chart
        count, adv_max = c.entry("los.blind_hexes"), c.entry("los.blind_max_advantage")
        rng_max, above_max = c.entry("los.blind_max_range"), c.entry("los.blind_max_above")
        adv, above = self.hi - top, top - self.lo
        if adv < adv_max.value and rng <= rng_max.value and above <= above_max.value and behind > count.value:
            stand = "; stand-in bounds" if adv_max.stand_in or rng_max.stand_in or above_max.stand_in else ""
            return Obstacle(where, kind, top, "over", f"the higher unit is {mf_text(adv)} level above it at range "
                            f"{rng}: {mf_text(count.value)} blind hex behind it, and {low} is {behind} hexes behind "
                            f"(as L10 in the 2.3 example{stand})", "2.3 example")
        return Obstacle(where, kind, top, "unknown", f"{low} is {behind} hexes behind an obstacle at level {lv} the "
                        f"higher unit overlooks by {mf_text(adv)} level at range {rng}: the count of blind hexes is "
                        "ASL A6.4, not in the seed (the 2.3 example gives one, for less than a level over at range "
                        f"{mf_text(rng_max.value)} or less)", "2.3; A6.4")

    # --- hexsides ------------------------------------------------------------------------------
    def hexsides(self) -> list[tuple[int, Obstacle]]:
        """Walls and hedges on the hexsides the LOS crosses between the units (their own hexes' hexsides are
        not in the way: the framework convention of hxref.geometry.los)."""
        line = sight_line(SightTerrain(ground=lambda h: 0), self.a, self.b)
        out = []
        for t in line.sides:
            if self.a in t.hexside.hexes or self.b in t.hexside.hexes:
                continue
            o = self.wall(t.hexside, t.kind)
            if o is not None:
                out.append((t.at, o))
        return out

    def wall(self, side: HexSide, touch: str = "crossed") -> Obstacle | None:
        feats = set(self.m.side_features(side))
        height = _frac(self.terrain.hexside(side)) if self.terrain.hexside else Fraction(0)
        if not height:
            return None
        where = self.m.grid.side_label(side)
        x, y = side.hexes
        top = max(_frac(self.m.elevation(x)), _frac(self.m.elevation(y))) + height
        hillside = feats & set(HILLSIDE_WALLS)
        if hillside:
            hillside_check(self.m, side)
            e = self.chart.entry("hillside_wall.ignore_levels")
            if self.hi - self.lo >= e.value:
                return Obstacle(where, "hexside", top, "ignored", f"a hillside wall/hedge, and the units' levels "
                                f"differ by {mf_text(self.hi - self.lo)}: a full level or more", e.rule)
        if touch != "crossed" and self.lo < top:
            # a LOS along a wall hexside, or through one of its vertices: ASL B9, not in the seed
            side_how = "runs along" if touch == "along" else "passes through a vertex of"
            return Obstacle(where, "hexside", top, "unknown", f"the LOS {side_how} this wall/hedge hexside: ASL B9 "
                            "decides, not in the seed", "2.3; B9")
        if touch != "crossed":
            return Obstacle(where, "hexside", top, "none", f"a wall/hedge at level {mf_text(top)} is not higher "
                            f"than the lower unit (level {mf_text(self.lo)})", "2.3")
        if top >= self.hi:
            return Obstacle(where, "hexside", top, "blocks", f"a {'hillside ' if hillside else ''}wall/hedge at level "
                            f"{mf_text(top)} is not lower than the higher unit (level {mf_text(self.hi)})",
                            "6.2" if hillside else "2.3")
        if top <= self.lo:
            return Obstacle(where, "hexside", top, "none", f"a wall/hedge at level {mf_text(top)} is not higher "
                            f"than the lower unit (level {mf_text(self.lo)})", "2.3")
        apart = (f"a hillside wall/hedge, the units {mf_text(self.hi - self.lo)} level apart: less than a full "
                 "level, so it stands (6.2); " if hillside else "")
        return Obstacle(where, "hexside", top, "unknown", f"{apart}the higher unit sees over a wall/hedge at level "
                        f"{mf_text(top)}: whether the lower unit is in its blind hexes is ASL A6.4/B9, not in the "
                        "seed", "6.2; A6.4" if hillside else "2.3; A6.4")

    def entrenchment(self, end: Hex) -> None:
        """B9.21 (not in the seed) restricts the LOS of a unit in an entrenchment behind a wall or hedge; 2.3
        and 6.2 keep it.  Refused when the LOS leaves such a unit's hex across a wall or hedge."""
        line = sight_line(SightTerrain(ground=lambda h: 0), self.a, self.b)
        for t in line.first_side(end):
            if set(self.m.side_features(t.hexside)) & set(WALLS + HILLSIDE_WALLS):
                raise NotCovered(f"{_label(self.m, end)} is in an entrenchment behind the wall/hedge "
                                 f"{self.m.grid.side_label(t.hexside)}: its LOS is restricted by ASL B9.21, not in "
                                 "the seed (2.3, 6.2)")
