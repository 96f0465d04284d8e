"""Salem Church movement: the entry of reinforcements and returning units (13.2, 13.3; 16.0, 17.2, D3).

:func:`entry_problems` checks a side's entries on a turn: the unit is the side's and off
the map; a reinforcement enters on its turn (or later when ``delayed``) at one of its
arrival's entry hexes, a returning unit at its side's or its formation's
(``returning_units``); all the scheduled units of a turn by the same chosen hex (13.3);
every unit due enters unless each of its entry hexes holds an enemy unit.  Each path is
checked by :func:`.movement.check_path`, paying MP from the entry hex (stacking D3, the
wagon train 16.0, a leader's initiative 17.2).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..base import Problem
from .counters import SIDES
from .movement import Roll, _lab, _other, check_path


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
    problems: list[Problem] = []
    if side not in SIDES:
        return [Problem(f"unknown side {side!r}; use {' or '.join(SIDES)}", "13.0", ["side"])]
    side_rule = "13.2" if side == "union" else "13.3"
    units = state["units"]
    groups = [g for g in scenario.get("reinforcements") or [] if g.get("side") == side]
    group_of = {uid: g for g in groups for uid in g.get("units", [])}
    same_hex = (scenario.get("reinforcement_entry") or {}).get("same_hex_for_all_units_of_a_turn", True)
    chosen: dict[int, dict[str, list[str]]] = {}
    valid: dict[str, list[str]] = {}
    occupied = {_lab(u.get("hex")): u.get("side") for u in units.values() if u.get("hex") is not None}

    for uid, spec in entries.items():
        where = ["entries", uid]
        path = [_lab(spec)] if isinstance(spec, (str, int)) else [_lab(p) for p in spec]
        if not path:
            problems.append(Problem(f"{uid}: the entry names no hex", side_rule, where))
            continue
        entry = path[0]
        u = units.get(uid)
        if u is None:
            problems.append(Problem(f"no unit {uid!r}", side_rule, where))
            continue
        if u.get("side") != side:
            problems.append(Problem(f"{uid} is a {u.get('side')} unit, not {side}", side_rule, where))
            continue
        if u.get("hex") is not None:
            problems.append(Problem(f"{uid} is already on the map in {_lab(u['hex'])}", side_rule, where))
            continue
        if u.get("returning"):
            allowed, rule = _returning_hexes(scenario, side, u)
            what = "returning units enter"
        else:
            g = group_of.get(uid)
            if g is None:
                problems.append(Problem(f"{uid} is not a reinforcement of the {side}", side_rule, where))
                continue
            rule = str(g.get("rule", side_rule))
            if g["turn"] != turn and not (g["turn"] < turn and u.get("delayed")):
                problems.append(Problem(f"{uid} arrives on turn {g['turn']}, not turn {turn} ({rule})", rule, where))
                continue
            allowed = [_lab(h) for h in g.get("entry_hexes") or []]
            what = f"the turn-{g['turn']} arrivals enter"
        if entry not in allowed:
            problems.append(Problem(f"{uid} cannot enter at {entry}: {what} at {' or '.join(allowed)} ({rule})",
                                    rule, where + ["path", 0]))
            continue
        if not u.get("returning"):
            chosen.setdefault(group_of[uid]["turn"], {}).setdefault(entry, []).append(uid)
        valid[uid] = path

    if same_hex:
        for t, by_hex in sorted(chosen.items()):
            if len(by_hex) > 1:
                listed = "; ".join(f"{h}: {', '.join(us)}" for h, us in by_hex.items())
                problems.append(Problem(f"all units arriving on turn {t} must enter by the same chosen hex (13.3), "
                                        f"not several ({listed})", "13.3", ["entries"]))

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

    if hexmap is not None:
        sim: dict = {**state, "turn": turn, "units": {k: dict(v) for k, v in units.items()},
                     "initiative_checks": dict(state.get("initiative_checks") or {})}
        for uid, path in valid.items():
            mc = check_path(sim, hexmap, uid, path, leader=(leaders or {}).get(uid), roll=roll,
                            where=("entries", uid, "path"))
            problems.extend(mc.problems)
            if mc.initiative is not None:
                sim["initiative_checks"][mc.initiative.leader] = mc.initiative
            if mc.hexes:
                sim["units"][uid]["hex"] = mc.end
    return problems
