"""Wagons and unbridged pontoons that move on their own, their escort, and the wagon that becomes a
depot: rules 7.21, 8.81, 8.52, 8.32 and 8.5.

A move ``{force: <wagon or pontoon id>, path: [...]}`` in an impulse's orders moves the counter
alone with its own 8 MP: no leader, no IMC roll (7.21: 補給馬車は各インパルスにおいて（指揮官な
しで）単独で８MPsを持つものとして移動を行なえます; 8.81: an unbridged pontoon moves 8 MP on its
own "like a wagon").  An order ``depots: [{wagon, detachment}]`` turns a wagon into a depot (8.5).

Readings chosen where the rules are silent (pinned by the case book,
``games/heartland/cases/wagons_and_unled_moves.yaml``):

* 7.21: a wagon with a field command (its ``leader`` set) may "instead" move alone: the order that
  names the wagon takes it out of the force for good, before any force of the orders moves, so a
  force moving earlier in the same orders leaves it behind.  A wagon ordered alone goes back into
  a field command only as the scenario or the capture rules put it there.
* Movement: the force's costs (the TEC, the weather, laid pontoons, 8.24, 5.2); a counter moving
  alone is no force with a supply state, so nothing halves its 8 MP.  It obeys enemy ZOC as a force
  does (it stops on entering, no ZOC to ZOC, 3.61, 8.26) and never enters a hex of enemy units; it
  makes no attack check (CF 0, 7.21; its escort has no ZOC, 8.52).  A hex of enemy units hidden
  from its owner (3.71) stops it in the hex before.
* 7.21, 8.52 escort: the side's unled detachments in the wagon's hex ride with it (a detachment in
  a leader's box moves with him); a pontoon carries none (8.52 names a leader or a wagon).  As
  combat units they capture what is alone in the hexes the wagon enters (8.64); a wagon without
  an escort captures nothing.
* 8.32: a wagon ordered alone may not force-march (refused when the orders are checked).
* 8.5 (the procedure is lost: the seed says only that a detachment is 補給馬車を補給廠(Depot)に変換
  する為の必須条件): in his own impulse, before any move, the owner turns a wagon into a depot in a
  major city or town hex (7.22) where a detachment of his stands with it (unled, or in the box of a
  leader in the hex).  The detachment is used up: it stays as the depot's garrison and leaves the
  map (the counter flips; the depot's CF is its capacity, 7.22).  No AP is paid (8.5 names none;
  the wagon may have no leader to pay it).  A depot never moves (7.22), so a wagon made a depot
  makes no move in the same orders.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Set as AbstractSet
from typing import Any, cast

from .state_types import FullGameState, Logistics, Pontoon
from ..base import Problem
from . import model

LONE_MP = 8                               # 7.21, 8.81: a wagon or unbridged pontoon moves 8 MP on its own
DEPOT_HEXES = ("town", "major_city")      # 7.22: a depot only in a major city or town
LONE_KEYS = {"force", "path", "forced_march"}


# --- who moves alone ----------------------------------------------------------------------

def _wagon(state: FullGameState, sid: str, side: str) -> Logistics | None:
    """``side``'s wagon ``sid`` on the map: in a hex of its own or with a field command that is in one
    (a leader off the map takes his wagon with him, 8.74)."""
    s = (state.get("logistics") or {}).get(sid)
    if s is None or s.get("side") != side or s.get("kind") != "wagon" or s.get("embarked_on"):
        return None
    return s if where(state, sid) else None


def _pontoon(state: FullGameState, pid: str, side: str) -> Pontoon | None:
    return next((p for p in state.get("pontoons") or [] if p.get("id") == pid and p.get("side") == side
                 and p.get("hex")), None)


def lone_movers(state: FullGameState, side: str) -> list[str]:
    """The ids of ``side``'s wagons and pontoons on the map, the counters a move may name alone."""
    wagons = [sid for sid in (state.get("logistics") or {}) if _wagon(state, sid, side)]
    return sorted(wagons + [str(p["id"]) for p in state.get("pontoons") or [] if _pontoon(state, str(p["id"]), side)])


def is_lone_mover(state: FullGameState, side: str, mover: Any) -> bool:
    return isinstance(mover, str) and (_wagon(state, mover, side) is not None
                                       or _pontoon(state, mover, side) is not None)


def where(state: FullGameState, mover: str) -> str | None:
    """The hex of a wagon (its own, or its field command's, 7.21) or of a pontoon."""
    s = (state.get("logistics") or {}).get(mover)
    if s is not None:
        if s.get("leader"):
            return state["leaders"][model.top_of(state, cast(str, s["leader"]))].get("hex")
        return s.get("hex")
    p = next((p for p in state.get("pontoons") or [] if p.get("id") == mover), None)
    return p.get("hex") if p else None


def escort(state: FullGameState, mover: str) -> list[str]:
    """7.21, 8.52: the unled detachments of the wagon's side in its hex, which ride with it."""
    s = (state.get("logistics") or {}).get(mover)
    if s is None:
        return []
    label = where(state, mover)
    return sorted(uid for uid, u in state["units"].items()
                  if u["side"] == s["side"] and u["arm"] == "detachment" and u["steps"] > 0
                  and u.get("leader") is None and u.get("hex") == label)


def _what(state: FullGameState, mover: str) -> str:
    return "wagon" if mover in (state.get("logistics") or {}) else "pontoon"


def _rule(state: FullGameState, mover: str) -> str:
    return "7.21" if _what(state, mover) == "wagon" else "8.81"


# --- the orders checked ---------------------------------------------------------------------

def move_problems(state: FullGameState, side: str, mv: dict, i: int, *, hexmap, cost, zoc: set[str],
                  enemy: set[str], depots: AbstractSet[str]) -> list[Problem]:
    """7.21, 8.81, 8.32, 7.22: a wagon's or pontoon's own move: only a path, no forced march, a
    pontoon not laid, a wagon not made a depot by the same orders, within 8 MP."""
    from .movement import path_problems

    mover = mv["force"]
    what, rule = _what(state, mover), _rule(state, mover)
    at = ["moves", i]
    if mv.get("forced_march"):
        return [Problem(f"{mover} is a wagon moving alone: a wagon may force-march only as part of a force",
                        "8.32", at + ["forced_march"])] if what == "wagon" else [
            Problem(f"{mover} is a pontoon moving alone: only a leader's force force-marches", "8.3",
                    at + ["forced_march"])]
    extra = sorted(set(mv) - LONE_KEYS)
    if extra:
        return [Problem(f"a {what} moving on its own gives only `path` (no `{extra[0]}`): it has no leader "
                        "to give other orders", rule, at + [extra[0]])]
    if what == "pontoon":
        p = cast(Pontoon, _pontoon(state, mover, side))
        if p.get("status") != "unbridged":
            return [Problem(f"the pontoon {mover} is {p.get('status')}: a laid pontoon cannot move until it "
                            "is taken up", "8.81", at + ["force"])]
    elif mover in depots:
        return [Problem(f"{mover} becomes a depot in these orders: a depot cannot move", "7.22, 8.5",
                        at + ["force"])]
    path = [str(x) for x in mv.get("path") or []]
    if not path:
        return [Problem(f"a {what}'s move gives its `path` (it moves {LONE_MP} MP on its own)", rule,
                        at + ["path"])]
    start = cast(str, where(state, mover))
    found = path_problems(path, start=start, hexmap=hexmap, cost=cost, enemy_zoc=zoc, enemy_occupied=enemy,
                          active=True, index=i)
    if found:
        return found
    total, here = 0.0, start
    for label in path:
        total += cost(hexmap.parse(here), hexmap.parse(label))
        here = label
    if total > LONE_MP:
        return [Problem(f"the path costs {total:g} MP; a {what} moves {LONE_MP} MP on its own", rule,
                        at + ["path"])]
    return []


# --- the move -------------------------------------------------------------------------------

@dataclass
class LoneMove:
    """A wagon's or pontoon's own move (7.21, 8.81) with its escort (8.52)."""

    mover: str
    kind: str
    hexes: list[str]
    spent: float
    escort: list[str] = field(default_factory=list)
    left: str | None = None            # the leader whose field command the wagon leaves (7.21)
    stopped: str = "end of the ordered path"
    rule: str = "7.21"


def unhook(state: FullGameState, side: str, moves: list[dict]) -> dict[str, str]:
    """7.21: every wagon the orders move alone leaves its field command before any force moves.
    Returns each wagon taken out and the leader whose force it left."""
    out: dict[str, str] = {}
    for mv in moves:
        mover = mv.get("force") if isinstance(mv, dict) else None
        s = (state.get("logistics") or {}).get(mover) if isinstance(mover, str) else None
        if s is not None and _wagon(state, cast(str, mover), side) is not None and s.get("leader"):
            out[cast(str, mover)] = cast(str, s["leader"])
            s["hex"] = where(state, cast(str, mover))
            s["leader"] = None
    return out


def lone_move(state: FullGameState, side: str, mover: str, path: list[str], *, hexmap, cost,
              zoc: set[str], left: str | None = None) -> LoneMove:
    """7.21 / 8.81: walk the ordered (checked) path with 8 MP; stop on entering enemy ZOC, and in
    the hex before one holding enemy units the owner could not see (3.71)."""
    from .movement import walk

    start = cast(str, where(state, mover))
    enemy = model.occupied_hexes(state, model.other_side(side))
    path = [str(x) for x in path]
    blocked = next((k for k, label in enumerate(path) if label in enemy), None)
    w = walk(path if blocked is None else path[:blocked], start=start, mp=LONE_MP, hexmap=hexmap, cost=cost,
             enemy_zoc=zoc)
    m = LoneMove(mover, _what(state, mover), list(w.hexes), w.spent, escort(state, mover), rule=_rule(state, mover))
    m.stopped = (f"stopped before {path[blocked]}: enemy units there" if blocked is not None
                 and len(w.hexes) == blocked + 1 else w.stopped)
    m.left = left
    return m


def apply_lone_move(state: FullGameState, m: LoneMove) -> None:
    end = m.hexes[-1]
    if m.kind == "wagon":
        s = state["logistics"][m.mover]
        s["hex"], s["leader"] = end, None
        for uid in m.escort:
            state["units"][uid]["hex"] = end
        return
    p = next(p for p in state.get("pontoons") or [] if p.get("id") == m.mover)
    p["hex"] = end


def lone_move_text(state: FullGameState, m: LoneMove) -> str:
    """What the owner is told of the move besides the path: the MP used, the force the wagon left
    and the escort riding with it."""
    left = f"; it leaves {state['leaders'][m.left]['name']}'s force (7.21)" if m.left in state["leaders"] else ""
    ride = f"; its escort {', '.join(m.escort)} rides with it (8.52)" if m.escort else ""
    return f"the {m.kind} {m.mover} uses {m.spent:g} of its {LONE_MP} MP{left}{ride}"


# --- 8.5: a wagon becomes a depot -----------------------------------------------------------

def _detachment_hex(state: FullGameState, uid: str) -> str | None:
    u = state["units"][uid]
    if u.get("leader"):
        return state["leaders"][model.top_of(state, cast(str, u["leader"]))].get("hex")
    return u.get("hex")


def depot_problems(state: FullGameState, side: str, items: Any, hexmap) -> list[Problem]:
    """8.5, 7.22: each ``{wagon, detachment}``: the side's wagon on the map, in a major city or town
    hex, with a detachment of the side in that hex; each wagon and detachment once."""
    if not isinstance(items, list):
        return [Problem("`depots` is a list of {wagon, detachment}", "8.5", ["depots"])]
    used: set[str] = set()
    for j, item in enumerate(items):
        at = ["depots", j]
        if not isinstance(item, dict) or set(item) != {"wagon", "detachment"}:
            return [Problem("each depot order is {wagon: WAGON, detachment: DETACHMENT}", "8.5", at)]
        sid, det = item["wagon"], item["detachment"]
        if not isinstance(sid, str) or _wagon(state, sid, side) is None:
            return [Problem(f"`{sid}` is not one of your wagons on the map", "8.5", at + ["wagon"])]
        label = cast(str, where(state, sid))
        if not set(DEPOT_HEXES) & set(hexmap.features(hexmap.parse(label))):
            return [Problem(f"{sid} is in {label}, not a major city or town: a depot stands only in one",
                            "7.22, 8.5", at + ["wagon"])]
        u = state["units"].get(det) if isinstance(det, str) else None
        if u is None or u["side"] != side or u["arm"] != "detachment" or u["steps"] <= 0 \
                or _detachment_hex(state, det) != label:
            return [Problem(f"a wagon becomes a depot only with a detachment of yours in its hex ({label}): "
                            f"`{det}` is not one", "8.5", at + ["detachment"])]
        if sid in used or det in used:
            return [Problem(f"{sid if sid in used else det} is named in two depot orders", "8.5", at)]
        used |= {sid, det}
    return []


def make_depot(state: FullGameState, sid: str, det: str) -> str:
    """8.5, 7.22: the wagon flips to its depot side where it stands (CF = capacity); the detachment
    stays with it as its garrison and leaves the map.  Returns the hex."""
    s = state["logistics"][sid]
    label = cast(str, where(state, sid))
    s.update({"kind": "depot", "hex": label, "leader": None, "cf": int(s.get("capacity", 0))})
    state["units"][det]["steps"] = 0
    return label
