"""The Combat Sequence: rules 10.0-10.71 (with 3.25, 3.52-3.55 and 9.14-9.15).

Three layers, each pure:

1. **One fire** (10.11 steps 1-3): :func:`stack_strength` (CF, halvings, ASP,
   artillery, defensive support), :func:`fire_shifts` and :func:`read_column`
   (the FERT column), :func:`fire_drms` (the DRMs) and :func:`fire`, which
   rolls the die and reads the cell.  Every result says why.
2. **One target's combat** (10.11, 10.6x): :func:`resolve_combat` fires every
   exchange of a (wave) attack, then works the results out in the order of
   10.61 on a *copy* of the state and returns a :class:`Combat` whose
   ``effects`` are small frozen records (:class:`StepLoss`, :class:`MlChange`,
   :class:`MoveStack` ...).
3. **Effects**: :func:`apply_effect` (one ``singledispatch`` function) and
   :func:`apply_combat` change a state; they roll no dice.

Extended battle (10.7, 10.71): :func:`extended_battle`, :func:`extended_assault`,
:func:`in_contact`.

Readings chosen where the rules are ambiguous (pinned by
``tests/heartland/test_combat.py`` and ``test_combat_example.py``):

* 10.12a with the 10.7 example (the example is the authority; games/heartland/readings.md, "Combat"): a defender
  attacked in waves pays once, before the first resolution, as 10.12 says (the OC 1 general, each
  leader using his artillery 1: Longstreet 2 and Hood 1 in H-1, "before the combat", for all
  three fires), and every later resolution fires on that payment: the ammunition state of the
  first resolution, nothing paid again (``Strength.covered`` names what it fires on).  An OC
  who could not pay the general ASP halves the stack at every wave; a leader who paid his last
  ASP at the first resolution is not short at the later ones.  An extended battle is a new
  combat and pays anew (10.71).
* 10.12/10.23 ASP state is judged per leader's box before the resolution's
  payments; the OC pays the general ASP first, then each leader using his
  artillery pays 1 (an OC needs 2 to do both).  Unled stacks pay nothing,
  use no artillery and are never short of ammunition (7.33).
* Halvings compound across *causes* (10.5): inactive defending OC (10.21, CF
  and artillery), forced march (10.22, CF and artillery) and *ammunition*.
  Ammunition is one cause, counted once per unit: out of supply (7.32, which
  by definition is "out of communication without ASP"), a box leader with no
  ASP (10.12b, 10.23(3)) and an OC who cannot pay the general ASP (10.23:
  the whole stack).  So H-26 (out of supply + forced march) is a quarter and
  H-7's OC with no ASP halves the stack once.  Units sharing a halving factor
  are summed before rounding up.
* 10.21: only the OC's state counts (an inactive SL under an active OC is not
  halved); an attacking stack with an inactive OC does not fire and is not
  fired on, and does not count as a wave.
* 9.14/9.15 support adds half (rounded up, computed by
  :func:`.reaction.defensive_support`) of the supporter's printed CF and
  artillery, after the stack's own halvings; supporters pay no ASP; their
  cavalry and broken units do not count; they take no result and their
  leaders gain no ML (10.64) and roll no casualty check (10.67).
* 10.31: ML superiority of the two stacks exchanging fire (the hex OC's ML, or
  an unled stack's worst unit ML inverted, 3.52b), judged per exchange.
* 10.32 terrain from ``fert.yaml``'s ``terrain_shifts`` (stand-in); an
  entrenchment's level is read from ``state["entrenchments"][hex]`` (an int
  or ``{level: n}``) unless :class:`Circumstances` gives it; a town in
  ``state["devastated"]`` and a bridge in ``state["burned_bridges"]`` are gone
  (13.11, 13.12: an unbridged river shifts as such).
* 10.43: cavalry CF and unit counts of the two stacks exchanging fire (living
  units, printed CF of the side showing); equal CF gives nobody anything.
* 10.44: each side counts the broken units of its own firing stack (their CF
  still counts: the rule gives only the DRM).
* 10.61b vs 10.65: the leader casualty checks (10.67) are made *before* the
  morale checks so that 10.65's exception can work: a stack whose OC was
  killed skips its morale check.  Order: step losses, capture of wiped-out
  forces, ML rise, casualties, morale checks, artillery loss, netted
  retreats, advance, then the 1-hex retreats of failed morale checks.
* 10.62: the defender makes one morale check however many wave fires gave
  it an asterisk; each attacking stack checks for its own return fire.
* 10.63: the k-th step loss of a result is chosen by the owner when k is odd,
  by the enemy when even, each from its ``loss_order`` (default: owner the
  weakest unit first, enemy the strongest); a unit takes a second step only
  when every unit of the pool has taken one in this combat.  Extra losses
  (failed morale check, enemy-ZOC hexes entered in a retreat) are chosen by
  the owner under the same no-concentration tally.
* 10.63b: a force (not the whole hex) whose every unit is eliminated has all
  its leaders captured; an HQ goes to ``state["hq_pool"][side]``.
* 10.64: "more step losses" compares the cells' losses (FERT only).
* 10.65 with 3.52b: in an unled stack each unit checks for itself (a roll
  *below* its own inverted ML, as the 3.52b example has each unit roll); a
  unit that fails takes the extra step loss itself, and the units that failed
  retreat 1 hex together while the others stay.
* 10.66: a side that used no artillery in that fire has nothing to lose and
  does not roll; the owner names the leader who loses (default the user with
  most artillery); captured artillery goes to the opposing stack's OC (or
  ``artillery_gain``); an unled opponent cannot take it.
* 10.67: the side that rolled the natural 6 checks **its own** leaders (the
  literal wording, parallel to 10.66), every leader of its firing stack.  A
  killed leader's box, SLs, artillery and ASP pass to his superior, or to his
  most senior SL if he headed the force; with neither, his units are unled in
  the hex.  The dead leader is kept with ``killed: true``; an HQ marker he
  held goes to the pool as on a capture (14.61 is missing).  A wound adds
  its level to ``leaders[id]["wound"]`` (the key :mod:`.reorganization`
  heals a level a turn); every rating read (BR here) is the printed one of
  the side showing less the wound and less 1 under a brevet marker (14.51,
  :func:`.model.current_rating`), not below 0 (ML is not a rating).
* 3.53(3c)/(3d) and 10.68: a retreat by combat result costs the OC 1 ML, and
  passing through enemy ZOC 1 more (once); the 1-hex retreat of a failed
  morale check costs only 10.65's 1 ML (plus 1 for ZOC).
* 10.68 routes: the route is chosen by the side with more cavalry CF (the
  retreating stack against all enemy stacks of the combat, after losses),
  else by the retreating side.  A route is N distinct adjacent hexes, never
  into enemy combat units nor across prohibited terrain or an unbridged major
  river; it must enter as few enemy-ZOC hexes as possible and, when such a
  route exists, end nearer a friendly supply source, depot or wagon than it
  started.  A friendly unit does not cancel enemy ZOC for a retreat (3.61
  says so only for supply lines).  No route: the stack is eliminated.
* 10.62: when the attackers received the larger total, every attacking stack
  retreats the net number of hexes.  Losses beyond the steps a pool has are
  lost (noted as a ``losses`` check).
* 3.54b: one commander of the retreating side (the OC of one of its stacks)
  gives up 1 ML to cancel 1 hex of the netted retreat (not of a morale-check
  retreat); in a wave it shortens every attacking stack's retreat.
* 10.61d advance: into the hex vacated by retreat or elimination, by a
  victorious stack (or ``advance_parts`` of it, without AP).
* 10.71: the extended-battle attack costs the attacking OC 1 AP and needs no
  check (H-1's "all AP used up" is read as after that payment); the
  phasing side keeps the +1 wave shift of its stacks that had it.

The code is split by layer: :mod:`.combat_fire` (one fire), :mod:`.combat_results`
(one target's combat and its results) and :mod:`.combat_effects` (the effects);
this module keeps the extended battle and re-exports every name of the three, so
``from .combat import X`` works as before.
"""
from __future__ import annotations

# Re-exported for ``from .combat import X`` (and ``combat.X``) written before the split.
import copy  # noqa: F401
from dataclasses import dataclass, field
from functools import singledispatch  # noqa: F401
from typing import Collection, Iterable, Mapping, Sequence  # noqa: F401

from .state_types import FullGameState
from ...geometry.hex import HexSide  # noqa: F401
from ...geometry.hex import distance as hex_distance  # noqa: F401
from ..base import Problem
from . import forces as fc
from . import model
from .attack import Assault, default_passable, enemy_zoc, neighbours  # noqa: F401
from .names import force_name
from .combat_effects import (  # noqa: F401
    ArtilleryChange, Capture, Kill, MlChange, MoveStack, SpendAsp, StepLoss, Wound, _remove_leader, apply_combat,
    apply_effect)
from .combat_fire import (  # noqa: F401
    CAVALRY_DRM, HASTY_DRM, WEATHER_DRM, AspPayment, Cavalry, Circumstances,
    ColumnRead, Drm, Fire, Strength, _ceil_div, _entrenchment, _forced, _gone, _offset, _supply_of, _weather,
    cavalry_superiority, fire, fire_drms, fire_shifts, leader_rating, read_column, stack_cavalry, stack_leaders,
    stack_ml, stack_oc, stack_strength, stack_units)
from .combat_results import (  # noqa: F401
    ML_MAX, ML_MIN, ROUTE_SEARCH_LIMIT, Check, Choices, Combat, Exchange, RetreatPlan, _auto_supports,
    _defender_forces, _enemy_unit_hexes, _Results, _spend, _Stack, allocate_losses, plan_retreat, resolve_combat,
    supply_points)
from .fert import Cell, Fert, Shift  # noqa: F401
from .forces import APCharge
from .reaction import supports_for  # noqa: F401


# --- extended battle (10.7, 10.71) -------------------------------------------------------

@dataclass
class ExtendedBattle:
    """10.71: who chose the extended battle, who attacks, what it cost."""

    phasing: str
    asked: list[tuple[str, bool]] = field(default_factory=list)
    chooser: str | None = None
    attacker_side: str | None = None
    levels_paid: dict[str, int] = field(default_factory=dict)
    levels_left: dict[str, int] = field(default_factory=dict)
    wave_shift_kept: frozenset[str] = frozenset()
    new_asp: bool = True
    problems: list[Problem] = field(default_factory=list)
    rule: str = "10.71"
    why: str = ""


def extended_battle(phasing: str, answers: Mapping[str, bool], *, levels_left: Mapping[str, int],
                    already_fought: bool = False, earlier: Sequence[Combat] = ()) -> ExtendedBattle:
    """10.7/10.71: the phasing side is asked first, then the non-phasing side; the one who chooses pays
    1 operation level and is the attacker; only the phasing side's wave shift carries over."""
    eb = ExtendedBattle(phasing, levels_left=dict(levels_left))
    other = model.other_side(phasing)
    if already_fought:
        eb.problems.append(Problem("an extended battle is fought only once", "10.71", []))
        eb.why = "no extended battle: " + eb.problems[0].message
        return eb
    for side in (phasing, other):
        yes = bool(answers.get(side, False))
        eb.asked.append((side, yes))
        if not yes:
            continue
        if eb.levels_left.get(side, 0) < 1:
            eb.problems.append(Problem(f"{side} has no operation level left to pay", "10.7", [side]))
            continue
        eb.chooser = eb.attacker_side = side
        eb.levels_paid = {side: 1}
        eb.levels_left[side] -= 1
        break
    if eb.chooser == phasing:
        eb.wave_shift_kept = frozenset(x.assault.attacker for c in earlier for x in c.exchanges
                                       if not x.cancelled and x.wave >= 2)
    said = "; ".join(f"{s} {'accepts' if y else 'declines'}" for s, y in eb.asked)
    eb.why = (f"{said}: " + (f"{eb.chooser} pays 1 operation level and attacks; new ASP; everything is recomputed"
                             + (f"; {', '.join(sorted(eb.wave_shift_kept))} keep the wave shift"
                                if eb.wave_shift_kept else "")
                             if eb.chooser else "no extended battle"))
    return eb


def in_contact(state: FullGameState, hexmap, side: str) -> list[tuple[str, str]]:
    """10.7: ``side``'s forces (with living units) adjacent to enemy combat units: (force, enemy hex)."""
    enemy = _enemy_unit_hexes(state, side)
    out = []
    for f in model.forces(state, side):
        if not model.units_of(state, f, side):
            continue
        for n in neighbours(hexmap, model.force_hex(state, f)):
            if n in enemy:
                out.append((f, n))
    return out


@dataclass
class ExtendedAttack:
    assault: Assault | None
    charges: list[APCharge] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rule: str = "10.71"
    why: str = ""


def extended_assault(state: FullGameState, hexmap, force: str, target: str) -> ExtendedAttack:
    """10.71: a force in contact attacks one adjacent enemy hex: 1 AP of its OC, no attack check."""
    side = model.force_side(state, force)
    here = model.force_hex(state, force)
    p: list[Problem] = []
    if target not in neighbours(hexmap, here):
        p.append(Problem(f"{target} is not adjacent to {here}", "10.71", ["target"]))
    elif target not in _enemy_unit_hexes(state, side):
        p.append(Problem(f"no enemy combat units in {target}", "10.71", ["target"]))
    oc = fc.force_oc(state, force)
    charges = []
    if oc is None:
        p.append(Problem("an unled force has no OC to pay the 1 AP of an extended-battle attack", "10.71", ["force"]))
    else:
        charges = [APCharge(oc, 1, "10.71", f"{oc} attacks {target} in the extended battle (no check)")]
        p += fc.ap_problems(state, charges)
    a = None if p else Assault(force, here, target, False, True, "10.71")
    L = state["leaders"]
    why = (f"{force_name(L, force)} attacks {target} in the extended battle: {force_name(L, str(oc))} pays 1 AP "
           "instead of an attack check" if a
           else "no extended-battle attack: " + "; ".join(x.message for x in p))
    return ExtendedAttack(a, charges, p, "10.71", why)
