"""Salem Church: checking a side's orders file before the dice (13.2, 13.3, 13.x, D3, B1, B2, 7.2, 18.0).

:func:`check_orders` is :meth:`.system.SalemChurch.check` for a player turn's orders (their
shape is :mod:`.order_schema`'s, checked first by :mod:`hxref.referee.orders`).  The steps, one helper
each, the first problem found is the answer:

1. ``entry``: one of the entry hexes of this turn's arrivals (13.3);
2. the replacements: at most the turn's steps, each a combat unit of the side that lost a step,
   an eliminated one at a hex where it may return (13.2, 13.3);
3. the moves, walked in the order given on the side's own view (D3; umpired line-of-sight play:
   the enemy units it does not see are off the map), a unit off the map entering by this turn's
   entry hex (13.x, 13.3);
4. every unit due this turn enters (13.x);
5. the bombardments, from where the batteries stand after the moves: once a battery a turn, in
   range and in the line of sight for fire (stand-in, :mod:`.bombardment`; TEC; 18.0);
6. the attacks: the side's units against a hex of the map, none at night (B1, 18.0);
7. the standing orders (B2, 7.2).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from ..base import Problem
from . import counters as ct
from . import movement as mv
from .path_walk import check_path
from .board import hexmap as map_of
from .state_types import SalemState
from .turn import REPLACEMENTS, STANDING_KEYS, _copy_units, _entry_hex, due, sighted, unseen_enemy

if TYPE_CHECKING:
    from ...geometry.mapmodel import HexMap
    from ...kit.charts import Charts


def check_orders(state: SalemState, rules: Mapping, charts: Charts, side: str, choice: dict) -> list[Problem]:
    """What can be known to be wrong before the dice (the moves are walked in order), of orders
    whose shape fits the decision's schema (:mod:`.order_schema`, checked first in :mod:`hxref.referee.orders`):
    the entry hex (13.3), the replacements (13.2, 13.3), the moves (D3, 13.x), the units due entering
    (13.x), the attacks (B1, 18.0) and the standing orders (B2, 7.2), the first problem found, on
    the game's map and bombardment chart (``charts``)."""
    hexmap = map_of(charts, state)
    turn = int(state["turn"])
    groups = due(rules, side, turn)
    found = _entry_choice_problems(groups, side, turn, choice.get("entry"))
    found = found or _replacement_problems(state, rules, side, choice.get("replacements", []))
    if found:
        return found
    work = position(state, hexmap, side)
    seen: set[str] = set()
    found = _move_problems(work, rules, hexmap, side, turn, choice, seen)
    found = found or _due_problems(state, work, rules, hexmap, side, turn, choice.get("entry"), seen)
    found = found or _bombard_problems(work, hexmap, charts, side, choice)
    found = found or _attack_problems(state, hexmap, side, turn, choice.get("attacks", []))
    return found or _standing_problems(state, hexmap, side, choice.get("standing"))


def position(state: SalemState, hexmap, side: str) -> SalemState:
    """The position ``side``'s moves are checked on, a copy whose units' hexes the check changes:
    in umpired line-of-sight play (views) the side's own view, the enemy units it does not see off
    the map (contact with them is settled at resolution)."""
    return _copy_units(sighted(state, side, unseen_enemy(state, hexmap, side)))


def moved(state: SalemState, hexmap, side: str, choice: dict) -> SalemState:
    """:func:`position` after the moves of ``choice``, walked as the check walks them (D3): each unit
    where it stopped, up to the first move refused."""
    work = position(state, hexmap, side)
    _move_problems(work, state["rules"], hexmap, side, int(state["turn"]), choice, set())
    return work


def _entry_choice_problems(groups: list[dict], side: str, turn: int, entry) -> list[Problem]:
    """13.3: ``entry`` is one of the entry hexes of this turn's arrivals."""
    if entry is None:
        return []
    hexes = sorted({str(h) for g in groups for h in g["entry_hexes"]})
    if not groups:
        return [Problem(f"no {side} units arrive on turn {turn}", "13.3", ["entry"])]
    if str(entry) not in hexes:
        return [Problem(f"this turn's arrivals enter at {' or '.join(hexes)}, not {entry}", "13.3", ["entry"])]
    return []


def _move_problems(work: SalemState, rules: Mapping, hexmap, side: str, turn: int, choice: dict,
                   seen: set[str]) -> list[Problem]:
    """D3: each move, in the order given, is the side's unit's, once, and walks (:func:`.path_walk.check_path`)
    on ``work``, where each unit is placed where it stopped; a unit off the map enters (13.x)."""
    groups = due(rules, side, turn)
    arriving = {uid for g in groups for uid in g["units"]}
    for i, m in enumerate(choice.get("moves", [])):
        uid = m["unit"]
        u = work["units"].get(uid)
        if u is None or u["side"] != side:
            return [Problem(f"`{uid}` is not one of your units", "D3", ["moves", i, "unit"])]
        if uid in seen:
            return [Problem(f"{uid} is ordered to move twice", "D3", ["moves", i, "unit"])]
        seen.add(uid)
        path = [str(x) for x in m.get("path") or []]
        if u.get("hex") is None:
            entered = _arrival_path(rules, side, turn, i, uid, u, path, choice.get("entry"), arriving)
            if isinstance(entered, Problem):
                return [entered]
            path = entered
        if not path:
            continue
        mc = check_path(work, hexmap, uid, path, leader=m.get("leader"), where=("moves", i, "path"))
        if mc.problems:
            return mc.problems[:1]
        work["units"][uid]["hex"] = mc.end
    return []


def _arrival_path(rules: Mapping, side: str, turn: int, i: int, uid: str, u: Mapping, path: list[str], entry,
                  arriving: set[str]) -> Problem | list[str]:
    """13.2, 13.3: a unit off the map arrives this turn (or is returning or delayed) and enters by
    this turn's entry hex, the same for all the turn's arrivals (13.3): its path from there."""
    if uid not in arriving and not u.get("returning") and not u.get("delayed"):
        return Problem(f"{uid} is not on the map and does not arrive on turn {turn}", "13.2" if side == "union"
                       else "13.3", ["moves", i, "unit"])
    start = _entry_hex(rules, side, turn, uid, entry, u)
    if start is None:
        return Problem(f"{uid} arrives this turn: give `entry` (one of its entry hexes)", "13.3", ["entry"])
    own = {str(h) for g in due(rules, side, turn) if uid in g["units"] for h in g["entry_hexes"]}
    if path and path[0] != start and path[0] in own and not u.get("returning"):
        return Problem(f"all units arriving on turn {turn} enter by the same hex, {start} (13.3): "
                       f"{uid} cannot enter at {path[0]}", "13.3", ["moves", i, "path", 0])
    if path and path[0] != start:
        return [start] + path
    return path or [start]


def _due_problems(state: SalemState, work: SalemState, rules: Mapping, hexmap, side: str, turn: int, entry,
                  seen: set[str]) -> list[Problem]:
    """13.x: every unit due this turn and not ordered enters, and may stop in its entry hex."""
    for g in due(rules, side, turn):
        for uid in g["units"]:
            if uid not in seen and state["units"][uid].get("hex") is None:
                start = _entry_hex(rules, side, turn, uid, entry, state["units"][uid])
                if start is None:
                    return [Problem(f"{uid} arrives this turn: give `entry` (one of its entry hexes)", "13.3",
                                    ["entry"])]
                mc = check_path(work, hexmap, uid, [start], where=("moves",))
                if mc.problems:
                    return [Problem(f"{uid} arrives this turn and cannot stop in {start} "
                                    f"({mc.problems[0].message}): give it a path onward", mc.problems[0].rule,
                                    ["moves"])]
                work["units"][uid]["hex"] = mc.end
    return []


def _bombard_problems(work: SalemState, hexmap: HexMap, charts: Charts, side: str, choice: dict) -> list[Problem]:
    """Stand-in (:mod:`.bombardment`): each bombardment by the side's artillery where it stands after
    its moves (``work``), once a turn, not by a battery that also attacks, in range and in the line
    of sight for fire (TEC), at a hex holding an enemy combat unit; none at night (18.0)."""
    from . import bombardment as bo

    attacking = {u for a in choice.get("attacks", []) for u in a.get("attackers") or []}
    fired: set[str] = set()
    for i, b in enumerate(choice.get("bombard", [])):
        chart = bo.BombardmentChart.load(charts)
        bad = bo.problem(work, hexmap, side, b, fired=fired, attacking=attacking, chart=chart)
        if bad is not None:
            return [Problem(bad.message, bad.rule, ["bombard", i, bad.key])]
        fired.add(str(b["unit"]))
    return []


#: the series' reading (Musket & Sabre, as its SPI forebears): a unit attacks at most once a combat phase
ONCE_A_PHASE = "a unit attacks once a combat phase (Musket & Sabre series reading)"


def _once_a_phase(engaged: dict[str, int], uid: str, i: int, what: str, rule: str,
                  where: list) -> Problem | None:
    """The series' reading: ``uid`` is in no earlier attack (``engaged``: unit -> its attack) of this
    combat phase, nor twice in this one; it is noted as in attack ``i``."""
    if uid in engaged:
        again = "twice in this" if engaged[uid] == i else f"already in {what} {engaged[uid] + 1}, not again in"
        return Problem(f"{uid} is {again} {what} {i + 1}: {ONCE_A_PHASE}", rule, where)
    engaged[uid] = i
    return None


def _attack_problems(state: SalemState, hexmap: HexMap, side: str, turn: int, attacks: list) -> list[Problem]:
    """B1: each attack names the side's attacking units and a hex of the map, each unit in one
    attack only (the series' reading, :data:`ONCE_A_PHASE`); 18.0: none at night."""
    engaged: dict[str, int] = {}
    for i, a in enumerate(attacks):
        if not a["attackers"]:
            return [Problem("name the attacking units", "B1", ["attacks", i, "attackers"])]
        for uid in a["attackers"]:
            if uid not in state["units"] or state["units"][uid]["side"] != side:
                return [Problem(f"`{uid}` is not one of your units", "B1", ["attacks", i, "attackers"])]
            again = _once_a_phase(engaged, uid, i, "attack", "B1", ["attacks", i, "attackers"])
            if again is not None:
                return [again]
        if mv.is_night(turn):
            return [Problem(f"turn {turn} is a night turn: no combat", "18.0", ["attacks", i])]
        if not _is_hex(hexmap, a["target"]):
            return [Problem(f"attack target `{a['target']}` is not a hex of this map", "B1", ["attacks", i, "target"])]
        if a.get("first") is not None and a["first"] not in a["attackers"]:
            return [Problem(f"`first` is the attack's first unit, one of its attackers ({', '.join(a['attackers'])}), "
                            f"not `{a['first']}`", "B2", ["attacks", i, "first"])]
        for uid in a.get("losses") or []:
            if uid not in a["attackers"]:
                return [Problem(f"`losses` names the attackers that lose steps first; `{uid}` is not one of them",
                                "B2", ["attacks", i, "losses"])]
    return []


def _replacement_problems(state: SalemState, rules: Mapping, side: str, reps) -> list[Problem]:
    if not isinstance(reps, list):
        return [Problem("`replacements` is a list of {unit, hex?}", "13.2", ["replacements"])]
    limit = int(((rules.get("replacements") or {}).get("steps_per_turn") or {}).get(side, REPLACEMENTS))
    rule = "13.2" if side == "union" else "13.3"
    if len(reps) > limit:
        return [Problem(f"{side} replaces at most {limit} steps a turn", rule, ["replacements"])]
    seen = set()
    for i, r in enumerate(reps):
        if not isinstance(r, dict) or "unit" not in r or set(r) - {"unit", "hex"}:
            return [Problem("each replacement is {unit, hex?}", rule, ["replacements", i])]
        u = state["units"].get(r["unit"])
        if u is None or u["side"] != side or u["type"] not in ct.COMBAT_ARMS:
            return [Problem(f"`{r['unit']}` is not one of your combat units", rule, ["replacements", i, "unit"])]
        if r["unit"] in seen:
            return [Problem(f"{r['unit']} is replaced twice", rule, ["replacements", i, "unit"])]
        seen.add(r["unit"])
        if int(u["steps"]) >= int(u["full_steps"]):
            return [Problem(f"{r['unit']} has lost no step", rule, ["replacements", i, "unit"])]
        if int(u["steps"]) == 0:
            hexes = returning_hexes(rules, side, u)
            if str(r.get("hex")) not in hexes:
                return [Problem(f"{r['unit']} returns at {' or '.join(hexes)}: give `hex`", rule,
                                ["replacements", i, "hex"])]
    return []


def returning_hexes(rules: Mapping, side: str, u: Mapping) -> list[str]:
    spec = ((rules.get("returning_units") or {}).get(side) or {}).get("entry_hexes")
    if spec == "formation":
        return [str(h) for h in (rules.get("formations") or {}).get(str(u["formation"]), {}).get("entry_hexes", [])]
    return [str(h) for h in spec or []]


def _standing_problems(state: SalemState, hexmap: HexMap, side: str, standing) -> list[Problem]:
    if standing is None:
        return []
    if not isinstance(standing, dict) or set(standing) - STANDING_KEYS:
        return [Problem(f"`standing` takes {', '.join(sorted(STANDING_KEYS))}", "B2", ["standing"])]
    if standing.get("choice") not in (None, "retreat", "disrupt"):
        return [Problem("standing `choice` (Ar/Dr) is retreat or disrupt", "B2", ["standing", "choice"])]
    if standing.get("loss") not in (None, "loss", "retreat"):
        return [Problem("standing `loss` (Ax/Dx passed) is loss or retreat", "B2", ["standing", "loss"])]
    if standing.get("hexes") not in (None, 1, 2, 3):
        return [Problem("standing `hexes` is 1, 2 or 3", "B2", ["standing", "hexes"])]
    engaged: dict[str, int] = {}
    for i, c in enumerate(standing.get("counter_attacks") or []):
        if not isinstance(c, dict) or not {"units", "target"} <= set(c) or set(c) - {"units", "target", "first"}:
            return [Problem("each counter-attack is {units, target, first?}", "7.2", ["standing", "counter_attacks", i])]
        for uid in c["units"]:
            if uid not in state["units"] or state["units"][uid]["side"] != side:
                return [Problem(f"`{uid}` is not one of your units", "7.2", ["standing", "counter_attacks", i])]
            # the counter-attacks all come in one enemy combat phase
            again = _once_a_phase(engaged, uid, i, "counter-attack", "7.2", ["standing", "counter_attacks", i, "units"])
            if again is not None:
                return [again]
        if not _is_hex(hexmap, c["target"]):
            return [Problem(f"counter-attack target `{c['target']}` is not a hex of this map", "7.2",
                            ["standing", "counter_attacks", i, "target"])]
    return []


def _is_hex(hexmap: HexMap, label) -> bool:
    """Whether ``label`` names a hex of the scenario's map (a standing order is played later,
    so a bad hex must be refused now, not when it is played)."""
    from ...base.errors import InvalidInput

    try:
        return hexmap.parse(str(label)) in hexmap.grid
    except InvalidInput:
        return False
