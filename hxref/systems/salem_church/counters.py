"""Salem Church combat: the counters in a combat and the words every combat rule shares (digest B, C, 16.0).

* :class:`Unit` -- a counter in a combat: printed CF and morale, its hex number and the
  terrain names there (the TEC's rows, :data:`TERRAIN`; :func:`terrain_names`);
* the sides, the arms and the combat arms (leaders and the wagon train, CF 0, do not
  fight, 16.0); the numbers of 15.0 (defensive positions), 18.0 (night turns), the CRT
  key's retreat of 1-3 hexes and the stand-ins of digest E (counter-attack, disruption,
  rounding);
* :class:`Outcome` (what a result leaves a side to do, B2), :class:`PathStatus` (the
  caller's word on a retreat path), :class:`Fate` (retreat, rout, capture: CRT key);
* :class:`CombatRefused` -- a combat the rules forbid, naming its units as each reader
  names them (:mod:`.narration`); :func:`die_purpose` -- what a die is for.

Strengths, the CRT roll and the effects are :mod:`.combat`; the MCs and the leader
casualties :mod:`.morale`.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Iterable

from ...base.errors import IllegalOrder, InvalidInput


def die_purpose(roll: Callable | None, what: str, unit: str, detail: str = "") -> str:
    """A die's purpose: what it is for, the unit it is for, and a detail.  A roller whose
    ``names_units`` is False (umpired line-of-sight play: a die is read by sides that may not see
    the unit, :mod:`.views`) gets a purpose without the unit."""
    return " ".join(x for x in (what, unit if getattr(roll, "names_units", True) else "", detail) if x)

SIDES = ("union", "confederate")
ARMS = ("infantry", "artillery", "leader", "wagon_train")
COMBAT_ARMS = ("infantry", "artillery")
#: terrain names a hex may carry (the TEC's rows); only the woods matter to combat
TERRAIN = frozenset({"clear", "hill", "road", "defensive_position", "historic_site", "light_woods", "heavy_woods"})
DEFENSIVE_POSITIONS = ("0609", "0610")        # 15.0: Salem Church, the Schoolhouse
DEFENSIVE_POSITION_CF = 2                     # 15.0
NIGHT_TURNS = frozenset({6})                  # 18.0
RETREAT_HEXES = (1, 3)                        # CRT key: retreat 1-3 hexes
COUNTER_ATTACK_FACTOR = 2                     # 7.2 per digest D2 (stand-in)
DISRUPTED_READINGS = ("halve", "full", "no_attack")
DISRUPTED = "halve"                           # stand-in: the disruption rule is missing (D3)
ROUNDING = "down"                             # stand-in: a side's total with halves, rounded down (terrain.yaml)

Roll = Callable[[str], int]
#: how a reader names a unit (its id, or "an unseen Confederate unit" in line-of-sight play,
#: :mod:`.narration`): every text here that names a unit is a function of it
Ids = Callable[[str], str]
#: the placeholder for the checked unit in an MC's purpose (named as its reader names it)
UNIT = "{unit}"


def _same(uid: str) -> str:
    return uid


#: how a unit out of a reader's sight is named to him (digest F: he knows an enemy unit is there, no more)
UNSEEN = {"union": "an unseen Union unit", "confederate": "an unseen Confederate unit"}
UNSEEN_UNIT = "an unseen unit"


def sees(ids: Ids, uid: str) -> bool:
    """Does the reader who names units by ``ids`` see ``uid`` (he names it, not "an unseen ... unit")?"""
    return ids(uid) not in (*UNSEEN.values(), UNSEEN_UNIT)


class CombatRefused(IllegalOrder):
    """A combat the rules forbid, naming units: ``told(ids)`` the message with each unit named as
    the reader names it, ``units`` the units it names (:mod:`.narration`)."""

    def __init__(self, told: Callable[[Ids], str], units: Iterable[str], **kw: Any) -> None:
        super().__init__(told(_same), **kw)
        self.told, self.units = told, frozenset(units)


class Outcome(str, Enum):
    """What a result leaves a side to do (B2)."""

    NONE = "none"
    DISRUPT_OR_RETREAT = "disrupt_or_retreat"                      #: Ar/Dr: all disrupted, or all retreat 1-3
    LOSS_OR_DISRUPT_AND_RETREAT = "loss_or_disrupt_and_retreat"    #: Ax/Dx passed: a step loss, or as failed
    DISRUPT_AND_RETREAT = "disrupt_and_retreat"                    #: Ax/Dx failed: disrupted and retreat 1-3
    ROUT = "rout"                                                  #: Dm failed


_CHOICES = {
    Outcome.NONE: (),
    Outcome.DISRUPT_OR_RETREAT: ("disrupt", "retreat"),
    Outcome.LOSS_OR_DISRUPT_AND_RETREAT: ("loss", "retreat"),
    Outcome.DISRUPT_AND_RETREAT: ("retreat",),
    Outcome.ROUT: (),
}


class PathStatus(str, Enum):
    """The caller's word on a unit's retreat path (the map is not read here)."""

    SAFE = "safe"
    UNSAFE = "unsafe"          #: only along an unsafe path: the unit routs (CRT key)
    NONE = "none"              #: no retreat possible: the unit is captured (CRT key)


class Fate(str, Enum):
    RETREAT = "retreat"
    ROUT = "rout"
    CAPTURED = "captured"


# --- units ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Unit:
    """A counter in a combat: its printed CF and morale, its hex number and the terrain names there.

    ``terrain`` may be one name or several (``{"hill", "light_woods"}``); ``morale_modifier``
    is a leader's modification to the morale of a unit stacked with him (17.3; stand-in data)."""

    id: str
    side: str
    arm: str
    cf: int = 0
    hex: str = ""
    terrain: Any = "clear"
    disrupted: bool = False
    morale: int | None = None
    morale_modifier: int = 0

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise InvalidInput(f"unit {self.id}: side {self.side!r}; use {' or '.join(SIDES)}", path=self.id)
        if self.arm not in ARMS:
            raise InvalidInput(f"unit {self.id}: arm {self.arm!r}; use one of {', '.join(ARMS)}", path=self.id)
        given: object = self.hex           # YAML (or a caller) may give 0305 as the number 305
        object.__setattr__(self, "hex", f"{given:04d}" if isinstance(given, int) else str(given))
        object.__setattr__(self, "terrain", terrain_names(self.terrain, f"unit {self.id}"))

    @property
    def fights(self) -> bool:
        return self.arm in COMBAT_ARMS


def terrain_names(terrain: str | Iterable[str], what: str = "terrain") -> frozenset[str]:
    names = frozenset([terrain] if isinstance(terrain, str) else terrain)
    unknown = sorted(names - TERRAIN)
    if unknown or not names:
        raise InvalidInput(f"{what}: unknown terrain {', '.join(map(repr, unknown)) or '(none)'}; "
                           f"known: {', '.join(sorted(TERRAIN))}", rule="TEC")
    return names


def _woods(terrain: frozenset[str]) -> str | None:
    return "heavy" if "heavy_woods" in terrain else "light" if "light_woods" in terrain else None
