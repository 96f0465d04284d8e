"""Railroads: cutting rail lines (8.63) and rail movement by train (8.7-8.74, 5.28, 5.29).

Pure questions about the state (layout in :mod:`.model`) that return
dataclasses with the rule numbers and a ``why``; ``apply_...`` functions
change the state they are given.  The movement code calls the two entry
points per order: :func:`rail_move` (with :func:`rail_move_problems` when the
order file is checked) and :func:`cut_rail`.

State keys read or written (all optional; absent = none)::

    rail_cuts: ["0509", ...]          Rail Line Cut markers (8.63, 7.13): hex labels
    trains:                           the trains on the map (8.72)
      t1: {side: union, hex: "0410", extra: false,
           run: {impulse: "3.2", route: [...hexes...], legs: [[force, from, to, load], ...]}}
    rail_open: {union: [...], confederate: [...]}   rail hexes open to each side (8.71);
                                      absent: every unbroken line is open to both
    rail_last: {"0509": union}        the side whose units last occupied a rail hex (8.71)
    rail_opened: {union: 3}           the turn a side last opened a stretch (8.71: one a turn)
    options: {off_map_rail: true}     8.74 (optional rule)
    off_map: [{force, side, edge, left_turn}]   forces gone off the map by rail (8.74)
    off_map_rail: {lost_edges: {west: "0305", east: "2708"}}   the scenario's Memphis and
                                      Knoxville hexes (8.74); absent: no edge is ever lost
    wep: {union: 120, ...}            1 WEP per train per impulse (8.72)

Readings chosen where the rules are ambiguous or silent (pinned by
``tests/heartland/test_rail.py``):

* 8.63: the cut is made while moving: the MP for the hex are the cost of the
  step into it (:func:`.terrain.step_cost`) + 3; a cut of the hex the force
  starts in pays the hex's own terrain cost + 3.  The force must hold a
  cavalry unit (on the map or in a box) and an active OC (8.1); an unled
  cavalry force may cut.  The text gives **no repair rule** (4.32 lists
  "repair" among engineering actions without a procedure): markers stay.
* 8.72 capacity: a train carries 1 division-equivalent: a division counts 1,
  a brigade or smaller unit 1/4 (Union "1 division", Confederate "4
  brigades", 3.23's equivalence); leaders ride free.
* 8.72 "6 stations": every station the train enters after its starting hex
  counts, passed through or stopped at (digest F22); a train that runs
  empty to pick a force up counts those stations too.
* 8.72 one run per train per impulse: the first force to ride pays the 1
  WEP; later forces of the same impulse may ride a stretch of that run or
  extend it from its last station, within the 6 stations and the capacity.
* 8.1/8.73: a force whose OC is inactive cannot board; unled units may.
  Wagons cannot board: a force with a wagon attached must drop it first.
* 8.73: the route may not enter a hex with enemy units, enemy ZOC or a Rail
  Line Cut marker (the starting station may be in enemy ZOC).  At
  resolution a blocked route stops at the last station before the block.
* 8.71: open track is checked only when the state keeps ``rail_open`` (a scenario that gives
  the setup's open lines); then the moves record ``rail_last`` and the Administration order
  ``open_rail`` opens one stretch a turn, station to next station, every hex of it last
  occupied by the side's units and uncut.  The opened stretch is no longer open to the enemy.
* 8.74 (optional): a force leaves by a rail move ordered ``off_map`` whose
  last hex is a rail hex on a friendly map edge (it need not be a station:
  the train runs on off the map); the train itself stays at that edge hex.
  Only a leader's force may go (an unled stack has no name to come back
  under).  It comes back by a rail move ordered ``entering`` whose first hex
  is a rail hex on a friendly edge, from the first friendly impulse two turns
  later (same edge) or three turns later (another edge) **on**: "may
  re-enter in the first friendly impulse" is read as the earliest impulse,
  not the only one.  The ride in is an ordinary rail move (a train runs to
  the edge, 1 WEP, 6 stations, no entry into enemy ZOC).  A corner hex is on
  both its edges.  Memphis and Knoxville are "captured" while the Union
  holds them: the last side through the hex (the VP control record when the
  hex is a VP place), else the side in it now.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Collection, Iterable, Mapping, cast

from .state_types import FullGameState, OffMap, Train, Turn
from ...geometry.hex import Hex
from ..base import Problem
from . import forces as fc
from . import model
from .zoc import zoc_hexes

if TYPE_CHECKING:
    from ...kit.charts import Charts

RAIL = "rail"                                    # the map line type of railroads
STATIONS = frozenset({"town", "major_city"})     # 8.71: every town and major city on a rail line
CUT_EXTRA_MP = 3                                 # 8.63: terrain cost + 3 MP
MAX_STATIONS = 6                                 # 8.72, H-28
TRAIN_WEP = 1                                    # 8.72: 1 WEP per train per impulse
TRAIN_CAPACITY = Fraction(1)                     # 8.72: 1 division / 4 brigades
EXTRA_TRAINS = 1                                 # 8.72: one more train per scenario
NO_RAIL_WEATHER = frozenset({"Snow", "Blizzard"})   # 5.28, 5.29, 8.73
OFF_MAP_SAME_EDGE = 2                            # 8.74: re-enter two turns later at the same edge
OFF_MAP_OTHER_EDGE = 3                           # 8.74: three turns later at another edge
UNION_EDGES = ("north",)                         # 8.74: the north edge is always the Union's
CONFEDERATE_EDGES = ("west", "east", "south")    # 8.74: the Confederates' in 1861 (and after, H-reading)


# --------------------------------------------------------------------------
# the map


def is_rail_hex(hexmap, label: str) -> bool:
    h = hexmap.parse(label)
    return any(RAIL in hexmap.lines_between(h, n) for n in h.neighbours() if n in hexmap.grid)


def is_station(hexmap, label: str) -> bool:
    """8.71: a town or major city on a rail line."""
    return bool(set(hexmap.features(hexmap.parse(label))) & STATIONS) and is_rail_hex(hexmap, label)


def rail_path(hexmap, a: str, b: str, blocked: Collection[str] = ()) -> list[str] | None:
    """The shortest run of rail hexes from ``a`` to ``b`` (both included), avoiding ``blocked``."""
    start, goal = hexmap.parse(a), hexmap.parse(b)
    prev: dict[Hex, Hex | None] = {start: None}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        if h == goal:
            break
        for n in h.neighbours():
            if n in prev or n not in hexmap.grid or RAIL not in hexmap.lines_between(h, n):
                continue
            if hexmap.label(n) in blocked:
                continue
            prev[n] = h
            queue.append(n)
    if goal not in prev:
        return None
    out, h = [], goal
    while h is not None:
        out.append(hexmap.label(h))
        h = prev[h]
    return out[::-1]


def map_edges(hexmap, label: str) -> set[str]:
    """8.74: the map edges ``label`` lies on (north = the first printed row, west = the first
    column); a corner hex is on two edges, an inner hex on none."""
    grid = hexmap.grid
    col, row = grid.labels.to_offset(hexmap.parse(label))
    edges = {"west": col == grid.columns[0], "east": col == grid.columns[1],
             "north": row == grid.rows[0], "south": row == grid.rows[1]}
    return {e for e, on in edges.items() if on}


def _holder(state: FullGameState, label: str) -> str | None:
    held = (state.get("control_vp") or {}).get(label)
    if held:
        return held
    here = [s for s in ("union", "confederate") if label in model.occupied_hexes(state, s)]
    return here[0] if len(here) == 1 else None


def friendly_edges(state: FullGameState, side: str) -> set[str]:
    """8.74: the north edge is the Union's; the west, east and south edges are the Confederates',
    except the west once the Union holds Memphis and the east once it holds Knoxville (the hexes
    the scenario names in ``off_map_rail.lost_edges``)."""
    if side == "union":
        return set(UNION_EDGES)
    lost = ((state.get("off_map_rail") or {}).get("lost_edges") or {})
    return {e for e in CONFEDERATE_EDGES if not (e in lost and _holder(state, str(lost[e])) == "union")}


def stations_on(hexmap, route: list[str]) -> list[str]:
    """The stations a route enters after its first hex (8.72's count)."""
    return [x for x in route[1:] if is_station(hexmap, x)]


def weather_of(state: FullGameState) -> str:
    w = (state.get("current") or cast(Turn, {})).get("weather") or state.get("weather")
    if isinstance(w, dict):
        return w.get("result") or "Clear"
    return w or "Clear"


def impulse_key(state: FullGameState) -> str:
    """``turn.impulse`` of the impulse being played (a train runs once per impulse)."""
    imp: Mapping[str, Any] = (state.get("current") or cast(Turn, {})).get("active_impulse") or {}
    return f"{state.get('turn', 0)}.{imp.get('n', 0)}"


def rail_cuts(state: FullGameState) -> list[str]:
    return [str(x) for x in state.get("rail_cuts") or []]


# --------------------------------------------------------------------------
# 8.63 cutting rail lines


@dataclass
class RailCut:
    """A cavalry force cuts the rail line in one hex (8.63)."""

    force: str
    hex: str
    mp: float = 0
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.63"
    why: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems


def _cavalry_in(state: FullGameState, force: str) -> list[str]:
    return [u for u in model.units_of(state, force) if state["units"][u]["arm"] == "cavalry"]


def _hex_own_cost(hexmap, label: str) -> float | None:
    h = hexmap.parse(label)
    c = hexmap.terrain(h).cost(None)
    if c is None:
        return None
    for f in hexmap.features(h):
        fc_ = hexmap.types["features"][f].cost(None)
        if fc_ is None:
            return None
        c += fc_
    return c


def cut_rail(state: FullGameState, hexmap, force: str, label: str, *, entered_from: str | None = None,
             step_cost=None) -> RailCut:
    """8.63 / H-28: may ``force`` cut the rail line in ``label``, and for how many MP?

    ``entered_from`` is the hex the force enters ``label`` from, priced by ``step_cost`` (the
    movement cost callable, by default :func:`.terrain.step_cost` for the state's weather); without
    it the force cuts the hex it stands in and pays the hex's own terrain cost.  Always + 3 MP;
    success is automatic."""
    r = RailCut(force, str(label))
    p = r.problems
    side = model.force_side(state, force)
    if not _cavalry_in(state, force):
        p.append(Problem(f"{force} has no cavalry unit: only cavalry may cut rail lines", "8.63", ["force"]))
    oc = fc.force_oc(state, force)
    if oc is not None and not state["leaders"][oc].get("active"):
        p.append(Problem(f"{oc} is inactive: only active leaders may cut rail lines", "8.1", ["force"]))
    try:
        is_rail = is_rail_hex(hexmap, label)
    except Exception as e:          # InvalidInput: not a hex of this map
        p.append(Problem(str(e), "8.63", ["hex"]))
        r.why = "illegal: " + str(e)
        return r
    if not is_rail:
        p.append(Problem(f"{label} is not on a rail line", "8.63", ["hex"]))
    if label in rail_cuts(state):
        p.append(Problem(f"the rail line in {label} is already cut", "8.63", ["hex"]))
    if entered_from is None:
        if label != model.force_hex(state, force):
            p.append(Problem(f"{force} is in {model.force_hex(state, force)}, not {label}: name the hex it "
                             "enters from", "8.63", ["hex"]))
        base = _hex_own_cost(hexmap, label)
    else:
        if step_cost is None:
            from .terrain import step_cost as _sc
            step_cost = _sc(hexmap, weather=weather_of(state), side=side)
        base = step_cost(hexmap.parse(entered_from), hexmap.parse(label))
        if not isinstance(base, (int, float)):
            p.append(Problem(f"{label} cannot be entered from {entered_from}: {getattr(base, 'reason', base)}",
                             "8.63", ["hex"]))
            base = None
    if base is None and not p:
        p.append(Problem(f"{label} cannot be entered", "8.63", ["hex"]))
    if p:
        r.why = "illegal: " + "; ".join(x.message for x in p)
        return r
    r.mp = cast(float, base) + CUT_EXTRA_MP        # None was refused above
    r.why = (f"{force} cuts the rail line in {label}: terrain {base:g} + {CUT_EXTRA_MP} = {r.mp:g} MP, "
             "automatic success; a Rail Line Cut marker is placed")
    return r


def apply_cut_rail(state: FullGameState, cut: RailCut) -> None:
    """Place the Rail Line Cut marker (the MP are the movement code's)."""
    if cut.problems:
        raise ValueError("cannot apply an illegal rail cut: " + cut.why)
    cuts = state.setdefault("rail_cuts", [])
    if cut.hex not in cuts:
        cuts.append(cut.hex)


def with_cuts(cost, cuts: Iterable[str], hexmap):
    """A step cost that adds 8.63's 3 MP for entering each hex in ``cuts`` (the hexes cut on the way)."""
    marked = {hexmap.parse(x) for x in cuts}

    def step(a, b):
        c = cost(a, b)
        if b in marked and isinstance(c, (int, float)):
            return c + CUT_EXTRA_MP
        return c

    return step


# --------------------------------------------------------------------------
# 8.71 open track (reading it; recording passages and opening a stretch: .rail_open)


def open_to(state: FullGameState, side: str) -> set[str] | None:
    """Rail hexes open to ``side`` (8.71), or None when the state does not track open track."""
    raw = state.get("rail_open")
    if raw is None:
        return None
    return {str(x) for x in raw.get(side, [])}


# --------------------------------------------------------------------------
# 8.72 trains


def train_load(state: FullGameState, unit_ids: Iterable[str]) -> Fraction:
    """8.72: division-equivalents aboard: a division 1, a brigade or smaller 1/4; leaders free."""
    total = Fraction(0)
    for uid in unit_ids:
        u = state["units"][uid]
        if u["steps"] <= 0:
            continue
        total += 1 if u.get("size") == "division" else Fraction(1, 4)
    return total


def trains_of(state: FullGameState, side: str) -> dict[str, Train]:
    return {tid: t for tid, t in (state.get("trains") or {}).items() if t.get("side") == side}


@dataclass
class RailMove:
    """One force's rail move (8.72, 8.73)."""

    force: str
    side: str
    train: str | None = None
    stations: list[str] = field(default_factory=list)     # as ordered
    route: list[str] = field(default_factory=list)        # every hex the force rides through, start first
    train_route: list[str] = field(default_factory=list)  # the train's whole run this impulse after the move
    end: str | None = None
    counted: list[str] = field(default_factory=list)      # stations counted against the 6
    load: Fraction = Fraction(0)
    wep: int = 0
    legs: list = field(default_factory=list)
    stopped: str = ""
    off_map: bool = False                                 # 8.74: rides on off the map at the end
    entering: bool = False                                # 8.74: comes back onto the map
    edge: str = ""                                        # 8.74: the map edge left or entered by
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.72"
    why: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems


def _blocks(state: FullGameState, hexmap, side: str) -> tuple[set[str], set[str], set[str]]:
    enemy = model.other_side(side)
    return (model.occupied_hexes(state, enemy), set(zoc_hexes(state, enemy, hexmap)), set(rail_cuts(state)))


def _full_route(hexmap, stops: list[str], blocked: Collection[str]) -> tuple[list[str] | None, str | None]:
    route = [stops[0]]
    for a, b in zip(stops, stops[1:]):
        if a == b:
            continue
        leg = rail_path(hexmap, a, b, blocked=blocked)
        if leg is None:
            return None, f"{a}-{b}"
        route += leg[1:]
    return route, None


def _choose_train(state: FullGameState, side: str, board: str, train: str | None, key: str) -> tuple[str | None, str]:
    own = trains_of(state, side)
    if train is not None:
        return (train if train in own else None), ""
    running = [t for t, d in own.items() if (d.get("run") or {}).get("impulse") == key and board in d["run"]["route"]]
    if running:
        return sorted(running)[0], "rides the train already running"
    here = [t for t, d in own.items() if d.get("hex") == board and (d.get("run") or {}).get("impulse") != key]
    if here:
        return sorted(here)[0], ""
    idle = [t for t, d in own.items() if (d.get("run") or {}).get("impulse") != key]
    return (sorted(idle)[0] if idle else None), ""


def _illegal(r: RailMove) -> RailMove:
    r.why = "illegal: " + "; ".join(x.message for x in r.problems)
    return r


def _weather_problems(state: FullGameState) -> list[Problem]:
    """5.28, 5.29, 8.73: no rail movement in Snow or a Blizzard."""
    weather = weather_of(state)
    if weather in NO_RAIL_WEATHER:
        return [Problem(f"no rail movement in {weather} (5.28, 5.29, 8.73)", "8.73", ["stations"])]
    return []


def _boarding_problems(state: FullGameState, hexmap, force: str, side: str, stations: list[str], *, off_map: bool,
                       entering: bool, p: list[Problem]) -> tuple[str, str]:
    """8.72, 8.74: the force boards where it stands (or at a friendly map edge coming back) and
    gets on and off in stations; the off-map note for the ``why`` and the edge."""
    here: str | None = model.force_hex(state, force)      # None: gone off the map (8.74)
    edge_note, edge = "", ""
    if off_map or entering:
        edge_note, edge = _off_map_problems(state, hexmap, force, side, stations, entering, p)
    elif here is None:
        p.append(Problem(f"{force} is off the map: it comes back with a rail move marked `off_map: enter` (8.74)", "8.74", ["force"]))
    if stations[0] != here and not entering:
        p.append(Problem(f"{force} is in {here}: the first station must be where it boards", "8.72",
                         ["stations", 0]))
    last = len(stations) - 1
    for i, s in enumerate(stations):
        try:
            ok = is_station(hexmap, s)
        except Exception as e:
            p.append(Problem(str(e), "8.72", ["stations", i]))
            continue
        if (off_map and i == last) or (entering and i == 0):
            continue                  # 8.74: the map-edge rail hex, checked above
        if not ok and i in (0, last):
            p.append(Problem(f"{s} is not a station: units board and leave trains in a town or major city on "
                             "a rail line", "8.72", ["stations", i]))
    return edge_note, edge


def _rider_problems(state: FullGameState, force: str, units: list[str], load: Fraction) -> list[Problem]:
    """8.1, 8.72, 8.73: who may ride: an active OC's force (or unled units) without wagons, that
    has not moved this impulse, within the train's capacity."""
    p: list[Problem] = []
    oc = fc.force_oc(state, force)
    if oc is not None and not state["leaders"][oc].get("active"):
        p.append(Problem(f"{oc} is inactive: forces of inactive leaders cannot board (8.1)", "8.73", ["force"]))
    if not model.is_unled(force) and model.force_logistics(state, force):
        p.append(Problem(f"wagons cannot board: {force} must leave {', '.join(model.force_logistics(state, force))}"
                         " behind", "8.73", ["force"]))
    if not units and model.is_unled(force):
        p.append(Problem("no units to carry", "8.72", ["force"]))
    imp: Mapping[str, Any] = (state.get("current") or cast(Turn, {})).get("active_impulse") or {}
    if force in (imp.get("mp") or {}):
        p.append(Problem(f"{force} has already moved this impulse: no relay of march and rail", "8.72",
                         ["force"]))
    if force in (imp.get("rail") or {}):
        p.append(Problem(f"{force} has already moved by rail this impulse", "8.72", ["force"]))
    if load > TRAIN_CAPACITY:
        p.append(Problem(f"{force} is {load} division-equivalents; a train carries 1 division (Union) or "
                         "4 brigades (Confederate)", "8.72", ["force"]))
    return p


@dataclass
class _Run:
    """The train's run this impulse before the force boards (8.72)."""

    wep: int                  # what this ride pays for the train: 1 WEP when it starts the run
    route: list[str]
    legs: list
    problems: list[Problem]


def _run_so_far(state: FullGameState, side: str, t: Train, key: str) -> _Run:
    """8.72: a train that has not run this impulse starts from its hex for 1 WEP; one already
    running goes on with the run it made (and the forces it carries)."""
    run = t.get("run") if (t.get("run") or {}).get("impulse") == key else None
    if run is not None:
        return _Run(0, list(run["route"]), [list(x) for x in run["legs"]], [])
    p = []
    wep = (state.get("wep") or {}).get(side)
    if wep is not None and wep < TRAIN_WEP:
        p.append(Problem(f"{side} has {wep} WEP; a train costs {TRAIN_WEP} WEP an impulse", "8.72", ["train"]))
    return _Run(TRAIN_WEP, [t["hex"]], [], p)


@dataclass
class _Ride:
    """Where the force rides on the train's run: ``route`` is the train's whole run, the force
    boards at ``route[board_at]`` and gets off at ``route[stop_at]``."""

    route: list[str]
    board_at: int
    stop_at: int
    stopped: str = ""


def _ride(hexmap, prefix: list[str], stations: list[str], train_hex: str, blocked: set[str],
          cuts: set[str]) -> _Ride | Problem:
    """8.72, 8.73: a ride inside the train's run so far, or the run extended through the
    ordered stations, avoiding enemy units, enemy ZOC and Rail Line Cuts; a line open but
    blocked stops at the station before the block."""
    board_at = prefix.index(stations[0]) if stations[0] in prefix else None
    if board_at is not None and stations[-1] in prefix[board_at + 1:] and len(stations) == 2:
        return _Ride(prefix, board_at, prefix.index(stations[-1], board_at + 1))
    tail_stops = ([stations[0]] if board_at is None else []) + stations[1:]
    ext, bad = _full_route(hexmap, [prefix[-1]] + tail_stops, blocked - {prefix[-1], train_hex})
    raw, _ = _full_route(hexmap, [prefix[-1]] + tail_stops, cuts)
    leg = raw if ext is None else ext
    if leg is None:
        return Problem(f"no unbroken rail line {bad}", "8.73", ["stations"])
    route = prefix + leg[1:]
    if board_at is None:
        board_at = len(prefix) - 1 + leg.index(stations[0])
    if ext is not None:
        return _Ride(route, board_at, len(route) - 1)
    return _stop_before_block(hexmap, route, len(prefix), board_at, blocked, stations[0])


def _stop_before_block(hexmap, route: list[str], start: int, board_at: int, blocked: set[str],
                       board: str) -> _Ride | Problem:
    """8.73: blocked by enemy units or ZOC: as far as the station before the block."""
    first_bad = next(i for i in range(start, len(route)) if route[i] in blocked)
    if first_bad <= board_at:
        return Problem(f"the rail line to {board} is blocked at {route[first_bad]} (enemy units, "
                       "ZOC or a Rail Line Cut)", "8.73", ["stations"])
    last_station = max((i for i in range(board_at + 1, first_bad) if is_station(hexmap, route[i])),
                       default=None)
    if last_station is None:
        return Problem(f"the rail line is blocked at {route[first_bad]} before any station beyond "
                       f"{board}", "8.73", ["stations"])
    stopped = (f"blocked at {route[first_bad]} (enemy units or ZOC): stops at {route[last_station]}, "
               "the station before the block (8.73)")
    return _Ride(route[:last_station + 1], board_at, last_station, stopped)


def _open_track_problems(opened: set[str] | None, route: list[str], side: str) -> list[Problem]:
    """8.71: the run keeps to track open to the side (checked when the state tracks it)."""
    shut = [] if opened is None else [x for x in route[1:] if x not in opened]
    if shut:
        return [Problem(f"the track through {', '.join(shut)} is not open to {side}", "8.71", ["stations"])]
    return []


def _station_count_problems(counted: list[str]) -> list[Problem]:
    """8.72: a train runs through at most 6 stations an impulse."""
    if len(counted) > MAX_STATIONS:
        return [Problem(f"the train would run through {len(counted)} stations ({', '.join(counted)}); at most "
                        f"{MAX_STATIONS}", "8.72", ["stations"])]
    return []


def _capacity_problems(route: list[str], legs: list) -> list[Problem]:
    """8.72: the forces aboard each stretch of the run within the train's capacity."""
    for i in range(len(route) - 1):
        aboard = sum((Fraction(x[3]) for x in legs if x[1] <= i < x[2]), Fraction(0))
        if aboard > TRAIN_CAPACITY:
            return [Problem(f"the train would carry {aboard} division-equivalents between {route[i]} and "
                            f"{route[i + 1]}; at most 1", "8.72", ["train"])]
    return []


def _ride_why(r: RailMove, note: str, edge_note: str) -> str:
    why = (f"{r.force} rides train {r.train} {' > '.join(r.route)} ({len(r.counted)} of {MAX_STATIONS} stations on "
           f"the run)")
    why += f"; {TRAIN_WEP} WEP for the train this impulse" if r.wep else f"; {note or 'the train is already paid'}"
    if r.stopped:
        why += "; " + r.stopped
    if edge_note and not r.stopped:
        why += "; " + edge_note
    return why + "; no other movement for it this impulse (8.72)"


def rail_move(state: FullGameState, hexmap, force: str, stations: list[str], *, train: str | None = None,
              off_map: bool = False, entering: bool = False) -> RailMove:
    """8.72, 8.73 / H-28: move ``force`` by train through ``stations`` (its station first, the
    station where it gets off last; stations between are waypoints).  ``train`` names the train;
    by default one already running this impulse through the boarding station, else one in that
    station, else any idle friendly train (which runs empty to the force first).

    8.74: ``off_map`` rides on off the map at the last hex, a rail hex on a friendly edge;
    ``entering`` brings a force back from off the map at the first hex, one on a friendly edge."""
    side = model.force_side(state, force)
    r = RailMove(force, side, stations=[str(s) for s in stations])
    p = r.problems
    stations = r.stations
    key = impulse_key(state)
    p += _weather_problems(state)
    if len(stations) < 2:
        p.append(Problem("name the boarding station and the station to get off at", "8.72", ["stations"]))
        return _illegal(r)
    edge_note, r.edge = _boarding_problems(state, hexmap, force, side, stations, off_map=off_map,
                                           entering=entering, p=p)
    units = model.units_of(state, force)
    r.load = train_load(state, units)
    p += _rider_problems(state, force, units, r.load)
    tid, note = _choose_train(state, side, stations[0], train, key)
    if tid is None:
        p.append(Problem(f"no {side} train" + (f" {train!r}" if train else " is free this impulse"), "8.72",
                         ["train"]))
    if p:
        return _illegal(r)
    r.train = tid
    t = state["trains"][cast(str, tid)]
    run = _run_so_far(state, side, t, key)
    r.wep = run.wep
    p += run.problems
    enemy, zoc, cuts = _blocks(state, hexmap, side)
    ride = _ride(hexmap, run.route, stations, t["hex"], enemy | zoc | cuts, cuts)
    if isinstance(ride, Problem):
        p.append(ride)
        return _illegal(r)
    r.stopped = ride.stopped
    route, board_at, stop_i = ride.route, ride.board_at, ride.stop_at
    p += _open_track_problems(open_to(state, side), route, side)
    r.counted = stations_on(hexmap, route)
    p += _station_count_problems(r.counted)
    legs = run.legs + [[force, board_at, stop_i, str(r.load)]]
    p += _capacity_problems(route, legs)
    r.route = route[board_at:stop_i + 1]
    r.train_route = route
    r.end = route[stop_i]
    r.legs = legs
    if p:
        return _illegal(r)
    r.off_map = off_map and not r.stopped
    r.entering = entering
    r.why = _ride_why(r, note, edge_note)
    return r


def _off_map_problems(state: FullGameState, hexmap, force: str, side: str, stations: list[str], entering: bool,
                      p: list[Problem]) -> tuple[str, str]:
    """8.74: the option, the force, the edge hex and (coming back) the turn; the note for the
    ``why`` and the edge."""
    if not off_map_rail_enabled(state):
        p.append(Problem("off-map rail movement is an optional rule not in play", "8.74", ["off_map"]))
        return "", ""
    if model.is_unled(force):
        p.append(Problem("only a leader's force may leave the map by rail (reading of 8.74)", "8.74", ["force"]))
        return "", ""
    i = 0 if entering else len(stations) - 1
    label = str(stations[i])
    try:
        edges = map_edges(hexmap, label) if is_rail_hex(hexmap, label) else set()
    except Exception as e:
        p.append(Problem(str(e), "8.74", ["stations", i]))
        return "", ""
    if not edges:
        p.append(Problem(f"{label} is not a rail hex on the map edge: forces leave and return by train at a "
                         "map-edge rail line", "8.74", ["stations", i]))
        return "", ""
    friendly = edges & friendly_edges(state, side)
    if not friendly:
        p.append(Problem(f"{label} is on the {'/'.join(sorted(edges))} edge, not a {side} edge "
                         f"({', '.join(sorted(friendly_edges(state, side)))})", "8.74", ["stations", i]))
        return "", ""
    rec = next((x for x in state.get("off_map") or [] if x.get("force") == force), None)
    if not entering:
        edge = sorted(friendly)[0]
        return f"leaves the map at the {edge} edge (8.74)", edge
    if rec is None:
        p.append(Problem(f"{force} is not off the map", "8.74", ["force"]))
        return "", ""
    back = min((off_map_return(state, force, e) for e in friendly), key=lambda x: x.turn)
    if int(state.get("turn", 0)) < back.turn:
        p.append(Problem(back.why, "8.74", ["stations", 0]))
        return "", ""
    return f"comes back onto the map at the {back.edge} edge (8.74)", back.edge


def rail_move_problems(state: FullGameState, hexmap, force: str, stations: list[str], *, train: str | None = None,
                       off_map: bool = False, entering: bool = False) -> list[Problem]:
    """What is wrong with a rail-move order (8.72, 8.73, 5.28, 5.29, 8.74): also a blocked line,
    which at resolution would only shorten the ride."""
    r = rail_move(state, hexmap, force, stations, train=train, off_map=off_map, entering=entering)
    out = list(r.problems)
    if not out and r.stopped:
        out.append(Problem(r.stopped, "8.73", ["stations"]))
    if not out and r.end != str(stations[-1]):
        out.append(Problem(f"the ride ends at {r.end}, not {stations[-1]}", "8.72", ["stations"]))
    return out


def apply_rail_move(state: FullGameState, m: RailMove) -> None:
    """Move the force and the train; pay the train's WEP; mark the force as moved by rail."""
    if m.problems:
        raise ValueError("cannot apply an illegal rail move: " + m.why)
    _relocate(state, m.force, cast(str, m.end))
    t = state["trains"][cast(str, m.train)]
    t["hex"] = m.train_route[-1]
    t["run"] = {"impulse": impulse_key(state), "route": list(m.train_route), "legs": [list(x) for x in m.legs]}
    if m.wep and state.get("wep") is not None:
        state["wep"][m.side] = state["wep"].get(m.side, 0) - m.wep
    imp = (state.get("current") or cast(Turn, {})).get("active_impulse")
    if imp is not None:
        imp.setdefault("rail", {})[m.force] = list(m.route)
    if m.entering:
        state["off_map"] = [x for x in state.get("off_map") or [] if x.get("force") != m.force]
    if m.off_map:
        edge = m.edge
        for lid in model.force_leaders(state, m.force):
            state["leaders"][lid]["hex"] = None
        state.setdefault("off_map", []).append({"force": m.force, "side": m.side, "edge": edge,
                                                "left_turn": int(state.get("turn", 0))})


def _relocate(state: FullGameState, force: str, label: str) -> None:
    if model.is_unled(force):
        old = model.force_hex(state, force)
        side = model.force_side(state, force)
        for u in state["units"].values():
            if u.get("leader") is None and u.get("hex") == old and u["side"] == side and u["steps"] > 0:
                u["hex"] = label
        return
    for lid in model.force_leaders(state, force):
        state["leaders"][lid]["hex"] = label


# --------------------------------------------------------------------------
# 8.72 the extra train


@dataclass
class NewTrain:
    side: str
    hex: str
    wep: int
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.72"
    why: str = ""


def wep_price(state: FullGameState, item: str, charts: Charts) -> int:
    """14.14 (missing): the WEP price of ``item`` (``train``, ``asp``), the scenario's ``prices``
    first, else the game's stand-in chart ``charts/prices.yaml`` (of ``charts``)."""
    own = (state.get("prices") or {}).get(item)
    return int(own) if own is not None else int(charts.chart("prices")[item])


def price_source(state: FullGameState, item: str) -> str:
    """Where :func:`wep_price` took the price from, for the event's text."""
    if (state.get("prices") or {}).get(item) is not None:
        return "the scenario's price; the price list of 14.14 is missing"
    return "stand-in price chart; the price list of 14.14 is missing"


def buy_train(state: FullGameState, hexmap, side: str, label: str, *, price: int) -> NewTrain:
    """8.72: one more train for ``price`` WEP (14.14 is missing: :func:`wep_price`), placed in a
    friendly major city (the reading: where trains start)."""
    r = NewTrain(side, str(label), price)
    extra = [t for t in trains_of(state, side).values() if t.get("extra")]
    if len(extra) >= EXTRA_TRAINS:
        r.problems.append(Problem(f"{side} has already added its one extra train", "8.72", ["train"]))
    if "major_city" not in hexmap.features(hexmap.parse(label)):
        r.problems.append(Problem(f"{label} is not a major city", "8.72", ["hex"]))
    if label in model.occupied_hexes(state, model.other_side(side)):
        r.problems.append(Problem(f"{label} is held by the enemy", "8.72", ["hex"]))
    wep = (state.get("wep") or {}).get(side)
    if wep is not None and wep < price:
        r.problems.append(Problem(f"{side} has {wep} WEP; the train costs {price}", "8.72", ["train"]))
    r.why = ("illegal: " + "; ".join(x.message for x in r.problems)) if r.problems else \
        f"{side} adds a train in {label} for {price} WEP ({price_source(state, 'train')})"
    return r


def apply_buy_train(state: FullGameState, n: NewTrain) -> str:
    if n.problems:
        raise ValueError("cannot add the train: " + n.why)
    trains = state.setdefault("trains", {})
    tid = f"{n.side[0]}-train-{len(trains) + 1}"
    trains[tid] = {"side": n.side, "hex": n.hex, "extra": True}
    if state.get("wep") is not None:
        state["wep"][n.side] = state["wep"].get(n.side, 0) - n.wep
    return tid


# --------------------------------------------------------------------------
# 8.74 off-map rail movement (optional)


def off_map_rail_enabled(state: FullGameState) -> bool:
    return bool((state.get("options") or {}).get("off_map_rail"))


@dataclass
class OffMapReturn:
    force: str
    edge: str
    turn: int
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.74"
    why: str = ""


def off_map_return(state: FullGameState, force: str, edge: str) -> OffMapReturn:
    """8.74: the first turn a force gone off the map by rail may re-enter at ``edge``: two turns
    after it left at the same edge, three at another friendly edge (in that turn's first friendly
    impulse).  The caller decides which edges are friendly (8.74's Memphis/Knoxville conditions)."""
    rec = next((x for x in state.get("off_map") or [] if x.get("force") == force), None)
    r = OffMapReturn(force, edge, 0)
    if not off_map_rail_enabled(state):
        r.problems.append(Problem("off-map rail movement is an optional rule not in play", "8.74", ["force"]))
    if rec is None:
        r.problems.append(Problem(f"{force} has not left the map by rail", "8.74", ["force"]))
    if r.problems:
        r.why = "illegal: " + "; ".join(x.message for x in r.problems)
        return r
    rec = cast(OffMap, rec)         # None was refused above
    wait = OFF_MAP_SAME_EDGE if rec["edge"] == edge else OFF_MAP_OTHER_EDGE
    r.turn = int(rec["left_turn"]) + wait
    r.why = (f"{force} left at the {rec['edge']} edge on turn {rec['left_turn']}: re-enters at the {edge} edge "
             f"in the first friendly impulse of turn {r.turn} ({wait} turns later)")
    return r
