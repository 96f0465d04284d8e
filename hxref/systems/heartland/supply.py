"""Supply at the start of an impulse: rules 7.1-7.35 and the distance DRM of 8.31a.

:func:`supply_status` answers, for every force of a side (:func:`.model.forces`):

1. **The network** (7.11-7.13).  Sources are ``state["sources"][side]``.  A
   source or depot reaches 20 MP, a wagon 10 MP.  A depot or wagon is *in
   supply* (a relay) when an in-supply source, depot or wagon reaches it, and
   a depot in a town or major city on a rail line that runs unbroken to a
   source is a railroad depot, in supply at any rail distance (7.13).  One
   :class:`~hxref.geometry.paths.MoveGraph` search per source and relay, never
   one per force.
2. **The line** (7.12b, 7.12c, 3.61): normal movement costs for this
   weather (:func:`.terrain.step_cost` with ``for_supply``), counted from the
   force towards the supply unit; no ferries; cut by enemy combat units and
   by enemy ZOC unless a friendly unit is in the hex.
3. **Capacity** (7.21-7.23): a stack counts as one force; unled units, the
   forces of inactive commanders (and SLs, who are inside their OC's force)
   use none.  A line straight to a source uses none.  Stacks are matched to
   supply units so that as many as possible are supplied, the ``priority``
   forces first.
4. **The state** (7.31-7.34): in communication = full supply; out of
   communication (OOC) with ASP = combat supply, without = out of supply;
   unled units always have ASP (7.33).
5. **Emergency supply** (7.35): on request, a wagon or depot within the OC's
   MR in hexes (stacked, for unled units) is consumed and the stack is in
   full supply; :attr:`SideSupply.consumed` names the units to remove.

Each force's result says why (``reason``) and carries what the movement and
combat code need: ``mp_halved``, ``cf_halved``, ``artillery`` (B5) and the
forced-march distance DRM (8.31a item 1, :func:`distance_drm`).
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import asdict, dataclass
from enum import Enum
from typing import Callable, Collection, Iterable, Mapping, Sequence, TypeVar, cast

from .state_types import FullGameState, Turn
from ...geometry.hex import Hex, distance as hex_distance
from ...geometry.paths import MoveGraph, MoveRules, Reach
from ..base import Problem
from . import model
from .terrain import cut_hexes, step_cost
from .zoc import zoc_hexes

SOURCE_RANGE = 20      # 7.11: a line of at most 20 MP to a source
DEPOT_RANGE = 20       # 7.12a
WAGON_RANGE = 10       # 7.12a
RANGES = {"source": SOURCE_RANGE, "depot": DEPOT_RANGE, "wagon": WAGON_RANGE}
FM_FREE_MP = 5         # 8.31a 1): +1 per 5 MP beyond the first 5 MP ...
FM_STEP_MP = 5
FM_MAX_DRM = 4         # ... at most +4, and +4 with no line at all
#: farthest a search looks: nothing beyond matters (the DRM is +4 from 21 MP on)
SEARCH_LIMIT = max(max(RANGES.values()), FM_FREE_MP + FM_STEP_MP * (FM_MAX_DRM - 1))
RAIL = "rail"                            # the line type of railroads (7.13)
STATIONS = frozenset({"town", "major_city"})   # 7.22: a depot on a rail line in these is a railroad depot


class Supply(str, Enum):
    """The three supply states of 7.3."""

    FULL = "full"        #: 7.34: in communication, or by emergency supply (7.35) or Own Use (7.35a)
    COMBAT = "combat"    #: 7.33: out of communication with ASP: MP halved
    OUT = "out"          #: 7.32: out of communication without ASP: MP and CF halved, no artillery


#: 7.32, 7.33, 7.34 (digest B5): what each state does to a force.
EFFECTS = {
    Supply.FULL: {"mp_halved": False, "cf_halved": False, "artillery": True},
    Supply.COMBAT: {"mp_halved": True, "cf_halved": False, "artillery": True},
    Supply.OUT: {"mp_halved": True, "cf_halved": True, "artillery": False},
}


def distance_drm(distance: float | None) -> int:
    """8.31a item 1 (H-9): +1 per 5 MP beyond the first 5, rounded up, at most +4; +4 with no line.

    >>> [distance_drm(d) for d in (5, 6, 10, 11, 18, 20, 21, None)]
    [0, 1, 1, 2, 3, 3, 4, 4]
    """
    if distance is None:
        return FM_MAX_DRM
    return min(FM_MAX_DRM, max(0, math.ceil((distance - FM_FREE_MP) / FM_STEP_MP)))


@dataclass(frozen=True)
class ForceSupply:
    """One force's supply at the start of the impulse."""

    force: str
    hex: str
    state: Supply
    in_communication: bool
    via: str | None              # the source ("source@0120") or supply unit used; OOC: the nearest in-supply one
    distance: float | None       # MP of the line to ``via`` (None: no line of 20 MP or less; emergency: none traced)
    nearest: float | None        # MP to the nearest in-supply source or supply unit (None beyond 20 MP)
    uses_capacity: bool          # 7.21-7.23
    emergency: str | None        # the wagon or depot consumed for it (7.35)
    emergency_options: tuple[str, ...]   # OOC only: wagons and depots it could consume (7.35)
    reason: str
    mp_halved: bool
    cf_halved: bool
    artillery: bool
    distance_drm: int            # 8.31a item 1

    def to_dict(self) -> dict:
        d = asdict(self)
        d["state"] = self.state.value
        d["emergency_options"] = list(self.emergency_options)
        return d


@dataclass(frozen=True)
class SupplyUnitState:
    """A source, depot or wagon of the side: linked to a source or not, and the capacity used."""

    id: str
    kind: str                    # source | depot | wagon
    hex: str
    in_supply: bool              # part of the network (7.12a); a source always is, unless cut
    link: str                    # how it is linked, or why not
    capacity: int | None         # None: a source (no capacity)
    used_by: tuple[str, ...]     # the stacks (hex labels) using its capacity

    def to_dict(self) -> dict:
        d = asdict(self)
        d["used_by"] = list(self.used_by)
        return d


@dataclass(frozen=True)
class SideSupply:
    """Every force's supply for one side, and the network, for the report."""

    side: str
    weather: str
    forces: dict[str, ForceSupply]
    units: dict[str, SupplyUnitState]
    consumed: tuple[str, ...] = ()            # logistics ids consumed by emergency supply: remove them
    problems: tuple[Problem, ...] = ()        # refused emergency requests

    def __getitem__(self, force: str) -> ForceSupply:
        return self.forces[force]

    def counts(self) -> dict[str, int]:
        out = {s.value: 0 for s in Supply}
        for f in self.forces.values():
            out[f.state.value] += 1
        out["in_communication"] = sum(f.in_communication for f in self.forces.values())
        return out

    def summary(self) -> dict:
        """Plain data for a report: counts, the forces by state, capacity per supply unit."""
        return {
            "side": self.side,
            "weather": self.weather,
            "counts": self.counts(),
            "forces": {s.value: sorted(f for f, r in self.forces.items() if r.state is s) for s in Supply},
            "out_of_communication": sorted(f for f, r in self.forces.items() if not r.in_communication),
            "units": {u.id: {"kind": u.kind, "hex": u.hex, "in_supply": u.in_supply, "capacity": u.capacity,
                             "used": len(u.used_by)} for u in self.units.values()},
            "consumed": list(self.consumed),
        }

    def lines(self) -> list[str]:
        """One line per force and per supply unit, for a report."""
        out = [f"{self.side} supply ({self.weather}):"]
        for fid in sorted(self.forces):
            r = self.forces[fid]
            out.append(f"  {fid} in {r.hex}: {r.reason}")
        for uid in sorted(self.units):
            u = self.units[uid]
            cap = "" if u.capacity is None else f", capacity {len(u.used_by)}/{u.capacity} used"
            out.append(f"  {u.kind} {uid} in {u.hex}: {u.link}{cap}")
        for uid in self.consumed:
            out.append(f"  {uid} consumed for emergency supply (7.35)")
        return out


# --------------------------------------------------------------------------
# questions about the state


def weather_of(state: FullGameState) -> str:
    """This turn's weather: ``state["weather"]`` or ``state["current"]["weather"]`` (``{result: ...}``)."""
    w = state.get("weather") or (state.get("current") or cast(Turn, {})).get("weather")
    if isinstance(w, dict):
        return w.get("result") or "Clear"
    return w or "Clear"


def logistics_hex(state: FullGameState, lid: str) -> str | None:
    """Where a wagon or depot is: its own hex, or its field command's (7.21); None off the map."""
    s = state["logistics"][lid]
    if s.get("leader"):
        top = state["leaders"].get(model.top_of(state, cast(str, s["leader"])))
        if not top or top.get("pool") or not top.get("hex"):
            return None
        return top["hex"]
    return s.get("hex")


def uses_capacity(state: FullGameState, force: str) -> bool:
    """7.23: unled units and inactive commanders' forces use no capacity (SLs are inside their OC's force)."""
    if model.is_unled(force):
        return False
    return bool(state["leaders"][force].get("active", True))


def has_asp(state: FullGameState, force: str) -> bool:
    """7.33: a force has ASP when one of its leaders holds any; unled units always have ASP."""
    if model.is_unled(force):
        return True
    return any(state["leaders"][lid].get("asp", 0) > 0 for lid in model.force_leaders(state, force))


def oc_mr(state: FullGameState, force: str) -> int | None:
    """The MR of the force's OC, on the side his counter shows (7.35); None for unled units."""
    if model.is_unled(force):
        return None
    return model.current_rating(state["leaders"][force], "mr")


# --------------------------------------------------------------------------
# the network


@dataclass
class _Node:
    id: str
    kind: str
    hex: str
    capacity: int | None

    @property
    def range(self) -> float:
        return RANGES[self.kind]


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _name(node: _Node) -> str:
    return f"source {node.hex}" if node.kind == "source" else f"{node.kind} {node.id}"


SUPPLY_GRAPHS_KEPT = 16        # per map: the supply graphs of the last situations seen
_G = TypeVar("_G")


class _SupplyGraph:
    """The reversed-cost supply graph of one situation and the searches made on it, each from a
    source's or a supply unit's hex to :data:`SEARCH_LIMIT`: the same situation searches once."""

    def __init__(self, graph: MoveGraph) -> None:
        self.graph = graph
        self._reach: dict[Hex, Reach] = {}

    def reach(self, start: Hex) -> Reach:
        found = self._reach.get(start)
        if found is None:
            found = self._reach[start] = self.graph.search(start, max_cost=SEARCH_LIMIT)
        return found


def _kept(hexmap, name: str, key: tuple, make: Callable[[], _G]) -> _G:
    """``make()``, kept on the map object under ``name`` and ``key``, the last seen kept longest."""
    kept = hexmap.__dict__.setdefault(name, {})
    found = kept.pop(key, None)
    if found is None:
        found = make()
        if len(kept) >= SUPPLY_GRAPHS_KEPT:
            kept.pop(next(iter(kept)))
    kept[key] = found
    return found


def _terrain_graph(hexmap, weather: str, side: str, pontoons: tuple) -> MoveGraph:
    """The reversed-cost supply graph of the terrain, no enemy unit cutting a line.  The line is
    counted from the force towards the supply unit (hexes entered on the way, 7.12c): searching the
    reversed costs from each supply unit gives that for every force at once."""
    def make() -> MoveGraph:
        fwd = step_cost(hexmap, weather=weather, side=side, pontoons=pontoons, for_supply=True)
        return MoveGraph(hexmap.hexes(), MoveRules(step_cost=lambda a, b: fwd(b, a)))

    return _kept(hexmap, "_supply_terrain_graphs", (weather, side, pontoons), make)


def _supply_graph(hexmap, weather: str, side: str, enemy_units: frozenset, enemy_zoc: frozenset,
                  friendly: frozenset, pontoons: tuple) -> _SupplyGraph:
    """The supply graph of one situation: the terrain's, with no step out of the hexes where enemy
    units or their ZOC cut the line (7.12b, 3.61; reversed, a step out is a step in).  The same
    situation (checking orders, then resolving them, or the several supply checks of one impulse)
    builds it once.  Kept on the map object, like the static terrain costs of :mod:`.terrain`."""
    cut = cut_hexes(hexmap, enemy_units, enemy_zoc, friendly)
    return _kept(hexmap, "_supply_graphs", (weather, side, pontoons, cut),
                 lambda: _SupplyGraph(_terrain_graph(hexmap, weather, side, pontoons).without_steps_from(cut)))


def _rail_neighbours(hexmap, h: Hex) -> list[Hex]:
    """The hexes a rail line runs to from ``h``, in :meth:`Hex.neighbours` order: the map's alone,
    found once per map and hex (kept on the map object)."""
    kept = hexmap.__dict__.setdefault("_heartland_rail_neighbours", {})
    found = kept.get(h)
    if found is None:
        found = kept[h] = [nb for nb in h.neighbours() if nb in hexmap.grid and RAIL in hexmap.lines_between(h, nb)]
    return found


class _Network:
    """Sources and supply units, the reversed-cost graph and one search per in-supply node."""

    def __init__(self, state: FullGameState, side: str, hexmap, weather: str, *, exclude: Collection[str],
                 pontoons: Iterable, rail_cuts: Collection[str]) -> None:
        self.state, self.side, self.hexmap = state, side, hexmap
        enemy = model.other_side(side)
        self.enemy_units = model.occupied_hexes(state, enemy)
        self.enemy_zoc = set(zoc_hexes(state, enemy, hexmap))
        self.nodes: dict[str, _Node] = {}
        for label in state.get("sources", {}).get(side, []):
            label = str(label)
            self.nodes[f"source@{label}"] = _Node(f"source@{label}", "source", label, None)
        for lid in sorted(state.get("logistics", {})):
            s = state["logistics"][lid]
            if s["side"] != side or lid in exclude or s.get("kind") not in ("wagon", "depot"):
                continue
            h = logistics_hex(state, lid)
            if h is not None:
                self.nodes[lid] = _Node(lid, s["kind"], str(h), int(s.get("capacity", 0)))
        self.friendly = model.occupied_hexes(state, side) | {n.hex for n in self.nodes.values() if n.kind != "source"}
        self.graph = _supply_graph(hexmap, weather, side, frozenset(self.enemy_units), frozenset(self.enemy_zoc),
                                   frozenset(self.friendly), tuple(pontoons))
        self.rail_cuts = set(rail_cuts)
        self.link: dict[str, str] = {}
        self.reach: dict[str, Reach] = {}
        self._build()

    def _cut(self, label: str) -> bool:
        return (label in self.enemy_units or label in self.rail_cuts
                or (label in self.enemy_zoc and label not in self.friendly))

    def _rail_depots(self) -> dict[str, str]:
        """7.13: depots in a station on a rail line unbroken to a source -> that source."""
        hm = self.hexmap
        start: dict[Hex, str] = {}
        for n in self.nodes.values():
            if n.kind == "source" and not self._cut(n.hex):
                start.setdefault(hm.parse(n.hex), n.id)
        seen = dict(start)
        queue = deque(start)
        while queue:
            h = queue.popleft()
            for nb in _rail_neighbours(hm, h):
                if nb in seen or self._cut(hm.label(nb)):
                    continue
                seen[nb] = seen[h]
                queue.append(nb)
        out = {}
        for n in self.nodes.values():
            h = hm.parse(n.hex)
            if n.kind == "depot" and h in seen and set(hm.features(h)) & STATIONS:
                out[n.id] = seen[h]
        return out

    def _build(self) -> None:
        """7.12a: link supply units outwards from the sources, one search per linked node."""
        queue: deque[str] = deque()
        for nid, n in self.nodes.items():
            if n.kind == "source":
                if n.hex in self.enemy_units:
                    continue
                self.link[nid] = "supply source (7.11)"
                queue.append(nid)
        for nid, src in self._rail_depots().items():
            if nid not in self.link:
                self.link[nid] = f"railroad depot on the rail line from {_name(self.nodes[src])} (7.13)"
                queue.append(nid)
        while queue:
            nid = queue.popleft()
            n = self.nodes[nid]
            reach = self.graph.reach(self.hexmap.parse(n.hex))
            self.reach[nid] = reach
            for uid, u in self.nodes.items():
                if uid in self.link or u.kind == "source":    # a cut source stays cut
                    continue
                d = reach.cost(self.hexmap.parse(u.hex))
                if d is not None and d <= n.range:
                    self.link[uid] = f"in supply: {_num(d)} MP from {_name(n)} (7.12a)"
                    queue.append(uid)

    def distances(self, label: str) -> dict[str, float]:
        """MP from the hex ``label`` to every in-supply node within the search limit."""
        h = self.hexmap.parse(label)
        out = {}
        for nid, reach in self.reach.items():
            d = reach.cost(h)
            if d is not None:
                out[nid] = d
        return out


# --------------------------------------------------------------------------
# the supply state of every force


def _nearest(dist: Mapping[str, float], ids: Iterable[str]) -> str | None:
    ids = [i for i in ids if i in dist]
    return min(ids, key=lambda i: (dist[i], i)) if ids else None


def _assign(stacks: list[str], cands: dict[str, list[str]], capacity: dict[str, int]) -> dict[str, str]:
    """Stacks -> supply units, as many as capacity allows, earlier stacks first (augmenting paths)."""
    users: dict[str, list[str]] = {u: [] for u in capacity}
    given: dict[str, str] = {}

    def place(st: str, seen: set[str]) -> bool:
        for u in cands[st]:
            if u in seen:
                continue
            seen.add(u)
            if len(users[u]) < capacity[u]:
                users[u].append(st)
                given[st] = u
                return True
            for other in list(users[u]):
                if place(other, seen):
                    users[u].remove(other)
                    users[u].append(st)
                    given[st] = u
                    return True
        return False

    for st in stacks:
        place(st, set())
    return given


def _stacks_by_hex(state: FullGameState, side: str) -> dict[str, list[str]]:
    """7.1: supply is traced from each stack's hex; the side's forces grouped by hex."""
    forces = model.forces(state, side)
    where = {f: str(model.force_hex(state, f)) for f in forces}
    stacks: dict[str, list[str]] = {}
    for f in forces:
        stacks.setdefault(where[f], []).append(f)
    return stacks


def _allot_capacity(state: FullGameState, stacks: Mapping[str, list[str]], net: _Network, dist: Mapping[str, dict],
                    in_range: Mapping[str, list[str]], sources: set[str], priority: Sequence[str]
                    ) -> tuple[dict[str, str], dict[str, int]]:
    """7.21, 7.22: stacks that use capacity and reach no source share the capacity of the wagons and
    depots in range, the owner's priority first.  Returns stack hex -> supply unit, and the capacities."""
    order = {f: i for i, f in enumerate(priority)}
    needing = [h for h in stacks
               if any(uses_capacity(state, f) for f in stacks[h]) and not set(in_range[h]) & sources]
    needing.sort(key=lambda h: (min(order.get(f, len(order)) for f in stacks[h]), h))
    capacity = {n: net.nodes[n].capacity or 0 for n in net.link if net.nodes[n].kind != "source"}
    cands = {h: sorted((n for n in in_range[h] if n in capacity), key=lambda n: (dist[h][n], n)) for h in needing}
    return _assign(needing, cands, capacity), capacity


def _force_line(state: FullGameState, f: str, h: str, net: _Network, dist: Mapping[str, float], in_range: list[str],
                sources: set[str], given: Mapping[str, str]) -> dict:
    """7.11, 7.23, 7.12a, 7.31: one force's supply line: to a source; to any supply unit in range for
    a force that uses no capacity; to its allotted wagon or depot; else out of communication."""
    near = _nearest(dist, dist)
    src = _nearest(dist, set(in_range) & sources)
    r = {"hex": h, "uses_capacity": uses_capacity(state, f), "nearest": dist[near] if near else None}
    if src is not None:
        r.update(comm=True, via=src, distance=dist[src],
                 why=f"full supply: {_num(dist[src])} MP to source {net.nodes[src].hex} (7.11)")
    elif not uses_capacity(state, f) and in_range:     # 7.23: a line is enough
        u = _nearest(dist, in_range)
        free = "unled units" if model.is_unled(f) else "an inactive commander's force"
        r.update(comm=True, via=u, distance=dist[cast(str, u)],
                 why=f"full supply: {_num(dist[cast(str, u)])} MP to {_name(net.nodes[cast(str, u)])}; "
                     f"{free} use no capacity (7.23)")
    elif h in given:
        u = given[h]
        r.update(comm=True, via=u, distance=dist[u],
                 why=f"full supply: {_num(dist[u])} MP to {_name(net.nodes[u])} "
                     f"(7.12a, 7.21-7.23)")
    elif in_range:
        full = ", ".join(_name(net.nodes[n]) for n in sorted(in_range))
        r.update(comm=False, via=near, distance=dist[cast(str, near)],
                 why=f"out of communication: {full} in range but its capacity is used (7.31)")
    else:
        r.update(comm=False, via=near, distance=dist[near] if near else None,
                 why="out of communication: no supply line of 20 MP or less to a source or in-supply "
                     "depot, nor of 10 MP or less to an in-supply wagon (7.31)"
                     + (f"; nearest: {_name(net.nodes[near])} at {_num(dist[near])} MP" if near else ""))
    return r


def _evaluate(state: FullGameState, side: str, net: _Network, priority: Sequence[str]):
    """(per force: state fields, per unit: used_by) for one network."""
    stacks = _stacks_by_hex(state, side)
    dist = {h: net.distances(h) for h in stacks}
    in_range = {h: [n for n, d in dist[h].items() if d <= net.nodes[n].range] for h in stacks}
    sources = {n for n in net.link if net.nodes[n].kind == "source"}
    given, capacity = _allot_capacity(state, stacks, net, dist, in_range, sources, priority)
    result: dict[str, dict] = {}
    for h, fs in stacks.items():
        for f in fs:
            result[f] = _force_line(state, f, h, net, dist[h], in_range[h], sources, given)
    used = {n: tuple(sorted(h for h, u in given.items() if u == n)) for n in capacity}
    return result, used


def _emergency_checks(state: FullGameState, side: str, hexmap, first: dict[str, dict], requests: Mapping[str, str],
                      own_use: Collection[str]) -> tuple[dict[str, str], list[Problem]]:
    """Valid emergency requests (stack hex -> logistics id) and the refused ones (7.35)."""
    problems: list[Problem] = []
    served: dict[str, str] = {}
    taken: dict[str, str] = {}
    logistics = state.get("logistics", {})
    for force, lid in requests.items():
        path = ["emergency", force]
        if force not in first:
            problems.append(Problem(f"{force} is not one of your forces on the map", "7.35", path))
            continue
        s = logistics.get(lid)
        h = first[force]["hex"]
        if s is None or s["side"] != side or s.get("kind") not in ("wagon", "depot") or logistics_hex(state, lid) is None:
            problems.append(Problem(f"{lid} is not one of your wagons or depots on the map", "7.35", path))
            continue
        if first[force]["comm"] or force in own_use:
            problems.append(Problem(f"{force} does not need emergency supply: it is "
                                    + ("using an Own Use marker" if force in own_use else "in communication"),
                                    "7.35", path))
            continue
        there = logistics_hex(state, lid)
        mr = oc_mr(state, force)
        if mr is None:
            if there != h:
                problems.append(Problem(f"{lid} must be stacked with the leaderless force {force} in {h} "
                                        f"to give it emergency supply (it is in {there})", "7.35", path))
                continue
        else:
            d = hex_distance(hexmap.parse(h), hexmap.parse(there))
            if d > mr:
                problems.append(Problem(f"{lid} in {there} is {d} hexes from {force}; emergency supply needs a "
                                        f"wagon or depot within the OC's MR ({mr} hexes)", "7.35", path))
                continue
        if lid in taken and taken[lid] != h:
            problems.append(Problem(f"{lid} already gives emergency supply to the stack in {taken[lid]}; "
                                    "one wagon or depot serves one stack", "7.35", path))
            continue
        taken[lid] = h
        served.setdefault(h, lid)
    return served, problems


def emergency_options(state: FullGameState, side: str, hexmap, force: str, *, exclude: Collection[str] = ()) -> tuple[str, ...]:
    """Wagons and depots that could give ``force`` emergency supply (7.35), nearest first."""
    h = hexmap.parse(str(model.force_hex(state, force)))
    mr = oc_mr(state, force)
    out = []
    for lid, s in state.get("logistics", {}).items():
        if s["side"] != side or s.get("kind") not in ("wagon", "depot") or lid in exclude:
            continue
        there = logistics_hex(state, lid)
        if there is None:
            continue
        d = hex_distance(h, hexmap.parse(there))
        if (mr is None and d == 0) or (mr is not None and d <= mr):
            out.append((d, lid))
    return tuple(lid for _, lid in sorted(out))


def line_conditions(state: FullGameState, side: str) -> dict:
    """What changes the cost or the course of ``side``'s supply lines besides the units and the
    weather, for :func:`supply_status`: the side's laid pontoons, crossed at a ford's cost like a
    bridge (7.12c "a bridge (including a pontoon)", 8.81), and the Rail Line Cut markers (7.13).
    Every supply check of the game -- the impulse's Supply Sequence (4.21), the check of its
    emergency supply orders (7.35) and the Reorganization Segment's Supply Recheck (4.31) -- traces
    with them, so that a line is the same whichever step traces it."""
    from .engineers import pontoon_hexsides

    return {"pontoons": pontoon_hexsides(state, side), "rail_cuts": list(state.get("rail_cuts") or ())}


def supply_status(
    state: FullGameState,
    side: str,
    hexmap,
    *,
    weather: str | None = None,
    emergency: Mapping[str, str] | None = None,
    own_use: Collection[str] = (),
    priority: Sequence[str] = (),
    pontoons: Iterable = (),
    rail_cuts: Collection[str] = (),
) -> SideSupply:
    """The supply state of every force of ``side`` at the start of an impulse (7.1-7.35).

    ``emergency`` maps a force to the wagon or depot it consumes (7.35);
    ``own_use`` names forces spending an Own Use marker (7.35a); ``priority``
    lists forces to give capacity first; ``pontoons`` are hexsides with this
    side's laid pontoons (8.81); ``rail_cuts`` hexes with Rail Line Cut
    markers (7.13).  ``weather`` defaults to the state's.
    """
    weather = weather or weather_of(state)
    net = _Network(state, side, hexmap, weather, exclude=(), pontoons=pontoons, rail_cuts=rail_cuts)
    first, used = _evaluate(state, side, net, priority)
    served, problems = _emergency_checks(state, side, hexmap, first, emergency or {}, set(own_use))
    consumed = tuple(sorted(set(served.values())))
    if consumed:
        net = _Network(state, side, hexmap, weather, exclude=set(consumed), pontoons=pontoons, rail_cuts=rail_cuts)
        first, used = _evaluate(state, side, net, priority)

    forces: dict[str, ForceSupply] = {}
    for f, r in first.items():
        h = r["hex"]
        emergency_unit = None
        via, dist, comm, why = r["via"], r["distance"], r["comm"], r["why"]
        if comm:
            st = Supply.FULL
        elif f in own_use:
            st, via, dist = Supply.FULL, "own use", None
            why = "full supply by an Own Use marker (7.34, 7.35a); " + why
        elif h in served:
            st, emergency_unit, via, dist = Supply.FULL, served[h], served[h], None
            why = f"full supply by emergency supply: {served[h]} consumed (7.35); " + why
        elif has_asp(state, f):
            st = Supply.COMBAT
            why += ("; combat supply: unled units always have ASP (7.33)" if model.is_unled(f)
                    else "; combat supply: it has ASP (7.33)")
        else:
            st = Supply.OUT
            why += "; out of supply: no ASP (7.32)"
        options = () if (comm or st is Supply.FULL) else emergency_options(state, side, hexmap, f, exclude=consumed)
        drm = 0 if f in own_use and not comm else distance_drm(r["nearest"])
        forces[f] = ForceSupply(
            force=f, hex=h, state=st, in_communication=comm, via=via, distance=dist, nearest=r["nearest"],
            uses_capacity=r["uses_capacity"], emergency=emergency_unit, emergency_options=options, reason=why,
            distance_drm=drm, **EFFECTS[st])

    units: dict[str, SupplyUnitState] = {}
    for nid, n in net.nodes.items():
        linked = nid in net.link
        if linked:
            link = net.link[nid]
        elif n.kind == "source":
            link = f"cut: enemy combat units in {n.hex} (7.12b)"
        else:
            link = "not in supply: no source, in-supply depot or wagon reaches it (7.12a)"
        units[nid] = SupplyUnitState(nid, n.kind, n.hex, linked, link, n.capacity, used.get(nid, ()))
    return SideSupply(side, weather, forces, units, consumed, tuple(problems))
