"""The Reorganization Segment: rules 4.3-4.4, 12.0, 13.0-13.22 (with 3.24a, 3.32, 3.41, 3.53-3.55,
4.31-4.32, 7.13, 7.31a, 7.34, 7.35, 8.11, 8.13, 10.67a).

The segment is played by both sides at once, step after step, strictly in
the rules' order (12.0, 13.0, 4.31, 4.32, 4.4); :data:`STEPS` lists them.
Each step is a function of the state, one side's orders and (when the step
rolls) the dice; it returns a :class:`StepResult` saying what happened and
why, and :func:`apply_step` folds its changes into the state.  Nothing is
changed and nothing is rolled when a step's orders are illegal: the result
then lists the :class:`~hxref.systems.base.Problem` of every bad order.

====================  =======================  =====================================
step                  function                 rules
====================  =======================  =====================================
destruction           :func:`destruction`      13.1, 13.11, 13.12, 13.13
foraging              :func:`foraging`         13.2, 13.21, 13.22, 7.35a
income                :func:`income`           4.31
supply recheck        :func:`supply_recheck`   4.31, 7.13, 7.31a, 7.35, 3.54c, 8.11
administration        :func:`administration`   4.32, 3.24a, 3.31b, 3.32, 3.41, 7.34, 8.51
end of turn           :func:`end_of_turn`      4.4, 3.32, 10.67a, 8.13
====================  =======================  =====================================

:func:`reorganization` plays them all for both sides; :func:`ml_change`
applies the leader ML rules of 3.53-3.55 (which changes fall on the OC only).

Orders: one plain dict per side, each step reading its own key (paths in
problems start with that key)::

    destruction:                         # 13.1: active OC of the stack, 1 AP per attempt
      - {leader: forrest, bridge: "0604/0705", attempts: 3}   # 13.11: cavalry in a hex at either end
      - {leader: forrest, town: "0303", attempts: 2}          # 13.12: the OC in the town
      - {leader: bragg, landing: "0810"}                      # 13.13: Confederates, a Union landing hex
    foraging:                            # 13.2: June-September, active OC in a town or major city, 1 AP
      - {leader: bragg}
    attrition:                           # 4.31, 7.31a
      emergency: {bragg: w2}             # 7.35: consume a wagon or depot for the stack
      ml: {bragg: 1}                     # 3.54c: the OC gives up ML, -1 each
      losses: {bragg: [u3, u4]}          # which units take the attrition steps (else spread)
    administration:                      # 4.32, 3.24a
      replacements: [{unit: u1, steps: 1, leader: grant}]   # 1 AP and 1 replacement step each
      leaders:                           # 3.41(2): no WDO needed here; 3.31b: 1 AP when an army commander orders
        - {relieve: lyle}                                  # only a leader with no units in his box
        - {appoint: sherman, box: lyle, ordered_by: grant} # takes over the box (relieving lyle)
      wdo:                               # 3.41: 10 WEP, at most 1 a turn (3.41a)
        - {army_commander: thomas, from: grant}            # 3.41(3)
        - {remove: buell}                                  # 3.41(4)
      chief_of_staff: [{leader: rosecrans, army: grant}]    # 3.32: a WDO + 1 AP of the army commander
      detachments: [{leader: grant, unit: u2, by: step_loss}]  # 8.51, 3.24a: 1 AP
      ammo: [{leader: grant, asp: 3}]    # 3.24a, 7.34: 1 AP, in-communication full-supply forces only
      training: [{leader: grant}]        # 3.53(2), 14.52: 1 AP, ML +1
      entrench: [{leader: grant}]        # 3.24a, 14.8x: 1 AP, one level

State keys this module reads or adds (all optional; absent = none)::

    wep: {union: 120, ...}                 War Effort Points (3.16), changed by raids, foraging, income, WDOs
    replacements: {union: 4, ...}          replacement steps on the Number Track (3.16, 4.32)
    prices: {asp: 1}                       WEP per ammo point bought (4.32(5); the price list is missing: 0)
    income: {"0705": 5 | {wep: 5, owner: union}}   WEP per friendly major city (4.31; amounts missing: 0)
    control: {"0705": union}               who holds a city now (overrides the income entry's owner)
    foraging: true                         the scenario allows foraging (4.31); default true
    north_of_ohio: ["0101", ...] | true    hexes north of the Ohio River (13.22), or the whole map
    landings: {id: {hex: "0810"}} | ["0810"]   Union Naval Landings (8.92, 13.13)
    rail_cuts: ["0509"]                    Rail Line Cut markers (7.13, 8.63), passed to the supply check
    burned_bridges: {"0604/0705": {side: confederate, turn: 3}}   bridges burned (13.11; until rebuilt)
    devastated: {"0303": {side: union, turn: 2}}   towns burned (13.12): no longer towns
                                           (a plain list of labels is read too)
    entrenchments: {"0303": {side: union, level: 1}}   entrenchment levels (3.24a, 14.8x)
    leaders[id]["own_use"]: 4              an Own Use marker, to be spent in that turn (7.35a, 13.22)
    leaders[id]["wound"]: 2                wound level, lowering all ratings (10.67, 8.13); -1 a turn
    leaders[id]["cos"]: rosecrans          an army commander's Chief of Staff (3.32)
    leaders[id]["cos_of"]: grant           a Chief of Staff: in grant's Status box, off the map (3.32)
    leaders[id]["killed"] / ["removed"]    gone for good (10.67, 8.13); like ``captured`` (9.24)
    current.reorganization:                this turn's records (reset with the turn):
        supply: {union: {force: {state, in_communication, line}}}   the Supply Recheck (7.34)
        raided: {"0810": 2}   foraged: {union: ["0303"]}   trained: {union: [grant]}
        ammo: {union: [grant]}   entrenched: {union: ["0303"]}
    current.wdo: {union: 1}                limited WDOs used this turn (3.41a); a dict
                                           ``current.wdo_used`` {side: bool} is read too

Readings chosen where the rules are ambiguous or silent (pinned by
``tests/heartland/test_reorganization.py``):

* Order (12.0, 13.0, 4.31): destruction, foraging, (the Purchase Step, whose
  contents are missing), income, supply recheck and attrition,
  administration, (the Naval Sequence, not here), end of turn.  Within a
  step both sides act at once: each side's step is computed on the state
  before either is applied, Union first in the dice.
* 13.1-13.12: ``attempts`` is an upper bound; the attempts stop at the first
  6.  The AP of every attempt asked for must be there when the order is
  checked (so nothing depends on dice when the file is accepted).  The OC
  of the stack is the hex's OC (3.22), on the map and active.  A bridge is a
  hexside with a bridge over a major river; the stack needs a living cavalry
  unit.  Major cities and villages are not burned.
* 13.13 (H-29): Union WEP fall by floor(brigades / 2): Confederate living
  infantry and cavalry units of brigade size in the landing hex (in boxes
  and unled); the raid costs 1 AP of the hex's active OC (13.1), once per
  landing per turn; WEP never fall below 0 (the Number Track, 3.16).
* 13.21-13.22: one forage per hex per side per turn, by the hex's active OC
  for 1 AP; a burned town is no town (13.12).  Clear hexes: the hex and its
  six neighbours on the map whose terrain is clear (a major city counts when
  its hex's terrain is clear, the way the map draws it) or that hold an
  unburned town.  OU places ``own_use: next turn`` on the OC (spent in one
  impulse of the next turn, 7.35a; it lapses at the end of that turn).  Any
  force may forage (WEP); OU helps only forces out of communication.
* 4.31 income: a city pays its ``income`` entry (0 if none) to the side that
  holds it (``control``, else the entry's ``owner``), unless only enemy units
  stand in it.
* Attrition (4.31, 7.31a, 7.12b): forces out of communication (including
  those supplied by emergency supply or Own Use), forces with no line of
  20 MP or less to any in-supply source or supply unit, and forces of 3 or
  more leaders (boxes included) roll 1d6 on the stand-in Attrition Table.
  DRMs: +4 with no line; the stand-in supply DRM (full 0, combat +1, out +2);
  weather (5.23-5.29); -1 per ML the OC gives up (3.54c, the OC only).
  Emergency supply (7.35) cancels both the supply DRM and the no-line +4
  ("to avoid the large attrition DRM").  Step losses go to the ordered
  units, else are spread (most steps first); leaders left without units go
  to the pool (as 8.31a); "deactivate" falls on the force's OC (8.11).
  Attrition rolls are private to the rolling side (the AOD is hidden, 3.71).
* 7.13: a depot in a station on a rail line that is out of supply (its rail
  line cut and no other line) loses 1 capacity once per Supply Recheck;
  at capacity 0 it is removed.
* 3.24a AP: the leader who acts pays; replacements may be paid by the box
  leader's OC or an army commander in range (3.24b, 3.31a); ammo receipt is
  1 AP per delivery (any number of points), once per leader per turn;
  training +1 ML (at most 9) once per leader per turn (14.52 is missing);
  entrenching raises the hex's level by 1, once per hex per turn (14.8x
  missing: no cap).  Detachments use the stand-in Detachment Chart, made in
  the ordering leader's box.
* 7.34: replacements and ammo only for leaders whose force was in
  communication and in full supply at this turn's Supply Recheck.  A
  replacement step restores one step of a unit in a leader's box, an
  eliminated one included (it comes back reduced), up to its printed steps.
* 3.41 / 4.32(2): relieving and appointing in the Administration Sequence
  cost no WEP; with ``ordered_by`` an army commander (active, the box in his
  command range) pays 1 AP (3.31b).  The appointee comes from the pool (or is
  an unemployed leader in the hex), is active, and takes over the box: its
  units, SLs, wagons, artillery and ASP.  A relieved leader goes to the
  pool.  A leader with units in his box is relieved only by naming his
  successor.  An army commander is replaced only by the WDO of 3.41(3).
* 3.41a: the COS appointment is a WDO and counts towards the one-a-turn
  limit; the limit counts WDOs of the whole turn (impulses included).
* 3.41(4) remove: the leader goes to the pool; his units stay in the hex,
  unled (3.23b is the player's to fix); his SLs move up to his superior.
* 3.32: the COS leaves the map (or the pool) for the army commander's Status
  box; eligible with 2 stars or more (brevet included) and no units or SLs.
  His AP are added to the army commander's at each AP reset (4.4), less 1
  in 1861 and 1862 scenarios (3.32c), not on the turn he is appointed.
  A COS is not paid (4.25 counts leaders on the map or in boxes).
* 3.53-3.55 (:func:`ml_change`): combat victory and weather change every
  leader of the force (OC and SLs); training the leader himself; failed
  attack checks, retreats, failed morale checks and voluntary reductions the
  force's OC only (an SL may not reduce voluntarily).  ML stays in 0-9.
* 4.4 / 10.67a / 8.13: at the end of the turn wounds heal one level (the rule
  says "in the Administration Sequence": nothing there depends on it, so
  it is done just before the AP reset), then every leader's AP become the AR
  of the side his counter shows, less his wound, plus his COS's.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Callable, Iterable, Mapping

from ..base import Problem
from . import forces as fc
from . import model
from . import supply as sp
from . import weather as wx
from .forced_march import Change, Work, apply_changes, plan_step_losses, rating, send_to_pool
from .imc import DRM, deactivation

SIDES = ("union", "confederate")
BURN_ON = 6                      # 13.11, 13.12: only a 6
BRIGADES_PER_WEP = 2             # 13.13
FORAGE_MONTHS = (6, 7, 8, 9)     # 13.21: June to September
WDO_COST = 10                    # 3.41a
WDO_PER_TURN = 1                 # 3.41a
COS_MIN_STARS = 2                # 3.32
COS_EARLY_YEARS = (1861, 1862)   # 3.32c
NO_LINE_DRM = 4                  # 7.12b
LEADERS_FOR_ATTRITION = 3        # 4.31
ML_MIN, ML_MAX = 0, 9            # 3.51
ARMY_MIN_STARS = 3               # 3.31
STATIONS = ("town", "major_city")
RAIL = "rail"
MAJOR_RIVER, BRIDGE, TOWN, MAJOR_CITY, VILLAGE, CLEAR = (
    "major_river", "bridge", "town", "major_city", "village", "clear")

STEPS = (
    ("destruction", "13.1"),
    ("foraging", "13.2"),
    ("purchase", "13.0"),              # contents not in the text
    ("income", "4.31"),
    ("supply_recheck", "4.31, 13.0"),
    ("administration", "4.32"),
    ("naval", "4.33"),                 # Union only; not in this module
    ("end_of_turn", "4.4"),
)


# --------------------------------------------------------------------------
# results


@dataclass
class Action:
    """What one order (or one automatic effect) did."""

    kind: str
    side: str
    leader: str | None = None
    target: str | None = None
    ap: int = 0
    wep: int = 0                     # + gained, - spent or lost (this side's, unless ``wep_side``)
    wep_side: str | None = None
    rolls: list[int] = field(default_factory=list)
    success: bool | None = None
    rule: str = ""
    why: str = ""


@dataclass
class StepResult:
    """One step of the Reorganization Segment for one side."""

    step: str
    side: str | None
    actions: list[Action] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    rule: str = ""
    why: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        head = f"{self.step} ({self.side or 'both sides'}, {self.rule}): {self.why}"
        return [head] + [f"  {a.why}" for a in self.actions] + [f"  illegal: {p.message} ({p.rule})"
                                                                for p in self.problems]


def apply_step(state: dict, result: StepResult) -> None:
    """Fold a legal step's changes into the state."""
    if result.problems:
        raise ValueError(f"cannot apply the illegal {result.step} orders: "
                         + "; ".join(p.message for p in result.problems))
    apply_changes(state, result.changes)


def _refused(step: str, side: str, problems: list[Problem], rule: str) -> StepResult:
    return StepResult(step, side, [], problems, [], rule,
                      "refused, nothing done: " + "; ".join(p.message for p in problems))


def _summary(actions: list[Action], nothing: str) -> str:
    return "; ".join(a.why for a in actions) if actions else nothing


# --------------------------------------------------------------------------
# questions about the state


def turn_of(state: dict) -> int:
    return int(state.get("turn", 1) or 1)


def calendar_entry(state: dict) -> dict:
    cal = state.get("calendar") or []
    t = turn_of(state)
    return cal[t - 1] if 0 < t <= len(cal) else {}


def month_of(state: dict) -> int | None:
    return calendar_entry(state).get("month", state.get("month"))


def year_of(state: dict) -> int | None:
    return calendar_entry(state).get("year", state.get("year"))


def gone(leader: dict) -> bool:
    """Killed, captured or removed: out of the game."""
    return bool(leader.get("killed") or leader.get("captured") or leader.get("removed"))


def reorg(state: dict) -> dict:
    """This turn's reorganization records (read only)."""
    return (state.get("current") or {}).get("reorganization") or {}


def hex_units(state: dict, label: str, side: str) -> list[str]:
    """Living combat units of ``side`` in hex ``label``: in the boxes of its forces there, and unled."""
    out: list[str] = []
    for f in model.forces_in_hex(state, label, side):
        out += [u for u in model.units_of(state, f) if u not in out]
    return out


def _leader_problems(state: dict, side: str, lid, path: list, rule: str, *, active: bool = False,
                     on_map: bool = True) -> list[Problem]:
    if not isinstance(lid, str) or lid not in state["leaders"]:
        return [Problem(f"{lid!r} is not a leader", rule, path)]
    ld = state["leaders"][lid]
    if ld["side"] != side:
        return [Problem(f"{lid} is not one of your leaders", rule, path)]
    if gone(ld) or ld.get("pool") or ld.get("cos_of"):
        return [Problem(f"{lid} is not on the map or in a box", rule, path)]
    if on_map and not fc.in_service(ld):
        return [Problem(f"{lid} is not on the map or in a box", rule, path)]
    if active and not ld.get("active"):
        return [Problem(f"{lid} is inactive: only active leaders may do this (8.1)", rule, path)]
    return []


def _must_be_oc(state: dict, side: str, lid: str, path: list, rule: str) -> list[Problem]:
    """13.1: the order is the OC's of the stack in his hex."""
    here = state["leaders"][lid].get("hex")
    if not here:
        return [Problem(f"{lid} is not on the map", rule, path)]
    oc = fc.hex_command(state, here, side).oc
    if oc != lid:
        return [Problem(f"{lid} is not the OC of the stack in {here} ({oc} is): the OC acts and pays", rule, path)]
    return []


class _AP:
    """AP reserved by the orders of one step, checked against what each leader has."""

    def __init__(self, state: dict):
        self.state = state
        self.due: dict[str, int] = {}

    def take(self, lid: str, n: int, path: list, rule: str, what: str) -> list[Problem]:
        have = int(self.state["leaders"][lid].get("ap", 0))
        if self.due.get(lid, 0) + n > have:
            return [Problem(f"{lid} has {have} AP; {what} needs {n} more than the {self.due.get(lid, 0)} "
                            "already ordered", "3.24", path)]
        self.due[lid] = self.due.get(lid, 0) + n
        return []


def _wep_change(work: Work, side: str, amount: int) -> int:
    """Add ``amount`` WEP (never below 0, 3.16); returns the change actually made."""
    wep = work.state.setdefault("wep", {})
    before = int(wep.get(side, 0))
    after = max(0, before + amount)
    work.set(("wep", side), after)
    return after - before


def marked(state: dict, key: str) -> set[str]:
    """Labels in a marker record (``burned_bridges``, ``devastated``): a mapping or a list."""
    return set(map(str, state.get(key) or ()))


def _mark(work: Work, key: str, label: str, value: dict) -> None:
    raw = work.state.get(key)
    if isinstance(raw, list):           # an old list record: turn it into the mapping first
        work.set((key,), {str(x): {} for x in raw})
    work.set((key, label), value)


def _record(work: Work, key: str, side: str | None, value: Any) -> None:
    """Append ``value`` to this turn's record current.reorganization[key][side] (or [key] without side)."""
    rec = reorg(work.state)
    if side is None:
        cur = list(rec.get(key, []))
        cur.append(value)
        work.set(("current", "reorganization", key), cur)
    else:
        cur = list((rec.get(key) or {}).get(side, []))
        cur.append(value)
        work.set(("current", "reorganization", key, side), cur)


def _recorded(state: dict, key: str, side: str | None = None) -> list:
    rec = reorg(state).get(key)
    if rec is None:
        return []
    return list(rec.get(side, [])) if side is not None else list(rec)


def _label_of_side(hexmap, raw) -> tuple[Any, str] | tuple[None, str]:
    try:
        s = hexmap.grid.parse_hexside(str(raw))
    except Exception as e:      # InvalidInput, ValueError
        return None, str(e)
    return s, hexmap.grid.side_label(s)


def landing_hexes(state: dict) -> set[str]:
    """Hexes of Union Naval Landings (``state["landings"]``: ids to ``{hex}``, or a list of hexes)."""
    raw = state.get("landings") or {}
    items = raw.values() if isinstance(raw, Mapping) else raw
    out = set()
    for x in items:
        out.add(str(x["hex"]) if isinstance(x, Mapping) else str(x))
    return out


def brigades_in(state: dict, label: str, side: str) -> list[str]:
    """13.13: living infantry and cavalry units of brigade size of ``side`` in ``label``."""
    return [u for u in hex_units(state, label, side)
            if state["units"][u].get("size") == "brigade" and state["units"][u]["arm"] in ("infantry", "cavalry")]


# --------------------------------------------------------------------------
# 13.1 destruction


TARGETS = ("bridge", "town", "landing")


def check_destruction(state: dict, side: str, orders: Mapping | None, hexmap) -> list[Problem]:
    """13.1-13.13: everything wrong with a side's destruction orders (no dice)."""
    return _destruction_plan(state, side, orders, hexmap)[1]


def _destruction_plan(state: dict, side: str, orders: Mapping | None, hexmap):
    items = list((orders or {}).get("destruction") or [])
    plan: list[dict] = []
    problems: list[Problem] = []
    ap = _AP(state)
    burned = marked(state, "burned_bridges")
    devastated = marked(state, "devastated")
    raided = set(reorg(state).get("raided") or {})
    for i, o in enumerate(items):
        path = ["destruction", i]
        if not isinstance(o, Mapping):
            problems.append(Problem("each destruction order is a mapping {leader, bridge|town|landing, attempts}",
                                    "13.1", path))
            continue
        kinds = [k for k in TARGETS if k in o]
        if len(kinds) != 1:
            problems.append(Problem("name exactly one target: bridge (a hexside), town or landing (a hex)",
                                    "13.1", path))
            continue
        kind = kinds[0]
        lid = o.get("leader")
        ps = _leader_problems(state, side, lid, path + ["leader"], "13.1", active=True)
        if ps:
            problems += ps
            continue
        ps = _must_be_oc(state, side, lid, path + ["leader"], "13.1")
        if ps:
            problems += ps
            continue
        here = state["leaders"][lid]["hex"]
        attempts = o.get("attempts", 1)
        if kind == "landing":
            attempts = 1
        if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
            problems.append(Problem("attempts is a whole number, at least 1", "13.1", path + ["attempts"]))
            continue
        target = o[kind]
        if kind == "bridge":
            s, label = _label_of_side(hexmap, target)
            if s is None:
                problems.append(Problem(f"{target!r} is not a hexside of this map: {label}", "13.11",
                                        path + ["bridge"]))
                continue
            feats = set(hexmap.side_features(s, effective=False))
            if not {MAJOR_RIVER, BRIDGE} <= feats:
                problems.append(Problem(f"{label} has no bridge over a major river", "13.11", path + ["bridge"]))
                continue
            if label in burned:
                problems.append(Problem(f"the bridge at {label} is already burned", "13.11", path + ["bridge"]))
                continue
            if hexmap.parse(here) not in s.hexes:
                problems.append(Problem(f"{lid} in {here} is not at either end of the bridge {label}", "13.11",
                                        path + ["leader"]))
                continue
            if not any(state["units"][u]["arm"] == "cavalry" for u in hex_units(state, here, side)):
                problems.append(Problem(f"the stack in {here} has no cavalry unit: burning a bridge needs one",
                                        "13.11", path))
                continue
            target = label
            rule = "13.11"
        elif kind == "town":
            target = str(target)
            try:
                h = hexmap.parse(target)
            except Exception:
                problems.append(Problem(f"{target!r} is not a hex of this map", "13.12", path + ["town"]))
                continue
            feats = set(hexmap.features(h))
            if target != here:
                problems.append(Problem(f"{lid} is in {here}, not in the town {target}: the OC in the town burns it",
                                        "13.12", path + ["town"]))
                continue
            if TOWN not in feats or target in devastated:
                why = ("major cities cannot be burned" if MAJOR_CITY in feats else
                       "villages cannot be burned" if VILLAGE in feats else
                       "it is already devastated" if target in devastated else "there is no town there")
                problems.append(Problem(f"{target}: {why}", "13.12", path + ["town"]))
                continue
            rule = "13.12"
        else:
            target = str(target)
            rule = "13.13"
            if side != "confederate":
                problems.append(Problem("only the Confederates raid Union Naval Landings", "13.13", path))
                continue
            if target not in landing_hexes(state):
                problems.append(Problem(f"there is no Union Naval Landing in {target}", "13.13", path + ["landing"]))
                continue
            if target != here:
                problems.append(Problem(f"{lid} is in {here}, not in the landing hex {target}", "13.13",
                                        path + ["landing"]))
                continue
            if target in raided:
                problems.append(Problem(f"the landing in {target} has already been raided this turn", "13.13",
                                        path + ["landing"]))
                continue
            raided.add(target)
        ps = ap.take(lid, attempts, path + ["attempts"], rule, f"{attempts} attempt(s) at 1 AP each")
        if ps:
            problems += ps
            continue
        plan.append({"kind": kind, "leader": lid, "target": target, "attempts": attempts, "rule": rule, "hex": here})
    return plan, problems


def destruction(state: dict, side: str, orders: Mapping | None, dice, hexmap) -> StepResult:
    """13.1-13.13 (H-29): burn bridges and towns (1 AP per attempt, 6 only), raid Union landings."""
    plan, problems = _destruction_plan(state, side, orders, hexmap)
    if problems:
        return _refused("destruction", side, problems, "13.1")
    work = Work(state)
    actions: list[Action] = []
    for p in plan:
        lid, target, kind = p["leader"], p["target"], p["kind"]
        if kind == "landing":
            n = len(brigades_in(work.state, target, side))
            loss = n // BRIGADES_PER_WEP
            _spend_ap(work, lid, 1)
            got = _wep_change(work, "union", -loss)
            work.set(("current", "reorganization", "raided", target), n)
            actions.append(Action("raid", side, lid, target, 1, got, "union", [], True, "13.13",
                                  f"{lid} raids the Union landing in {target} (1 AP): {n} Confederate brigade(s), "
                                  f"1 WEP per {BRIGADES_PER_WEP}: Union WEP {got:+d}; the Confederates gain nothing"))
            continue
        rolls = []
        success = False
        for _ in range(p["attempts"]):
            _spend_ap(work, lid, 1)
            r = dice.d6(f"burn {kind} {target} ({lid})", by=side)
            rolls.append(r)
            if r == BURN_ON:
                success = True
                break
        if success:
            key = "burned_bridges" if kind == "bridge" else "devastated"
            _mark(work, key, target, {"side": side, "turn": turn_of(state)})
        what = "the bridge at" if kind == "bridge" else "the town of"
        actions.append(Action(f"burn_{kind}", side, lid, target, len(rolls), 0, None, rolls, success, p["rule"],
                              f"{lid} tries to burn {what} {target}: rolled {', '.join(map(str, rolls))} "
                              f"({len(rolls)} AP): " + ("a 6, burned" + (" (Bridge Burned marker)" if kind == "bridge"
                                                                          else " (Devastation marker)")
                                                        if success else "no 6, still standing")))
    return StepResult("destruction", side, actions, [], work.changes, "13.1",
                      _summary(actions, "no destruction ordered"))


def _spend_ap(work: Work, lid: str, n: int) -> None:
    ap = int(work.state["leaders"][lid].get("ap", 0))
    work.set(("leaders", lid, "ap"), max(0, ap - n))


# --------------------------------------------------------------------------
# 13.2 foraging


@dataclass(frozen=True)
class ForagingChart:
    columns: tuple[int, ...]
    table: dict
    stand_in: bool
    note: str

    @classmethod
    def load(cls, path: str | None = None) -> "ForagingChart":
        return _load_foraging(path)

    def lookup(self, clear: int, roll: int):
        col = self.columns.index(min(max(clear, self.columns[0]), self.columns[-1]))
        return self.table[min(max(roll, min(self.table)), max(self.table))][col]


@cache
def _load_foraging(path: str | None) -> ForagingChart:
    from ...paths import games_dir
    from ...yamlio import load_data_fast

    d = load_data_fast(path or games_dir() / "heartland" / "charts" / "foraging.yaml")
    return ForagingChart(tuple(int(c) for c in d["columns"]), {int(r): tuple(v) for r, v in d["table"].items()},
                         bool(d.get("stand_in")), str(d.get("note", "")))


def is_town(state: dict, hexmap, h) -> bool:
    """A town hex whose town has not been burned (13.12)."""
    return TOWN in hexmap.features(h) and hexmap.label(h) not in marked(state, "devastated")


def clear_hexes(state: dict, hexmap, label: str) -> list[str]:
    """13.22: the clear hexes among ``label`` and its six neighbours (on the map); towns count as clear."""
    h = hexmap.parse(label)
    out = []
    for x in [h] + [n for n in h.neighbours() if n in hexmap.grid]:
        if hexmap.terrain(x).name == CLEAR or is_town(state, hexmap, x):
            out.append(hexmap.label(x))
    return out


def north_of_ohio(state: dict, label: str) -> bool:
    """13.22: is ``label`` north of the Ohio River (``state["north_of_ohio"]``: hexes, or true)?"""
    v = state.get("north_of_ohio")
    if v is True:
        return True
    return bool(v) and label in set(map(str, v))


def check_foraging(state: dict, side: str, orders: Mapping | None, hexmap) -> list[Problem]:
    return _foraging_plan(state, side, orders, hexmap)[1]


def _foraging_plan(state: dict, side: str, orders: Mapping | None, hexmap):
    items = list((orders or {}).get("foraging") or [])
    plan, problems = [], []
    if not items:
        return plan, problems
    month = month_of(state)
    if month not in FORAGE_MONTHS:
        return [], [Problem(f"foraging is possible only in June to September (this turn's month: {month})",
                            "13.21", ["foraging"])]
    if state.get("foraging", True) is False:
        return [], [Problem("this scenario does not allow foraging", "4.31", ["foraging"])]
    ap = _AP(state)
    done = set(_recorded(state, "foraged", side))
    for i, o in enumerate(items):
        path = ["foraging", i]
        lid = o.get("leader") if isinstance(o, Mapping) else o
        ps = _leader_problems(state, side, lid, path + ["leader"], "13.21", active=True)
        ps = ps or _must_be_oc(state, side, lid, path + ["leader"], "13.21")
        if ps:
            problems += ps
            continue
        here = state["leaders"][lid]["hex"]
        h = hexmap.parse(here)
        if not (is_town(state, hexmap, h) or MAJOR_CITY in hexmap.features(h)):
            problems.append(Problem(f"{lid} is in {here}, which is not a town or major city", "13.21", path))
            continue
        if here in done:
            problems.append(Problem(f"the stack in {here} has already foraged this turn", "13.21", path))
            continue
        ps = ap.take(lid, 1, path, "3.24a", "foraging")
        if ps:
            problems += ps
            continue
        done.add(here)
        plan.append({"leader": lid, "hex": here})
    return plan, problems


def foraging(state: dict, side: str, orders: Mapping | None, dice, hexmap, *,
             chart: ForagingChart | None = None) -> StepResult:
    """13.2-13.22: forage for an Own Use marker or WEP (doubled for Confederates north of the Ohio)."""
    plan, problems = _foraging_plan(state, side, orders, hexmap)
    if problems:
        return _refused("foraging", side, problems, "13.2")
    chart = chart or ForagingChart.load()
    work = Work(state)
    actions = []
    for p in plan:
        lid, here = p["leader"], p["hex"]
        clear = clear_hexes(work.state, hexmap, here)
        _spend_ap(work, lid, 1)
        roll = dice.d6(f"foraging {here} ({lid})", by=side)
        res = chart.lookup(len(clear), roll)
        _record(work, "foraged", side, here)
        base = f"{lid} forages in {here} (1 AP): {len(clear)} clear hex(es), rolled {roll} -> {res}"
        tag = " [stand-in Foraging Table]" if chart.stand_in else ""
        if res == "OU":
            work.set(("leaders", lid, "own_use"), turn_of(state) + 1)
            actions.append(Action("forage", side, lid, here, 1, 0, None, [roll], True, "13.22",
                                  base + f": an Own Use marker on {lid}, to spend in one impulse of turn "
                                         f"{turn_of(state) + 1} (7.35a)" + tag))
        elif isinstance(res, int) and res > 0:
            double = side == "confederate" and north_of_ohio(state, here)
            got = _wep_change(work, side, res * (2 if double else 1))
            actions.append(Action("forage", side, lid, here, 1, got, None, [roll], True, "13.22",
                                  base + f": {got} WEP" + (" (doubled north of the Ohio)" if double else "") + tag))
        else:
            actions.append(Action("forage", side, lid, here, 1, 0, None, [roll], False, "13.22",
                                  base + ": nothing found" + tag))
    return StepResult("foraging", side, actions, [], work.changes, "13.2", _summary(actions, "no foraging"))


# --------------------------------------------------------------------------
# 4.31 income


def income(state: dict, side: str, orders: Mapping | None = None, hexmap=None) -> StepResult:
    """4.31: WEP from the friendly major cities (``state["income"]``; 0 for a city not listed)."""
    work = Work(state)
    control = state.get("control") or {}
    enemy = model.occupied_hexes(state, model.other_side(side))
    mine = model.occupied_hexes(state, side)
    total, parts = 0, []
    for city, entry in sorted((state.get("income") or {}).items()):
        city = str(city)
        amount = int(entry.get("wep", 0) if isinstance(entry, Mapping) else entry or 0)
        owner = control.get(city) or (entry.get("owner") if isinstance(entry, Mapping) else None)
        if owner != side or amount <= 0:
            continue
        if city in enemy and city not in mine:
            parts.append(f"{city} held by enemy units: nothing")
            continue
        total += amount
        parts.append(f"{city} {amount}")
    actions = []
    if total:
        got = _wep_change(work, side, total)
        actions.append(Action("income", side, None, None, 0, got, None, [], True, "4.31",
                              f"income from friendly major cities: {', '.join(parts)} = {got} WEP"))
    why = actions[0].why if actions else ("no income: " + ", ".join(parts) if parts else
                                          "no friendly major city pays income")
    return StepResult("income", side, actions, [], work.changes, "4.31", why)


# --------------------------------------------------------------------------
# 4.31 / 7.31a the supply recheck and attrition


@dataclass(frozen=True)
class AttritionChart:
    rows: tuple[int, ...]
    table: dict
    supply_drm: dict
    stand_in: bool
    note: str

    @classmethod
    def load(cls, path: str | None = None) -> "AttritionChart":
        return _load_attrition(path)

    def lookup(self, modified: int) -> tuple[int, bool]:
        row = self.table[min(max(modified, self.rows[0]), self.rows[-1])]
        return int(row["steps"]), bool(row["deactivate"])


@cache
def _load_attrition(path: str | None) -> AttritionChart:
    from ...paths import games_dir
    from ...yamlio import load_data_fast

    d = load_data_fast(path or games_dir() / "heartland" / "charts" / "attrition.yaml")
    return AttritionChart(tuple(int(r) for r in d["rows"]), {int(k): v for k, v in d["table"].items()},
                          {str(k): int(v) for k, v in d["supply_drm"].items()}, bool(d.get("stand_in")),
                          str(d.get("note", "")))


@dataclass
class AttritionCheck:
    """One force's attrition check (4.31, 7.31a)."""

    force: str
    oc: str | None
    reasons: list[str]
    supply: str
    drms: list[DRM] = field(default_factory=list)
    roll: int | None = None
    modified: int | None = None
    steps: int = 0
    deactivate: bool = False
    losses: list = field(default_factory=list)
    to_pool: list[str] = field(default_factory=list)
    deactivated: str | None = None
    rule: str = "4.31, 7.31a"
    why: str = ""


@dataclass
class DepotLoss:
    """7.13: a cut railroad depot loses a capacity level."""

    depot: str
    before: int
    after: int
    rule: str = "7.13"
    why: str = ""

    @property
    def removed(self) -> bool:
        return self.after <= 0


@dataclass
class Recheck(StepResult):
    """The Supply Recheck step for one side: supply, attrition checks, depot losses."""

    supply: sp.SideSupply | None = None
    checks: list[AttritionCheck] = field(default_factory=list)
    depots: list[DepotLoss] = field(default_factory=list)


def attrition_reasons(state: dict, fs: sp.ForceSupply) -> list[str]:
    """Why a force must check attrition (4.31, 7.31a); empty when it need not."""
    out = []
    if not fs.in_communication:
        out.append("out of communication (7.31a)")
    if fs.nearest is None:
        out.append("cannot trace a supply line (4.31)")
    if not model.is_unled(fs.force) and len(model.force_leaders(state, fs.force)) >= LEADERS_FOR_ATTRITION:
        out.append(f"{len(model.force_leaders(state, fs.force))} leaders in the force (4.31)")
    return out


def _on_rail_station(hexmap, label: str) -> bool:
    h = hexmap.parse(label)
    if not set(hexmap.features(h)) & set(STATIONS):
        return False
    return any(RAIL in hexmap.lines_between(h, n) for n in h.neighbours() if n in hexmap.grid)


def check_supply_recheck(state: dict, side: str, orders: Mapping | None, hexmap, *, supply=None,
                         **supply_kw) -> list[Problem]:
    return _recheck_plan(state, side, orders, hexmap, supply, supply_kw)[1]


def _recheck_plan(state, side, orders, hexmap, supply, supply_kw):
    o = (orders or {}).get("attrition") or {}
    problems: list[Problem] = []
    if not isinstance(o, Mapping):
        return None, [Problem("attrition orders are a mapping {emergency, ml, losses}", "4.31", ["attrition"])]
    emergency = o.get("emergency") or {}
    if supply is None:
        kw = {"rail_cuts": state.get("rail_cuts") or ()}
        kw.update(supply_kw)
        supply = sp.supply_status(state, side, hexmap, emergency=emergency, **kw)
    for p in supply.problems:
        problems.append(Problem(p.message, p.rule, ["attrition"] + list(p.path)))
    checking = {f for f, fs in supply.forces.items() if attrition_reasons(state, fs)}
    for key in ("ml", "losses"):
        for f, v in (o.get(key) or {}).items():
            path = ["attrition", key, f]
            if f not in supply.forces:
                problems.append(Problem(f"{f} is not one of your forces on the map", "4.31", path))
                continue
            if f not in checking:
                problems.append(Problem(f"{f} does not check attrition this turn", "4.31", path))
                continue
            if key == "ml":
                if model.is_unled(f):
                    problems.append(Problem("an unled force has no OC to give up ML", "3.54c", path))
                    continue
                oc = fc.force_oc(state, f)
                if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                    problems.append(Problem("ML levels given up: a whole number, 0 or more", "3.54c", path))
                elif v > int(state["leaders"][oc].get("ml", 0)):
                    problems.append(Problem(f"{oc} has ML {state['leaders'][oc].get('ml', 0)}; he cannot give up "
                                            f"{v}", "3.54c", path))
            else:
                units = model.units_of(state, f)
                for j, u in enumerate(v if isinstance(v, list) else [v]):
                    if u not in units:
                        problems.append(Problem(f"{u} is not a living unit of {f}", "4.31", path + [j]))
    return supply, problems


def supply_recheck(state: dict, side: str, orders: Mapping | None, dice, hexmap, *, supply=None,
                   chart: AttritionChart | None = None, weather: str | None = None, **supply_kw) -> Recheck:
    """4.31, 7.31a, 7.13: recheck supply, roll attrition for the forces that must, and wear down cut
    railroad depots.  ``supply`` may be given (a :class:`.supply.SideSupply`); otherwise it is
    computed with the orders' emergency supply (7.35)."""
    supply, problems = _recheck_plan(state, side, orders, hexmap, supply, supply_kw)
    if problems:
        r = Recheck("supply_recheck", side, [], problems, [], "4.31", "refused, nothing done: "
                    + "; ".join(p.message for p in problems))
        return r
    chart = chart or AttritionChart.load()
    weather = weather or wx.current_weather(state)
    o = (orders or {}).get("attrition") or {}
    emergency = set((o.get("emergency") or {}).keys())
    work = Work(state)
    result = Recheck("supply_recheck", side, rule="4.31, 7.31a", supply=supply)
    # the record the Administration Sequence reads (7.34)
    work.set(("current", "reorganization", "supply", side),
             {f: {"state": fs.state.value, "in_communication": fs.in_communication, "line": fs.nearest is not None}
              for f, fs in supply.forces.items()})
    for f in sorted(supply.forces):
        fs = supply.forces[f]
        reasons = attrition_reasons(state, fs)
        if not reasons:
            continue
        oc = None if model.is_unled(f) else fc.force_oc(state, f)
        chk = AttritionCheck(f, oc, reasons, fs.state.value)
        served = f in emergency and fs.emergency is not None
        if fs.nearest is None and not served:
            chk.drms.append(DRM(NO_LINE_DRM, "no supply line", "7.12b"))
        sdrm = chart.supply_drm.get(fs.state.value, 0)
        if served:
            chk.drms.append(DRM(0, f"emergency supply from {fs.emergency}", "7.35"))
        elif sdrm:
            chk.drms.append(DRM(sdrm, f"{fs.state.value} supply", "7.31a"))
        w = wx.attrition_drm(weather)
        if w:
            chk.drms.append(DRM(w, weather, wx.weather_rule(weather)))
        ml = int((o.get("ml") or {}).get(f, 0) or 0)
        if ml:
            chk.drms.append(DRM(-ml, f"{oc} gives up {ml} ML", "3.54c"))
            work.set(("leaders", oc, "ml"), int(work.state["leaders"][oc]["ml"]) - ml)
        chk.roll = dice.d6(f"attrition {f}", by=side, private=True)
        chk.modified = chk.roll + sum(d.value for d in chk.drms)
        chk.steps, chk.deactivate = chart.lookup(chk.modified)
        chosen = (o.get("losses") or {}).get(f) or []
        if chk.steps:
            sl = plan_step_losses(work.state, f, chk.steps, chosen if isinstance(chosen, list) else [chosen],
                                  rule="4.31", work=work)
            chk.losses, chk.to_pool = sl.losses, sl.to_pool
            loss_text = sl.why
        else:
            loss_text = "no step loss"
        if chk.deactivate and oc and not work.state["leaders"][oc].get("pool") \
                and work.state["leaders"][oc].get("active"):
            d = deactivation(work.state, oc, cause="Attrition Table")
            work.set(("leaders", oc, "active"), False)
            work.set(("leaders", oc, "ap"), d.ap_after)
            chk.deactivated = oc
        drm_text = "".join(f" {d.value:+d} ({d.reason})" for d in chk.drms)
        chk.why = (f"{f} checks attrition ({'; '.join(reasons)}): rolled {chk.roll}{drm_text} = {chk.modified}: "
                   f"{loss_text}" + (f"; {oc} is deactivated (8.11)" if chk.deactivated else "")
                   + (" [stand-in Attrition Table]" if chart.stand_in else ""))
        result.checks.append(chk)
        result.actions.append(Action("attrition", side, oc, f, 0, 0, None, [chk.roll], None, chk.rule, chk.why))
    # 7.35: the wagons and depots consumed by emergency supply are removed
    for uid in supply.consumed:
        work.delete(("logistics", uid))
        result.actions.append(Action("emergency", side, None, uid, 0, 0, None, [], None, "7.35",
                                     f"{uid} is consumed for emergency supply and removed (7.35)"))
    # 7.13: cut railroad depots lose a capacity level
    for uid, u in sorted(supply.units.items()):
        if u.kind != "depot" or u.in_supply or not _on_rail_station(hexmap, u.hex):
            continue
        before = int(state["logistics"][uid].get("capacity", 0))
        after = before - 1
        loss = DepotLoss(uid, before, after)
        if after <= 0:
            work.delete(("logistics", uid))
            loss.why = f"railroad depot {uid} in {u.hex} is cut off: capacity {before} -> removed (7.13)"
        else:
            work.set(("logistics", uid, "capacity"), after)
            loss.why = f"railroad depot {uid} in {u.hex} is cut off: capacity {before} -> {after} (7.13)"
        result.depots.append(loss)
        result.actions.append(Action("depot", side, None, uid, 0, 0, None, [], None, "7.13", loss.why))
    result.changes = work.changes
    c = supply.counts()
    result.why = (f"{c['in_communication']} force(s) in communication, {len(supply.forces) - c['in_communication']} "
                  f"out; {len(result.checks)} attrition check(s)"
                  + (f"; {len(result.depots)} cut railroad depot(s)" if result.depots else ""))
    return result


# --------------------------------------------------------------------------
# 3.41 War Department Orders


def wdo_used(state: dict, side: str) -> int:
    """Limited WDOs ``side`` has used this turn (3.41a): ``current.wdo`` {side: n}, or a
    ``current.wdo_used`` mapping {side: bool}.  (A bare ``wdo_used: true`` names no side and is
    not counted.)"""
    cur = state.get("current") or {}
    n = int((cur.get("wdo") or {}).get(side, 0))
    legacy = cur.get("wdo_used")
    if isinstance(legacy, Mapping) and legacy.get(side):
        n = max(n, int(legacy[side]) if not isinstance(legacy[side], bool) else 1)
    return n


def wdo_problems(state: dict, side: str, *, for_death: bool = False, extra_used: int = 0,
                 extra_wep: int = 0, path: list | None = None) -> list[Problem]:
    """3.41a: a WDO costs 10 WEP; at most 1 a turn, except those replacing a killed leader."""
    path = path or []
    out = []
    if not for_death and wdo_used(state, side) + extra_used >= WDO_PER_TURN:
        out.append(Problem(f"a War Department Order was already used this turn (at most {WDO_PER_TURN} a turn, "
                           "except to replace a killed leader)", "3.41a", path))
    wep = int((state.get("wep") or {}).get(side, 0))
    if wep - extra_wep < WDO_COST:
        out.append(Problem(f"a War Department Order costs {WDO_COST} WEP; {side} has {wep - extra_wep} left",
                           "3.41a", path))
    return out


# --------------------------------------------------------------------------
# 4.32 administration


@cache
def _detachment_chart() -> dict:
    from ...paths import games_dir
    from ...yamlio import load_data_fast

    return load_data_fast(games_dir() / "heartland" / "charts" / "detachment.yaml")


def detachment_yield(unit: dict, by: str) -> int:
    """8.51: detachments a unit yields by ``step_loss`` or ``removal`` (stand-in Detachment Chart)."""
    for row in _detachment_chart()["yields"]:
        if row["arm"] == unit["arm"] and row["size"] == unit.get("size"):
            return int(row[by])
    return 0


class _Admin:
    """Administration orders checked and carried out one by one on a working copy."""

    def __init__(self, state: dict, side: str, hexmap, supply):
        self.work = Work(state)
        self.side = side
        self.hexmap = hexmap
        self.supply = supply
        self.actions: list[Action] = []
        self.problems: list[Problem] = []
        self.wdo = 0
        self.wep_spent = 0

    @property
    def st(self) -> dict:
        return self.work.state

    # helpers
    def bad(self, message: str, rule: str, path: list) -> None:
        self.problems.append(Problem(message, rule, path))

    def leader_ok(self, lid, path, rule, **kw) -> bool:
        ps = _leader_problems(self.st, self.side, lid, path, rule, **kw)
        self.problems += ps
        return not ps

    def pay_ap(self, lid: str, n: int, path: list, what: str) -> bool:
        have = int(self.st["leaders"][lid].get("ap", 0))
        if n > have:
            self.bad(f"{lid} has {have} AP left; {what} costs {n}", "3.24", path)
            return False
        self.work.set(("leaders", lid, "ap"), have - n)
        return True

    def pay_wep(self, n: int, path: list, what: str) -> bool:
        wep = int((self.st.get("wep") or {}).get(self.side, 0))
        if n > wep:
            self.bad(f"{what} costs {n} WEP; {self.side} has {wep}", "4.32", path)
            return False
        self.work.set(("wep", self.side), wep - n)
        return True

    def full_supply(self, lid: str, path: list, what: str) -> bool:
        """7.34: the leader's force was in communication and in full supply at the recheck."""
        force = model.top_of(self.st, lid)
        rec = self.supply.get(force) if self.supply is not None else None
        if rec is None:
            self.bad(f"no supply recheck of {force}'s force this turn: {what} needs an in-communication, "
                     "full-supply force (the Supply Recheck comes first, 13.0)", "7.34", path)
            return False
        if not rec.get("in_communication") or rec.get("state") != "full":
            self.bad(f"{force}'s force is not in communication and in full supply: no {what} (7.34)", "7.34", path)
            return False
        return True

    def wdo_ok(self, path: list) -> bool:
        ps = wdo_problems(self.st, self.side, extra_used=self.wdo, path=path)
        self.problems += ps
        return not ps

    def take_wdo(self, path: list, what: str) -> bool:
        if not self.wdo_ok(path):
            return False
        self.pay_wep(WDO_COST, path, what)
        self.work.set(("current", "wdo", self.side), wdo_used(self.st, self.side) + 1)
        return True

    def act(self, kind: str, leader: str | None, target: str | None, ap: int, wep: int, rule: str, why: str) -> None:
        self.actions.append(Action(kind, self.side, leader, target, ap, wep, None, [], True, rule, why))

    def stacking_new(self, label: str | None, before: list[str], path: list) -> bool:
        if not label:
            return True
        after = fc.check_hex(self.st, label, self.side).problems
        new = [p for p in after if p.message not in before]
        for p in new:
            self.bad(p.message, p.rule, path)
        return not new

    # 1) replacement steps (4.32(1), 3.24a, 7.34)
    def replacements(self, items: list) -> None:
        pool = dict(self.st.get("replacements") or {})
        for i, o in enumerate(items):
            path = ["administration", "replacements", i]
            if not isinstance(o, Mapping) or o.get("unit") not in self.st["units"]:
                self.bad("each replacement names one of your units: {unit, steps, leader}", "4.32", path)
                continue
            uid = o["unit"]
            u = self.st["units"][uid]
            n = o.get("steps", 1)
            if u["side"] != self.side:
                self.bad(f"{uid} is not one of your units", "4.32", path + ["unit"])
                continue
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                self.bad("steps is a whole number, at least 1", "4.32", path + ["steps"])
                continue
            box = u.get("leader")
            if not box or box not in self.st["leaders"] or not fc.in_service(self.st["leaders"][box]):
                self.bad(f"{uid} is not in the box of a leader on the map: only field commands take replacements",
                         "7.34", path + ["unit"])
                continue
            most = len(u.get("cf") or [0, 0])
            if u["steps"] + n > most:
                self.bad(f"{uid} has {u['steps']} of {most} steps: it cannot take {n} more", "4.32", path + ["steps"])
                continue
            have = int(pool.get(self.side, 0))
            if n > have:
                self.bad(f"{self.side} has {have} replacement steps on the Number Track; {n} asked", "4.32",
                         path + ["steps"])
                continue
            if not self.full_supply(box, path, "replacements"):
                continue
            payer = o.get("leader") or box
            if payer not in self.st["leaders"] or self.st["leaders"][payer]["side"] != self.side:
                self.bad(f"{payer!r} is not one of your leaders", "3.24", path + ["leader"])
                continue
            who, ps = fc.who_pays(self.st, box, payer, self.hexmap)
            if ps:
                self.problems += [Problem(p.message, p.rule, path + ["leader"]) for p in ps]
                continue
            before = fc.check_hex(self.st, fc.top_leader_hex(self.st, box), self.side).problems
            if not self.pay_ap(who, n, path, f"{n} replacement step(s)"):
                continue
            was = u["steps"]
            self.work.set(("units", uid, "steps"), was + n)
            pool[self.side] = have - n
            self.work.set(("replacements", self.side), have - n)
            if was == 0 and not self.stacking_new(fc.top_leader_hex(self.st, box), [p.message for p in before], path):
                continue
            self.act("replacement", who, uid, n, 0, "4.32, 3.24a",
                     f"{uid} takes {n} replacement step(s): {was} -> {was + n} ({who} pays {n} AP; "
                     f"{have - n} replacement steps left)")

    # 2) relieving and appointing (4.32(2), 3.41(2), 3.31b)
    def leaders(self, items: list) -> None:
        for i, o in enumerate(items):
            path = ["administration", "leaders", i]
            if not isinstance(o, Mapping) or not ({"relieve", "appoint"} & set(o)):
                self.bad("each order is {relieve: X} or {appoint: P, box: X}", "4.32", path)
                continue
            x = o.get("box") or o.get("relieve")
            p = o.get("appoint")
            if x not in self.st["leaders"] or self.st["leaders"][x]["side"] != self.side:
                self.bad(f"{x!r} is not one of your leaders", "4.32", path)
                continue
            xl = self.st["leaders"][x]
            if xl.get("hq"):
                self.bad(f"{x} is an army commander: a new army commander needs a War Department Order "
                         "(wdo: {army_commander: P, from: X})", "3.41", path)
                continue
            units = [u for u, r in self.st["units"].items() if r.get("leader") == x and r["steps"] > 0]
            sls = [s for s, r in self.st["leaders"].items() if r.get("superior") == x and not gone(r)]
            label = xl.get("hex") or o.get("hex")
            if p is None:
                if not fc.in_service(xl):
                    self.bad(f"{x} is not on the map or in a box", "4.32", path)
                    continue
                if units:
                    self.bad(f"{x} leads {', '.join(units)}: name his successor (appoint) to relieve him", "4.32",
                             path)
                    continue
            else:
                if p not in self.st["leaders"] or self.st["leaders"][p]["side"] != self.side:
                    self.bad(f"{p!r} is not one of your leaders", "4.32", path + ["appoint"])
                    continue
                pl = self.st["leaders"][p]
                idle = fc.in_service(pl) and pl.get("hex") == label and not model.force_units(self.st, p) \
                    and not model.subordinates(self.st, p)
                if gone(pl) or pl.get("cos_of") or not (pl.get("pool") or idle):
                    self.bad(f"{p} is neither in the Leader Pool nor an unemployed leader in {label}", "3.15",
                             path + ["appoint"])
                    continue
                if not units and not sls:
                    self.bad(f"{x}'s box holds no units and no SLs: there is nothing to take over", "4.32", path)
                    continue
                if not label:
                    self.bad(f"{x} is off the map: say where his box is (hex)", "4.32", path + ["hex"])
                    continue
            ap = 0
            boss = o.get("ordered_by")
            if boss is not None:
                if boss not in self.st["leaders"] or not self.st["leaders"][boss].get("hq") \
                        or self.st["leaders"][boss]["side"] != self.side:
                    self.bad(f"{boss!r} is not one of your army commanders", "3.31b", path + ["ordered_by"])
                    continue
                if not self.st["leaders"][boss].get("active"):
                    self.bad(f"{boss} is inactive", "8.1", path + ["ordered_by"])
                    continue
                if not fc.in_command_range(self.st, self.hexmap, boss, label):
                    self.bad(f"{label} is outside {boss}'s command range ({fc.command_range(self.st, boss)} "
                             "hexes)", "3.31b", path + ["ordered_by"])
                    continue
                if not self.pay_ap(boss, 1, path + ["ordered_by"], "replacing or relieving a leader"):
                    continue
                ap = 1
            before = [q.message for q in fc.check_hex(self.st, label, self.side).problems] if label else []
            up = xl.get("superior")
            if p is None:
                for s in sls:
                    self.work.set(("leaders", s, "superior"), up)
                send_to_pool(self.work, x, "4.32")
                self.act("relieve", x, x, ap, 0, "4.32, 3.41(2)",
                         f"{x} is relieved and goes to the Leader Pool (no WDO in the Administration Sequence)"
                         + (f"; {boss} pays 1 AP (3.31b)" if ap else ""))
                continue
            asp, art = int(xl.get("asp", 0)), int(xl.get("artillery", 0))
            for u, r in self.st["units"].items():
                if r.get("leader") == x:
                    self.work.set(("units", u, "leader"), p)
            for s in sls:
                self.work.set(("leaders", s, "superior"), p)
            for sid, s in self.st.get("logistics", {}).items():
                if s.get("leader") == x:
                    self.work.set(("logistics", sid, "leader"), p)
            if fc.in_service(xl):
                for k, v in (("pool", True), ("hex", None), ("superior", None)):
                    self.work.set(("leaders", x, k), v)
            self.work.set(("leaders", x, "asp"), 0)
            self.work.set(("leaders", x, "artillery"), 0)
            for k, v in (("pool", False), ("hex", label), ("superior", up if up and up != p else None),
                         ("active", True), ("asp", asp), ("artillery", art)):
                self.work.set(("leaders", p, k), v)
            if not self.stacking_new(label, before, path):
                continue
            self.act("appoint", p, x, ap, 0, "4.32, 3.41(2)",
                     f"{p} takes over {x}'s box in {label} ({len(units)} unit(s), {len(sls)} SL(s), artillery {art}, "
                     f"ASP {asp})" + ("; " + x + " goes to the Leader Pool" if not gone(xl) else "")
                     + " -- no WDO in the Administration Sequence" + (f"; {boss} pays 1 AP (3.31b)" if ap else ""))

    # WDOs (3.41(3), 3.41(4))
    def wdos(self, items: list) -> None:
        for i, o in enumerate(items):
            path = ["administration", "wdo", i]
            if not isinstance(o, Mapping) or not ({"remove", "army_commander"} & set(o)):
                self.bad("each WDO is {remove: L} or {army_commander: P, from: X}", "3.41", path)
                continue
            if "remove" in o:
                x = o["remove"]
                if not self.leader_ok(x, path + ["remove"], "3.41(4)"):
                    continue
                if self.st["leaders"][x].get("hq"):
                    self.bad(f"{x} is an army commander: replace him with {{army_commander: P, from: {x}}}",
                             "3.41", path)
                    continue
                if not self.take_wdo(path, "a War Department Order"):
                    continue
                xl = self.st["leaders"][x]
                here = fc.top_leader_hex(self.st, x)
                force = model.top_of(self.st, x)
                line = (self.supply or {}).get(force, {}).get("line")
                for u, r in self.st["units"].items():
                    if r.get("leader") == x and r["steps"] > 0:
                        self.work.set(("units", u, "leader"), None)
                        self.work.set(("units", u, "hex"), here)
                for s, r in self.st["leaders"].items():
                    if r.get("superior") == x:
                        self.work.set(("leaders", s, "superior"), xl.get("superior"))
                send_to_pool(self.work, x, "3.41(4)")
                self.act("wdo_remove", x, x, 0, -WDO_COST, "3.41(4)",
                         f"War Department Order ({WDO_COST} WEP): {x} is taken off the map to the Leader Pool"
                         + (" (isolated: no supply line)" if line is False else "")
                         + "; his units stay in " + str(here) + ", unled")
                continue
            p, x = o.get("army_commander"), o.get("from")
            if not self.leader_ok(p, path + ["army_commander"], "3.41(3)"):
                continue
            pl = self.st["leaders"][p]
            if model.rank(pl) < ARMY_MIN_STARS:
                self.bad(f"{p} has {model.rank(pl)} star(s): only 3- or 4-star leaders command armies", "3.31",
                         path + ["army_commander"])
                continue
            if pl.get("hq"):
                self.bad(f"{p} is already an army commander", "3.31", path + ["army_commander"])
                continue
            if x not in self.st["leaders"] or not self.st["leaders"][x].get("hq") \
                    or self.st["leaders"][x]["side"] != self.side:
                self.bad(f"{x!r} does not hold an Army HQ: name the army commander whose HQ passes to {p} "
                         "(no new armies, 3.13)", "3.13", path + ["from"])
                continue
            xl = self.st["leaders"][x]
            present = fc.in_service(xl) and not gone(xl)
            if present and fc.top_leader_hex(self.st, x) != fc.top_leader_hex(self.st, p):
                self.bad(f"{p} is not in {x}'s hex: the HQ passes only where it is", "3.41(3)", path)
                continue
            if not self.take_wdo(path, "a War Department Order"):
                continue
            self.work.set(("leaders", x, "hq"), False)
            self.work.set(("leaders", p, "hq"), True)
            self.work.set(("leaders", p, "superior"), None)
            if present:
                for s, r in self.st["leaders"].items():
                    if r.get("superior") == x and s != p:
                        self.work.set(("leaders", s, "superior"), p)
                self.work.set(("leaders", x, "superior"), p)
            cos = xl.get("cos")
            if cos:
                self.work.set(("leaders", p, "cos"), cos)
                self.work.delete(("leaders", x, "cos"))
                self.work.set(("leaders", cos, "cos_of"), p)
            self.act("wdo_army_commander", p, x, 0, -WDO_COST, "3.41(3), 3.31",
                     f"War Department Order ({WDO_COST} WEP): {p} becomes army commander in place of {x}"
                     + (f"; {x} serves under him" if present else ""))

    # 3.32 chief of staff
    def chiefs_of_staff(self, items: list) -> None:
        for i, o in enumerate(items):
            path = ["administration", "chief_of_staff", i]
            if not isinstance(o, Mapping):
                self.bad("each appointment is {leader: P, army: A}", "3.32", path)
                continue
            p, a = o.get("leader"), o.get("army")
            if a not in self.st["leaders"] or not self.st["leaders"][a].get("hq") \
                    or self.st["leaders"][a]["side"] != self.side or not fc.in_service(self.st["leaders"][a]):
                self.bad(f"{a!r} is not one of your army commanders on the map", "3.32", path + ["army"])
                continue
            if self.st["leaders"][a].get("cos"):
                self.bad(f"{a} already has a Chief of Staff ({self.st['leaders'][a]['cos']})", "3.32", path + ["army"])
                continue
            if p not in self.st["leaders"] or self.st["leaders"][p]["side"] != self.side or p == a:
                self.bad(f"{p!r} is not one of your leaders", "3.32", path + ["leader"])
                continue
            pl = self.st["leaders"][p]
            if gone(pl) or pl.get("cos_of") or pl.get("hq") or not (pl.get("pool") or fc.in_service(pl)):
                self.bad(f"{p} is not a leader on the map or in the Leader Pool free to serve", "3.32",
                         path + ["leader"])
                continue
            if model.rank(pl) < COS_MIN_STARS:
                self.bad(f"{p} has {model.rank(pl)} star(s); a Chief of Staff needs 2 or more", "3.32",
                         path + ["leader"])
                continue
            if not pl.get("pool") and (model.force_units(self.st, p) or model.subordinates(self.st, p)):
                self.bad(f"{p} leads units or SLs: a Chief of Staff leads nothing (relieve him of them first)",
                         "3.32a", path + ["leader"])
                continue
            if not self.wdo_ok(path):
                continue
            if int(self.st["leaders"][a].get("ap", 0)) < 1:
                self.bad(f"{a} has no AP left: a Chief of Staff costs 10 WEP + 1 AP", "3.32", path)
                continue
            self.take_wdo(path, "a Chief of Staff (a War Department Order)")
            self.pay_ap(a, 1, path, "a Chief of Staff")
            for k, v in (("cos_of", a), ("hex", None), ("superior", None), ("pool", False), ("active", True)):
                self.work.set(("leaders", p, k), v)
            self.work.set(("leaders", a, "cos"), p)
            early = (year_of(self.st) or 0) in COS_EARLY_YEARS
            self.act("chief_of_staff", a, p, 1, -WDO_COST, "3.32, 3.41(3)",
                     f"{p} becomes {a}'s Chief of Staff (10 WEP + 1 AP): from the next AP reset {a} adds "
                     f"{p}'s AP" + (" less 1 (1861-1862, 3.32c)" if early else ""))

    # detachments (3.24a, 8.51)
    def detachments(self, items: list) -> None:
        for i, o in enumerate(items):
            path = ["administration", "detachments", i]
            if not isinstance(o, Mapping) or o.get("by") not in ("step_loss", "removal"):
                self.bad("each detachment order is {leader, unit, by: step_loss or removal}", "8.51", path)
                continue
            lid, uid = o.get("leader"), o.get("unit")
            if not self.leader_ok(lid, path + ["leader"], "8.51"):
                continue
            if uid not in model.force_units(self.st, lid):
                self.bad(f"{uid!r} is not a living unit of {lid}'s force", "8.51", path + ["unit"])
                continue
            u = self.st["units"][uid]
            count = detachment_yield(u, o["by"])
            if count < 1:
                self.bad(f"{uid} yields no detachments by {o['by'].replace('_', ' ')} (Detachment Chart)", "8.51",
                         path + ["unit"])
                continue
            if not self.pay_ap(lid, 1, path, "a detachment order"):
                continue
            self.work.set(("units", uid, "steps"), 0 if o["by"] == "removal" else u["steps"] - 1)
            counter = _detachment_chart()["detachment"][u["side"]]
            made = []
            for _ in range(count):
                n = 1
                while f"{uid}-d{n}" in self.st["units"]:
                    n += 1
                did = f"{uid}-d{n}"
                self.work.set(("units", did), {"side": u["side"], "name": f"Detachment of {u['name']}",
                                               "arm": counter["arm"], "size": counter["size"],
                                               "cf": list(counter["cf"]), "ml": list(counter["ml"]),
                                               "steps": counter["steps"], "leader": lid, "hex": None})
                made.append(did)
            self.act("detachments", lid, uid, 1, 0, "8.51, 3.24a",
                     f"{lid} breaks {uid} down by {o['by'].replace('_', ' ')} into {count} detachment(s): "
                     f"{', '.join(made)} (1 AP; stand-in Detachment Chart)")

    # ammo (4.32(5), 3.24a, 7.34)
    def ammo(self, items: list) -> None:
        price = int((self.st.get("prices") or {}).get("asp", 0))
        done = set(_recorded(self.st, "ammo", self.side))
        for i, o in enumerate(items):
            path = ["administration", "ammo", i]
            if not isinstance(o, Mapping):
                self.bad("each ammo order is {leader, asp}", "4.32", path)
                continue
            lid, n = o.get("leader"), o.get("asp")
            if not self.leader_ok(lid, path + ["leader"], "4.32"):
                continue
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                self.bad("asp is a whole number, at least 1", "4.32", path + ["asp"])
                continue
            if lid in done:
                self.bad(f"{lid} has already received ammo this turn", "3.24a", path)
                continue
            if not self.full_supply(lid, path, "ammo"):
                continue
            if not self.pay_ap(lid, 1, path, "receiving ammo"):
                continue
            if price and not self.pay_wep(price * n, path, f"{n} ammo point(s)"):
                continue
            done.add(lid)
            _record(self.work, "ammo", self.side, lid)
            before = int(self.st["leaders"][lid].get("asp", 0))
            self.work.set(("leaders", lid, "asp"), before + n)
            self.act("ammo", lid, lid, 1, -price * n, "4.32, 3.24a, 7.34",
                     f"{lid} receives {n} ammo point(s): ASP {before} -> {before + n} (1 AP"
                     + (f", {price * n} WEP" if price else "") + ")")

    # training (3.53(2), 14.52)
    def training(self, items: list) -> None:
        done = set(_recorded(self.st, "trained", self.side))
        for i, o in enumerate(items):
            path = ["administration", "training", i]
            lid = o.get("leader") if isinstance(o, Mapping) else o
            if not self.leader_ok(lid, path + ["leader"], "3.53"):
                continue
            if lid in done:
                self.bad(f"{lid} has already trained this turn", "3.53", path)
                continue
            ml = int(self.st["leaders"][lid].get("ml", 0))
            if ml >= ML_MAX:
                self.bad(f"{lid} is at ML {ML_MAX}, the highest", "3.51", path)
                continue
            if not self.pay_ap(lid, 1, path, "training"):
                continue
            done.add(lid)
            _record(self.work, "trained", self.side, lid)
            self.work.set(("leaders", lid, "ml"), ml + 1)
            self.act("training", lid, lid, 1, 0, "3.53(2), 3.24a",
                     f"{lid} trains his men: ML {ml} -> {ml + 1} (1 AP)")

    # entrenchment (3.24a, 14.8x)
    def entrench(self, items: list) -> None:
        done = set(_recorded(self.st, "entrenched", self.side))
        for i, o in enumerate(items):
            path = ["administration", "entrench", i]
            lid = o.get("leader") if isinstance(o, Mapping) else o
            if not self.leader_ok(lid, path + ["leader"], "3.24a"):
                continue
            here = fc.top_leader_hex(self.st, lid)
            if here in done:
                self.bad(f"{here} has already been entrenched this turn", "3.24a", path)
                continue
            if not self.pay_ap(lid, 1, path, "entrenching"):
                continue
            done.add(here)
            _record(self.work, "entrenched", self.side, here)
            cur = (self.st.get("entrenchments") or {}).get(here) or {}
            level = int(cur.get("level", 0)) + 1 if cur.get("side") == self.side else 1
            self.work.set(("entrenchments", here), {"side": self.side, "level": level})
            self.act("entrench", lid, here, 1, 0, "3.24a", f"{lid} entrenches {here}: level {level} (1 AP)")


ADMIN_ORDER = ("replacements", "leaders", "wdo", "chief_of_staff", "detachments", "ammo", "training", "entrench")


def _supply_record(state: dict, side: str, supply, hexmap) -> dict | None:
    if isinstance(supply, sp.SideSupply):
        return {f: {"state": fs.state.value, "in_communication": fs.in_communication, "line": fs.nearest is not None}
                for f, fs in supply.forces.items()}
    if isinstance(supply, Mapping):
        return dict(supply)
    rec = (reorg(state).get("supply") or {}).get(side)
    if rec is not None:
        return rec
    if hexmap is not None:
        return _supply_record(state, side, sp.supply_status(state, side, hexmap,
                                                            rail_cuts=state.get("rail_cuts") or ()), None)
    return None


def check_administration(state: dict, side: str, orders: Mapping | None, hexmap=None, *, supply=None) -> list[Problem]:
    return administration(state, side, orders, hexmap, supply=supply).problems


def administration(state: dict, side: str, orders: Mapping | None, hexmap=None, *, supply=None) -> StepResult:
    """4.32 / 3.24a: the side's administration orders, in the order of :data:`ADMIN_ORDER`.

    ``supply`` (a :class:`.supply.SideSupply` or ``{force: {state, in_communication}}``) says which
    forces were in communication and in full supply (7.34); by default this turn's Supply
    Recheck record, else (with ``hexmap``) a fresh supply check."""
    o = (orders or {}).get("administration") or {}
    if not isinstance(o, Mapping):
        return _refused("administration", side, [Problem("administration orders are a mapping", "4.32",
                                                         ["administration"])], "4.32")
    unknown = [k for k in o if k not in ADMIN_ORDER]
    if unknown:
        return _refused("administration", side, [Problem(
            f"unknown administration order {k!r}; the orders are {', '.join(ADMIN_ORDER)}", "4.32",
            ["administration", k]) for k in unknown], "4.32")
    adm = _Admin(state, side, hexmap, _supply_record(state, side, supply, hexmap))
    for key in ADMIN_ORDER:
        items = o.get(key) or []
        if not isinstance(items, list):
            adm.bad(f"`{key}` is a list", "4.32", ["administration", key])
            continue
        {"replacements": adm.replacements, "leaders": adm.leaders, "wdo": adm.wdos,
         "chief_of_staff": adm.chiefs_of_staff, "detachments": adm.detachments, "ammo": adm.ammo,
         "training": adm.training, "entrench": adm.entrench}[key](items)
    if adm.problems:
        return _refused("administration", side, adm.problems, "4.32")
    return StepResult("administration", side, adm.actions, [], adm.work.changes, "4.32",
                      _summary(adm.actions, "no administration orders"))


# --------------------------------------------------------------------------
# 3.53-3.55 leader ML


class MLCause(str, enum.Enum):
    """What changes a leader's ML (3.53, 3.54), and whom it touches (3.55)."""

    COMBAT_VICTORY = "combat_victory"            #: 3.53(1): +1, every leader of the force
    TRAINING = "training"                        #: 3.53(2), 14.52: +1, the leader himself
    ATTACK_CHECK_FAILED = "attack_check_failed"  #: 3.53(3a): -1, the OC only
    PRE_COMBAT_RETREAT = "pre_combat_retreat"    #: 3.53(3b): -1, the OC only
    COMBAT_RETREAT = "combat_retreat"            #: 3.53(3c): -1, the OC only
    RETREAT_THROUGH_ZOC = "retreat_through_zoc"  #: 3.53(3d): -1, the OC only
    MORALE_CHECK_FAILED = "morale_check_failed"  #: 3.53(3e): -1, the OC only
    VOLUNTARY = "voluntary"                      #: 3.54: -n, the OC only, by his choice
    WEATHER = "weather"                          #: 3.53(4), 5.26, 5.29: every leader of the force


ML_RULES = {
    MLCause.COMBAT_VICTORY: (+1, "all", "3.53(1), 3.55"),
    MLCause.TRAINING: (+1, "self", "3.53(2), 14.52"),
    MLCause.ATTACK_CHECK_FAILED: (-1, "oc", "3.53(3a), 3.55"),
    MLCause.PRE_COMBAT_RETREAT: (-1, "oc", "3.53(3b), 3.55"),
    MLCause.COMBAT_RETREAT: (-1, "oc", "3.53(3c), 3.55"),
    MLCause.RETREAT_THROUGH_ZOC: (-1, "oc", "3.53(3d), 3.55"),
    MLCause.MORALE_CHECK_FAILED: (-1, "oc", "3.53(3e), 3.55"),
    MLCause.VOLUNTARY: (-1, "oc", "3.54, 3.55"),
    MLCause.WEATHER: (-1, "all", "3.53(4), 3.55"),
}


@dataclass
class MLChange:
    cause: MLCause
    changes: list[tuple[str, int, int]] = field(default_factory=list)   # (leader, before, after)
    unchanged: list[str] = field(default_factory=list)                  # SLs spared (3.55)
    problems: list[Problem] = field(default_factory=list)
    rule: str = ""
    why: str = ""


def ml_change(state: dict, leader: str, cause: MLCause | str, levels: int = 1) -> MLChange:
    """3.53-3.55: the ML change ``cause`` makes to ``leader``'s force (or to him alone).

    OC-only causes fall on the OC of the force ``leader`` belongs to; an SL cannot reduce his ML
    voluntarily (3.54).  ``levels`` scales the change (voluntary reductions of several levels)."""
    cause = MLCause(cause)
    sign, scope, rule = ML_RULES[cause]
    out = MLChange(cause, rule=rule)
    if leader not in state["leaders"]:
        out.problems.append(Problem(f"{leader!r} is not a leader", rule, ["leader"]))
        out.why = out.problems[0].message
        return out
    top = model.top_of(state, leader)
    members = model.force_leaders(state, top) if fc.in_service(state["leaders"][top]) else [leader]
    oc = fc.force_oc(state, top) if fc.in_service(state["leaders"][top]) else leader
    if cause is MLCause.VOLUNTARY and leader != oc:
        out.problems.append(Problem(f"{leader} is an SL: only the OC ({oc}) may lower his ML voluntarily",
                                    "3.54", ["leader"]))
        out.why = out.problems[0].message
        return out
    who = {"all": members, "self": [leader], "oc": [oc]}[scope]
    delta = sign * max(0, int(levels))
    for lid in who:
        ml = int(state["leaders"][lid].get("ml", 0))
        out.changes.append((lid, ml, max(ML_MIN, min(ML_MAX, ml + delta))))
    out.unchanged = [x for x in members if x not in who] if scope == "oc" else []
    out.why = (f"{cause.value.replace('_', ' ')}: " + ", ".join(f"{lid} ML {a} -> {b}" for lid, a, b in out.changes)
               + (f"; SLs {', '.join(out.unchanged)} unchanged (3.55)" if out.unchanged else ""))
    return out


def apply_ml_change(state: dict, change: MLChange) -> None:
    if change.problems:
        raise ValueError("cannot apply an illegal ML change: " + change.why)
    for lid, _, after in change.changes:
        state["leaders"][lid]["ml"] = after


# --------------------------------------------------------------------------
# 4.4 end of turn


def cos_bonus(state: dict, army: str) -> int:
    """3.32 / 3.32c: the AP a Chief of Staff adds to his army commander (1 less in 1861-1862)."""
    cos = state["leaders"][army].get("cos")
    if not cos or cos not in state["leaders"] or gone(state["leaders"][cos]):
        return 0
    bonus = rating(state["leaders"][cos], "ar")
    if (year_of(state) or 0) in COS_EARLY_YEARS:
        bonus -= 1
    return max(0, bonus)


def end_of_turn(state: dict) -> StepResult:
    """4.4, 10.67a, 8.13, 3.32, 7.35a: wounds heal a level, every leader's AP is reset to his AR
    (less his wound, plus his COS's AP), and Own Use markers of this turn lapse."""
    work = Work(state)
    actions = []
    t = turn_of(state)
    for lid, ld in state["leaders"].items():
        if gone(ld):
            continue
        w = int(ld.get("wound", 0) or 0)
        if w > 0:
            work.set(("leaders", lid, "wound"), w - 1)
            actions.append(Action("wound", ld["side"], lid, lid, 0, 0, None, [], None, "10.67a, 8.13",
                                  f"{lid}'s wound heals one level: {w} -> {w - 1}"))
        ou = ld.get("own_use")
        if ou is not None and int(ou) <= t:
            work.delete(("leaders", lid, "own_use"))
            actions.append(Action("own_use", ld["side"], lid, lid, 0, 0, None, [], None, "7.35a",
                                  f"{lid}'s unspent Own Use marker lapses"))
    for lid, ld in work.state["leaders"].items():
        if gone(ld):
            continue
        ap = rating(ld, "ar") + cos_bonus(work.state, lid)
        work.set(("leaders", lid, "ap"), ap)
    why = (f"turn {t} ends: every leader's AP is reset to his AR (4.4)"
           + (f"; {sum(a.kind == 'wound' for a in actions)} wound(s) heal a level (10.67a)"
              if any(a.kind == "wound" for a in actions) else ""))
    return StepResult("end_of_turn", None, actions, [], work.changes, "4.4", why)


# --------------------------------------------------------------------------
# the whole segment


def reorganization(state: dict, orders: Mapping[str, Mapping], dice, hexmap, *,
                   sides: Iterable[str] = SIDES) -> list[StepResult]:
    """12.0 / 13.0 / 4.3: play the Reorganization Segment for both sides, step by step in the rules'
    order, applying each legal step.  Within a step both sides are resolved against the same
    state and then applied (simultaneous).  A side's illegal step is refused (nothing done) and
    its result, with the problems, is returned like the others."""
    sides = tuple(sides)
    results: list[StepResult] = []
    steps: list[tuple[str, Callable]] = [
        ("destruction", lambda s: destruction(state, s, orders.get(s), dice, hexmap)),
        ("foraging", lambda s: foraging(state, s, orders.get(s), dice, hexmap)),
        ("income", lambda s: income(state, s, orders.get(s), hexmap)),
        ("supply_recheck", lambda s: supply_recheck(state, s, orders.get(s), dice, hexmap)),
        ("administration", lambda s: administration(state, s, orders.get(s), hexmap)),
    ]
    for _, step in steps:
        batch = [step(s) for s in sides]
        for r in batch:
            if r.legal:
                apply_step(state, r)
            results.append(r)
    r = end_of_turn(state)
    apply_step(state, r)
    results.append(r)
    return results
