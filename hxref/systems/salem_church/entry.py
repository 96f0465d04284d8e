"""Salem Church movement: the entry of reinforcements and returning units (13.2, 13.3; 16.0, 17.2, D3).

:func:`entry_problems` checks a side's entries on a turn: the unit is the side's and off
the map; a reinforcement enters on its turn (or later when ``delayed``) at one of its
arrival's entry hexes, a returning unit at its side's or its formation's
(``returning_units``); all the scheduled units of a turn by the same chosen hex (13.3);
every unit due enters unless each of its entry hexes holds an enemy unit.  Each path is
checked by :func:`.path_walk.check_path`, paying MP from the entry hex (stacking D3, the
wagon train 16.0, a leader's initiative 17.2).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..base import Problem
from .counters import SIDES
from .movement import Roll, _lab, _other
from .path_walk import check_path


# --------------------------------------------------------------------------
# 13.2 / 13.3 entry


def _returning_hexes(scenario: Mapping, side: str, unit: Mapping) -> tuple[list[str], str]:
    ru = (scenario.get("returning_units") or {}).get(side) or {}
    rule = str(ru.get("rule", "13.2" if side == "union" else "13.3"))
    hexes = ru.get("entry_hexes")
    if hexes == "formation":
        hexes = ((scenario.get("formations") or {}).get(unit.get("formation")) or {}).get("entry_hexes") or []
    return [_lab(h) for h in hexes or []], rule


def entry_problems(state: Mapping, scenario: Mapping, side: str, turn: int, entries: Mapping[str, Any], *,
                   hexmap=None, roll: Roll | None = None, leaders: Mapping[str, str] | None = None) -> list[Problem]:
    """What is wrong with ``side``'s entries on ``turn`` (13.2, 13.3).

    ``entries`` maps a unit id to its entry hex, or to its path starting with the entry
    hex.  Checked: the unit is ``side``'s and off the map; a reinforcement enters on its
    turn (or later when ``delayed``) at one of its arrival's entry hexes, a returning unit
    at its side's / formation's; all scheduled units of the turn by the same chosen hex
    (13.3); every unit due this turn enters (unless each of its entry hexes holds an
    enemy unit).  With ``hexmap`` every path is checked by :func:`check_path` in the
    order given, each unit placed where it stopped before the next (stacking, 16.0),
    paying MP from the entry hex; ``leaders`` maps a unit to the leader it moves with (17.2).
    """
    if side not in SIDES:
        return [Problem(f"unknown side {side!r}; use {' or '.join(SIDES)}", "13.0", ["side"])]
    units = state["units"]
    groups = [g for g in scenario.get("reinforcements") or [] if g.get("side") == side]
    group_of = {uid: g for g in groups for uid in g.get("units", [])}
    same_hex = (scenario.get("reinforcement_entry") or {}).get("same_hex_for_all_units_of_a_turn", True)
    chosen: dict[int, dict[str, list[str]]] = {}
    valid: dict[str, list[str]] = {}
    problems: list[Problem] = []
    for uid, spec in entries.items():
        found = _entry_problem(scenario, units, group_of, side, turn, uid, spec)
        if isinstance(found, Problem):
            problems.append(found)
            continue
        if not units[uid].get("returning"):
            chosen.setdefault(group_of[uid]["turn"], {}).setdefault(found[0], []).append(uid)
        valid[uid] = found
    if same_hex:
        problems += _same_hex_problems(chosen)
    problems += _due_problems(units, groups, side, turn, entries)
    if hexmap is not None:
        problems += _path_problems(state, hexmap, turn, valid, roll, leaders)
    return problems


def _entry_problem(scenario: Mapping, units: Mapping, group_of: Mapping, side: str, turn: int, uid: str,
                   spec: Any) -> Problem | list[str]:
    """13.2, 13.3: one unit's entry -- the side's unit, off the map, entering on its turn (or later
    when ``delayed``) at one of its arrival's entry hexes, or a returning unit at its side's or
    formation's: the path from the entry hex, or the problem."""
    side_rule = "13.2" if side == "union" else "13.3"
    where = ["entries", uid]
    path = [_lab(spec)] if isinstance(spec, (str, int)) else [_lab(p) for p in spec]
    if not path:
        return Problem(f"{uid}: the entry names no hex", side_rule, where)
    entry = path[0]
    u = units.get(uid)
    if u is None:
        return Problem(f"no unit {uid!r}", side_rule, where)
    if u.get("side") != side:
        return Problem(f"{uid} is a {u.get('side')} unit, not {side}", side_rule, where)
    if u.get("hex") is not None:
        return Problem(f"{uid} is already on the map in {_lab(u['hex'])}", side_rule, where)
    if u.get("returning"):
        allowed, rule = _returning_hexes(scenario, side, u)
        what = "returning units enter"
    else:
        g = group_of.get(uid)
        if g is None:
            return Problem(f"{uid} is not a reinforcement of the {side}", side_rule, where)
        rule = str(g.get("rule", side_rule))
        if g["turn"] != turn and not (g["turn"] < turn and u.get("delayed")):
            return Problem(f"{uid} arrives on turn {g['turn']}, not turn {turn} ({rule})", rule, where)
        allowed = [_lab(h) for h in g.get("entry_hexes") or []]
        what = f"the turn-{g['turn']} arrivals enter"
    if entry not in allowed:
        return Problem(f"{uid} cannot enter at {entry}: {what} at {' or '.join(allowed)} ({rule})", rule,
                       where + ["path", 0])
    return path


def _same_hex_problems(chosen: Mapping[int, Mapping[str, list[str]]]) -> list[Problem]:
    """13.3: all the units scheduled on a turn enter by the same chosen hex."""
    problems = []
    for t, by_hex in sorted(chosen.items()):
        if len(by_hex) > 1:
            listed = "; ".join(f"{h}: {', '.join(us)}" for h, us in by_hex.items())
            problems.append(Problem(f"all units arriving on turn {t} must enter by the same chosen hex (13.3), "
                                    f"not several ({listed})", "13.3", ["entries"]))
    return problems


def _due_problems(units: Mapping, groups: list, side: str, turn: int, entries: Mapping[str, Any]) -> list[Problem]:
    """13.2, 13.3: every unit due this turn enters, unless each of its entry hexes holds an enemy unit."""
    side_rule = "13.2" if side == "union" else "13.3"
    occupied = {_lab(u.get("hex")): u.get("side") for u in units.values() if u.get("hex") is not None}
    problems = []
    for g in groups:
        if g["turn"] != turn:
            continue
        hexes = [_lab(h) for h in g.get("entry_hexes") or []]
        blocked = all(occupied.get(h) == _other(side) for h in hexes)
        for uid in g.get("units", []):
            u = units.get(uid)
            if u is not None and u.get("hex") is None and uid not in entries and not blocked:
                rule = str(g.get("rule", side_rule))
                problems.append(Problem(f"{uid} is due on turn {turn} at {' or '.join(hexes)} and is not entering "
                                        f"({rule})", rule, ["entries", uid]))
    return problems


def _path_problems(state: Mapping, hexmap, turn: int, valid: Mapping[str, list[str]], roll: Roll | None,
                   leaders: Mapping[str, str] | None) -> list[Problem]:
    """D3, 16.0, 17.2: each entering unit's path, in the order given, paying MP from the entry hex;
    each unit placed where it stopped before the next (stacking, the wagon train)."""
    units = state["units"]
    sim: dict = {**state, "turn": turn, "units": {k: dict(v) for k, v in units.items()},
                 "initiative_checks": dict(state.get("initiative_checks") or {})}
    problems: list[Problem] = []
    for uid, path in valid.items():
        mc = check_path(sim, hexmap, uid, path, leader=(leaders or {}).get(uid), roll=roll,
                        where=("entries", uid, "path"))
        problems.extend(mc.problems)
        if mc.initiative is not None:
            sim["initiative_checks"][mc.initiative.leader] = mc.initiative
        if mc.hexes:
            sim["units"][uid]["hex"] = mc.end
    return problems
