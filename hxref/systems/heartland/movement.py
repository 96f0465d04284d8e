"""Moving one force along its ordered path (8.2-8.26, 3.61).

By e-mail a player cannot see the IMC roll before choosing a path, so an
order gives the *intended* path and the referee moves the force along it as
far as the rolled MP allow (8.23: a force may use part of its MP).  What
can be known when the order is written is checked before the file is
accepted (:func:`path_problems`): every step adjacent and enterable, no
enemy-occupied hex, no ZOC-to-ZOC step (3.61), an inactive force not
entering enemy ZOC (3.61), and nothing after a hex in enemy ZOC (8.26: a
force entering enemy ZOC stops there).  What depends on the dice is applied
at resolution (:func:`walk`): the MP run out, or the force stops.  The hexes a path that
passes :func:`path_problems` may end in, with their cheapest costs, are :func:`reachable` (and the
cheapest path to one, :func:`cheapest_path`).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from ...geometry.paths import MoveGraph, MoveRules, Reach
from ...kit.walk import Refusal, Rule, WalkRules
from ...kit.walk import walk as walk_path
from ..base import Problem

#: checking an order before the dice (8.2, 8.24, 8.26, 3.61)
CHECK = WalkRules(
    move="8.21",
    not_a_hex=Rule("8.2", "{to!r} is not a hex of this map"),
    not_adjacent=Rule("8.2", "{to} is not adjacent to {frm}: a path goes hex by hex"),
    prohibited=Rule("8.24", "cannot enter {to} from {frm}: {why}"),
    go_on=Rule("8.26", "the path goes on after {at}, which is in enemy ZOC: a force entering enemy ZOC stops there"),
    zoc_stop=Rule("3.61", "entered enemy ZOC in {to}"),
    zoc_to_zoc=Rule("3.61", "{frm} to {to} moves from one enemy ZOC hex to another (ZOC to ZOC)"),
)
#: an inactive leader's force (3.61)
CHECK_INACTIVE = replace(CHECK, zoc_entry=Rule("3.61", "an inactive leader's force may not enter enemy ZOC ({to})"))
#: moving at resolution along a checked path while the rolled MP last (8.21, 8.23, 3.61)
RESOLVE = WalkRules(
    move="8.21",
    done="end of the ordered path",
    prohibited=Rule("8.21", "{to} cannot be entered"),
    out_of_mp=Rule("8.21", "out of movement points ({spent} of {mp} used; {to} costs {cost})"),
    zoc_stop=Rule("3.61", "entered enemy ZOC in {to}"),
)


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


def _hex_of(hexmap) -> Callable:
    def hex_of(label: str):
        try:
            return hexmap.parse(label)
        except Exception:
            return None

    return hex_of


def path_problems(path: list[str], *, start: str, hexmap, cost: Callable, enemy_zoc: set[str],
                  enemy_occupied: set[str], active: bool, index: int = 0) -> list[Problem]:
    """Everything wrong with an ordered path that is known before the dice (8.24, 8.26, 3.61)."""
    def enters(i: int, label: str) -> Refusal | None:
        if label in enemy_occupied:
            return Refusal(f"{label} holds enemy units; a force attacks them from an adjacent hex instead", "8.26")
        return None

    w = walk_path(path, cost, start=start, rules=CHECK if active else CHECK_INACTIVE, hex_of=_hex_of(hexmap),
                  zoc=enemy_zoc.__contains__, enters=enters)
    if w.legal:
        return []
    return [Problem(w.why, w.rule, ["moves", index, "path", w.at])]


def reachable(*, start: str, mp: float | None, hexmap, cost: Callable, enemy_zoc: set[str],
              enemy_occupied: set[str], active: bool) -> dict[str, float]:
    """Every hex a path from ``start`` may end in under the rules :func:`path_problems` checks, with
    its cheapest cost in MP (at most ``mp``; None: no limit), the start left out: no hex with enemy
    units (8.26), a force stops on entering enemy ZOC (8.26, 3.61) and never steps from one enemy ZOC
    hex into another (3.61), an inactive leader's force enters no enemy ZOC (3.61); the terrain's
    costs and prohibited steps are ``cost``'s (8.24)."""
    found = _search(start, mp, hexmap, cost, enemy_zoc, enemy_occupied, active).costs()
    return {hexmap.label(h): c for h, c in found.items() if hexmap.label(h) != start}


def cheapest_path(to: str, *, start: str, mp: float | None, hexmap, cost: Callable, enemy_zoc: set[str],
                  enemy_occupied: set[str], active: bool) -> list[str] | None:
    """The cheapest path (the hexes entered) of :func:`reachable`'s search to ``to``, or None."""
    hexes = _search(start, mp, hexmap, cost, enemy_zoc, enemy_occupied, active).path_to(hexmap.parse(to))
    return None if hexes is None else [hexmap.label(h) for h in hexes[1:]]


def _search(start: str, mp: float | None, hexmap, cost: Callable, enemy_zoc: set[str], enemy_occupied: set[str],
            active: bool) -> Reach:
    zoc = {h for h in map(_hex_of(hexmap), enemy_zoc) if h is not None}
    barred = {h for h in map(_hex_of(hexmap), enemy_occupied) if h is not None} | (set() if active else zoc)

    def step(a, b):
        return None if b in barred else cost(a, b)

    rules = MoveRules(step, stops=zoc.__contains__, zoc=zoc.__contains__)
    return MoveGraph(hexmap.hexes(), rules).search(hexmap.parse(start), max_cost=mp)


def walk(path: list[str], *, start: str, mp: float, hexmap, cost: Callable, enemy_zoc: set[str]) -> Walk:
    """Move along an already checked path while the MP last; stop on entering enemy ZOC (3.61)."""
    if mp < 1 and path:
        return Walk(hexes=[start], spent=0, mp=mp, stopped="no movement points")
    w = walk_path(path, cost, start=start, rules=RESOLVE, hex_of=_hex_of(hexmap), mp=mp, zoc=enemy_zoc.__contains__)
    if w.halt is not None:          # the ZOC stop, even were the path to go on (3.61)
        stopped, rule = w.halt.why, w.halt.rule
    else:
        stopped, rule = w.why, w.rule
    return Walk(hexes=w.hexes, spent=w.spent, mp=mp, stopped=stopped, in_enemy_zoc=w.halt is not None, rule=rule,
                steps=[(s.to, s.cost) for s in w.steps])
