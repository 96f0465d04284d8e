"""Salem Church victory (14.0-14.3), hex control and the stand-in victory points.

Pure functions on the state; the conditions come from the scenario's ``victory:`` block
(``games/salem_church/scenarios/salem-church.yaml``), which is 14.x as data.  Every
result lists every condition with whether it was met and why, so a report can say
why the game ended as it did.

* 14.1 **Union major victory** -- at the end of turn 14, *both*: the wagon train (16.0)
  has exited the map through 0107 or 0903, *and* a Union unit occupies, or was the last
  unit to pass through, 1204 or 2114 (either hex is enough).
* 14.2 **Confederate major victory** -- at the end of turn 14, *either*: the
  Confederates have captured the wagon train, *or* for each of 1204, 1302, 2114 and
  2407 a Confederate unit occupies it or was the last unit to pass through it.
* 14.3 otherwise each side totals its VP: more VP is a **marginal victory**, equal VP a
  **draw**.  The VP schedule is in the missing standard rules; the scenario's stand-in
  is 1 VP per enemy step lost, counted at the end of the game.

State layout (shared with :mod:`.views`)::

    state["turn"]          the current turn (1-14)
    state["units"][uid]    {"side": "union" | "confederate",
                            "type": "infantry" | "artillery" | "leader" | "wagon_train",
                            "hex": "1204" | None (off the map: not arrived, exited, eliminated),
                            "steps": steps left (0: eliminated), "name": ..., ...}
    state["control"]       {hex label: side} -- who occupies or last passed through it
                           (:func:`update_control`); a hex no unit has entered is absent
    state["wagon"]         {"exited": "victory" | "escape" | None, "captured": bool,
                            "hex": the exit hex (optional)} -- 16.0: "victory" = left
                           through 0107/0903, "escape" = through 1204/1302 (only avoids
                           capture)
    state["initial_steps"] {uid: steps at full strength} (else the scenario's counters)

Readings where the rules are silent (games/salem_church/readings.md; digest G4, G6):

* "Unit" that holds a hex = a **combat unit** (infantry, artillery); not a leader, not
  the wagon train (the scenario's ``hold_units``; 16.0 treats the train apart from
  "Union units").
* **Any entry counts** as passing through, whatever the reason -- movement, reinforcement
  entry, retreat, rout, advance after combat: the caller passes every path, in the order
  the units moved.  A path is the hexes the unit entered, in order (its start hex may be
  included; that changes nothing).
* A hex **no unit has entered belongs to nobody**; control lasts after the unit leaves
  until an enemy combat unit enters it.  After the paths, the units on the map set
  control of their hexes (an occupier is the last to have entered).  An eliminated unit
  holds nothing, but the hexes it passed through before count.
* The wagon train's exit through 1204/1302 (16.0 "to avoid capture") is neither the
  exit 14.1 asks for nor a capture for 14.2 (G6).  Exited and captured together is a
  broken state and is refused.
* 14.1 and 14.2 are checked **at the end of turn 14** (``check_at_end_of_turn``); called
  earlier, :func:`determine` gives the standing "as things stand" with ``final=False``.
  ``end_of_turn`` defaults to ``state["turn"]``: call it after the turn's last phase.
* VP (stand-in, ``marginal.vp``): 1 VP to a side per step its enemy has lost, counted at
  the end of the game as full strength less steps left -- so a step replaced before the
  end (13.2, 13.3) is not lost.  Every counter counts by its steps (a killed leader or a
  captured unit whose steps went to 0 counts; one off the map with steps left does not).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ...base.errors import InvalidInput
from .state_types import ConditionRecord, SalemState, ScoreRecord, VictoryRecord

SIDES = ("union", "confederate")
SIDE_NAMES = {"union": "Union", "confederate": "Confederate"}
#: 14.x "unit" that holds a hex: the scenario's ``hold_units: combat units`` (digest G4)
COMBAT_TYPES = ("infantry", "artillery")
WAGON_EXITS = ("victory", "escape")          # 16.0


def _other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def _hexes(labels: Iterable[str]) -> str:
    labels = list(labels)
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def _or(labels: Iterable[str]) -> str:
    labels = list(labels)
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]


# --------------------------------------------------------------------------
# hex control (14.1, 14.2: "occupies, or was the last unit to pass through")


@dataclass(frozen=True)
class ControlChange:
    """A hex changed hands: ``unit`` of ``side`` passed through or occupies it."""

    hex: str
    side: str
    previous: str | None
    unit: str
    how: str                      # "passed through" | "occupies"
    rule: str = "14.1, 14.2"

    @property
    def why(self) -> str:
        was = f"{SIDE_NAMES.get(self.previous, self.previous)}" if self.previous else "nobody's"
        return f"{self.hex}: {SIDE_NAMES[self.side]} ({self.unit} {self.how} it; was {was}) [{self.rule}]"


def holder(state: Mapping, label: str) -> str | None:
    """The side that holds ``label`` (occupies it or last passed through it), or None."""
    return (state.get("control") or {}).get(label)


def _holds(u: Mapping) -> bool:
    return u.get("type") in COMBAT_TYPES and u.get("side") in SIDES


def _paths(moves: Any) -> list[tuple[str, list[str]]]:
    if moves is None:
        return []
    items = list(moves.items()) if isinstance(moves, Mapping) else list(moves)
    out = []
    for i, item in enumerate(items):
        if isinstance(item, Mapping):
            uid, path = item.get("unit"), item.get("path")
        elif isinstance(item, (tuple, list)) and len(item) == 2:
            uid, path = item
        else:
            raise InvalidInput(f"move {i + 1}: give (unit, path) or {{unit: ..., path: [...]}}", path=f"moves[{i}]")
        if not isinstance(path, (list, tuple)) or not all(isinstance(h, str) for h in path):
            raise InvalidInput(f"move {i + 1} ({uid}): the path is a list of hex labels such as ['2114', '2013']",
                               path=f"moves[{i}]")
        out.append((str(uid), list(path)))
    return out


def update_control(state: SalemState, moves: Any = ()) -> list[ControlChange]:
    """Record who holds each hex after ``moves`` (14.1, 14.2); changes ``state["control"]``.

    ``moves``: every unit's path this turn in the order the units moved -- a list of
    ``(uid, [hex, ...])`` or ``{"unit": uid, "path": [...]}``, or a mapping uid -> path
    (insertion order).  Each combat unit's path gives each hex it entered to its side,
    in order; then every combat unit on the map with steps left gives its own hex to its
    side.  Leaders and the wagon train hold nothing.  Returns the changes, in order.
    """
    units = state.get("units") or {}
    control = state.setdefault("control", {})
    changes: list[ControlChange] = []

    def give(label: str, side: str, uid: str, how: str) -> None:
        prev = control.get(label)
        if prev != side:
            control[label] = side
            changes.append(ControlChange(label, side, prev, uid, how))

    for uid, path in _paths(moves):
        u = units.get(uid)
        if u is None:
            raise InvalidInput(f"unknown unit {uid!r} in the moves", path=uid)
        if _holds(u):
            for label in path:
                give(label, u["side"], uid, "passed through")
    occupied: dict[str, str] = {}
    for uid, u in units.items():
        if _holds(u) and u.get("hex") is not None and (u.get("steps") or 0) > 0:
            label = str(u["hex"])
            if occupied.setdefault(label, u["side"]) != u["side"]:
                raise InvalidInput(f"units of both sides in {label}", path=uid)
            give(label, u["side"], uid, "occupies")
    return changes


# --------------------------------------------------------------------------
# results


@dataclass
class Condition:
    """One victory condition, or one part of one: met or not, and why."""

    rule: str
    side: str | None
    text: str
    met: bool
    why: str
    parts: tuple["Condition", ...] = ()

    def lines(self, indent: str = "") -> list[str]:
        out = [f"{indent}{self.rule} {self.text}: {'met' if self.met else 'not met'} -- {self.why}"]
        for p in self.parts:
            out.append(f"{indent}  - {p.text}: {'met' if p.met else 'not met'} -- {p.why}")
        return out

    def to_dict(self) -> ConditionRecord:
        return {"rule": self.rule, "side": self.side, "text": self.text, "met": self.met, "why": self.why,
                "parts": [p.to_dict() for p in self.parts]}


@dataclass
class Score:
    """Victory points (14.3; the stand-in schedule of the scenario data)."""

    points: dict[str, int]
    breakdown: dict[str, list[str]] = field(default_factory=dict)
    stand_in: bool = True
    counted: str = "end of game"
    rule: str = "14.3"

    @property
    def winner(self) -> str | None:
        a, b = SIDES
        if self.points[a] == self.points[b]:
            return None
        return a if self.points[a] > self.points[b] else b

    @property
    def margin(self) -> int:
        return abs(self.points[SIDES[0]] - self.points[SIDES[1]])

    @property
    def why(self) -> str:
        pts = ", ".join(f"{SIDE_NAMES[s]} {self.points[s]} VP" for s in SIDES)
        tag = " (stand-in schedule)" if self.stand_in else ""
        if self.winner is None:
            return f"{pts}{tag}: equal"
        return f"{pts}{tag}: the {SIDE_NAMES[self.winner]} lead by {self.margin}"

    def to_dict(self) -> ScoreRecord:
        return {"points": dict(self.points), "breakdown": {s: list(x) for s, x in self.breakdown.items()},
                "stand_in": self.stand_in, "counted": self.counted, "winner": self.winner,
                "margin": self.margin, "rule": self.rule}


@dataclass
class Victory:
    """The outcome by 14.x: every condition, met or not, and the result.

    ``final`` is False before the check time (the end of turn 14): the result is then
    the standing "as things stand".
    """

    final: bool
    turn: int | None
    checked_at: str
    result: str                   # "<side> major victory" | "<side> marginal victory" | "draw"
    winner: str | None
    level: str                    # "major" | "marginal" | "draw"
    rule: str                     # the rule that decided: 14.1 | 14.2 | 14.3
    conditions: list[Condition]
    score: Score

    @property
    def stand_in(self) -> bool:
        """True when the result rests on the stand-in VP schedule (14.3)."""
        return self.level != "major" and self.score.stand_in

    @property
    def why(self) -> str:
        head = (f"Victory (14.0), checked at the {self.checked_at}: " if self.final else
                f"As things stand at turn {self.turn} (victory is checked at the {self.checked_at}): ")
        out = [head + f"{self.result} ({self.rule})"]
        for c in self.conditions:
            out.extend(c.lines("  "))
        return "\n".join(out)

    def to_dict(self) -> VictoryRecord:
        return {"final": self.final, "turn": self.turn, "checked_at": self.checked_at, "result": self.result,
                "winner": self.winner, "level": self.level, "rule": self.rule, "stand_in": self.stand_in,
                "conditions": [c.to_dict() for c in self.conditions], "score": self.score.to_dict(),
                "why": self.why}


# --------------------------------------------------------------------------
# the conditions as data (the scenario's victory block)


def _victory_block(scenario: Mapping) -> dict:
    block = scenario.get("victory")
    if not isinstance(block, Mapping):
        raise InvalidInput("the scenario has no victory: block", path="victory", rule="14.0")
    return dict(block)


def _wagon(state: Mapping, scenario: Mapping) -> dict:
    w = dict(state.get("wagon") or {})
    exited, captured = w.get("exited"), bool(w.get("captured"))
    if exited not in (None,) + WAGON_EXITS:
        raise InvalidInput(f"wagon exited {exited!r}; use 'victory' (0107/0903), 'escape' (1204/1302) or null",
                           path="wagon.exited", rule="16.0")
    if exited and captured:
        raise InvalidInput("the wagon train cannot have both exited and been captured", path="wagon", rule="16.0")
    exits = ((scenario.get("wagon_train") or {}).get("exits") or {})
    via = w.get("hex") or w.get("via")
    if exited and via is not None and exits.get(exited) and str(via) not in [str(x) for x in exits[exited]]:
        raise InvalidInput(f"the wagon train's {exited} exit is {_or(exits[exited])}, not {via}",
                           path="wagon.hex", rule="16.0")
    return {"exited": exited, "captured": captured, "hex": via}


def _clause(state: Mapping, scenario: Mapping, rule: str, side: str, clause: Mapping) -> Condition:
    name = SIDE_NAMES[side]
    if "wagon_train" in clause:
        w = _wagon(state, scenario)
        what = clause["wagon_train"]
        if what == "exited":
            via = [str(x) for x in clause.get("via") or []]
            text = f"the wagon train has exited the map through {_or(via)}"
            if w["exited"] == "victory":
                return Condition(rule, side, text, True,
                                 f"it left through {w['hex'] or _or(via)} (16.0: for victory)")
            if w["exited"] == "escape":
                return Condition(rule, side, text, False,
                                 f"it left through {w['hex'] or '1204 or 1302'} to avoid capture, "
                                 "which does not count for victory (16.0)")
            if w["captured"]:
                return Condition(rule, side, text, False, "it was captured (16.0)")
            return Condition(rule, side, text, False, "it has not left the map")
        if what == "captured":
            text = "the Confederates have captured the Union wagon train"
            if w["captured"]:
                return Condition(rule, side, text, True, "a Confederate unit entered its hex (16.0)")
            if w["exited"]:
                return Condition(rule, side, text, False,
                                 f"it left the map ({'for victory' if w['exited'] == 'victory' else 'to avoid capture'})")
            return Condition(rule, side, text, False, "it has not been captured")
        raise InvalidInput(f"unknown wagon_train condition {what!r}", path=f"victory.{rule}", rule=rule)
    for key in ("hold_any", "hold_all"):
        if key in clause:
            labels = [str(x) for x in clause[key]]
            held = {h: holder(state, h) for h in labels}
            mine = [h for h in labels if held[h] == side]
            if key == "hold_any":
                text = f"a {name} unit occupies, or was the last to pass through, {_or(labels)}"
                met = bool(mine)
            else:
                text = f"{name} units occupy, or were the last to pass through, each of {_hexes(labels)}"
                met = len(mine) == len(labels)
            why = "; ".join(f"{h} {SIDE_NAMES.get(who, who) if (who := held[h]) else 'nobody'}'s" for h in labels)
            return Condition(rule, side, text, met, why)
    raise InvalidInput(f"unknown victory condition {dict(clause)!r}", path=f"victory.{rule}", rule=rule)


def _major(state: Mapping, scenario: Mapping, side: str, spec: Mapping) -> Condition:
    rule = str(spec.get("rule", ""))
    name = SIDE_NAMES[side]
    if "all" in spec:
        parts = tuple(_clause(state, scenario, rule, side, c) for c in spec["all"])
        met = all(p.met for p in parts)
        how = "both" if len(parts) == 2 else "all"
        why = f"{how} needed: " + ("all met" if met else ", ".join(f"'{p.text}' not met" for p in parts if not p.met))
    elif "any" in spec:
        parts = tuple(_clause(state, scenario, rule, side, c) for c in spec["any"])
        met = any(p.met for p in parts)
        why = "either is enough: " + (", ".join(f"'{p.text}' met" for p in parts if p.met) if met else "none met")
    else:
        raise InvalidInput(f"victory.{side}_major needs all: or any:", path=f"victory.{side}_major", rule=rule)
    return Condition(rule, side, f"{name} major victory", met, why, parts)


# --------------------------------------------------------------------------
# VP and the decision


def score(state: Mapping, scenario: Mapping) -> Score:
    """Victory points by the scenario's schedule (14.3; stand-in: per enemy step lost)."""
    block = _victory_block(scenario)
    vp = ((block.get("marginal") or {}).get("vp") or {})
    per_step = vp.get("per_enemy_step_lost", 0)
    full = dict(state.get("initial_steps") or {})
    printed = {uid: u.get("steps") for uid, u in (scenario.get("units") or {}).items()}
    points = {s: 0 for s in SIDES}
    breakdown: dict[str, list[str]] = {s: [] for s in SIDES}
    for uid, u in (state.get("units") or {}).items():
        if u.get("side") not in SIDES:
            continue
        start = full.get(uid, printed.get(uid))
        if start is None:
            continue
        lost = max(0, int(start) - int(u.get("steps") or 0))
        if lost and per_step:
            enemy = _other(u["side"])
            points[enemy] += lost * per_step
            breakdown[enemy].append(f"{u.get('name', uid)} ({uid}): {lost} step(s) lost: {lost * per_step} VP")
    return Score(points, breakdown, stand_in=bool(vp.get("stand_in", True)),
                 counted=str(vp.get("counted", "end of game")), rule=str((block.get("marginal") or {}).get("rule", "14.3")))


def determine(state: Mapping, scenario: Mapping, *, end_of_turn: int | None = None) -> Victory:
    """Who has won by 14.x, with every condition and whether it was met.

    ``end_of_turn`` is the turn that has just ended (default ``state["turn"]``); before
    the scenario's check turn (14) the result is provisional (``final=False``).
    """
    block = _victory_block(scenario)
    check = int(block.get("check_at_end_of_turn") or scenario.get("turns") or 0)
    turn = state.get("turn")
    ended = end_of_turn if end_of_turn is not None else turn
    final = ended is not None and check > 0 and int(ended) >= check
    majors = [_major(state, scenario, side, block[f"{side}_major"]) for side in SIDES if f"{side}_major" in block]
    won = [c for c in majors if c.met]
    if len(won) > 1:       # cannot happen with 14.x (exit and capture exclude each other; 1204/2114)
        raise InvalidInput("both sides meet a major victory condition", path="victory", rule="14.0")
    sc = score(state, scenario)
    marginal = block.get("marginal") or {}
    mrule = str(marginal.get("rule", "14.3"))
    winner: str | None
    if won:
        c = won[0]
        assert c.side is not None, "a major victory condition is one side's (14.1, 14.2)"
        result, winner, level, rule = f"{c.side} major victory", c.side, "major", c.rule
        m = Condition(mrule, None, "marginal victory or draw by VP", False,
                      f"not reached: {c.rule} gives the {SIDE_NAMES[c.side]} a major victory")
    else:
        winner = sc.winner
        if winner is None:
            result, level = "draw", "draw"
            why = f"neither side has a major victory; {sc.why}: a draw"
        else:
            result, level = f"{winner} marginal victory", "marginal"
            why = f"neither side has a major victory; {sc.why}: a marginal victory"
        rule = mrule
        m = Condition(mrule, winner, "marginal victory or draw by VP", True, why)
    return Victory(final, turn, f"end of turn {check}", result, winner, level, rule, majors + [m], sc)
