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
* the naval assault and river transport are in :mod:`.naval_assault`, the shared state access,
  hexside geometry and control ranges in :mod:`.naval_common`; both are re-exported here.

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

from ...geometry.hex import HexSide
from ..base import Problem
from . import model
from .combat_fire import Drm
from .forces import APCharge
from .naval_assault import (  # noqa: F401  (re-exported: 8.92, 3.17, 4.33)
    is_port, _unit_hex, Embarkation, _cargo_problems, embark, _load, apply_embark, DisplayAdvance, advance_display,
    apply_advance_display, NavalAssault, _hex_controlled, naval_assault, _unload, apply_naval_assault,
    RiverTransport, river_transport, apply_river_transport,
)
from .naval_common import (  # noqa: F401  (re-exported: constants, state access, geometry, control)
    MAJOR_RIVER, GUNBOAT_OBSTACLES, LANDING_TARGETS, BANK_TOWNS, MISSIONS, DOWNSTREAM, UPSTREAM, BOXES, BOX_NAMES,
    BATTERY_DRM, ATTACK_BATTERY_DRM, NOTICE, naval, _nv, gunboats, batteries, _unit, is_battery, strength,
    support_value, _current, mission_of, new_impulse, _weather, _side, _sl, branching, touching_hexes,
    is_major_river, obstacle, river_steps, control_range, controls, controlled_hexsides, _enemy_control, _position,
    in_contact, contacts, _step_refusal, _entrenchment,
)


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


def _load_ncrt(path: str | None) -> Ncrt:
    from ...kit import data

    return _build_ncrt(data.chart_source("heartland", "ncrt", path))


@cache
def _build_ncrt(src) -> Ncrt:
    """Once per chart content (the game's pinned chart, or the disk's)."""
    return Ncrt.from_data(src.data())


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
        r.rating = model.current_rating(ld, "br")
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
