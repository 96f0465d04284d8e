"""Forced march: rules 8.3-8.32 (with 3.54, 8.11, 10.22 and 11.0).

A force whose OC is active may try a forced march after its IMC roll: one
1d6 on the Forced March Table (``games/heartland/charts/forced_march.yaml``,
a STAND-IN: the seed prints no chart) in the column of the MP it rolled.

* :func:`forced_march` checks the attempt, works out the DRMs (8.31a) and
  rolls; :class:`ForcedMarch` says what happened and why.
* :func:`apply_forced_march` applies what happens at once: the ML the OC
  gave up (3.54, 8.31a item 4) and the step loss (8.31a), with a leader
  left without units going to the Leader Pool, his ASP and artillery lost.
* :func:`march_end` / :func:`apply_march_end`: the deactivation at the end
  of the move (8.31b, 8.11).
* :func:`march_step_cost` is the step cost of a successful forced march:
  the reduced clear and road costs of the chart, and the terrain limits of
  8.32a (:func:`march_step_problem`, :func:`march_path_problems`).
* :attr:`ForcedMarch.cf_halved` / ``artillery_halved``: the force's CF and
  artillery are halved (round up) in combat this impulse (8.31c, 10.22).

The step-loss helpers (:func:`plan_step_losses`, :class:`Change`,
:func:`apply_changes`) are shared with the attrition check of
:mod:`.reorganization`.

State keys read (besides :mod:`.model`'s): ``leaders[id]["wound"]``, the
wound level that lowers all a leader's ratings (10.67; documented in
:mod:`.reorganization`).  Nothing new is written.

Readings chosen where the rules are ambiguous (pinned by
``tests/heartland/test_forced_march.py``):

* Column: the MP the force got from the IMC after supply halving (7.32,
  7.33: "the MP determined"); a force with no MP cannot force-march.
* 8.31a item 1 uses :func:`.supply.distance_drm` on the MP to the nearest
  in-supply supply unit or source (:attr:`.supply.ForceSupply.nearest`);
  no line of 20 MP or less is +4, and 7.12b's "+4 for forces that cannot
  trace a supply line" is that same +4, not a second one.  An Own Use marker
  spent (:func:`.supply.supply_status` ``own_use``) cancels items 1 and 2;
  emergency supply (7.35) cancels item 2 only.
* 3.54 item 1: ML levels the OC gave up with his IMC roll (``imc_ml``) count
  on this roll too ("both at once") and cost nothing more; further levels
  (``voluntary_ml``) may be given up now and lower his ML at once.
* -MR: the OC's own MR on the side his counter shows, less his wound level
  (10.67), even if another leader lent the MR for the IMC roll.
* Results combine: a success may come with a step loss and/or the leader's
  deactivation at the end of the move (11.0 speaks of a leader who succeeded
  and was then deactivated); a failure may come with a step loss.  Only a
  success is a forced march for 8.31c: a failed force moved at normal costs
  and fights at full strength.
* Step loss: the unit the order names (a living unit of the force), else
  the first living unit with the most steps.  A leader goes to the Leader
  Pool when no living combat unit is left in his own box or his SLs' boxes;
  his ASP and artillery are lost (set to 0); his wagons pass to the next
  leader up his chain, or stay in the hex.
* Deactivation falls on the force's OC (the leader who force-marched).
* 8.32a: during a successful forced march every step must enter a clear hex
  (not holding a major city) or follow a road; rail lines are not roads.
  Towns in clear hexes are clear.  Woods, broken, rough, swamp and major
  cities may be entered only along a road.  Hexside costs are paid as
  usual.  A failed force is not forced-marching and moves under the normal
  rules.
* 8.32: a wagon moving alone (its logistics id given as the force) may not
  force-march; an unled force has no active leader (8.1) and may not either.
"""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Iterable, Mapping, Sequence, TYPE_CHECKING, cast

from .state_types import FullGameState, Leader
from ...geometry.paths import Prohibited
from ..base import Problem
from . import forces as fc
from . import model
from .names import surname, unit_label
from . import supply as sp
from . import weather as wx
from .fog import hidden_armies
from .imc import DRM, Deactivation, deactivation, apply_deactivation

if TYPE_CHECKING:
    from ...kit.charts import Charts

CLEAR = "clear"                  # terrain type names the rules speak of (terrain.yaml)
ROAD = "road"                    # 8.32a: only roads; "rail" is not one
MAJOR_CITY = "major_city"
SUPPLY_DRM = {"full": 0, "combat": 2, "out": 4}     # 8.31a item 2


# --------------------------------------------------------------------------
# changes to the state, shared with reorganization.py


class _Delete:
    def __repr__(self) -> str:
        return "DELETE"


DELETE = _Delete()


@dataclass(frozen=True)
class Change:
    """One change to the state: set the value at ``path`` (keys from the top), or delete it."""

    path: tuple
    value: Any

    def to_dict(self) -> dict:
        return {"path": list(self.path), "value": "<delete>" if self.value is DELETE else self.value}


def apply_changes(state: FullGameState, changes: Iterable[Change]) -> None:
    """Fold changes into ``state`` in order (missing dicts on the way are created)."""
    for c in changes:
        node: Any = state       # any record on the change's path through the plain data
        for k in c.path[:-1]:
            node = node.setdefault(k, {})
        if c.value is DELETE:
            node.pop(c.path[-1], None)
        else:
            node[c.path[-1]] = copy.deepcopy(c.value)


class Work:
    """A private copy of the state that records every change made to it.

    Rules code reasons on ``work.state`` (which shows its own earlier
    changes) and calls :meth:`set`; the recorded :attr:`changes` are then
    applied to the real state by :func:`apply_changes`."""

    def __init__(self, state: FullGameState):
        self.state = model.copy_state(state)
        self.changes: list[Change] = []

    def set(self, path: Sequence, value: Any) -> None:
        c = Change(tuple(path), value)
        apply_changes(self.state, [c])
        self.changes.append(c)

    def delete(self, path: Sequence) -> None:
        self.set(path, DELETE)

    def mark(self) -> int:
        return len(self.changes)

    def since(self, mark: int) -> list[Change]:
        return self.changes[mark:]


# --------------------------------------------------------------------------
# ratings


rating = model.current_rating           # AR, BR or MR now, less the wound level (10.67)


# --------------------------------------------------------------------------
# step losses (8.31a, 13.4) and the Leader Pool


@dataclass(frozen=True)
class StepLoss:
    unit: str
    before: int
    after: int


@dataclass
class StepLosses:
    """Step losses taken by one force, and the leaders they send to the pool."""

    force: str
    wanted: int
    losses: list[StepLoss] = field(default_factory=list)
    to_pool: list[str] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.31a"
    why: str = ""


def _force_of_units(state: FullGameState, force_id: str) -> list[str]:
    return model.units_of(state, force_id)


def send_to_pool(work: Work, lid: str, rule: str) -> None:
    """3.11d, 8.31a: a leader without units goes to the Leader Pool; his ASP and artillery are lost."""
    st = work.state
    ld = st["leaders"][lid]
    here = fc.top_leader_hex(st, lid)
    # his wagons go to the next leader up his chain who stays, or stay in the hex
    up = ld.get("superior")
    for sid, s in st.get("logistics", {}).items():
        if s.get("leader") == lid:
            if up:
                work.set(("logistics", sid, "leader"), up)
            else:
                work.set(("logistics", sid, "leader"), None)
                work.set(("logistics", sid, "hex"), here)
    for k, v in (("pool", True), ("hex", None), ("superior", None), ("asp", 0), ("artillery", 0)):
        work.set(("leaders", lid, k), v)


def plan_step_losses(state: FullGameState, force_id: str, n: int, chosen: Sequence[str] = (), *, rule: str = "8.31a",
                     work: Work | None = None) -> StepLosses:
    """``n`` step losses for ``force_id``: the ``chosen`` units first (in order), then the living
    unit with the most steps left (first listed on a tie), so that no unit takes a second loss
    while another has more steps.  Leaders left without living units go to the pool (8.31a).

    With ``work`` the changes are made on it too (and listed in the result)."""
    work = work or Work(state)
    st = work.state
    out = StepLosses(force_id, n, rule=rule)
    start = work.mark()
    leaders = [] if model.is_unled(force_id) else model.force_leaders(st, force_id)
    for i, uid in enumerate(chosen):
        if uid not in _force_of_units(st, force_id):
            out.problems.append(Problem(f"{uid} is not a living unit of {force_id}", rule, ["losses", i]))
    if out.problems:
        out.why = "; ".join(p.message for p in out.problems)
        return out
    queue = list(chosen)
    for _ in range(n):
        alive = _force_of_units(st, force_id)
        if not alive:
            break
        pick = next((u for u in queue if u in alive), None)
        if pick is not None:
            queue.remove(pick)
        else:
            pick = max(alive, key=lambda u: (st["units"][u]["steps"], -alive.index(u)))
        before = st["units"][pick]["steps"]
        work.set(("units", pick, "steps"), before - 1)
        out.losses.append(StepLoss(pick, before, before - 1))
    # leaders whose own box and SLs' boxes hold no living unit go to the pool, lowest first
    if out.losses:
        for lid in reversed(leaders):
            if st["leaders"][lid].get("pool"):
                continue
            if not model.force_units(st, lid):
                send_to_pool(work, lid, rule)
                out.to_pool.append(lid)
    out.changes = work.since(start)
    short = n - len(out.losses)
    parts = [f"{unit_label(st, x.unit)} {x.before}->{x.after} step(s)" for x in out.losses]
    out.why = (f"{n} step loss(es): " + (", ".join(parts) or "no unit to take them")
               + (f" ({short} not taken: no living unit left)" if short and out.losses else "")
               + (f"; {', '.join(surname(st['leaders'], x) for x in out.to_pool)} left without units: to the Leader Pool, ASP and artillery "
                  f"lost ({rule})" if out.to_pool else ""))
    return out


# --------------------------------------------------------------------------
# the chart


@dataclass(frozen=True)
class MarchResult:
    """One result code of the Forced March Table."""

    code: str
    success: bool
    step_losses: int
    deactivate: bool
    text: str


@dataclass(frozen=True)
class Band:
    label: str
    min: int
    max: int | None

    def holds(self, mp: int) -> bool:
        return mp >= self.min and (self.max is None or mp <= self.max)


@dataclass(frozen=True)
class ForcedMarchChart:
    """The Forced March Table as data: ``table[row][column]`` is a result code."""

    columns: tuple[Band, ...]
    rows: tuple[int, ...]
    table: dict
    results: dict
    success_costs: dict
    stand_in: bool
    note: str

    @classmethod
    def load(cls, charts: Charts, path: str | None = None) -> "ForcedMarchChart":
        """The game's chart ``charts/forced_march.yaml`` (of ``charts``), or another file of its shape."""
        return _build_chart(charts.chart_source("forced_march", path))

    @classmethod
    def from_data(cls, data: dict) -> "ForcedMarchChart":
        results = {str(k): MarchResult(str(k), bool(v["success"]), int(v["step_losses"]), bool(v["deactivate"]),
                                       str(v.get("text", k))) for k, v in data["results"].items()}
        table = {int(r): tuple(str(c) for c in cells) for r, cells in data["table"].items()}
        columns = tuple(Band(str(c["label"]), int(c["min"]), None if c.get("max") is None else int(c["max"]))
                        for c in data["columns"])
        for r, cells in table.items():
            if len(cells) != len(columns):
                raise ValueError(f"forced march chart row {r}: {len(cells)} cells for {len(columns)} columns")
            for c in cells:
                if c not in results:
                    raise ValueError(f"forced march chart row {r}: unknown result {c!r}")
        return cls(columns, tuple(int(r) for r in data["rows"]), table, results,
                   {"hex": dict((data.get("success_costs") or {}).get("hex") or {}),
                    "lines": dict((data.get("success_costs") or {}).get("lines") or {})},
                   bool(data.get("stand_in", False)), str(data.get("note", "")))

    def column_for(self, mp: int) -> int | None:
        """The index of the column holding ``mp`` (None below the first column: no MP)."""
        for i, band in enumerate(self.columns):
            if band.holds(mp):
                return i
        if mp > self.columns[-1].min:
            return len(self.columns) - 1
        return None

    def row_for(self, modified: int) -> int:
        """The row a modified roll reads: clamped to the first ("or less") and last ("or more") rows."""
        return min(max(modified, self.rows[0]), self.rows[-1])

    def lookup(self, mp: int, modified: int) -> MarchResult:
        col = self.column_for(mp)
        if col is None:
            raise ValueError(f"{mp} MP is below the Forced March Table's first column")
        return self.results[self.table[self.row_for(modified)][col]]


@cache
def _build_chart(src) -> ForcedMarchChart:
    """Once per chart content (the game's pinned chart, or the disk's)."""
    return ForcedMarchChart.from_data(src.data())


# --------------------------------------------------------------------------
# the attempt


@dataclass
class ForcedMarch:
    """One force's forced-march roll (8.31) and what follows from it."""

    force: str
    oc: str | None
    mp: int
    column: str | None = None
    drms: list[DRM] = field(default_factory=list)
    roll: int | None = None
    modified: int | None = None
    code: str | None = None
    success: bool = False
    step_losses: int = 0
    deactivate: bool = False
    voluntary_ml: int = 0
    ml_after: int | None = None
    losses: StepLosses | None = None
    changes: list[Change] = field(default_factory=list, repr=False)   # what apply_forced_march applies
    stand_in: bool = True
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.31"
    why: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems

    @property
    def cf_halved(self) -> bool:
        """8.31c, 10.22: a force that forced-marched fights at half CF (round up) this impulse."""
        return self.success

    @property
    def artillery_halved(self) -> bool:
        """8.31c, 10.22: and at half artillery (round up)."""
        return self.success

    @property
    def no_zoc_entry(self) -> bool:
        """8.31b: a leader to be deactivated may not enter enemy ZOC with this move."""
        return self.deactivate

    @property
    def deactivates(self) -> list[str]:
        """Leaders deactivated at the end of the move (paid for all the same, 11.0)."""
        return [self.oc] if self.deactivate and self.oc else []

    @property
    def to_pool(self) -> list[str]:
        return list(self.losses.to_pool) if self.losses else []


def _supply_inputs(supply) -> tuple[str, int, bool, str]:
    """(state, distance DRM, own use spent, how) from a ForceSupply, a mapping or a state name."""
    if supply is None:
        return "full", 0, False, "full supply, 5 MP or less from a supply unit (assumed)"
    if isinstance(supply, sp.ForceSupply):
        own = supply.via == "own use"
        return supply.state.value, supply.distance_drm, own, supply.reason
    if isinstance(supply, str):
        return supply, 0, False, f"{supply} supply"
    if isinstance(supply, Mapping):
        st = str(supply.get("state", "full"))
        own = bool(supply.get("own_use", False))
        nearest = supply.get("nearest", 0)
        return st, (0 if own else sp.distance_drm(nearest)), own, str(supply.get("reason", f"{st} supply"))
    raise TypeError("supply: a ForceSupply, a mapping {state, nearest, own_use} or a state name")


def forced_march(state: FullGameState, force_id: str, mp: int, dice, *, supply=None, weather: str | None = None,
                 voluntary_ml: int = 0, imc_ml: int = 0, loss_unit: str | None = None,
                 chart: ForcedMarchChart) -> ForcedMarch:
    """8.31 / 8.32: ``force_id`` tries a forced march with the ``mp`` it rolled on the IMC.

    ``supply`` is its :class:`.supply.ForceSupply` for this impulse (or a mapping ``{state,
    nearest, own_use}``, or just the state name); ``weather`` defaults to the turn's;
    ``imc_ml`` the ML levels the OC already gave up with the IMC roll (3.54: they count here
    too); ``voluntary_ml`` further levels he gives up now (8.31a item 4); ``loss_unit`` the unit
    to take a step loss.  Nothing is rolled when the attempt is illegal (see ``problems``)."""
    weather = weather or wx.current_weather(state)
    problems: list[Problem] = []
    fm = ForcedMarch(force_id, None, mp, stand_in=chart.stand_in, voluntary_ml=voluntary_ml)
    if force_id in state.get("logistics", {}):
        problems.append(Problem(f"{force_id} is a {state['logistics'][force_id].get('kind', 'wagon')} moving "
                                "alone: a wagon may force-march only as part of a force", "8.32", ["force"]))
        fm.problems = problems
        fm.why = "not rolled: " + problems[0].message
        return fm
    problems.extend(_who_may_march(state, fm, voluntary_ml=voluntary_ml, imc_ml=imc_ml, loss_unit=loss_unit))
    problems.extend(_march_column(chart, fm, mp))
    st, dist_drm, own_use, how = _supply_inputs(supply)
    if st not in SUPPLY_DRM:
        problems.append(Problem(f"supply state {st!r} is not full, combat or out", "7.3", ["supply"]))
    if problems:
        fm.problems = problems
        fm.why = "not rolled: " + "; ".join(p.message for p in problems)
        return fm
    oc = state["leaders"][cast(str, fm.oc)]
    _march_drms(fm, oc, st=st, dist_drm=dist_drm, own_use=own_use, weather=weather, imc_ml=imc_ml)
    side = oc["side"]
    fm.roll = dice.d6(f"forced march {force_id}", by=side,      # like the IMC roll (3.71)
                      visible_to=None if hidden_armies(state) else [side])
    fm.modified = fm.roll + sum(d.value for d in fm.drms)
    res = chart.lookup(mp, fm.modified)
    fm.code, fm.success, fm.step_losses, fm.deactivate = res.code, res.success, res.step_losses, res.deactivate
    _march_losses(state, fm, loss_unit)
    fm.why = _march_why(fm, res, own_use=own_use, stand_in=chart.stand_in)
    return fm


def _who_may_march(state: FullGameState, fm: ForcedMarch, *, voluntary_ml: int, imc_ml: int,
                   loss_unit: str | None) -> list[Problem]:
    """8.3 / 8.31 / 3.54: only a whole force under an active OC force-marches; he gives up no more
    ML than he has, and the unit named for the step loss must be his.  Sets ``fm.oc``."""
    force_id = fm.force
    problems: list[Problem] = []
    if model.is_unled(force_id):
        problems.append(Problem("only a force led by an active leader may force-march; unled units may not",
                                "8.3, 8.1", ["force"]))
        return problems
    if force_id not in state["leaders"]:
        problems.append(Problem(f"no force {force_id}", "8.3", ["force"]))
        return problems
    ld = state["leaders"][force_id]
    if ld.get("superior"):
        problems.append(Problem(f"{force_id} is part of {model.top_of(state, force_id)}'s force: the force "
                                "marches under its OC", "8.31", ["force"]))
    fm.oc = fc.force_oc(state, force_id)
    oc = state["leaders"][cast(str, fm.oc)]
    if not oc.get("active"):
        problems.append(Problem(f"{fm.oc} is inactive: only active leaders may force-march", "8.3, 8.1",
                                ["force"]))
    if voluntary_ml < 0 or imc_ml < 0:
        problems.append(Problem("ML levels given up cannot be negative", "3.54", ["voluntary_ml"]))
    elif voluntary_ml > oc.get("ml", 0):
        problems.append(Problem(f"{fm.oc} has ML {oc.get('ml', 0)}; he cannot give up {voluntary_ml} levels",
                                "3.54, 8.31a", ["voluntary_ml"]))
    if loss_unit is not None and loss_unit not in model.force_units(state, force_id):
        problems.append(Problem(f"{loss_unit} is not a living unit of {force_id}", "8.31a", ["loss_unit"]))
    return problems


def _march_column(chart: ForcedMarchChart, fm: ForcedMarch, mp) -> list[Problem]:
    """8.31: the Forced March Table column is the MP rolled on the IMC (sets ``fm.column``)."""
    if not isinstance(mp, int) or isinstance(mp, bool) or mp < 1:
        return [Problem(f"{mp!r} MP: a force needs MP from the IMC to force-march", "8.31", ["mp"])]
    col = chart.column_for(mp)
    fm.column = chart.columns[col].label if col is not None else None
    return []


def _march_drms(fm: ForcedMarch, oc: Leader, *, st: str, dist_drm: int, own_use: bool, weather: str,
                imc_ml: int) -> None:
    """8.31a: the DRMs of the roll -- distance to supply and supply state (none with an Own Use
    marker, 7.35a), weather, ML given up (3.54) and the OC's MR."""
    drms = fm.drms
    voluntary_ml = fm.voluntary_ml
    if own_use:
        drms.append(DRM(0, "Own Use marker spent: no distance or supply DRM", "8.31a, 7.35a"))
    else:
        drms.append(DRM(dist_drm, "distance to the nearest supply unit or source", "8.31a"))
        drms.append(DRM(SUPPLY_DRM[st], f"{st} supply", "8.31a"))
    drms.append(DRM(wx.march_drm(weather), weather, wx.weather_rule(weather)))
    if imc_ml:
        drms.append(DRM(-imc_ml, f"{fm.oc} gave up {imc_ml} ML with the IMC roll", "3.54"))
    if voluntary_ml:
        drms.append(DRM(-voluntary_ml, f"{fm.oc} gives up {voluntary_ml} ML now", "3.54, 8.31a"))
        fm.ml_after = int(oc.get("ml", 0)) - voluntary_ml
    mr = rating(oc, "mr")
    drms.append(DRM(-mr, f"{fm.oc}'s MR", "8.31a"))


def _march_losses(state: FullGameState, fm: ForcedMarch, loss_unit: str | None) -> None:
    """8.31a: what the roll costs at once -- the ML given up and the step losses (as changes)."""
    work = Work(state)
    if fm.ml_after is not None:
        work.set(("leaders", fm.oc, "ml"), fm.ml_after)
    if fm.step_losses:
        fm.losses = plan_step_losses(work.state, fm.force, fm.step_losses, [loss_unit] if loss_unit else (),
                                     rule="8.31a", work=work)
    fm.changes = work.changes


def _march_why(fm: ForcedMarch, res, *, own_use: bool, stand_in: bool) -> str:
    """The roll explained: column, DRMs and result, its losses, the deactivation (8.31b) and the
    halved CF (8.31c)."""
    drm_text = "".join(f" {d.value:+d} ({d.reason})" for d in fm.drms if d.value or own_use)
    why = (f"{fm.mp} MP (column {fm.column}): rolled {fm.roll}{drm_text} = {fm.modified} -> {res.code}: {res.text}")
    if fm.losses:
        why += f"; {fm.losses.why}"
    if fm.deactivate:
        why += f"; {fm.oc} may not enter enemy ZOC with this move and is deactivated at its end (8.31b)"
    if fm.success:
        why += "; CF and artillery halved in combat this impulse (8.31c)"
    if stand_in:
        why += " [stand-in Forced March Table]"
    return why


def apply_forced_march(state: FullGameState, fm: ForcedMarch) -> None:
    """Apply what a forced-march roll does at once: the ML given up and the step loss (8.31a)."""
    if fm.problems:
        raise ValueError("cannot apply an illegal forced march: " + fm.why)
    apply_changes(state, fm.changes)


def march_end(state: FullGameState, fm: ForcedMarch) -> Deactivation | None:
    """8.31b / 8.11: the deactivation due at the end of the forced-march move (None if none)."""
    if not fm.deactivate or not fm.oc:
        return None
    ld = state["leaders"][fm.oc]
    if ld.get("pool") or not ld.get("active"):
        return None
    return deactivation(state, fm.oc, cause="Forced March Table, at the end of the move (8.31b)")


def apply_march_end(state: FullGameState, fm: ForcedMarch) -> Deactivation | None:
    """Deactivate the OC at the end of his move when the table said so (8.31b, 8.11)."""
    d = march_end(state, fm)
    if d is not None:
        apply_deactivation(state, d)
    return d


# --------------------------------------------------------------------------
# terrain (8.3, 8.32a)


def march_step_problem(hexmap, a, b) -> Prohibited | None:
    """8.32a: why a forced-marching force may not step from ``a`` into ``b`` (None if it may)."""
    if ROAD in hexmap.lines_between(a, b):
        return None
    tt = hexmap.terrain(b)
    lb = hexmap.label(b)
    if tt.name == CLEAR and MAJOR_CITY not in hexmap.features(b):
        return None
    what = "a major city" if MAJOR_CITY in hexmap.features(b) else f"{tt.label.lower()} terrain"
    rail = " (a rail line is not a road for a forced march)" if "rail" in hexmap.lines_between(a, b) else ""
    return Prohibited(f"{lb} is {what}: a forced march enters only clear hexes, or other terrain along a "
                      f"road{rail} (8.32a)")


def march_path_problems(path: Sequence[str], *, start: str, hexmap, index: int = 0) -> list[Problem]:
    """8.32a for an ordered path: every step into clear terrain or along a road."""
    here = hexmap.parse(start)
    for i, label in enumerate(path):
        nxt = hexmap.parse(label)
        p = march_step_problem(hexmap, here, nxt)
        if p is not None:
            return [Problem(p.reason, "8.32a", ["moves", index, "path", i])]
        here = nxt
    return []


def march_map(hexmap, chart: ForcedMarchChart):
    """``hexmap`` with the chart's reduced costs for clear hexes and roads (8.3)."""
    types = {g: dict(ts) for g, ts in hexmap.types.items()}
    for group in ("hex", "lines"):
        for name, cost in chart.success_costs.get(group, {}).items():
            if name in types.get(group, {}):
                types[group][name] = dataclasses.replace(types[group][name], move=cost)
    return dataclasses.replace(hexmap, types=types)


def march_step_cost(hexmap, *, weather: str, side: str, chart: ForcedMarchChart, **kw):
    """The step cost of a successful forced march: :func:`.terrain.step_cost` on the reduced costs
    (weather and hexsides as usual), with the steps 8.32a forbids prohibited."""
    from .terrain import step_cost

    fast = step_cost(march_map(hexmap, chart), weather=weather, side=side, **kw)

    def cost(a, b):
        p = march_step_problem(hexmap, a, b) if b in hexmap.grid else None
        if p is not None:
            return p
        return fast(a, b)

    return cost


def truncate_at_zoc(path: Sequence[str], enemy_zoc: Iterable[str]) -> list[str]:
    """8.31b: a force whose leader is to be deactivated stops before the first hex in enemy ZOC."""
    zoc = set(enemy_zoc)
    out = []
    for label in path:
        if label in zoc:
            break
        out.append(label)
    return out

