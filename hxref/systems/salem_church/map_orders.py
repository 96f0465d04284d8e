"""Salem Church: a player turn's orders on the map -- the moves (D3) and the bombardments
(stand-in, :mod:`.bombardment`) -- and where each unit may go or fire, by the rules its orders are
checked with (:mod:`.orders_check`).

A move is ``{unit, path}``: the pieces are the side's units on the map (its leaders and the wagon
train too); a unit reaches what a path :func:`.path_walk.check_path` accepts may end in
(:func:`.path_walk.reachable`), on the position the check walks it on: the side's own view, after
the moves listed before it (:func:`.orders_check.moved`).  A bombardment is ``{unit, target}``: the
pieces are the side's artillery on the map, and a battery "reaches" each hex
:func:`.bombardment.problem` lets it fire at from where it stands after the moves, with its
distance in hexes.  At night there is no bombardment (18.0: no combat), and the moves keep off the
hexes next to the enemy.

The units due this turn, off the map, enter by the form (``entry``, 13.3) and stop in their entry
hex unless a move is written for them; the attacks (several units against a hex, B1) and the
standing orders (B2, 7.2) stay in the form too.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...geometry.hex import distance, hex_range
from ...kit.protocol import Decision, MapList, Piece
from . import bombardment as bo
from .board import hexmap as map_of
from .movement import is_night
from .orders_check import moved, position
from .path_walk import reachable
from .state_types import SalemState
from .turn import on_map

if TYPE_CHECKING:
    from ...kit.charts import Charts

MOVES, BOMBARD = "moves", "bombard"


def _is_orders(state: Mapping[str, Any], decision: Decision, side: str) -> bool:
    return decision.kind == "orders" and side in decision.sides and state.get("phasing") == side


def _pieces(state: SalemState, side: str, artillery: bool) -> tuple[Piece, ...]:
    return tuple(Piece(uid, str(u["hex"]), str(u.get("name") or uid)) for uid, u in sorted(state["units"].items())
                 if u.get("side") == side and on_map(u) and (not artillery or u.get("type") == "artillery"))


def map_orders(state: SalemState, decision: Decision, side: str, *, charts: Charts) -> list[MapList]:
    """The moves and, but at night (18.0), the bombardments of ``side``'s player turn."""
    if not _is_orders(state, decision, side):
        return []
    seen = position(state, map_of(charts, state), side)
    lists = [MapList(key=MOVES, piece="unit", pieces=_pieces(seen, side, False), path="path", label="move",
                     rule="D3")]
    if not is_night(int(state["turn"])):
        lists.append(MapList(key=BOMBARD, piece="unit", pieces=_pieces(seen, side, True), target="target",
                             label="bombard", rule=bo.BombardmentChart.load(charts).rule))
    return [ml for ml in lists if ml.pieces]        # none on the map yet: the form (entry, 13.3)


def _before(items: Any, field: str, piece: str) -> list:
    """The items of a list given before ``piece``'s own (all of them when it has none yet)."""
    items = [x for x in items or [] if isinstance(x, Mapping)]
    mine = next((i for i, x in enumerate(items) if x.get(field) == piece), len(items))
    return items[:mine]


def reach(state: SalemState, decision: Decision, side: str, choice: Mapping[str, Any], key: str, piece: str,
          *, charts: Charts) -> dict[str, float]:
    """A moving unit's hexes with their MP (D3), or a battery's targets with their range in hexes."""
    if key not in (MOVES, BOMBARD) or not _is_orders(state, decision, side):
        return {}
    hexmap = map_of(charts, state)
    if key == MOVES:
        earlier = _before(choice.get(MOVES), "unit", piece)
        work = moved(state, hexmap, side, {**choice, MOVES: earlier})
        if not any(p.id == piece for p in _pieces(work, side, False)):
            return {}
        item = next((x for x in choice.get(MOVES) or [] if isinstance(x, Mapping) and x.get("unit") == piece), {})
        return reachable(work, hexmap, piece, leader=item.get("leader"))
    work = moved(state, hexmap, side, dict(choice))
    if not any(p.id == piece for p in _pieces(work, side, True)):
        return {}
    chart = bo.BombardmentChart.load(charts)
    fired = {str(b.get("unit")) for b in _before(choice.get(BOMBARD), "unit", piece)}
    attacking = {u for a in choice.get("attacks") or [] if isinstance(a, Mapping) for u in a.get("attackers") or []}
    unit = work["units"][piece]
    here = hexmap.parse(str(unit["hex"]))
    out: dict[str, float] = {}
    for h in hex_range(here, int(unit.get("range") or 0)):
        if h in hexmap.grid and bo.problem(work, hexmap, side, {"unit": piece, "target": hexmap.label(h)},
                                           fired=fired, attacking=attacking, chart=chart) is None:
            out[hexmap.label(h)] = distance(here, h)
    return out
