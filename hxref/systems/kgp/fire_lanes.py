"""KGP Fire Lanes across slopes: "same base level" (2.31) and the +1 Fire-Lane Slope DRM (2.42).

* :func:`fire_lane_drm` -- may Infantry attacked by a Fire Lane claim the +1 Fire-Lane Slope DRM?
  The seed's whole test: the Fire Lane comes from an Up-Slope position 3/4 level higher than the
  target, and the firer is not adjacent to it (2.42).  A Fire-Lane Snap Shot (A9.221) at a hexside
  gets it only when LOS traced separately to each of the hexside's two hexes meets every condition.
  A Fire Lane whose LOF crosses a slope hexside reads "same level" as "same base level" (2.31), so
  from a firer on a slope it has no effect on a target at another base level (2.42).

The Fire Lane rules themselves (A9.22: who lays one, which Locations it attacks, at what FP) are ASL,
not in the seed: this answers only what KGP adds.

Readings (games/kgp/readings.md; tests: tests/kgp/test_fire_lanes.py):

* "from an Up-Slope position 3/4 level higher than the target": the firer is Up-Slope for the LOS to
  that target hex (2.2) and its LOS height (2.3, :func:`.slopes.los_height`) is at least 3/4 level
  above the target's; a LOF "crosses" a slope hexside when it crosses it or meets one of its vertices
  (2.1: vertices included), as for Up-Slope itself.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...base.errors import InvalidInput
from ...geometry.hex import Hex, HexSide, distance
from ...geometry.los import SightTerrain, sight_line
from .slopes import Check, is_up_slope, los_height
from .terrain import Location, LocationLike, TerrainChart, UnitLike, _label, _loc, _slope_drawn_in, _unit, mf_text


@dataclass(frozen=True)
class FireLaneDrm:
    """The Fire-Lane Slope DRM (2.42) for Infantry in ``targets`` (one hex, or a Snap Shot hexside's two).

    ``no_effect``: the LOF crosses a slope and every target hex is at another base level than the
    firer, so the Fire Lane does not attack there at all (2.31, 2.42)."""

    eligible: bool
    drm: int
    no_effect: bool
    targets: tuple[str, ...]
    snap_shot: str | None
    checks: tuple[Check, ...]
    rule: str
    why: str


def _crosses_slope(hexmap, a: Hex, b: Hex) -> HexSide | None:
    """The first slope hexside the LOF from ``a`` to ``b`` crosses or meets at a vertex (2.31)."""
    line = sight_line(SightTerrain(ground=lambda h: 0), a, b)
    for t in line.sides:
        if t.kind in ("crossed", "vertex") and _slope_drawn_in(hexmap, t.hexside) is not None:
            return t.hexside
    return None


def _hex_checks(hexmap, floc: Location, fh: Hex, th: Hex, t_level: int, chart: TerrainChart) -> tuple[list[Check], bool]:
    """2.42 for one target hex: the checks, and whether the Fire Lane attacks there at all (2.31)."""
    lf, lt = _label(hexmap, fh), _label(hexmap, th)
    tloc = Location(lt, t_level)
    rng = distance(fh, th)
    checks = [Check(rng > 1, f"{lt}: the firer in {lf} is {'not adjacent' if rng > 1 else 'adjacent'}", "2.42")]
    slope = _crosses_slope(hexmap, fh, th)
    same_base = hexmap.elevation(fh) == hexmap.elevation(th)
    affects = slope is None or same_base
    if slope is not None:
        checks.append(Check(same_base, f"{lt}: the LOF crosses the slope {hexmap.grid.side_label(slope)}, so "
                            f"\"same level\" is the same base level: {lt} is at base level "
                            f"{mf_text(hexmap.elevation(th))}, {lf} at {mf_text(hexmap.elevation(fh))}", "2.31; 2.42"))
    up = is_up_slope(hexmap, fh, th)
    checks.append(Check(up, f"{lt}: {lf} is {'' if up else 'not '}Up-Slope for the LOS to it", "2.42"))
    need = chart.entry("fire_lane.slope_levels")
    hf = los_height(hexmap, floc, tloc, chart).height
    ht = los_height(hexmap, tloc, floc, chart).height
    diff = hf - ht
    checks.append(Check(diff >= need.value, f"{lt}: the firer is {mf_text(diff)} level{'' if abs(diff) <= 1 else 's'} "
                        f"higher (level {mf_text(hf)} over {mf_text(ht)}); {mf_text(need.value)} is needed", need.rule))
    return checks, affects


def fire_lane_drm(
    hexmap,
    firer: LocationLike,
    target: LocationLike | None = None,
    *,
    snap_shot: str | HexSide | None = None,
    target_unit: UnitLike = "squad",
    chart: TerrainChart,
) -> FireLaneDrm:
    """May Infantry attacked in ``target`` by a Fire Lane from ``firer`` claim the +1 Fire-Lane Slope DRM
    (2.42)?  With ``snap_shot`` (a hexside, A9.221) instead of ``target``, both of its hexes must qualify."""
    floc = _loc(firer)
    fh = hexmap.parse(floc.hex)
    if (target is None) == (snap_shot is None):
        raise InvalidInput("fire_lane_drm takes a target hex or a Snap Shot hexside, not both")
    side_label = None
    if snap_shot is not None:
        side = snap_shot if isinstance(snap_shot, HexSide) else hexmap.grid.parse_hexside(str(snap_shot))
        side_label = hexmap.grid.side_label(side)
        hexes, t_level = list(side.hexes), 0
    else:
        assert target is not None
        tloc = _loc(target)
        hexes, t_level = [hexmap.parse(tloc.hex)], tloc.level
    if fh in hexes:
        raise InvalidInput(f"the firer's hex {_label(hexmap, fh)} is the target's: a Fire Lane attacks other hexes")
    u = _unit(target_unit)
    checks = [Check(u.infantry, "the target is Infantry" if u.infantry else f"the target is a {u.kind}, not Infantry",
                    "2.42")]
    affected = []
    for th in hexes:
        hex_checks, affects = _hex_checks(hexmap, floc, fh, th, t_level, chart)
        checks.extend(hex_checks)
        affected.append(affects)
    if side_label is not None:
        checks.append(Check(all(c.ok for c in checks), f"a Snap Shot on {side_label}: both hexes must meet every "
                            "condition (A9.221)", "2.42"))
    e = chart.entry("fire_lane.slope_drm")
    eligible = all(c.ok for c in checks)
    drm = int(e.value) if eligible else 0
    no_effect = not any(affected)
    labels = tuple(_label(hexmap, h) for h in hexes)
    what = side_label or labels[0]
    if no_effect:
        why = (f"{what}: the Fire Lane from {_label(hexmap, fh)} crosses a slope and has no effect at another base "
               "level (2.31, 2.42)")
    elif eligible:
        why = f"{what}: +{drm} Fire-Lane Slope DRM ({e.rule})"
    else:
        why = f"{what}: no Fire-Lane Slope DRM: " + "; ".join(c.text for c in checks if not c.ok) + f" ({e.rule})"
    # a Fire Lane with no effect fails its base-level check: never eligible
    return FireLaneDrm(eligible, drm, no_effect, labels, side_label, tuple(checks), e.rule, why)
