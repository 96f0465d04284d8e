"""Salem Church combat: strengths, the differential, the CRT roll and the result effects (digest B, C, 15.0, 17.3, 18.0).

Pure functions.  Dice are an input: :func:`resolve` and :func:`plan_effects` ask a
``roll(purpose) -> face`` callable for every die they need, by purpose; the
smaller functions take the face itself.  So is the chart: they read the CRT they are
given (``crt``, the game's, :meth:`.crt.Crt.load`).  Map geometry stays outside: a unit
brings its hex number (for 15.0) and the terrain names of its hex (for the TEC).

* :func:`attack_strength`, :func:`defence_strength` -- the CF of each side with
  every modifier, its reason and its rule; :func:`differential` (B1);
* :func:`check_combat` -- what may not be fought at all (18.0 night, 16.0 the
  train, only infantry into heavy woods);
* :func:`low_initiative_check` (17.3), :func:`morale_check` (the MC of the CRT key): :mod:`.morale`;
* :func:`resolve` -- one combat, explained (:meth:`Combat.explanation`);
* :func:`plan_effects` -- what the result does to each side, its MCs rolled and
  the Leader line's casualty rolls made; the owner's choices stay open;
* :func:`settle` -- a side's effect once its owner has chosen (disrupt, retreat
  1-3 hexes or take the loss) and the caller has said, per unit, whether a
  retreat path is safe, unsafe or missing (rout, capture; CRT key).

Readings where the rules are silent or the text is ambiguous (digest G, E) --
games/salem_church/readings.md:

* the differential is attacker CF minus defender CF (B1, derived); no CRT DRMs
  or column shifts exist (digest 0.);
* the MC passes on 1d6 <= morale rating (+ the best modification of a leader
  of the same side in the unit's hex), as 17.2's check; "first unit" = the
  unit the owner designates, else the first combat unit listed (G8);
* the MC of a code is made by the first unit of the side the code names; a
  bracketed result is applied in full, so Dm(Dx) passed makes a second MC for
  the Dx; Dc(Dr) rolls its MC and gives Dr either way (G10);
* the CRT's MCs are rolled first, then the Leader line's casualty rolls, one
  per leader with the units in the combat, attacker's leaders first (G11);
* Ar/Dr and Ax/Dx: one choice for all the side's units; Ax/Dx's loss is one
  step in total (B2); Ex: one step each side;
* TEC halvings apply per attacking unit (C): heavy woods into or out of halves
  once; light woods halves a unit attacking from a hex with no woods (clear,
  hill, road...) into light woods; only infantry may attack into heavy woods;
* 15.0: +2 per defending infantry brigade in 0609 or 0610 (G5), added after
  any halving;
* stand-ins (the standard rules are missing, digest E): a counter-attack
  (7.2) doubles printed CF before any halving; a disrupted unit's CF is
  halved (``disrupted="full"`` or ``"no_attack"`` read otherwise); halves are
  kept exactly and each side's total is rounded down (as the rounding stand-in
  of ``games/salem_church/terrain.yaml``); leaders add no CF; the
  wagon train neither attacks nor is attacked (16.0); the defenders of one
  combat are in one hex; the attacker may advance when a defending unit
  retreated (CRT key), not after a rout or a capture.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Callable, Iterable, Mapping, Sequence

from ...base.errors import IllegalOrder, InvalidInput
from .counters import (
    COUNTER_ATTACK_FACTOR,
    DEFENSIVE_POSITION_CF,
    DEFENSIVE_POSITIONS,
    DISRUPTED,
    DISRUPTED_READINGS,
    NIGHT_TURNS,
    RETREAT_HEXES,
    ROUNDING,
    UNIT,
    CombatRefused,
    Fate,
    Ids,
    Outcome,
    PathStatus,
    Roll,
    Unit,
    _CHOICES,
    _same,
    _woods,
    sees,
    die_purpose,
    terrain_names,
)
from .crt import Crt, Kind, Reading, Result, _face
from .morale import LeaderCheck, MoraleCheck, first_unit, leader_casualties, low_initiative_check, morale_check



# --- strengths --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Modifier:
    """One change to one unit's CF: ``effect`` is ``x2``, ``/2`` or ``+2``."""

    side: str              # "attacker" or "defender"
    unit: str
    effect: str
    reason: str
    rule: str
    #: the reason as a reader who does not see the unit reads it: without the unit's hex (the
    #: fog of war: a side is not told where a unit it does not see is); None: as ``reason``
    unseen: str | None = None

    def told(self, ids: Ids = _same) -> str:
        """The reason; the hex in it only for a reader who sees the unit (:mod:`.narration`)."""
        return self.reason if self.unseen is None or sees(ids, self.unit) else self.unseen

    def as_dict(self, ids: Ids = _same) -> dict:
        return {"side": self.side, "unit": ids(self.unit), "effect": self.effect, "rule": self.rule,
                "reason": self.told(ids)}

    def text(self, ids: Ids = _same) -> str:
        return f"{self.effect} {self.told(ids)} ({self.rule})"


@dataclass(frozen=True)
class UnitStrength:
    unit: str
    arm: str
    printed: int
    cf: Fraction
    modifiers: tuple[Modifier, ...]

    def text(self, ids: Ids = _same) -> str:
        mods = "".join(f" {m.text(ids)}" for m in self.modifiers)
        return f"{ids(self.unit)} {self.printed}{mods}" + (f" = {_num(self.cf)}" if self.modifiers else "")


@dataclass(frozen=True)
class SideStrength:
    """The CF one side brings: each unit's, the exact sum and the total the CRT reads (rounded down)."""

    role: str
    side: str
    units: tuple[UnitStrength, ...]
    exact: Fraction
    total: int

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        return tuple(m for u in self.units for m in u.modifiers)

    @property
    def why(self) -> str:
        return self.told()

    def told(self, ids: Ids = _same) -> str:
        parts = ", ".join(u.text(ids) for u in self.units) or "no combat units"
        out = f"{self.role} ({self.side}) {self.total} CF: {parts}"
        if self.exact != self.total:
            out += f"; {_num(self.exact)} rounded {ROUNDING} (stand-in)"
        return out

    def as_dict(self, ids: Ids = _same) -> dict:
        return {"side": self.side, "total": self.total, "exact": _num(self.exact),
                "units": [{"unit": ids(u.unit), "arm": u.arm, "printed": u.printed, "cf": _num(u.cf),
                           "modifiers": [m.as_dict(ids) for m in u.modifiers]} for u in self.units]}


def _num(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


def _check_disrupted_reading(disrupted: str) -> None:
    if disrupted not in DISRUPTED_READINGS:
        raise InvalidInput(f"disrupted reading {disrupted!r}; use one of {', '.join(DISRUPTED_READINGS)}")


def _strength(units: Sequence[Unit], role: str, mods: Callable[[Unit, Fraction], tuple[Fraction, list[Modifier]]]
              ) -> SideStrength:
    out = []
    for u in units:
        if not u.fights:
            continue            # leaders add no CF (stand-in); the train never fights (16.0)
        cf, ms = mods(u, Fraction(u.cf))
        out.append(UnitStrength(u.id, u.arm, u.cf, cf, tuple(ms)))
    exact = sum((x.cf for x in out), Fraction(0))
    side = units[0].side if units else ""
    total = math.floor(exact) if ROUNDING == "down" else math.ceil(exact)
    return SideStrength(role, side, tuple(out), exact, total)


def attack_strength(attackers: Sequence[Unit], target_terrain: str | Iterable[str], *,
                    counter_attack: bool = False, disrupted: str = DISRUPTED) -> SideStrength:
    """The attacking side's CF: 7.2 doubling (stand-in), TEC halvings, disruption (stand-in)."""
    _check_disrupted_reading(disrupted)
    target = terrain_names(target_terrain, "the defender's hex")
    tw = _woods(target)

    def mods(u: Unit, cf: Fraction) -> tuple[Fraction, list[Modifier]]:
        ms: list[Modifier] = []
        if counter_attack:
            cf *= COUNTER_ATTACK_FACTOR
            ms.append(Modifier("attacker", u.id, "x2", "counter-attack at double printed strength",
                               "7.2 (D2 stand-in)"))
        uw = _woods(u.terrain)
        if tw == "heavy" or uw == "heavy":
            where = ("into and out of heavy woods (halved once)" if tw == uw == "heavy"
                     else "into heavy woods" if tw == "heavy" else "out of heavy woods")
            at = f" in {u.hex}" if where == "out of heavy woods" else ""
            cf /= 2
            ms.append(Modifier("attacker", u.id, "/2", f"attacking {where}{at}", "TEC",
                               unseen=f"attacking {where}" if at else None))
        elif tw == "light" and uw is None:
            cf /= 2
            ms.append(Modifier("attacker", u.id, "/2", f"attacking from clear {u.hex} into light woods", "TEC",
                               unseen="attacking from clear terrain into light woods"))
        if u.disrupted:
            if disrupted == "no_attack":
                raise CombatRefused(lambda ids: f"{ids(u.id)} is disrupted and may not attack (stand-in reading)",
                                    [u.id], rule="D2 stand-in", path=u.id)
            if disrupted == "halve":
                cf /= 2
                ms.append(Modifier("attacker", u.id, "/2", "disrupted", "D2 stand-in"))
        return cf, ms

    return _strength(attackers, "attacker", mods)


def defence_strength(defenders: Sequence[Unit], *, disrupted: str = DISRUPTED) -> SideStrength:
    """The defending side's CF: disruption (stand-in), then 15.0's +2 per infantry brigade in 0609/0610."""
    _check_disrupted_reading(disrupted)

    def mods(u: Unit, cf: Fraction) -> tuple[Fraction, list[Modifier]]:
        ms: list[Modifier] = []
        if u.disrupted and disrupted == "halve":
            cf /= 2
            ms.append(Modifier("defender", u.id, "/2", "disrupted", "D2 stand-in"))
        if u.arm == "infantry" and u.hex in DEFENSIVE_POSITIONS:
            cf += DEFENSIVE_POSITION_CF
            ms.append(Modifier("defender", u.id, f"+{DEFENSIVE_POSITION_CF}",
                               f"infantry brigade defending in defensive position {u.hex}", "15.0"))
        return cf, ms

    return _strength(defenders, "defender", mods)


def differential(attack: SideStrength, defence: SideStrength) -> int:
    """B1: the strength differential, attacker's CF minus defender's CF."""
    return attack.total - defence.total


# --- what may be fought -----------------------------------------------------------------------
def check_combat(attackers: Sequence[Unit], defenders: Sequence[Unit], *, turn: int | None = None,
                 disrupted: str = DISRUPTED) -> None:
    """Raise :class:`IllegalOrder` for a combat the rules forbid: at night (18.0); not two opposed
    sides (B1); the wagon train (16.0); not one defending hex (stand-in); no combat unit on a side;
    heavy woods (TEC); disrupted attackers (D2 stand-in reading)."""
    _check_disrupted_reading(disrupted)
    _check_sides(attackers, defenders, turn)
    _check_wagon_train(attackers, defenders)
    where = _defending_hex(defenders)
    if not any(u.fights for u in attackers):
        raise IllegalOrder("no attacking combat unit (infantry or artillery): leaders alone do not attack")
    if not any(u.fights for u in defenders):
        raise IllegalOrder(f"no defending combat unit in {where} (stand-in: a lone leader is not attacked)")
    _check_heavy_woods(attackers, defenders, where)
    if disrupted == "no_attack":
        bad = [u.id for u in attackers if u.fights and u.disrupted]
        if bad:
            raise CombatRefused(lambda ids: "disrupted units may not attack (stand-in reading): "
                                + ", ".join(map(ids, bad)), bad, rule="D2 stand-in")


def _check_sides(attackers: Sequence[Unit], defenders: Sequence[Unit], turn: int | None) -> None:
    """18.0: no combat at night; B1: attacking and defending units, each of one side, opposed."""
    if turn is not None and turn in NIGHT_TURNS:
        raise IllegalOrder(f"turn {turn} is a night turn: there is no combat", rule="18.0",
                           hint="both combat phases are skipped")
    if not attackers or not defenders:
        raise IllegalOrder("a combat needs attacking and defending units")
    for role, units in (("attacking", attackers), ("defending", defenders)):
        if len({u.side for u in units}) != 1:
            def mixed(ids: Ids, role: str = role, units: Sequence[Unit] = units) -> str:
                return f"the {role} units are not all of one side: " + ", ".join(f"{ids(u.id)} ({u.side})"
                                                                                 for u in units)
            raise CombatRefused(mixed, [u.id for u in units])
    if attackers[0].side == defenders[0].side:
        raise IllegalOrder(f"attacker and defender are both {attackers[0].side}")


def _check_wagon_train(attackers: Sequence[Unit], defenders: Sequence[Unit]) -> None:
    """16.0: the wagon train has no CF and does not attack (reading), and is never attacked."""
    for u in attackers:
        if u.arm == "wagon_train":
            def no_cf(ids: Ids, u: Unit = u) -> str:
                return f"{ids(u.id)}: the wagon train has no CF and does not attack (reading)"
            raise CombatRefused(no_cf, [u.id], rule="16.0")
    for u in defenders:
        if u.arm == "wagon_train":
            def never_attacked(ids: Ids, u: Unit = u) -> str:
                return f"{ids(u.id)}: the Union wagon train is never attacked"
            raise CombatRefused(never_attacked, [u.id], rule="16.0",
                                hint="a Confederate unit entering its hex captures it (16.0)")


def _defending_hex(defenders: Sequence[Unit]) -> str:
    """Stand-in (the standard combat rules are missing): a combat is against the units of one hex."""
    hexes = sorted({u.hex for u in defenders})
    if len(hexes) != 1:
        raise IllegalOrder(f"the defending units are in {', '.join(hexes)}: a combat is against one hex "
                           "(stand-in: the standard combat rules are missing)")
    if len({u.terrain for u in defenders}) != 1:
        raise InvalidInput(f"the defenders in {hexes[0]} disagree on the hex's terrain")
    return hexes[0]


def _check_heavy_woods(attackers: Sequence[Unit], defenders: Sequence[Unit], where: str) -> None:
    """TEC: only infantry attacks into heavy woods."""
    if _woods(defenders[0].terrain) == "heavy":
        others = [u.id for u in attackers if u.fights and u.arm != "infantry"]
        if others:
            raise CombatRefused(lambda ids: f"only infantry may attack into heavy woods ({where}): "
                                + ", ".join(map(ids, others)), others, rule="TEC")


# --- the effects of a result ------------------------------------------------------------------
@dataclass(frozen=True)
class SideEffect:
    """What a result leaves one side: certain step losses, an outcome with its owner's choices, the MCs.
    ``notes`` say why, in order: text and the MCs (which name their units as the reader does)."""

    role: str
    outcome: Outcome = Outcome.NONE
    steps: int = 0
    checks: tuple[MoraleCheck, ...] = ()
    notes: tuple[str | MoraleCheck, ...] = ()

    @property
    def why(self) -> str:
        return self.told()

    def told(self, ids: Ids = _same) -> str:
        return "; ".join(n if isinstance(n, str) else n.told(ids) for n in self.notes)

    @property
    def choices(self) -> tuple[str, ...]:
        return _CHOICES[self.outcome]

    @property
    def retreat(self) -> tuple[int, int] | None:
        """The retreat range on offer (1-3 hexes), or None."""
        return RETREAT_HEXES if "retreat" in self.choices else None

    def as_dict(self, ids: Ids = _same) -> dict:
        return {"outcome": self.outcome.value, "steps": self.steps, "choices": list(self.choices),
                "retreat": list(self.retreat) if self.retreat else None,
                "checks": [c.as_dict(ids) for c in self.checks], "why": self.told(ids)}


@dataclass(frozen=True)
class EffectPlan:
    result: Result
    attacker: SideEffect
    defender: SideEffect
    leaders: tuple[LeaderCheck, ...] = ()

    @property
    def checks(self) -> tuple[MoraleCheck, ...]:
        return self.attacker.checks + self.defender.checks

    @property
    def why(self) -> str:
        return self.told()

    def told(self, ids: Ids = _same) -> str:
        parts = [f"{e.role}: {e.told(ids)}" for e in (self.attacker, self.defender) if e.notes]
        parts += [k.told(ids) for k in self.leaders]
        return "; ".join(parts) or "no effect"

    def as_dict(self, ids: Ids = _same) -> dict:
        return {"result": self.result.text, "attacker": self.attacker.as_dict(ids),
                "defender": self.defender.as_dict(ids), "leaders": [k.as_dict(ids) for k in self.leaders]}


@dataclass
class _Side:
    role: str
    first: Unit
    outcome: Outcome = Outcome.NONE
    steps: int = 0
    checks: list[MoraleCheck] = field(default_factory=list)
    notes: list[str | MoraleCheck] = field(default_factory=list)


_OUTCOME_TEXT = {
    Outcome.DISRUPT_OR_RETREAT: "all units disrupted, or all retreat 1-3 hexes (owner's choice)",
    Outcome.LOSS_OR_DISRUPT_AND_RETREAT: "may take 1 step loss; otherwise all disrupted and retreat 1-3 hexes",
    Outcome.DISRUPT_AND_RETREAT: "all units disrupted and retreat 1-3 hexes",
    Outcome.ROUT: "the units rout",
}


def plan_effects(result: Result, attackers: Sequence[Unit], defenders: Sequence[Unit], roll: Roll, *,
                 first_attacker: str | None = None, first_defender: str | None = None,
                 crt: Crt) -> EffectPlan:
    """B2: apply ``result``: roll each MC it asks for (first unit of the side named), then the
    Leader line's casualty rolls.  The owner's choices are left open (:func:`settle`)."""
    sides = {"attacker": _Side("attacker", first_unit(attackers, first_attacker)),
             "defender": _Side("defender", first_unit(defenders, first_defender))}
    leaders = [u for u in (*attackers, *defenders) if u.arm == "leader"]

    def bracketed(r: Result) -> Result:
        # B2: the chart's grammar gives Ac/Dc/Dm a bracketed result (checked when the CRT loads)
        assert r.bracket is not None, f"{r.code} has no bracketed result (B2)"
        return r.bracket

    def role_of(r: Result) -> str:
        return "attacker" if r.affects.value == "attacker" else "defender"

    def outcome(role: str, o: Outcome, code: str) -> None:
        sides[role].outcome = o
        sides[role].notes.append(f"{code}: {_OUTCOME_TEXT[o]}")

    def mc(role: str, code: str) -> MoraleCheck:
        s = sides[role]
        c = morale_check(s.first, roll(die_purpose(roll, "MC", s.first.id, f"({role}, {code})")), purpose=f"MC {UNIT} ({code})",
                         rule="B2", leaders=leaders)
        s.checks.append(c)
        s.notes.append(c)
        return c

    def apply(r: Result) -> None:
        if r.kind is Kind.NO_EFFECT or r.kind is Kind.LEADER:
            return
        if r.kind is Kind.EXCHANGE:
            for s in sides.values():
                s.steps += 1
                s.notes.append(f"{r.code}: exchange, loses 1 step")
            return
        role = role_of(r)
        retreat = "Ar" if role == "attacker" else "Dr"
        if r.kind is Kind.RETREAT:
            outcome(role, Outcome.DISRUPT_OR_RETREAT, r.code)
        elif r.kind is Kind.RETREAT_CHECK:
            if mc(role, r.code).passed:
                apply(bracketed(r))
                if bracketed(r).kind is Kind.NO_EFFECT:
                    sides[role].notes.append(f"{r.code}: no effect")
            else:
                outcome(role, Outcome.DISRUPT_OR_RETREAT, f"{r.code} failed, {retreat}")
        elif r.kind is Kind.RETREAT_OR_LOSS:
            passed = mc(role, r.code).passed
            outcome(role, Outcome.LOSS_OR_DISRUPT_AND_RETREAT if passed else Outcome.DISRUPT_AND_RETREAT, r.code)
        elif r.kind is Kind.ROUT_CHECK:
            if mc(role, r.code).passed:
                apply(bracketed(r))
            else:
                outcome(role, Outcome.ROUT, f"{r.code} failed")

    apply(result)
    kills = leader_casualties(leaders, roll, crt) if result.leader else ()
    effects = [SideEffect(s.role, s.outcome, s.steps, tuple(s.checks), tuple(s.notes)) for s in sides.values()]
    return EffectPlan(result, effects[0], effects[1], kills)


# --- settling a side's effect -----------------------------------------------------------------
def retreat_fate(path: PathStatus | str) -> Fate:
    """CRT key: a safe path retreats; only an unsafe path routs; no path is captured."""
    p = PathStatus(path)
    return {PathStatus.SAFE: Fate.RETREAT, PathStatus.UNSAFE: Fate.ROUT, PathStatus.NONE: Fate.CAPTURED}[p]


@dataclass(frozen=True)
class Settlement:
    """One side's effect made final: steps lost (which unit: the owner's choice), disrupted units,
    each retreating unit's fate and the hexes retreated."""

    role: str
    steps_lost: int = 0
    disrupted: tuple[str, ...] = ()
    fates: Mapping[str, Fate] = field(default_factory=dict)
    hexes: int = 0
    why: str = ""

    @property
    def routed(self) -> tuple[str, ...]:
        return tuple(u for u, f in self.fates.items() if f is Fate.ROUT)

    @property
    def captured(self) -> tuple[str, ...]:
        return tuple(u for u, f in self.fates.items() if f is Fate.CAPTURED)

    def as_dict(self) -> dict:
        return {"role": self.role, "steps_lost": self.steps_lost, "disrupted": list(self.disrupted),
                "fates": {u: f.value for u, f in self.fates.items()}, "hexes": self.hexes, "why": self.why}


def settle(effect: SideEffect, units: Sequence[Unit], *, choice: str | None = None, hexes: int | None = None,
           path: PathStatus | str | Callable[[str, int], PathStatus | str] = PathStatus.SAFE) -> Settlement:
    """Make ``effect`` final for the side's ``units`` (leaders are left to the caller).

    ``choice``: ``disrupt``, ``retreat`` or ``loss``, as :attr:`SideEffect.choices` offers (one
    offered choice is taken by default).  ``hexes``: 1-3 when retreating.  ``path``: a
    :class:`PathStatus` for all, or ``path(unit_id, hexes)`` per unit."""
    choice = _offered_choice(effect, choice)
    fighting = tuple(u.id for u in units if u.fights)
    steps = effect.steps + (1 if choice == "loss" else 0)
    why = [f"{effect.steps} step(s) lost (Ex)"] if effect.steps else []
    disrupted: tuple[str, ...] = ()
    fates: dict[str, Fate] = {}
    n = 0
    if choice == "loss":
        why.append("takes 1 step loss instead of retreating")
    elif choice == "disrupt":
        disrupted = fighting
        why.append("all units disrupted instead of retreating")
    elif choice == "retreat":
        n = _retreat_hexes(hexes)
        if effect.outcome is not Outcome.DISRUPT_OR_RETREAT:
            disrupted = fighting
        fates = {u: retreat_fate(path(u, n) if callable(path) else path) for u in fighting}
        why.append(("all disrupted and " if disrupted else "") + f"retreat {n} hex(es): "
                   + ", ".join(f"{u} {f.value}" for u, f in fates.items()))
    elif effect.outcome is Outcome.ROUT:
        fates = {u: Fate.ROUT for u in fighting}
        why.append("all units rout")
    return Settlement(effect.role, steps, disrupted, fates, n, "; ".join(why) or "no effect")


def _offered_choice(effect: SideEffect, choice: str | None) -> str | None:
    """B2: the owner's choice is one the result offers (the only one, by default)."""
    offered = effect.choices
    if choice is None and len(offered) == 1:
        choice = offered[0]
    if (choice is None and offered) or (choice is not None and choice not in offered):
        raise IllegalOrder(f"choice {choice!r} is not offered by {effect.outcome.value}; "
                           f"choose {' or '.join(offered) or 'nothing'}", rule="B2", path="choice")
    return choice


def _retreat_hexes(hexes: int | None) -> int:
    """B2, CRT key: a retreat is 1-3 hexes."""
    lo, hi = RETREAT_HEXES
    if isinstance(hexes, bool) or not isinstance(hexes, int) or not lo <= hexes <= hi:
        raise IllegalOrder(f"a retreat is {lo}-{hi} hexes, not {hexes!r}", rule="B2", path="hexes")
    return hexes


# --- one combat -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Combat:
    """One combat, resolved or cancelled (17.3), with everything a report needs."""

    attacking_side: str
    attack: SideStrength
    defence: SideStrength
    differential: int
    counter_attack: bool = False
    cancelled: bool = False
    counter_attack_allowed: bool = False
    reading: Reading | None = None
    checks: tuple[MoraleCheck, ...] = ()       # before the CRT roll (17.3)
    effects: EffectPlan | None = None
    stand_in: bool = True

    @property
    def column(self) -> str | None:
        return self.reading.column if self.reading else None

    @property
    def die(self) -> int | None:
        return self.reading.die if self.reading else None

    @property
    def result(self) -> Result | None:
        return self.reading.result if self.reading else None

    @property
    def why(self) -> str:
        return self.told()

    @property
    def units(self) -> frozenset[str]:
        """Every unit the combat's narration names."""
        out = {u.unit for u in (*self.attack.units, *self.defence.units)}
        for c in (*self.checks, *(self.effects.checks if self.effects else ())):
            out |= c.units
        out |= {k.leader for k in (self.effects.leaders if self.effects else ())}
        return frozenset(out)

    def told(self, ids: Ids = _same) -> str:
        """:attr:`why` with each unit named by ``ids`` (:mod:`.narration`)."""
        parts = [c.told(ids) for c in self.checks]
        if self.cancelled:
            parts.append("the attack is cancelled; the defending units may counter-attack (17.3, 7.2)")
            return "; ".join(parts)
        parts += [self.attack.told(ids), self.defence.told(ids)]
        diff = f"differential {self.attack.total} - {self.defence.total} = {self.differential:+d} (B1)"
        r = self.reading
        if r:
            diff += f": column {r.column}" + (" (end column)" if r.clamped else "") + f"; die {r.die}: {r.cell}"
            if r.uncertain:
                diff += f" ({r.uncertain.text})"
        parts.append(diff)
        if self.effects:
            parts.append(self.effects.told(ids))
        return "; ".join(parts)

    def explanation(self, ids: Ids = _same) -> dict:
        """Habit 4: column, modifiers, die, cell and result, and why (no shifts or DRMs exist here);
        each unit named by ``ids`` (:mod:`.narration`)."""
        r = self.reading
        return {
            "rule": "B1",
            "attacking_side": self.attacking_side,
            "counter_attack": self.counter_attack,
            "cancelled": self.cancelled,
            "counter_attack_allowed": self.counter_attack_allowed,
            "attacker": self.attack.as_dict(ids),
            "defender": self.defence.as_dict(ids),
            "modifiers": [m.as_dict(ids) for m in (*self.attack.modifiers, *self.defence.modifiers)],
            "differential": self.differential,
            "column": self.column,
            "column_clamped": bool(r and r.clamped),
            "shifts": [],
            "drms": [],
            "die": self.die,
            "cell": r.cell if r else None,
            "result": r.result.code if r else None,
            "leader": bool(r and r.result.leader),
            "uncertain": r.uncertain.text if r and r.uncertain else None,
            "checks": [c.as_dict(ids) for c in (*self.checks, *(self.effects.checks if self.effects else ()))],
            "effects": self.effects.as_dict(ids) if self.effects else None,
            "stand_in": self.stand_in,
            "why": self.told(ids),
        }


def resolve(attackers: Sequence[Unit], defenders: Sequence[Unit], roll: Roll, *, crt: Crt,
            turn: int | None = None, counter_attack: bool = False, union_low_initiative: bool = False,
            first_attacker: str | None = None, first_defender: str | None = None,
            disrupted: str = DISRUPTED) -> Combat:
    """Resolve one combat: legality, strengths, the 17.3 check for a Union attack at Low Initiative
    (not for a counter-attack), the CRT roll (purpose ``CRT``) and the effects plan."""
    check_combat(attackers, defenders, turn=turn, disrupted=disrupted)
    attack = attack_strength(attackers, defenders[0].terrain, counter_attack=counter_attack, disrupted=disrupted)
    defence = defence_strength(defenders, disrupted=disrupted)
    diff = differential(attack, defence)
    side = attackers[0].side
    combat = partial(Combat, attacking_side=side, attack=attack, defence=defence, differential=diff,
                     counter_attack=counter_attack, stand_in=crt.stand_in)
    checks: tuple[MoraleCheck, ...] = ()
    if union_low_initiative and side == "union" and not counter_attack:
        first = first_unit(attackers, first_attacker)
        check = low_initiative_check(first, roll(die_purpose(roll, "low initiative MC", first.id, "(17.3)")), attackers)
        checks = (check,)
        if not check.passed:
            return combat(cancelled=True, counter_attack_allowed=True, checks=checks)
    reading = crt.read(diff, _face(roll("CRT")))
    effects = plan_effects(reading.result, attackers, defenders, roll, first_attacker=first_attacker,
                           first_defender=first_defender, crt=crt)
    return combat(reading=reading, checks=checks, effects=effects)
