"""Victory points (3.16) by the scenario's schedule.

The rules seed gives no victory conditions (digest section C): a scenario's
``victory:`` block is its own schedule, marked ``stand_in`` when invented.
Points are counted from the state at any moment: each place to the side that
holds it (the last side with a force in the hex), each enemy step lost, and
each enemy leader killed or captured -- not one lost to sickness (8.13).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .state_types import FullGameState, VictoryRules
from . import model

SIDES = ("union", "confederate")


@dataclass
class Score:
    points: dict[str, int]
    breakdown: dict[str, list[str]] = field(default_factory=dict)
    winner: str | None = None
    margin: int = 0
    level: str = "draw"          # draw | marginal | decisive
    stand_in: bool = True

    @property
    def why(self) -> str:
        pts = ", ".join(f"{s} {self.points[s]} VP" for s in SIDES)
        if self.winner is None:
            return f"{pts}: a draw"
        return f"{pts}: {self.level} victory for the {self.winner} (by {self.margin})"


def schedule(state: FullGameState) -> VictoryRules:
    return state.get("victory") or {}


def update_control(state: FullGameState) -> None:
    """A place belongs to the last side with a force in it (its leaders or unled units)."""
    sched = schedule(state)
    if not sched:
        return
    control = state.setdefault("control_vp", dict(sched.get("initial_control", {})))
    for label in sched.get("places", {}):
        here = {s for s in SIDES if label in model.occupied_hexes(state, s)}
        if len(here) == 1:
            control[label] = here.pop()


def _initial_steps(state: FullGameState) -> dict[str, int]:
    return state.setdefault("initial_steps", {uid: u["steps"] for uid, u in state["units"].items()})


def score(state: FullGameState) -> Score:
    sched = schedule(state)
    control = state.get("control_vp") or dict(sched.get("initial_control", {}))
    points = {s: 0 for s in SIDES}
    why: dict[str, list[str]] = {s: [] for s in SIDES}
    for label, vp in sched.get("places", {}).items():
        holder = control.get(label)
        if holder in points:
            points[holder] += vp
            why[holder].append(f"{label} held: {vp}")
    initial = _initial_steps(state)
    per_step = sched.get("per_step", 0)
    for uid, u in state["units"].items():
        lost = max(0, initial.get(uid, u["steps"]) - u["steps"])
        if lost and per_step:
            enemy = model.other_side(u["side"])
            points[enemy] += lost * per_step
            why[enemy].append(f"{u['name']}: {lost} step(s)")
    per_leader = sched.get("per_leader", 0)
    for ld in state["leaders"].values():
        if (ld.get("killed") or ld.get("captured")) and not (ld.get("removed") or ld.get("no_vp")) and per_leader:
            enemy = model.other_side(ld["side"])
            points[enemy] += per_leader
            why[enemy].append(f"{ld['name']} {'killed' if ld.get('killed') else 'captured'}: {per_leader}")
    s = Score(points, why, stand_in=bool(sched.get("stand_in", True)))
    a, b = SIDES
    if points[a] != points[b]:
        s.winner = a if points[a] > points[b] else b
        s.margin = abs(points[a] - points[b])
        s.level = "decisive" if s.margin >= sched.get("decisive_margin", 10 ** 9) else "marginal"
    return s
