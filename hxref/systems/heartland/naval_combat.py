"""Naval combat, batteries on land and shore bombardment: rules 10.8-10.83 and 10.42a.

The Naval Combat Results Table (``games/heartland/charts/ncrt.yaml``,
:class:`Ncrt`, a STAND-IN), naval combat between gunboats and batteries in
contact (10.81, 10.82a), the capture of a battery by a Union force on land
(10.82b) and the support of gunboats to a land fire (10.83, 10.42a).  The
readings chosen where the rules are silent and the state keys are in
:mod:`.naval`, which is the navy's public face.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Mapping, Sequence, TYPE_CHECKING, cast

from .state_types import Battery, Gunboat, FullGameState
from ..base import Problem
from . import model
from .combat_fire import Drm
from .forces import APCharge
from .naval_control import (
    ATTACK_BATTERY_DRM, BATTERY_DRM, _entrenchment, _nv, _position, _side, _unit, batteries, gunboats, in_contact,
    is_battery, mission_of, naval, strength, support_value, touching_hexes,
)

if TYPE_CHECKING:
    from ...kit.charts import Charts


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
    def load(cls, charts: Charts, path: str | None = None) -> "Ncrt":
        """The game's chart ``charts/ncrt.yaml`` (of ``charts``), or another file of its shape."""
        return _build_ncrt(charts.chart_source("ncrt", path))

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
def _build_ncrt(src) -> Ncrt:
    """Once per chart content (the game's pinned chart, or the disk's)."""
    return Ncrt.from_data(src.data())


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


def _allocate(state: FullGameState, ids: Sequence[str], n: int, side: str, order: Sequence[str] | None
              ) -> tuple[list[NavalLoss], int]:
    """10.81/10.82a: ``n`` step losses among ``ids``; returns the losses and the ones left over."""
    steps = {u: _unit(state, u).get("steps", 2) for u in ids}
    ent = {}
    for u in ids:
        if is_battery(state, u):
            h = cast(Battery, _unit(state, u))["hex"]
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


def _check_participants(known: Mapping, attackers: Sequence[str], defenders: Sequence[str]) -> list[Problem]:
    """10.81 (who fights): each side names gunboats or batteries that are on the map and not eliminated."""
    p: list[Problem] = []
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
    return p


def _attacking_side(known: Mapping, attackers: Sequence[str], defenders: Sequence[str]) -> str | None:
    """10.81 (the two sides): the attackers are all of one side and the defenders of the other."""
    a_sides = {known[u]["side"] for u in attackers}
    d_sides = {known[u]["side"] for u in defenders}
    if len(a_sides) != 1 or len(d_sides) != 1 or a_sides == d_sides:
        return None
    return a_sides.pop()


def _check_phasing_attacks(state: FullGameState, side: str, phasing: str | None, defenders: Sequence[str]) -> list[Problem]:
    """10.81, 10.82a (who attacks): the phasing side attacks; a battery attacks in Confederate impulses."""
    if not phasing or side == phasing:
        return []
    battery = any(is_battery(state, u) for u in defenders)
    return [Problem(f"in a {phasing} impulse the {phasing} side attacks (10.81)"
                    + ("; a battery is always the attacker in Confederate impulses (10.82a)" if battery else ""),
                    "10.82a" if battery else "10.81", ["attackers"])]


def _check_contact(state: FullGameState, hexmap, attackers: Sequence[str], defenders: Sequence[str]) -> list[Problem]:
    """10.81, 8.91a (the trigger): each unit is in contact with an enemy or stacked with a friend who is."""
    p: list[Problem] = []
    for role, ids, other in (("attackers", attackers, defenders), ("defenders", defenders, attackers)):
        for i, u in enumerate(ids):
            touching = any(in_contact(state, hexmap, u, o) for o in other)
            stacked = any(_position(state, hexmap, u) == _position(state, hexmap, f) and f != u for f in ids)
            if not touching and not stacked:
                p.append(Problem(f"{u} is in contact with none of the {('defenders' if role == 'attackers' else 'attackers')}"
                                 " and on no hexside with one of its own (10.81, 8.91a)", "10.81", [role, i]))
    return p


def _check_one_mission(state: FullGameState, attackers: Sequence[str]) -> list[Problem]:
    """8.9: a gunboat flies one mission an impulse."""
    p: list[Problem] = []
    for i, u in enumerate(attackers):
        m = mission_of(state, u)
        if m and m != "naval_combat":
            p.append(Problem(f"{u} has flown its {m} mission this impulse (one mission an impulse)", "8.9",
                             ["attackers", i]))
    return p


def _differential_column(r: NavalCombat, known: Mapping, chart: Ncrt) -> None:
    """10.81 resolution steps 1-3: total each side, attacker minus defender, the NCRT column (fractions up)."""
    ta = sum(strength(known[u]) for u in r.attackers)
    td = sum(strength(known[u]) for u in r.defenders)
    r.totals = (ta, td)
    r.differential = ta - td
    r.column = chart.column_for(r.differential)


def _ncrt_drms(state: FullGameState, attackers: Sequence[str], defenders: Sequence[str]) -> list[Drm]:
    """10.81a: -1 when gunboats attack a force with a battery; +1 when a force with a battery attacks gunboats."""
    a_battery = any(is_battery(state, u) for u in attackers)
    d_battery = any(is_battery(state, u) for u in defenders)
    a_boats = any(not is_battery(state, u) for u in attackers)
    d_boats = any(not is_battery(state, u) for u in defenders)
    drms = []
    if a_boats and d_battery:
        drms.append(Drm(ATTACK_BATTERY_DRM, "gunboats attack a force that includes a coastal battery", "10.81a"))
    if a_battery and d_boats:
        drms.append(Drm(BATTERY_DRM, "a force that includes a coastal battery attacks gunboats", "10.81a"))
    return drms


def _roll_and_allocate(r: NavalCombat, state: FullGameState, dice, chart: Ncrt,
                       allocation: Mapping[str, Sequence[str]] | None) -> None:
    """10.81 resolution step 4 and results, 10.82a: one 1d6 by the attacker gives both sides' step
    losses, each allocated by its owner (an entrenchment level may absorb one)."""
    side = r.attacker_side
    r.die = dice.d6(f"NCRT {'+'.join(r.attackers)} on {'+'.join(r.defenders)}", by=side)
    r.modified = r.die + r.drm
    r.row = chart.row_for(r.modified)
    r.cell = chart.cell(r.column, r.row)
    alloc = allocation or {}
    la, left_a = _allocate(state, list(r.attackers), r.cell.attacker, side, alloc.get(side))
    ld, left_d = _allocate(state, list(r.defenders), r.cell.defender, model.other_side(side),
                           alloc.get(model.other_side(side)))
    r.losses = la + ld
    r.unabsorbed = {k: v for k, v in ((side, left_a), (model.other_side(side), left_d)) if v}
    r.why += (f"; the attacker rolls {r.die} -> {r.modified}" + (f" (row {r.row})" if r.row != r.modified else "")
              + f": {r.cell.text} (attacker/defender steps)"
              + (f"; losses: {', '.join(x.text for x in r.losses)}" if r.losses else "")
              + (f"; not absorbed: {r.unabsorbed}" if r.unabsorbed else "")
              + (" [stand-in NCRT]" if r.stand_in else ""))


def _refused(r: NavalCombat) -> NavalCombat:
    r.why = "no naval combat: " + "; ".join(x.message for x in r.problems)
    return r


def naval_combat(state: FullGameState, hexmap, attackers: Sequence[str], defenders: Sequence[str], dice=None, *,
                 phasing: str | None = None, allocation: Mapping[str, Sequence[str]] | None = None,
                 chart: Ncrt) -> NavalCombat:
    """10.81: ``attackers`` (the phasing side's gunboats and batteries) attack ``defenders``.

    Totals of naval strength, the differential column (fractions up), DRMs of 10.81a, one 1d6 by
    the attacker (when ``dice`` is given), the cell's step losses to both sides, allocated by
    ``allocation[side]`` (ids or ``entrenchment:<hex>``, see the module text)."""
    r = NavalCombat(list(attackers), list(defenders), stand_in=chart.stand_in)
    p = r.problems
    nv = _nv(state)
    known = {**(nv.get("gunboats") or {}), **(nv.get("batteries") or {})}
    p += _check_participants(known, attackers, defenders)
    if p:
        return _refused(r)
    side = _attacking_side(known, attackers, defenders)
    if side is None:
        p.append(Problem("the attackers must all be of one side and the defenders of the other", "10.81",
                         ["attackers"]))
        return _refused(r)
    r.attacker_side = side
    p += _check_phasing_attacks(state, side, phasing, defenders)
    p += _check_contact(state, hexmap, attackers, defenders)
    p += _check_one_mission(state, attackers)
    if p:
        return _refused(r)
    _differential_column(r, known, chart)
    r.drms = _ncrt_drms(state, attackers, defenders)
    r.drm = sum(d.amount for d in r.drms)
    ta, td = r.totals
    col_note = f" (reads {r.column:+d})" if r.column != r.differential else ""
    drms = ", ".join(d.text() for d in r.drms) or "none"
    r.why = (f"{'+'.join(attackers)} ({ta}) attack {'+'.join(defenders)} ({td}): differential "
             f"{ta} - {td} = {r.differential:+d}{col_note} column; DRM {r.drm:+d} ({drms})")
    if dice is None:
        return r
    _roll_and_allocate(r, state, dice, chart, allocation)
    return r


def apply_naval_combat(state: FullGameState, r: NavalCombat) -> None:
    """Apply the step losses (sunk gunboats lose their cargo; eliminated batteries are gone) and
    record the mission."""
    if r.problems or r.cell is None:
        raise ValueError("cannot apply a naval combat that is illegal or not rolled: " + r.why)
    nv = naval(state)
    for loss in r.losses:
        if loss.entrenchment:
            e = state["entrenchments"][loss.entrenchment]
            if isinstance(e, Mapping):
                cast(dict, e)["level"] = max(0, int(e.get("level", 0)) - 1)
            else:
                state["entrenchments"][loss.entrenchment] = max(0, int(e) - 1)
        else:
            u = _unit(state, cast(str, loss.unit))
            u["steps"] = max(0, u.get("steps", 2) - 1)
    for uid in [*r.attackers, *r.defenders]:
        u = _unit(state, uid)
        if u.get("steps", 2) <= 0 and not is_battery(state, uid):
            _lose_cargo(state, cast(Gunboat, u))        # not a battery: a gunboat
            cast(Gunboat, u)["hexside"] = None
    cur = nv.setdefault("current", {})
    for uid in r.attackers:
        if not is_battery(state, uid):
            cur.setdefault("missions", {})[uid] = "naval_combat"
        (cur.get("must_attack") or {}).pop(uid, None)


def _lose_cargo(state: FullGameState, gb: Gunboat) -> None:
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


def battery_hexes(state: FullGameState) -> set[str]:
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


def battery_capture(state: FullGameState, hexmap, force_id: str, battery: str, dice) -> BatteryCapture:
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


def apply_battery_capture(state: FullGameState, r: BatteryCapture) -> None:
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


def bombardment_drm(state: FullGameState, hexmap, side: str, attacker_hex: str, defender_hex: str, role: str, *,
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


def apply_bombardment(state: FullGameState, b: Bombardment) -> None:
    """Record the supporting gunboats' mission for this impulse (8.9)."""
    cur = naval(state).setdefault("current", {})
    for g in b.gunboats:
        cur.setdefault("missions", {})[g] = "bombardment"
