"""The Reorganization Segment's Supply Recheck Sequence: rule 4.31 (with 7.13, 7.31a, 7.35, 3.54c, 8.11).

Income from the friendly major cities (4.31), then the supply recheck: the
forces out of communication, out of supply or with 3 leaders or more check
attrition on the Attrition Table (7.31a, 3.54c), and cut railroad depots lose
a capacity level (7.13).  The step's orders, the readings and the order of
the segment are in :mod:`.reorganization`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, Mapping, TYPE_CHECKING, cast

from .state_types import FullGameState
from ..base import Problem
from . import dense_fog
from . import forces as fc
from . import model
from . import supply as sp
from . import weather as wx
from .forced_march import Work, plan_step_losses
from .imc import DRM, deactivation
from .reorg_step import (
    Action, StepResult, _wep_change)

if TYPE_CHECKING:
    from ...kit.charts import Charts

NO_LINE_DRM = 4                  # 7.12b
LEADERS_FOR_ATTRITION = 3        # 4.31
STATIONS = ("town", "major_city")
RAIL = "rail"


# --------------------------------------------------------------------------
# 4.31 income


def income(state: FullGameState, side: str, orders: Mapping | None = None, hexmap=None) -> StepResult:
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
    def load(cls, charts: Charts, path: str | None = None) -> "AttritionChart":
        """The game's chart ``charts/attrition.yaml`` (of ``charts``), or another file of its shape."""
        return _build_attrition(charts.chart_source("attrition", path))

    def lookup(self, modified: int) -> tuple[int, bool]:
        row = self.table[min(max(modified, self.rows[0]), self.rows[-1])]
        return int(row["steps"]), bool(row["deactivate"])


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


def attrition_reasons(state: FullGameState, fs: sp.ForceSupply) -> list[str]:
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


def check_supply_recheck(state: FullGameState, side: str, orders: Mapping | None, hexmap, *, supply=None,
                         **supply_kw) -> list[Problem]:
    return _recheck_plan(state, side, orders, hexmap, supply, supply_kw)[1]


def _recheck_plan(state, side, orders, hexmap, supply, supply_kw):
    o = (orders or {}).get("attrition") or {}
    problems: list[Problem] = []
    if not isinstance(o, Mapping):
        return None, [Problem("attrition orders are a mapping {emergency, ml, losses}", "4.31", ["attrition"])]
    emergency = o.get("emergency") or {}
    if supply is None:
        kw: dict[str, Any] = sp.line_conditions(state, side)      # laid pontoons (7.12c, 8.81), rail cuts (7.13)
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


def _attrition_drms(chk: AttritionCheck, fs, served: bool, chart: AttritionChart, weather: str) -> None:
    """7.12b, 7.35, 7.31a, 5.23-5.29: the attrition DRMs for a force's supply line, supply state and the weather."""
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


def _give_up_ml(chk: AttritionCheck, work: Work, oc: str | None, ml: int) -> None:
    """3.54c: the OC may give up ML levels, each a -1 DRM on the attrition roll."""
    if ml:
        chk.drms.append(DRM(-ml, f"{oc} gives up {ml} ML", "3.54c"))
        work.set(("leaders", oc, "ml"), int(work.state["leaders"][cast(str, oc)]["ml"]) - ml)


def _attrition_step_losses(chk: AttritionCheck, work: Work, f: str, chosen) -> str:
    """4.31: the step losses of the Attrition Table, taken from the units the owner chose."""
    if not chk.steps:
        return "no step loss"
    sl = plan_step_losses(work.state, f, chk.steps, chosen if isinstance(chosen, list) else [chosen],
                          rule="4.31", work=work)
    chk.losses, chk.to_pool = sl.losses, sl.to_pool
    return sl.why


def _attrition_deactivation(chk: AttritionCheck, work: Work, oc: str | None) -> None:
    """4.31, 8.11: an Attrition Table result deactivates the force's active OC."""
    if chk.deactivate and oc and not work.state["leaders"][oc].get("pool") \
            and work.state["leaders"][oc].get("active"):
        d = deactivation(work.state, oc, cause="Attrition Table")
        work.set(("leaders", oc, "active"), False)
        work.set(("leaders", oc, "ap"), d.ap_after)
        chk.deactivated = oc


def _attrition_check(state: FullGameState, work: Work, side: str, f: str, fs, reasons: list[str], o: Mapping,
                     emergency: set, dice, chart: AttritionChart, weather: str) -> AttritionCheck:
    """4.31: one force's attrition check: DRMs, the 1d6, the Attrition Table's losses and deactivation."""
    oc = None if model.is_unled(f) else fc.force_oc(state, f)
    chk = AttritionCheck(f, oc, reasons, fs.state.value)
    _attrition_drms(chk, fs, f in emergency and fs.emergency is not None, chart, weather)
    _give_up_ml(chk, work, oc, int((o.get("ml") or {}).get(f, 0) or 0))
    # 3.72(2): the die is rolled in the open unless dense fog keeps it the roller's; what it costs stays
    # on the hidden AOD either way (3.71).  Its events: :func:`.dense_fog.attrition_events`.
    secret = [side] if dense_fog.enabled(state.get("options")) else None
    chk.roll = dice.d6(f"attrition {f}", by=side, visible_to=secret)
    chk.modified = chk.roll + sum(d.value for d in chk.drms)
    chk.steps, chk.deactivate = chart.lookup(chk.modified)
    loss_text = _attrition_step_losses(chk, work, f, (o.get("losses") or {}).get(f) or [])
    _attrition_deactivation(chk, work, oc)
    drm_text = "".join(f" {d.value:+d} ({d.reason})" for d in chk.drms)
    chk.why = (f"{f} checks attrition ({'; '.join(reasons)}): rolled {chk.roll}{drm_text} = {chk.modified}: "
               f"{loss_text}" + (f"; {oc} is deactivated (8.11)" if chk.deactivated else "")
               + (" [stand-in Attrition Table]" if chart.stand_in else ""))
    return chk


def _consume_emergency_supply(work: Work, result: Recheck, side: str, supply) -> None:
    """7.35: the wagons and depots consumed by emergency supply are removed."""
    for uid in supply.consumed:
        work.delete(("logistics", uid))
        result.actions.append(Action("emergency", side, None, uid, 0, 0, None, [], None, "7.35",
                                     f"{uid} is consumed for emergency supply and removed (7.35)"))


def _cut_rail_depots(state: FullGameState, work: Work, result: Recheck, side: str, supply, hexmap) -> None:
    """7.13: railroad depots cut off from supply lose a capacity level (removed at 0)."""
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


def supply_recheck(state: FullGameState, side: str, orders: Mapping | None, dice, hexmap, *, supply=None,
                   chart: AttritionChart, weather: str | None = None, **supply_kw) -> Recheck:
    """4.31, 7.31a, 7.13: recheck supply, roll attrition for the forces that must, and wear down cut
    railroad depots.  ``supply`` may be given (a :class:`.supply.SideSupply`); otherwise it is
    computed with the orders' emergency supply (7.35)."""
    supply, problems = _recheck_plan(state, side, orders, hexmap, supply, supply_kw)
    if problems:
        r = Recheck("supply_recheck", side, [], problems, [], "4.31", "refused, nothing done: "
                    + "; ".join(p.message for p in problems))
        return r
    weather = weather or wx.current_weather(state)
    o = (orders or {}).get("attrition") or {}
    emergency = set((o.get("emergency") or {}).keys())
    work = Work(state)
    result = Recheck("supply_recheck", side, rule="4.31, 7.31a", supply=supply)
    # the record the Administration Sequence reads (7.34)
    work.set(("current", "reorganization", "supply", side),
             {f: {"state": fs.state.value, "in_communication": fs.in_communication, "line": fs.nearest is not None}
              for f, fs in supply.forces.items()})
    pontoons = sp.line_conditions(state, side)["pontoons"]
    if pontoons:                # 7.12c, 8.81: said, as the lines it lets through check no attrition
        result.actions.append(Action("pontoons", side, None, None, 0, 0, None, [], None, "7.12c, 8.81",
                                     f"supply lines cross by the laid pontoon(s) at {', '.join(sorted(pontoons))} "
                                     "as by a bridge, at a ford's cost (7.12c, 8.81)"))
    for f in sorted(supply.forces):
        fs = supply.forces[f]
        reasons = attrition_reasons(state, fs)
        if not reasons:
            continue
        chk = _attrition_check(state, work, side, f, fs, reasons, o, emergency, dice, chart, weather)
        result.checks.append(chk)
        result.actions.append(Action("attrition", side, chk.oc, f, 0, 0, None, [cast(int, chk.roll)], None, chk.rule,
                                     chk.why))
    _consume_emergency_supply(work, result, side, supply)
    _cut_rail_depots(state, work, result, side, supply, hexmap)
    result.changes = work.changes
    c = supply.counts()
    result.why = (f"{c['in_communication']} force(s) in communication, {len(supply.forces) - c['in_communication']} "
                  f"out; {len(result.checks)} attrition check(s)"
                  + (f"; {len(result.depots)} cut railroad depot(s)" if result.depots else ""))
    return result
