"""Salem Church combat: the morale checks and the leader casualties (digest 0., B2, CRT key, 17.3, G8, G11).

* :func:`morale_check` -> :class:`MoraleCheck` -- an MC passes on 1d6 <= the morale rating
  plus the best modification of a leader of the same side stacked with the unit (as 17.2's
  check; digest 0.: it fails if the die is greater than the rating);
* :func:`first_unit` -- the "first unit" of a side that makes its MC: the one its owner
  designates, else the first combat unit listed (G8);
* :func:`low_initiative_check` -- 17.3: the MC of the attacker's first unit before a Union
  attack at Low Initiative;
* :func:`leader_casualties` -> :class:`LeaderCheck` -- the CRT's Leader line: 1d6 for each
  leader with the units in the combat, after the CRT's MCs (G11); the chart's faces kill.

Pure functions; the dice are an input (a face, or a ``roll(purpose) -> face``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from ...base.errors import IllegalOrder, InvalidInput
from .counters import UNIT, CombatRefused, Ids, Roll, Unit, _same, die_purpose
from .crt import Crt, _face


@dataclass(frozen=True)
class MoraleCheck:
    """An MC: pass on die <= rating, the unit's morale plus a stacked leader's modification.
    ``purpose`` may name the unit by :data:`UNIT` (written as its reader names it)."""

    unit: str
    purpose: str
    rule: str
    morale: int
    modifier: int
    leader: str | None
    die: int

    @property
    def rating(self) -> int:
        return self.morale + self.modifier

    @property
    def passed(self) -> bool:
        return self.die <= self.rating

    @property
    def why(self) -> str:
        return self.told()

    def purpose_for(self, ids: Ids = _same) -> str:
        return self.purpose.replace(UNIT, ids(self.unit))

    def told(self, ids: Ids = _same) -> str:
        mod = f" {self.modifier:+d} ({ids(self.leader)} stacked, 17.3)" if self.leader else ""
        return (f"{self.purpose_for(ids)}: {self.die} against morale {self.morale}{mod} = {self.rating}: "
                f"{'passes' if self.passed else 'fails'}")

    @property
    def units(self) -> set[str]:
        return {self.unit} | ({self.leader} if self.leader else set())

    def as_dict(self, ids: Ids = _same) -> dict:
        return {"unit": ids(self.unit), "purpose": self.purpose_for(ids), "rule": self.rule, "morale": self.morale,
                "modifier": self.modifier, "leader": ids(self.leader) if self.leader else None,
                "rating": self.rating, "die": self.die, "passed": self.passed}


def _stacked_leader(unit: Unit, leaders: Iterable[Unit]) -> Unit | None:
    here = [x for x in leaders if x.arm == "leader" and x.side == unit.side and x.hex == unit.hex]
    return max(here, key=lambda x: x.morale_modifier, default=None)


def morale_check(unit: Unit, die: int, *, purpose: str, rule: str, leaders: Iterable[Unit] = ()) -> MoraleCheck:
    """An MC of ``unit`` with the face ``die`` (digest 0.: fails if the die is greater than the rating)."""
    if unit.morale is None:
        raise InvalidInput(f"{unit.id} has no morale rating for its MC ({purpose})", rule=rule, path=unit.id)
    ldr = _stacked_leader(unit, leaders)
    mod = ldr.morale_modifier if ldr is not None else 0
    return MoraleCheck(unit.id, purpose, rule, unit.morale, mod, ldr.id if ldr is not None and mod else None,
                       _face(die))


def first_unit(units: Sequence[Unit], designated: str | None = None) -> Unit:
    """The "first unit" (第１ユニット) of a side: the designated one, else the first combat unit listed (G8)."""
    fighting = [u for u in units if u.fights]
    if designated is None:
        if not fighting:
            raise IllegalOrder("no combat unit to make the MC")
        return fighting[0]
    for u in fighting:
        if u.id == designated:
            return u
    raise CombatRefused(lambda ids: f"first unit {ids(designated)!r} is not a combat unit of this combat; "
                        f"choose one of {', '.join(ids(u.id) for u in fighting)}",
                        [designated, *(u.id for u in fighting)], path="first_unit")


def low_initiative_check(first: Unit, die: int, leaders: Iterable[Unit] = ()) -> MoraleCheck:
    """17.3: the MC of the attacker's first unit before a Union attack at Low Initiative."""
    return morale_check(first, die, purpose=f"low initiative MC {UNIT} (17.3)", rule="17.3", leaders=leaders)


@dataclass(frozen=True)
class LeaderCheck:
    leader: str
    side: str
    die: int
    killed: bool
    rule: str = "B2"

    @property
    def why(self) -> str:
        return self.told()

    def told(self, ids: Ids = _same) -> str:
        return f"leader casualty {ids(self.leader)}: {self.die}: {'killed' if self.killed else 'survives'}"

    def as_dict(self, ids: Ids = _same) -> dict:
        return {"leader": ids(self.leader), "side": self.side, "die": self.die, "killed": self.killed,
                "rule": self.rule}


def leader_casualties(leaders: Iterable[Unit], roll: Roll, crt: Crt) -> tuple[LeaderCheck, ...]:
    """The Leader line (CRT key): 1d6 for each leader; the chart's faces (5-6) kill him."""
    kills = crt.leader_kills
    out = []
    for x in leaders:
        if x.arm != "leader":
            continue
        d = _face(roll(die_purpose(roll, "leader casualty", x.id)))
        out.append(LeaderCheck(x.id, x.side, d, d in kills))
    return tuple(out)
