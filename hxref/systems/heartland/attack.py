"""The attack check: rules 8.4, 8.41, 8.42 (with 3.53(3a), 3.55 and 3.61).

A phasing force adjacent to an enemy stack that exerts ZOC on it must check
against that stack; next to enemy units that exert no ZOC it may.  The OC
pays 1 AP and rolls 1d6 against his BR; success places an Assault marker,
failure costs a 1-hex retreat, one step and 1 ML of the OC.

Readings chosen where the rules are ambiguous (pinned by
``tests/heartland/test_attack.py``):

* 8.41 vs 3.52b, an unled force: each unit checks for itself against its own
  inverted ML (6 - ML) and passes only on a roll *below* it (3.52b names the
  attack check explicitly, 自身の戦意値; its example has each unit roll).  The
  units that pass attack (the Assault marker stays with them); each unit that
  fails loses 1 step itself and those left retreat 1 hex together (8.41a).
* 8.41 hasty attack: with 0 AP a force must still check only when the target
  exerts ZOC on it (the check is compulsory); an optional check (8.4, no
  ZOC) needs the AP.
* 8.1: an inactive OC may not declare an attack; if he is compelled (the
  target's ZOC is on him) he checks, and 10.21 later stops the combat.
* 8.41a retreat: 1 hex into a passable adjacent hex without enemy units,
  and out of enemy ZOC if any such hex exists; otherwise into enemy ZOC.
  The owner chooses (``retreat_to``; default the first hex in the map's
  order).  With no hex at all the force stays (the text says nothing).
* 8.41a step loss: the owner chooses the unit (``step_loss``; default the
  first living unit of the force).  Only the OC loses ML (3.55), never
  below 0.
* 8.42 joining: the entering force's OC pays the 1 AP of the merge (8.25a,
  the merging force's OC); unled units entering are taken into the box of
  the assaulting force's OC, who pays.  Stacking must stay legal.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .state_types import FullGameState
from ...geometry.paths import is_prohibited
from ..base import Problem
from . import forces as fc
from . import model
from .forces import APCharge
from .names import surname, unit_label
from .zoc import zoc_hexes

HASTY_DRM = -2          # 8.41, 10.41a
#: the AP an OC pays to declare an attack check; with none left a compelled check is a hasty attack (8.41)
CHECK_AP = 1


@dataclass(frozen=True)
class Assault:
    """An Assault marker: ``attacker`` (a force) in ``source`` attacks hex ``target``."""

    attacker: str
    source: str
    target: str
    hasty: bool = False
    automatic: bool = False      # 9.23 pursuit or 8.42 join: no AP, no check
    rule: str = "8.41"


def default_passable(hexmap) -> Callable[[str, str], bool]:
    """Passability from the map's step cost: prohibited terrain and hexsides (an unbridged major river,
    a mountain off the road) cannot be crossed."""
    cost = hexmap.step_cost()

    def passable(a: str, b: str) -> bool:
        return not is_prohibited(cost(hexmap.parse(a), hexmap.parse(b)))

    return passable


def neighbours(hexmap, label: str) -> list[str]:
    h = hexmap.parse(label)
    return [hexmap.label(n) for n in h.neighbours() if n in hexmap.grid]


def enemy_zoc(state: FullGameState, hexmap, side: str) -> dict[str, set[str]]:
    """Hexes in the ZOC of ``side``'s enemy -> the enemy hexes exerting it."""
    return zoc_hexes(state, model.other_side(side), hexmap)


def retreat_hexes(state: FullGameState, hexmap, force_id: str, passable=None) -> tuple[list[str], str]:
    """8.41a: the hexes a force may retreat 1 hex into, and a note on how they were chosen.

    Passable, adjacent, no enemy units; out of enemy ZOC if any such hex exists."""
    passable = passable or default_passable(hexmap)
    side = model.force_side(state, force_id)
    here = model.force_hex(state, force_id)
    enemy_units = model.occupied_hexes(state, model.other_side(side))
    zoc = enemy_zoc(state, hexmap, side)
    open_ = [n for n in neighbours(hexmap, here) if n not in enemy_units and passable(here, n)]
    free = [n for n in open_ if n not in zoc]
    if free:
        return free, "adjacent hexes free of enemy units and enemy ZOC"
    if open_:
        return open_, "every open adjacent hex is in enemy ZOC: the retreat enters it"
    return [], "no adjacent hex can be entered"


@dataclass
class AttackCheck:
    """One attack check (8.41) and its consequences."""

    force: str
    side: str
    oc: str | None
    source: str
    target: str
    compulsory: bool = False
    rating: int = 0              # BR, or the unled inverted ML
    brevet_note: str = ""        # how a brevet marker lowered the BR (14.51)
    unled: bool = False
    roll: int | None = None
    passed: bool = False
    hasty: bool = False
    charges: list[APCharge] = field(default_factory=list)
    assault: Assault | None = None
    retreat_options: list[str] = field(default_factory=list)
    retreat_to: str | None = None
    step_loss: str | None = None
    ml_before: int | None = None
    ml_after: int | None = None
    unit_checks: list[tuple[str, fc.MoraleCheck]] = field(default_factory=list)   # unled: each unit's (3.52b)
    failed_units: list[str] = field(default_factory=list)                          # unled units that failed
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.41"
    why: str = ""
    own: list[str] = field(default_factory=list)    # what only the checking side's display shows (3.71)

    @property
    def legal(self) -> bool:
        return not self.problems


def _target_problems(state: FullGameState, hexmap, source: str, target: str, enemy: str) -> list[Problem]:
    """8.4: the target is an adjacent hex holding enemy combat units."""
    p: list[Problem] = []
    if target not in neighbours(hexmap, source):
        p.append(Problem(f"{target} is not adjacent to {source}", "8.4", ["target"]))
    enemy_units = [u for f in model.forces_in_hex(state, target, enemy) for u in model.units_of(state, f, enemy)]
    if not enemy_units:
        p.append(Problem(f"there are no enemy combat units in {target}", "8.4", ["target"]))
    return p


def _failure_choice_problems(r: AttackCheck, units: list[str], retreat_to: str | None, step_loss: str | None,
                             retreat_note: str) -> list[Problem]:
    """8.41a: the owner's choices for a failed check: a living unit of the force to lose the step, a
    hex it may retreat into."""
    p: list[Problem] = []
    if step_loss is not None and step_loss not in units:
        p.append(Problem(f"{step_loss} is not a living unit of {r.force}", "8.41a", ["step_loss"]))
    if retreat_to is not None and retreat_to not in r.retreat_options:
        p.append(Problem(f"{r.force} cannot retreat into {retreat_to}; it may retreat into "
                         f"{', '.join(r.retreat_options) or 'no hex'} ({retreat_note})", "8.41a", ["retreat_to"]))
    return p


def _oc_declares(state: FullGameState, r: AttackCheck, oc: str, lend_br_from: str | None) -> list[Problem]:
    """8.42, 8.1, 8.41: the OC checks with his own BR; an inactive OC declares no attack unless
    compelled; he pays 1 AP, or with none left makes a compelled check as a hasty attack."""
    p: list[Problem] = []
    ld = state["leaders"][oc]
    r.ml_before = ld["ml"]
    if lend_br_from and lend_br_from != oc:
        p.append(Problem(f"{r.force} checks with its own OC's BR; {lend_br_from} cannot lend his",
                         "8.42", ["lend_br_from"]))
    if not ld.get("active") and not r.compulsory:
        p.append(Problem(f"{oc} is inactive: only active leaders declare attacks", "8.1", ["force"]))
    r.rating = model.current_rating(ld, "br")
    if model.brevet_loss(ld):
        r.brevet_note = (f"printed {model.leader_ratings(ld)['br']}, less {model.brevet_loss(ld)} "
                         "for his brevet marker, 14.51")
    if ld.get("ap", 0) >= CHECK_AP:
        r.charges = [APCharge(oc, CHECK_AP, "8.41", f"{oc} declares an attack on {r.target}")]
    elif r.compulsory:
        r.hasty = True
    else:
        p.append(Problem(f"{oc} has no AP to declare an attack (only a check compelled by enemy ZOC "
                         "is made without AP)", "8.41", ["force"]))
    return p


def _roll_check(r: AttackCheck, dice) -> str:
    """8.41, 3.52b: 1d6 against the OC's BR (passes on the BR or less); an unled force passes only
    below its inverted ML.  Returns the test's text."""
    r.roll = dice.d6(f"attack check {r.force} -> {r.target}", by=r.side)
    if r.oc is None:
        r.passed = r.roll < r.rating
        return f"unled: rolled {r.roll}, needs below the inverted ML {r.rating} (3.52b)"
    r.passed = r.roll <= r.rating
    return f"{r.oc} BR {r.rating}" + (f" ({r.brevet_note})" if r.brevet_note else "") + f": rolled {r.roll}"


def _failed_check(state: FullGameState, r: AttackCheck, test: str, units: list[str], retreat_to: str | None,
                  step_loss: str | None, retreat_note: str) -> None:
    """8.41a, 3.53(3a), 3.55: a failed check costs a 1-hex retreat, one step and 1 ML of the OC."""
    oc = r.oc
    r.retreat_to = retreat_to or (r.retreat_options[0] if r.retreat_options else None)
    r.step_loss = step_loss or (units[0] if units else None)
    if oc is not None:
        assert r.ml_before is not None          # set with the OC's rating (8.41)
        r.ml_after = max(0, r.ml_before - 1)
    parts = [f"{test}: fails (8.41a)"]
    parts.append(f"retreats to {r.retreat_to}" if r.retreat_to else f"cannot retreat ({retreat_note}) and stays")
    if r.step_loss:
        r.own.append(f"{unit_label(state, r.step_loss)} loses 1 step")
    if oc is not None:
        r.own.append(f"{surname(state['leaders'], oc)}'s ML {r.ml_before} -> {r.ml_after} (3.53(3a), OC only)")
    r.why = "; ".join(parts + r.own)


def attack_check(state: FullGameState, hexmap, force_id: str, target: str, dice, *, retreat_to: str | None = None,
                 step_loss: str | None = None, lend_br_from: str | None = None, passable=None) -> AttackCheck:
    """8.41/8.42: ``force_id`` checks to attack the enemy stack in ``target``.

    Nothing is rolled when the check is illegal (see ``problems``)."""
    side = model.force_side(state, force_id)
    source = model.force_hex(state, force_id)
    oc = fc.force_oc(state, force_id)
    r = AttackCheck(force_id, side, oc, source, target, unled=oc is None)
    p = r.problems
    p += _target_problems(state, hexmap, source, target, model.other_side(side))
    r.compulsory = target in enemy_zoc(state, hexmap, side).get(source, set())
    units = model.units_of(state, force_id)
    r.retreat_options, retreat_note = retreat_hexes(state, hexmap, force_id, passable)
    p += _failure_choice_problems(r, units, retreat_to, step_loss, retreat_note)
    if oc is not None:
        p += _oc_declares(state, r, oc, lend_br_from)
    elif not units:
        p.append(Problem(f"{force_id} has no living units", "8.41", ["force"]))
    else:
        r.rating = fc.inverted_ml(fc.unled_ml(state, force_id))      # 3.52b: the worst unit's, for the record
    if p:
        r.why = "no check: " + "; ".join(x.message for x in p)
        return r
    if oc is None:
        _unled_checks(state, r, units, dice, retreat_to, retreat_note)
        return r
    test = _roll_check(r, dice)
    if r.passed:
        r.assault = Assault(force_id, source, target, r.hasty)
        r.why = (f"{test}: passes; Assault marker {source} -> {target}"
                 + (f" (hasty, {HASTY_DRM} DRM: no AP left)" if r.hasty else ""))
        r.ml_after = r.ml_before
        return r
    _failed_check(state, r, test, units, retreat_to, step_loss, retreat_note)
    return r


def _unled_checks(state: FullGameState, r: AttackCheck, units: list[str], dice, retreat_to: str | None,
                  retreat_note: str) -> None:
    """3.52b, 8.41a: every unit of an unled force rolls 1d6 and passes below its own inverted ML."""
    for u in units:
        ml = model.unit_ml(state["units"][u])
        r.unit_checks.append((u, fc.unled_check(ml, dice, f"attack check {r.force} -> {r.target} {u}", by=r.side)))
    r.failed_units = [u for u, c in r.unit_checks if not c.passed]
    r.passed = len(r.failed_units) < len(r.unit_checks)
    r.roll = r.unit_checks[0][1].roll
    rolls = "; ".join(f"{unit_label(state, u)}: {c.why}: {'passes' if c.passed else 'fails'}"
                      for u, c in r.unit_checks)
    parts = [f"unled, each unit for itself (3.52b): {rolls}"]
    if r.passed:
        r.assault = Assault(r.force, r.source, r.target, False)
        parts.append(f"Assault marker {r.source} -> {r.target}"
                     + (f" for {', '.join(unit_label(state, u) for u, c in r.unit_checks if c.passed)}"
                        if r.failed_units else ""))
    if r.failed_units:
        r.retreat_to = retreat_to or (r.retreat_options[0] if r.retreat_options else None)
        parts.append(f"{', '.join(unit_label(state, u) for u in r.failed_units)} lose 1 step each and "
                     + (f"retreat to {r.retreat_to}" if r.retreat_to else f"cannot retreat ({retreat_note}) and stay")
                     + " (8.41a)")
    r.why = "; ".join(parts)


def apply_attack_check(state: FullGameState, r: AttackCheck) -> str:
    """Apply a check: its AP; on failure the step loss, the OC's ML and the retreat.

    Returns the force's id afterwards (an unled force's id names its hex)."""
    if r.problems:
        raise ValueError("cannot apply an illegal attack check: " + r.why)
    fc.apply_charges(state, r.charges)
    if r.unit_checks:                       # unled: the units that failed pay for themselves (3.52b)
        for uid in r.failed_units:
            unit = state["units"][uid]
            unit["steps"] = max(0, unit["steps"] - 1)
            if unit["steps"] and r.retreat_to:
                unit["hex"] = r.retreat_to
        if r.passed or not r.retreat_to:
            return r.force
        return f"unled@{r.retreat_to}" if r.force.count("@") == 1 else f"unled@{r.retreat_to}@{r.side}"
    if r.passed:
        return r.force
    if r.step_loss:
        u = state["units"][r.step_loss]
        u["steps"] = max(0, u["steps"] - 1)
    if r.oc is not None and r.ml_after is not None:
        state["leaders"][r.oc]["ml"] = r.ml_after
    if r.retreat_to:
        return fc.apply_move(state, r.force, r.retreat_to)
    return r.force


@dataclass
class Join:
    """8.42: a force enters a hex whose force already passed its check and joins the attack."""

    force: str
    assault: Assault | None
    order: fc.Order | None = None
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.42"
    why: str = ""


def join_assault(state: FullGameState, force_id: str, assaults: list[Assault]) -> Join:
    """8.42: ``force_id`` (now in the hex of a passed check) joins that assault without a check;
    the merge costs 1 AP (8.25a)."""
    here = model.force_hex(state, force_id)
    side = model.force_side(state, force_id)
    match = [a for a in assaults if a.source == here and a.attacker != force_id
             and model.force_side(state, a.attacker) == side]
    if not match:
        return Join(force_id, None, None, [Problem(f"no force in {here} has passed an attack check",
                                                   "8.42", ["force"])], "8.42", "no assault to join")
    a = match[0]
    if model.is_unled(force_id) and model.is_unled(a.attacker):
        return Join(force_id, a, None, [], "8.42", f"unled units in {here} are one force already")
    if model.is_unled(force_id):
        order = fc.merge_order(state, a.attacker, force_id, rule="8.42")
    else:
        order = fc.merge_order(state, force_id, a.attacker, rule="8.42")
    head = order.leader
    if order.legal:
        head, _ = fc.senior_of(state, [x for x in (force_id, a.attacker) if not model.is_unled(x)])
    joined = Assault(head or a.attacker, a.source, a.target, a.hasty, True, "8.42")
    why = (f"{force_id} joins the attack on {a.target} without a check; {order.why}" if order.legal
           else "cannot join: " + "; ".join(x.message for x in order.problems))
    return Join(force_id, joined if order.legal else None, order, list(order.problems), "8.42", why)


def apply_join(state: FullGameState, j: Join) -> None:
    if j.problems:
        raise ValueError("cannot apply an illegal join: " + j.why)
    if j.order is not None:
        fc.apply_merge(state, j.order)
