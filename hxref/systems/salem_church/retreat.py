"""Salem Church movement: retreat paths (CRT key; E "unsafe path"; 16.0).

A retreat is 1-3 hexes, each adjacent to the last, never back to a hex already left; no
enemy-occupied hex or forbidden terrain; heavy woods only as the last hex (it stops).  It
is unsafe when a hex entered is in an enemy ZOC or adjacent to an enemy unit (E stand-in):
the unit routs; with no legal path at all it is captured (CRT key).  :func:`check_retreat`
-> :class:`RetreatCheck` checks one path; :func:`retreat_status` -> :class:`RetreatOptions`
says what the paths of a retreat of so many hexes can be.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ...geometry.hex import Hex, are_adjacent
from ...geometry.paths import Prohibited
from ..base import Problem
from .counters import RETREAT_HEXES, PathStatus
from .movement import _lab, _other, _parse, step_cost, stop_on_entry, surroundings


# --------------------------------------------------------------------------
# retreat paths (CRT key; E "unsafe path"; 16.0)


@dataclass
class RetreatCheck:
    """One retreat path: safe, unsafe (the unit routs) or illegal (the problems)."""

    unit: str
    path: list[str]
    status: PathStatus | None = None        # SAFE or UNSAFE; None when the path is illegal
    unsafe_at: list[str] = field(default_factory=list)
    rule: str = "CRT key"
    problems: list[Problem] = field(default_factory=list)

    @property
    def why(self) -> str:
        if self.problems:
            return f"{self.unit}: no retreat along {' -> '.join(self.path) or '(nothing)'}: {self.problems[0].message}"
        if self.status is PathStatus.UNSAFE:
            return (f"{self.unit}: retreat {' -> '.join(self.path)} is unsafe at {', '.join(self.unsafe_at)} "
                    "(in an enemy ZOC or next to an enemy unit, E stand-in): the unit routs (CRT key)")
        return f"{self.unit}: retreat {' -> '.join(self.path)} is safe (CRT key)"


def check_retreat(state: Mapping, hexmap, uid: str, path: Sequence) -> RetreatCheck:
    """Check a retreat of ``uid`` along ``path`` (the hexes entered): legal, and safe or unsafe."""
    return _check_retreat(state, hexmap, uid, path, partial=False)


def _check_retreat(state: Mapping, hexmap, uid: str, path: Sequence, *, partial: bool,
                   ground: _Ground | None = None) -> RetreatCheck:
    """CRT key: the unit on the map retreats 1-3 hexes (fewer while ``partial``), hex by hex
    (:class:`_Ground` says what refuses each hex; ``ground``: the one already made for this unit
    and state); a hex in an enemy ZOC or next to an enemy unit makes the path unsafe (E)."""
    units = state["units"]
    path = [_lab(p) for p in path]
    rc = RetreatCheck(uid, path)

    def bad(i: int, message: str, rule: str = "CRT key") -> RetreatCheck:
        rc.problems.append(Problem(message, rule, ["retreat", i]))
        return rc

    unit = units.get(uid)
    if unit is None or unit.get("hex") is None:
        return bad(0, f"{uid} is not a unit on the map")
    lo, hi = RETREAT_HEXES
    if not partial and not lo <= len(path) <= hi:
        return bad(0, f"a retreat is {lo}-{hi} hexes, not {len(path)} (CRT key)")
    here = _parse(hexmap, unit["hex"])
    if here is None:
        return bad(0, f"{uid} is not in a hex of this map")
    ground = ground or _Ground(state, hexmap, uid, unit)
    seen = {hexmap.label(here)}
    for i, label in enumerate(path):
        h = _parse(hexmap, label)
        if h is None:
            return bad(i, f"{label!r} is not a hex of this map")
        label = hexmap.label(h)
        why = ground.step_refusal(here, h, label, seen) or ground.terrain_refusal(i, here, h, label) \
            or ground.occupied_refusal(label)
        if why is not None:
            return bad(i, *why)
        if label in ground.ezoc or label in ground.next_to_enemy:
            rc.unsafe_at.append(label)
        seen.add(label)
        here = h
    rc.status = PathStatus.UNSAFE if rc.unsafe_at else PathStatus.SAFE
    return rc


class _Ground:
    """What the map and the other units say about the hexes a unit retreats into (CRT key, TEC, 16.0)."""

    def __init__(self, state: Mapping, hexmap, uid: str, unit: Mapping) -> None:
        units = state["units"]
        self.hexmap, self.uid, self.units = hexmap, uid, units
        self.side = unit["side"]
        self.enemy = _other(self.side)
        around = surroundings(state, hexmap, uid, self.side)
        self.occ, self.ezoc, self.next_to_enemy = around.occ, around.ezoc, around.next_to_enemy
        self.train, self.train_hex = around.train, around.train_hex
        self.cost = step_cost(hexmap, unit["type"])

    def step_refusal(self, here: Hex, h: Hex, label: str, seen: set[str]) -> tuple[str] | None:
        """CRT key: each hex adjacent to the last, never back into a hex already left."""
        if not are_adjacent(here, h):
            return (f"{label} is not adjacent to {self.hexmap.label(here)}: a retreat goes hex by hex",)
        if label in seen:
            return (f"a retreat may not go back into {label}",)
        return None

    def terrain_refusal(self, i: int, here: Hex, h: Hex, label: str) -> tuple[str, str] | None:
        """TEC: the step is allowed, and heavy woods only as the last hex."""
        c = self.cost(here, h)
        if isinstance(c, Prohibited):
            return f"cannot retreat into {label}: {c.reason}", getattr(c, "rule", "TEC")
        if i > 0 and stop_on_entry(self.hexmap, here):
            return f"the retreat must stop in {self.hexmap.label(here)}: {stop_on_entry(self.hexmap, here)}", "TEC"
        return None

    def occupied_refusal(self, label: str) -> tuple[str] | tuple[str, str] | None:
        """CRT key: no enemy-occupied hex; 16.0: no Union unit enters the wagon train's hex."""
        if any(self.units[u]["side"] == self.enemy for u in self.occ.get(label, [])):
            return (f"{label} holds enemy units: a retreat may not enter it",)
        if self.side == "union" and self.train is not None and self.uid != self.train and label == self.train_hex:
            return (f"{label} holds the wagon train: no Union unit may enter its hex, even when retreating "
                    "(16.0)", "16.0")
        return None


@dataclass
class RetreatOptions:
    """Every legal retreat of a given length: the best status for ``combat.settle``."""

    unit: str
    hexes: int
    status: PathStatus
    safe: list[list[str]] = field(default_factory=list)
    unsafe: list[list[str]] = field(default_factory=list)
    rule: str = "CRT key"

    @property
    def why(self) -> str:
        if self.status is PathStatus.SAFE:
            return f"{self.unit}: {len(self.safe)} safe retreat path(s) of {self.hexes} hexes (CRT key)"
        if self.status is PathStatus.UNSAFE:
            return (f"{self.unit}: only unsafe retreat paths of {self.hexes} hexes ({len(self.unsafe)}): "
                    "the unit routs (CRT key)")
        return f"{self.unit}: no retreat path of {self.hexes} hexes: the unit is captured (CRT key)"


def retreat_status(state: Mapping, hexmap, uid: str, hexes: int) -> RetreatOptions:
    """All retreat paths of exactly ``hexes`` hexes for ``uid``: SAFE if one is safe, UNSAFE if
    only unsafe ones exist (rout), NONE if there is none (captured) -- the CRT key."""
    lo, hi = RETREAT_HEXES
    if not lo <= hexes <= hi:
        raise ValueError(f"a retreat is {lo}-{hi} hexes, not {hexes} (CRT key)")
    unit = state["units"][uid]
    start = _parse(hexmap, unit["hex"])
    if start is None:
        raise ValueError(f"{uid} is not in a hex of this map: it has no retreat (CRT key)")
    out = RetreatOptions(uid, hexes, PathStatus.NONE)
    ground = _Ground(state, hexmap, uid, unit)      # the same for every path tried: the state stands still

    def grow(prefix: list[str], at: Hex) -> None:
        for n in at.neighbours():
            if n not in hexmap.grid:
                continue
            cand = prefix + [hexmap.label(n)]
            rc = _check_retreat(state, hexmap, uid, cand, partial=len(cand) < hexes, ground=ground)
            if rc.problems:
                continue
            if len(cand) < hexes:
                grow(cand, n)
            else:
                (out.safe if rc.status is PathStatus.SAFE else out.unsafe).append(cand)

    grow([], start)
    out.status = PathStatus.SAFE if out.safe else PathStatus.UNSAFE if out.unsafe else PathStatus.NONE
    return out
