"""An impulse's moves on the map (8.21): which of the phasing side's forces the order page offers,
and the hexes each may reach with what the path costs, by the rules the orders are checked with
(:mod:`.impulse_check`).

The impulse's ``moves`` are the one list of its orders a player fills in on the map: a force, its
path and the hex it attacks (8.4).  Its forces are the side's leaders' forces and unled stacks on
the map, and its wagons and unbridged pontoons, which move alone (7.21, 8.81).  A force reaches
what a path :func:`.movement.path_problems` accepts may end in, within the most MP an IMC roll can
give it (8.22, :func:`.impulse_check.most_mp`) at the impulse's level (or, before the level is
declared, the most the side may declare, 5.15); a wagon or pontoon within its own 8 MP.

Everything is read from the state the orders are checked against: the game's, or in an umpired
game the side's view, with the enemy as the side sees him (3.71, :func:`.fog.checked_state`,
:func:`.fog.enemy_stacks_in_sight`).  The other lists of an impulse's orders (detachments, rail,
the special orders, combat) stay in the form.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...kit.protocol import Decision, MapList, Piece
from . import model, wagons
from .fog import checked_state, enemy_stacks_in_sight
from .impulse_check import moves_active, most_mp
from .impulse_conditions import cost_fn, enemy_zoc
from .movement import cheapest_path, reachable
from .names import force_name
from .state_types import FullGameState

if TYPE_CHECKING:
    from ...kit.charts import Charts

#: the list of the impulse's orders filled in on the map, and the keys of its items (8.21, 8.4)
MOVES = "moves"


def _is_orders(state: Mapping[str, Any], decision: Decision, side: str) -> bool:
    imp = (state.get("current") or {}).get("active_impulse") or {}
    return decision.kind == "orders" and side in decision.sides and imp.get("side") == side


def pieces(state: FullGameState, side: str) -> tuple[Piece, ...]:
    """8.21, 7.21, 8.81: the side's forces on the map, then its wagons and pontoons that move alone."""
    seen = checked_state(state, side)
    out = [Piece(f, model.force_hex(seen, f), force_name(seen["leaders"], f))
           for f in model.forces(seen, side) if model.force_hex(seen, f)]
    for mover in wagons.lone_movers(seen, side):
        where = wagons.where(seen, mover)
        if where:
            what = "wagon" if mover in (seen.get("logistics") or {}) else "pontoon"
            out.append(Piece(mover, where, f"{what} {mover}"))
    return tuple(out)


def map_orders(state: FullGameState, decision: Decision, side: str) -> list[MapList]:
    """The impulse's moves, when ``decision`` is ``side``'s orders for its own impulse."""
    if not _is_orders(state, decision, side):
        return []
    return [MapList(key=MOVES, piece="force", pieces=pieces(state, side), path="path", target="attack",
                    label="move", rule="8.21")]


def _level(state: FullGameState, side: str, choice: Mapping[str, Any]) -> int:
    """5.15: the impulse's level: the bid's, the one the orders declare, or the most the side may declare."""
    cur = state["current"]
    level = cur["active_impulse"].get("level") or choice.get("level")
    if isinstance(level, int) and not isinstance(level, bool) and level >= 1:
        return level
    limit = state.get("impulse_level_limit")
    most = int(cur["remaining"][side])
    return min(most, limit) if limit else most


def reach(state: FullGameState, decision: Decision, side: str, choice: Mapping[str, Any], key: str, piece: str,
          *, charts: Charts) -> dict[str, float]:
    """The hexes ``piece`` may end its path in, each with its cheapest cost in MP; none for a piece
    the list does not offer."""
    if key != MOVES or not _is_orders(state, decision, side):
        return {}
    mine = {p.id: p for p in pieces(state, side)}
    if piece not in mine:
        return {}
    return reachable(**_search(state, side, choice, piece, mine[piece].hex, charts=charts))


def route(state: FullGameState, decision: Decision, side: str, choice: Mapping[str, Any], piece: str, to: str, *,
          charts: Charts) -> list[str] | None:
    """The cheapest path of ``piece`` to ``to`` that :func:`reach` found (the hexes entered), or None."""
    mine = {p.id: p for p in pieces(state, side)} if _is_orders(state, decision, side) else {}
    if piece not in mine:
        return None
    return cheapest_path(to, **_search(state, side, choice, piece, mine[piece].hex, charts=charts))


def _search(state: FullGameState, side: str, choice: Mapping[str, Any], piece: str, start: str, *,
            charts: Charts) -> dict[str, Any]:
    """What the search of a piece's move reads: its allowance and the rules of :func:`.movement.path_problems`."""
    seen = checked_state(state, side)
    hm = charts.map(seen["map"])
    item = next((mv for mv in choice.get(MOVES) or [] if isinstance(mv, Mapping) and mv.get("force") == piece), {})
    if wagons.is_lone_mover(seen, side, piece):
        mp, active = wagons.LONE_MP, True
    else:
        mp, active = most_mp(seen, piece, _level(seen, side, choice), charts=charts)[0], moves_active(seen, piece, item)
    return {"start": start, "mp": mp, "hexmap": hm, "cost": cost_fn(seen, hm, side),
            "enemy_zoc": enemy_zoc(seen, hm, side), "enemy_occupied": enemy_stacks_in_sight(seen, side),
            "active": active}
