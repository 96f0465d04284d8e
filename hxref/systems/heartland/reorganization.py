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
      train: [{hex: "0705"}]             # 8.72: the one extra train, in a friendly major city, prices.train WEP

State keys this module reads or adds (all optional; absent = none)::

    wep: {union: 120, ...}                 War Effort Points (3.16), changed by raids, foraging, income, WDOs
    replacements: {union: 4, ...}          replacement steps on the Number Track (3.16, 4.32)
    prices: {asp: 1, train: 6}             WEP per ammo point bought (4.32(5)) and for the extra train (8.72,
                                           14.14); the price list is missing: 0
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

The Administration Sequence (4.32, 3.24a, 3.41, 3.32), the leader ML rules (3.53-3.55) and the
end of the turn (4.4) live in :mod:`.administration`; the records (:class:`Action`,
:class:`StepResult`) and the small questions about the state both use live in
:mod:`.reorg_common`.  This module keeps destruction, foraging, income, the supply recheck and
the orchestrator, and re-exports every name of the two, so ``from .reorganization import X``
works as before.
"""
from __future__ import annotations

# Re-exported for ``from .reorganization import X`` (and ``reorganization.X``) written before the split.
import enum  # noqa: F401
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Callable, Iterable, Mapping  # noqa: F401

from ..base import Problem
from . import forces as fc
from . import model
from . import supply as sp
from . import weather as wx
from .administration import (  # noqa: F401
    ADMIN_ORDER, ARMY_MIN_STARS, COS_EARLY_YEARS, COS_MIN_STARS, ML_MAX, ML_MIN, ML_RULES, WDO_COST,
    WDO_PER_TURN, MLCause, MLChange, _Admin, _detachment_chart, _supply_record, administration, apply_ml_change,
    check_administration, cos_bonus, detachment_yield, end_of_turn, ml_change, wdo_problems, wdo_used)
from .forced_march import Change, Work, apply_changes, plan_step_losses, rating, send_to_pool  # noqa: F401
from .imc import DRM, deactivation
from .reorg_common import (  # noqa: F401
    Action, StepResult, _AP, _label_of_side, _leader_problems, _mark, _must_be_oc, _record, _recorded, _refused,
    _summary, _wep_change, brigades_in, calendar_entry, gone, hex_units, landing_hexes, marked, month_of, reorg,
    turn_of, year_of)

SIDES = ("union", "confederate")
BURN_ON = 6                      # 13.11, 13.12: only a 6
BRIGADES_PER_WEP = 2             # 13.13
FORAGE_MONTHS = (6, 7, 8, 9)     # 13.21: June to September
NO_LINE_DRM = 4                  # 7.12b
LEADERS_FOR_ATTRITION = 3        # 4.31
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


def apply_step(state: dict, result: StepResult) -> None:
    """Fold a legal step's changes into the state."""
    if result.problems:
        raise ValueError(f"cannot apply the illegal {result.step} orders: "
                         + "; ".join(p.message for p in result.problems))
    apply_changes(state, result.changes)


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


def _load_foraging(path: str | None) -> ForagingChart:
    from ...kit import data

    return _build_foraging(data.chart_source("heartland", "foraging", path))


@cache
def _build_foraging(src) -> ForagingChart:
    d = src.data()
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


def _load_attrition(path: str | None) -> AttritionChart:
    from ...kit import data

    return _build_attrition(data.chart_source("heartland", "attrition", path))


@cache
def _build_attrition(src) -> AttritionChart:
    d = src.data()
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
        chk.roll = dice.d6(f"attrition {f}", by=side, visible_to=[side])
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
