"""Moving one force along its ordered path (8.2-8.26, 3.61).

By e-mail a player cannot see the IMC roll before choosing a path, so an
order gives the *intended* path and the referee moves the force along it as
far as the rolled MP allow (8.23: a force may use part of its MP).  What
can be known when the order is written is checked before the file is
accepted (:func:`path_problems`): every step adjacent and enterable, no
enemy-occupied hex, no ZOC-to-ZOC step (3.61), an inactive force not
entering enemy ZOC (3.61), and nothing after a hex in enemy ZOC (8.26: a
force entering enemy ZOC stops there).  What depends on the dice is applied
at resolution (:func:`walk`): the MP run out, or the force stops.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ...geometry.hex import are_adjacent
from ...geometry.paths import Prohibited, is_prohibited
from ..base import Problem


@dataclass
class Walk:
    """Where a force got to and why it stopped."""

    hexes: list[str]                  # start first, then every hex entered
    spent: float
    mp: float
    stopped: str                      # why the move ended
    in_enemy_zoc: bool = False
    rule: str = "8.21"
    steps: list[tuple[str, float]] = field(default_factory=list)   # (hex, cost) per hex entered

    @property
    def end(self) -> str:
        return self.hexes[-1]


def path_problems(path: list[str], *, start: str, hexmap, cost: Callable, enemy_zoc: set[str],
                  enemy_occupied: set[str], active: bool, index: int = 0) -> list[Problem]:
    """Everything wrong with an ordered path that is known before the dice (8.24, 8.26, 3.61)."""
    problems: list[Problem] = []
    here = start
    where = ["moves", index, "path"]
    for i, label in enumerate(path):
        try:
            nxt = hexmap.parse(label)
        except Exception:
            return [Problem(f"{label!r} is not a hex of this map", "8.2", where + [i])]
        cur = hexmap.parse(here)
        if not are_adjacent(cur, nxt):
            return [Problem(f"{label} is not adjacent to {here}: a path goes hex by hex", "8.2", where + [i])]
        c = cost(cur, nxt)
        if is_prohibited(c):
            reason = c.reason if isinstance(c, Prohibited) else "prohibited"
            return [Problem(f"cannot enter {label} from {here}: {reason}", "8.24", where + [i])]
        if label in enemy_occupied:
            return [Problem(f"{label} holds enemy units; a force attacks them from an adjacent hex instead",
                            "8.26", where + [i])]
        if here in enemy_zoc and label in enemy_zoc:
            return [Problem(f"{here} to {label} moves from one enemy ZOC hex to another (ZOC to ZOC)",
                            "3.61", where + [i])]
        if label in enemy_zoc:
            if not active:
                return [Problem(f"an inactive leader's force may not enter enemy ZOC ({label})", "3.61",
                                where + [i])]
            if i != len(path) - 1:
                return [Problem(f"the path goes on after {label}, which is in enemy ZOC: "
                                "a force entering enemy ZOC stops there", "8.26", where + [i + 1])]
        here = label
    return problems


def walk(path: list[str], *, start: str, mp: float, hexmap, cost: Callable, enemy_zoc: set[str]) -> Walk:
    """Move along an already checked path while the MP last; stop on entering enemy ZOC (3.61)."""
    w = Walk(hexes=[start], spent=0, mp=mp, stopped="end of the ordered path")
    if mp < 1 and path:
        w.stopped = "no movement points"
        return w
    here = start
    for label in path:
        c = cost(hexmap.parse(here), hexmap.parse(label))
        if is_prohibited(c):    # cannot happen for a checked path; stop safely
            w.stopped = f"{label} cannot be entered"
            return w
        if w.spent + c > mp:
            w.stopped = f"out of movement points ({_num(w.spent)} of {_num(mp)} used; {label} costs {_num(c)})"
            return w
        w.spent += c
        w.hexes.append(label)
        w.steps.append((label, c))
        here = label
        if label in enemy_zoc:
            w.stopped = f"entered enemy ZOC in {label}"
            w.in_enemy_zoc = True
            w.rule = "3.61"
            return w
    return w


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
