"""The shape of an ACW miniatures game's state: what :meth:`.system.AcwMinis.setup` builds and
:meth:`.system.AcwMinis.resolve` keeps.

A unit is kept as :meth:`.units.Unit.to_dict` writes it (the frozen :class:`.units.Unit`'s fields;
``figures`` and ``name`` left out when the record gives none), plus ``eliminated`` once the
Eliminating Units step removes it (A5).  The scenario's victory conditions are its own (B3) and
are kept as the scenario gives them; the rules read the keys typed required here.
"""
from __future__ import annotations

from typing import NotRequired, TypedDict


class UnitRecord(TypedDict):
    """One unit on the table (A1, C14): :class:`.units.Unit` as plain data."""

    id: str
    type: str
    x: float
    y: float
    facing: float
    frontage: float
    depth: float
    side: str
    hits: int
    figures: NotRequired[int]           # A1: the players' choice; no rules effect
    moved: bool                         # moved in this player turn (C10)
    name: NotRequired[str]
    eliminated: NotRequired[bool]       # removed in an Eliminating Units step (A5)


#: one shot of a player turn, as the table picture draws it and the report lists it (A4)
ShotRecord = TypedDict("ShotRecord", {
    "from": str, "to": str, "range": int | None, "arc": int, "label": str, "distance": float | None,
    "hits": int, "die": int | None, "cover": bool})


class LastTurn(TypedDict):
    """The last player turn (A2): its moves, shots and eliminations; no side nor turn before the first."""

    side: NotRequired[str]
    turn: NotRequired[int]
    moves: list[str]
    shots: list[ShotRecord]
    eliminated: list[str]


class HistoryRow(TypedDict):
    """One player turn's shots and eliminations, for the record."""

    turn: int
    side: str
    shots: list[ShotRecord]
    eliminated: list[str]


class EliminationRule(TypedDict):
    """The scenario's sudden-death condition (B3): so many enemy units eliminated."""

    enemy_units: int
    checked: NotRequired[str]
    result: NotRequired[str]


class TownRule(TypedDict):
    """The scenario's end-of-game condition (B3): the side alone holding a town area."""

    area: str
    at_end_of_turn: int
    holder: NotRequired[str]
    in_area: NotRequired[str]
    result: NotRequired[str]


class VictoryRule(TypedDict):
    """The scenario's victory conditions (B3; the rules give none)."""

    rule: str
    elimination: EliminationRule
    town: TownRule
    otherwise: NotRequired[str]
    stand_in: NotRequired[bool]
    text: NotRequired[str]


class AcwResult(TypedDict):
    """How the game ended: the winner (None for a draw) and why."""

    winner: str | None
    why: str


class AcwState(TypedDict):
    """The whole state of an ACW miniatures game."""

    scenario: str
    title: str
    map: str
    turn: int
    turns: int
    order: list[str]                    # the sides in player-turn order (B1)
    phasing_index: int
    mode: str
    units: dict[str, UnitRecord]
    options: dict[str, bool]            # the scenario options (C8 road_following, C6 fire_arc_centre)
    victory_rule: VictoryRule
    last: LastTurn
    history: list[HistoryRow]
    result: AcwResult | None
    eliminated: dict[str, list[str]]    # per side, its units eliminated (A5)

