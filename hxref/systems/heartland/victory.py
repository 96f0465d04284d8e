"""Victory points (3.16) by the scenario's schedule.

The rules seed gives no victory conditions (digest section C): a scenario's
``victory:`` block is its own schedule, marked ``stand_in`` when invented.
Points are counted from the state at any moment: each place to the side that
holds it (the last side with a force in the hex), each enemy step lost, and
each enemy leader killed or captured -- not one lost to sickness (8.13).

In a game with hidden armies the steps lost and the leaders fallen are on each side's own display
(3.71): no copy knows the enemy's, so the result at the game's end waits for the proof, which
compares both (:func:`awaits_proof`), and is decided on the true state it shows.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .state_types import FullGameState, VictoryRules
from . import model
from .fog import hidden_armies
from ...kit.events import Event, event

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


def awaits_proof(state: FullGameState) -> bool:
    """The result reads both sides' Army Organization Displays, which in a game with hidden armies
    only the proof compares (3.71): until it has, no copy announces it."""
    return hidden_armies(state) and not state.get("aods_compared")


def decide(state: FullGameState) -> Event:
    """The game's result from the state at its end (14.0): written in the state, and the event that
    announces it (who won, by how much)."""
    update_control(state)
    sc = score(state)
    state["result"] = {"points": sc.points, "winner": sc.winner, "level": sc.level, "margin": sc.margin}
    return event("victory", sc.why + (" (stand-in VP schedule)" if sc.stand_in else ""), "3.16",
                 points=sc.points, winner=sc.winner)
