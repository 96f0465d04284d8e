"""The Reorganization Segment's second step, foraging: rules 13.2, 13.21, 13.22, 13.23 and 7.35a.

June to September, a force forages the clear hexes around it on the
Foraging Chart (``games/heartland/charts``) and takes WEP or Own Use markers
(13.21, 13.22, 7.35a).  The step's orders, the readings and the order of the
segment are in :mod:`.reorganization`.

13.23 restricts it: a force in enemy ZOC may not forage, nor one in a
devastated town; of the clear hexes around it, those in enemy ZOC, a
devastated town, those across a major river without a bridge or ford and
those already holding a friendly leader are not counted.  Readings: a burned
bridge is no bridge (13.11) and a ferry is neither (8.24a), a laid pontoon
counts as a bridge (as for movement, 8.81); the foraging hex itself is never
"across" and its own leader does not strike it; other foragers may count the
same hex (the cut-off last sentence).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Mapping, TYPE_CHECKING

from .state_types import FullGameState
from ..base import Problem
from . import model
from .forced_march import Work
from .reorg_step import (
    Action, StepResult, _AP, _spend_ap, _leader_problems, _must_be_oc, _record, _recorded, _refused,
    _summary, _wep_change, marked, month_of, turn_of)

if TYPE_CHECKING:
    from ...kit.charts import Charts

FORAGE_MONTHS = (6, 7, 8, 9)     # 13.21: June to September
TOWN, MAJOR_CITY, CLEAR = "town", "major_city", "clear"


# --------------------------------------------------------------------------
# 13.2 foraging


@dataclass(frozen=True)
class ForagingChart:
    columns: tuple[int, ...]
    table: dict
    stand_in: bool
    note: str

    @classmethod
    def load(cls, charts: Charts, path: str | None = None) -> "ForagingChart":
        """The game's chart ``charts/foraging.yaml`` (of ``charts``), or another file of its shape."""
        return _build_foraging(charts.chart_source("foraging", path))

    def lookup(self, clear: int, roll: int):
        col = self.columns.index(min(max(clear, self.columns[0]), self.columns[-1]))
        return self.table[min(max(roll, min(self.table)), max(self.table))][col]


@cache
def _build_foraging(src) -> ForagingChart:
    d = src.data()
    return ForagingChart(tuple(int(c) for c in d["columns"]), {int(r): tuple(v) for r, v in d["table"].items()},
                         bool(d.get("stand_in")), str(d.get("note", "")))


def is_town(state: FullGameState, hexmap, h) -> bool:
    """A town hex whose town has not been burned (13.12)."""
    return TOWN in hexmap.features(h) and hexmap.label(h) not in marked(state, "devastated")


def clear_hexes(state: FullGameState, hexmap, label: str) -> list[str]:
    """13.22: the clear hexes among ``label`` and its six neighbours (on the map); towns count as clear."""
    h = hexmap.parse(label)
    out = []
    for x in [h] + [n for n in h.neighbours() if n in hexmap.grid]:
        if hexmap.terrain(x).name == CLEAR or is_town(state, hexmap, x):
            out.append(hexmap.label(x))
    return out


@dataclass(frozen=True)
class ForagingCount:
    """13.22-13.23: the clear hexes a forager counts, and those 13.23 strikes out (hex -> why)."""

    counted: list[str]
    struck: dict[str, str]

    def why(self) -> str:
        if not self.struck:
            return ""
        return "; not counted, 13.23: " + "; ".join(f"{h} {w}" for h, w in self.struck.items())


def _crossable(state: FullGameState, hexmap, a, b, side: str) -> bool:
    """13.23: no major river between ``a`` and ``b``, or one with a bridge (not burned, 13.11), a ford or
    a laid pontoon of ``side`` (8.81); a ferry is neither bridge nor ford (8.24a)."""
    from ...geometry.hex import HexSide
    from .engineers import pontoon_hexsides

    s = HexSide(a, b)
    raw = set(hexmap.side_features(s, effective=False))
    if "major_river" not in raw:
        return True
    where = hexmap.grid.side_label(s)
    if "ford" in raw or where in {hexmap.grid.side_label(hexmap.grid.parse_hexside(str(p)))
                                  for p in pontoon_hexsides(state, side)}:
        return True
    burned = {hexmap.grid.side_label(hexmap.grid.parse_hexside(x)) for x in marked(state, "burned_bridges")}
    return "bridge" in raw and where not in burned


def foraging_count(state: FullGameState, hexmap, label: str, side: str) -> ForagingCount:
    """13.22 with 13.23: the clear hexes (towns count) among ``label`` and its neighbours that ``side``'s
    forager there may count: not a devastated town, not in enemy ZOC, not across a major river without
    a bridge or ford, not holding another friendly leader."""
    from .zoc import zoc_hexes

    h = hexmap.parse(label)
    zoc = set(zoc_hexes(state, model.other_side(side), hexmap))
    leaders = {ld["hex"] for _, ld in model.on_map_leaders(state, side)}
    devastated = marked(state, "devastated")
    counted: list[str] = []
    struck: dict[str, str] = {}
    for x in [h] + [n for n in h.neighbours() if n in hexmap.grid]:
        lab = hexmap.label(x)
        if TOWN in hexmap.features(x) and lab in devastated:
            struck[lab] = "is a devastated town"
        elif not (hexmap.terrain(x).name == CLEAR or is_town(state, hexmap, x)):
            continue
        elif lab in zoc:
            struck[lab] = "is in enemy ZOC"
        elif x != h and not _crossable(state, hexmap, h, x, side):
            struck[lab] = "is across a major river without bridge or ford"
        elif x != h and lab in leaders:
            struck[lab] = "holds a friendly leader"
        else:
            counted.append(lab)
    return ForagingCount(counted, struck)


def north_of_ohio(state: FullGameState, label: str) -> bool:
    """13.22: is ``label`` north of the Ohio River (``state["north_of_ohio"]``: hexes, or true)?"""
    v: Any = state.get("north_of_ohio")        # hexes, or true
    if v is True:
        return True
    return bool(v) and label in set(map(str, v))


def check_foraging(state: FullGameState, side: str, orders: Mapping | None, hexmap) -> list[Problem]:
    return _foraging_plan(state, side, orders, hexmap)[1]


def _foraging_plan(state: FullGameState, side: str, orders: Mapping | None, hexmap):
    items = list((orders or {}).get("foraging") or [])
    plan: list[dict] = []
    problems: list[Problem] = []
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
    from .zoc import zoc_hexes

    zoc = set(zoc_hexes(state, model.other_side(side), hexmap))       # 13.23

    for i, o in enumerate(items):
        path = ["foraging", i]
        lid: Any = o.get("leader") if isinstance(o, Mapping) else o      # order data, checked next
        ps = _leader_problems(state, side, lid, path + ["leader"], "13.21", active=True)
        ps = ps or _must_be_oc(state, side, lid, path + ["leader"], "13.21")
        if ps:
            problems += ps
            continue
        here = state["leaders"][lid]["hex"]
        h = hexmap.parse(here)
        if TOWN in hexmap.features(h) and here in marked(state, "devastated"):
            problems.append(Problem(f"{lid} is in {here}, a devastated town: it cannot be used for foraging",
                                    "13.23", path))
            continue
        if not (is_town(state, hexmap, h) or MAJOR_CITY in hexmap.features(h)):
            problems.append(Problem(f"{lid} is in {here}, which is not a town or major city", "13.21", path))
            continue
        if here in zoc:
            problems.append(Problem(f"{lid}'s force in {here} is in enemy ZOC and may not forage", "13.23", path))
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


def foraging(state: FullGameState, side: str, orders: Mapping | None, dice, hexmap, *,
             chart: ForagingChart) -> StepResult:
    """13.2-13.22: forage for an Own Use marker or WEP (doubled for Confederates north of the Ohio)."""
    plan, problems = _foraging_plan(state, side, orders, hexmap)
    if problems:
        return _refused("foraging", side, problems, "13.2")
    work = Work(state)
    actions = []
    for p in plan:
        lid, here = p["leader"], p["hex"]
        count = foraging_count(work.state, hexmap, here, side)
        clear = count.counted
        _spend_ap(work, lid, 1)
        roll = dice.d6(f"foraging {here} ({lid})", by=side)
        res = chart.lookup(len(clear), roll)
        _record(work, "foraged", side, here)
        base = (f"{lid} forages in {here} (1 AP): {len(clear)} clear hex(es) (13.22{count.why()}), "
                f"rolled {roll} -> {res}")
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
