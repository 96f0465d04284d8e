"""The Initiative Movement Chart and leader activity: rules 8.1-8.12, 8.21-8.22 (and 3.54, 7.32/7.33).

The IMC itself is data (``games/heartland/charts/imc.yaml``, a STAND-IN: the
seed prints no chart).  A force's MP for an impulse come from one 1d6 roll on
the table of the operation level committed, in the column of its OC's MR.

Readings chosen where the rules are ambiguous (pinned by
``tests/heartland/test_imc.py``):

* Chart edges: an MR below 1 reads the MR 1 column, above 6 the MR 6
  column; a modified roll of 0 or less reads row 0, 7 or more row 7.
* 8.22c at operation level 6: there is no level 7 table; a cavalry-only
  force reads the level 6 table and gets nothing else.
* 8.22c/d: a cavalry corps gets both the higher table and the -1 DRM
  (cumulative, as 8.62 repeats the -1).  A force is a cavalry corps when the
  caller says so or its OC's record has ``cavalry_corps: true``, and only if
  every unit in it is cavalry.
* 8.22d "2 or more leaders" counts every leader of the force, on the map
  or in a box.
* 3.54: a voluntary ML reduction is declared with the roll (before it), by
  the OC only, and lowers his ML at once even if the roll deactivates him.
* 8.22b, 8.52: unled detachments move only with a leader or a wagon: they
  ride with their wagon's own move (7.21, :mod:`.wagons`), never with an
  unled stack, which leaves them behind (``left_behind``).  A mixed unled
  force with any infantry or engineers reads MR 1; cavalry alone MR 2.
* 7.32/7.33: the caller says the force's supply state; combat supply and
  out of supply both halve the chart MP, rounded up (so 1 MP stays 1).
* 8.11: only the OC of the force is deactivated by a result below 1 MP;
  his AP drop to his inactive AR if higher.
* 8.12 method 4: an inactive OC's IMC roll (with his inactive MR) is the
  attempt; MP of 1 or more reactivate him and the force moves with those MP.
  Method 2's commander must be an active army commander.  AP are not
  restored on reactivation (4.4 resets them at the end of the turn).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

from dataclasses import dataclass, field
from functools import cache

from .state_types import FullGameState, Leader
from ..base import Problem
from . import forces as fc
from . import model
from .fog import hidden_armies
from .forces import APCharge

if TYPE_CHECKING:
    from ...kit.charts import Charts

LEVELS = range(1, 7)           # 8.22: six tables
SUPPLY_STATES = ("full", "combat", "out")   # 7.32-7.34
WDO_COST = 10                  # 3.41a
UNLED_MR = {"infantry": 1, "engineer": 1, "cavalry": 2}     # 8.22b


def half_up(n: int) -> int:
    return -(-n // 2)


@dataclass(frozen=True)
class IMCChart:
    """The IMC as data: ``levels[level][row]`` is a tuple of MP by MR column."""

    levels: dict
    columns: tuple[int, ...]
    rows: tuple[int, ...]
    stand_in: bool
    note: str

    @classmethod
    def load(cls, charts: Charts, path: str | None = None) -> "IMCChart":
        """The game's chart ``charts/imc.yaml`` (of ``charts``), or another file of its shape."""
        return _build_chart(charts.chart_source("imc", path))

    @classmethod
    def from_data(cls, data: dict) -> "IMCChart":
        return cls(
            levels={int(lv): {int(r): tuple(v) for r, v in rows.items()} for lv, rows in data["levels"].items()},
            columns=tuple(data["columns"]),
            rows=tuple(data["rows"]),
            stand_in=bool(data.get("stand_in", False)),
            note=data.get("note", ""),
        )

    def row_for(self, modified: int) -> int:
        """The row a modified roll reads: clamped to the first ("or less") and last ("or more") rows."""
        return min(max(modified, self.rows[0]), self.rows[-1])

    def column_for(self, mr: int) -> int:
        """The MR column read: clamped to the chart's first and last columns."""
        return min(max(mr, self.columns[0]), self.columns[-1])

    def lookup(self, level: int, mr: int, modified: int) -> int:
        row = self.levels[level][self.row_for(modified)]
        return row[self.columns.index(self.column_for(mr))]


@cache
def _build_chart(src) -> IMCChart:
    """Once per chart content (the game's pinned chart, or the disk's)."""
    return IMCChart.from_data(src.data())


@dataclass(frozen=True)
class DRM:
    value: int
    reason: str
    rule: str


@dataclass
class IMCResult:
    """One force's IMC roll (8.21, 8.22) and what follows from it."""

    force: str
    oc: str | None
    level: int
    table: int
    mr: int
    mr_from: str
    drms: list[DRM] = field(default_factory=list)
    roll: int | None = None
    modified: int | None = None
    chart_mp: int = 0
    mp: int = 0
    supply: str = "full"
    halved: bool = False
    deactivates: bool = False
    reactivates: bool = False
    voluntary_ml: int = 0
    ml_after: int | None = None
    charges: list[APCharge] = field(default_factory=list)
    left_behind: list[str] = field(default_factory=list)
    stand_in: bool = True
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.22"
    why: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems


def unled_detachments_stay(state: FullGameState, label: str, side: str) -> str:
    """8.22b, 8.52: why unled detachments make no move of their own, and what moves them."""
    from .wagons import lone_movers, where

    wagons = [sid for sid in lone_movers(state, side)
              if state.get("logistics", {}).get(sid) and where(state, sid) == label]
    how = (f"move the wagon {wagons[0]} and they ride with it as its escort (7.21)" if wagons
           else "they move with a leader's force or ride with a wagon")
    return f"the detachments in {label} cannot move on their own: {how}"


def _request_problems(state: FullGameState, force_id: str, level: int, supply: str, voluntary_ml: int) -> list[Problem]:
    """8.21, 8.22, 7.3, 3.54: the operation level, the supply state, the ML given up, and a
    force that moves on its own (not a leader inside another's force)."""
    problems = []
    if level not in LEVELS:
        problems.append(Problem(f"operation level {level} is not 1-6", "8.22", ["level"]))
    if supply not in SUPPLY_STATES:
        problems.append(Problem(f"supply state {supply!r} is not one of {', '.join(SUPPLY_STATES)}",
                                "7.3", ["supply"]))
    if voluntary_ml < 0:
        problems.append(Problem("a voluntary ML reduction cannot be negative", "3.54", ["voluntary_ml"]))
    if not model.is_unled(force_id) and state["leaders"][force_id].get("superior"):
        problems.append(Problem(f"{force_id} is part of {model.top_of(state, force_id)}'s force and moves "
                                "with it unless detached first", "8.21", ["force"]))
    return problems


@dataclass
class _Column:
    """The MR column a force reads (8.22a, b) with the DRMs (8.22d), AP charges and notes that
    come with it."""

    mr: int
    mr_from: str
    cav_only: bool
    inactive_oc: bool = False
    drms: list[DRM] = field(default_factory=list)
    charges: list[APCharge] = field(default_factory=list)
    left_behind: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    ml_after: int | None = None
    problems: list[Problem] = field(default_factory=list)


def _unled_column(state: FullGameState, force_id: str, voluntary_ml: int, mr_from: str | None) -> _Column:
    """8.22b: unled infantry and engineers read MR 1, unled cavalry MR 2 (the slowest arm sets
    it); detachments stay behind: they move only with a leader or with a wagon's own move (8.52)."""
    side = model.force_side(state, force_id)
    label = model.force_hex(state, force_id)
    problems: list[Problem] = []
    notes: list[str] = []
    left_behind: list[str] = []
    units = model.units_of(state, force_id)
    moving = [u for u in units if state["units"][u]["arm"] != "detachment"]
    left_behind = [u for u in units if state["units"][u]["arm"] == "detachment"]
    if not moving:
        problems.append(Problem(unled_detachments_stay(state, label, side), "8.22b, 8.52", ["force"]))
        mr, mr_src = 1, "unled"
    else:
        mr = min(UNLED_MR.get(state["units"][u]["arm"], 1) for u in moving)   # the slowest arm sets it
        mr_src = "unled cavalry" if mr == 2 else "unled infantry/engineers"
    if voluntary_ml:
        problems.append(Problem("only an OC may lower his ML (an unled force has none)", "3.54",
                                ["voluntary_ml"]))
    if mr_from:
        problems.append(Problem("an unled force cannot borrow a leader's MR; merge it first",
                                "8.22b", ["mr_from"]))
    cav_only = bool(moving) and {state["units"][u]["arm"] for u in moving} == {"cavalry"}
    return _Column(mr, mr_src, cav_only, left_behind=left_behind, notes=notes, problems=problems)


def _lend_mr(state: FullGameState, col: _Column, oc: str, mr_from: str, mr_paid: bool, hexmap) -> None:
    """3.24b, 8.25b, 3.31a: a leader lends his MR to the OC for 1 AP of his."""
    order = fc.lend_mr_order(state, mr_from, oc, hexmap, rule="3.24b")
    # a detach order that paid for the loan was given where both stood (8.25b): the lender
    # may have moved on since, the loan stands
    col.problems += [x for x in order.problems if not mr_paid or x.rule not in ("3.24", "3.31a")]
    col.charges += [] if mr_paid else order.charges
    col.mr = model.current_rating(state["leaders"][mr_from], "mr")
    col.mr_from = f"{mr_from} (lent, 1 AP)"


def _led_column(state: FullGameState, force_id: str, oc: str, voluntary_ml: int, mr_from: str | None, mr_paid: bool,
                hexmap, cavalry_corps: bool | None) -> _Column:
    """8.22a, c, d: the OC's MR (or one lent to him), +1 for 2 or more leaders, -1 for a cavalry
    corps, -1 per ML level the OC gives up (3.54)."""
    ld = state["leaders"][oc]
    inactive_oc = not ld.get("active")
    units = model.units_of(state, force_id)
    cav_only = bool(units) and {state["units"][u]["arm"] for u in units} == {"cavalry"}
    col = _Column(model.current_rating(ld, "mr"), oc + (" (inactive side)" if inactive_oc else ""), cav_only,
                  inactive_oc)
    if mr_from and mr_from != oc:
        _lend_mr(state, col, oc, mr_from, mr_paid, hexmap)
    leaders = model.force_leaders(state, force_id)
    if len(leaders) >= 2:
        col.drms.append(DRM(+1, f"{len(leaders)} leaders in the force", "8.22d"))
    corps_flag = ld.get("cavalry_corps", False) if cavalry_corps is None else cavalry_corps
    if corps_flag and not cav_only:
        col.notes.append("not a cavalry corps: the force is not cavalry only (3.12)")
    if corps_flag and cav_only:
        col.drms.append(DRM(-1, "cavalry corps", "8.22d"))
    if voluntary_ml > 0:
        if voluntary_ml > ld["ml"]:
            col.problems.append(Problem(f"{oc} has ML {ld['ml']}; he cannot give up {voluntary_ml} levels",
                                        "3.54", ["voluntary_ml"]))
        col.drms.append(DRM(-voluntary_ml, f"{oc} gives up {voluntary_ml} ML", "3.54, 8.22d"))
        col.ml_after = ld["ml"] - voluntary_ml
    return col


def _table(level: int, cav_only: bool, notes: list[str]) -> int:
    """8.22c: a cavalry-only force reads the table one level higher (none above level 6)."""
    if not (cav_only and level in LEVELS):
        return level
    table = min(level + 1, max(LEVELS))
    notes.append(f"cavalry only: reads the level {table} table"
                 + (" (no level 7 table: stays at 6)" if level == max(LEVELS) else "") + " (8.22c)")
    return table


def _imc_why(res: IMCResult, notes: list[str]) -> str:
    drm_text = "".join(f" {d.value:+d} ({d.reason})" for d in res.drms)
    why = (f"level {res.level}, MR {res.mr} ({res.mr_from}): rolled {res.roll}{drm_text} = {res.modified}"
           f" -> {res.chart_mp} MP")
    if res.halved:
        why += f", halved for {res.supply} supply -> {res.mp}"
    if notes:
        why += "; " + "; ".join(notes)
    if res.left_behind:
        why += f"; {', '.join(res.left_behind)} stay behind (detachments, 8.22b)"
    if res.deactivates:
        why += f"; under 1 MP: {res.oc} is deactivated (8.11)"
    if res.reactivates:
        why += f"; {res.oc} obtains MP with his inactive MR and reactivates (8.12 method 4)"
    if res.stand_in:
        why += " [stand-in IMC]"
    return why


def imc_roll(state: FullGameState, force_id: str, level: int, dice, *, supply: str = "full", voluntary_ml: int = 0,
             mr_from: str | None = None, mr_paid: bool = False, hexmap=None, cavalry_corps: bool | None = None,
             reactivation_tried: bool = False, chart: IMCChart) -> IMCResult:
    """8.21/8.22: roll the IMC for ``force_id`` at the operation ``level`` committed.

    ``mr_from`` is a leader lending his MR (3.24b, 8.25b, 3.31a: 1 AP from him, unless
    ``mr_paid`` says a detach order already paid it);
    ``voluntary_ml`` the ML levels the OC gives up for -1 DRM each (3.54);
    ``supply`` the force's state for this impulse ("full", "combat", "out").
    Nothing is rolled when the request is illegal (see ``problems``)."""
    side = model.force_side(state, force_id)
    problems = _request_problems(state, force_id, level, supply, voluntary_ml)
    oc = fc.force_oc(state, force_id)
    col = (_unled_column(state, force_id, voluntary_ml, mr_from) if oc is None
           else _led_column(state, force_id, oc, voluntary_ml, mr_from, mr_paid, hexmap, cavalry_corps))
    problems += col.problems
    table = _table(level, col.cav_only, col.notes)
    res = IMCResult(force_id, oc, level, table, col.mr, col.mr_from, col.drms, supply=supply,
                    voluntary_ml=voluntary_ml, ml_after=col.ml_after, charges=col.charges,
                    left_behind=col.left_behind, stand_in=chart.stand_in, problems=problems,
                    rule=("8.22, 3.24b" if oc is not None and mr_from and mr_from != oc
                          else "8.22" if oc is not None else "8.22, 8.22b"))
    if problems:
        res.why = "not rolled: " + "; ".join(p.message for p in problems)
        return res
    # the MP are a secret (3.71), but where each side keeps its own display the enemy's copy moves the force
    res.roll = dice.d6(f"IMC {force_id} (level {level})", by=side,
                       visible_to=None if hidden_armies(state) else [side])
    res.modified = res.roll + sum(d.value for d in col.drms)
    res.chart_mp = chart.lookup(table, col.mr, res.modified)
    res.halved = supply in ("combat", "out")
    res.mp = half_up(res.chart_mp) if res.halved else res.chart_mp
    # 8.11: under 1 MP deactivates the OC; 8.12 method 4: MP with his inactive MR reactivate him
    res.deactivates = oc is not None and res.mp < 1 and not col.inactive_oc
    res.reactivates = oc is not None and col.inactive_oc and res.mp >= 1 and not reactivation_tried
    res.why = _imc_why(res, col.notes)
    return res


def apply_imc(state: FullGameState, result: IMCResult) -> None:
    """Apply a legal IMC roll: AP lent, the voluntary ML loss, deactivation or reactivation."""
    if result.problems:
        raise ValueError("cannot apply an illegal IMC roll: " + result.why)
    fc.apply_charges(state, result.charges)
    if result.oc is None:
        return
    ld = state["leaders"][result.oc]
    if result.ml_after is not None:
        ld["ml"] = result.ml_after
    if result.deactivates:
        apply_deactivation(state, deactivation(state, result.oc, cause="IMC result under 1 MP"))
    if result.reactivates:
        ld["active"] = True


# --- deactivation (8.11) -------------------------------------------------------------------

@dataclass
class Deactivation:
    leader: str
    voluntary: bool
    ap_before: int
    ap_after: int
    rule: str = "8.11"
    why: str = ""


def deactivation(state: FullGameState, lid: str, *, voluntary: bool = False, cause: str = "") -> Deactivation:
    """8.11 (involuntary) / 8.12a (voluntary): flip to the inactive side; AP fall to the
    inactive-side AR if they are higher."""
    ld = state["leaders"][lid]
    back_ar = model.current_rating(ld, "ar", "inactive")
    before = ld.get("ap", 0)
    after = min(before, back_ar)
    why = (f"{lid} is deactivated" + (f" ({cause})" if cause else "") + (" voluntarily" if voluntary else "")
           + f"; AP {before} -> {after} (inactive AR {back_ar})")
    return Deactivation(lid, voluntary, before, after, "8.12a" if voluntary else "8.11", why)


def apply_deactivation(state: FullGameState, d: Deactivation) -> None:
    ld = state["leaders"][d.leader]
    ld["active"] = False
    ld["ap"] = d.ap_after


# --- reactivation (8.12) -------------------------------------------------------------------

METHODS = {1: "roll 1d6 <= inactive AR", 2: "army commander's order (1 AP)", 3: "War Department Order (10 WEP)",
           4: "IMC with the inactive MR"}


@dataclass
class Reactivation:
    leader: str
    method: int
    success: bool = False
    roll: int | None = None
    imc: IMCResult | None = None
    charges: list[APCharge] = field(default_factory=list)
    wep: int = 0
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.12"
    why: str = ""


def reactivation(state: FullGameState, lid: str, method: int, dice=None, *, commander: str | None = None, hexmap=None,
                 wep: int | None = None, wdo_used: bool = False, tried: bool = False, level: int | None = None,
                 supply: str = "full", chart: IMCChart) -> Reactivation:
    """8.12: try to reactivate inactive leader ``lid`` by ``method`` 1-4 (one method per impulse).

    1: roll 1d6 <= inactive AR; 2: an active army commander (``commander``) with ``lid`` in his
    command range orders it for 1 AP (3.31b); 3: a WDO for 10 WEP (3.41; ``wep`` is the
    side's WEP, ``wdo_used`` whether a WDO was used this turn); 4: the IMC at ``level`` with the
    inactive MR gives at least 1 MP."""
    r = Reactivation(lid, method)
    ld = state["leaders"][lid]
    p = r.problems
    p += _reactivation_problems(ld, lid, method, tried)
    if method == 2:
        _order_problems(state, r, ld, commander, hexmap)
    if method == 3:
        p += _wdo_problems(wep, wdo_used)
        r.wep = WDO_COST
    if method == 4:
        p += _imc_method_problems(ld, lid, level)
    if p:
        r.why = "not tried: " + "; ".join(x.message for x in p)
        return r
    if method == 1:
        _roll_against_ar(r, ld, dice)
    elif method == 2:
        r.success = True
        r.why = f"{commander} pays 1 AP and orders {lid} to activate (3.31b)"
    elif method == 3:
        r.success = True
        r.why = f"a War Department Order ({WDO_COST} WEP) activates {lid} (3.41)"
    else:
        _reactivate_by_imc(state, r, level, dice, supply=supply, chart=chart)
    return r


def _reactivation_problems(ld: Leader, lid: str, method: int, tried: bool) -> list[Problem]:
    """8.12 / 8.12a: a known method, for an inactive leader in service, once per impulse."""
    p: list[Problem] = []
    if method not in METHODS:
        p.append(Problem(f"method {method} is not 1-4", "8.12", ["method"]))
    if ld.get("active"):
        p.append(Problem(f"{lid} is already active", "8.12", ["leader"]))
    if ld.get("pool") or not fc.in_service(ld):
        p.append(Problem(f"{lid} is not on the map or in a box", "8.12", ["leader"]))
    if tried:
        p.append(Problem(f"{lid} has already tried to reactivate this impulse: one method per impulse",
                         "8.12a", ["method"]))
    return p


def _order_problems(state: FullGameState, r: Reactivation, ld: Leader, commander: str | None, hexmap) -> None:
    """8.12 method 2 / 3.31b: an active friendly army commander with the leader in his command range
    orders him to activate for 1 AP (the charge is set on ``r``)."""
    lid, p = r.leader, r.problems
    if not commander or commander not in state["leaders"]:
        p.append(Problem("method 2 needs the ordering army commander", "8.12", ["commander"]))
        return
    cd = state["leaders"][commander]
    if not cd.get("hq") or cd["side"] != ld["side"] or commander == lid:
        p.append(Problem(f"{commander} is not a friendly army commander", "3.31b", ["commander"]))
    elif not cd.get("active"):
        p.append(Problem(f"{commander} is inactive and cannot give orders", "8.1", ["commander"]))
    elif not fc.in_command_range(state, hexmap, commander, cast(str, ld.get("hex"))):
        p.append(Problem(f"{lid} is outside {commander}'s command range "
                         f"({fc.command_range(state, commander)} hexes)", "8.12", ["commander"]))
    r.charges = [APCharge(commander, 1, "3.31b", f"{commander} orders {lid} to activate")]
    p += fc.ap_problems(state, r.charges)


def _wdo_problems(wep: int | None, wdo_used: bool) -> list[Problem]:
    """8.12 method 3 / 3.41a: at most one War Department Order a turn, and the side pays its WEP."""
    p: list[Problem] = []
    if wdo_used:
        p.append(Problem("a WDO was already used this turn (at most 1 per turn)", "3.41a", ["method"]))
    if wep is not None and wep < WDO_COST:
        p.append(Problem(f"a WDO costs {WDO_COST} WEP; the side has {wep}", "3.41a", ["method"]))
    return p


def _imc_method_problems(ld: Leader, lid: str, level: int | None) -> list[Problem]:
    """8.12 method 4 / 8.22a: an OC (not an SL) rolls the IMC at the impulse's operation level."""
    p: list[Problem] = []
    if ld.get("superior"):
        p.append(Problem(f"{lid} is an SL: his force moves on its OC's IMC roll (8.22a); detach him first",
                         "8.22a", ["leader"]))
    if level is None:
        p.append(Problem("method 4 needs the impulse's operation level", "8.12", ["level"]))
    return p


def _roll_against_ar(r: Reactivation, ld: Leader, dice) -> None:
    """8.12 method 1: 1d6 at or under the inactive AR reactivates him."""
    ar = model.current_rating(ld, "ar", "inactive")
    r.roll = dice.d6(f"reactivation {r.leader}", by=ld["side"])
    r.success = r.roll <= ar
    r.why = f"{r.leader} rolls {r.roll} against inactive AR {ar}: {'reactivated' if r.success else 'stays inactive'}"


def _reactivate_by_imc(state: FullGameState, r: Reactivation, level, dice, *, supply: str, chart: IMCChart) -> None:
    """8.12 method 4: the IMC with the inactive MR; at least 1 MP reactivates him, and the force
    moves with these MP."""
    imc = imc_roll(state, r.leader, level, dice, supply=supply, chart=chart)
    r.imc = imc
    r.problems += imc.problems
    r.roll = imc.roll
    r.success = imc.legal and imc.mp >= 1
    r.why = (f"{imc.why}; " + ("reactivated, and the force moves with these MP" if r.success
                               else f"{r.leader} stays inactive"))


def apply_reactivation(state: FullGameState, r: Reactivation) -> None:
    """Apply a reactivation attempt: its AP cost and, on success, the flip (WEP are the caller's)."""
    if r.problems:
        raise ValueError("cannot apply an illegal reactivation: " + r.why)
    fc.apply_charges(state, r.charges)
    if r.success:
        state["leaders"][r.leader]["active"] = True
