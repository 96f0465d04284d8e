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
from .movement import (
    _adjacent_to,
    _lab,
    _occupants,
    _other,
    _parse,
    _wagon,
    step_cost,
    stop_on_entry,
    zoc_hexes,
)


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


def _check_retreat(state: Mapping, hexmap, uid: str, path: Sequence, *, partial: bool) -> RetreatCheck:
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
    side, arm = unit["side"], unit["type"]
    enemy = _other(side)
    here = _parse(hexmap, unit["hex"])
    seen = {hexmap.label(here)}
    occ = _occupants(state, hexmap, exclude=[uid])
    ezoc = zoc_hexes(state, hexmap, enemy)
    enemy_hexes = [lb for lb, us in occ.items() if any(units[u]["side"] == enemy for u in us)]
    next_to_enemy = _adjacent_to(hexmap, enemy_hexes)
    train = _wagon(state)
    train_hex = _lab(units[train].get("hex")) if train else None
    cost = step_cost(hexmap, arm)
    for i, label in enumerate(path):
        h = _parse(hexmap, label)
        if h is None:
            return bad(i, f"{label!r} is not a hex of this map")
        label = hexmap.label(h)
        if not are_adjacent(here, h):
            return bad(i, f"{label} is not adjacent to {hexmap.label(here)}: a retreat goes hex by hex")
        if label in seen:
            return bad(i, f"a retreat may not go back into {label}")
        c = cost(here, h)
        if isinstance(c, Prohibited):
            return bad(i, f"cannot retreat into {label}: {c.reason}", getattr(c, "rule", "TEC"))
        if i > 0 and stop_on_entry(hexmap, here):
            return bad(i, f"the retreat must stop in {hexmap.label(here)}: {stop_on_entry(hexmap, here)}", "TEC")
        if any(units[u]["side"] == enemy for u in occ.get(label, [])):
            return bad(i, f"{label} holds enemy units: a retreat may not enter it")
        if side == "union" and train is not None and uid != train and label == train_hex:
            return bad(i, f"{label} holds the wagon train: no Union unit may enter its hex, even when retreating "
                          "(16.0)", "16.0")
        if label in ezoc or label in next_to_enemy:
            rc.unsafe_at.append(label)
        seen.add(label)
        here = h
    rc.status = PathStatus.UNSAFE if rc.unsafe_at else PathStatus.SAFE
    return rc


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
    out = RetreatOptions(uid, hexes, PathStatus.NONE)

    def grow(prefix: list[str], at: Hex) -> None:
        for n in at.neighbours():
            if n not in hexmap.grid:
                continue
            cand = prefix + [hexmap.label(n)]
            rc = _check_retreat(state, hexmap, uid, cand, partial=len(cand) < hexes)
            if rc.problems:
                continue
            if len(cand) < hexes:
                grow(cand, n)
            else:
                (out.safe if rc.status is PathStatus.SAFE else out.unsafe).append(cand)

    grow([], start)
    out.status = PathStatus.SAFE if out.safe else PathStatus.UNSAFE if out.unsafe else PathStatus.NONE
    return out
