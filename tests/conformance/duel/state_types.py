"""The shape of a Hex Duel game's state: what :meth:`.system.HexDuel.setup` builds from the scenario
and :meth:`.system.HexDuel.resolve` keeps.  The state stays plain data (the game file's YAML); these
types name its keys for the type checker."""
from __future__ import annotations

from typing import TypedDict


class Unit(TypedDict):
    """One counter (H1), as the scenario gives it; ``hex`` is None once it is eliminated (H5)."""

    side: str
    name: str                       # its own side's to know (H8)
    arm: str                        # foot | horse: the terrain chart's costs are per arm (H3)
    strength: int
    ma: int
    hex: str | None


class GameResult(TypedDict):
    """How the game ended (H7): the winner (None for a draw), by how much, and why."""

    winner: str | None
    margin: int
    how: str


class DuelState(TypedDict):
    stage: str                      # play | over
    turn: int
    turns: int                      # the scenario's last turn (H7)
    sides: list[str]                # in the order they give orders each turn (H2)
    phasing: str
    mode: str                       # umpired | open | solo (H8: only umpired play hides units)
    map: str
    objectives: dict[str, str | None]   # place -> the side holding it (H6)
    units: dict[str, Unit]
    result: GameResult | None
