"""The moments of a shipped demo where a side orders on the map (``GameSystem.map_orders``), for the
tests of the order page's rules (each system's ``test_map_orders.py``, the conformance suite).

:func:`moments` replays the demo (:func:`tests.played.replay_folder`) and keeps, for every decision
with a map list, the state as it was, the side's own view (what ``check`` runs on at home in an
umpired game), and the game's rules; :func:`one_item` makes the choice the page would send with one
item of a list added to the side's stand-fast answer."""
from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hxref.kit.protocol import Decision, GameSystem, MapList, Problem

from tests.played import demo, replay_folder


@dataclass
class Moment:
    """One decision a side fills in on the map: the state, the side's view, the rules bound to the game."""

    system: GameSystem[Any]
    state: dict
    view: dict
    decision: Decision
    side: str
    lists: list[MapList]


def moments(system: str, work: Path, scenario: str | None = None) -> list[Moment]:
    """Every decision of ``system``'s demo at which a side has a map list, once each."""
    out: list[Moment] = []
    seen: set[tuple[str, str]] = set()
    for _what, _names, eng in replay_folder(demo(system, scenario).folder, work):
        rules = eng.system
        for dec in rules.decisions(eng.state):
            for side in dec.sides:
                if (dec.id, side) in seen:
                    continue
                seen.add((dec.id, side))
                lists = rules.map_orders(eng.state, dec, side)
                if lists:
                    out.append(Moment(rules, copy.deepcopy(eng.state), rules.view(eng.state, side, eng.mode),
                                      dec, side, lists))
    return out


def one_item(m: Moment, ml: MapList, piece: str, *, path: list[str] | None = None,
             target: str | None = None) -> tuple[dict, int]:
    """The side's stand-fast answer with the item of ``piece`` in list ``ml`` (in place of the one it
    has, else at the end), as the page sends it: the choice and the item's index in the list."""
    choice = m.system.stand_fast(m.state, m.decision, m.side)
    items = list(choice.get(ml.key) or [])
    item: dict[str, Any] = {ml.piece: piece}
    if ml.path and path is not None:
        item[ml.path] = path
    if ml.target and target is not None:
        item[ml.target] = target
    at = next((i for i, x in enumerate(items) if x.get(ml.piece) == piece), len(items))
    choice[ml.key] = [*items[:at], item, *items[at + 1:]]
    return choice, at


def item_problems(m: Moment, choice: Mapping, key: str, index: int) -> list[Problem]:
    """The problems ``check`` finds with the item ``index`` of list ``key`` (none of the others)."""
    return [p for p in m.system.check(m.state, m.decision, m.side, dict(choice)) if list(p.path[:2]) == [key, index]]
