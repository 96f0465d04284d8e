"""Hex Duel's attacks (H5): the attackers next to the target hex against the enemy unit in it, on the
combat results table the game pinned (``charts/crt.yaml``, read by :mod:`hxref.kit.results`).

Each side reads of a combat what it may (H8): its own units by name, the enemy's as counters; so
every combat is told twice, once to each side.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hxref.geometry.mapmodel import HexMap
from hxref.kit.protocol import other_side
from hxref.kit.results import Outcome, ResultsTable

from . import board
from hxref.kit.events import Event, event

from .state_types import DuelState, Unit


def attack(state: DuelState, hm: HexMap, table: ResultsTable, side: str, order: Mapping[str, Any], dice: Any) -> list[Event]:
    """Resolve one attack of ``side`` (``{target, by}``) in ``state``; the events, each side's own."""
    units, target = state["units"], order["target"]
    enemy = other_side(tuple(state["sides"]), side)
    by = [uid for uid in order["by"] if units[uid]["hex"]]
    near = [uid for uid in by if board.next_to(hm, units[uid]["hex"], target)]
    events = [_told(side, f"{units[uid]['name']} is not next to {target} after the moves: it does not attack (H5)")
              for uid in by if uid not in near]
    found = [uid for uid, u in units.items() if u["hex"] == target and u["side"] == enemy]
    if not near:
        return events
    if not found:
        return events + [_told(side, f"the attack on {target} finds no enemy there (H5)")]
    defender = found[0]
    strength = sum(units[uid]["strength"] for uid in near)
    shift = board.defence_shift(hm, target)
    die = dice.d6(f"{side} attack on {target}", by=side, visible_to=[side, enemy])
    outcome = table.resolve(strength, units[defender]["strength"], die, shift)
    losses = _apply(state, hm, outcome.cell, near, defender)
    for reader in (side, enemy):
        def name(uid: str, reader: str = reader) -> str:
            return units[uid]["name"] if units[uid]["side"] == reader else board.counter(units[uid])

        who = " and ".join(name(uid) for uid in near)
        told = (f"{who} ({strength}) attack {name(defender)} in {target}: {_how(outcome)}, "
                f"{outcome.cell}, {outcome.means}")
        after = "; ".join(f"{name(uid)} {what}" for uid, what in losses)
        events.append(event("combat", told + (f"; {after}" if after else ""), outcome.rule, side=side, target=target,
                            explain=outcome.explain(), visible_to=[reader]))
    return events


def _how(o: Outcome) -> str:
    shift = f", terrain shifts {o.shift:+d}" if o.shift else ""
    return f"{o.attack} to {o.defence}{shift}, column {o.column}, die {o.die}"


def _apply(state: DuelState, hm: HexMap, cell: str, attackers: list[str], defender: str) -> list[tuple[str, str]]:
    """The result ``cell`` carried out (H5): who is eliminated or retreats, and what became of each."""
    units = state["units"]
    out: list[tuple[str, str]] = []
    if cell in ("DE", "EX"):
        out.append((defender, _eliminate(units, defender)))
    if cell == "EX":
        weakest = min(attackers, key=lambda uid: (units[uid]["strength"], uid))
        out.append((weakest, _eliminate(units, weakest)))
    if cell == "AE":
        out += [(uid, _eliminate(units, uid)) for uid in attackers]
    if cell == "DR":
        out.append((defender, retreat(state, hm, defender)))
    if cell == "AR":
        out += [(uid, retreat(state, hm, uid)) for uid in attackers]
    return out


def _eliminate(units: dict[str, Unit], uid: str) -> str:
    units[uid]["hex"] = None
    return "is eliminated"


def retreat(state: DuelState, hm: HexMap, uid: str) -> str:
    """H5: a unit retreats one hex into the first (by label) it may enter that holds no unit and lies
    in no enemy zone of control; with none it is eliminated."""
    units = board.on_map(state["units"])
    unit = units[uid]
    here = board.hex_at(hm, unit["hex"])
    zone = board.enemy_zoc(hm, units, unit["side"])
    taken = {u["hex"] for u in units.values()}
    cost = hm.step_cost(unit["arm"])
    options = sorted((hm.label(n), n) for n in (here.neighbours() if here else ()) if n in hm and n not in zone)
    for label, h in options:
        if here is not None and label not in taken and isinstance(cost(here, h), (int, float)):
            state["units"][uid]["hex"] = label
            return "retreats"
    return _eliminate(state["units"], uid) + " (no hex to retreat into)"


def _told(side: str, text: str) -> dict:
    return event("attack", text, "H5", side=side, visible_to=[side])
