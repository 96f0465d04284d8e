"""Gunboat movement and blockade: rules 8.91, 8.91a, 8.93, 8.94 and 5.25.

A gunboat moves from a major-river hexside to a branching one (8.91), stops
on entering an enemy control range (8.91a, 10.82), passes fords and shoals
only in Thaw (5.25); every gunboat with no other mission blockades the river
hexsides within its range and closes the ferries and pontoons there (8.93,
8.94).  The readings chosen where the rules are silent and the state keys are
in :mod:`.naval`, which is the navy's public face.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Mapping, cast

from .state_types import FullGameState
from ...geometry.hex import HexSide
from ..base import Problem
from .naval_control import (
    BANK_TOWNS, DOWNSTREAM, MAJOR_RIVER, UPSTREAM, _current, _enemy_control, _nv, _side, _sl, _step_refusal, _weather,
    branching, gunboats, mission_of, naval, obstacle, river_steps,
)


# --------------------------------------------------------------------------
# movement (8.91, 5.25)


@dataclass
class GunboatMove:
    """One gunboat's move along major-river hexsides (8.91)."""

    gunboat: str
    side: str
    start: str | None
    route: list[str] = field(default_factory=list)
    end: str | None = None
    stops: bool = False                       # entered an enemy control range (8.91a, 10.82)
    must_attack: list[str] = field(default_factory=list)
    weather: str = "Clear"
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.91"
    why: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems


def gunboat_reach(state: FullGameState, hexmap, gid: str, *, weather: str | None = None) -> dict[str, list[str]]:
    """Every hexside ``gid`` may end on this impulse -> a shortest route to it (8.91: unlimited MP)."""
    gb = naval(state)["gunboats"][gid]
    w = _weather(state, weather)
    start = _side(hexmap, gb["hexside"])
    control = _enemy_control(state, hexmap, gb["side"])
    prev: dict[HexSide, HexSide | None] = {start: None}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        if s != start and s in control:
            continue                     # 8.91a: stop on entering
        for t in river_steps(hexmap, s):
            if t in prev or t not in hexmap.sides:
                continue
            if _step_refusal(state, hexmap, gb["side"], t, w):
                continue
            prev[t] = s
            queue.append(t)
    out = {}
    for s in prev:
        if s == start:
            continue
        path = []
        x: HexSide | None = s
        while x is not None and x != start:
            path.append(_sl(hexmap, x))
            x = prev[x]
        out[_sl(hexmap, s)] = list(reversed(path))
    return out


def gunboat_move_problems(state: FullGameState, hexmap, gid: str, route, *, weather: str | None = None) -> list[Problem]:
    """Why ``gid`` may not move along ``route`` (a destination hexside, or the list of hexsides
    entered, each branching from the one before); empty when it may."""
    return gunboat_move(state, hexmap, gid, route, weather=weather).problems


def _may_move(state: FullGameState, gid: str, gb: Mapping) -> list[Problem]:
    """8.91, 8.92c, 8.9: the gunboat is afloat, on the map, has not moved this impulse and has flown
    no other mission."""
    p: list[Problem] = []
    cur = _current(state)
    if gb.get("steps", 2) <= 0:
        p.append(Problem(f"{gid} is sunk", "8.91", ["gunboat"]))
    elif not gb.get("hexside"):
        p.append(Problem(f"{gid} is on the Naval Assault Display, not on the map (8.92c: it is placed "
                         "at the landing point)", "8.92c", ["gunboat"]))
    if gid in (cur.get("moved") or []):
        p.append(Problem(f"{gid} has already moved this impulse", "8.91", ["gunboat"]))
    if mission_of(state, gid):
        p.append(Problem(f"{gid} has already flown its {mission_of(state, gid)} mission this impulse", "8.9",
                         ["gunboat"]))
    return p


def _route_steps(state: FullGameState, hexmap, gid: str, gb: Mapping, route, w: str
                 ) -> tuple[list[HexSide], Problem | None]:
    """8.91, 8.91a: the hexsides entered: those listed, or a shortest legal route to a destination."""
    try:
        if isinstance(route, str):
            dest = _sl(hexmap, _side(hexmap, route))
            reach = gunboat_reach(state, hexmap, gid, weather=w)
            if dest not in reach:
                refusal = _step_refusal(state, hexmap, gb["side"], _side(hexmap, dest), w)
                return [], Problem(f"{gid} cannot reach {dest} from {gb['hexside']}"
                                   + (f": {refusal}" if refusal else " along usable major-river hexsides "
                                      "without passing an enemy control range (8.91, 8.91a)"), "8.91", ["route"])
            return [_side(hexmap, x) for x in reach[dest]], None
        return [_side(hexmap, x) for x in route], None
    except Exception as e:          # InvalidInput for a bad label
        return [], Problem(str(e), "8.91", ["route"])


def _route_problems(state: FullGameState, hexmap, side: str, start: HexSide, steps: list[HexSide],
                    control: Mapping, w: str) -> list[Problem]:
    """8.91, 5.25, 8.91a: each hexside branches from the one before and is usable in this weather;
    the move ends on entering an enemy control range."""
    p: list[Problem] = []
    if not steps:
        p.append(Problem("the route enters no hexside", "8.91", ["route"]))
    here = start
    for i, s in enumerate(steps):
        where = _sl(hexmap, s)
        if s not in branching(here):
            p.append(Problem(f"{where} does not branch from {_sl(hexmap, here)}: a gunboat moves from a "
                             "hexside to an adjoining one (8.91)", "8.91", ["route", i]))
            break
        refusal = _step_refusal(state, hexmap, side, s, w)
        if refusal:
            p.append(Problem(refusal, "5.25" if "Thaw" in refusal else "8.91", ["route", i]))
            break
        if s in control and i < len(steps) - 1:
            p.append(Problem(f"{where} is in the control range of {', '.join(sorted(control[s]))}: "
                             "the gunboat must stop there (8.91a, 10.82)", "8.91a", ["route", i]))
            break
        here = s
    return p


def _end_of_move(r: GunboatMove, hexmap, gb: Mapping, steps: list[HexSide], control: Mapping, w: str) -> None:
    """8.91a, 10.82, 5.25: where the move ends, and the naval combat it obliges in a control range."""
    r.route = [_sl(hexmap, s) for s in steps]
    r.end = r.route[-1]
    last = steps[-1]
    if last in control:
        r.stops = True
        r.must_attack = sorted(control[last])
    r.why = f"{r.gunboat} moves {gb['hexside']} -> {' -> '.join(r.route)} (unlimited MP, 8.91)"
    if w == "Thaw" and any(obstacle(hexmap, s, "Clear") for s in steps):
        r.why += "; passes a major-river ford or shoal in Thaw (5.25)"
    if r.stops:
        r.why += (f"; stops in the control range of {', '.join(r.must_attack)} and must attack it "
                  "this Combat Sequence, with no attack check (8.91a, 10.82, 10.81)")


def gunboat_move(state: FullGameState, hexmap, gid: str, route, *, weather: str | None = None) -> GunboatMove:
    """8.91: move ``gid`` along usable major-river hexsides (unlimited MP).

    ``route`` is the destination hexside (a shortest legal route is chosen) or the hexsides
    entered in order.  Entering an enemy control range ends the move and obliges a naval
    combat against the units controlling it (8.91a, 10.82, 10.81)."""
    gbs = (_nv(state).get("gunboats") or {})
    w = _weather(state, weather)
    if gid not in gbs:
        return GunboatMove(gid, "", None, weather=w, problems=[Problem(f"no gunboat {gid!r}", "8.91", ["gunboat"])],
                           why=f"no gunboat {gid!r}")
    gb = gbs[gid]
    side = gb["side"]
    r = GunboatMove(gid, side, gb.get("hexside"), weather=w)
    p = r.problems
    p += _may_move(state, gid, gb)
    if p:
        r.why = "no move: " + "; ".join(x.message for x in p)
        return r
    start = _side(hexmap, gb["hexside"])
    steps, bad = _route_steps(state, hexmap, gid, gb, route, w)
    if bad is not None:
        p.append(bad)
        r.why = "no move: " + bad.message
        return r
    control = _enemy_control(state, hexmap, side)
    p += _route_problems(state, hexmap, side, start, steps, control, w)
    if p:
        r.why = "no move: " + "; ".join(x.message for x in p)
        return r
    _end_of_move(r, hexmap, gb, steps, control, w)
    return r


def apply_gunboat_move(state: FullGameState, r: GunboatMove) -> None:
    if r.problems:
        raise ValueError("cannot apply an illegal gunboat move: " + r.why)
    nv = naval(state)
    nv["gunboats"][r.gunboat]["hexside"] = r.end
    cur = nv.setdefault("current", {})
    cur.setdefault("moved", []).append(r.gunboat)
    if r.stops:
        cur.setdefault("stopped", []).append(r.gunboat)
        cur.setdefault("must_attack", {})[r.gunboat] = list(r.must_attack)


# --------------------------------------------------------------------------
# blockade (8.93, 8.94)


def _river_distances(hexmap, start: HexSide, limit: int | None = None) -> dict[HexSide, int]:
    """The major-river hexsides reached from ``start`` along the river -> steps (at most ``limit``).
    The map's alone: searched once per map, start and limit (kept on the map object; read-only)."""
    kept = hexmap.__dict__.setdefault("_heartland_river_distances", {})
    dist = kept.get((start, limit))
    if dist is None:
        dist = kept[(start, limit)] = _river_search(hexmap, start, limit)
    return dist


def _river_search(hexmap, start: HexSide, limit: int | None) -> dict[HexSide, int]:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        if limit is not None and dist[s] >= limit:
            continue
        for t in river_steps(hexmap, s):
            if t not in dist and t in hexmap.sides:
                dist[t] = dist[s] + 1
                queue.append(t)
    return dist


def blockade_range(state: FullGameState, hexmap, gid: str) -> dict[str, str]:
    """8.93: major-river hexsides within 10 downstream and 6 upstream of ``gid`` -> "upstream",
    "downstream" (or "either" when the river has no headwater entry: 6 both ways)."""
    return {_sl(hexmap, s): way for s, way in _blockade_sides(state, hexmap, gid).items()}


def _blockade_sides(state: FullGameState, hexmap, gid: str) -> dict[HexSide, str]:
    """:func:`blockade_range` by hexside.  The map's alone for the gunboat's hexside and the
    headwaters: worked out once per map, hexside and headwaters (kept on the map object; read-only)."""
    start = _side(hexmap, naval(state)["gunboats"][gid]["hexside"])
    heads = tuple(_side(hexmap, h) for h in (_nv(state).get("headwaters") or []))
    kept = hexmap.__dict__.setdefault("_heartland_blockade_ranges", {})
    found = kept.get((start, heads))
    if found is None:
        found = kept[(start, heads)] = _river_range(hexmap, start, heads)
    return found


def _river_range(hexmap, start: HexSide, heads: tuple[HexSide, ...]) -> dict[HexSide, str]:
    near = _river_distances(hexmap, start, DOWNSTREAM)
    head = next((h for h in heads if h in _river_distances(hexmap, start)), None)
    out: dict[HexSide, str] = {}
    if head is None:
        for s, d in near.items():
            if 0 < d <= UPSTREAM:
                out[s] = "either"
        return out
    from_head = _river_distances(hexmap, head)
    mine = from_head[start]
    for s, d in near.items():
        if d == 0:
            continue
        if from_head.get(s, mine) < mine:
            if d <= UPSTREAM:
                out[s] = "upstream"
        elif d <= DOWNSTREAM:
            out[s] = "downstream"
    return out


def _blockading(state: FullGameState, side: str) -> list[str]:
    return sorted(g for g in gunboats(state, side) if mission_of(state, g) in (None, "blockade"))


def is_ferry_hexside(hexmap, s: HexSide) -> bool:
    """8.24a: a major-river hexside with a ferry feature, or a town or major city on both banks.
    The map's alone: answered once per map and hexside (kept on the map object)."""
    kept = hexmap.__dict__.setdefault("_heartland_ferry_hexsides", {})
    ferry = kept.get(s)
    if ferry is None:
        ferry = kept[s] = _is_ferry(hexmap, s)
    return ferry


def _is_ferry(hexmap, s: HexSide) -> bool:
    from .terrain import terrain_rules
    feats = hexmap.side_features(s, effective=False)
    if MAJOR_RIVER not in feats:
        return False
    if any(f in terrain_rules(hexmap).ferries for f in feats):
        return True
    return all(set(hexmap.features(h)) & set(BANK_TOWNS) for h in s.hexes)


def blockaded_hexsides(state: FullGameState, hexmap) -> set[str]:
    """8.93: Confederate ferry hexsides closed by Union gunboats (for :func:`.terrain.step_cost`'s
    ``blockaded``)."""
    out: set[str] = set()
    for g in _blockading(state, "union"):
        for s in _blockade_sides(state, hexmap, g):
            if is_ferry_hexside(hexmap, s):
                out.add(_sl(hexmap, s))
        here = _side(hexmap, gunboats(state)[g]["hexside"])
        if is_ferry_hexside(hexmap, here):
            out.add(_sl(hexmap, here))
    return out


def _pontoon_sides(state: FullGameState, hexmap, side: str) -> set[str]:
    raw: object = state.get("pontoons") or {}     # {id: {side, hexside, laid}} or a list of hexsides
    out = set()
    if isinstance(raw, Mapping):
        for p in raw.values():
            if p.get("side", "union") == side and p.get("laid", True) and p.get("hexside"):
                out.add(_sl(hexmap, _side(hexmap, p["hexside"])))
    else:
        out = {_sl(hexmap, _side(hexmap, x)) for x in cast(list, raw)} if side == "union" else set()
    return out


def closed_pontoons(state: FullGameState, hexmap) -> set[str]:
    """8.93: laid Union pontoon hexsides closed by Confederate gunboats' blockade."""
    pontoons = _pontoon_sides(state, hexmap, "union")
    out: set[str] = set()
    for g in _blockading(state, "confederate"):
        rng = set(blockade_range(state, hexmap, g)) | {_sl(hexmap, _side(hexmap, gunboats(state)[g]["hexside"]))}
        out |= pontoons & rng
    return out
