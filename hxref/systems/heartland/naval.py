"""Gunboats and coastal batteries: rules 8.9-8.94, 10.8-10.83, 3.17, 4.33 and 5.25.

Pure functions over the state dict; each returns a dataclass that carries its
rule number, its ``problems`` (illegal: nothing happens) and a ``why``, and
each has an ``apply_...`` that changes the state and rolls no dice.

Entry points for the impulse (:mod:`.impulse`) and the reorganization:

* movement (8.91, 5.25): :func:`gunboat_move_problems`, :func:`gunboat_move`,
  :func:`apply_gunboat_move`; :func:`gunboat_reach` lists where a gunboat may go;
* control (8.91a, 10.82): :func:`control_range`, :func:`controlled_hexsides`
  (for 8.81's pontoons), :func:`contacts` (10.81's continuing contact);
* blockade (8.93, 8.94): :func:`blockaded_hexsides` -- give it to
  :func:`.terrain.step_cost`'s ``blockaded`` -- and :func:`closed_pontoons`;
* naval combat (10.81, 10.82a): :func:`naval_combat`, :func:`apply_naval_combat`,
  on the chart ``games/heartland/charts/ncrt.yaml`` (:class:`Ncrt`, a STAND-IN);
* batteries on land (10.82b): :func:`battery_capture`, :func:`apply_battery_capture`;
* shore bombardment (10.83, 10.42a): :func:`bombardment_drm` returns a
  :class:`Bombardment` whose ``drms`` go into
  ``Circumstances.extra_drms[side]`` of :mod:`.combat_fire`;
* naval assault (8.92, 3.17, 4.33): :func:`embark`, :func:`advance_display`,
  :func:`naval_assault` with their ``apply_...``;
* river transport (4.33, 8.9, 10.82): :func:`river_transport`, :func:`apply_river_transport`.

State keys (``state["naval"]``; every key optional, absent = none)::

    naval:
      gunboats:
        gb1:
          side: union
          name: USS Carondelet
          naval: [2, 1]               # naval combat strength, full and reduced side (2.0, 10.81)
          support: [3, 1]             # shore bombardment support value, full and reduced (10.42a, 10.83)
          steps: 2                    # 2 full, 1 reduced, 0 sunk (2.0: two sides)
          hexside: "0602/0703"        # the hexside its arrow points to (8.91a); null on the display
          box: null                   # on the Union Naval Assault Display (3.17):
                                      #   any_impulse_t1 | reorg_t1 | reorg_t2 | available
          cargo: {units: [u1], leaders: [sherman], wagon: w1}   # embarked (8.92); absent or empty = none
      batteries:
        bt1:
          side: confederate
          name: Fort Henry
          naval: [3, 2]               # naval strength, full and reduced (10.82: naval combat only)
          steps: 2
          hex: "0705"                 # where it stands
          hexside: "0604/0705"        # the 1 hexside its arrow points to and controls (10.82)
      headwaters: ["0601/0701"]       # per major river, the hexside at its headwater symbol (8.94)
      notice: {turn: 3}               # the last public "a naval assault may occur" (8.92a(5))
      current:                        # this impulse's records (cleared by :func:`new_impulse`)
        missions: {gb1: naval_combat} # 8.9: one of assault | blockade | bombardment | naval_combat
        moved: [gb1]                  # gunboats that moved this impulse
        stopped: [gb1]                # stopped in an enemy control range (8.91a, 10.82)
        must_attack: {gb1: [bt1]}     # the naval combat it owes this Combat Sequence (8.91a, 10.82)
        landed: [u1, sherman, w1]     # landed this impulse: no movement (8.92b)

Keys read from elsewhere: ``landings`` (Union Naval Landings, see
:func:`.reorganization.landing_hexes`), ``entrenchments`` (``{hex: {side,
level}}`` or ``{hex: level}``: a battery's entrenchment, 10.82a, and the
8.92b ban), ``pontoons`` (``{id: {side, hexside, laid}}`` or a list of
hexsides: laid pontoons, 8.81/8.93), ``weather`` (5.25).  Embarked units,
leaders and wagons have ``hex: null`` and ``embarked_on: <gunboat>``.

Readings chosen where the rules are ambiguous or silent (pinned by
``tests/heartland/test_naval.py``):

* 8.91a control range (the p.16 figure is missing): "the 4 hexsides
  branching from its hexside" are the four hexsides that share an end point
  with it (two at each end).  A gunboat also holds its own hexside: an enemy
  gunboat cannot enter it, and :func:`controlled_hexsides` includes it.
* 8.91 movement: one step is from a hexside to a branching one; both must be
  major-river hexsides.  A ford or shoal (hexside features ``ford``,
  ``shoal``) on a major-river hexside cannot be entered, except in Thaw
  (5.25: passed "without penalty").  A bridge does not stop a gunboat.
  An enemy-controlled hexside (gunboat range, battery arrow) may be entered
  only as the last step (8.91a: stop; 10.82: force its way in); a gunboat
  that starts in one may leave it (10.81, 10.82).  A gunboat moves once per
  impulse and not after landing or another mission.
* 10.81 participants: the caller names the attacking and defending units.
  Every one must be in contact with a unit of the other group, or on the
  same hexside as one of its own group (H-10: "stacked").  Contact: one
  holds a hexside the other controls (gunboat range and own hexside,
  battery arrow).  The attackers are the phasing side; in Confederate
  impulses a battery is never a defender (10.82a).
* 10.81 step losses: the owner's ``allocation`` order (ids, or
  ``entrenchment:<hex>``); by default an entrenchment level first (10.82a),
  then the unit with the highest naval strength now, one step at a time.
  Losses beyond every step are lost.  A sunk gunboat's cargo is lost with it.
* 10.82b capture: only a battery with no Confederate combat units in its hex;
  the adjacent Union force rolls the attack check (1 AP, 1d6 <= the OC's BR;
  unled: below the inverted ML, 3.52b); on success its OC's force (or the
  unled units) advances and the battery is removed; on failure the AP is
  spent and nothing else happens (the battery has no CF or ZOC, 10.82).
* 10.83 adjacency (ambiguity 24): a gunboat is adjacent to every hex that
  touches its hexside -- the two banks and the two hexes at its ends.  For an
  attack it must touch both the firing and the fired-on hex; for a defence
  the attacked hex.  Its support value (side showing) is a DRM; it gives no
  other mission that impulse.
* 8.93/8.94 blockade: ranges count hexsides along the river network from the
  gunboat's (1 = a branching hexside).  Upstream is toward the river's
  ``headwaters`` entry; a river with none gets 6 both ways (the shorter
  range).  Every gunboat on the map blockades unless it has another mission
  this impulse.  A ferry hexside is a major-river hexside with a ferry
  feature or a town or major city on both banks; closing it closes only the
  ferry (a printed bridge there stays open: :func:`.terrain.step_cost`
  checks the blockade only for the fare).
* 8.92a ports: a hex with a major city and a major-river hexside, or a Union
  Naval Landing.  The gunboat loads on a hexside of that hex and must be full
  strength; the combat unit must be unled or in the box of an embarking
  leader, and an embarking leader's box may hold no other unit.
* 8.92a/4.33 display: each Naval Sequence moves Any Impulse T1 -> Reorg T1 and
  Reorg T1 -> Reorg T2; a group in Reorg T2 (arrived now or waiting) moves to
  Available only when the Union announces (the public notice, which names no
  place).  The box name "after turn 2" fits this: the announcement may come in
  the Naval Sequence that reaches Reorg T2.
* 8.92b target: a village, town or major city; the landing hexside must be a
  usable major-river hexside of it (no ford or shoal outside Thaw, not
  enemy-controlled); the hex may not be in enemy ZOC, hold an enemy
  entrenchment, or have a hexside in an enemy control range.
* River transport (4.33; the text gives no procedure): the 8.92 load, from a
  hex the gunboat touches (on one of its hexsides) to another hex along
  usable river hexsides (no enemy-controlled hexside on the way or at the end,
  10.82), Union only, in the Naval Sequence.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Mapping, Sequence

from ...geometry.hex import Hex, HexSide
from ..base import Problem
from . import model
from .combat_fire import Drm
from .forces import APCharge

MAJOR_RIVER = "major_river"
GUNBOAT_OBSTACLES = ("ford", "shoal", "shoals")    # 5.25: passable by gunboats only in Thaw
LANDING_TARGETS = ("village", "town", "major_city")   # 8.92
BANK_TOWNS = ("town", "major_city")                  # 8.24a ferry banks
MISSIONS = ("assault", "blockade", "bombardment", "naval_combat")   # 8.9
DOWNSTREAM, UPSTREAM = 10, 6                          # 8.93
BOXES = ("any_impulse_t1", "reorg_t1", "reorg_t2", "available")     # 3.17, 8.92a
BOX_NAMES = {"any_impulse_t1": "Any Impulse Turn 1", "reorg_t1": "Reorganization Segment Turn 1",
             "reorg_t2": "Reorganization Segment Turn 2",
             "available": "Available for Assault Impulse After Turn 2"}
BATTERY_DRM, ATTACK_BATTERY_DRM = +1, -1              # 10.81a
NOTICE = "The Union announces that a naval assault may occur."   # 8.92a(5), digest D-5


# --------------------------------------------------------------------------
# the chart


@dataclass(frozen=True)
class NcrtCell:
    attacker: int
    defender: int

    @property
    def text(self) -> str:
        return f"{self.attacker}/{self.defender}"


@dataclass(frozen=True)
class Ncrt:
    """The NCRT as data: ``results[row]`` is a tuple of cells by differential column."""

    columns: tuple[int, ...]
    rows: tuple[int, ...]
    results: dict
    stand_in: bool
    note: str

    @classmethod
    def load(cls, path: str | None = None) -> "Ncrt":
        return _load_ncrt(path)

    @classmethod
    def from_data(cls, data: dict) -> "Ncrt":
        columns = tuple(int(c) for c in data["columns"])
        rows = tuple(int(r) for r in data["rows"])
        results = {}
        for r in rows:
            raw = data["results"][r]
            if len(raw) != len(columns):
                raise ValueError(f"NCRT row {r} has {len(raw)} cells for {len(columns)} columns")
            cells = []
            for c in raw:
                a, d = str(c).split("/")
                cells.append(NcrtCell(int(a), int(d)))
            results[r] = tuple(cells)
        if list(columns) != sorted(columns) or list(rows) != sorted(rows):
            raise ValueError("NCRT columns and rows must be in rising order")
        return cls(columns, rows, results, bool(data.get("stand_in", False)), str(data.get("note", "")))

    def column_for(self, differential) -> int:
        """10.81: fractions round up to the higher column; beyond either end, the end column."""
        c = math.ceil(Fraction(differential))
        return min(max(c, self.columns[0]), self.columns[-1])

    def row_for(self, modified: int) -> int:
        return min(max(modified, self.rows[0]), self.rows[-1])

    def cell(self, column: int, row: int) -> NcrtCell:
        return self.results[row][self.columns.index(column)]


@cache
def _load_ncrt(path: str | None) -> Ncrt:
    from ...paths import games_dir
    from ...yamlio import load_data_fast

    return Ncrt.from_data(load_data_fast(path or games_dir() / "heartland" / "charts" / "ncrt.yaml"))


# --------------------------------------------------------------------------
# state access


def naval(state: dict) -> dict:
    """``state["naval"]``, created with its parts when missing."""
    nv = state.setdefault("naval", {})
    nv.setdefault("gunboats", {})
    nv.setdefault("batteries", {})
    return nv


def _nv(state: dict) -> dict:
    return state.get("naval") or {}


def gunboats(state: dict, side: str | None = None, *, on_map: bool = True) -> dict[str, dict]:
    """Afloat gunboats (``steps`` > 0) of ``side``; ``on_map``: only those on a hexside."""
    return {g: gb for g, gb in (_nv(state).get("gunboats") or {}).items()
            if gb.get("steps", 2) > 0 and (side is None or gb["side"] == side)
            and (not on_map or gb.get("hexside"))}


def batteries(state: dict, side: str | None = None) -> dict[str, dict]:
    return {b: bt for b, bt in (_nv(state).get("batteries") or {}).items()
            if bt.get("steps", 2) > 0 and (side is None or bt["side"] == side)}


def _unit(state: dict, uid: str) -> dict:
    nv = _nv(state)
    if uid in (nv.get("gunboats") or {}):
        return nv["gunboats"][uid]
    return nv["batteries"][uid]


def is_battery(state: dict, uid: str) -> bool:
    return uid in (_nv(state).get("batteries") or {})


def strength(unit: dict) -> int:
    """Naval strength of the side showing (10.81: lower left)."""
    if unit.get("steps", 2) <= 0:
        return 0
    vals = unit["naval"]
    return vals[0] if unit.get("steps", 2) >= 2 else vals[-1]


def support_value(gb: dict) -> int:
    """Shore bombardment support of the side showing (10.83: lower right)."""
    if gb.get("steps", 2) <= 0:
        return 0
    vals = gb.get("support") or [0]
    return vals[0] if gb.get("steps", 2) >= 2 else vals[-1]


def _current(state: dict) -> dict:
    return _nv(state).get("current") or {}


def mission_of(state: dict, gid: str) -> str | None:
    return (_current(state).get("missions") or {}).get(gid)


def new_impulse(state: dict) -> None:
    """Clear this impulse's records (missions, moves, stops, landings)."""
    naval(state)["current"] = {}


def _weather(state: dict, weather: str | None) -> str:
    if weather:
        return weather
    from .supply import weather_of
    return weather_of(state)


# --------------------------------------------------------------------------
# hexside geometry


def _side(hexmap, raw) -> HexSide:
    return raw if isinstance(raw, HexSide) else hexmap.grid.parse_hexside(str(raw))


def _sl(hexmap, s: HexSide) -> str:
    return hexmap.grid.side_label(s)


def branching(s: HexSide) -> list[HexSide]:
    """The four hexsides sharing an end point with ``s`` (8.91a's "4 branching hexsides")."""
    a, b = s.hexes
    common = set(a.neighbours()) & set(b.neighbours())
    out = []
    for c in sorted(common):
        out += [HexSide(a, c), HexSide(b, c)]
    return out


def touching_hexes(s: HexSide) -> list[Hex]:
    """The banks of ``s`` and the two hexes at its ends (10.83 adjacency, a reading)."""
    a, b = s.hexes
    return [a, b] + sorted(set(a.neighbours()) & set(b.neighbours()))


def is_major_river(hexmap, s: HexSide) -> bool:
    return MAJOR_RIVER in hexmap.side_features(s, effective=False)


def obstacle(hexmap, s: HexSide, weather: str) -> str | None:
    """5.25/8.91: the ford or shoal that bars a gunboat from ``s`` (None in Thaw or when there is none)."""
    if weather == "Thaw":
        return None
    for f in hexmap.side_features(s, effective=False):
        if f in GUNBOAT_OBSTACLES:
            return f
    return None


def river_steps(hexmap, s: HexSide) -> list[HexSide]:
    """Major-river hexsides branching from ``s``."""
    return [t for t in branching(s) if is_major_river(hexmap, t)]


def control_range(hexmap, hexside) -> list[str]:
    """8.91a: the 4 hexsides branching from a gunboat's hexside (labels; all four, river or not)."""
    s = _side(hexmap, hexside)
    out = []
    for t in branching(s):
        try:
            out.append(_sl(hexmap, t))
        except Exception:          # off the map
            continue
    return out


def controls(state: dict, hexmap, uid: str) -> set[HexSide]:
    """Hexsides a gunboat (its own and its range) or a battery (its arrow) controls."""
    u = _unit(state, uid)
    if not u.get("hexside") or u.get("steps", 2) <= 0:
        return set()
    s = _side(hexmap, u["hexside"])
    if is_battery(state, uid):
        return {s}
    return {s, *branching(s)}


def controlled_hexsides(state: dict, hexmap, side: str) -> set[str]:
    """Hexsides controlled by ``side``'s gunboats and batteries: closed to enemy pontoons (8.81),
    a stop for enemy gunboats (8.91a, 10.82)."""
    out: set[str] = set()
    for uid in [*gunboats(state, side), *batteries(state, side)]:
        for s in controls(state, hexmap, uid):
            try:
                out.add(_sl(hexmap, s))
            except Exception:
                continue
    return out


def _enemy_control(state: dict, hexmap, side: str) -> dict[HexSide, list[str]]:
    """Hexside -> enemy units controlling it."""
    out: dict[HexSide, list[str]] = {}
    enemy = model.other_side(side)
    for uid in [*gunboats(state, enemy), *batteries(state, enemy)]:
        for s in controls(state, hexmap, uid):
            out.setdefault(s, []).append(uid)
    return out


def _position(state: dict, hexmap, uid: str) -> HexSide | None:
    u = _unit(state, uid)
    return _side(hexmap, u["hexside"]) if u.get("hexside") else None


def in_contact(state: dict, hexmap, x: str, y: str) -> bool:
    """10.81: one holds a hexside the other controls."""
    px, py = _position(state, hexmap, x), _position(state, hexmap, y)
    if px is None or py is None:
        return False
    return px in controls(state, hexmap, y) or py in controls(state, hexmap, x)


def contacts(state: dict, hexmap, side: str) -> list[tuple[str, str]]:
    """10.81 continuing contact: (``side``'s unit, enemy unit) pairs in contact.  In ``side``'s
    impulse each pair must fight with ``side`` attacking, or the gunboat must move away; a battery
    cannot move, so it attacks."""
    enemy = model.other_side(side)
    out = []
    for x in sorted([*gunboats(state, side), *batteries(state, side)]):
        for y in sorted([*gunboats(state, enemy), *batteries(state, enemy)]):
            if in_contact(state, hexmap, x, y):
                out.append((x, y))
    return out


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


def _step_refusal(state, hexmap, side, s: HexSide, weather: str) -> str | None:
    """Why a gunboat cannot enter ``s`` at all (None: it can)."""
    where = _sl(hexmap, s)
    if not is_major_river(hexmap, s):
        return f"{where} is not a major-river hexside (8.91)"
    ob = obstacle(hexmap, s, weather)
    if ob:
        return f"the major-river {ob} at {where} is impassable to gunboats except in Thaw ({weather}; 8.91, 5.25)"
    for g, gb in gunboats(state, model.other_side(side)).items():
        if _side(hexmap, gb["hexside"]) == s:
            return f"the enemy gunboat {g} is on {where} (8.91a)"
    return None


def gunboat_reach(state: dict, hexmap, gid: str, *, weather: str | None = None) -> dict[str, list[str]]:
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


def gunboat_move_problems(state: dict, hexmap, gid: str, route, *, weather: str | None = None) -> list[Problem]:
    """Why ``gid`` may not move along ``route`` (a destination hexside, or the list of hexsides
    entered, each branching from the one before); empty when it may."""
    return gunboat_move(state, hexmap, gid, route, weather=weather).problems


def gunboat_move(state: dict, hexmap, gid: str, route, *, weather: str | None = None) -> GunboatMove:
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
    if p:
        r.why = "no move: " + "; ".join(x.message for x in p)
        return r
    start = _side(hexmap, gb["hexside"])
    try:
        if isinstance(route, str):
            dest = _sl(hexmap, _side(hexmap, route))
            reach = gunboat_reach(state, hexmap, gid, weather=w)
            if dest not in reach:
                refusal = _step_refusal(state, hexmap, side, _side(hexmap, dest), w)
                p.append(Problem(f"{gid} cannot reach {dest} from {gb['hexside']}"
                                 + (f": {refusal}" if refusal else " along usable major-river hexsides "
                                    "without passing an enemy control range (8.91, 8.91a)"), "8.91", ["route"]))
                r.why = "no move: " + p[0].message
                return r
            steps = [_side(hexmap, x) for x in reach[dest]]
        else:
            steps = [_side(hexmap, x) for x in route]
    except Exception as e:          # InvalidInput for a bad label
        p.append(Problem(str(e), "8.91", ["route"]))
        r.why = "no move: " + str(e)
        return r
    if not steps:
        p.append(Problem("the route enters no hexside", "8.91", ["route"]))
    control = _enemy_control(state, hexmap, side)
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
    if p:
        r.why = "no move: " + "; ".join(x.message for x in p)
        return r
    r.route = [_sl(hexmap, s) for s in steps]
    r.end = r.route[-1]
    last = steps[-1]
    if last in control:
        r.stops = True
        r.must_attack = sorted(control[last])
    r.why = f"{gid} moves {gb['hexside']} -> {' -> '.join(r.route)} (unlimited MP, 8.91)"
    if w == "Thaw" and any(obstacle(hexmap, s, "Clear") for s in steps):
        r.why += "; passes a major-river ford or shoal in Thaw (5.25)"
    if r.stops:
        r.why += (f"; stops in the control range of {', '.join(r.must_attack)} and must attack it "
                  "this Combat Sequence, with no attack check (8.91a, 10.82, 10.81)")
    return r


def apply_gunboat_move(state: dict, r: GunboatMove) -> None:
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


def blockade_range(state: dict, hexmap, gid: str) -> dict[str, str]:
    """8.93: major-river hexsides within 10 downstream and 6 upstream of ``gid`` -> "upstream",
    "downstream" (or "either" when the river has no headwater entry: 6 both ways)."""
    gb = naval(state)["gunboats"][gid]
    start = _side(hexmap, gb["hexside"])
    near = _river_distances(hexmap, start, DOWNSTREAM)
    heads = [_side(hexmap, h) for h in (_nv(state).get("headwaters") or [])]
    head = next((h for h in heads if h in _river_distances(hexmap, start)), None)
    out: dict[str, str] = {}
    if head is None:
        for s, d in near.items():
            if 0 < d <= UPSTREAM:
                out[_sl(hexmap, s)] = "either"
        return out
    from_head = _river_distances(hexmap, head)
    mine = from_head[start]
    for s, d in near.items():
        if d == 0:
            continue
        if from_head.get(s, mine) < mine:
            if d <= UPSTREAM:
                out[_sl(hexmap, s)] = "upstream"
        elif d <= DOWNSTREAM:
            out[_sl(hexmap, s)] = "downstream"
    return out


def _blockading(state: dict, side: str) -> list[str]:
    return sorted(g for g in gunboats(state, side) if mission_of(state, g) in (None, "blockade"))


def is_ferry_hexside(hexmap, s: HexSide) -> bool:
    """8.24a: a major-river hexside with a ferry feature, or a town or major city on both banks."""
    from .terrain import terrain_rules
    feats = hexmap.side_features(s, effective=False)
    if MAJOR_RIVER not in feats:
        return False
    if any(f in terrain_rules(hexmap).ferries for f in feats):
        return True
    return all(set(hexmap.features(h)) & set(BANK_TOWNS) for h in s.hexes)


def blockaded_hexsides(state: dict, hexmap) -> set[str]:
    """8.93: Confederate ferry hexsides closed by Union gunboats (for :func:`.terrain.step_cost`'s
    ``blockaded``)."""
    out: set[str] = set()
    for g in _blockading(state, "union"):
        for lab in blockade_range(state, hexmap, g):
            if is_ferry_hexside(hexmap, _side(hexmap, lab)):
                out.add(lab)
        here = _side(hexmap, gunboats(state)[g]["hexside"])
        if is_ferry_hexside(hexmap, here):
            out.add(_sl(hexmap, here))
    return out


def _pontoon_sides(state: dict, hexmap, side: str) -> set[str]:
    raw = state.get("pontoons") or {}
    out = set()
    if isinstance(raw, Mapping):
        for p in raw.values():
            if p.get("side", "union") == side and p.get("laid", True) and p.get("hexside"):
                out.add(_sl(hexmap, _side(hexmap, p["hexside"])))
    else:
        out = {_sl(hexmap, _side(hexmap, x)) for x in raw} if side == "union" else set()
    return out


def closed_pontoons(state: dict, hexmap) -> set[str]:
    """8.93: laid Union pontoon hexsides closed by Confederate gunboats' blockade."""
    pontoons = _pontoon_sides(state, hexmap, "union")
    out: set[str] = set()
    for g in _blockading(state, "confederate"):
        rng = set(blockade_range(state, hexmap, g)) | {_sl(hexmap, _side(hexmap, gunboats(state)[g]["hexside"]))}
        out |= pontoons & rng
    return out


# --------------------------------------------------------------------------
# naval combat (10.81, 10.82a)


@dataclass(frozen=True)
class NavalLoss:
    """One step lost: by a gunboat or battery (``unit``), or an entrenchment level (``entrenchment``)."""

    unit: str | None = None
    entrenchment: str | None = None
    side: str = ""
    rule: str = "10.81"

    @property
    def text(self) -> str:
        return f"entrenchment in {self.entrenchment} -1 level (10.82a)" if self.entrenchment else f"{self.unit} -1 step"


@dataclass
class NavalCombat:
    """One naval combat on the NCRT (10.81): totals, column, DRMs, the attacker's die, the cell."""

    attackers: list[str]
    defenders: list[str]
    attacker_side: str = ""
    totals: tuple[int, int] = (0, 0)
    differential: int = 0
    column: int = 0
    drms: list[Drm] = field(default_factory=list)
    drm: int = 0
    die: int | None = None
    modified: int | None = None
    row: int | None = None
    cell: NcrtCell | None = None
    losses: list[NavalLoss] = field(default_factory=list)
    unabsorbed: dict[str, int] = field(default_factory=dict)
    stand_in: bool = True
    problems: list[Problem] = field(default_factory=list)
    rule: str = "10.81"
    why: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems


def _entrenchment(state: dict, label: str, side: str) -> int:
    e = (state.get("entrenchments") or {}).get(label)
    if e is None:
        return 0
    if isinstance(e, Mapping):
        if e.get("side", side) != side:
            return 0
        return int(e.get("level", 0))
    return int(e)


def _allocate(state: dict, ids: Sequence[str], n: int, side: str, order: Sequence[str] | None
              ) -> tuple[list[NavalLoss], int]:
    """10.81/10.82a: ``n`` step losses among ``ids``; returns the losses and the ones left over."""
    steps = {u: _unit(state, u).get("steps", 2) for u in ids}
    ent = {}
    for u in ids:
        if is_battery(state, u):
            h = _unit(state, u)["hex"]
            ent[h] = _entrenchment(state, h, side)
    out: list[NavalLoss] = []
    wanted = list(order or [])
    for _ in range(n):
        pick = None
        for w in wanted:
            if w.startswith("entrenchment:") and ent.get(w.split(":", 1)[1], 0) > 0:
                pick = w
                break
            if w in steps and steps[w] > 0:
                pick = w
                break
        if pick is None:
            ents = [h for h, lv in sorted(ent.items()) if lv > 0]
            if ents:
                pick = "entrenchment:" + ents[0]
            else:
                alive = [u for u in ids if steps[u] > 0]
                if not alive:
                    return out, n - len(out)

                def now(u):
                    return strength({**_unit(state, u), "steps": steps[u]})
                pick = max(alive, key=lambda u: (now(u), steps[u], -ids.index(u)))
        if pick.startswith("entrenchment:"):
            h = pick.split(":", 1)[1]
            ent[h] -= 1
            out.append(NavalLoss(entrenchment=h, side=side, rule="10.82a"))
        else:
            steps[pick] -= 1
            out.append(NavalLoss(unit=pick, side=side))
    return out, 0


def naval_combat(state: dict, hexmap, attackers: Sequence[str], defenders: Sequence[str], dice=None, *,
                 phasing: str | None = None, allocation: Mapping[str, Sequence[str]] | None = None,
                 chart: Ncrt | None = None) -> NavalCombat:
    """10.81: ``attackers`` (the phasing side's gunboats and batteries) attack ``defenders``.

    Totals of naval strength, the differential column (fractions up), DRMs of 10.81a, one 1d6 by
    the attacker (when ``dice`` is given), the cell's step losses to both sides, allocated by
    ``allocation[side]`` (ids or ``entrenchment:<hex>``, see the module text)."""
    chart = chart or Ncrt.load()
    r = NavalCombat(list(attackers), list(defenders), stand_in=chart.stand_in)
    p = r.problems
    nv = _nv(state)
    known = {**(nv.get("gunboats") or {}), **(nv.get("batteries") or {})}
    for role, ids in (("attackers", attackers), ("defenders", defenders)):
        if not ids:
            p.append(Problem(f"no {role}", "10.81", [role]))
        for i, u in enumerate(ids):
            if u not in known:
                p.append(Problem(f"no gunboat or battery {u!r}", "10.81", [role, i]))
            elif known[u].get("steps", 2) <= 0:
                p.append(Problem(f"{u} is already eliminated", "10.81", [role, i]))
            elif not known[u].get("hexside"):
                p.append(Problem(f"{u} is not on the map", "10.81", [role, i]))
    if p:
        r.why = "no naval combat: " + "; ".join(x.message for x in p)
        return r
    a_sides = {known[u]["side"] for u in attackers}
    d_sides = {known[u]["side"] for u in defenders}
    if len(a_sides) != 1 or len(d_sides) != 1 or a_sides == d_sides:
        p.append(Problem("the attackers must all be of one side and the defenders of the other", "10.81",
                         ["attackers"]))
        r.why = "no naval combat: " + p[0].message
        return r
    side = a_sides.pop()
    r.attacker_side = side
    if phasing and side != phasing:
        p.append(Problem(f"in a {phasing} impulse the {phasing} side attacks (10.81)"
                         + ("; a battery is always the attacker in Confederate impulses (10.82a)"
                            if any(is_battery(state, u) for u in defenders) else ""), "10.82a"
                         if any(is_battery(state, u) for u in defenders) else "10.81", ["attackers"]))
    for role, ids, other in (("attackers", attackers, defenders), ("defenders", defenders, attackers)):
        for i, u in enumerate(ids):
            touching = any(in_contact(state, hexmap, u, o) for o in other)
            stacked = any(_position(state, hexmap, u) == _position(state, hexmap, f) and f != u for f in ids)
            if not touching and not stacked:
                p.append(Problem(f"{u} is in contact with none of the {('defenders' if role == 'attackers' else 'attackers')}"
                                 " and on no hexside with one of its own (10.81, 8.91a)", "10.81", [role, i]))
    for i, u in enumerate(attackers):
        m = mission_of(state, u)
        if m and m != "naval_combat":
            p.append(Problem(f"{u} has flown its {m} mission this impulse (one mission an impulse)", "8.9",
                             ["attackers", i]))
    if p:
        r.why = "no naval combat: " + "; ".join(x.message for x in p)
        return r
    ta = sum(strength(known[u]) for u in attackers)
    td = sum(strength(known[u]) for u in defenders)
    r.totals = (ta, td)
    r.differential = ta - td
    r.column = chart.column_for(r.differential)
    a_battery = any(is_battery(state, u) for u in attackers)
    d_battery = any(is_battery(state, u) for u in defenders)
    a_boats = any(not is_battery(state, u) for u in attackers)
    d_boats = any(not is_battery(state, u) for u in defenders)
    if a_boats and d_battery:
        r.drms.append(Drm(ATTACK_BATTERY_DRM, "gunboats attack a force that includes a coastal battery", "10.81a"))
    if a_battery and d_boats:
        r.drms.append(Drm(BATTERY_DRM, "a force that includes a coastal battery attacks gunboats", "10.81a"))
    r.drm = sum(d.amount for d in r.drms)
    col_note = f" (reads {r.column:+d})" if r.column != r.differential else ""
    drms = ", ".join(d.text() for d in r.drms) or "none"
    r.why = (f"{'+'.join(attackers)} ({ta}) attack {'+'.join(defenders)} ({td}): differential "
             f"{ta} - {td} = {r.differential:+d}{col_note} column; DRM {r.drm:+d} ({drms})")
    if dice is None:
        return r
    r.die = dice.d6(f"NCRT {'+'.join(attackers)} on {'+'.join(defenders)}", by=side)
    r.modified = r.die + r.drm
    r.row = chart.row_for(r.modified)
    r.cell = chart.cell(r.column, r.row)
    alloc = allocation or {}
    la, left_a = _allocate(state, list(attackers), r.cell.attacker, side, alloc.get(side))
    ld, left_d = _allocate(state, list(defenders), r.cell.defender, model.other_side(side),
                           alloc.get(model.other_side(side)))
    r.losses = la + ld
    r.unabsorbed = {k: v for k, v in ((side, left_a), (model.other_side(side), left_d)) if v}
    r.why += (f"; the attacker rolls {r.die} -> {r.modified}" + (f" (row {r.row})" if r.row != r.modified else "")
              + f": {r.cell.text} (attacker/defender steps)"
              + (f"; losses: {', '.join(x.text for x in r.losses)}" if r.losses else "")
              + (f"; not absorbed: {r.unabsorbed}" if r.unabsorbed else "")
              + (" [stand-in NCRT]" if r.stand_in else ""))
    return r


def apply_naval_combat(state: dict, r: NavalCombat) -> None:
    """Apply the step losses (sunk gunboats lose their cargo; eliminated batteries are gone) and
    record the mission."""
    if r.problems or r.cell is None:
        raise ValueError("cannot apply a naval combat that is illegal or not rolled: " + r.why)
    nv = naval(state)
    for loss in r.losses:
        if loss.entrenchment:
            e = state["entrenchments"][loss.entrenchment]
            if isinstance(e, Mapping):
                e["level"] = max(0, int(e.get("level", 0)) - 1)
            else:
                state["entrenchments"][loss.entrenchment] = max(0, int(e) - 1)
        else:
            u = _unit(state, loss.unit)
            u["steps"] = max(0, u.get("steps", 2) - 1)
    for uid in [*r.attackers, *r.defenders]:
        u = _unit(state, uid)
        if u.get("steps", 2) <= 0 and not is_battery(state, uid):
            _lose_cargo(state, u)
            u["hexside"] = None
    cur = nv.setdefault("current", {})
    for uid in r.attackers:
        if not is_battery(state, uid):
            cur.setdefault("missions", {})[uid] = "naval_combat"
        (cur.get("must_attack") or {}).pop(uid, None)


def _lose_cargo(state: dict, gb: dict) -> None:
    cargo = gb.pop("cargo", None) or {}
    for u in cargo.get("units") or []:
        state["units"][u]["steps"] = 0
        state["units"][u].pop("embarked_on", None)
    for lid in cargo.get("leaders") or []:
        state["leaders"][lid]["killed"] = True
        state["leaders"][lid].pop("embarked_on", None)
    if cargo.get("wagon"):
        state["logistics"].pop(cargo["wagon"], None)


# --------------------------------------------------------------------------
# batteries on land (10.82b)


def battery_hexes(state: dict) -> set[str]:
    """Hexes holding a battery: Union combat units may not enter them by movement (10.82b)."""
    return {bt["hex"] for bt in batteries(state).values()}


@dataclass
class BatteryCapture:
    force: str
    battery: str
    target: str = ""
    oc: str | None = None
    rating: int = 0
    roll: int | None = None
    passed: bool = False
    charges: list[APCharge] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rule: str = "10.82b"
    why: str = ""


def battery_capture(state: dict, hexmap, force_id: str, battery: str, dice) -> BatteryCapture:
    """10.82b: an adjacent Union force passes an attack check, advances into the hex and removes the battery."""
    from . import forces as fc
    from .attack import neighbours
    r = BatteryCapture(force_id, battery)
    p = r.problems
    bts = (_nv(state).get("batteries") or {})
    if battery not in bts or bts[battery].get("steps", 2) <= 0:
        p.append(Problem(f"no battery {battery!r} on the map", "10.82b", ["battery"]))
        r.why = "no capture: " + p[0].message
        return r
    bt = bts[battery]
    r.target = bt["hex"]
    side = model.force_side(state, force_id)
    here = model.force_hex(state, force_id)
    if side == bt["side"]:
        p.append(Problem(f"{battery} is friendly", "10.82b", ["battery"]))
    if r.target not in neighbours(hexmap, here):
        p.append(Problem(f"{force_id} in {here} is not adjacent to the battery in {r.target}", "10.82b", ["force"]))
    if not model.units_of(state, force_id):
        p.append(Problem(f"{force_id} has no combat units", "10.82b", ["force"]))
    guards = [f for f in model.forces_in_hex(state, r.target, bt["side"]) if model.units_of(state, f, bt["side"])]
    if guards:
        p.append(Problem(f"enemy combat units stand with the battery in {r.target}: attack the hex (8.41)",
                         "10.82b", ["battery"]))
    r.oc = fc.force_oc(state, force_id)
    if r.oc is not None:
        ld = state["leaders"][r.oc]
        if not ld.get("active"):
            p.append(Problem(f"{r.oc} is inactive: only active leaders declare attacks", "8.1", ["force"]))
        r.rating = model.leader_ratings(ld)["br"]
        r.charges = [APCharge(r.oc, 1, "8.41", f"{r.oc} declares an attack on the battery in {r.target}")]
        p += fc.ap_problems(state, r.charges)
    else:
        r.rating = fc.inverted_ml(fc.unled_ml(state, force_id))
    if p:
        r.why = "no capture: " + "; ".join(x.message for x in p)
        return r
    r.roll = dice.d6(f"attack check {force_id} -> battery {battery}", by=side)
    r.passed = r.roll < r.rating if r.oc is None else r.roll <= r.rating
    test = (f"unled: rolled {r.roll}, needs below {r.rating} (3.52b)" if r.oc is None
            else f"{r.oc} BR {r.rating}: rolled {r.roll}")
    r.why = (f"{test}: " + (f"passes; advances into {r.target} and removes {battery} (10.82b)" if r.passed
                            else "fails; the battery stays (no retreat or loss: it has no CF or ZOC, 10.82)"))
    return r


def apply_battery_capture(state: dict, r: BatteryCapture) -> None:
    from . import forces as fc
    if r.problems or r.roll is None:
        raise ValueError("cannot apply an illegal battery capture: " + r.why)
    fc.apply_charges(state, r.charges)
    if not r.passed:
        return
    fc.apply_move(state, r.force, r.target)
    naval(state)["batteries"][r.battery]["steps"] = 0


# --------------------------------------------------------------------------
# shore bombardment support (10.83, 10.42a)


@dataclass
class Bombardment:
    """10.83: the gunboats supporting one side of a land fire and the DRM they add (no ASP)."""

    side: str
    role: str
    gunboats: list[str] = field(default_factory=list)
    amount: int = 0
    refused: dict[str, str] = field(default_factory=dict)
    rule: str = "10.83"
    why: str = ""

    @property
    def drms(self) -> list[Drm]:
        """For ``Circumstances.extra_drms[side]``."""
        return [Drm(self.amount, f"shore bombardment ({', '.join(self.gunboats)})", "10.83")] if self.amount else []


def adjacent_to(hexmap, hexside, label: str) -> bool:
    """10.83 (a reading): the hex touches the gunboat's hexside (a bank or a hex at one of its ends)."""
    return hexmap.parse(label) in touching_hexes(_side(hexmap, hexside))


def bombardment_drm(state: dict, hexmap, side: str, attacker_hex: str, defender_hex: str, role: str, *,
                    gunboats_used: Sequence[str] | None = None) -> Bombardment:
    """10.83: ``side``'s gunboats supporting its ``role`` ("attack" or "defence") in a land combat
    between ``attacker_hex`` and ``defender_hex``.  Attack: a gunboat adjacent to both hexes;
    defence: adjacent to the defending hex.  ``gunboats_used`` limits the choice (default every
    eligible gunboat); a gunboat with another mission this impulse cannot support."""
    if role not in ("attack", "defence", "defense"):
        raise ValueError(f"role must be 'attack' or 'defence', not {role!r}")
    b = Bombardment(side, "defence" if role != "attack" else "attack")
    pool = gunboats(state, side)
    names = sorted(pool) if gunboats_used is None else list(gunboats_used)
    for g in names:
        if g not in pool:
            b.refused[g] = f"{g} is not a {side} gunboat on the map"
            continue
        gb = pool[g]
        m = mission_of(state, g)
        if m and m != "bombardment":
            b.refused[g] = f"{g} has flown its {m} mission this impulse (8.9)"
            continue
        need = [defender_hex] if b.role == "defence" else [attacker_hex, defender_hex]
        if not all(adjacent_to(hexmap, gb["hexside"], h) for h in need):
            b.refused[g] = (f"{g} on {gb['hexside']} is not adjacent to " + " and ".join(need) + " (10.83)")
            continue
        b.gunboats.append(g)
        b.amount += support_value(gb)
    if b.gunboats:
        b.why = (f"{side} gunboats {', '.join(b.gunboats)} support the {b.role}: DRM +{b.amount} "
                 "(support value, like artillery; no ASP) (10.83, 10.42a)")
    else:
        b.why = f"no {side} gunboat can support the {b.role}"
    if b.refused:
        b.why += "; " + "; ".join(b.refused.values())
    return b


def apply_bombardment(state: dict, b: Bombardment) -> None:
    """Record the supporting gunboats' mission for this impulse (8.9)."""
    cur = naval(state).setdefault("current", {})
    for g in b.gunboats:
        cur.setdefault("missions", {})[g] = "bombardment"


# --------------------------------------------------------------------------
# naval assault (8.92, 3.17, 4.33)


def is_port(state: dict, hexmap, label: str) -> bool:
    """8.92a: a major city on a major river, or a Union Naval Landing."""
    from .reorganization import landing_hexes
    if label in landing_hexes(state):
        return True
    h = hexmap.parse(label)
    return "major_city" in hexmap.features(h) and any(
        is_major_river(hexmap, HexSide(h, n)) for n in h.neighbours() if n in hexmap.grid)


def _unit_hex(state: dict, uid: str) -> str | None:
    u = state["units"][uid]
    if u.get("leader"):
        return state["leaders"][model.top_of(state, u["leader"])].get("hex")
    return u.get("hex")


@dataclass
class Embarkation:
    gunboat: str
    port: str
    units: list[str] = field(default_factory=list)
    leaders: list[str] = field(default_factory=list)
    wagon: str | None = None
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.92a"
    why: str = ""


def _cargo_problems(state: dict, hexmap, gid: str, port: str, units, leaders, wagon, rule: str) -> list[Problem]:
    p: list[Problem] = []
    gbs = (_nv(state).get("gunboats") or {})
    if gid not in gbs:
        return [Problem(f"no gunboat {gid!r}", rule, ["gunboat"])]
    gb = gbs[gid]
    if gb["side"] != "union":
        p.append(Problem("only Union gunboats carry troops (8.92, 4.33)", rule, ["gunboat"]))
    if len(units) != 1:
        p.append(Problem(f"a gunboat carries 1 combat unit of any size (+1 wagon and any leaders); "
                         f"{len(units)} given", "8.92", ["units"]))
    for i, u in enumerate(units):
        if u not in state["units"] or state["units"][u]["steps"] <= 0:
            p.append(Problem(f"no living unit {u!r}", "8.92", ["units", i]))
            continue
        uu = state["units"][u]
        if uu["side"] != "union":
            p.append(Problem(f"{u} is not a Union unit", "8.92", ["units", i]))
        if _unit_hex(state, u) != port:
            p.append(Problem(f"{u} is not in {port}", rule, ["units", i]))
        if uu.get("leader") and uu["leader"] not in leaders:
            p.append(Problem(f"{u} is in {uu['leader']}'s box: detach it first (8.25b) or embark the leader",
                             "8.92", ["units", i]))
    for i, lid in enumerate(leaders):
        ld = state["leaders"].get(lid)
        if not ld or ld["side"] != "union" or ld.get("hex") != port:
            p.append(Problem(f"{lid} is not a Union leader in {port}", rule, ["leaders", i]))
            continue
        extra = [u for u, uu in state["units"].items()
                 if uu.get("leader") == lid and uu["steps"] > 0 and u not in units]
        if extra:
            p.append(Problem(f"{lid}'s box holds {', '.join(extra)}: only 1 combat unit goes aboard; detach the "
                             "others first (8.92, 8.25b)", "8.92", ["leaders", i]))
    if wagon is not None:
        w = state.get("logistics", {}).get(wagon)
        if not w or w.get("kind") != "wagon" or w["side"] != "union" or w.get("hex") != port:
            p.append(Problem(f"{wagon} is not a Union wagon in {port} (8.92: up to 1 wagon)", "8.92", ["wagon"]))
    return p


def embark(state: dict, hexmap, gid: str, port: str, units: Sequence[str], *, leaders: Sequence[str] = (),
           wagon: str | None = None) -> Embarkation:
    """8.92a(1-2): at the start of a Union impulse, load 1 combat unit (+1 wagon, any leaders) in a
    major-city port or Naval Landing onto a full-strength gunboat on a hexside of that hex; the
    group goes to the "Any Impulse Turn 1" box."""
    r = Embarkation(gid, port, list(units), list(leaders), wagon)
    p = r.problems
    p += _cargo_problems(state, hexmap, gid, port, units, leaders, wagon, "8.92a")
    if not p:
        gb = naval(state)["gunboats"][gid]
        if gb.get("steps", 2) < 2:
            p.append(Problem(f"{gid} is reduced: reduced gunboats cannot make a naval assault", "8.92", ["gunboat"]))
        if not gb.get("hexside"):
            p.append(Problem(f"{gid} is not on the map", "8.92a", ["gunboat"]))
        elif hexmap.parse(port) not in _side(hexmap, gb["hexside"]).hexes:
            p.append(Problem(f"{gid} on {gb['hexside']} is not on a hexside of {port}", "8.92a", ["gunboat"]))
        if gb.get("cargo"):
            p.append(Problem(f"{gid} already carries troops", "8.92", ["gunboat"]))
        if mission_of(state, gid) or gid in (_current(state).get("moved") or []):
            p.append(Problem(f"{gid} has moved or flown a mission this impulse", "8.9", ["gunboat"]))
        if not is_port(state, hexmap, port):
            p.append(Problem(f"{port} is neither a major-city port nor a Union Naval Landing", "8.92a", ["port"]))
    if p:
        r.why = "no embarkation: " + "; ".join(x.message for x in p)
        return r
    cargo = " + ".join([*units, *([wagon] if wagon else []), *leaders])
    r.why = f"{cargo} embark on {gid} in {port}; to the \"{BOX_NAMES['any_impulse_t1']}\" box (8.92a, 3.17)"
    return r


def _load(state: dict, gb: dict, gid: str, units, leaders, wagon) -> None:
    for u in units:
        uu = state["units"][u]
        uu["hex"] = None
        uu["embarked_on"] = gid
        if uu.get("leader") and uu["leader"] not in leaders:
            uu["leader"] = None
    for lid in leaders:
        state["leaders"][lid]["hex"] = None
        state["leaders"][lid]["embarked_on"] = gid
    if wagon:
        state["logistics"][wagon]["hex"] = None
        state["logistics"][wagon]["embarked_on"] = gid
    gb["cargo"] = {"units": list(units), "leaders": list(leaders), "wagon": wagon}


def apply_embark(state: dict, r: Embarkation) -> None:
    if r.problems:
        raise ValueError("cannot apply an illegal embarkation: " + r.why)
    gb = naval(state)["gunboats"][r.gunboat]
    _load(state, gb, r.gunboat, r.units, r.leaders, r.wagon)
    gb["hexside"] = None
    gb["box"] = "any_impulse_t1"
    naval(state).setdefault("current", {}).setdefault("missions", {})[r.gunboat] = "assault"


@dataclass
class DisplayAdvance:
    """4.33/8.92a: one Naval Sequence's moves on the Union Naval Assault Display."""

    moves: dict[str, tuple[str, str]] = field(default_factory=dict)
    announce: bool = False
    notice: str | None = None            # the public text for the Confederate player (digest D-5)
    rule: str = "4.33"
    why: str = ""


def advance_display(state: dict, *, announce: bool = False) -> DisplayAdvance:
    """4.33 Naval Sequence: each group moves one box; from Reorg T2 to Available only if the Union
    announces that a naval assault may occur (8.92a(5))."""
    r = DisplayAdvance(announce=announce)
    for g, gb in sorted(((_nv(state).get("gunboats") or {})).items()):
        box = gb.get("box")
        if not box or gb.get("steps", 2) <= 0:
            continue
        if box == "any_impulse_t1":
            r.moves[g] = (box, "reorg_t1")
        elif box == "reorg_t1":
            r.moves[g] = (box, "reorg_t2")
        if r.moves.get(g, (box, box))[1] == "reorg_t2" and announce:
            r.moves[g] = (box, "available")
    if announce and any(to == "available" for _, to in r.moves.values()):
        r.notice = NOTICE
    parts = [f"{g}: {BOX_NAMES[a]} -> {BOX_NAMES[b]}" for g, (a, b) in r.moves.items()]
    r.why = "; ".join(parts) or "nothing moves on the Naval Assault Display"
    if r.notice:
        r.why += f"; public notice: {r.notice}"
    return r


def apply_advance_display(state: dict, r: DisplayAdvance, *, turn: int | None = None) -> None:
    nv = naval(state)
    for g, (_, to) in r.moves.items():
        nv["gunboats"][g]["box"] = to
    if r.notice:
        nv["notice"] = {"turn": turn if turn is not None else state.get("turn")}


@dataclass
class NavalAssault:
    gunboat: str
    target: str
    hexside: str = ""
    placed: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.92b"
    why: str = ""


def _hex_controlled(state: dict, hexmap, label: str, side: str) -> list[str]:
    """Enemy gunboats and batteries whose control reaches a hexside of ``label``."""
    h = hexmap.parse(label)
    control = _enemy_control(state, hexmap, side)
    out: set[str] = set()
    for n in h.neighbours():
        out |= set(control.get(HexSide(h, n), []))
    return sorted(out)


def naval_assault(state: dict, hexmap, gid: str, target: str, hexside: str, *, weather: str | None = None
                  ) -> NavalAssault:
    """8.92b/c: a loaded gunboat in the Available box lands its troops in ``target`` (a village,
    town or major city on a major river), placed on ``hexside`` of it."""
    from .attack import enemy_zoc
    w = _weather(state, weather)
    r = NavalAssault(gid, target, hexside)
    p = r.problems
    gb = (_nv(state).get("gunboats") or {}).get(gid)
    if gb is None:
        p.append(Problem(f"no gunboat {gid!r}", "8.92b", ["gunboat"]))
        r.why = "no assault: " + p[0].message
        return r
    if gb["side"] != "union":
        p.append(Problem("only the Union makes naval assaults", "8.92", ["gunboat"]))
    if gb.get("box") != "available":
        p.append(Problem(f"{gid} is not in the \"{BOX_NAMES['available']}\" box"
                         + (f" (it is in \"{BOX_NAMES[gb['box']]}\")" if gb.get("box") else ""), "8.92b", ["gunboat"]))
    if not (gb.get("cargo") or {}).get("units"):
        p.append(Problem(f"{gid} carries no troops", "8.92b", ["gunboat"]))
    try:
        th = hexmap.parse(target)
        s = _side(hexmap, hexside)
    except Exception as e:
        p.append(Problem(str(e), "8.92b", ["target"]))
        r.why = "no assault: " + "; ".join(x.message for x in p)
        return r
    r.hexside = _sl(hexmap, s)
    if not set(hexmap.features(th)) & set(LANDING_TARGETS):
        p.append(Problem(f"{target} is not a village, town or major city", "8.92", ["target"]))
    if th not in s.hexes:
        p.append(Problem(f"{r.hexside} is not a hexside of {target}", "8.92c", ["hexside"]))
    else:
        refusal = _step_refusal(state, hexmap, "union", s, w)
        if refusal:
            p.append(Problem(refusal, "8.92c", ["hexside"]))
    if target in enemy_zoc(state, hexmap, "union"):
        p.append(Problem(f"{target} is in enemy ZOC", "8.92b", ["target"]))
    if _entrenchment(state, target, "confederate") > 0:
        p.append(Problem(f"{target} holds an enemy entrenchment", "8.92b", ["target"]))
    ctl = _hex_controlled(state, hexmap, target, "union")
    if ctl:
        p.append(Problem(f"{target} is within the control range of {', '.join(ctl)}", "8.92b", ["target"]))
    if p:
        r.why = "no assault: " + "; ".join(x.message for x in p)
        return r
    cargo = gb["cargo"]
    r.placed = [*cargo.get("units", []), *cargo.get("leaders", []), *([cargo["wagon"]] if cargo.get("wagon") else [])]
    r.why = (f"{gid} is placed on {r.hexside}; {', '.join(r.placed)} land in {target} and use all the "
             "impulse's MP (8.92b, 8.92c)")
    return r


def _unload(state: dict, gb: dict, label: str) -> list[str]:
    cargo = gb.pop("cargo", None) or {}
    out = []
    for u in cargo.get("units") or []:
        uu = state["units"][u]
        uu.pop("embarked_on", None)
        if not uu.get("leader"):
            uu["hex"] = label
        out.append(u)
    for lid in cargo.get("leaders") or []:
        state["leaders"][lid]["hex"] = label
        state["leaders"][lid].pop("embarked_on", None)
        out.append(lid)
    if cargo.get("wagon"):
        state["logistics"][cargo["wagon"]]["hex"] = label
        state["logistics"][cargo["wagon"]].pop("embarked_on", None)
        out.append(cargo["wagon"])
    return out


def apply_naval_assault(state: dict, r: NavalAssault) -> None:
    if r.problems:
        raise ValueError("cannot apply an illegal naval assault: " + r.why)
    nv = naval(state)
    gb = nv["gunboats"][r.gunboat]
    landed = _unload(state, gb, r.target)
    gb["box"] = None
    gb["hexside"] = r.hexside
    cur = nv.setdefault("current", {})
    cur.setdefault("missions", {})[r.gunboat] = "assault"
    cur.setdefault("landed", []).extend(landed)


# --------------------------------------------------------------------------
# river transport (4.33, 8.9, 10.82)


@dataclass
class RiverTransport:
    gunboat: str
    origin: str
    destination: str
    route: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    leaders: list[str] = field(default_factory=list)
    wagon: str | None = None
    problems: list[Problem] = field(default_factory=list)
    rule: str = "4.33"
    why: str = ""


def river_transport(state: dict, hexmap, gid: str, origin: str, destination: str, units: Sequence[str], *,
                    leaders: Sequence[str] = (), wagon: str | None = None, weather: str | None = None
                    ) -> RiverTransport:
    """4.33/8.9: in the Naval Sequence a Union gunboat carries 1 combat unit (+1 wagon, any leaders)
    from ``origin`` (a hex touching its hexside) to ``destination`` along usable river hexsides,
    passing no enemy-controlled hexside (10.82)."""
    w = _weather(state, weather)
    r = RiverTransport(gid, origin, destination, units=list(units), leaders=list(leaders), wagon=wagon)
    p = r.problems
    p += _cargo_problems(state, hexmap, gid, origin, units, leaders, wagon, "4.33")
    if p:
        r.why = "no transport: " + "; ".join(x.message for x in p)
        return r
    gb = naval(state)["gunboats"][gid]
    if not gb.get("hexside") or gb.get("cargo"):
        p.append(Problem(f"{gid} is not free on the map", "4.33", ["gunboat"]))
        r.why = "no transport: " + p[0].message
        return r
    start = _side(hexmap, gb["hexside"])
    if hexmap.parse(origin) not in start.hexes:
        p.append(Problem(f"{gid} on {gb['hexside']} is not on a hexside of {origin}", "4.33", ["origin"]))
    control = _enemy_control(state, hexmap, "union")
    if start in control:
        p.append(Problem(f"{gid} is in the control range of {', '.join(sorted(control[start]))}", "10.82",
                         ["gunboat"]))
    dest = hexmap.parse(destination)
    prev: dict[HexSide, HexSide | None] = {start: None}
    queue = deque([start])
    found = None
    while queue and not p:
        s = queue.popleft()
        if dest in s.hexes and s != start:
            found = s
            break
        for t in river_steps(hexmap, s):
            if t in prev or t not in hexmap.sides or t in control or _step_refusal(state, hexmap, "union", t, w):
                continue
            prev[t] = s
            queue.append(t)
    if not p and found is None and dest not in start.hexes:
        p.append(Problem(f"no usable river route from {gb['hexside']} to a hexside of {destination} that passes "
                         "no enemy gunboat's or battery's control (10.82, 8.91)", "10.82", ["destination"]))
    if p:
        r.why = "no transport: " + "; ".join(x.message for x in p)
        return r
    path = []
    x = found
    while x is not None and x != start:
        path.append(_sl(hexmap, x))
        x = prev[x]
    r.route = list(reversed(path))
    cargo = " + ".join([*units, *([wagon] if wagon else []), *leaders])
    r.why = (f"{gid} carries {cargo} from {origin} to {destination}"
             + (f" via {' -> '.join(r.route)}" if r.route else "") + " (river transport, 4.33)")
    return r


def apply_river_transport(state: dict, r: RiverTransport) -> None:
    if r.problems:
        raise ValueError("cannot apply an illegal river transport: " + r.why)
    gb = naval(state)["gunboats"][r.gunboat]
    _load(state, gb, r.gunboat, r.units, r.leaders, r.wagon)
    _unload(state, gb, r.destination)
    if r.route:
        gb["hexside"] = r.route[-1]

