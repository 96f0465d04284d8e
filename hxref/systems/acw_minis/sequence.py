"""ACW miniatures: the sequence of play (A2), the Eliminating Units step (A5; C16) and the first player (B1).

:func:`player_turns` -> :class:`PlayerTurn` (a turn is two player turns: movement,
shooting, eliminating units); :func:`start_player_turn` (the phasing side's units have
not moved yet, C10); :func:`eliminating_step` -> :class:`EliminationStep` (A5, C16);
:func:`first_player` -> :class:`FirstPlayer` (B1).

Readings (digest F and the C entries named)
-------------------------------------------
* C16 units with 15 or more hits are removed in the Eliminating Units step, after all
  shooting; shooting at a unit already at 15 is allowed with a warning.  Hits are never
  removed and have no other effect.
* B1 the scenario names the first side; otherwise one d6 per side, the high roll chooses,
  ties roll again; the order then stays fixed.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from hxref.systems.base import Problem

from .units import (
    DIE_FACES,
    PLAYER_TURNS_PER_TURN,
    R_DIE,
    R_ELIMINATION,
    R_FIRST,
    STEPS,
    Unit,
    eliminated,
)


@dataclass(frozen=True)
class EliminationStep:
    """A2 step 3: units with 15 or more hits removed."""

    removed: tuple[str, ...]
    units: dict[str, Unit]
    why: str
    rule: str = R_ELIMINATION


def eliminating_step(units: Mapping[str, Unit], phasing: str | None = None) -> EliminationStep:
    """A5, C16: remove every unit with 15 or more hits (in a player turn only the other side's units take hits)."""
    removed = tuple(k for k, u in units.items() if eliminated(u))
    kept = {k: u for k, u in units.items() if k not in removed}
    who = f"{phasing}'s " if phasing else ""
    why = (f"{who}Eliminating Units: " + (", ".join(f"{units[k].label()} ({units[k].hits} hits)" for k in removed)
                                          + " eliminated" if removed else "no unit has 15 hits"))
    return EliminationStep(removed, kept, why)


# --------------------------------------------------------------------------
# sequence


@dataclass(frozen=True)
class PlayerTurn:
    """A2: one player's turn: movement, shooting, eliminating units."""

    turn: int
    side: str
    number: int                     # 1 or 2 within the turn
    steps: tuple[str, ...] = STEPS


def player_turns(turn: int, order: Sequence[str]) -> tuple[PlayerTurn, ...]:
    """A2, B1: the two player turns of a turn, in the fixed order of the sides."""
    if len(order) != PLAYER_TURNS_PER_TURN:
        raise ValueError("a turn is two player turns: give the two sides in order")
    return tuple(PlayerTurn(turn, side, i + 1) for i, side in enumerate(order))


def start_player_turn(units: Mapping[str, Unit], side: str) -> dict[str, Unit]:
    """The units at the start of ``side``'s player turn: its units have not moved yet (C10)."""
    return {k: (replace(u, moved=False) if u.side == side and u.moved else u) for k, u in units.items()}


@dataclass(frozen=True)
class FirstPlayer:
    """B1: who takes the first player turn (``side``), or who chooses (``chooser``) after the roll."""

    side: str | None
    chooser: str | None
    reroll: bool
    why: str
    rule: str = R_FIRST
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def first_player(rolls: Mapping[str, Any] | None = None, *, scenario: str | None = None) -> FirstPlayer:
    """B1: the scenario's first side, else one d6 per side: high roll chooses, a tie rolls again."""
    if scenario is not None:
        return FirstPlayer(scenario, None, False, f"the scenario names {scenario} to take the first player turn")
    rolls = dict(rolls or {})
    if len(rolls) != 2:
        return FirstPlayer(None, None, False, "two sides roll", problems=[Problem("one d6 per side, two sides", R_FIRST, [])])
    bad = [k for k, v in rolls.items() if not isinstance(v, int) or isinstance(v, bool) or v not in DIE_FACES]
    if bad:
        return FirstPlayer(None, None, False, "no d6", problems=[Problem(f"the roll of {bad[0]} is not a d6 (1-6)", R_DIE, [bad[0]])])
    (a, ra), (b, rb) = rolls.items()
    if ra == rb:
        return FirstPlayer(None, None, True, f"{a} {ra}, {b} {rb}: a tie, roll again")
    high = a if ra > rb else b
    return FirstPlayer(None, high, False, f"{a} {ra}, {b} {rb}: {high} chooses who takes the first player turn")
