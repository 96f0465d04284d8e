"""KGP slope hexsides: Down-Slope and Up-Slope (2.2), the height of a Location for a LOS (2.3: the
+3/4 level) and the Slope TEM (2.41).

* :func:`down_slope_hexsides`, :func:`is_up_slope` (2.2), :func:`los_height`
  and :func:`sight_adjustments` (the +3/4 level, 2.3), :func:`slope_tem` (2.41).
  ASL's obstacle-and-blind-hex LOS that uses these heights is :mod:`.sight`
  (``hxref kgp los``); :func:`sight_adjustments` feeds the sloping sight line
  of :mod:`hxref.geometry.los` instead, for other callers.

Reading chosen where the rules are ambiguous (tests: tests/kgp/test_terrain.py):

* Slope TEM (2.41): "higher level" compares base level plus building level,
  without the +3/4 (2.3: Up-Slope gives no height advantage); a LOS touching
  only a vertex of a Down-Slope hexside crosses it (2.1: vertices included);
  for a Fire Group (A.5) the TEM applies when any firer's fire qualifies (the
  2.41 example's FG of A and B).  Not cumulative: the target gets the better
  of the slope +1 and its other positive TEM, plus Mud/Deep Snow TEM.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from ...base.errors import InvalidInput
from ...geometry.hex import Hex, HexSide, distance
from ...geometry.los import Adjustment, SightTerrain, sight_line, upslope_bonus
from .terrain import (Location, LocationLike, Part, TerrainChart, Unit, UnitLike, _frac, _hex, _label, _loc, _rules,
                      _sides_of, _slope_drawn_in, _unit, mf_text)


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



def los_height(hexmap, location: LocationLike, toward: LocationLike | Hex, chart: TerrainChart) -> LosHeight:
    """The height of ``location`` for a LOS to or from ``toward``: base level + building
    level, + 3/4 when the LOS crosses the hexside that makes it Up-Slope (2.3)."""
    loc = _loc(location)
    h = hexmap.parse(loc.hex)
    o = _hex(hexmap, toward)
    lh, lo = _label(hexmap, h), _label(hexmap, o)
    parts = [Part(_frac(hexmap.elevation(h)), "base level", "2.3")]
    if loc.level:
        from .terrain_locations import steeple_level

        if steeple_level(hexmap, h) == loc.level:
            parts.append(Part(_frac(loc.level), "steeple, above the building's highest level", "5.2"))
        else:
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


def sight_adjustments(hexmap, chart: TerrainChart) -> list[Adjustment]:
    """The KGP adjustments for :func:`hxref.geometry.los.line_of_sight` on ``hexmap``: the +3/4 Up-Slope level (2.3)."""
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


def _target_checks(hexmap, tloc: Location, th: Hex, u: Unit, flamethrower: bool) -> list[Check]:
    """2.41, the target's conditions: Infantry, at ground level, in a hex of 3 (or 2 non-connected)
    Down-Slope hexsides, and not FT fire."""
    return [
        Check(u.infantry, "the target is Infantry" if u.infantry else f"the target is a {u.kind}, not Infantry", "2.41"),
        Check(tloc.level == 0 and tloc.bypass is None, "the target is at ground level" if tloc.level == 0
              else f"the target is at level {tloc.level}, not ground level", "2.41"),
        _hex_qualifies(hexmap, th),
        Check(not flamethrower, "the fire is not a FT" if not flamethrower else "FT fire gets no Slope TEM", "2.41"),
    ]


def _firer_checks(hexmap, f: LocationLike, th: Hex, t_level: Fraction, down: set[HexSide], lt: str) -> list[Check]:
    """2.41, one firer's conditions: not adjacent, a level difference (if higher) less than the range, and
    a LOS crossing one of the target hex's Down-Slope hexsides."""
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
    return f_checks


def _slope_why(lt: str, eligible: bool, tem: int, other_tem: int, mud_or_deep_snow_tem: int, rule: str,
               checks: list[Check]) -> str:
    """2.41: the TEM given (not cumulative with the other positive TEM; plus Mud/Deep Snow), or the
    conditions failed."""
    if not eligible:
        return f"{lt}: no Slope TEM: " + "; ".join(c.text for c in checks if not c.ok) + f" ({rule})"
    why = f"{lt}: +{tem} Slope TEM ({rule})"
    if other_tem >= tem:
        why += f"; not cumulative with the other +{other_tem} TEM: +{max(other_tem, tem)}"
    if mud_or_deep_snow_tem:
        why += f"; plus the Mud/Deep Snow TEM +{mud_or_deep_snow_tem}"
    return why


def slope_tem(
    hexmap,
    target: LocationLike,
    firers: LocationLike | Sequence[LocationLike],
    *,
    flamethrower: bool = False,
    target_unit: UnitLike = "squad",
    other_tem: int = 0,
    mud_or_deep_snow_tem: int = 0,
    chart: TerrainChart,
) -> SlopeTem:
    """May the target claim the +1 Slope TEM against direct fire from ``firers`` (2.41)?

    ``firers``: one Location or a Fire Group (A.5: the TEM applies when any
    firer's fire qualifies).  ``other_tem``: the target's best other positive
    TEM (not cumulative with the slope's); ``mud_or_deep_snow_tem`` is.
    The target's conditions (:func:`_target_checks`), each firer's (:func:`_firer_checks`), then the TEM.
    """
    tloc = _loc(target)
    th = hexmap.parse(tloc.hex)
    lt = _label(hexmap, th)
    u = _unit(target_unit)
    group = [firers] if isinstance(firers, (str, Location)) else list(firers)
    if not group:
        raise InvalidInput("slope_tem needs at least one firer")
    checks = _target_checks(hexmap, tloc, th, u, flamethrower)
    base_ok = all(c.ok for c in checks)
    down = {s for _, s in _sides_of(hexmap, th) if _slope_drawn_in(hexmap, s) == th}
    t_level = _frac(hexmap.elevation(th)) + tloc.level
    any_firer = False
    for f in group:
        f_checks = _firer_checks(hexmap, f, th, t_level, down, lt)
        checks.extend(f_checks)
        if all(c.ok for c in f_checks):
            any_firer = True
    if len(group) > 1:
        checks.append(Check(any_firer, "a Fire Group: the TEM applies if any firer's fire qualifies (A.5)", "2.41; A.5"))
    eligible = base_ok and any_firer
    e = chart.entry("slope.tem")
    tem = int(e.value) if eligible else 0
    combined = max(other_tem, tem) + mud_or_deep_snow_tem
    return SlopeTem(eligible, tem, combined, tuple(checks), e.rule,
                    _slope_why(lt, eligible, tem, other_tem, mud_or_deep_snow_tem, e.rule, checks))
