"""ACW miniatures: the Shooting step (A2 step 2, A3 moving and shooting, A4; C1-C7, C15-C17, B4).

:func:`check_shot` -> :class:`ShotCheck` (field of fire, range, cover, moving and
shooting, the phasing side); :func:`hits` -> :class:`HitRoll` and :func:`cover_hits`
(casualties); :func:`shooting_step` -> :class:`ShootingStep` (every shot of a player
turn: one target per shooter, all hits added at once); :func:`line_of_sight` (B4: there
is none; a house rule, off by default).

Readings (digest F and the C entries named)
-------------------------------------------
* C1 the die is a d6; C2 hits = max(0, d6 + modifier); C3 floor before halving; C4 cover
  halves rounding up (ceil): 7 -> 4, 1 -> 1, 0 -> 0.
* C6 field of fire: the region in front of the front edge plus 45-degree flares from the
  two front corners; a target is eligible when any part of its base is in it; exactly 45
  degrees is in.  Scenario option ``fire_arc_centre`` (``Options(fire_apex="centre")``):
  a +/-45-degree wedge from the centre of the front edge, any part of the target in it.
* C5 a unit is in a town (360-degree fire) or in cover (woods, town) when at least half its
  base lies in such areas (:func:`.units.in_cover`, :func:`.units.fires_all_round`).
* C7 range: the shortest distance from the firer's front edge to the part of the target
  inside the field of fire; for a unit in a town, from any point of its base to any point
  of the target.  Inclusive, with a tolerance of :data:`TOLERANCE` (0.001"): 12.0 is in
  12", 12.1 is not.  Reports give 0.1".
* C15 one target per shooter, all its hits on it; several shooters may pick one target;
  one d6 per shooting unit.  A target is an enemy unit (derived: the rules shoot at the
  enemy).
* C17 only the phasing side's units move and shoot.
* B4 no line of sight: nothing blocks a shot.  ``Options(line_of_sight=True)`` is a house
  rule: the line between the nearest points of the shooter's front edge and the target
  may not cross woods or a town (other than one either unit is in, C5) or another unit's
  base.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from shapely import ops
from shapely.geometry import LineString

from hxref.geometry.table import fire_range, in_fire_arc
from hxref.systems.base import Problem

from .units import (
    DEFAULT_OPTIONS,
    DIE_FACES,
    ELIMINATION_HITS,
    FIRE_ARC,
    MODIFIER,
    R_ARC,
    R_CASUALTIES,
    R_DIE,
    R_LOS,
    R_MOVE_SHOOT,
    R_RANGE,
    R_SEQUENCE,
    R_TARGET,
    R_UNITS,
    RANGE,
    TOLERANCE,
    Options,
    Unit,
    _area_name,
    _flag_areas,
    apply_hits,
    eliminated,
    fires_all_round,
    in_cover,
    partly_in,
    unit_problems,
)

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
    inside = in_cover(table, s) + in_cover(table, t)      # the areas either unit is in (C5) do not block
    for area in _flag_areas(table, "cover"):
        if area in inside:
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


def _partly(who: str, areas: list, share: float, what: str) -> str:
    """C5, for the report: a base partly in woods or a town, but not enough to be in them."""
    if not areas:
        return ""
    return (f"; the {who} has only {share:.0%} of its base in {_area_name(areas[0])}: no {what} (a unit is in "
            f"woods or a town with at least half its base in them, C5)")


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
    refused = _target_refusal(shooter, target, s, t)
    if refused is not None or s is None or t is None:
        return refused or ShotCheck(shooter, target)
    probs = _may_shoot(s, phasing)
    towns = fires_all_round(table, s)
    all_round = bool(towns)
    arc_ok, rng, max_range, fire_probs = _field_and_range(table, s, t, options, all_round)
    probs += fire_probs
    los = line_of_sight(table, units, shooter, target, options=options)
    if los.blocked:
        probs.append(Problem(los.why, los.rule, ["target"]))
    cover = in_cover(table, t)
    warnings = []
    if eliminated(t):
        warnings.append(f"target {t.label()} already at {t.hits} hits (eliminated at {ELIMINATION_HITS}): the shot is wasted")
    why = _shot_why(table, s, t, options, towns, arc_ok, rng, max_range, cover)
    return ShotCheck(shooter, target, rng, max_range, arc_ok, all_round, bool(cover), warnings, why, probs)


def _target_refusal(shooter: str, target: str, s: Unit | None, t: Unit | None) -> ShotCheck | None:
    """A4: both units exist and are sound, and the target is another unit, of the enemy's side;
    the refused check, or None."""
    probs: list[Problem] = []
    if s is None:
        probs.append(Problem(f"there is no unit {shooter!r}", R_TARGET, ["shooter"]))
    if t is None:
        probs.append(Problem(f"there is no unit {target!r} to shoot at", R_TARGET, ["target"]))
    if probs or s is None or t is None:
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
    return None


def _may_shoot(s: Unit, phasing: str | None) -> list[Problem]:
    """C17: only the phasing player's units shoot; A3, C10: a unit that moved does not."""
    probs: list[Problem] = []
    if phasing is not None and s.side != phasing:
        probs.append(Problem(f"{s.label()} may not shoot in {phasing}'s player turn: only the phasing player's units "
                             "shoot", R_SEQUENCE, ["shooter"]))
    if s.moved:
        probs.append(Problem(f"{s.label()} moved this turn and may not shoot", R_MOVE_SHOOT, ["shooter"]))
    return probs


def _field_and_range(table: Any, s: Unit, t: Unit, options: Options,
                     all_round: bool) -> tuple[bool, float | None, int | None, list[Problem]]:
    """C6 field of fire, then C7 range (measured only inside the field of fire): whether the
    target is in the arc, the range, the type's maximum range, and the problems."""
    sb, tb = s.base, t.base
    arc_ok = in_fire_arc(sb, tb, FIRE_ARC, apex=options.fire_apex, all_round=all_round)
    rng = fire_range(sb, tb, FIRE_ARC, apex=options.fire_apex, all_round=all_round) if arc_ok else None
    max_range = RANGE.get(s.type)
    probs: list[Problem] = []
    if not arc_ok:
        how = "from the front corners" if options.fire_apex == "edge" else "from the centre of the front edge"
        town_note = _partly("shooter", *partly_in(table, s, "all_round_fire"), "360-degree fire")
        probs.append(Problem(f"{t.label()} is not within {FIRE_ARC}° of {s.label()}'s front facing ({how})"
                             + town_note, R_ARC + ("; C5" if town_note else ""), ["target"]))
    elif max_range is not None and rng is not None and rng > max_range + TOLERANCE:
        probs.append(Problem(f'{t.label()} is {rng:.1f}" away, beyond {s.label()}\'s range of {max_range}"',
                             R_RANGE, ["target"]))
    return arc_ok, rng, max_range, probs


def _shot_why(table: Any, s: Unit, t: Unit, options: Options, towns: list, arc_ok: bool,
              rng: float | None, max_range: int | None, cover: list) -> str:
    """The shot's report line: field of fire (C6), range (C7), cover (C5)."""
    from_centre = " (from the centre of the front edge, scenario option)" if options.fire_apex == "centre" else ""
    arc_txt = (f"all round (in {_area_name(towns[0])})" if towns
               else f"within {FIRE_ARC}° of the front{from_centre}" if arc_ok else "outside the field of fire")
    rng_txt = f'; range {rng:.1f}" of {max_range}"' if rng is not None else ""
    cov_txt = (f"; target in cover ({_area_name(cover[0])})" if cover
               else _partly("target", *partly_in(table, t, "cover"), "cover"))
    return f"{s.label()} at {t.label()}: {arc_txt}{rng_txt}{cov_txt}"


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
    rolled = [(o, o.roll) for o in outcomes if o.roll is not None]     # all of them: no shot has a problem
    for o, roll in rolled:
        before = state[o.target]
        if eliminated(before):
            warnings.append(f"{state[o.shooter].name or o.shooter} shoots at {before.label()}, already at {before.hits} hits: the shot is wasted (C16)")
        state[o.target] = apply_hits(before, roll.hits)
    total = sum(roll.hits for _, roll in rolled)
    return ShootingStep(tuple(outcomes), state, warnings, f"{len(outcomes)} shot(s), {total} hit(s)")
