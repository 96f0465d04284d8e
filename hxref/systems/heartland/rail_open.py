"""Open track (8.71): who was last on each rail hex, and opening a stretch for one's own side.

A side may open one stretch a turn, from a station to the next, when its own units were the last
to occupy every rail hex of it (passing through counts).  Open track is tracked only by a scenario
that keeps ``rail_open``; :func:`.rail.open_to` reads it for rail movement.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from .state_types import FullGameState
from ..base import Problem
from .rail import is_rail_hex, is_station, rail_cuts, rail_path


def note_passage(state: FullGameState, hexmap, side: str, entered: Iterable[str]) -> list[str]:
    """8.71: ``side``'s units were the last to occupy the rail hexes they entered (passing through
    counts).  Kept only when the state tracks open track (``rail_open``).  Returns the rail hexes
    whose last occupier changed to ``side``."""
    if state.get("rail_open") is None:
        return []
    last = state.setdefault("rail_last", {})
    changed = []
    for label in entered:
        if is_rail_hex(hexmap, label) and last.get(str(label)) != side:
            last[str(label)] = side
            changed.append(str(label))
    return changed


@dataclass
class OpenStretch:
    """A side opens one stretch of track, station to next station, for its own use (8.71)."""

    side: str
    start: str
    end: str
    hexes: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.71"


def open_stretch(state: FullGameState, hexmap, side: str, start: str, end: str) -> OpenStretch:
    """8.71: one stretch a turn, from a station to the next, every rail hex of it last occupied by
    the side's own units; the stretch must be unbroken (no Rail Line Cut marker, 8.63)."""
    o = OpenStretch(side, start, end)

    def bad(msg: str) -> OpenStretch:
        o.problems.append(Problem(msg, "8.71", []))
        return o

    if state.get("rail_open") is None:
        return bad("this scenario does not track open track: every unbroken line is open to both sides")
    for label in (start, end):
        if not is_station(hexmap, label):
            return bad(f"{label} is not a station (a town or major city on a rail line)")
    if (state.get("rail_opened") or {}).get(side) == state.get("turn", 0):
        return bad(f"{side} has already opened a stretch this turn (one a turn)")
    path = rail_path(hexmap, start, end, blocked=rail_cuts(state))
    if path is None or start == end:
        return bad(f"no unbroken track joins {start} and {end}")
    between = [x for x in path[1:-1] if is_station(hexmap, x)]
    if between:
        return bad(f"{start} to {end} is more than one stretch: {between[0]} is a station between them")
    last = state.get("rail_last") or {}
    missing = [x for x in path if last.get(x) != side]
    if missing:
        return bad(f"{side}'s units were not the last to occupy every rail hex from {start} to {end} "
                   f"(not: {', '.join(missing)})")
    o.hexes = path
    return o


def apply_open_stretch(state: FullGameState, o: OpenStretch) -> None:
    """The stretch becomes open to its side and is no longer open to the enemy (8.71: the line is
    open for the side that controls it)."""
    if o.problems:
        raise ValueError("cannot open an illegal stretch: " + o.problems[0].message)
    opened = state.setdefault("rail_open", {})
    for s in list(opened):
        if s != o.side:
            opened[s] = [x for x in opened[s] if x not in o.hexes]
    mine = opened.setdefault(o.side, [])
    mine += [x for x in o.hexes if x not in mine]
    state.setdefault("rail_opened", {})[o.side] = state.get("turn", 0)
